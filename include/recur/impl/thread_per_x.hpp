#ifndef RECUR_IMPL_THREAD_PER_X_HPP
#define RECUR_IMPL_THREAD_PER_X_HPP

#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace recur::impl {

// One work item per x: builds the row's Slice and hands it to `f`.
template <class XView, class VView, class RowFunction>
struct ThreadPerXFunctor {
  using value_type = typename VView::value_type;

  XView x;
  VView V;
  RowFunction f;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    f(x(i), Slice<value_type>(&V(i, 0), std::ptrdiff_t(V.stride_1()),
                              int(V.extent(1))));
  }
};

template <class ExecSpace, class XView, class VView, class RowFunction>
void thread_per_x(const ExecSpace& space, const std::string& label,
                  const XView& x, const VView& V, const RowFunction& f) {
  Kokkos::parallel_for(
      label,
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
          space, 0, std::int64_t(V.extent(0))),
      ThreadPerXFunctor<XView, VView, RowFunction>{x, V, f});
}

}  // namespace recur::impl

#endif
