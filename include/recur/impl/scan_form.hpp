#ifndef RECUR_IMPL_SCAN_FORM_HPP
#define RECUR_IMPL_SCAN_FORM_HPP

// Recurrences in "scan form": a state of two numbers and a binary exponent
// (Scaled, numbers.hpp) that each step maps linearly. A scan form gives
//   state_type                       Scaled<number_type>
//   start(x, state)                  the state at n = 0
//   load(n)                          what step n needs (a step_type, e.g. a
//                                    three-term family's coefficients)
//   advance(x, load(n), state[, block])
//                                    the state at n to the state at n + 1
//                                    (arithmetic only: see for_steps; block
//                                    a BlockTag, below)
//   output(state)                    the value at n, as a double: u0 itself
//                                    while the exponent e is 0
//   checks_every_step(x)             whether the state at x must be brought
//                                    below the scaling limit after every step
//   check_period                     else after how many steps
//   lookahead                        how many loads for_steps issues ahead
// Every policy runs a scan form through these calls alone, in the same order
// of operations, so a row's values do not depend on the policy, the lane of
// a lockstep block or the chunking of the rows (ScanAlongN, which composes
// chunks' transfer matrices, agrees to rounding). x enters as a double, at
// the precision it came in: a float x exactly, a double x unrounded even
// when V holds float.

#include <recur/impl/numbers.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace recur::impl {

// States are brought back below the scaling limit (keep_both_in_range,
// Range in numbers.hpp) once every Scan::check_period steps. From a state
// below the limit no value can overflow within that many steps where one step
// grows a state by less than Range<W>::unchecked_growth: three-term families
// check every 8 steps where |a x + b| + |c| stays below it (|x| <=
// Range<W>::unchecked_x, 2^64 in double, and coefficients of usual size),
// power sums (in double) every 32 where 1 + |x| < 2^17; other rows
// (checks_every_step) after every step. Checking once a block rather than
// every step kept the CPU's lockstep loops vectorized and the scalar ones as
// fast as before the exponent existed (docs/performance.md). Where the checks fall changes no
// value: a state scaled by a power of two rounds exactly as before, scaled.

// What for_steps tells a step about its block of steps: `value` (plain),
// `bounded` and `nonzero_f`.
//  - plain: the block started with `is_plain()` true (the state carries no
//    exponent: only check() can give it one, so none of the block's steps
//    does). A step stores the state's number itself in plain blocks and goes
//    through output()'s scaling only in the others, chosen once a block rather
//    than once a value (output()'s select per value cost the H200's staged
//    kernels a fifth of their speed).
//  - bounded: the block lies between two checks of a row that is not checked
//    every step, so no number of its steps can leave double's range (Range,
//    numbers.hpp): scan.advance(x, k, s, block) may then use double-double
//    operations without their inf branches (step() in numbers.hpp), with the
//    same values.
//  - nonzero_f: a three-term step's f = a_n x + b_n cannot be 0 at this x
//    (ThreeTermKernel::nonzero_f), so its steps leave out step()'s rule
//    for f = 0 (numbers.hpp), with the same values.
template <bool Plain, bool Bounded = true, bool NonzeroF = false>
struct BlockTag : std::integral_constant<bool, Plain> {
  static constexpr bool bounded   = Bounded;
  static constexpr bool nonzero_f = NonzeroF;
};

// x, with the GPU compiler kept from tracing it back to what it was made
// of (an empty asm that "changes" it; nothing on CPUs): where what nvcc would
// infer from x's origin misleads it (ScanAlongN's one pass,
// scan_along_n.hpp) or costs instructions (a product basis' store
// addresses, product_basis.hpp).
template <class U>
KOKKOS_FORCEINLINE_FUNCTION void opaque(U& x) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(U) == 4) {
    asm volatile("" : "+r"(x));
  } else {
    asm volatile("" : "+l"(x));
  }
#else
  (void)x;
#endif
}

// Runs `step(n, k, block)` for n = begin, ..., end - 1 in order, k =
// scan.load(n), block a BlockTag, and `check()` after every Scan::check_period
// steps and after the last step (or after every step when `every_step`).
// The loads go out `Scan::lookahead` at a time, ahead of the steps that use
// them: a step's coefficient load otherwise waits behind the previous step's
// store to V (the compiler cannot tell that they never alias), and the
// recurrence then waits out a load every step. On the H200 that was the
// most common stall of the three-term ScanAlongN passes; loading ahead took
// their output pass from 609 to 532 us (docs/performance.md). The arithmetic
// is unchanged, so the values are too.
// U: loads ahead, Scan::lookahead unless given (ScanAlongN's passes load
// deep_lookahead ahead).
// Unroll: unrolled by force on GPUs (the lockstep kernel: left to itself, nvcc
// kept its loaded-ahead coefficients in local memory, a 192-byte stack frame;
// ptxas, docs/performance.md).
// NonzeroF: the blocks' tags say nonzero_f (BlockTag); not the steps of rows
// checked every step.
template <bool Unroll, int U, class Scan, class Step, class Plain>
KOKKOS_FORCEINLINE_FUNCTION void block_of_steps(const Scan& scan, int n, const Step& step,
                                                Plain plain) {
  for (int j0 = 0; j0 < Scan::check_period; j0 += U) {
    typename Scan::step_type k[U];
    if constexpr (Unroll) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int j = 0; j < U; ++j) k[j] = scan.load(n + j0 + j);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int j = 0; j < U; ++j) step(n + j0 + j, k[j], plain);
    } else {
      for (int j = 0; j < U; ++j) k[j] = scan.load(n + j0 + j);
      for (int j = 0; j < U; ++j) step(n + j0 + j, k[j], plain);
    }
  }
}

template <bool Unroll = false, int U = 0, bool NonzeroF = false, class Scan, class Step, class Check,
          class IsPlain>
KOKKOS_FORCEINLINE_FUNCTION void for_steps(const Scan& scan, int begin, int end, bool every_step,
                                           const Step& step, const Check& check,
                                           const IsPlain& is_plain) {
  constexpr int ahead = U > 0 ? U : Scan::lookahead;
  static_assert(Scan::check_period % ahead == 0,
                "recur: a scan form's lookahead must divide its check period");
  int n = begin;
  if (every_step) {
    for (; n < end; ++n) {
      step(n, scan.load(n), BlockTag<false, false>{});
      check();
    }
    return;
  }
  for (; n + Scan::check_period <= end; n += Scan::check_period) {
    if (is_plain()) {
      block_of_steps<Unroll, ahead>(scan, n, step, BlockTag<true, true, NonzeroF>{});
    } else {
      block_of_steps<Unroll, ahead>(scan, n, step, BlockTag<false, true, NonzeroF>{});
    }
    check();
  }
  // The tail: fewer than check_period steps, so one check after them does.
  if (n < end) {
    if (is_plain()) {
      for (; n < end; ++n) step(n, scan.load(n), BlockTag<true, true, NonzeroF>{});
    } else {
      for (; n < end; ++n) step(n, scan.load(n), BlockTag<false, true, NonzeroF>{});
    }
    check();
  }
}

// Twice a scan form's lookahead, up to its check period, for passes bound by
// the latency of their loads, where few threads share a coefficient:
// ScanAlongN's transfer and column-slice passes (16 rows a chunk at M = 16).
// With their rows in groups (RowGroup, scan_along_n.hpp) it took float
// He_n/sqrt(n!) from 1.03 to 0.93 ms and Fast double from 1.25 to 1.17 ms
// (H200, M = 16, N = 2^24, docs/performance.md); the staged row-slice pass
// gained nothing from it and keeps Scan::lookahead. A scan form that loads
// nothing (lookahead 1) keeps 1.
template <class Scan>
inline constexpr int deep_lookahead =
    Scan::lookahead == 1 ? 1
                         : (2 * Scan::lookahead <= Scan::check_period ? 2 * Scan::lookahead
                                                                      : Scan::check_period);

// Whether the scan form's steps at x have an f that cannot be 0
// (ThreeTermKernel::nonzero_f; false for scan forms without one).
template <class Scan, class = void>
struct has_nonzero_f : std::false_type {};
template <class Scan>
struct has_nonzero_f<Scan, std::void_t<decltype(std::declval<const Scan&>().nonzero_f(0.0))>>
    : std::true_type {};

// Carries `s` from term begin to term end of the recurrence at x, calling
// put(n + 1, value) once s holds term n + 1, value = scan.output(s).
// Nonzero: the steps leave out step()'s rule for f = 0 where the scan form
// says f cannot be 0 at x (nonzero_f; M = 2^24, N = 32, double-double
// Staged rows: H100 1.54 against 1.71 ms, H200 1.39 against 1.67-1.70); not
// in ScanAlongN's passes (its row chunks, stage_terms: float He_n/sqrt(n!)
// 1.65 against 1.48 ms with it).
template <bool Nonzero = true, class Scan, class Put>
KOKKOS_FORCEINLINE_FUNCTION void advance_through(const Scan& scan, double x, int begin, int end,
                                                 typename Scan::state_type& s, const Put& put) {
  const bool every_step = scan.checks_every_step(x);
  const double limit    = scaling_limit<typename Scan::number_type>(every_step);
  const auto steps      = [&](auto nonzero_f) {
    for_steps<false, 0, decltype(nonzero_f)::value>(
        scan, begin, end, every_step,
        [&](int n, const typename Scan::step_type& k, auto plain) {
          scan.advance(x, k, s, plain);
          if constexpr (decltype(plain)::value) {
            put(n + 1, to_double(s.u0));  // = scan.output(s) while s.e == 0
          } else {
            put(n + 1, scan.output(s));
          }
        },
        [&] { keep_both_in_range(s, limit); }, [&] { return s.e == 0; });
  };
  if constexpr (Nonzero && has_nonzero_f<Scan>::value) {
    if (scan.nonzero_f(x)) {
      steps(std::true_type{});
      return;
    }
  }
  steps(std::false_type{});
}

// One round of a staged pass (Staged's long rows, ScanAlongN's row-slice
// chunks): out[j] = the value of term first + j for first + j < last, the
// state being at term `first` on entry. On return it is at `last`, the next
// round's first term, unless last == end (the row's or chunk's end): no step
// is taken past the end.
template <class T, class Scan>
KOKKOS_FORCEINLINE_FUNCTION void stage_terms(const Scan& scan, double x, int first, int last,
                                             int end, typename Scan::state_type& s, T* out) {
  if (first < last) out[0] = T(scan.output(s));
  advance_through<false>(scan, x, first, last < end ? last : end - 1, s, [&](int n, double value) {
    if (n < last) out[n - first] = T(value);
  });
}

// A whole row: s(n) for n < s.size().
template <class Scan, class T>
KOKKOS_FORCEINLINE_FUNCTION void scan_fill(const Scan& scan, double x, const Slice<T>& s) {
  typename Scan::state_type state;
  scan.start(x, state);
  s(0) = T(scan.output(state));
  advance_through(scan, x, 0, s.size() - 1, state, [&](int n, double value) { s(n) = T(value); });
}

// PowerSums as a linear recurrence: (s_n, x^(n+1)), s_{n+1} = s_n + x x^(n+1),
// in W: double (recur::Accurate, and double results) or float (recur::Fast
// for float results, x rounded to float as three-term families' Fast rows
// round it). Its steps need nothing loaded; one grows the state by at most
// 1 + |x|: rows are checked every 32 steps in double where |x| <= 2^16
// ((1 + 2^16)^32 2^256 < 2^1024), every 8 in float where |x| <= 2^7
// (129^8 2^60 < 2^117 < float's 2^128), else after every step. It is also
// the kernel make_kernel (three_term.hpp) gives for PowerSums: fill() as
// every kernel's (the derivative summed in double whatever W is).
template <class W>
struct PowerSumsScan {
  static_assert(std::is_same_v<W, double> || std::is_same_v<W, float>,
                "recur: power sums run in double or float");
  struct Nothing {};
  using number_type = W;
  using state_type  = Scaled<W>;
  using step_type   = Nothing;
  static constexpr int lookahead    = 1;
  static constexpr int check_period = std::is_same_v<W, float> ? 8 : 32;
  KOKKOS_FUNCTION void start(double x, state_type& s) const {
    s.u0 = in_domain<W>(x) ? W(x) : not_a_number<W>();
    s.u1 = W(x);
    s.e  = 0;
  }
  KOKKOS_FORCEINLINE_FUNCTION step_type load(int) const { return {}; }
  // The sum fused where the hardware fuses (explicitly: a compiler left to
  // contract it chose differently in different kernels on the H200, and a
  // row's bits then depended on the policy).
  template <class Tag = BlockTag<false, false>>
  KOKKOS_FORCEINLINE_FUNCTION void advance(double x_in, step_type, state_type& s, Tag = {}) const {
    const W x     = W(x_in);
    const W power = s.u1 * x;
    s.u0          = multiply_add(s.u1, x, s.u0);
    s.u1          = power;
  }
  KOKKOS_FORCEINLINE_FUNCTION static bool checks_every_step(double x) {
    return !(kokkos_math::fabs(x) <= (std::is_same_v<W, float> ? 0x1p7 : 0x1p16));
  }
  KOKKOS_FORCEINLINE_FUNCTION static double output(const state_type& s) {
    return scaled_value(s.u0, s.e);
  }

  template <class T>
  KOKKOS_FUNCTION void fill(double x, const Slice<T>& s) const {
    scan_fill(*this, x, s);
  }
  // d/dx: 1 + 2x + ... + (n+1) x^n, in double, in the same pass as the values
  // (the four running numbers share one binary exponent); in float the
  // values are those of fill(x, s), bit for bit, and the pass writes dV only.
  template <class T>
  KOKKOS_FUNCTION void fill(double x, const Slice<T>& s, const Slice<T>& ds) const {
    constexpr bool values = std::is_same_v<W, double>;
    if constexpr (!values) fill(x, s);
    const bool valid  = in_domain<W>(x);  // (Fast float: |x| <= 2^64)
    double power      = valid ? x : not_a_number<double>();  // x^(n+1)
    double power_less = valid ? 1 : not_a_number<double>();  // x^n
    double sum = 0, dsum = 0;
    int e = 0;
    for (int n = 0; n < ds.size(); ++n) {
      sum += power;
      dsum += (n + 1) * power_less;
      if constexpr (values) s(n) = T(scaled_value(sum, e));
      ds(n)      = T(scaled_value(dsum, e));
      power_less = power;
      power *= x;
      keep_together_in_range(e, largest(power, dsum), power, power_less, sum, dsum);
    }
  }
};

template <class Kernel>
struct is_power_sums : std::false_type {};
template <class W>
struct is_power_sums<PowerSumsScan<W>> : std::true_type {};

}  // namespace recur::impl

#endif
