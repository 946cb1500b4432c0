#ifndef RECUR_IMPL_SCAN_FORM_HPP
#define RECUR_IMPL_SCAN_FORM_HPP

// Recurrences in "scan form": a state of two numbers and a binary exponent
// (Scaled, numbers.hpp) that each step maps linearly. A scan form gives
//   state_type                       Scaled<number_type>
//   start(x, state)                  the state at n = 0
//   load(n)                          what step n needs (a step_type, e.g. a
//                                    three-term family's coefficients)
//   advance(x, load(n), state)       the state at n to the state at n + 1
//   output(state)                    the value at n, as a double
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

namespace recur::impl {

// Runs `step(n, k)` for n = begin, ..., end - 1 in order, k = scan.load(n).
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
// state being at term `first` on entry. On return it is at `last`, the next
// round's first term, unless last == end (the row's or chunk's end): no step
// is taken past the end.
template <class T, class Scan>
KOKKOS_FORCEINLINE_FUNCTION void stage_terms(const Scan& scan, double x, int first, int last,
                                             int end, typename Scan::state_type& s, T* out) {
  if (first < last) out[0] = T(scan.output(s));
  for_steps(scan, first, last < end ? last : end - 1,
            [&](int n, const typename Scan::step_type& k) {
              scan.advance(x, k, s);
              if (n + 1 < last) out[n + 1 - first] = T(scan.output(s));
            });
}

// A whole row: s(n) for n < s.size().
template <class Scan, class T>
KOKKOS_FORCEINLINE_FUNCTION void scan_fill(const Scan& scan, double x, const Slice<T>& s) {
  typename Scan::state_type state;
  scan.start(x, state);
  s(0) = T(scan.output(state));
  for_steps(scan, 0, s.size() - 1, [&](int n, const typename Scan::step_type& k) {
    scan.advance(x, k, state);
    s(n + 1) = T(scan.output(state));
  });
}

// PowerSums as a linear recurrence: (s_n, x^(n+1)), s_{n+1} = s_n + x x^(n+1),
// summed in double whatever V holds. Its steps need nothing loaded. Only the
// sum is watched against the scaling limit: for |x| >= 1, |s_n| >= |x^(n+1)| / 2
// (and for |x| < 1 neither grows), so the power stays below 2^258 and the
// next step cannot overflow.
struct PowerSumsScan {
  struct Nothing {};
  using number_type = double;
  using state_type  = Scaled<double>;
  using step_type   = Nothing;
  static constexpr int lookahead = 1;
  KOKKOS_FUNCTION void start(double x, state_type& s) const {
    s.u0 = in_domain(x) ? x : not_a_number<double>();
    s.u1 = x;
    s.e  = 0;
  }
  KOKKOS_FORCEINLINE_FUNCTION step_type load(int) const { return {}; }
  KOKKOS_FORCEINLINE_FUNCTION void advance(double x, step_type, state_type& s) const {
    s.u1 *= x;
    s.u0 += s.u1;
    keep_in_range(s);
  }
  KOKKOS_FORCEINLINE_FUNCTION static double output(const state_type& s) {
    return scaled_value(s.u0, s.e);
  }
};

}  // namespace recur::impl

#endif
