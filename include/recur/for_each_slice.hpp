#ifndef RECUR_FOR_EACH_SLICE_HPP
#define RECUR_FOR_EACH_SLICE_HPP

#include <recur/evaluate.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/thread_per_x.hpp>
#include <recur/policies.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace recur {

/// The scalar-in, vector-out generalized ufunc: for every row i, calls
/// f(x(i), slice) where slice(n) is V(i, n), n < slice.size() = N. `f` never
/// sees V's layout. It runs on the execution space instance `space`, so `f`
/// must be callable there (KOKKOS_LAMBDA or a functor with KOKKOS_FUNCTION).
template <class ExecSpace, class XView, class VView, class Function,
          class Policy = Auto,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void for_each_slice(const ExecSpace& space, const XView& x, const VView& V,
                    const Function& f, Policy policy = {}) {
  static_assert(impl::check_view_types<ExecSpace, XView, VView>());
  static_assert(impl::is_policy_v<Policy>,
                "recur::for_each_slice: the policy must be recur::Auto, "
                "recur::ThreadPerX or recur::Staged");
  static_assert(!std::is_same_v<Policy, ScanAlongN>,
                "recur::for_each_slice: recur::ScanAlongN needs the "
                "recurrence's algebra, which a user function does not give; "
                "use recur::ThreadPerX or recur::Staged");
  using T = typename VView::non_const_value_type;
  static_assert(
      std::is_invocable_v<const Function&,
                          typename XView::non_const_value_type, Slice<T>>,
      "recur::for_each_slice: f must be callable as f(x_i, recur::Slice<T>) "
      "with T the value type of V");
  impl::check_extents("recur::for_each_slice", x, V);

  impl::ScopedRegion region("recur::for_each_slice");
  if (V.extent(0) == 0) return;
  impl::dispatch<false, T>(space, V, policy, false, [&](auto chosen) {
    const std::string label =
        std::string("recur::for_each_slice[") + decltype(chosen)::name() + "]";
    impl::for_each_row(chosen, space, label, impl::kernel_input<ExecSpace>(x),
                       impl::kernel_output<ExecSpace>(V), f);
  });
}

/// The policy recur::Auto runs for for_each_slice(space, x, V, f): Staged or
/// ThreadPerX, from the execution space and V's layout and extents.
template <class ExecSpace, class VView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
PolicyKind auto_policy(const ExecSpace& space, const VView& V) {
  return impl::choose_policy<typename VView::non_const_value_type>(space, V, false, false);
}

/// recur::for_each_slice on a default-constructed instance of V's execution
/// space.
template <class XView, class VView, class Function, class Policy = Auto,
          std::enable_if_t<Kokkos::is_view<XView>::value, int> = 0>
void for_each_slice(const XView& x, const VView& V, const Function& f,
                    Policy policy = {}) {
  for_each_slice(typename VView::execution_space{}, x, V, f, policy);
}

}  // namespace recur

#endif
