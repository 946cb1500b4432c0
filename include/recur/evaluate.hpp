#ifndef RECUR_EVALUATE_HPP
#define RECUR_EVALUATE_HPP

#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/eti.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/lockstep.hpp>
#include <recur/impl/scan_along_n.hpp>
#include <recur/impl/staged.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/impl/thread_per_x.hpp>
#include <recur/policies.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace recur {

namespace impl {

// Whether a kernel's fill takes x in its own type X next to a Slice<T>
// (recur's kernels and PowerSums do; a user's `template <class T> fill(T x,
// const Slice<T>&)` takes x in V's type T only).
template <class Kernel, class X, class T, class = void>
struct fills_from_x : std::false_type {};
template <class Kernel, class X, class T>
struct fills_from_x<Kernel, X, T,
                    std::void_t<decltype(std::declval<const Kernel&>().fill(
                        std::declval<X>(), std::declval<const Slice<T>&>()))>>
    : std::true_type {};

// Adapts a family's per-x kernel to the (x_i, slice) signature of the
// policies: x at its own precision where the kernel takes it, else in V's.
template <class T, class Kernel>
struct FamilyRow {
  Kernel kernel;
  template <class X>
  KOKKOS_FUNCTION void operator()(X x, const Slice<T>& s) const {
    if constexpr (fills_from_x<Kernel, X, T>::value) {
      kernel.fill(x, s);
    } else {
      kernel.fill(T(x), s);
    }
  }
  template <class X>
  KOKKOS_FUNCTION void operator()(X x, const Slice<T>& s, const Slice<T>& ds) const {
    if constexpr (fills_from_x<Kernel, X, T>::value) {
      kernel.fill(x, s, ds);
    } else {
      kernel.fill(T(x), s, ds);
    }
  }
};

template <class Policy>
inline constexpr bool is_policy_v =
    std::is_same_v<Policy, Auto> || std::is_same_v<Policy, ThreadPerX> ||
    std::is_same_v<Policy, Staged> || std::is_same_v<Policy, ScanAlongN>;
template <class Precision>
inline constexpr bool is_precision_v =
    std::is_same_v<Precision, Accurate> || std::is_same_v<Precision, Fast>;

// "recur::evaluate[Legendre,Staged]", and ",Fast" before the bracket with Fast.
inline std::string kernel_label(const char* operation, const char* family, const char* policy,
                                bool fast) {
  return std::string("recur::") + operation + "[" + family + "," + policy +
         (fast ? ",Fast]" : "]");
}
template <class Family, class Precision = Accurate>
std::string kernel_label(const char* operation, const char* policy) {
  return kernel_label(operation, Family::name(), policy, std::is_same_v<Precision, Fast>);
}

// What evaluate's kernel bodies know of the family beyond its kernel: its
// name (for the kernels' labels), the precision's, and whether it is a
// three-term family (Auto's rule).
struct FamilyNotes {
  const char* name;
  bool fast;
  bool three_term;
};
template <class Family, class Precision>
FamilyNotes notes_of() {
  return {Family::name(), std::is_same_v<Precision, Fast>, is_three_term_family<Family>::value};
}

template <class ExecSpace>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

// The kernel type that evaluates `Family` into values of type T.
template <class T, class ExecSpace, class Family, class Precision = Accurate>
using kernel_t = decltype(make_kernel<T, Precision>(std::declval<const ExecSpace&>(),
                                                    std::declval<const Family&>(), 0));

// Auto's rule, from measurements on an H200 and on CPUs (docs/performance.md):
//  - few rows and long ones: ScanAlongN, if the recurrence has a scan form
//    (fewer than 8 rows per GPU thread slot, or fewer rows than CPU threads,
//    and N >= 4096);
//  - a GPU and rows contiguous in memory (LayoutRight): Staged, if the
//    recurrence has a scan form (staged a chunk of n at a time) or a row fits
//    in team scratch; but not for rows under 32 bytes of a direct family
//    (PowerSums at N = 4: one thread per row stores them coalesced enough,
//    89 % of the fill against 44 % staged; a three-term family's coefficient
//    loads make it 28 % against 37 % staged);
//  - otherwise ThreadPerX.
template <class T, class ExecSpace, class VView>
PolicyKind choose_policy(const ExecSpace& space, const VView& V, bool scannable,
                         bool three_term) {
  const std::int64_t M = std::int64_t(V.extent(0));
  const int N          = int(V.extent(1));
  const std::int64_t slots =
      std::int64_t(space.concurrency()) / (is_host_space_v<ExecSpace> ? 1 : 8);
  if (scannable && N >= 4096 && M < slots) return PolicyKind::ScanAlongN;
  if constexpr (!is_host_space_v<ExecSpace>) {
    if (V.stride_1() == 1 && M > 1 && (N * sizeof(T) >= 32 || three_term) &&
        (scannable || staged_rows_fit<ExecSpace, T>(N) > 0))
      return PolicyKind::Staged;
  }
  return PolicyKind::ThreadPerX;
}

template <class ExecSpace, class VView>
ThreadPerX resolve_policy(ThreadPerX policy, const ExecSpace&, const VView&) {
  return policy;
}
template <class ExecSpace, class VView>
ScanAlongN resolve_policy(ScanAlongN policy, const ExecSpace&, const VView&) {
  return policy;
}
// Staging exists to coalesce a GPU's stores; a CPU thread already writes its
// own rows contiguously, and per-team barriers only cost there.
template <class ExecSpace, class VView>
auto resolve_policy(Staged policy, const ExecSpace&, const VView&) {
  if constexpr (is_host_space_v<ExecSpace>) {
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

// Calls `run` with the policy object Auto chose (ThreadPerX or Staged; also
// ScanAlongN when `scannable`), or with the one given, resolved.
template <bool scannable, class T, class ExecSpace, class VView, class Policy, class Run>
void dispatch(const ExecSpace& space, const VView& V, Policy policy, bool three_term,
              const Run& run) {
  if constexpr (std::is_same_v<Policy, Auto>) {
    switch (choose_policy<T>(space, V, scannable, three_term)) {
      case PolicyKind::Staged: run(resolve_policy(Staged{}, space, V)); break;
      case PolicyKind::ScanAlongN:
        if constexpr (scannable) run(ScanAlongN{});  // the default chunk
        break;
      default: run(ThreadPerX{});
    }
  } else {
    run(resolve_policy(policy, space, V));
  }
}

// evaluate's body for a kernel: what every family of one kernel type shares
// (the seventeen built-in families of tabulated three-term coefficients
// have one; the library holds these bodies once a kernel type, impl/eti.hpp).
template <class ExecSpace, class Kernel, class XView, class VView, class Policy>
void evaluate_kernel(const ExecSpace& space, const Kernel& kernel, const FamilyNotes& notes,
                     const XView& x, const VView& V, Policy policy) {
  using T                  = typename VView::non_const_value_type;
  constexpr bool scannable = has_scan_form<Kernel>::value;
  dispatch<scannable, T>(space, V, policy, notes.three_term, [&](auto chosen) {
    using Chosen            = decltype(chosen);
    const std::string label = kernel_label("evaluate", notes.name, Chosen::name(), notes.fast);
    const FamilyRow<T, Kernel> row{kernel};
    // (Each use of the scan form sits under its own `if constexpr
    // (scannable)`: nvcc instantiates discarded branches of conjunctions.)
    if constexpr (std::is_same_v<Chosen, ScanAlongN>) {
      if constexpr (scannable)
        scan_along_n(space, label, x, V, scan_form(kernel), chosen.chunk);
    } else if constexpr (std::is_same_v<Chosen, ThreadPerX>) {
      // Lockstep blocks of x on CPUs, and on GPUs where V's columns are
      // contiguous (its Pack stores need them).
      bool lockstep = is_host_space_v<ExecSpace> || V.stride_0() == 1;
      if constexpr (scannable) {
        if (lockstep) lockstep_rows(space, label, x, V, scan_form(kernel));
      } else {
        lockstep = false;
      }
      if (!lockstep) for_each_row(chosen, space, label, x, V, row);
    } else if constexpr (std::is_same_v<Chosen, Staged>) {
      // Whole rows while a tile holds 128 of them (measured faster at N = 32
      // on the H200: 88 % of the fill against 61 % for power sums), chunks of
      // n beyond (41 % against 16 % for He_n at N = 256).
      bool whole_rows = staged_rows_fit<ExecSpace, T>(int(V.extent(1))) >= 128;
      if constexpr (scannable) {
        if (!whole_rows) staged_chunks(space, label, x, V, scan_form(kernel));
      } else {
        whole_rows = true;
      }
      if (whole_rows) for_each_row(chosen, space, label, x, V, row);
    } else {
      for_each_row(chosen, space, label, x, V, row);
    }
  });
}

// recur::evaluate once its arguments are checked (the precompiled
// instances of impl/eti.hpp are of this).
template <class ExecSpace, class Family, class XView, class VView, class Policy,
          class Precision>
void evaluate_values(const ExecSpace& space, const Family& family, const XView& x,
                     const VView& V, Policy policy, Precision) {
  using T = typename VView::non_const_value_type;
  ScopedRegion region("recur::evaluate");
  if (V.extent(0) == 0) return;
  const auto kernel = make_kernel<T, Precision>(space, family, int(V.extent(1)));
  evaluate_kernel(space, kernel, notes_of<Family, Precision>(), x, V, policy);
}

// evaluate's body with derivatives for a kernel (as evaluate_kernel).
template <class ExecSpace, class Kernel, class XView, class VView, class DView>
void evaluate_kernel_derivatives(const ExecSpace& space, const Kernel& kernel,
                                 const FamilyNotes& notes, const XView& x, const VView& V,
                                 const DView& dV) {
  using T                 = typename VView::non_const_value_type;
  const std::string label = kernel_label("evaluate_with_derivative", notes.name,
                                         ThreadPerX::name(), notes.fast);
  if constexpr (is_host_space_v<ExecSpace> && is_plain_three_term<Kernel>::value) {
    lockstep_derivatives(space, label, x, V, dV, kernel);  // B x a work item
  } else {
    thread_per_x(space, label, x, V, dV, FamilyRow<T, Kernel>{kernel});
  }
}

// recur::evaluate with derivatives once its arguments are checked.
template <class ExecSpace, class Family, class XView, class VView, class DView,
          class Precision>
void evaluate_derivatives(const ExecSpace& space, const Family& family, const XView& x,
                          const VView& V, const DView& dV, Precision) {
  using T = typename VView::non_const_value_type;
  ScopedRegion region("recur::evaluate");
  if (V.extent(0) == 0) return;
  const auto kernel = make_kernel<T, Precision>(space, family, int(V.extent(1)));
  evaluate_kernel_derivatives(space, kernel, notes_of<Family, Precision>(), x, V, dV);
}

}  // namespace impl

}  // namespace recur

#ifdef RECUR_ENABLE_ETI
// The precompiled instances (impl/eti.hpp), declared: calls that match them
// link to the library's.
namespace recur::impl {
#define RECUR_IMPL_ETI_DECLARE_FAMILY(S, F) RECUR_IMPL_ETI_EVALUATE(extern template, S, F)
#define RECUR_IMPL_ETI_DECLARE_SPACE(S) RECUR_IMPL_ETI_BUILT_FAMILIES(RECUR_IMPL_ETI_DECLARE_FAMILY, S)
RECUR_IMPL_ETI_SPACES(RECUR_IMPL_ETI_DECLARE_SPACE)
#undef RECUR_IMPL_ETI_DECLARE_SPACE
#undef RECUR_IMPL_ETI_DECLARE_FAMILY
#define RECUR_IMPL_ETI_DECLARE_KERNEL(S, F) RECUR_IMPL_ETI_KERNELS_##F(extern template, S)
#define RECUR_IMPL_ETI_DECLARE_KERNELS(S) RECUR_IMPL_ETI_BUILT_KERNELS(RECUR_IMPL_ETI_DECLARE_KERNEL, S)
RECUR_IMPL_ETI_SPACES(RECUR_IMPL_ETI_DECLARE_KERNELS)
#undef RECUR_IMPL_ETI_DECLARE_KERNELS
#undef RECUR_IMPL_ETI_DECLARE_KERNEL
}  // namespace recur::impl
#endif

namespace recur {

/// Fills V(i, n) = p_n(x(i)) for every row i < M and term n < N of `family`,
/// on the execution space instance `space`. V is M x N with M = x.extent(0);
/// any layout (LayoutLeft, LayoutRight, LayoutStride), float or double.
/// `policy` (recur::Auto, the default, ThreadPerX, Staged, ScanAlongN) says
/// how the work is spread, `precision` (recur::Accurate, the default, or
/// recur::Fast) in what arithmetic; a precision alone stands for Auto and it.
/// The work is enqueued on `space`; fence it before reading V on the host.
template <class ExecSpace, class Family, class XView, class VView,
          class Policy = Auto, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               !Kokkos::is_view<Policy>::value,
                           int> = 0>
void evaluate(const ExecSpace& space, const Family& family, const XView& x,
              const VView& V, Policy policy = {}, Precision precision = {}) {
  if constexpr (impl::is_precision_v<Policy>) {
    static_assert(std::is_same_v<Precision, Accurate>,
                  "recur::evaluate: give the policy before the precision");
    evaluate(space, family, x, V, Auto{}, policy);
  } else {
    static_assert(impl::check_view_types<ExecSpace, XView, VView>());
    static_assert(impl::is_policy_v<Policy>,
                  "recur::evaluate: the policy must be recur::Auto, "
                  "recur::ThreadPerX, recur::Staged or recur::ScanAlongN");
    static_assert(impl::is_precision_v<Precision>,
                  "recur::evaluate: the precision must be recur::Accurate or recur::Fast");
    using T      = typename VView::non_const_value_type;
    using Kernel = impl::kernel_t<T, ExecSpace, Family, Precision>;
    constexpr bool scannable = impl::has_scan_form<Kernel>::value;
    static_assert(scannable || !std::is_same_v<Policy, ScanAlongN>,
                  "recur::evaluate: recur::ScanAlongN needs a three-term family "
                  "or PowerSums (a linear recurrence it can compose); use "
                  "recur::ThreadPerX or recur::Staged for this family");
    impl::check_extents("recur::evaluate", x, V);

    impl::evaluate_values(space, family, impl::kernel_input<ExecSpace>(x),
                          impl::kernel_output<ExecSpace>(V), policy, precision);
  }
}

/// recur::evaluate on a default-constructed instance of V's execution space.
template <class Family, class XView, class VView, class Policy = Auto,
          class Precision = Accurate,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               !Kokkos::is_view<Policy>::value,
                           int> = 0>
void evaluate(const Family& family, const XView& x, const VView& V, Policy policy = {},
              Precision precision = {}) {
  evaluate(typename VView::execution_space{}, family, x, V, policy, precision);
}

/// The policy recur::Auto runs for evaluate(space, family, x, V): chosen
/// from the execution space, V's layout and extents, and whether the family
/// is a linear recurrence (see impl::choose_policy). name(kind) gives its name,
/// as the kernel labels show it.
template <class ExecSpace, class Family, class VView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
PolicyKind auto_policy(const ExecSpace& space, const Family&, const VView& V) {
  using T = typename VView::non_const_value_type;
  return impl::choose_policy<T>(
      space, V, impl::has_scan_form<impl::kernel_t<T, ExecSpace, Family>>::value,
      impl::is_three_term_family<Family>::value);
}

/// Fills V(i, n) = p_n(x(i)) and, in the same pass, dV(i, n) = p_n'(x(i))
/// (the differentiated recurrence). dV has V's extents and value type; any
/// layout. Policy recur::Auto or ThreadPerX; either precision.
template <class ExecSpace, class Family, class XView, class VView, class DView,
          class Policy = Auto, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<DView>::value,
                           int> = 0>
void evaluate(const ExecSpace& space, const Family& family, const XView& x,
              const VView& V, const DView& dV, Policy policy = {}, Precision precision = {}) {
  if constexpr (impl::is_precision_v<Policy>) {
    static_assert(std::is_same_v<Precision, Accurate>,
                  "recur::evaluate: give the policy before the precision");
    evaluate(space, family, x, V, dV, Auto{}, policy);
  } else {
    static_assert(impl::check_view_types<ExecSpace, XView, VView>());
    static_assert(impl::check_view_types<ExecSpace, XView, DView>());
    static_assert(std::is_same_v<typename VView::value_type, typename DView::value_type>,
                  "recur::evaluate: dV must hold the same value type as V");
    static_assert(impl::is_policy_v<Policy>,
                  "recur::evaluate: the policy must be recur::Auto, "
                  "recur::ThreadPerX, recur::Staged or recur::ScanAlongN");
    static_assert(impl::is_precision_v<Precision>,
                  "recur::evaluate: the precision must be recur::Accurate or recur::Fast");
    using T = typename VView::non_const_value_type;
    static_assert(!impl::is_direct_family<Family, T>::value ||
                      impl::has_derivative_fill<Family, T>::value,
                  "recur::evaluate: this family gives no derivatives; a direct "
                  "family needs fill(x, slice, derivative_slice) for dV");
    impl::check_extents("recur::evaluate", x, V);
    impl::check_same_extents("recur::evaluate", V, dV);

    if (!std::is_same_v<Policy, ThreadPerX> && !std::is_same_v<Policy, Auto>) {
      throw std::invalid_argument(std::string("recur::evaluate: the ") + Policy::name() +
                                  " policy does not fill derivatives yet; use "
                                  "recur::ThreadPerX or recur::Auto with dV");
    }
    impl::evaluate_derivatives(space, family, impl::kernel_input<ExecSpace>(x),
                               impl::kernel_output<ExecSpace>(V), impl::kernel_output<ExecSpace>(dV),
                               precision);
  }
}

/// recur::evaluate with derivatives on a default-constructed instance of V's
/// execution space.
template <class Family, class XView, class VView, class DView, class Policy = Auto,
          class Precision = Accurate,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               Kokkos::is_view<DView>::value,
                           int> = 0>
void evaluate(const Family& family, const XView& x, const VView& V, const DView& dV,
              Policy policy = {}, Precision precision = {}) {
  evaluate(typename VView::execution_space{}, family, x, V, dV, policy, precision);
}

}  // namespace recur

#endif
