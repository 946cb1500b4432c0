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

// Three-term recurrences run in double whatever V holds: a float result is
// then the rounding of a double one. Near x = +-1 the recurrence's rounding
// errors grow like n² (the families' derivatives do), so in float itself
// the error at N = 2000 would reach 1e-1; in double it is 1e-10. On a GPU
// the extra cost is nil (the kernel is bound by memory, not arithmetic); on
// a CPU the recurrence is latency-bound either way.
using Working = double;

// One step p_{n+1} = (a x + b) p_n - c p_{n-1}. The fused multiply-add keeps
// (a x + b) p_n from overflowing on its own when p_{n+1} is representable,
// and a zero factor (x at the family's centre, e.g. He_n(0)) contributes
// nothing even after p_n overflowed: He_odd(0) = 0, not 0 * inf = NaN.
KOKKOS_FORCEINLINE_FUNCTION Working step(const ThreeTermCoefficients<Working>& k,
                                         Working factor, Working current,
                                         Working previous) {
  return factor == 0 ? -k.c * previous : fma(factor, current, -k.c * previous);
}

// The device side of a three-term family: the tabulated coefficients and p_0.
template <class MemorySpace>
struct ThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<Working>*, MemorySpace> coefficients;
  Working initial;

  template <class T>
  KOKKOS_FUNCTION void fill(T x_in, const Slice<T>& s) const {
    const Working x  = x_in;
    Working previous = 0;
    Working current  = initial;
    s(0)             = T(current);
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<Working> k = coefficients(n);
      const Working next = step(k, fma(k.a, x, k.b), current, previous);
      previous           = current;
      current            = next;
      s(n + 1)           = T(current);
    }
  }

  // With p'_{n+1} = a p_n + (a x + b) p'_n - c p'_{n-1}, in the same pass.
  template <class T>
  KOKKOS_FUNCTION void fill(T x_in, const Slice<T>& s, const Slice<T>& ds) const {
    const Working x = x_in;
    Working previous = 0, current = initial;
    Working dprevious = 0, dcurrent = 0;
    s(0)  = T(current);
    ds(0) = T(dcurrent);
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<Working> k = coefficients(n);
      const Working factor = fma(k.a, x, k.b);
      const Working next   = step(k, factor, current, previous);
      const Working dnext  = fma(k.a, current, step(k, factor, dcurrent, dprevious));
      previous             = current;
      current              = next;
      dprevious            = dcurrent;
      dcurrent             = dnext;
      s(n + 1)             = T(current);
      ds(n + 1)            = T(dcurrent);
    }
  }
};

// A three-term family times exp(g(x)), g = family.exponent(x). The
// recurrence runs on q_n = p_n / (2^e exp(g)), rescaled by 2^-256 whenever it
// grows past 2^256, and each output is q_n times the factor 2^e exp(g). Where
// that factor is below double's range (g = -x²/2 for |x| > 38), the output
// is exp(g + e ln 2 + ln|q_n|) instead, so values that are representable
// come out right although neither exp(g) nor q_n alone would do.
template <class MemorySpace, class Family>
struct ScaledThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<Working>*, MemorySpace> coefficients;
  Working initial;
  Family family;

  static constexpr int bits        = 256;
  static constexpr Working limit   = 0x1p256;
  static constexpr Working shrink  = 0x1p-256;
  static constexpr Working log_two = 0.69314718055994530942;
  static constexpr Working tiny    = 0x1p-900;

  KOKKOS_FUNCTION static Working output(Working q, Working scale, Working log_scale) {
    if (scale >= tiny || q == 0) return q * scale;
    const Working magnitude = kokkos_math::exp(log_scale + kokkos_math::log(kokkos_math::fabs(q)));
    return q < 0 ? -magnitude : magnitude;
  }

  template <bool derivative, class T>
  KOKKOS_FUNCTION void run(T x_in, const Slice<T>& s, const Slice<T>& ds) const {
    const Working x  = x_in;
    const Working g  = family.exponent(x);
    const Working dg = family.exponent_derivative(x);
    Working log_scale = g;  // ln(2^e exp(g))
    Working scale     = kokkos_math::exp(log_scale);
    Working previous = 0, current = initial;
    Working dprevious = 0, dcurrent = 0;
    s(0) = T(output(current, scale, log_scale));
    if constexpr (derivative) ds(0) = T(output(dcurrent + dg * current, scale, log_scale));
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<Working> k = coefficients(n);
      const Working factor = fma(k.a, x, k.b);
      const Working next   = step(k, factor, current, previous);
      if constexpr (derivative) {
        const Working dnext = fma(k.a, current, step(k, factor, dcurrent, dprevious));
        dprevious           = dcurrent;
        dcurrent            = dnext;
      }
      previous = current;
      current  = next;
      if (kokkos_math::fabs(current) > limit ||
          (derivative && kokkos_math::fabs(dcurrent) > limit)) {
        current *= shrink;
        previous *= shrink;
        dcurrent *= shrink;
        dprevious *= shrink;
        log_scale += bits * log_two;
        scale = kokkos_math::exp(log_scale);
      }
      s(n + 1) = T(output(current, scale, log_scale));
      if constexpr (derivative)
        ds(n + 1) = T(output(dcurrent + dg * current, scale, log_scale));
    }
  }

  template <class T>
  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const {
    run<false>(x, s, s);
  }
  template <class T>
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
    Kokkos::View<ThreeTermCoefficients<Working>*, MemorySpace> table(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                           "recur::evaluate::coefficients"),
        N - 1);
    auto host = Kokkos::create_mirror_view(table);
    for (int n = 0; n + 1 < N; ++n) {
      const auto k = family.coefficients(n);
      host(n)      = {Working(k.a), Working(k.b), Working(k.c)};
    }
    Kokkos::deep_copy(space, table, host);
    // The host mirror must outlive the (possibly asynchronous) copy.
    fence(space, "recur::evaluate: coefficient upload");
    if constexpr (has_exponent<Family>::value) {
      return ScaledThreeTermKernel<MemorySpace, Family>{table, Working(family.initial()),
                                                        family};
    } else {
      return ThreeTermKernel<MemorySpace>{table, Working(family.initial())};
    }
  }
}

}  // namespace recur::impl

#endif
