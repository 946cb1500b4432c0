#ifndef RECUR_IMPL_THREE_TERM_HPP
#define RECUR_IMPL_THREE_TERM_HPP

#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/numbers.hpp>
#include <recur/impl/scan_form.hpp>
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

// The device side of a three-term family: the tabulated coefficients and p_0
// in the working number W, in scan form (scan_form.hpp). With a Prefactor
// (HermiteFunction), every member carries the factor exp(g(x)),
// g = prefactor.exponent(x): the recurrence runs on the polynomial part,
// started at initial exp(g) held as exp(r) 2^m (g = m ln 2 + r, |r| <= ln 2 / 2),
// so the Gaussian that underflows double beyond |x| = 38 becomes the state's
// binary exponent, and values come out right wherever they are
// representable (tested to |x| = 40, N = 10 000).
struct NoPrefactor {};
// Where a family's steps tend to a double root (ThreeTermKernel::double_roots).
enum class DoubleRoots : unsigned char { none, at_plus_minus_1, at_0 };

template <class W, class MemorySpace, class Prefactor = NoPrefactor>
struct ThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<W>*, MemorySpace> coefficients;
  W initial;
  Prefactor prefactor;
  // Coefficients so large (|a| 2^64 + |b| + |c| >= 2^95) that states are
  // checked every step whatever x is (for_steps, scan_form.hpp).
  bool large_coefficients;
  // b is 0 at every step (He_n, P_n, T_n, ... but not Laguerre or Jacobi):
  // double-double forms a x alone (affine, numbers.hpp).
  bool zero_b = false;
  // b is 0 and |a| >= 2^-60 at every step: f = a x is 0 only where |x| <
  // 2^-60 (nonzero_f).
  bool zero_only_near_0 = false;
  // Float steps that are products alone (b = c = 0 at every step: Monomials):
  // rows with |x| below this may reach float's subnormal numbers within the
  // table's terms (|a_n x| < 1 shrinks them; 2^(-126 / steps) / min |a_n|),
  // else 0. The CPU's float lanes take such rows' products in double
  // (cpu_lanes::step_in_double: the same bits, without the subnormal
  // multiplies' microcode assists).
  float subnormal_floor = 0;
  // Where the steps tend to a double root (f_n -> ±(1 + c_n), c_n -> 1):
  // at x = ±1 (Jacobi-type families: Legendre, Gegenbauer, Jacobi,
  // Chebyshev, their orthonormal variants) or at x = 0 (Laguerre). There
  // ScanAlongN carries rows near those points in differences
  // (scan_along_n.hpp, transfer_basis).
  DoubleRoots double_roots = DoubleRoots::none;

  static constexpr bool has_prefactor = !std::is_same_v<Prefactor, NoPrefactor>;
  // Step n needs coefficients(n); for_steps loads `lookahead` of them at once
  // (fewer for double-double, whose coefficients take twice the registers).
  // 4 and 2: with 8 and 4 the H200's staged kernels held twice the registers
  // and ran 4-7 % slower (docs/performance.md).
  using number_type = W;
  using state_type  = Scaled<W>;
  using step_type   = ThreeTermCoefficients<W>;
  static constexpr int lookahead    = std::is_same_v<W, DoubleDouble> ? 2 : 4;
  static constexpr int check_period = 8;
  // A prefactor's binary exponent from which start() folds it into the
  // state (below: float's normal numbers reach 2^-126, double's 2^-1022).
  static constexpr int fold_exponent = std::is_same_v<W, float> ? 64 : 512;
  // The degree of the prefactor's e^r (exp_reduced, numbers.hpp).
  static constexpr int exp_degree = std::is_same_v<W, float> ? 8 : 13;

  KOKKOS_FUNCTION void start(double x, state_type& s) const {
    s.u1 = W{};
    if constexpr (has_prefactor) {
      if (!in_domain<W>(x)) {
        s.u0 = not_a_number<W>();
        s.e  = 0;
        return;
      }
      // g = m ln 2 + r in three parts of ln 2 (ln2_a, numbers.hpp).
      const DoubleDouble g = prefactor.exponent(x);
      double m = g.hi * 1.4426950408889634;  // / ln 2
      m = m > exponent_limit / 2 ? exponent_limit / 2 : (m < -exponent_limit / 2 ? -exponent_limit / 2 : m);
      m = double((long long)(m + (m >= 0 ? 0.5 : -0.5)));
      // Fused explicitly, so that no compiler contracts it differently in
      // different kernels (a row's bits must not depend on the policy).
      // |r| <= ln 2 / 2 but where m was clamped (|x| beyond 10^4 for
      // HermiteFunction), whose rows are 0 or inf whatever r is.
      double r = fma(-m, ln2_c, fma(-m, ln2_b, fma(-m, ln2_a, g.hi))) + g.lo;
      r        = r > 0.5 ? 0.5 : (r < -0.5 ? -0.5 : r);
      s.u0     = initial * exp_reduced<exp_degree>(r);
      s.e      = int(m);
      // Folded: where 2^e keeps u0 far inside W's normal numbers, u0 2^e
      // itself (exact: a power of two), so that the row starts plain and
      // runs as the families without a prefactor do (the CPU's vectors
      // among them; HermiteFunction for |x| <= 26 in double, 9 in float).
      // The steps of the folded state round as those of the scaled one:
      // the same values.
      if (s.e <= 0 && s.e >= -fold_exponent) {
        scale_exactly(s.u0, power_of_two(s.e));
        s.e = 0;
      }
    } else {
      s.u0 = in_domain<W>(x) ? initial : not_a_number<W>();
      s.e  = 0;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION step_type load(int n) const { return coefficients(n); }
  // Whether no step's f = a x + b can be 0 at x (then |a x| >= 2^-120, a
  // normal float): for_steps' blocks then leave out step()'s rule for f = 0
  // (BlockTag::nonzero_f), a compare, a subtraction and a select a double
  // step (advance_through, scan_form.hpp, says what it gained).
  KOKKOS_FORCEINLINE_FUNCTION bool nonzero_f(double x) const {
    return zero_only_near_0 && kokkos_math::fabs(x) >= 0x1p-60;  // (false for NaN)
  }
  template <class Tag = BlockTag<false, false>>
  KOKKOS_FORCEINLINE_FUNCTION void advance(double x, const step_type& k, state_type& s,
                                           Tag tag = {}) const {
    if (Tag::nonzero_f || zero_b) {  // (nonzero_f holds only where zero_b does)
      advance_as<true>(x, k, s, tag);
    } else {
      advance_as<false>(x, k, s, tag);
    }
  }
  // The step with zero_b known at compile time (a loop over samples with
  // the flag's branch inside does not vectorize: ProductTables::plain_rows).
  template <bool ZeroB, class Tag = BlockTag<false, false>>
  KOKKOS_FORCEINLINE_FUNCTION void advance_as(double x, const step_type& k, state_type& s,
                                              Tag = {}) const {
    constexpr bool bounded = Tag::bounded;
    W f;
    if constexpr (ZeroB && std::is_same_v<W, DoubleDouble>) {
      f = affine<bounded>(k.a, x);
    } else {
      f = affine<bounded>(k.a, x, k.b);
    }
    const W next = step<bounded, Tag::nonzero_f>(f, s.u0, k.c, s.u1);
    s.u1         = s.u0;
    s.u0         = next;
  }
  KOKKOS_FORCEINLINE_FUNCTION bool checks_every_step(double x) const {
    return large_coefficients || !(kokkos_math::fabs(x) <= Range<W>::unchecked_x);
  }
  KOKKOS_FORCEINLINE_FUNCTION static double output(const state_type& s) {
    return scaled_value(s.u0, s.e);
  }

  template <class T>
  KOKKOS_FUNCTION void fill(double x, const Slice<T>& s) const {
    scan_fill(*this, x, s);
  }

  // With p'_{n+1} = a p_n + (a x + b) p'_n - c p'_{n-1}, in the same pass
// (derivative_step, numbers.hpp);
  // (p_n, p_{n-1}) and (p'_n, p'_{n-1}) share one binary exponent. With a
  // prefactor exp(g), the derivative of exp(g) q_n is exp(g) (q'_n + g' q_n).
  template <class T>
  KOKKOS_FUNCTION void fill(double x, const Slice<T>& s, const Slice<T>& ds) const {
    state_type p;
    start(x, p);
    W d0 = p.u0 * 0.0, d1{};  // p'_n, p'_{n-1}: 0, or NaN outside the domain
    double dg = 0;
    if constexpr (has_prefactor) dg = prefactor.exponent_derivative(x);
    const auto derivative = [&] {
      if constexpr (has_prefactor) {
        return scaled_value(d0 + p.u0 * dg, p.e);
      } else {
        return scaled_value(d0, p.e);
      }
    };
    s(0)  = T(output(p));
    ds(0) = T(derivative());
    for (int n = 0; n + 1 < s.size(); ++n) {
      const step_type k = coefficients(n);
      const W f         = affine(k.a, x, k.b);
      const W next      = step(f, p.u0, k.c, p.u1);
      const W dnext     = derivative_step(k.a, p.u0, step(f, d0, k.c, d1));
      p.u1              = p.u0;
      p.u0              = next;
      d1                = d0;
      d0                = dnext;
      keep_together_in_range(p.e, largest(p.u0, d0), p.u0, p.u1, d0, d1);
      s(n + 1)  = T(output(p));
      ds(n + 1) = T(derivative());
    }
  }
};

// The N - 1 steps of `family`'s recurrence in the working number W, into
// out[0 .. N-2] (host memory), and what the kernels need to know of them.
// Double-double results need coefficients beyond long double's 64 bits;
// float results (run in double) do not, and long double is 5 to 30 times
// faster to tabulate (6.6 against 120 ns a term for HermiteENormalized, 22
// against 600 for JacobiNormalized on this project's 2-core CPU).
struct TableFlags {
  bool large  = false;  // |a| 2^64 + |b| + |c| >= 2^95 for some step (scan_form.hpp)
  bool zero_b = true;   // b = 0 at every step
  bool tiny_a = false;  // |a| < 2^-60 at some step (ThreeTermKernel::zero_only_near_0)
  bool zero_c = true;   // c = 0 at every step
  double least_a = 0;   // min |a| over the steps (0 for none)
  DoubleRoots double_roots = DoubleRoots::none;  // (ThreeTermKernel::double_roots)
};
// Where a family's steps tend to a double root, read from its last step (in
// long double): f = a x + b reaching +(1 + c) at x = 1 and -(1 + c) at x = -1
// within 1e-2 (Jacobi-type: exactly for P_n and T_n, as O(1/n^2) for the
// rest), or +(1 + c) at x = 0 (Laguerre), with c > 1/4 (not Monomials,
// whose roots are 0 and x). Rows of fewer than 10 terms: none.
template <class Family>
DoubleRoots double_roots_of(const Family& family, int N) {
  if (N < 10) return DoubleRoots::none;
  const ThreeTermCoefficients<long double> k = coefficients_in<long double>(family, N - 2);
  const long double a = k.a, b = k.b, c = k.c;
  if (!(c > 0.25L)) return DoubleRoots::none;
  // (No lambda: nvcc takes lambdas for device code under relaxed constexpr.)
  if (std::fabs(a + b - (1 + c)) <= 1e-2L && std::fabs(-a + b + (1 + c)) <= 1e-2L)
    return DoubleRoots::at_plus_minus_1;
  if (std::fabs(b - (1 + c)) <= 1e-2L) return DoubleRoots::at_0;
  return DoubleRoots::none;
}
template <class W, class Family>
TableFlags tabulate_coefficients(const Family& family, int N, ThreeTermCoefficients<W>* out) {
  using R = std::conditional_t<std::is_same_v<W, DoubleDouble>, Quad, long double>;
  TableFlags flags;
  for (int n = 0; n + 1 < N; ++n) {
    const ThreeTermCoefficients<R> k = coefficients_in<R>(family, n);
    from_real(k.a, out[n].a);
    from_real(k.b, out[n].b);
    from_real(k.c, out[n].c);
    flags.large = flags.large ||
                  !(std::fabs(leading(k.a)) * Range<W>::unchecked_x + std::fabs(leading(k.b)) +
                        std::fabs(leading(k.c)) <
                    Range<W>::unchecked_growth);
    flags.zero_b = flags.zero_b && is_zero(out[n].b);
    flags.tiny_a = flags.tiny_a || !(std::fabs(leading(k.a)) >= 0x1p-60);
    flags.zero_c = flags.zero_c && is_zero(out[n].c);
    const double a = std::fabs(double(leading(k.a)));
    flags.least_a  = n == 0 || a < flags.least_a ? a : flags.least_a;
  }
  flags.double_roots = double_roots_of(family, N);
  return flags;
}

// The coefficient table of `family` for N terms in the working number W,
// in MemorySpace. Tabulating runs on the host, for double results in
// double-double (Quad) where the family gives coefficients in it (recur's
// do), else in long double: from 7 ns a term (long double) to 600 ns
// (JacobiNormalized in Quad), 0.35 s at N = 2^24 on the H200's host for
// long double, a thousand times the kernel,
// so the last table made for each family type, working number and memory
// space is kept, and reused while the family's parameters are the same and it
// is long enough. Kept tables are released at Kokkos::finalize.
template <class W, class MemorySpace>
struct CoefficientTable {
  Kokkos::View<const ThreeTermCoefficients<W>*, MemorySpace> table;
  TableFlags flags;
};
template <class W, class ExecSpace, class Family>
CoefficientTable<W, typename ExecSpace::memory_space> coefficient_table(const ExecSpace& space,
                                                                        const Family& family,
                                                                        int N) {
  using MemorySpace = typename ExecSpace::memory_space;
  using Table       = Kokkos::View<ThreeTermCoefficients<W>*, MemorySpace>;
  struct Kept {
    bool valid = false;
    unsigned char key[sizeof(Family)];
    Table table;
    TableFlags flags;
  };
  static std::mutex mutex;
  static Kept kept;
  static bool hooked = false;
  const std::size_t terms = std::size_t(N - 1);
  std::lock_guard<std::mutex> lock(mutex);
  const bool same_family =
      std::is_empty_v<Family> || std::memcmp(kept.key, &family, sizeof(Family)) == 0;
  if (kept.valid && same_family && kept.table.extent(0) >= terms)
    return {Kokkos::subview(kept.table, std::make_pair(std::size_t(0), terms)), kept.flags};

  Table table(Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                                 "recur::evaluate::coefficients"),
              terms);
  auto host                = Kokkos::create_mirror_view(table);
  const TableFlags flags   = tabulate_coefficients<W>(family, N, host.data());
  Kokkos::deep_copy(space, table, host);
  // The host mirror must outlive the (possibly asynchronous) copy.
  fence(space, "recur::evaluate: coefficient upload");
  kept.valid = true;
  std::memcpy(kept.key, &family, sizeof(Family));
  kept.table = table;
  kept.flags = flags;
  if (!hooked) {
    Kokkos::push_finalize_hook([] {
      std::lock_guard<std::mutex> release(mutex);
      kept = Kept{};
    });
    hooked = true;
  }
  return {table, flags};
}

// What runs per x for `family` with N terms in precision T: PowerSums its
// scan form in double, or in float for float results with Fast; another
// direct family as it is; a three-term family gets its coefficient table
// (tabulated on the host, then in the working number of Precision, and kept
// between calls).
template <class T, class Precision = Accurate, class ExecSpace, class Family>
auto make_kernel(const ExecSpace& space, const Family& family, int N) {
  if constexpr (std::is_same_v<Family, PowerSums>) {
    (void)space, (void)family, (void)N;
    return PowerSumsScan<std::conditional_t<std::is_same_v<working_t<T, Precision>, float>, float,
                                            double>>{};
  } else if constexpr (is_direct_family<Family, T>::value) {
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
    using W           = working_t<T, Precision>;
    const auto table  = coefficient_table<W>(space, family, N);
    W initial;
    from_real(family.initial(), initial);
    const TableFlags& f = table.flags;
    const bool near_0   = f.zero_b && !f.tiny_a;
    const int steps     = int(table.table.extent(0));
    const float floor   = std::is_same_v<W, float> && f.zero_b && f.zero_c && steps > 0 &&
                                f.least_a > 0
                              ? float(std::exp2(-126.0 / steps) / f.least_a)
                              : 0.0f;
    if constexpr (has_exponent<Family>::value) {
      return ThreeTermKernel<W, MemorySpace, Family>{
          table.table, initial, family, f.large, f.zero_b, near_0, floor, f.double_roots};
    } else {
      return ThreeTermKernel<W, MemorySpace>{table.table,   initial, {}, f.large, f.zero_b,
                                             near_0, floor, f.double_roots};
    }
  }
}

}  // namespace recur::impl

#endif
