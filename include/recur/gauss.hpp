#ifndef RECUR_GAUSS_HPP
#define RECUR_GAUSS_HPP

#include <recur/families.hpp>
#include <recur/impl/gauss.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace recur {

namespace impl {
// A weighted family: one whose weight has a total mass (and norms).
template <class Family, class = void>
struct has_weight : std::false_type {};
template <class Family>
struct has_weight<Family, std::void_t<decltype(std::declval<const Family&>().total_mass()),
                                      decltype(std::declval<const Family&>().norm_ratio(0))>>
    : std::true_type {};
}  // namespace impl

/// The n-point Gauss rule of a weighted family's weight w:
/// sum_i weights(i) f(nodes(i)) = ∫ f(x) w(x) dx for every polynomial f of
/// degree < 2n. Nodes ascending; weights sum to the weight's total mass
/// (numpy.polynomial's convention: 2 for Legendre, sqrt(pi) for Hermite,
/// sqrt(2 pi) for HermiteE, Gamma(alpha + 1) for Laguerre, ...). `family` may
/// be the family or its Normalized variant (same weight).
///
/// Golub-Welsch's eigenvalues (implicit QL on the host, O(n^2)) start
/// Newton's method on the orthonormal recurrence, run on `space` in
/// double-double; weights come from the Christoffel-Darboux identity at each
/// node. nodes and weights: rank-1 Views of n floats or doubles; n is their
/// extent.
template <class ExecSpace, class Family, class NodesView, class WeightsView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void gauss(const ExecSpace& space, const Family& family, const NodesView& nodes,
           const WeightsView& weights) {
  static_assert(Kokkos::is_view<NodesView>::value && impl::view_rank<NodesView> == 1 &&
                    Kokkos::is_view<WeightsView>::value && impl::view_rank<WeightsView> == 1,
                "recur::gauss: nodes and weights must be rank-1 Views of n values");
  using T = typename NodesView::value_type;
  static_assert((std::is_same_v<T, float> || std::is_same_v<T, double>)&&std::is_same_v<
                    typename WeightsView::value_type, T>,
                "recur::gauss: nodes and weights must both hold (non-const) float or double");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename NodesView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename WeightsView::memory_space>::accessible,
      "recur::gauss: nodes and weights must live in memory this execution space can access");
  static_assert(impl::is_three_term_family<Family>::value,
                "recur::gauss: the family must be a weighted three-term family (with "
                "norm_ratio and total_mass)");
  if (nodes.extent(0) != weights.extent(0))
    throw std::invalid_argument("recur::gauss: nodes has " + std::to_string(nodes.extent(0)) +
                                " entries and weights " + std::to_string(weights.extent(0)) +
                                "; both must have n, the number of points");
  if (nodes.extent(0) < 1 || nodes.extent(0) > std::size_t(std::numeric_limits<int>::max() - 1))
    throw std::invalid_argument("recur::gauss: nodes and weights have " +
                                std::to_string(nodes.extent(0)) +
                                " entries; a rule needs 1 <= n < 2^31 - 1 points");
  const int n = int(nodes.extent(0));
  impl::ScopedRegion region("recur::gauss");
  const auto basis = impl::orthonormal(family);

  // The Jacobi matrix of the orthonormal recurrence
  // p_{k+1} = (a_k x + b_k) p_k - c_k p_{k-1}: diagonal -b_k / a_k,
  // off-diagonal 1 / a_k.
  std::vector<double> diagonal(n), off_diagonal(n - 1);
  for (int k = 0; k < n; ++k) {
    const auto c = basis.coefficients(k);
    diagonal[k]  = double(-c.b / c.a);
    if (k + 1 < n) off_diagonal[k] = double(1 / c.a);
  }
  impl::tridiagonal_eigenvalues(diagonal, off_diagonal);
  auto host = Kokkos::create_mirror_view(nodes);
  for (int k = 0; k < n; ++k) host(k) = T(diagonal[k]);
  Kokkos::deep_copy(space, nodes, host);
  impl::fence(space, "recur::gauss: initial nodes");

  using W           = impl::working_t<double>;
  using MemorySpace = typename ExecSpace::memory_space;
  const auto kernel = impl::make_kernel<double>(space, basis, n + 1);
  const double beta_n = double(1 / basis.coefficients(n - 1).a);
  Kokkos::parallel_for(
      std::string("recur::gauss[") + Family::name() + "]",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      impl::GaussPolish<T, W, MemorySpace, NodesView, WeightsView>{
          kernel, nodes, weights, n, double(family.total_mass()), beta_n});
}

/// recur::gauss with n given as well: throws unless nodes and weights have n
/// entries.
template <class ExecSpace, class Family, class NodesView, class WeightsView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void gauss(const ExecSpace& space, const Family& family, int n, const NodesView& nodes,
           const WeightsView& weights) {
  if (n < 1)
    throw std::invalid_argument("recur::gauss: n = " + std::to_string(n) +
                                " points; n must be at least 1");
  if (nodes.extent(0) != std::size_t(n) || weights.extent(0) != std::size_t(n))
    throw std::invalid_argument("recur::gauss: nodes has " + std::to_string(nodes.extent(0)) +
                                " entries and weights " + std::to_string(weights.extent(0)) +
                                "; both must have n = " + std::to_string(n));
  gauss(space, family, nodes, weights);
}

/// recur::gauss on a default-constructed instance of the nodes' execution
/// space.
template <class Family, class NodesView, class WeightsView,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value, int> = 0>
void gauss(const Family& family, const NodesView& nodes, const WeightsView& weights) {
  gauss(typename NodesView::execution_space{}, family, nodes, weights);
}

}  // namespace recur

#endif
