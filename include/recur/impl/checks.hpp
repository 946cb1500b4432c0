#ifndef RECUR_IMPL_CHECKS_HPP
#define RECUR_IMPL_CHECKS_HPP

#include <recur/impl/kokkos_compat.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace recur::impl {

// v(i) or v(i, k), for code written once for rank-1 (one column) and rank-2
// Views.
template <class View>
KOKKOS_INLINE_FUNCTION auto& entry(const View& v, std::int64_t i, std::int64_t k) {
  if constexpr (View::rank == 1) {
    (void)k;
    return v(i);
  } else {
    return v(i, k);
  }
}

// The number of columns of a rank-1 (1) or rank-2 View.
template <class View>
std::int64_t columns(const View& v) {
  if constexpr (View::rank == 1) {
    (void)v;
    return 1;
  } else {
    return std::int64_t(v.extent(1));
  }
}

// Compile-time requirements shared by every entry point that fills V from x.
// Each message says what to change in the call.
template <class ExecSpace, class XView, class VView>
constexpr bool check_view_types() {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "recur: the first argument must be a Kokkos execution space "
                "instance (e.g. Kokkos::DefaultExecutionSpace{})");
  static_assert(Kokkos::is_view<XView>::value,
                "recur: x must be a Kokkos::View");
  static_assert(Kokkos::is_view<VView>::value,
                "recur: V must be a Kokkos::View");
  if constexpr (Kokkos::is_view<XView>::value && Kokkos::is_view<VView>::value) {
    static_assert(view_rank<XView> == 1,
                  "recur: x must be a rank-1 View, one x per row of V");
    static_assert(view_rank<VView> == 2,
                  "recur: V must be a rank-2 View of extents M x N");
    static_assert(std::is_arithmetic_v<typename XView::non_const_value_type>,
                  "recur: x must hold real numbers (float or double)");
    static_assert(!std::is_const_v<typename VView::value_type>,
                  "recur: V must be writable; pass a View of non-const values");
    static_assert(std::is_same_v<typename VView::non_const_value_type, float> ||
                      std::is_same_v<typename VView::non_const_value_type, double>,
                  "recur: V must hold float or double");
    static_assert(Kokkos::SpaceAccessibility<
                      ExecSpace, typename XView::memory_space>::accessible,
                  "recur: x lives in a memory space this execution space "
                  "cannot access; deep_copy it into a View in "
                  "ExecSpace::memory_space first");
    static_assert(Kokkos::SpaceAccessibility<
                      ExecSpace, typename VView::memory_space>::accessible,
                  "recur: V lives in a memory space this execution space "
                  "cannot access; allocate V in ExecSpace::memory_space and "
                  "deep_copy the result to the host afterwards");
  }
  return true;
}

// Run-time requirements: V is M x N with M = x.extent(0) and N >= 1.
template <class XView, class VView>
void check_extents(const char* where, const XView& x, const VView& V) {
  if (x.extent(0) != V.extent(0)) {
    throw std::invalid_argument(
        std::string(where) + ": x has " + std::to_string(x.extent(0)) +
        " entries but V has " + std::to_string(V.extent(0)) +
        " rows; V must be M x N with M = x.extent(0)");
  }
  if (V.extent(1) == 0) {
    throw std::invalid_argument(
        std::string(where) +
        ": V has 0 columns; N = V.extent(1) is the number of terms per x and "
        "must be at least 1");
  }
  if (V.extent(1) > std::size_t(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(
        std::string(where) + ": V has " + std::to_string(V.extent(1)) +
        " columns; N must be at most " +
        std::to_string(std::numeric_limits<int>::max()));
  }
}

// A second output (derivatives) must have the extents of the first.
template <class VView, class DView>
void check_same_extents(const char* where, const VView& V, const DView& dV) {
  if (dV.extent(0) != V.extent(0) || dV.extent(1) != V.extent(1)) {
    throw std::invalid_argument(
        std::string(where) + ": dV is " + std::to_string(dV.extent(0)) + " x " +
        std::to_string(dV.extent(1)) + " but V is " + std::to_string(V.extent(0)) +
        " x " + std::to_string(V.extent(1)) + "; dV must have V's extents");
  }
  if (dV.data() == V.data() && V.size() > 0) {
    throw std::invalid_argument(std::string(where) +
                                ": dV and V are the same memory; pass a separate "
                                "View for the derivatives");
  }
}

}  // namespace recur::impl

#endif
