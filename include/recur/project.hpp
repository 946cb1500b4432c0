#ifndef RECUR_PROJECT_HPP
#define RECUR_PROJECT_HPP

#include <recur/evaluate.hpp>
#include <recur/families.hpp>
#include <recur/gauss.hpp>
#include <recur/impl/gauss.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/least_squares.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace recur {

namespace impl {

template <class ExecSpace, class Family, class FView, class CView>
constexpr bool check_project_types() {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "recur::project: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<FView>::value && Kokkos::is_view<CView>::value &&
                    (view_rank<FView> == 1 || view_rank<FView> == 2) &&
                    view_rank<CView> == view_rank<FView>,
                "recur::project: f and coefficients must both be rank-1 Views (n values, N "
                "coefficients) or both rank-2 (n x K and N x K, K functions)");
  using T = typename CView::value_type;
  static_assert((std::is_same_v<T, float> || std::is_same_v<T, double>)&&std::is_same_v<
                    typename FView::non_const_value_type, T>,
                "recur::project: coefficients must hold (non-const) float or double, and f "
                "the same type");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename FView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename CView::memory_space>::accessible,
      "recur::project: f and coefficients must live in memory this execution space can "
      "access");
  static_assert(is_three_term_family<Family>::value && has_norm_ratio<Family>::value,
                "recur::project: the family must be a weighted three-term family (with "
                "norm_ratio and total_mass), whose Gauss rule the projection uses");
  return true;
}

// G(i, k) = weights(i) / mass * f(i, k).
template <class WView, class FView, class GView>
struct WeighSamples {
  WView weights;
  FView f;
  GView g;
  double inverse_mass;
  std::int64_t n;
  KOKKOS_FUNCTION void operator()(std::int64_t index) const {
    const std::int64_t i = index % n, k = index / n;
    entry(g, i, k)       = typename GView::value_type(weights(i) * inverse_mass) * entry(f, i, k);
  }
};

// c(k, j) *= scale(k).
template <class CView, class SView>
struct ScaleRows {
  CView c;
  SView scale;
  std::int64_t N;
  KOKKOS_FUNCTION void operator()(std::int64_t index) const {
    const std::int64_t k = index % N, j = index / N;
    entry(c, k, j) *= scale(k);
  }
};

// The checks of project's arguments that one process can make (project and
// mpi::project); N <= n is the caller's, over all of its nodes.
template <class NodesView, class WeightsView, class FView, class CView>
void check_project_extents(const std::string& where, const NodesView& nodes,
                           const WeightsView& weights, const FView& f, const CView& coefficients) {
  const std::int64_t n = std::int64_t(f.extent(0)), N = std::int64_t(coefficients.extent(0));
  const std::int64_t K = columns(coefficients);
  if (nodes.extent(0) != std::size_t(n) || weights.extent(0) != std::size_t(n))
    throw std::invalid_argument(where + "f has " + std::to_string(n) + " rows but nodes has " +
                                std::to_string(nodes.extent(0)) + " entries and weights " +
                                std::to_string(weights.extent(0)) +
                                "; f must hold one value per node of the rule");
  if (N < 1)
    throw std::invalid_argument(where + "coefficients has N = " + std::to_string(N) +
                                " rows; it needs N >= 1");
  if (columns(f) != K)
    throw std::invalid_argument(where + "f has " + std::to_string(columns(f)) +
                                " columns but coefficients has " + std::to_string(K) +
                                "; both have one column per function");
}

// c^ = V^T (w / mass ∘ f) with V(i, k) = q_k(nodes(i)), the orthonormal
// basis: the coefficients in it, before the factors 1 / s_k. Any number of
// nodes, none included (then c^ = 0).
template <class ExecSpace, class Family, class NodesView, class WeightsView, class FView,
          class CView>
void orthonormal_sums(const ExecSpace& space, const Family& family, const NodesView& nodes,
                      const WeightsView& weights, const FView& f, const CView& coefficients) {
  using T           = typename CView::value_type;
  using MemorySpace = typename ExecSpace::memory_space;
  const std::int64_t n = std::int64_t(f.extent(0)), N = std::int64_t(coefficients.extent(0));
  const std::int64_t K = columns(coefficients);
  if (n == 0) {
    Kokkos::deep_copy(space, coefficients, T(0));
    return;
  }
  using Matrix = Kokkos::View<T**, Kokkos::LayoutLeft, MemorySpace>;
  Matrix V(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::V"), n, N);
  evaluate(space, orthonormal(family), nodes, V);

  using GView = std::conditional_t<CView::rank == 1, Kokkos::View<T*, MemorySpace>, Matrix>;
  GView g;
  if constexpr (CView::rank == 1)
    g = GView(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::g"), n);
  else
    g = GView(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::g"), n, K);
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("recur::project[weigh]", Range(space, 0, n * K),
                       WeighSamples<WeightsView, FView, GView>{
                           weights, f, g, double(1 / family.total_mass()), n});
  transpose_product(space, V, g, coefficients);
}

// coefficients(k, j) *= scale[k].
template <class ExecSpace, class CView, class T>
void scale_rows(const ExecSpace& space, const CView& coefficients, const std::vector<T>& scale) {
  using MemorySpace    = typename ExecSpace::memory_space;
  const std::int64_t N = std::int64_t(coefficients.extent(0)), K = columns(coefficients);
  Kokkos::View<T*, MemorySpace> on_space(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::scale"), N);
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
      scale.data(), N);
  Kokkos::deep_copy(space, on_space, host);
  Kokkos::parallel_for("recur::project[scale]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                                      N * K),
                       ScaleRows<CView, decltype(on_space)>{coefficients, on_space, N});
  fence(space, "recur::project: the host's scale factors are released");
}

}  // namespace impl

/// Coefficients of f in `family` from f's values at the family's n-point
/// Gauss nodes (those recur::gauss gives, `nodes` and `weights` here):
///   coefficients(k) = <f, p_k> / <p_k, p_k>,  <f, g> = sum_i w_i f(x_i) g(x_i),
/// for k < N, N = coefficients.extent(0) <= n. A polynomial of degree < n is
/// recovered exactly (to rounding); for other f these are the coefficients of
/// its degree-(n - 1) interpolant in the family's basis, truncated to N terms.
/// f may be rank-2 (n x K, K functions; coefficients N x K).
///
/// The orthonormal basis q_k is evaluated at the nodes (V^, n x N), then
/// c^ = V^T (w / mass ∘ f) by Kokkos Kernels (gemv, or gemm for K > 1) when
/// recur has it, and c_k = c^_k / s_k with p_k = s_k q_k (exact factors from
/// the two recurrences, so the Hermite families' huge norms never overflow).
template <class ExecSpace, class Family, class NodesView, class WeightsView, class FView,
          class CView, std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void project(const ExecSpace& space, const Family& family, const NodesView& nodes,
             const WeightsView& weights, const FView& f, const CView& coefficients) {
  static_assert(impl::check_project_types<ExecSpace, Family, FView, CView>());
  static_assert(Kokkos::is_view<NodesView>::value && impl::view_rank<NodesView> == 1 &&
                    Kokkos::is_view<WeightsView>::value && impl::view_rank<WeightsView> == 1,
                "recur::project: nodes and weights must be rank-1 Views of n values");
  using T                 = typename CView::value_type;
  const std::int64_t n    = std::int64_t(f.extent(0)), N = std::int64_t(coefficients.extent(0));
  const std::string where = "recur::project: ";
  impl::check_project_extents(where, nodes, weights, f, coefficients);
  if (N > n)
    throw std::invalid_argument(where + "coefficients has N = " + std::to_string(N) +
                                " rows but the rule has n = " + std::to_string(n) +
                                " nodes; an n-point rule determines 1 <= N <= n coefficients");
  // p_k = s_k q_k: the factors 1 / s_k (checked before any work is done).
  std::vector<T> inverse;
  if constexpr (!impl::is_normalized<Family>::value)
    inverse = impl::inverse_orthonormal_scales<T>(family, int(N), where);
  impl::ScopedRegion region("recur::project");
  impl::orthonormal_sums(space, family, nodes, weights, f, coefficients);
  if constexpr (!impl::is_normalized<Family>::value)
    impl::scale_rows(space, coefficients, inverse);
}

/// recur::project with the n-point Gauss rule made for the call
/// (recur::gauss, n = f.extent(0)): f holds f's values at those nodes. The
/// rule costs O(n^2) on the host; keep it and call the overload above when
/// projecting many times.
template <class ExecSpace, class Family, class FView, class CView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<FView>::value,
                           int> = 0>
void project(const ExecSpace& space, const Family& family, const FView& f,
             const CView& coefficients) {
  static_assert(impl::check_project_types<ExecSpace, Family, FView, CView>());
  using T   = typename CView::value_type;
  const int n = int(f.extent(0));
  if (n < 1) throw std::invalid_argument("recur::project: f is empty; it needs n >= 1 values");
  Kokkos::View<T*, typename ExecSpace::memory_space> nodes(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::nodes"), n),
      weights(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::weights"),
              n);
  gauss(space, family, nodes, weights);
  project(space, family, nodes, weights, f, coefficients);
}

namespace impl {

// Whether f(x) takes a double and returns a real number.
template <class F, class = void>
struct is_real_function : std::false_type {};
template <class F>
struct is_real_function<F, std::enable_if_t<std::is_invocable_v<const F&, double>>>
    : std::is_arithmetic<std::decay_t<std::invoke_result_t<const F&, double>>> {};
template <class F>
inline constexpr bool is_real_function_v = is_real_function<F>::value;

// values(i) = f(nodes(i)), f a user's function of x.
template <class Function, class NodesView, class ValuesView>
struct SampleFunction {
  Function f;
  NodesView nodes;
  ValuesView values;
  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    values(i) = typename ValuesView::value_type(f(nodes(i)));
  }
};

// The n-point Gauss rule of `family` on `space` (in double), its nodes and
// weights [first, first + count), and f's values (of type T) at those nodes.
template <class T, class ExecSpace, class Family, class Function>
auto sampled_rule(const ExecSpace& space, const Family& family, const Function& f, int n,
                  std::int64_t first, std::int64_t count) {
  using MemorySpace = typename ExecSpace::memory_space;
  using Range       = std::pair<std::int64_t, std::int64_t>;
  if (n < 1)
    throw std::invalid_argument("recur::project: n = " + std::to_string(n) +
                                " Gauss points; n must be at least 1 (and at least N)");
  using Nodes = Kokkos::View<double*, MemorySpace>;
  Nodes all_nodes(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::nodes"),
                  n),
      all_weights(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::weights"),
                  n);
  gauss(space, family, all_nodes, all_weights);
  using Part = decltype(Kokkos::subview(all_nodes, Range()));
  struct Rule {
    Part nodes, weights;
    Kokkos::View<T*, MemorySpace> values;
  } rule{Kokkos::subview(all_nodes, Range(first, first + count)),
         Kokkos::subview(all_weights, Range(first, first + count)),
         Kokkos::View<T*, MemorySpace>(
             Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::f"),
             std::size_t(count))};
  Kokkos::parallel_for("recur::project[f]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                                      count),
                       SampleFunction<Function, decltype(rule.nodes), decltype(rule.values)>{
                           f, rule.nodes, rule.values});
  return rule;
}

}  // namespace impl

/// recur::project of a function: f(x) is called at the nodes of the n-point
/// Gauss rule (made for the call in double) on `space`, so it must be callable
/// there: a KOKKOS_LAMBDA(double x) or a functor with a KOKKOS_FUNCTION
/// operator()(double) const, returning a real number. n = 0 (the default)
/// means N = coefficients.extent(0): the coefficients of f's interpolant at the N Gauss
/// nodes, exact for polynomials of degree < N; a larger n (n >= N) integrates
/// f's coefficients more accurately when f is not a polynomial.
template <class ExecSpace, class Family, class Function, class CView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               !Kokkos::is_view<Function>::value,
                           int> = 0>
void project(const ExecSpace& space, const Family& family, const Function& f,
             const CView& coefficients, int n = 0) {
  static_assert(Kokkos::is_view<CView>::value && impl::view_rank<CView> == 1,
                "recur::project: with f a function, coefficients must be a rank-1 View of N "
                "values (for K functions at once, pass their values at the nodes as an n x K "
                "View)");
  static_assert(impl::is_real_function_v<Function>,
                "recur::project: f must be a View of f's values at the Gauss nodes, or a "
                "function of x callable on the execution space that returns a real number, "
                "e.g. KOKKOS_LAMBDA(double x) { return recur::sin(x); }");
  using T = typename CView::value_type;
  if (n == 0) n = int(coefficients.extent(0));
  const auto rule = impl::sampled_rule<T>(space, family, f, n, 0, n);
  project(space, family, rule.nodes, rule.weights, rule.values, coefficients);
}

/// recur::project (each form above) on a default-constructed instance of the
/// coefficients' execution space.
template <class Family, class F, class CView,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               Kokkos::is_view<CView>::value,
                           int> = 0>
void project(const Family& family, const F& f, const CView& coefficients) {
  project(typename CView::execution_space{}, family, f, coefficients);
}

template <class Family, class Function, class CView,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               !Kokkos::is_view<Function>::value,
                           int> = 0>
void project(const Family& family, const Function& f, const CView& coefficients, int n) {
  project(typename CView::execution_space{}, family, f, coefficients, n);
}

template <class Family, class NodesView, class WeightsView, class FView, class CView,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value, int> = 0>
void project(const Family& family, const NodesView& nodes, const WeightsView& weights,
             const FView& f, const CView& coefficients) {
  project(typename CView::execution_space{}, family, nodes, weights, f, coefficients);
}

}  // namespace recur

#endif
