#ifndef RECUR_IMPL_NUMBERS_HPP
#define RECUR_IMPL_NUMBERS_HPP

// The numbers recurrences run in: double-double arithmetic, and states that
// carry a binary exponent of their own so that values beyond double's range
// stay finite (and come out as ±inf, or right again, when stored).

#include <recur/impl/kokkos_compat.hpp>
#include <recur/policies.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace recur::impl {

// Arithmetic of the three-term recurrences. Near x = +-1 their rounding
// errors grow like n² (as the families' derivatives do), so a recurrence run
// in V's own precision loses most digits at high degree: float at N = 2000
// would be off by 1e-1, double by 1e-10. recur therefore runs
//  - float outputs in double (each result is the rounding of a double one),
//  - double outputs in double-double ("double-word") arithmetic, with the
//    coefficients tabulated in double-double too (Quad below),
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
// below keep the inf instead. They branch rather than select: selecting (both
// paths computed) made the H200's double-double kernels 4-9 % slower and no
// CPU faster (docs/performance.md). Where no result can leave double's range
// (the steps of a recurrence between its range checks: Bounded in affine()
// and step() below), the same operations without the branch give the same
// values.
KOKKOS_FORCEINLINE_FUNCTION bool beyond_double(double v) {
  return !(kokkos_math::fabs(v) <= 1.79769313486231570e308);
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble add(DoubleDouble a, DoubleDouble b) {
  const DoubleDouble s = two_sum(a.hi, b.hi), t = two_sum(a.lo, b.lo);
  if (beyond_double(s.hi)) return {s.hi, 0.0};
  const DoubleDouble u = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(u.hi, u.lo + t.lo);
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator+(DoubleDouble a, DoubleDouble b) {
  return add(a, b);
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
// (The cross terms in explicit fused multiply-adds, as affine() and step()
// below have theirs: the same numbers in every kernel, the CPUs' vectors
// included, whatever a compiler would contract.)
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble multiply(DoubleDouble a, DoubleDouble b) {
  const double p = a.hi * b.hi;
  if (beyond_double(p)) return {p, 0.0};
  return fast_two_sum(p, multiply_add(a.hi, b.lo, multiply_add(a.lo, b.hi, product_error(a.hi, b.hi, p))));
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble multiply(DoubleDouble a, double b) {
  const double p = a.hi * b;
  if (beyond_double(p)) return {p, 0.0};
  return fast_two_sum(p, multiply_add(a.lo, b, product_error(a.hi, b, p)));
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator*(DoubleDouble a, DoubleDouble b) {
  return multiply(a, b);
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble operator*(DoubleDouble a, double b) {
  return multiply(a, b);
}

// The working number for outputs of type T: with Accurate (the default)
// double-double for double and double for float; with Fast, T itself.
template <class T, class Precision = Accurate>
using working_t =
    std::conditional_t<std::is_same_v<Precision, Accurate>,
                       std::conditional_t<std::is_same_v<T, double>, DoubleDouble, double>, T>;

template <class W>
KOKKOS_FORCEINLINE_FUNCTION W constant(double v) {
  if constexpr (std::is_floating_point_v<W>) {
    return W(v);
  } else {
    return W{v, 0.0};
  }
}
KOKKOS_FORCEINLINE_FUNCTION double to_double(float v) { return v; }
KOKKOS_FORCEINLINE_FUNCTION double to_double(double v) { return v; }
KOKKOS_FORCEINLINE_FUNCTION double to_double(DoubleDouble v) { return v.hi; }
KOKKOS_FORCEINLINE_FUNCTION bool is_zero(float v) { return v == 0; }
KOKKOS_FORCEINLINE_FUNCTION bool is_zero(double v) { return v == 0; }
KOKKOS_FORCEINLINE_FUNCTION bool is_zero(DoubleDouble v) { return v.hi == 0; }

// `c ? a : b` for two doubles already computed. On the host through their
// bits: GCC keeps `c ? a : b` as a branch (it will not execute the
// arithmetic of either side unconditionally), and a branch keeps a loop over
// samples from vectorizing (ProductTables::plain_rows); the bits make it a
// blend. The values are the same either way.
KOKKOS_FORCEINLINE_FUNCTION double select(bool c, double a, double b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return c ? a : b;
#else
  std::uint64_t ua, ub;
  std::memcpy(&ua, &a, sizeof a);
  std::memcpy(&ub, &b, sizeof b);
  const std::uint64_t mask = std::uint64_t(0) - std::uint64_t(c);
  const std::uint64_t u    = (ua & mask) | (ub & ~mask);
  double v;
  std::memcpy(&v, &u, sizeof v);
  return v;
#endif
}

// a x + b, and one step p_{n+1} = f p_n - c p_{n-1}. A zero f (x at the
// family's centre, e.g. He_n(0)) contributes nothing: He_odd(0) = +0.
// Bounded: no intermediate can leave double's range (a BlockTag of for_steps,
// scan_form.hpp), so double-double operations skip their inf branches
// (docs/performance.md: double He_n/sqrt(n!) 160 against 136 ms on 2 CPU
// cores; on the H200 1.06-1.08x for M = 2^24, N = 32 and 1.2-1.4x for
// ScanAlongN).
template <bool Bounded = false>
KOKKOS_FORCEINLINE_FUNCTION double affine(double a, double x, double b) {
  return multiply_add(a, x, b);
}
// In float's own arithmetic (recur::Fast for float results): x rounded to float.
template <bool Bounded = false>
KOKKOS_FORCEINLINE_FUNCTION float affine(float a, double x, float b) {
  return multiply_add(a, float(x), b);
}
// NonzeroF: f is known not to be 0 (a BlockTag's nonzero_f), so step()'s
// rule for f = 0 is left out: the same value.
template <bool Bounded = false, bool NonzeroF = false>
KOKKOS_FORCEINLINE_FUNCTION float step(float f, float current, float c, float previous) {
  if constexpr (NonzeroF) return multiply_add(f, current, -c * previous);
  return is_zero(f) ? 0.0f - c * previous : multiply_add(f, current, -c * previous);
}
// p'_{n+1} = a p_n + s, s = step(f, p'_n, c, p'_{n-1}): one explicit fused
// multiply-add in double and float (the same numbers in every kernel, none
// left to the compiler to contract), a product and a sum in double-double.
template <class W>
KOKKOS_FORCEINLINE_FUNCTION W derivative_step(const W& a, const W& p, const W& s) {
  if constexpr (std::is_floating_point_v<W>) {
    return multiply_add(a, p, s);
  } else {
    return a * p + s;
  }
}
// In double-double, a x + b and f p_n - c p_{n-1} sum the leading parts of
// their terms exactly (two_sum) and everything smaller (the products'
// rounding errors, exact by FMA, and the cross terms) in double: an error of
// a few 2^-106 of the terms' magnitudes, as add(multiply(...), ...) has, in
// less than half its operations (11 and 19 instead of 26 and 36; 3 for a x
// where b is 0: H200 1.9x in column slices, 1.6x in row slices; docs/performance.md,
// "2026-12-01, 23:10-23:35 UTC"). f = a x + b is left unnormalized (its low part
// up to about an ulp of its high part), as step() takes it. Every product is
// inside an explicit fma or feeds one, so no compiler can contract the sums
// differently in different kernels (product_error() and multiply_add() are
// fma where the hardware has it; without, Dekker's exact products and plain
// products keep a library fma off this path). Checked: where the leading sum leaves
// double's range, it is the result (±inf, or NaN for inf - inf), as add()
// and multiply() keep it.
template <bool Bounded = false>
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble affine(DoubleDouble a, double x, DoubleDouble b) {
  const double p       = a.hi * x;
  const DoubleDouble s = two_sum(p, b.hi);
  if (!Bounded && beyond_double(s.hi)) return {s.hi, 0.0};
  return {s.hi, s.lo + multiply_add(a.lo, x, product_error(a.hi, x, p) + b.lo)};
}
// a x + b for a family whose b is 0 (ThreeTermKernel::zero_b): the value
// of affine(a, x, 0), but for the signs of zeros, which no step's result
// depends on.
template <bool Bounded = false>
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble affine(DoubleDouble a, double x) {
  const double p = a.hi * x;
  if (!Bounded && beyond_double(p)) return {p, 0.0};
  return {p, multiply_add(a.lo, x, product_error(a.hi, x, p))};
}
template <bool Bounded = false, bool NonzeroF = false>
KOKKOS_FORCEINLINE_FUNCTION double step(double f, double current, double c, double previous) {
  const double q = c * previous;
  if constexpr (NonzeroF) return multiply_add(f, current, -q);
  return select(is_zero(f), 0.0 - q, multiply_add(f, current, -q));
}
template <bool Bounded = false, bool NonzeroF = false>
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble step(DoubleDouble f, DoubleDouble current,
                                              DoubleDouble c, DoubleDouble previous) {
  // f.hi = 0: p = +0 (He_odd(0) = +0, as in double); f.lo still counts.
  const double p       = NonzeroF ? f.hi * current.hi : select(is_zero(f), 0.0, f.hi * current.hi);
  const double q       = c.hi * previous.hi;
  const DoubleDouble s = two_sum(p, -q);
  if (!Bounded && beyond_double(s.hi)) return {s.hi, 0.0};
  const double t = multiply_add(f.hi, current.lo,
                                multiply_add(f.lo, current.hi, product_error(f.hi, current.hi, p)));
  const double u = multiply_add(c.hi, previous.lo,
                                multiply_add(c.lo, previous.hi, product_error(c.hi, previous.hi, q)));
  return fast_two_sum(s.hi, s.lo + (t - u));
}

// ---------------------------------------------------------------------------
// Binary exponents. v 2^k for any int k, rounded once where the result is a
// normal number: 2^k is built from its bits (no library call) as three
// factors, each clamped to double's exponent range, with no branch (a GPU
// kernel storing through a loop here ran at half the speed).
KOKKOS_FORCEINLINE_FUNCTION double power_of_two(int k) {  // -1022 <= k <= 1023
  const std::uint64_t bits = std::uint64_t(k + 1023) << 52;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}
KOKKOS_FORCEINLINE_FUNCTION int clamp_exponent(int k) {
  return k < -1022 ? -1022 : (k > 1023 ? 1023 : k);
}
KOKKOS_FORCEINLINE_FUNCTION double times_power_of_two(double v, int k) {
  const int k1 = clamp_exponent(k), k2 = clamp_exponent(k - k1);
  const int k3 = clamp_exponent(k - k1 - k2);  // |k| <= 2^28 + 2100: no int overflow
  return v * power_of_two(k1) * power_of_two(k2) * power_of_two(k3);
}
KOKKOS_FORCEINLINE_FUNCTION float times_power_of_two(float v, int k) {
  return float(times_power_of_two(double(v), k));  // exact in double, rounded once
}
KOKKOS_FORCEINLINE_FUNCTION DoubleDouble times_power_of_two(DoubleDouble v, int k) {
  return {times_power_of_two(v.hi, k), times_power_of_two(v.lo, k)};
}
// floor(log2 |v|) for a finite, normal v.
KOKKOS_FORCEINLINE_FUNCTION int binary_exponent(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return int((bits >> 52) & 0x7ff) - 1023;
}

// A recurrence's state (u0, u1) times 2^e: the value pair (p_n, p_{n-1}) of a
// three-term recurrence, or (sum, power) of power sums. Recurrences that
// grow (|x| > 1 for the Jacobi-type families, large |x| for Hermite and
// Laguerre) would overflow double, and the next step would form inf - inf =
// NaN; instead, once the pair passes 2^256 (looked at every few steps:
// for_steps, scan_form.hpp) it is scaled down to [1, 2) and e counts the
// scaling. A store then writes u0 2^e: ±inf in V's type
// where the value is beyond its range, the value itself where it is
// representable again further along. Rows whose values stay below 2^256 (all
// usual ones) never scale and store u0 itself. The exponent saturates at
// ±2^28: a value of 2^(2^28) will never be representable again.
template <class W>
struct Scaled {
  W u0;
  W u1;
  int e;
};

inline constexpr int exponent_limit = 1 << 28;
// ln 2 in three parts, the first two of 24 bits (m times them is exact for
// |m| < 2^29), the third ln 2 - ln2_a - ln2_b to 3e-33: a prefactor's
// g = m ln 2 + r (ThreeTermKernel::start, and the CPU lanes' starts).
inline constexpr double ln2_a = 0.693147182464599609375;
inline constexpr double ln2_b = -1.9046542121259336e-09;
inline constexpr double ln2_c = -8.783183432405266e-17;

// The scaling limits of a working number W. A row checked every few steps
// (for_steps, scan_form.hpp) is brought below `periodic_limit` at each
// check: from there 8 steps of growth below `unchecked_growth` cannot
// overflow W (double: 2^256 2^(8 95) = 2^1016; float: 2^60 2^(8 8) = 2^124),
// which holds for rows with |x| <= `unchecked_x` of the usual families. Other
// rows are checked after every step and brought below `limit`: x up to
// `domain`, then one step of any family recur has (|a x + b| + |c| below
// 2^700 in double, 2^99 in float) cannot overflow a state below it. x beyond,
// ±inf and NaN give NaN rows. Where the checks fall changes no value (a
// state scaled by a power of two rounds as before, scaled), so the float
// rows checked every 8 steps scale at 2^60, not at 2^28: He_n in float for
// |x| <= 1 (at most 2^55.2 up to n = 31) then never scales in the first 32
// terms (it did from n = 18, and rows of scaled states cost float He_n
// `Fast` rows 8 % more on a CPU; docs/performance.md, "CPU, 2026-12-05").
template <class W>
struct Range {  // double and double-double
  static constexpr double limit = 0x1p256, periodic_limit = 0x1p256, domain = 0x1p256;
  static constexpr double unchecked_x = 0x1p64, unchecked_growth = 0x1p95;
};
template <>
struct Range<float> {  // recur::Fast for float results
  static constexpr double limit = 0x1p28, periodic_limit = 0x1p60, domain = 0x1p64;
  static constexpr double unchecked_x = 0x1p5, unchecked_growth = 0x1p8;
};
// The limit of a row checked after every step, or every few.
template <class W>
KOKKOS_FORCEINLINE_FUNCTION constexpr double scaling_limit(bool every_step) {
  return every_step ? Range<W>::limit : Range<W>::periodic_limit;
}

KOKKOS_FORCEINLINE_FUNCTION int saturate_exponent(long long e) {
  return int(e > exponent_limit ? exponent_limit : (e < -exponent_limit ? -exponent_limit : e));
}

// The largest magnitude of some numbers (their leading doubles).
template <class W>
KOKKOS_FORCEINLINE_FUNCTION double largest(const W& v) {
  return kokkos_math::fabs(to_double(v));
}
template <class W, class... Ws>
KOKKOS_FORCEINLINE_FUNCTION double largest(const W& v, const Ws&... rest) {
  const double a = largest(v), b = largest(rest...);
  return a > b ? a : b;
}

KOKKOS_FORCEINLINE_FUNCTION void scale_exactly(float& v, double factor) { v = float(v * factor); }
KOKKOS_FORCEINLINE_FUNCTION void scale_exactly(double& v, double factor) { v *= factor; }
KOKKOS_FORCEINLINE_FUNCTION void scale_exactly(DoubleDouble& v, double factor) {
  v = {v.hi * factor, v.lo * factor};
}

// Numbers that share one binary exponent e (a state's pair; a recurrence and
// its derivative; Clenshaw's sums): once `larger`, their largest magnitude
// (or the one that grows first), passes the limit, all are scaled by the same
// power of two, bringing it into [1, 2), and e counts the scaling.
template <class W, class... Ws>
KOKKOS_FORCEINLINE_FUNCTION void keep_together_below(double limit, int& e, double larger, W& first,
                                                     Ws&... values) {
  if (!(larger > limit)) return;
  int k = binary_exponent(larger);
  k     = k > 1022 ? 1022 : k;  // inf (out of the domain) stays inf
  const double factor = power_of_two(-k);
  scale_exactly(first, factor);
  (scale_exactly(values, factor), ...);
  e = saturate_exponent((long long)e + k);
}
// The same below the limit of rows checked after every step (Range): what
// a state and its derivatives, or Clenshaw's sums, need.
template <class W, class... Ws>
KOKKOS_FORCEINLINE_FUNCTION void keep_together_in_range(int& e, double larger, W& first,
                                                        Ws&... values) {
  keep_together_below(Range<W>::limit, e, larger, first, values...);
}

// Scales s down if either component passed the limit (by default that of
// rows checked after every step; Range).
template <class W>
KOKKOS_FORCEINLINE_FUNCTION void keep_both_in_range(Scaled<W>& s, double limit = Range<W>::limit) {
  keep_together_below(limit, s.e, largest(s.u0, s.u1), s.u0, s.u1);
}

// The value a state stands for, u0 2^e, as a double: ±inf beyond double's
// range; rounding to float then gives ±inf beyond float's.
template <class W>
KOKKOS_FORCEINLINE_FUNCTION double scaled_value(const W& u0, int e) {
  return e == 0 ? to_double(u0) : times_power_of_two(to_double(u0), e);
}

// e^r for |r| <= ln 2 / 2 (the reduced argument of a prefactor,
// ThreeTermKernel::start): Taylor's polynomial of degree D in Horner's form,
// each step an explicit fused multiply-add. D = 13 for double and
// double-double (its remainder below 2^-57 of the result; against long
// double's expl: under one ulp), 8 for float states (remainder below 2^-32).
// Written once for numbers and vectors (V: double, or a CPU lanes' vector
// with their fused), so that every lane, policy and backend gets the same
// bits (a library's exp differs between the host and a GPU, and has no
// vector form with its bits).
template <int D, class V, class Fused>
KOKKOS_FORCEINLINE_FUNCTION V exp_reduced(V r, const Fused& fused) {
  static_assert(D >= 2 && D <= 13, "recur: exp_reduced's degree is 2 to 13");
  constexpr double inverse_factorial[14] = {
      1.0, 1.0, 0x1p-1, 0x1.5555555555555p-3, 0x1.5555555555555p-5, 0x1.1111111111111p-7,
      0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19,
      0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33};
  V p = fused(V{} + inverse_factorial[D], r, V{} + inverse_factorial[D - 1]);
  for (int k = D - 2; k >= 0; --k) p = fused(p, r, V{} + inverse_factorial[k]);
  return p;
}
template <int D>
KOKKOS_FORCEINLINE_FUNCTION double exp_reduced(double r) {
  return exp_reduced<D>(r, [](double a, double b, double c) { return fma(a, b, c); });
}

// A quiet NaN of either number.
template <class W>
KOKKOS_FORCEINLINE_FUNCTION W not_a_number() {
  const std::uint64_t bits = 0x7ff8000000000000ull;  // (numeric_limits is host-only on CUDA)
  double nan;
  std::memcpy(&nan, &bits, sizeof nan);
  return constant<W>(nan);
}
// Whether x is inside W's domain (finite and |x| <= 2^256 in double).
template <class W = double>
KOKKOS_FORCEINLINE_FUNCTION bool in_domain(double x) {
  return kokkos_math::fabs(x) <= Range<W>::domain;
}

// ---------------------------------------------------------------------------
// Quad: double-double arithmetic on the host, in which recur tabulates the
// coefficients of its own families (they are rational functions of n and of
// the family's parameters, with square roots for the orthonormal variants),
// so that the device's double-double recurrence starts from coefficients
// accurate to about 2^-104 rather than long double's 2^-64 (x87) or 2^-53
// (where long double is double). Host only; relative error a few 2^-104.
struct Quad {
  double hi = 0;
  double lo = 0;

  Quad() = default;
  Quad(double v) : hi(v) {}  // NOLINT: implicit, like the built-in numbers
  Quad(int v) : hi(double(v)) {}  // NOLINT
  Quad(long double v) : hi(double(v)), lo(double(v - (long double)double(v))) {}  // NOLINT
  static Quad make(double hi, double lo) {
    Quad q;
    const DoubleDouble s = fast_two_sum(hi, lo);
    q.hi = s.hi;
    q.lo = s.lo;
    return q;
  }

  friend Quad operator-(const Quad& a) { return make(-a.hi, -a.lo); }
  friend Quad operator+(const Quad& a, const Quad& b) {
    const DoubleDouble s = two_sum(a.hi, b.hi), t = two_sum(a.lo, b.lo);
    const DoubleDouble u = fast_two_sum(s.hi, s.lo + t.hi);
    return make(u.hi, u.lo + t.lo);
  }
  friend Quad operator-(const Quad& a, const Quad& b) { return a + -b; }
  friend Quad operator*(const Quad& a, const Quad& b) {
    const double p = a.hi * b.hi;
    return make(p, product_error(a.hi, b.hi, p) + (a.hi * b.lo + a.lo * b.hi));
  }
  friend Quad operator/(const Quad& a, const Quad& b) {
    // Two Newton corrections of the double quotient.
    const double q1 = a.hi / b.hi;
    const Quad r1   = a - b * Quad(q1);
    const double q2 = r1.hi / b.hi;
    const Quad r2   = r1 - b * Quad(q2);
    const double q3 = r2.hi / b.hi;
    return make(q1, q2) + Quad(q3);
  }
  friend Quad sqrt(const Quad& a) {
    if (!(a.hi > 0)) return Quad(std::sqrt(a.hi));
    const double s = std::sqrt(a.hi);
    // s + (a - s²) / (2 s), the residual exact in double-double.
    const Quad residual = a - Quad(s) * Quad(s);
    return Quad(s) + Quad(residual.hi / (2 * s));
  }
};

// The leading double of a coefficient.
inline double leading(long double v) { return double(v); }
inline double leading(const Quad& v) { return v.hi; }

// Coefficients into the working number.
inline void from_real(long double v, float& out) { out = float(v); }
inline void from_real(long double v, double& out) { out = double(v); }
inline void from_real(long double v, DoubleDouble& out) {
  out.hi = double(v);
  out.lo = double(v - out.hi);
}
inline void from_real(const Quad& v, double& out) { out = v.hi + v.lo; }
inline void from_real(const Quad& v, DoubleDouble& out) {
  out.hi = v.hi;
  out.lo = v.lo;
}

}  // namespace recur::impl

#endif
