#ifndef RECUR_IMPL_THREE_TERM_HPP
#define RECUR_IMPL_THREE_TERM_HPP

#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

namespace recur::impl {

template <class Family, class = void>
struct is_three_term_family : std::false_type {};
template <class Family>
struct is_three_term_family<
    Family, std::void_t<decltype(std::declval<const Family&>().initial()),
                        decltype(std::declval<const Family&>().coefficients(0))>>
    : std::true_type {};

template <class Family, class T, class = void>
struct is_direct_family : std::false_type {};
template <class Family, class T>
struct is_direct_family<
    Family, T,
    std::void_t<decltype(std::declval<const Family&>().fill(
        std::declval<T>(), std::declval<const Slice<T>&>()))>>
    : std::true_type {};

template <class Family, class T, class = void>
struct has_derivative_fill : std::false_type {};
template <class Family, class T>
struct has_derivative_fill<
    Family, T,
    std::void_t<decltype(std::declval<const Family&>().fill(
        std::declval<T>(), std::declval<const Slice<T>&>(),
        std::declval<const Slice<T>&>()))>>
    : std::true_type {};

// A three-term family whose members carry an x-dependent prefactor
// exp(exponent(x)) (HermiteFunction's e^{-x²/2}).
template <class Family, class = void>
struct has_exponent : std::false_type {};
template <class Family>
struct has_exponent<Family, std::void_t<decltype(std::declval<const Family&>().exponent(
                                1.0))>> : std::true_type {};

// The device side of a three-term family: the tabulated coefficients and p_0.
template <class T, class MemorySpace>
struct ThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<T>*, MemorySpace> coefficients;
  T initial;

  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const {
    T previous = 0;
    T current  = initial;
    s(0)       = current;
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<T> k = coefficients(n);
      const T next = (k.a * x + k.b) * current - k.c * previous;
      previous     = current;
      current      = next;
      s(n + 1)     = current;
    }
  }

  // With p'_{n+1} = a p_n + (a x + b) p'_n - c p'_{n-1}, in the same pass.
  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s, const Slice<T>& ds) const {
    T previous = 0, current = initial;
    T dprevious = 0, dcurrent = 0;
    s(0)  = current;
    ds(0) = dcurrent;
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<T> k = coefficients(n);
      const T factor = k.a * x + k.b;
      const T next   = factor * current - k.c * previous;
      const T dnext  = k.a * current + factor * dcurrent - k.c * dprevious;
      previous       = current;
      current        = next;
      dprevious      = dcurrent;
      dcurrent       = dnext;
      s(n + 1)       = current;
      ds(n + 1)      = dcurrent;
    }
  }
};

// A three-term family times exp(g(x)), g = family.exponent(x). The
// recurrence runs on q_n = p_n / (2^e exp(g)), rescaled by a power of two
// whenever it grows past 2^bits, and each output is q_n times the factor
// 2^e exp(g), kept in double. So exp(g) may underflow (g = -x²/2 for |x| > 38
// in double, > 13 in float) while p_n is still representable: the polynomial
// growth makes up for it before anything is lost.
template <class T, class MemorySpace, class Family>
struct ScaledThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<T>*, MemorySpace> coefficients;
  T initial;
  Family family;

  static constexpr bool single = std::is_same_v<T, float>;
  static constexpr int bits     = single ? 32 : 256;
  static constexpr T limit      = single ? T(0x1p32) : T(0x1p256);
  static constexpr T shrink     = single ? T(0x1p-32) : T(0x1p-256);

  template <bool derivative>
  KOKKOS_FUNCTION void run(T x, const Slice<T>& s, const Slice<T>& ds) const {
    const double g = family.exponent(double(x));
    const T dg     = T(family.exponent_derivative(double(x)));
    int e          = 0;
    double scale   = kokkos_math::exp(g);
    T previous = 0, current = initial;
    T dprevious = 0, dcurrent = 0;
    s(0) = T(current * scale);
    if constexpr (derivative) ds(0) = T((dcurrent + dg * current) * scale);
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<T> k = coefficients(n);
      const T factor = k.a * x + k.b;
      const T next   = factor * current - k.c * previous;
      previous       = current;
      current        = next;
      if constexpr (derivative) {
        const T dnext = k.a * previous + factor * dcurrent - k.c * dprevious;
        dprevious     = dcurrent;
        dcurrent      = dnext;
      }
      if (kokkos_math::fabs(current) > limit ||
          (derivative && kokkos_math::fabs(dcurrent) > limit)) {
        current *= shrink;
        previous *= shrink;
        dcurrent *= shrink;
        dprevious *= shrink;
        e += bits;
        scale = kokkos_math::exp(g + e * 0.69314718055994530942);
      }
      s(n + 1) = T(current * scale);
      if constexpr (derivative) ds(n + 1) = T((dcurrent + dg * current) * scale);
    }
  }

  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const { run<false>(x, s, s); }
  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s, const Slice<T>& ds) const {
    run<true>(x, s, ds);
  }
};

// What runs per x for `family` with N terms in precision T: a direct family
// runs as it is; a three-term family gets its coefficients tabulated on the
// host (in double) and copied to the execution space once per call.
template <class T, class ExecSpace, class Family>
auto make_kernel(const ExecSpace& space, const Family& family, int N) {
  if constexpr (is_direct_family<Family, T>::value) {
    (void)space;
    (void)N;
    return family;
  } else {
    static_assert(is_three_term_family<Family>::value,
                  "recur: a family must either give initial() and "
                  "coefficients(int n) (a three-term family) or a "
                  "fill(x, slice) member template (a direct family); see "
                  "recur/families.hpp");
    using MemorySpace = typename ExecSpace::memory_space;
    Kokkos::View<ThreeTermCoefficients<T>*, MemorySpace> table(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                           "recur::evaluate::coefficients"),
        N - 1);
    auto host = Kokkos::create_mirror_view(table);
    for (int n = 0; n + 1 < N; ++n) {
      const ThreeTermCoefficients<double> k = family.coefficients(n);
      host(n) = {T(k.a), T(k.b), T(k.c)};
    }
    Kokkos::deep_copy(space, table, host);
    // The host mirror must outlive the (possibly asynchronous) copy.
    fence(space, "recur::evaluate: coefficient upload");
    if constexpr (has_exponent<Family>::value) {
      return ScaledThreeTermKernel<T, MemorySpace, Family>{table, T(family.initial()),
                                                           family};
    } else {
      return ThreeTermKernel<T, MemorySpace>{table, T(family.initial())};
    }
  }
}

}  // namespace recur::impl

#endif
