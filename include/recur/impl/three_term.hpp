#ifndef RECUR_IMPL_THREE_TERM_HPP
#define RECUR_IMPL_THREE_TERM_HPP

#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <cstring>
#include <mutex>
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

// Arithmetic of the three-term recurrences. Near x = +-1 their rounding
// errors grow like n² (as the families' derivatives do), so a recurrence run
// in V's own precision loses most digits at high degree: float at N = 2000
// would be off by 1e-1, double by 1e-10. recur therefore runs
//  - float outputs in double (each result is the rounding of a double one),
//  - double outputs in double-double ("double-word") arithmetic, with the
//    coefficients tabulated from long double,
// and rounds once at the store. Float in double costs nothing measurable on
// an H200 (the kernel is bound by memory); double-double halves its double
// throughput (then bound by FP64 arithmetic) and costs a CPU more, the most
// where the compiler has no FMA instructions (docs/performance.md).
struct DoubleDouble {
  double hi;
  double lo;
};

KOKKOS_FORCEINLINE_FUNCTION DoubleDouble two_sum(double a, double b) {
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble fast_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
// Past double's range the low parts would turn inf into NaN: the operations
// below keep the inf instead.
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator+(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble s = two_sum(a.hi, b.hi), t = two_sum(a.lo, b.lo);
  if (!(kokkos_math::fabs(s.hi) <= 1.79769313486231570e308)) return {s.hi, 0.0};
  const DoubleDouble u = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(u.hi, u.lo + t.lo);
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator-(DoubleDouble a) { return {-a.hi, -a.lo}; }
// The rounding error of a b, exactly: a b - fl(a b).
KOKKOS_FORCEINLINE_FUNCTION double product_error(double a, double b, double p) {
#ifdef RECUR_IMPL_HARDWARE_FMA
  return fma(a, b, -p);
#else  // Dekker's splitting, for CPUs compiled without FMA instructions
  if (kokkos_math::fabs(a) > 0x1p995 || kokkos_math::fabs(b) > 0x1p995) return 0;  // would overflow
  constexpr double split = 134217729.0;  // 2^27 + 1
  const double ta = split * a, tb = split * b;
  const double ah = ta - (ta - a), al = a - ah;
  const double bh = tb - (tb - b), bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
#endif
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator*(DoubleDouble a, DoubleDouble b) {
  const double p = a.hi * b.hi;
  if (!(kokkos_math::fabs(p) <= 1.79769313486231570e308)) return {p, 0.0};
  return fast_two_sum(p, a.hi * b.lo + a.lo * b.hi + product_error(a.hi, b.hi, p));
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator*(DoubleDouble a, double b) {
  const double p = a.hi * b;
  if (!(kokkos_math::fabs(p) <= 1.79769313486231570e308)) return {p, 0.0};
  return fast_two_sum(p, a.lo * b + product_error(a.hi, b, p));
}

// The working number for outputs of type T, and conversions.
template <class T>
using working_t = std::conditional_t<std::is_same_v<T, double>, DoubleDouble, double>;

inline void from_long_double(long double v, double& out) { out = double(v); }
inline void from_long_double(long double v, DoubleDouble& out) {
  out.hi = double(v);
  out.lo = double(v - out.hi);
}
template <class W>
KOKKOS_FORCEINLINE_FUNCTION W constant(double v) {
  if constexpr (std::is_same_v<W, double>) {
    return v;
  } else {
    return W{v, 0.0};
  }
}
KOKKOS_FORCEINLINE_FUNCTION double to_double(double v) { return v; }
KOKKOS_FORCEINLINE_FUNCTION double to_double(DoubleDouble v) { return v.hi; }
KOKKOS_FORCEINLINE_FUNCTION bool is_zero(double v) { return v == 0; }
KOKKOS_FORCEINLINE_FUNCTION bool is_zero(DoubleDouble v) { return v.hi == 0; }

// a x + b, and one step p_{n+1} = f p_n - c p_{n-1}. A zero f (x at the
// family's centre, e.g. He_n(0)) contributes nothing even after p_n
// overflowed: He_odd(0) = 0, not 0 * inf = NaN (and +0, as 0 - c p_{n-1}).
KOKKOS_FORCEINLINE_FUNCTION double affine(double a, double x, double b) {
  return multiply_add(a, x, b);
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble affine(DoubleDouble a, double x, DoubleDouble b) {
  return a * x + b;
}
KOKKOS_FORCEINLINE_FUNCTION double step(double f, double current, double c, double previous) {
  return is_zero(f) ? 0.0 - c * previous : multiply_add(f, current, -c * previous);
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble step(DoubleDouble f, DoubleDouble current,
                                              DoubleDouble c, DoubleDouble previous) {
  return is_zero(f) ? DoubleDouble{0.0, 0.0} + -(c * previous) : f * current + -(c * previous);
}

// Runs `step(n, k)` for n = begin, ..., end - 1 in order, k = scan.load(n)
// (what step n of the recurrence needs: a three-term family's coefficients).
// The loads go out `Scan::lookahead` at a time, ahead of the steps that use
// them: a step's coefficient load otherwise waits behind the previous step's
// store to V (the compiler cannot tell that they never alias), and the
// recurrence then waits out a load every step. On the H200 that was the
// most common stall of the three-term ScanAlongN passes; loading ahead took
// their output pass from 609 to 532 us (docs/performance.md). The arithmetic
// is unchanged, so the values are too.
template <class Scan, class Step>
KOKKOS_FORCEINLINE_FUNCTION void for_steps(const Scan& scan, int begin, int end,
                                           const Step& step) {
  constexpr int U = Scan::lookahead;
  int n           = begin;
  if constexpr (U > 1) {
    for (; n + U <= end; n += U) {
      typename Scan::step_type k[U];
      for (int j = 0; j < U; ++j) k[j] = scan.load(n + j);
      for (int j = 0; j < U; ++j) step(n + j, k[j]);
    }
  }
  for (; n < end; ++n) step(n, scan.load(n));
}

// One round of a staged pass (Staged's long rows, ScanAlongN's row-slice
// chunks): out[j] = the value of term first + j for first + j < last, the
// state (u0, u1) being at term `first` on entry. On return it is at `last`,
// the next round's first term, unless last == end (the row's or chunk's
// end): no step is taken past the end.
template <class T, class Scan, class W>
KOKKOS_FORCEINLINE_FUNCTION void stage_terms(const Scan& scan, double x, int first, int last,
                                             int end, W& u0, W& u1, T* out) {
  if (first < last) out[0] = T(scan.output(u0, u1));
  for_steps(scan, first, last < end ? last : end - 1,
            [&](int n, const typename Scan::step_type& k) {
              scan.advance(x, k, u0, u1);
              if (n + 1 < last) out[n + 1 - first] = T(scan.output(u0, u1));
            });
}

// The device side of a three-term family: the tabulated coefficients and p_0,
// in the working number W.
template <class W, class MemorySpace>
struct ThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<W>*, MemorySpace> coefficients;
  W initial;

  // The recurrence as a two-component linear state (p_n, p_{n-1}), one step
  // at a time: what ScanAlongN composes into transfer matrices. Step n needs
  // coefficients(n); for_steps loads `lookahead` of them at once (fewer
  // for double-double, whose coefficients take twice the registers).
  using state_type = W;
  using step_type  = ThreeTermCoefficients<W>;
  static constexpr int lookahead = std::is_same_v<W, double> ? 8 : 4;
  KOKKOS_FUNCTION void start(double, W& current, W& previous) const {
    current  = initial;
    previous = W{};
  }
  KOKKOS_FORCEINLINE_FUNCTION step_type load(int n) const { return coefficients(n); }
  KOKKOS_FORCEINLINE_FUNCTION void advance(double x, const step_type& k, W& current,
                                           W& previous) const {
    const W next = step(affine(k.a, x, k.b), current, k.c, previous);
    previous     = current;
    current      = next;
  }
  KOKKOS_FUNCTION static double output(const W& current, const W&) {
    return to_double(current);
  }

  template <class T>
  KOKKOS_FUNCTION void fill(T x_in, const Slice<T>& s) const {
    const double x = x_in;
    W current, previous;
    start(x, current, previous);
    s(0) = T(to_double(current));
    for_steps(*this, 0, s.size() - 1, [&](int n, const step_type& k) {
      advance(x, k, current, previous);
      s(n + 1) = T(to_double(current));
    });
  }

  // With p'_{n+1} = a p_n + (a x + b) p'_n - c p'_{n-1}, in the same pass.
  template <class T>
  KOKKOS_FUNCTION void fill(T x_in, const Slice<T>& s, const Slice<T>& ds) const {
    const double x = x_in;
    W previous{}, current = initial, dprevious{}, dcurrent{};
    s(0)  = T(to_double(current));
    ds(0) = T(0);
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<W> k = coefficients(n);
      const W f     = affine(k.a, x, k.b);
      const W next  = step(f, current, k.c, previous);
      const W dnext = k.a * current + step(f, dcurrent, k.c, dprevious);
      previous      = current;
      current       = next;
      dprevious     = dcurrent;
      dcurrent      = dnext;
      s(n + 1)      = T(to_double(current));
      ds(n + 1)     = T(to_double(dcurrent));
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
  Kokkos::View<const ThreeTermCoefficients<double>*, MemorySpace> coefficients;
  double initial;
  Family family;

  static constexpr int bits        = 256;
  static constexpr double limit   = 0x1p256;
  static constexpr double shrink  = 0x1p-256;
  static constexpr double log_two = 0.69314718055994530942;
  static constexpr double tiny    = 0x1p-900;

  KOKKOS_FUNCTION static double output(double q, double scale, double log_scale) {
    if (scale >= tiny || q == 0) return q * scale;
    const double magnitude = kokkos_math::exp(log_scale + kokkos_math::log(kokkos_math::fabs(q)));
    return q < 0 ? -magnitude : magnitude;
  }

  template <bool derivative, class T>
  KOKKOS_FUNCTION void run(T x_in, const Slice<T>& s, const Slice<T>& ds) const {
    const double x  = x_in;
    const double g  = family.exponent(x);
    const double dg = family.exponent_derivative(x);
    double log_scale = g;  // ln(2^e exp(g))
    double scale     = kokkos_math::exp(log_scale);
    double previous = 0, current = initial;
    double dprevious = 0, dcurrent = 0;
    s(0) = T(output(current, scale, log_scale));
    if constexpr (derivative) ds(0) = T(output(dcurrent + dg * current, scale, log_scale));
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<double> k = coefficients(n);
      const double factor = affine(k.a, x, k.b);
      const double next   = step(factor, current, k.c, previous);
      if constexpr (derivative) {
        const double dnext = multiply_add(k.a, current, step(factor, dcurrent, k.c, dprevious));
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

// The coefficient table of `family` for N terms in the working number W,
// in MemorySpace. Tabulating runs on the host in long double, about 20 ns a
// term (0.35 s at N = 2^24 on the H200's host, a thousand times the kernel),
// so the last table made for each family type, working number and memory
// space is kept, and reused while the family's parameters are the same and it
// is long enough. Kept tables are released at Kokkos::finalize.
template <class W, class ExecSpace, class Family>
Kokkos::View<const ThreeTermCoefficients<W>*, typename ExecSpace::memory_space>
coefficient_table(const ExecSpace& space, const Family& family, int N) {
  using MemorySpace = typename ExecSpace::memory_space;
  using Table       = Kokkos::View<ThreeTermCoefficients<W>*, MemorySpace>;
  struct Kept {
    bool valid = false;
    unsigned char key[sizeof(Family)];
    Table table;
  };
  static std::mutex mutex;
  static Kept kept;
  static bool hooked = false;
  const std::size_t terms = std::size_t(N - 1);
  std::lock_guard<std::mutex> lock(mutex);
  const bool same_family =
      std::is_empty_v<Family> || std::memcmp(kept.key, &family, sizeof(Family)) == 0;
  if (kept.valid && same_family && kept.table.extent(0) >= terms)
    return Kokkos::subview(kept.table, std::make_pair(std::size_t(0), terms));

  Table table(Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                                 "recur::evaluate::coefficients"),
              terms);
  auto host = Kokkos::create_mirror_view(table);
  for (int n = 0; n + 1 < N; ++n) {
    const auto k = family.coefficients(n);
    from_long_double(k.a, host(n).a);
    from_long_double(k.b, host(n).b);
    from_long_double(k.c, host(n).c);
  }
  Kokkos::deep_copy(space, table, host);
  // The host mirror must outlive the (possibly asynchronous) copy.
  fence(space, "recur::evaluate: coefficient upload");
  kept.valid = true;
  std::memcpy(kept.key, &family, sizeof(Family));
  kept.table = table;
  if (!hooked) {
    Kokkos::push_finalize_hook([] {
      std::lock_guard<std::mutex> release(mutex);
      kept = Kept{};
    });
    hooked = true;
  }
  return table;
}

// What runs per x for `family` with N terms in precision T: a direct family
// runs as it is; a three-term family gets its coefficient table (tabulated on
// the host in long double, then in the working number, and kept between calls).
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
    // HermiteFunction's rescaled recurrence runs in double.
    using W = std::conditional_t<has_exponent<Family>::value, double, working_t<T>>;
    const auto table = coefficient_table<W>(space, family, N);
    W initial;
    from_long_double(family.initial(), initial);
    if constexpr (has_exponent<Family>::value) {
      return ScaledThreeTermKernel<MemorySpace, Family>{table, initial, family};
    } else {
      return ThreeTermKernel<W, MemorySpace>{table, initial};
    }
  }
}

}  // namespace recur::impl

#endif
