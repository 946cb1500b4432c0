#ifndef RECUR_IMPL_LOCKSTEP_HPP
#define RECUR_IMPL_LOCKSTEP_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace recur::impl {

// ThreadPerX on CPUs for recurrences with a scan form (scan_along_n.hpp):
// each work item carries a block of B consecutive x through the recurrence in
// lockstep. One recurrence is a chain of dependent multiply-adds, so a CPU
// thread running one x at a time waits on their latency; B independent chains
// fill the pipeline (and SIMD lanes). The block also writes V(i0..i0+B-1, n)
// together: for LayoutLeft that is one contiguous run per n instead of N
// scattered cache lines per x. The arithmetic is that of one x at a time, so
// the values are the same, bit for bit.
template <int B, class T, class Scan, class XView, class VView>
struct LockstepRows {
  using W = typename Scan::state_type;
  Scan scan;
  XView x;
  VView V;

  KOKKOS_FUNCTION void operator()(std::int64_t block) const {
    const std::int64_t i0 = block * B;
    const std::int64_t M  = std::int64_t(V.extent(0));
    const int rows        = M - i0 < B ? int(M - i0) : B;
    const int N           = int(V.extent(1));
    double xs[B];
    W u0[B], u1[B];
    for (int r = 0; r < B; ++r) {
      xs[r] = r < rows ? double(T(x(i0 + r))) : 0.0;  // idle lanes run x = 0
      scan.start(xs[r], u0[r], u1[r]);
    }
    for (int r = 0; r < rows; ++r) V(i0 + r, 0) = T(scan.output(u0[r], u1[r]));
    for (int n = 0; n + 1 < N; ++n) {
      for (int r = 0; r < B; ++r) scan.advance(xs[r], n, u0[r], u1[r]);
      for (int r = 0; r < rows; ++r) V(i0 + r, n + 1) = T(scan.output(u0[r], u1[r]));
    }
  }
};

template <class ExecSpace, class XView, class VView, class Scan>
void lockstep_rows(const ExecSpace& space, const std::string& label, const XView& x,
                   const VView& V, const Scan& scan) {
  constexpr int B      = 8;
  using T              = typename VView::value_type;
  const std::int64_t M = std::int64_t(V.extent(0));
  Kokkos::parallel_for(
      label,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, (M + B - 1) / B),
      LockstepRows<B, T, Scan, XView, VView>{scan, x, V});
}

}  // namespace recur::impl

#endif
