#ifndef RECUR_EVALUATE_HPP
#define RECUR_EVALUATE_HPP

#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/impl/thread_per_x.hpp>
#include <recur/policies.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace recur {

namespace impl {

// Adapts a family's per-x kernel to the (x_i, slice) signature of the
// policies, converting x to the precision of V.
template <class T, class Kernel>
struct FamilyRow {
  Kernel kernel;
  template <class X>
  KOKKOS_FUNCTION void operator()(X x, const Slice<T>& s) const {
    kernel.fill(T(x), s);
  }
};

template <class ExecSpace, class VView>
ThreadPerX resolve_policy(Auto, const ExecSpace&, const VView&) {
  return {};
}
template <class ExecSpace, class VView>
ThreadPerX resolve_policy(ThreadPerX policy, const ExecSpace&, const VView&) {
  return policy;
}

template <class Policy>
inline constexpr bool is_policy_v = std::is_same_v<Policy, Auto> ||
                                    std::is_same_v<Policy, ThreadPerX>;

}  // namespace impl

/// Fills V(i, n) = p_n(x(i)) for every row i < M and term n < N of `family`,
/// on the execution space instance `space`. V is M x N with M = x.extent(0);
/// any layout (LayoutLeft, LayoutRight, LayoutStride), float or double.
/// The work is enqueued on `space`; fence it before reading V on the host.
template <class ExecSpace, class Family, class XView, class VView,
          class Policy = Auto,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void evaluate(const ExecSpace& space, const Family& family, const XView& x,
              const VView& V, Policy policy = {}) {
  static_assert(impl::check_view_types<ExecSpace, XView, VView>());
  static_assert(impl::is_policy_v<Policy>,
                "recur::evaluate: the policy must be recur::Auto or "
                "recur::ThreadPerX");
  impl::check_extents("recur::evaluate", x, V);
  using T = typename VView::non_const_value_type;

  impl::ScopedRegion region("recur::evaluate");
  const auto chosen = impl::resolve_policy(policy, space, V);
  const std::string label = std::string("recur::evaluate[") + Family::name() +
                            "," + decltype(chosen)::name() + "]";
  if (V.extent(0) == 0) return;
  const auto kernel = impl::make_kernel<T>(space, family, int(V.extent(1)));
  impl::thread_per_x(space, label, x, V,
                     impl::FamilyRow<T, std::decay_t<decltype(kernel)>>{kernel});
}

/// recur::evaluate on a default-constructed instance of V's execution space.
template <class Family, class XView, class VView, class Policy = Auto,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value, int> = 0>
void evaluate(const Family& family, const XView& x, const VView& V,
              Policy policy = {}) {
  evaluate(typename VView::execution_space{}, family, x, V, policy);
}

}  // namespace recur

#endif
