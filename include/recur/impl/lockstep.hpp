#ifndef RECUR_IMPL_LOCKSTEP_HPP
#define RECUR_IMPL_LOCKSTEP_HPP

#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace recur::impl {

// 16 bytes, the widest store a GPU thread issues: a warp storing 32
// neighbouring Packs writes 512 contiguous bytes with one instruction.
template <class T>
struct alignas(16) Pack {
  static constexpr int size = 16 / int(sizeof(T));
  T v[size];
};

// ThreadPerX for recurrences with a scan form (scan_along_n.hpp): each work
// item carries a block of B consecutive x through the recurrence in lockstep,
// one coefficient load serving the block.
//  - On CPUs (B = 8): one recurrence is a chain of dependent multiply-adds,
//    so a thread running one x at a time waits on their latency; B
//    independent chains fill the pipeline (and SIMD lanes), and for
//    LayoutLeft the block writes one contiguous run per n instead of N
//    scattered cache lines per x.
//  - On GPUs, for V whose columns are contiguous (LayoutLeft; B = 16 bytes
//    of T): the block's values of each n go out as one 16-byte store, four
//    times the bytes per store instruction of one x per thread (H200, float,
//    M = 2^24, N = 32: 81-82 % of the fill against 75 %; docs/performance.md).
// The arithmetic is that of one x at a time, so the values are the same, bit
// for bit.
// Packed (GPUs): V's columns are contiguous, and V(i0 .. i0 + B - 1, n) goes
// out in Pack stores where aligned.
template <int B, bool Packed, class T, class Scan, class XView, class VView>
struct LockstepRows {
  using State = typename Scan::state_type;
  Scan scan;
  XView x;
  VView V;

  KOKKOS_FORCEINLINE_FUNCTION void store(std::int64_t i0, int rows, int n,
                                         const State (&s)[B]) const {
    // Loops to the constant B keep the block in registers.
    if (rows < B) {
      for (int r = 0; r < B; ++r)
        if (r < rows) V(i0 + r, n) = T(scan.output(s[r]));
      return;
    }
    constexpr int G = Pack<T>::size;
    if constexpr (B % G == 0) {
      T* const p = &V(i0, n);
      if (reinterpret_cast<std::uintptr_t>(p) % sizeof(Pack<T>) == 0) {
        for (int g = 0; g < B; g += G) {
          Pack<T> pack;
          for (int j = 0; j < G; ++j) pack.v[j] = T(scan.output(s[g + j]));
          *reinterpret_cast<Pack<T>*>(p + g) = pack;
        }
        return;
      }
    }
    for (int r = 0; r < B; ++r) V(i0 + r, n) = T(scan.output(s[r]));
  }

  KOKKOS_FUNCTION void operator()(std::int64_t block) const {
    const std::int64_t i0 = block * B;
    const std::int64_t M  = std::int64_t(V.extent(0));
    const int rows        = M - i0 < B ? int(M - i0) : B;
    const int N           = int(V.extent(1));
    double xs[B];
    State s[B];
    for (int r = 0; r < B; ++r) {
      xs[r] = r < rows ? double(x(i0 + r)) : 0.0;  // idle lanes run x = 0
      scan.start(xs[r], s[r]);
    }
    if constexpr (Packed) {  // GPUs: coefficients loaded ahead (for_steps)
      store(i0, rows, 0, s);
      for_steps(scan, 0, N - 1, [&](int n, const typename Scan::step_type& k) {
        for (int r = 0; r < B; ++r) scan.advance(xs[r], k, s[r]);
        store(i0, rows, n + 1, s);
      });
    } else {  // CPUs: one coefficient load a step (lookahead measured no faster)
      for (int r = 0; r < rows; ++r) V(i0 + r, 0) = T(scan.output(s[r]));
      for (int n = 0; n + 1 < N; ++n) {
        const typename Scan::step_type k = scan.load(n);
        for (int r = 0; r < B; ++r) scan.advance(xs[r], k, s[r]);
        for (int r = 0; r < rows; ++r) V(i0 + r, n + 1) = T(scan.output(s[r]));
      }
    }
  }
};

// B x a work item: 8 on CPUs, 16 bytes of T (and Pack stores) on GPUs, which
// call this only for V whose columns are contiguous.
template <class ExecSpace, class XView, class VView, class Scan>
void lockstep_rows(const ExecSpace& space, const std::string& label, const XView& x,
                   const VView& V, const Scan& scan) {
  using T = typename VView::value_type;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  constexpr int B      = host ? 8 : Pack<T>::size;
  const std::int64_t M = std::int64_t(V.extent(0));
  Kokkos::parallel_for(
      label,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, (M + B - 1) / B),
      LockstepRows<B, !host, T, Scan, XView, VView>{scan, x, V});
}

}  // namespace recur::impl

#endif
