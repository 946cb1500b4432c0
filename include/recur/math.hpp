#ifndef RECUR_MATH_HPP
#define RECUR_MATH_HPP

// Math functions for device code (recurrences of your own, for_each_slice
// bodies, the functions recur::project samples) that compile on every
// supported Kokkos (3.4 to 4.x; 3.4 keeps them in Kokkos::Experimental) and
// every backend, host and device alike. Each forwards to Kokkos' function of
// the same name: float, double and long double arguments keep their type,
// integers are taken as double, as in <cmath>.

#include <recur/impl/kokkos_compat.hpp>

#include <type_traits>

namespace recur {

#define RECUR_IMPL_UNARY_MATH(name)                              \
  template <class T>                                             \
  KOKKOS_INLINE_FUNCTION auto name(T x) {                        \
    static_assert(std::is_arithmetic_v<T>,                       \
                  "recur::" #name ": the argument must be a real number"); \
    return impl::kokkos_math::name(x);                           \
  }
#define RECUR_IMPL_BINARY_MATH(name)                             \
  template <class T, class U>                                    \
  KOKKOS_INLINE_FUNCTION auto name(T x, U y) {                   \
    static_assert(std::is_arithmetic_v<T> && std::is_arithmetic_v<U>, \
                  "recur::" #name ": the arguments must be real numbers"); \
    return impl::kokkos_math::name(x, y);                        \
  }

RECUR_IMPL_UNARY_MATH(sqrt)
RECUR_IMPL_UNARY_MATH(cbrt)
RECUR_IMPL_UNARY_MATH(exp)
RECUR_IMPL_UNARY_MATH(exp2)
RECUR_IMPL_UNARY_MATH(expm1)
RECUR_IMPL_UNARY_MATH(log)
RECUR_IMPL_UNARY_MATH(log2)
RECUR_IMPL_UNARY_MATH(log10)
RECUR_IMPL_UNARY_MATH(log1p)
RECUR_IMPL_UNARY_MATH(sin)
RECUR_IMPL_UNARY_MATH(cos)
RECUR_IMPL_UNARY_MATH(tan)
RECUR_IMPL_UNARY_MATH(asin)
RECUR_IMPL_UNARY_MATH(acos)
RECUR_IMPL_UNARY_MATH(atan)
RECUR_IMPL_UNARY_MATH(sinh)
RECUR_IMPL_UNARY_MATH(cosh)
RECUR_IMPL_UNARY_MATH(tanh)
RECUR_IMPL_UNARY_MATH(asinh)
RECUR_IMPL_UNARY_MATH(acosh)
RECUR_IMPL_UNARY_MATH(atanh)
RECUR_IMPL_UNARY_MATH(erf)
RECUR_IMPL_UNARY_MATH(erfc)
RECUR_IMPL_UNARY_MATH(tgamma)
RECUR_IMPL_UNARY_MATH(lgamma)
RECUR_IMPL_UNARY_MATH(fabs)
RECUR_IMPL_UNARY_MATH(floor)
RECUR_IMPL_UNARY_MATH(ceil)
RECUR_IMPL_UNARY_MATH(trunc)
RECUR_IMPL_UNARY_MATH(isfinite)
RECUR_IMPL_UNARY_MATH(isnan)
RECUR_IMPL_BINARY_MATH(pow)
RECUR_IMPL_BINARY_MATH(atan2)
RECUR_IMPL_BINARY_MATH(hypot)
RECUR_IMPL_BINARY_MATH(fmod)
RECUR_IMPL_BINARY_MATH(fmin)
RECUR_IMPL_BINARY_MATH(fmax)

#undef RECUR_IMPL_UNARY_MATH
#undef RECUR_IMPL_BINARY_MATH

/// |x|: fabs for floating-point x, and integers keep their type.
template <class T>
KOKKOS_INLINE_FUNCTION auto abs(T x) {
  static_assert(std::is_arithmetic_v<T>, "recur::abs: the argument must be a real number");
  if constexpr (std::is_integral_v<T>) {
    return x < 0 ? T(-x) : x;
  } else {
    return impl::kokkos_math::fabs(x);
  }
}

}  // namespace recur

#endif
