#ifndef RECUR_IMPL_THREAD_PER_X_HPP
#define RECUR_IMPL_THREAD_PER_X_HPP

#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace recur::impl {

// Row i of V as a Slice, whatever V's layout.
template <class VView>
KOKKOS_FORCEINLINE_FUNCTION Slice<typename VView::value_type> row_slice(
    const VView& V, std::int64_t i) {
  return Slice<typename VView::value_type>(
      &V(i, 0), std::ptrdiff_t(V.stride_1()), int(V.extent(1)));
}

// One work item per x: hands x_i and its row(s) to `f`.
template <class XView, class VView, class RowFunction>
struct ThreadPerXFunctor {
  XView x;
  VView V;
  RowFunction f;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const { f(x(i), row_slice(V, i)); }
};

template <class XView, class VView, class DView, class RowFunction>
struct ThreadPerXWithDerivativeFunctor {
  XView x;
  VView V;
  DView dV;
  RowFunction f;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    f(x(i), row_slice(V, i), row_slice(dV, i));
  }
};

template <class ExecSpace>
auto rows(const ExecSpace& space, std::size_t M) {
  return Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
      space, 0, std::int64_t(M));
}

template <class ExecSpace, class XView, class VView, class RowFunction>
void thread_per_x(const ExecSpace& space, const std::string& label,
                  const XView& x, const VView& V, const RowFunction& f) {
  Kokkos::parallel_for(label, rows(space, V.extent(0)),
                       ThreadPerXFunctor<XView, VView, RowFunction>{x, V, f});
}

template <class ExecSpace, class XView, class VView, class DView, class RowFunction>
void thread_per_x(const ExecSpace& space, const std::string& label,
                  const XView& x, const VView& V, const DView& dV,
                  const RowFunction& f) {
  Kokkos::parallel_for(
      label, rows(space, V.extent(0)),
      ThreadPerXWithDerivativeFunctor<XView, VView, DView, RowFunction>{x, V, dV, f});
}

}  // namespace recur::impl

#endif
