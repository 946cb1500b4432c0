#ifndef RECUR_EVALUATE_HPP
#define RECUR_EVALUATE_HPP

#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/staged.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/impl/thread_per_x.hpp>
#include <recur/policies.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <stdexcept>
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
  template <class X>
  KOKKOS_FUNCTION void operator()(X x, const Slice<T>& s, const Slice<T>& ds) const {
    kernel.fill(T(x), s, ds);
  }
};

template <class Policy>
inline constexpr bool is_policy_v = std::is_same_v<Policy, Auto> ||
                                    std::is_same_v<Policy, ThreadPerX> ||
                                    std::is_same_v<Policy, Staged>;

template <class Family>
std::string kernel_label(const char* operation, const char* policy) {
  return std::string("recur::") + operation + "[" + Family::name() + "," + policy + "]";
}

template <class ExecSpace, class VView>
ThreadPerX resolve_policy(Auto, const ExecSpace&, const VView&) {
  return {};
}
template <class ExecSpace, class VView>
ThreadPerX resolve_policy(ThreadPerX policy, const ExecSpace&, const VView&) {
  return policy;
}
// Staging exists to coalesce a GPU's stores; a CPU thread already writes its
// own rows contiguously, and per-team barriers only cost there.
template <class ExecSpace, class VView>
auto resolve_policy(Staged policy, const ExecSpace&, const VView&) {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecSpace::memory_space>::accessible) {
    return ThreadPerX{};
  } else {
    return policy;
  }
}

// Runs `f(x_i, row)` for every row with the chosen policy.
template <class ExecSpace, class XView, class VView, class RowFunction>
void for_each_row(ThreadPerX, const ExecSpace& space, const std::string& label,
                  const XView& x, const VView& V, const RowFunction& f) {
  thread_per_x(space, label, x, V, f);
}
template <class ExecSpace, class XView, class VView, class RowFunction>
void for_each_row(Staged, const ExecSpace& space, const std::string& label,
                  const XView& x, const VView& V, const RowFunction& f) {
  staged(space, label, x, V, f);
}

}  // namespace impl

/// Fills V(i, n) = p_n(x(i)) for every row i < M and term n < N of `family`,
/// on the execution space instance `space`. V is M x N with M = x.extent(0);
/// any layout (LayoutLeft, LayoutRight, LayoutStride), float or double.
/// The work is enqueued on `space`; fence it before reading V on the host.
template <class ExecSpace, class Family, class XView, class VView,
          class Policy = Auto,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               !Kokkos::is_view<Policy>::value,
                           int> = 0>
void evaluate(const ExecSpace& space, const Family& family, const XView& x,
              const VView& V, Policy policy = {}) {
  static_assert(impl::check_view_types<ExecSpace, XView, VView>());
  static_assert(impl::is_policy_v<Policy>,
                "recur::evaluate: the policy must be recur::Auto, "
                "recur::ThreadPerX or recur::Staged");
  impl::check_extents("recur::evaluate", x, V);
  using T = typename VView::non_const_value_type;

  impl::ScopedRegion region("recur::evaluate");
  const auto chosen = impl::resolve_policy(policy, space, V);
  const std::string label =
      impl::kernel_label<Family>("evaluate", decltype(chosen)::name());
  if (V.extent(0) == 0) return;
  const auto kernel = impl::make_kernel<T>(space, family, int(V.extent(1)));
  impl::for_each_row(chosen, space, label, x, V,
                     impl::FamilyRow<T, std::decay_t<decltype(kernel)>>{kernel});
}

/// recur::evaluate on a default-constructed instance of V's execution space.
template <class Family, class XView, class VView, class Policy = Auto,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               !Kokkos::is_view<Policy>::value,
                           int> = 0>
void evaluate(const Family& family, const XView& x, const VView& V,
              Policy policy = {}) {
  evaluate(typename VView::execution_space{}, family, x, V, policy);
}

/// Fills V(i, n) = p_n(x(i)) and, in the same pass, dV(i, n) = p_n'(x(i))
/// (the differentiated recurrence). dV has V's extents and value type; any
/// layout.
template <class ExecSpace, class Family, class XView, class VView, class DView,
          class Policy = Auto,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<DView>::value,
                           int> = 0>
void evaluate(const ExecSpace& space, const Family& family, const XView& x,
              const VView& V, const DView& dV, Policy policy = {}) {
  static_assert(impl::check_view_types<ExecSpace, XView, VView>());
  static_assert(impl::check_view_types<ExecSpace, XView, DView>());
  static_assert(std::is_same_v<typename VView::value_type, typename DView::value_type>,
                "recur::evaluate: dV must hold the same value type as V");
  static_assert(impl::is_policy_v<Policy>,
                "recur::evaluate: the policy must be recur::Auto, "
                "recur::ThreadPerX or recur::Staged");
  using T = typename VView::non_const_value_type;
  static_assert(!impl::is_direct_family<Family, T>::value ||
                    impl::has_derivative_fill<Family, T>::value,
                "recur::evaluate: this family gives no derivatives; a direct "
                "family needs fill(x, slice, derivative_slice) for dV");
  impl::check_extents("recur::evaluate", x, V);
  impl::check_same_extents("recur::evaluate", V, dV);

  impl::ScopedRegion region("recur::evaluate");
  const auto chosen = impl::resolve_policy(policy, space, V);
  if (std::is_same_v<Policy, Staged>) {
    throw std::invalid_argument(
        "recur::evaluate: the Staged policy does not fill derivatives yet; use "
        "recur::ThreadPerX or recur::Auto with dV");
  }
  const std::string label = impl::kernel_label<Family>(
      "evaluate_with_derivative", ThreadPerX::name());
  if (V.extent(0) == 0) return;
  const auto kernel = impl::make_kernel<T>(space, family, int(V.extent(1)));
  impl::thread_per_x(space, label, x, V, dV,
                     impl::FamilyRow<T, std::decay_t<decltype(kernel)>>{kernel});
}

/// recur::evaluate with derivatives on a default-constructed instance of V's
/// execution space.
template <class Family, class XView, class VView, class DView, class Policy = Auto,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               Kokkos::is_view<DView>::value,
                           int> = 0>
void evaluate(const Family& family, const XView& x, const VView& V, const DView& dV,
              Policy policy = {}) {
  evaluate(typename VView::execution_space{}, family, x, V, dV, policy);
}

}  // namespace recur

#endif
