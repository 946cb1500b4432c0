#ifndef RECUR_SERIES_HPP
#define RECUR_SERIES_HPP

#include <recur/config.hpp>
#include <recur/evaluate.hpp>
#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/series.hpp>
#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>
#ifdef RECUR_ENABLE_KOKKOSKERNELS
#include <KokkosBlas2_gemv.hpp>
#include <KokkosBlas3_gemm.hpp>
#endif

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace recur {

namespace impl {

template <class ExecSpace, class Family, class CView, class XView, class YView>
constexpr bool check_series_types() {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "recur::series: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<CView>::value && Kokkos::is_view<YView>::value &&
                    (view_rank<CView> == 1 || view_rank<CView> == 2) &&
                    view_rank<YView> == view_rank<CView>,
                "recur::series: C and Y must both be rank-1 Views (N coefficients, M values: "
                "one expansion) or both rank-2 (N x K and M x K: K expansions)");
  static_assert(Kokkos::is_view<XView>::value && view_rank<XView> == 1,
                "recur::series: x must be a rank-1 View");
  static_assert(std::is_same_v<typename YView::value_type, float> ||
                    std::is_same_v<typename YView::value_type, double>,
                "recur::series: Y must hold (non-const) float or double");
  static_assert(std::is_arithmetic_v<typename CView::non_const_value_type> &&
                    std::is_arithmetic_v<typename XView::non_const_value_type>,
                "recur::series: C and x must hold real numbers");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename CView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
      "recur::series: C, x and Y must live in memory this execution space can access");
  static_assert(is_three_term_family<Family>::value || std::is_same_v<Family, PowerSums>,
                "recur::series: the family must be a three-term family or PowerSums; a "
                "direct family gives no recurrence to sum by");
  return true;
}

template <class CView, class XView, class YView>
void check_series_extents(const CView& C, const XView& x, const YView& Y) {
  const std::string where = "recur::series: ";
  if (Y.extent(0) != x.extent(0))
    throw std::invalid_argument(where + "x has " + std::to_string(x.extent(0)) +
                                " entries but Y has " + std::to_string(Y.extent(0)) +
                                " rows; Y must be M x K with M = x.extent(0)");
  if (columns(Y) != columns(C))
    throw std::invalid_argument(where + "C has " + std::to_string(columns(C)) +
                                " columns (coefficient sets) but Y has " +
                                std::to_string(columns(Y)) +
                                "; Y must be M x K with K = C.extent(1)");
  if (C.extent(0) == 0 || C.extent(0) > std::size_t(std::numeric_limits<int>::max()))
    throw std::invalid_argument(where + "C has " + std::to_string(C.extent(0)) +
                                " rows; N = C.extent(0), the number of terms, must be "
                                "between 1 and 2^31 - 1");
}

template <class Precision, class ExecSpace, class Family, class CView, class XView, class YView,
          class DView>
void run_series(const ExecSpace& space, const Family& family, const CView& C, const XView& x,
                const YView& Y, const DView& dY, bool derivative) {
  using T = typename YView::non_const_value_type;
  ScopedRegion region("recur::series");
  if (Y.size() == 0) return;
  const auto kernel = make_kernel<T, Precision>(space, family, int(C.extent(0)));
  // CPUs: 8 x a work item in lockstep (impl/series.hpp), 16 where the
  // sums run in AVX2 vectors (three-term families without prefactor:
  // impl/cpu_lanes.hpp); GPUs: one.
  using Kernel = std::decay_t<decltype(kernel)>;
  constexpr int B =
      !is_host_space_v<ExecSpace> ? 1 : (cpu_lanes_series_runs<Kernel, 16> ? 16 : 8);
  using Functor = SeriesFunctor<B, T, Kernel, XView, CView, YView, DView>;
  const std::int64_t blocks = (std::int64_t(Y.extent(0)) + B - 1) / B;
  Kokkos::parallel_for(
      std::string("recur::series[") + Family::name() +
          (std::is_same_v<Precision, Fast> ? ",Fast]" : "]"),
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                      blocks * columns(Y)),
      Functor{kernel, x, C, Y, dY, derivative});
}

}  // namespace impl

/// Y(i, k) = sum_{n < N} C(n, k) p_n(x(i)): K expansions in `family`, with
/// N = C.extent(0) terms each, evaluated at every x without forming V (by
/// Clenshaw's recurrence; impl/series.hpp says why). C is N x K, Y is M x K,
/// any layouts; for one expansion C and Y may be rank-1 (N and M values, as
/// recur::project and recur::fit return coefficients); Y float or double,
/// computed in the working precision `precision` gives, as recur::evaluate
/// (Accurate, the default: float in double, double in double-double; Fast:
/// in double). Three-term families and PowerSums. Enqueued on `space`.
template <class ExecSpace, class Family, class CView, class XView, class YView,
          class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               impl::is_precision_v<Precision>,
                           int> = 0>
void series(const ExecSpace& space, const Family& family, const CView& C, const XView& x,
            const YView& Y, Precision = {}) {
  static_assert(impl::check_series_types<ExecSpace, Family, CView, XView, YView>());
  impl::check_series_extents(C, x, Y);
  impl::run_series<Precision>(space, family, impl::kernel_input<ExecSpace>(C),
                              impl::kernel_input<ExecSpace>(x), impl::kernel_output<ExecSpace>(Y),
                              impl::kernel_output<ExecSpace>(Y), false);
}

/// recur::series, and in the same pass dY(i, k) = d/dx of the same sums.
template <class ExecSpace, class Family, class CView, class XView, class YView, class DView,
          class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<DView>::value && impl::is_precision_v<Precision>,
                           int> = 0>
void series(const ExecSpace& space, const Family& family, const CView& C, const XView& x,
            const YView& Y, const DView& dY, Precision = {}) {
  static_assert(impl::check_series_types<ExecSpace, Family, CView, XView, YView>());
  static_assert(impl::check_series_types<ExecSpace, Family, CView, XView, DView>());
  impl::check_series_extents(C, x, Y);
  if (dY.extent(0) != Y.extent(0) || impl::columns(dY) != impl::columns(Y))
    throw std::invalid_argument("recur::series: dY is " + std::to_string(dY.extent(0)) + " x " +
                                std::to_string(impl::columns(dY)) + " but Y is " +
                                std::to_string(Y.extent(0)) + " x " +
                                std::to_string(impl::columns(Y)) + "; dY must have Y's extents");
  impl::run_series<Precision>(space, family, impl::kernel_input<ExecSpace>(C),
                              impl::kernel_input<ExecSpace>(x), impl::kernel_output<ExecSpace>(Y),
                              impl::kernel_output<ExecSpace>(dY), true);
}

/// recur::series on a default-constructed instance of Y's execution space.
template <class Family, class CView, class XView, class YView, class Precision = Accurate,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               impl::is_precision_v<Precision>,
                           int> = 0>
void series(const Family& family, const CView& C, const XView& x, const YView& Y,
            Precision precision = {}) {
  series(typename YView::execution_space{}, family, C, x, Y, precision);
}

/// recur::series with derivatives on a default-constructed instance of Y's
/// execution space.
template <class Family, class CView, class XView, class YView, class DView,
          class Precision = Accurate,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               Kokkos::is_view<DView>::value && impl::is_precision_v<Precision>,
                           int> = 0>
void series(const Family& family, const CView& C, const XView& x, const YView& Y,
            const DView& dY, Precision precision = {}) {
  series(typename YView::execution_space{}, family, C, x, Y, dY, precision);
}

#ifdef RECUR_ENABLE_KOKKOSKERNELS
/// Y = V C through Kokkos Kernels: V (M x N, any layout; its contents are
/// overwritten) is filled by recur::evaluate with `policy` and `precision`
/// (a precision alone stands for Auto and it, as for evaluate), then
/// KokkosBlas::gemv (K = 1) or KokkosBlas::gemm forms the product, in Y's
/// type, through the vendor BLAS Kokkos Kernels was built with. Costs V's
/// memory and traffic, but reaches BLAS speed when K is large; recur::series
/// needs neither (docs/using-v.md compares them). C must hold Y's value
/// type.
template <class ExecSpace, class Family, class CView, class XView, class YView, class VView,
          class Policy = Auto, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<VView>::value,
                           int> = 0>
void series_via_blas(const ExecSpace& space, const Family& family, const CView& C,
                     const XView& x, const YView& Y, const VView& V, Policy policy = {},
                     Precision precision = {}) {
  static_assert(impl::check_series_types<ExecSpace, Family, CView, XView, YView>());
  static_assert(std::is_same_v<typename CView::non_const_value_type,
                               typename YView::non_const_value_type> &&
                    std::is_same_v<typename VView::non_const_value_type,
                                   typename YView::non_const_value_type>,
                "recur::series_via_blas: C, V and Y must hold the same value type");
  impl::check_series_extents(C, x, Y);
  if (V.extent(0) != Y.extent(0) || V.extent(1) != C.extent(0))
    throw std::invalid_argument("recur::series_via_blas: V is " + std::to_string(V.extent(0)) +
                                " x " + std::to_string(V.extent(1)) + " but must be M x N = " +
                                std::to_string(Y.extent(0)) + " x " +
                                std::to_string(C.extent(0)));
  impl::ScopedRegion region("recur::series_via_blas");
  evaluate(space, family, x, V, policy, precision);
  using T            = typename YView::non_const_value_type;
  const auto product = [&](const auto& c, const auto& y) {
#if KOKKOS_VERSION >= 40000
    KokkosBlas::gemv(space, "N", T(1), V, c, T(0), y);
#else
    impl::fence(space, "recur::series_via_blas: before gemv");
    KokkosBlas::gemv("N", T(1), V, c, T(0), y);
#endif
  };
  if constexpr (impl::view_rank<YView> == 1) {
    product(C, Y);
  } else if (Y.extent(1) == 1) {
    product(Kokkos::subview(C, Kokkos::ALL, 0), Kokkos::subview(Y, Kokkos::ALL, 0));
  } else {
#if KOKKOS_VERSION >= 40000
    KokkosBlas::gemm(space, "N", "N", T(1), V, C, T(0), Y);
#else
    impl::fence(space, "recur::series_via_blas: before gemm");
    KokkosBlas::gemm("N", "N", T(1), V, C, T(0), Y);
#endif
  }
}

/// recur::series_via_blas with V allocated for the call, in Y's layout.
template <class ExecSpace, class Family, class CView, class XView, class YView,
          class Policy = Auto, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               !Kokkos::is_view<Policy>::value,
                           int> = 0>
void series_via_blas(const ExecSpace& space, const Family& family, const CView& C,
                     const XView& x, const YView& Y, Policy policy = {},
                     Precision precision = {}) {
  impl::check_series_extents(C, x, Y);
  Kokkos::View<typename YView::non_const_value_type**, typename YView::array_layout,
               typename ExecSpace::memory_space>
      V(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::series_via_blas::V"),
        Y.extent(0), C.extent(0));
  series_via_blas(space, family, C, x, Y, V, policy, precision);
}
#endif

}  // namespace recur

#endif
