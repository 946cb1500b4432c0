#ifndef RECUR_PRODUCT_BASIS_HPP
#define RECUR_PRODUCT_BASIS_HPP

// Multivariate product bases (polynomial chaos): for samples xi in R^d,
// Psi_j(xi) = prod_k p^(k)_{alpha_jk}(xi_k) over the multi-indices alpha_j
// of a MultiIndexSet, with one univariate three-term family per dimension,
// chosen at run time (recur::AnyFamily).

#include <recur/evaluate.hpp>
#include <recur/families.hpp>
#include <recur/gauss.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/numbers.hpp>
#include <recur/impl/product_basis.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/multi_index.hpp>
#include <recur/policies.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace recur {

namespace impl {
template <class Family>
struct is_normalized_family : std::false_type {};
template <class Family>
struct is_normalized_family<Normalized<Family>> : std::true_type {};
}  // namespace impl

/// Any three-term family of recur's (parameters included) or a user's, held
/// by value and chosen at run time: one dimension of a ProductBasis.
/// HermiteFunction (whose members carry e^{-x²/2}) and direct families
/// (PowerSums) are not polynomial families and are refused at compile time.
class AnyFamily {
 public:
  template <class Family, std::enable_if_t<!std::is_same_v<Family, AnyFamily>, int> = 0>
  AnyFamily(const Family& family)  // NOLINT: implicit, so that {Legendre{}, ...} reads well
      : m_name(Family::name()),
        m_orthonormal(impl::is_normalized_family<Family>::value),
        m_initial(double(family.initial())),
        m_double_double([family](int N, ThreeTermCoefficients<impl::DoubleDouble>* out) {
          return impl::tabulate_coefficients<impl::DoubleDouble>(family, N, out);
        }),
        m_double([family](int N, ThreeTermCoefficients<double>* out) {
          return impl::tabulate_coefficients<double>(family, N, out);
        }),
        m_float([family](int N, ThreeTermCoefficients<float>* out) {
          return impl::tabulate_coefficients<float>(family, N, out);
        }) {
    if constexpr (impl::has_weight<Family>::value) {
      m_gauss = [family](int n, double* nodes, double* weights) {
        const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
            x(nodes, std::size_t(n)), w(weights, std::size_t(n));
        gauss(Kokkos::DefaultHostExecutionSpace{}, family, x, w);
        Kokkos::DefaultHostExecutionSpace{}.fence();
        const double mass = double(family.total_mass());
        for (int i = 0; i < n; ++i) weights[i] /= mass;
      };
    }
    static_assert(impl::is_three_term_family<Family>::value,
                  "recur::AnyFamily: a product basis takes three-term families (initial() and "
                  "coefficients(n)); direct families such as PowerSums are not polynomials "
                  "of one degree per term");
    static_assert(!impl::has_exponent<Family>::value,
                  "recur::AnyFamily: HermiteFunction carries e^{-x^2/2} and is no polynomial; "
                  "use HermiteENormalized or HermiteNormalized in a product basis");
  }

  /// The family's name, as kernel labels give it ("LegendreNormalized").
  const std::string& name() const { return m_name; }
  /// Whether the family is orthonormal for a probability measure
  /// (recur::Normalized<...>): what sobol_indices needs.
  bool orthonormal() const { return m_orthonormal; }
  /// p_0, a constant.
  double initial() const { return m_initial; }
  /// Whether the family has a weight (a Gauss rule; every family but
  /// Monomials and a user's without total_mass).
  bool weighted() const { return bool(m_gauss); }
  /// The n-point Gauss rule of the family's probability measure (weights
  /// summing to 1) into nodes[0 .. n) and weights[0 .. n) on the host.
  void gauss_rule(int n, double* nodes, double* weights) const {
    if (!m_gauss)
      throw std::invalid_argument("recur::AnyFamily: " + m_name +
                                  " has no weight function, so no Gauss rule");
    m_gauss(n, nodes, weights);
  }
  /// The first N - 1 steps of the recurrence in W (DoubleDouble, double or
  /// float), into out[0 .. N-2] on the host.
  template <class W>
  impl::TableFlags tabulate(int N, ThreeTermCoefficients<W>* out) const {
    if constexpr (std::is_same_v<W, impl::DoubleDouble>) {
      return m_double_double(N, out);
    } else if constexpr (std::is_same_v<W, double>) {
      return m_double(N, out);
    } else {
      static_assert(std::is_same_v<W, float>, "recur::AnyFamily: W is double-double, double or float");
      return m_float(N, out);
    }
  }

 private:
  std::string m_name;
  bool m_orthonormal;
  double m_initial;
  std::function<impl::TableFlags(int, ThreeTermCoefficients<impl::DoubleDouble>*)> m_double_double;
  std::function<impl::TableFlags(int, ThreeTermCoefficients<double>*)> m_double;
  std::function<impl::TableFlags(int, ThreeTermCoefficients<float>*)> m_float;
  std::function<void(int, double*, double*)> m_gauss;  // empty: no weight
};

/// A multivariate product basis: a MultiIndexSet of d dimensions and a
/// family for each of them (or one family for all), made on the host.
/// Psi_j(xi) = prod_k p^(k)_{alpha_jk}(xi_k), j < P = indices.size(); with
/// orthonormal families (recur::Normalized<...>) the Psi_j are orthonormal
/// for the product of the families' probability measures.
class ProductBasis {
 public:
  ProductBasis(std::vector<AnyFamily> families, MultiIndexSet indices)
      : m_families(std::move(families)), m_indices(std::move(indices)) {
    const int d = m_indices.dimension();
    if (m_families.size() == 1 && d > 1) m_families.resize(std::size_t(d), m_families[0]);
    if (int(m_families.size()) != d)
      throw std::invalid_argument("recur::ProductBasis: " + std::to_string(m_families.size()) +
                                  " families for a multi-index set of d = " + std::to_string(d) +
                                  " dimensions; give one family per dimension, or one for all");
    m_structure = std::make_shared<const impl::ProductStructure>(m_indices);
  }
  ProductBasis(const AnyFamily& family, MultiIndexSet indices)
      : ProductBasis(std::vector<AnyFamily>{family}, std::move(indices)) {}

  /// d, the number of dimensions (columns of X).
  int dimension() const { return m_indices.dimension(); }
  /// P, the number of basis functions (columns of Psi).
  int size() const { return m_indices.size(); }
  const MultiIndexSet& indices() const { return m_indices; }
  const AnyFamily& family(int k) const { return m_families[std::size_t(k)]; }
  /// Whether every family is orthonormal (recur::Normalized<...>).
  bool orthonormal() const {
    for (const AnyFamily& family : m_families)
      if (!family.orthonormal()) return false;
    return true;
  }
  /// The multi-indices as the kernels read them, made once (shared by copies).
  const impl::ProductStructure& structure() const { return *m_structure; }

 private:
  std::vector<AnyFamily> m_families;
  MultiIndexSet m_indices;
  std::shared_ptr<const impl::ProductStructure> m_structure;
};

namespace impl {

template <class ExecSpace, class XView, class PsiView>
constexpr bool check_product_view_types() {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "recur: the first argument must be a Kokkos execution space "
                "instance (e.g. Kokkos::DefaultExecutionSpace{})");
  static_assert(Kokkos::is_view<XView>::value && view_rank<XView> == 2,
                "recur::evaluate (product basis): X must be a rank-2 View, M samples x d");
  static_assert(Kokkos::is_view<PsiView>::value && view_rank<PsiView> == 2,
                "recur::evaluate (product basis): Psi must be a rank-2 View, M x P");
  if constexpr (Kokkos::is_view<XView>::value && Kokkos::is_view<PsiView>::value) {
    static_assert(std::is_arithmetic_v<typename XView::non_const_value_type>,
                  "recur: X must hold real numbers (float or double)");
    static_assert(std::is_same_v<typename PsiView::value_type, float> ||
                      std::is_same_v<typename PsiView::value_type, double>,
                  "recur: Psi must hold float or double, and be writable");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                  "recur: X lives in a memory space this execution space cannot access; "
                  "deep_copy it into a View in ExecSpace::memory_space first");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename PsiView::memory_space>::accessible,
                  "recur: Psi lives in a memory space this execution space cannot access; "
                  "allocate it in ExecSpace::memory_space");
  }
  return true;
}

// X must be M x d.
template <class XView>
void check_sample_columns(const std::string& where, const ProductBasis& basis, const XView& X) {
  if (X.extent(1) != std::size_t(basis.dimension()))
    throw std::invalid_argument(where + "X has " + std::to_string(X.extent(1)) +
                                " columns but the basis has d = " +
                                std::to_string(basis.dimension()) +
                                " dimensions; X must be M x d, one sample a row");
}

template <class XView, class PsiView>
void check_product_extents(const ProductBasis& basis, const XView& X, const PsiView& Psi) {
  const std::string where = "recur::evaluate (product basis): ";
  check_sample_columns(where, basis, X);
  if (Psi.extent(0) != X.extent(0) || Psi.extent(1) != std::size_t(basis.size()))
    throw std::invalid_argument(where + "Psi is " + std::to_string(Psi.extent(0)) + " x " +
                                std::to_string(Psi.extent(1)) + " but must be M x P = " +
                                std::to_string(X.extent(0)) + " x " +
                                std::to_string(basis.size()) +
                                " (M rows of X, P functions in the basis)");
}

// The basis' tables and multi-indices in ExecSpace's memory, for
// Precision and results of type T, and the product of its families' p_0.
template <class ExecSpace, class Precision, class T>
auto product_basis_data(const ExecSpace& space, const ProductBasis& basis) {
  using W     = working_t<T, Precision>;
  double base = 1;
  for (int k = 0; k < basis.dimension(); ++k) base *= basis.family(k).initial();
  return std::make_pair(make_product_basis_data<W>(space, basis.structure(),
                                                   [&](int k, int N, ThreeTermCoefficients<W>* out) {
                                                     return basis.family(k).template tabulate<W>(N, out);
                                                   }),
                        base);
}

// The number type of the univariate tables: double for Accurate (float
// results rounded once from double products), T itself for Fast.
template <class Precision, class T>
using table_number_t = std::conditional_t<std::is_same_v<Precision, Fast>, T, double>;

// coefficients(j, k) = sum_i weights(i) values(i, k) Psi(i, j): a team per
// (j, k), its threads over i.
template <class ExecSpace, class Matrix, class WView, class FView, class CView>
struct WeightedColumnSums {
  Matrix Psi;
  WView weights;
  FView values;
  CView coefficients;
  std::int64_t P;
  KOKKOS_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    const std::int64_t j = team.league_rank() % P, k = team.league_rank() / P;
    double sum           = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, std::int64_t(Psi.extent(0))),
        [&](std::int64_t i, double& part) {
          part += double(weights(i)) * double(entry(values, i, k)) * Psi(i, j);
        },
        sum);
    Kokkos::single(Kokkos::PerTeam(team), [&] {
      entry(coefficients, j, k) = typename CView::non_const_value_type(sum);
    });
  }
};

template <class ExecSpace, class Precision, class T, class XView, class PsiView, class DView>
void evaluate_product(const ExecSpace& space, const ProductBasis& basis, const XView& X,
                      const PsiView& Psi, const DView& dPsi) {
  using S = table_number_t<Precision, T>;
  ScopedRegion region("recur::evaluate");
  if (X.extent(0) == 0) return;
  const auto prepared = product_basis_data<ExecSpace, Precision, T>(space, basis);
  using W       = working_t<T, Precision>;
  using Tables  = ProductTables<S, W, ExecSpace, XView>;
  using Functor = ProductBasisFunctor<S, W, ExecSpace, XView, PsiView, DView>;
  const bool samples_fastest = Psi.stride_0() < Psi.stride_1() || Psi.extent(1) == 1;
  // The walk: where Psi's columns are contiguous (on GPUs two samples a
  // thread), and on CPUs where its rows are one after the other
  // (Functor::host_walk_rows).
  const bool host_rows = Functor::host_walks_rows(Psi, basis.size());
  const bool walks     = (Functor::may_walk && samples_fastest) || host_rows;
  run_product_kernel<S>(space,
                        std::string("recur::evaluate[ProductBasis") +
                            (Functor::gradient ? ",gradient" : "") +
                            (std::is_same_v<Precision, Fast> ? ",Fast]" : "]"),
                        prepared.first, S(prepared.second), X, basis.size(), Functor::gradient ? 2 : 1,
                        walks, 2, walks,
                        [&](const Tables& tables) {
                          return Functor{tables, Psi, dPsi, basis.size(), samples_fastest};
                        },
                        host_rows ? Functor::rows_scratch(basis.size()) : 0,
                        samples_fastest && Psi.stride_0() == 1 ? impl::aligned_run_offset(Psi.data()) : 0);
}

// recur::series (product basis) once its arguments are checked.
template <class Precision, class ExecSpace, class CView, class XView, class YView>
void product_series(const ExecSpace& space, const ProductBasis& basis, const CView& C,
                    const XView& X, const YView& Y) {
  using T = typename YView::non_const_value_type;
  using S = table_number_t<Precision, T>;
  using W = working_t<T, Precision>;
  ScopedRegion region("recur::series");
  if (Y.size() == 0) return;
  const auto prepared = product_basis_data<ExecSpace, Precision, T>(space, basis);
  using Tables        = ProductTables<S, W, ExecSpace, XView>;
  run_product_kernel<S>(
      space, std::string("recur::series[ProductBasis") +
                 (std::is_same_v<Precision, Fast> ? ",Fast]" : "]"),
      // (double tables: on CPUs the walk's sums, in blocks sized as for columns)
      prepared.first, S(prepared.second), X, basis.size(), 1, true, 1, std::is_same_v<S, double>,
      [&](const Tables& tables) {
        return ProductSeriesFunctor<S, W, ExecSpace, XView, CView, YView>{
            tables, C, Y, basis.size(), int(columns(Y))};
      });
}

}  // namespace impl

/// Psi(i, j) = Psi_j(X(i, :)) for every sample i < M and basis function
/// j < P of `basis`, on the execution space instance `space`. X is M x d,
/// Psi M x P; any layout (LayoutLeft, LayoutRight, LayoutStride), float or
/// double. The univariate values are computed once per sample and dimension
/// (into team scratch) and the products formed from them. `precision`:
/// recur::Accurate (the default: double-double recurrences for double
/// results, each product then in double) or recur::Fast (V's own type).
/// A sample with a NaN coordinate gives a row of NaN.
template <class ExecSpace, class XView, class PsiView, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               !Kokkos::is_view<Precision>::value,
                           int> = 0>
void evaluate(const ExecSpace& space, const ProductBasis& basis, const XView& X,
              const PsiView& Psi, Precision = {}) {
  static_assert(impl::check_product_view_types<ExecSpace, XView, PsiView>());
  static_assert(impl::is_precision_v<Precision>,
                "recur::evaluate: the precision must be recur::Accurate or recur::Fast");
  impl::check_product_extents(basis, X, Psi);
  using T = typename PsiView::non_const_value_type;
  impl::evaluate_product<ExecSpace, Precision, T>(space, basis, impl::kernel_input<ExecSpace>(X),
                                                 impl::kernel_output<ExecSpace>(Psi),
                                                 impl::NoGradient{});
}

/// With the gradient: dPsi(i, j, k) = d Psi_j / d xi_k at X(i, :), an
/// M x P x d View of Psi's value type (any layout).
template <class ExecSpace, class XView, class PsiView, class DView, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<DView>::value,
                           int> = 0>
void evaluate(const ExecSpace& space, const ProductBasis& basis, const XView& X,
              const PsiView& Psi, const DView& dPsi, Precision = {}) {
  static_assert(impl::check_product_view_types<ExecSpace, XView, PsiView>());
  static_assert(impl::is_precision_v<Precision>,
                "recur::evaluate: the precision must be recur::Accurate or recur::Fast");
  static_assert(impl::view_rank<DView> == 3,
                "recur::evaluate (product basis): dPsi must be a rank-3 View, M x P x d");
  static_assert(std::is_same_v<typename DView::value_type, typename PsiView::value_type>,
                "recur::evaluate (product basis): dPsi must hold Psi's value type");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename DView::memory_space>::accessible,
                "recur: dPsi lives in a memory space this execution space cannot access");
  impl::check_product_extents(basis, X, Psi);
  if (dPsi.extent(0) != Psi.extent(0) || dPsi.extent(1) != Psi.extent(1) ||
      dPsi.extent(2) != std::size_t(basis.dimension()))
    throw std::invalid_argument(
        "recur::evaluate (product basis): dPsi is " + std::to_string(dPsi.extent(0)) + " x " +
        std::to_string(dPsi.extent(1)) + " x " + std::to_string(dPsi.extent(2)) +
        " but must be M x P x d = " + std::to_string(Psi.extent(0)) + " x " +
        std::to_string(Psi.extent(1)) + " x " + std::to_string(basis.dimension()));
  if (dPsi.data() == Psi.data() && Psi.size() > 0)
    throw std::invalid_argument(
        "recur::evaluate (product basis): dPsi and Psi are the same memory; pass a separate View "
        "for the gradient");
  using T = typename PsiView::non_const_value_type;
  impl::evaluate_product<ExecSpace, Precision, T>(space, basis, impl::kernel_input<ExecSpace>(X),
                                                 impl::kernel_output<ExecSpace>(Psi),
                                                 impl::kernel_output<ExecSpace>(dPsi));
}

/// Y(i, k) = sum_j C(j, k) Psi_j(X(i, :)): K expansions in the product
/// basis, evaluated at M samples without forming Psi (each Psi_j is made
/// from the univariate tables in registers and summed at once). C is P x K
/// and Y M x K (or both rank-1: one expansion), any layouts; Y float or
/// double, the sums in double (Accurate) or in Y's type (Fast).
template <class ExecSpace, class CView, class XView, class YView, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               impl::is_precision_v<Precision>,
                           int> = 0>
void series(const ExecSpace& space, const ProductBasis& basis, const CView& C, const XView& X,
            const YView& Y, Precision = {}) {
  static_assert(Kokkos::is_view<CView>::value && Kokkos::is_view<YView>::value &&
                    (impl::view_rank<CView> == 1 || impl::view_rank<CView> == 2) &&
                    impl::view_rank<YView> == impl::view_rank<CView>,
                "recur::series (product basis): C and Y must both be rank-1 Views (P "
                "coefficients, M values) or both rank-2 (P x K and M x K)");
  static_assert(Kokkos::is_view<XView>::value && impl::view_rank<XView> == 2,
                "recur::series (product basis): X must be a rank-2 View, M samples x d");
  static_assert(std::is_same_v<typename YView::value_type, float> ||
                    std::is_same_v<typename YView::value_type, double>,
                "recur::series: Y must hold (non-const) float or double");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename CView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
      "recur::series: C, X and Y must live in memory this execution space can access");
  const std::string where = "recur::series (product basis): ";
  impl::check_sample_columns(where, basis, X);
  if (C.extent(0) != std::size_t(basis.size()))
    throw std::invalid_argument(where + "C has " + std::to_string(C.extent(0)) +
                                " rows but the basis has P = " + std::to_string(basis.size()) +
                                " functions; C must be P x K");
  if (Y.extent(0) != X.extent(0) || impl::columns(Y) != impl::columns(C))
    throw std::invalid_argument(where + "Y is " + std::to_string(Y.extent(0)) + " x " +
                                std::to_string(impl::columns(Y)) + " but must be M x K = " +
                                std::to_string(X.extent(0)) + " x " +
                                std::to_string(impl::columns(C)));
  impl::product_series<Precision>(space, basis, impl::kernel_input<ExecSpace>(C),
                                  impl::kernel_input<ExecSpace>(X),
                                  impl::kernel_output<ExecSpace>(Y));
}

/// The tensor Gauss rule of the basis' measure (the product of its
/// families' probability measures): n[k] nodes in dimension k (or n in
/// every one), M = prod n[k] points into X (M x d) and weights (M, summing
/// to 1), the first dimension's node varying slowest. Exact for products of
/// polynomials of degree < 2 n[k] in each dimension: n[k] = max_degree(k) + 1
/// integrates every product of two basis functions.
template <class ExecSpace, class XView, class WView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void tensor_gauss(const ExecSpace& space, const ProductBasis& basis, const std::vector<int>& n,
                  const XView& X, const WView& weights) {
  static_assert(Kokkos::is_view<XView>::value && impl::view_rank<XView> == 2 &&
                    Kokkos::is_view<WView>::value && impl::view_rank<WView> == 1,
                "recur::tensor_gauss: X must be a rank-2 View (M x d) and weights rank-1 (M)");
  const std::string where = "recur::tensor_gauss: ";
  const int d             = basis.dimension();
  if (int(n.size()) != d)
    throw std::invalid_argument(where + std::to_string(n.size()) +
                                " node counts for a basis of d = " + std::to_string(d) +
                                " dimensions; give one per dimension");
  std::size_t M = 1;
  for (int k = 0; k < d; ++k) {
    if (n[std::size_t(k)] < 1)
      throw std::invalid_argument(where + "n = " + std::to_string(n[std::size_t(k)]) +
                                  " nodes in dimension " + std::to_string(k) +
                                  "; every dimension needs at least 1");
    if (!basis.family(k).weighted())
      throw std::invalid_argument(where + basis.family(k).name() + " (dimension " +
                                  std::to_string(k) + ") has no weight function, so no Gauss rule");
    M *= std::size_t(n[std::size_t(k)]);
  }
  if (X.extent(0) != M || X.extent(1) != std::size_t(d) || weights.extent(0) != M)
    throw std::invalid_argument(where + "X is " + std::to_string(X.extent(0)) + " x " +
                                std::to_string(X.extent(1)) + " and weights has " +
                                std::to_string(weights.extent(0)) + " entries; the rule has M = " +
                                std::to_string(M) + " points of d = " + std::to_string(d));
  std::vector<std::vector<double>> nodes(static_cast<std::size_t>(d)), w(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k) {
    nodes[std::size_t(k)].resize(std::size_t(n[std::size_t(k)]));
    w[std::size_t(k)].resize(std::size_t(n[std::size_t(k)]));
    basis.family(k).gauss_rule(n[std::size_t(k)], nodes[std::size_t(k)].data(),
                               w[std::size_t(k)].data());
  }
  auto X_host = Kokkos::create_mirror_view(X);
  auto w_host = Kokkos::create_mirror_view(weights);
  std::vector<int> at(std::size_t(d), 0);  // the point's node in each dimension
  for (std::size_t i = 0; i < M; ++i) {
    double weight = 1;
    for (int k = 0; k < d; ++k) {
      X_host(i, k) = typename XView::non_const_value_type(nodes[std::size_t(k)][std::size_t(at[std::size_t(k)])]);
      weight *= w[std::size_t(k)][std::size_t(at[std::size_t(k)])];
    }
    w_host(i) = typename WView::non_const_value_type(weight);
    for (int k = d - 1; k >= 0 && ++at[std::size_t(k)] == n[std::size_t(k)]; --k) at[std::size_t(k)] = 0;
  }
  Kokkos::deep_copy(space, X, X_host);
  Kokkos::deep_copy(space, weights, w_host);
  impl::fence(space, "recur::tensor_gauss: the host copies are released");
}

/// tensor_gauss with n nodes in every dimension.
template <class ExecSpace, class XView, class WView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void tensor_gauss(const ExecSpace& space, const ProductBasis& basis, int n, const XView& X,
                  const WView& weights) {
  tensor_gauss(space, basis, std::vector<int>(std::size_t(basis.dimension()), n), X, weights);
}

/// The coefficients of functions in an orthonormal product basis from
/// their values at the points of a rule (tensor_gauss): coefficients(j, k)
/// = sum_i weights(i) values(i, k) Psi_j(X(i, :)), the projection onto
/// Psi_j, exact where the rule integrates f Psi_j exactly. values is M x K
/// and coefficients P x K (or both rank-1). Psi is evaluated once (M x P
/// doubles), so this is for the rules of few dimensions.
template <class ExecSpace, class XView, class WView, class FView, class CView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<CView>::value,
                           int> = 0>
void project(const ExecSpace& space, const ProductBasis& basis, const XView& X,
             const WView& weights, const FView& values, const CView& coefficients) {
  static_assert(Kokkos::is_view<FView>::value && impl::view_rank<FView> == impl::view_rank<CView> &&
                    (impl::view_rank<CView> == 1 || impl::view_rank<CView> == 2),
                "recur::project (product basis): values and coefficients must both be rank-1 "
                "(M values, P coefficients) or both rank-2 (M x K and P x K)");
  const std::string where = "recur::project (product basis): ";
  if (!basis.orthonormal())
    throw std::invalid_argument(where +
                                "the basis is not orthonormal; projections onto a product basis "
                                "take orthonormal families (recur::Normalized<...>)");
  const std::int64_t M = std::int64_t(X.extent(0)), P = basis.size();
  const std::int64_t K = impl::columns(coefficients);
  if (std::int64_t(weights.extent(0)) != M || std::int64_t(values.extent(0)) != M ||
      impl::columns(values) != K || std::int64_t(coefficients.extent(0)) != P)
    throw std::invalid_argument(
        where + "X has " + std::to_string(M) + " points, weights " +
        std::to_string(weights.extent(0)) + ", values " + std::to_string(values.extent(0)) +
        " x " + std::to_string(impl::columns(values)) + " and coefficients " +
        std::to_string(coefficients.extent(0)) + " x " + std::to_string(K) +
        "; they must be M, M x K and P x K with P = " + std::to_string(P));
  impl::ScopedRegion region("recur::project");
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, typename ExecSpace::memory_space>;
  Matrix Psi(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::project::Psi"), M, P);
  evaluate(space, basis, X, Psi);
  Kokkos::parallel_for(
      "recur::project[ProductBasis]", Kokkos::TeamPolicy<ExecSpace>(space, int(P * K), Kokkos::AUTO),
      impl::WeightedColumnSums<ExecSpace, Matrix, WView, FView, CView>{Psi, weights, values,
                                                                      coefficients, P});
}

/// The statistics of a model y(xi) = sum_j c_j Psi_j(xi) in an orthonormal
/// product basis, from its coefficients alone: mean c_0 (the coefficient of
/// alpha = 0), variance sum of c_j^2 over alpha_j != 0, and per dimension k
/// the first-order Sobol index (the share of the variance from functions of
/// xi_k alone) and the total one (from every function that involves xi_k).
struct SobolIndices {
  double mean = 0;
  double variance = 0;
  std::vector<double> first_order;  // d entries
  std::vector<double> total;        // d entries
};

/// SobolIndices of the coefficients c (P of them, in the basis' order).
/// The basis must be orthonormal (every family recur::Normalized<...>).
/// A model of variance 0 has no indices: they are NaN.
inline SobolIndices sobol_indices(const ProductBasis& basis, const std::vector<double>& c) {
  const std::string where = "recur::sobol_indices: ";
  if (!basis.orthonormal())
    throw std::invalid_argument(where +
                                "the basis is not orthonormal; Sobol indices follow from "
                                "coefficients of orthonormal families only (use "
                                "recur::Normalized<...>, e.g. HermiteENormalized)");
  if (c.size() != std::size_t(basis.size()))
    throw std::invalid_argument(where + std::to_string(c.size()) +
                                " coefficients for a basis of P = " + std::to_string(basis.size()) +
                                " functions; give one coefficient per function");
  const MultiIndexSet& set = basis.indices();
  const int d              = set.dimension();
  SobolIndices result;
  result.first_order.assign(std::size_t(d), 0.0);
  result.total.assign(std::size_t(d), 0.0);
  for (int j = 0; j < set.size(); ++j) {
    int involved = 0, only = -1;
    for (int k = 0; k < d; ++k)
      if (set(j, k) > 0) {
        ++involved;
        only = k;
      }
    const double share = c[std::size_t(j)] * c[std::size_t(j)];
    if (involved == 0) {
      result.mean = c[std::size_t(j)];
      continue;
    }
    result.variance += share;
    if (involved == 1) result.first_order[std::size_t(only)] += share;
    for (int k = 0; k < d; ++k)
      if (set(j, k) > 0) result.total[std::size_t(k)] += share;
  }
  for (int k = 0; k < d; ++k) {
    result.first_order[std::size_t(k)] /= result.variance;
    result.total[std::size_t(k)] /= result.variance;
  }
  return result;
}

}  // namespace recur

#endif
