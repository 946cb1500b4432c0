#ifndef RECUR_FIT_HPP
#define RECUR_FIT_HPP

#include <recur/evaluate.hpp>
#include <recur/families.hpp>
#include <recur/impl/gauss.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/least_squares.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/impl/warp_qr.hpp>
#include <recur/product_basis.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace recur {

/// No weights for recur::fit: every residual counts alike.
struct Unweighted {};

namespace impl {

template <class ExecSpace, class XView, class YView, class CView>
constexpr bool check_fit_types() {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "recur::fit: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<XView>::value &&
                    (view_rank<XView> == 1 || view_rank<XView> == 2),
                "recur::fit: x must be a rank-1 View of M sample points (for a "
                "recur::ProductBasis, M x d samples)");
  static_assert(Kokkos::is_view<YView>::value && Kokkos::is_view<CView>::value &&
                    (view_rank<YView> == 1 || view_rank<YView> == 2) &&
                    view_rank<CView> == view_rank<YView>,
                "recur::fit: y and coefficients must both be rank-1 Views (M samples, N "
                "coefficients) or both rank-2 (M x K and N x K, K data sets)");
  static_assert(std::is_same_v<typename CView::value_type, float> ||
                    std::is_same_v<typename CView::value_type, double>,
                "recur::fit: coefficients must hold (non-const) float or double");
  static_assert(std::is_arithmetic_v<typename XView::non_const_value_type> &&
                    std::is_arithmetic_v<typename YView::non_const_value_type>,
                "recur::fit: x and y must hold real numbers");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename CView::memory_space>::accessible,
      "recur::fit: x, y and coefficients must live in memory this execution space can "
      "access");
  return true;
}

// Columns N .. n - 1 of row i of [V | y] (row[k * stride]: y's K values)
// and, with weights, the whole row times w(i). Returns whether the row is
// usable: `finite` (x's) and y finite, w finite and not negative.
template <class YView, class WView>
KOKKOS_FUNCTION bool augment_row(const YView& y, const WView& w, std::int64_t i, int N, int n,
                                 double* row, std::ptrdiff_t stride, bool finite) {
  for (int k = N; k < n; ++k) {
    row[k * stride] = double(entry(y, i, k - N));
    finite          = finite && kokkos_math::isfinite(row[k * stride]);
  }
  if constexpr (!std::is_same_v<WView, Unweighted>) {
    const double weight = double(w(i));
    finite              = finite && kokkos_math::isfinite(weight) && weight >= 0;
    for (int k = 0; k < n; ++k) row[k * stride] *= weight;
  }
  return finite;
}

// Whether sample i of x (rank 1: a point; rank 2: a row of d coordinates)
// is finite.
template <class XView>
KOKKOS_FUNCTION bool finite_sample(const XView& x, std::int64_t i) {
  if constexpr (view_rank<XView> == 1) {
    return kokkos_math::isfinite(double(x(i)));
  } else {
    bool finite = true;
    for (std::size_t k = 0; k < x.extent(1); ++k)
      finite = finite && kokkos_math::isfinite(double(x(i, k)));
    return finite;
  }
}

// The design matrix's right part and row weights (augment_row), after V
// is evaluated into A. Counts the rows with a non-finite x, y or w, or a
// negative w.
template <class Matrix, class XView, class YView, class WView>
struct FillAugmented {
  Matrix A;
  XView x;
  YView y;
  WView w;
  int N;
  KOKKOS_FUNCTION void operator()(std::int64_t i, std::int64_t& bad) const {
    if (!augment_row(y, w, i, N, int(A.extent(1)), &A(i, 0), std::ptrdiff_t(A.stride_1()),
                     finite_sample(x, i)))
      ++bad;
  }
};

// Row i of [V | y], weighted, for the warp QR (impl/warp_qr.hpp), which
// reads it where it is made: the basis values written by `row` straight
// into the chunk, then augment_row. Refuses what FillAugmented counts.
template <class XView, class YView, class WView, class Row>
struct FitRows {
  XView x;
  YView y;
  WView w;
  Row row;
  int N;
  KOKKOS_FUNCTION std::int64_t rows() const { return std::int64_t(x.extent(0)); }
  KOKKOS_FUNCTION bool fill(std::int64_t i, double* chunk, int stride, int n) const {
    if (i >= rows()) {
      for (int k = 0; k < n; ++k) chunk[k * stride] = 0;
      return true;
    }
    const auto xi     = x(i);
    const bool finite = kokkos_math::isfinite(double(xi));
    row(finite ? xi : decltype(xi)(0), Slice<double>(chunk, stride, N));
    return augment_row(y, w, i, N, n, chunk, stride, finite);
  }
};

// Calls `f` with the basis fit evaluates: the orthonormal variant where the
// family has one (its columns are of like size, where the raw Hermite
// columns grow like sqrt(n!), so the rank test in solve_triangle compares
// like with like, and nothing overflows), else the family itself.
template <class Family, class Function>
decltype(auto) with_fit_basis(const Family& family, const Function& f) {
  if constexpr (has_norm_ratio<Family>::value && is_three_term_family<Family>::value) {
    return f(orthonormal(family));
  } else {
    return f(family);
  }
}

// The checks of recur::fit's arguments that one process can make (fit and
// mpi::fit); `M >= N` is the caller's, over all of its points.
template <class ExecSpace, class XView, class YView, class CView, class WView>
void check_fit_arguments(const std::string& where, const XView& x, const YView& y, int N,
                         const CView& coefficients, const WView& weights) {
  const std::int64_t M = std::int64_t(x.extent(0));
  const std::int64_t K = columns(coefficients);
  if (std::int64_t(y.extent(0)) != M)
    throw std::invalid_argument(where + "x has " + std::to_string(M) + " points but y has " +
                                std::to_string(y.extent(0)) + "; y needs one value per x");
  if (columns(y) != K)
    throw std::invalid_argument(where + "y has " + std::to_string(columns(y)) +
                                " columns but coefficients has " + std::to_string(K) +
                                "; both have one column per data set");
  if (N < 1)
    throw std::invalid_argument(where + "N = " + std::to_string(N) +
                                " terms; N must be at least 1");
  if (std::int64_t(coefficients.extent(0)) != N)
    throw std::invalid_argument(where + "coefficients has " +
                                std::to_string(coefficients.extent(0)) +
                                " rows; it must have N = " + std::to_string(N));
  if constexpr (!std::is_same_v<WView, Unweighted>) {
    static_assert(Kokkos::is_view<WView>::value && view_rank<WView> == 1 &&
                      Kokkos::SpaceAccessibility<ExecSpace,
                                                 typename WView::memory_space>::accessible,
                  "recur::fit: weights must be a rank-1 View this execution space can access");
    if (std::int64_t(weights.extent(0)) != M)
      throw std::invalid_argument(where + "weights has " + std::to_string(weights.extent(0)) +
                                  " entries but x has " + std::to_string(M) +
                                  "; one weight per point");
  }
}

// Coefficients come back from the orthonormal basis as c_k = c^_k / s_k
// (p_k = s_k q_k): the factors 1 / s_k (throws where they do not exist).
template <class Family>
std::vector<double> fit_inverse_scales(const Family& family, int N, const std::string& where) {
  if constexpr (has_norm_ratio<Family>::value && is_three_term_family<Family>::value &&
                !is_normalized<Family>::value)
    return inverse_orthonormal_scales<double>(family, N, where);
  (void)family;
  (void)where;
  return std::vector<double>(N, 1.0);
}

// The triangle of [V | y] through a stored M x (N + K) matrix A: `basis(V)`
// evaluates V into A's first N columns, then y and the weights fill the
// rest (FillAugmented), and the tall-skinny QR factors it.
template <class ExecSpace, class XView, class YView, class WView, class Basis>
std::vector<double> stored_triangle(const ExecSpace& space, const XView& x, const YView& y, int N,
                                    int K, const WView& weights, std::int64_t& bad,
                                    const Basis& basis) {
  using MemorySpace = typename ExecSpace::memory_space;
  using Matrix      = Kokkos::View<double**, Kokkos::LayoutLeft, MemorySpace>;
  const std::int64_t M = std::int64_t(x.extent(0));
  Matrix A(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::fit::A"), M, N + K);
  basis(Kokkos::subview(A, Kokkos::ALL, std::make_pair(0, N)));
  Kokkos::parallel_reduce("recur::fit[augment]",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                              space, 0, M),
                          FillAugmented<Matrix, XView, YView, WView>{A, x, y, weights, N}, bad);
  if (bad > 0) return {};
  return householder_triangle(space, A);
}

// The (N + K) x (N + K) triangle R of [V | y] = Q R (weighted rows), on the
// host, row-major: zero for no points, and rows beyond M zero for fewer
// points than columns. `bad` counts the points with a non-finite x or y (or
// a negative or non-finite weight); then no triangle is made (empty).
template <class ExecSpace, class Family, class XView, class YView, class WView>
std::vector<double> fit_triangle(const ExecSpace& space, const Family& family, const XView& x,
                                 const YView& y, int N, int K, const WView& weights,
                                 std::int64_t& bad) {
  const std::int64_t M    = std::int64_t(x.extent(0));
  const int columns_total = N + K;
  bad                     = 0;
  if (M == 0) return std::vector<double>(std::size_t(columns_total) * columns_total, 0.0);
#ifdef RECUR_HAS_WARP_QR
  // On an NVIDIA GPU, [V | y] is made chunk by chunk where the warp QR
  // reads it: no M x (N + K) matrix in memory. (Its rows in plain double
  // would save an eighth of the time on the H200, but Laguerre fits then
  // miss the tests' 1e-12 by up to 1.8x.)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    if (warp_qr_fits(columns_total)) {
      std::vector<double> R = with_fit_basis(family, [&](const auto& basis) {
        const auto kernel = make_kernel<double, Accurate>(space, basis, N);
        using Row         = FamilyRow<double, std::decay_t<decltype(kernel)>>;
        return warp_qr_triangle(space, FitRows<XView, YView, WView, Row>{x, y, weights,
                                                                         Row{kernel}, N},
                                columns_total, bad);
      });
      if (bad > 0) return {};
      return R;
    }
  }
#endif
  return stored_triangle(space, x, y, N, K, weights, bad, [&](const auto& V) {
    with_fit_basis(family, [&](const auto& basis) { evaluate(space, basis, x, V); });
  });
}

// A product basis (x: M x d samples) in the basis as given: [Psi | y] stored
// and factored by the tall-skinny QR (its functions are products of the
// families' own polynomials; orthonormal families keep the columns of like
// size).
template <class ExecSpace, class XView, class YView, class WView>
std::vector<double> fit_triangle(const ExecSpace& space, const ProductBasis& basis,
                                 const XView& x, const YView& y, int N, int K,
                                 const WView& weights, std::int64_t& bad) {
  bad = 0;
  if (x.extent(0) == 0) return std::vector<double>(std::size_t(N + K) * (N + K), 0.0);
  return stored_triangle(space, x, y, N, K, weights, bad,
                         [&](const auto& V) { evaluate(space, basis, x, V); });
}

template <class WView>
std::string bad_points_message(const std::string& where, std::int64_t bad, std::int64_t M) {
  return where + std::to_string(bad) + " of the " + std::to_string(M) +
         " points have a non-finite x or y" +
         (std::is_same_v<WView, Unweighted> ? std::string()
                                            : std::string(" or a negative or non-finite weight")) +
         "; drop those points (or give them weight 0) before fitting";
}

// From the triangle R of [V | y] (R's first N columns the triangle of V, the
// rest Q^T y): the least-squares solution of R_V c = (Q^T y)_N for each of
// the K data sets, times the inverse scales, N x K row-major. Throws where
// V's columns are linearly dependent.
inline std::vector<long double> solve_triangle(const std::vector<double>& R, int N, int K,
                                               const std::vector<double>& inverse_scale,
                                               const std::string& where) {
  const int columns_total = N + K;
  const auto at = [&](int i, int k) { return R[std::size_t(i) * columns_total + k]; };
  for (int k = 0; k < N; ++k) {
    long double column = 0;  // |V(:, k)| = |R(:, k)|
    for (int i = 0; i <= k; ++i) column += (long double)at(i, k) * at(i, k);
    const long double floor = std::sqrt(column) * N * std::numeric_limits<double>::epsilon();
    if (!(std::fabs(at(k, k)) > floor))
      throw std::invalid_argument(
          where + "the N = " + std::to_string(N) + " basis functions are linearly dependent at " +
          "these points (term " + std::to_string(k) +
          " is, to rounding, a combination of the lower ones); fit fewer terms or sample more "
          "distinct x");
  }
  std::vector<long double> coefficients(std::size_t(N) * K);
  std::vector<long double> solution(N);
  for (int j = 0; j < K; ++j) {
    for (int k = N - 1; k >= 0; --k) {
      long double sum = at(k, N + j);
      for (int l = k + 1; l < N; ++l) sum -= (long double)at(k, l) * solution[l];
      solution[k] = sum / at(k, k);
    }
    for (int k = 0; k < N; ++k)
      coefficients[std::size_t(k) * K + j] = solution[k] * inverse_scale[k];
  }
  return coefficients;
}

// coefficients = values (N x K row-major), through a host copy.
template <class ExecSpace, class CView>
void store_coefficients(const ExecSpace& space, const CView& coefficients,
                        const std::vector<long double>& values) {
  const std::int64_t K = columns(coefficients);
  auto host            = Kokkos::create_mirror_view(coefficients);
  for (std::int64_t k = 0; k < std::int64_t(coefficients.extent(0)); ++k)
    for (std::int64_t j = 0; j < K; ++j)
      entry(host, k, j) = typename CView::value_type(values[std::size_t(k * K + j)]);
  Kokkos::deep_copy(space, coefficients, host);
  fence(space, "recur::fit: the host copy is released");
}

template <class ExecSpace, class Family, class XView, class YView, class CView, class WView>
void run_fit(const ExecSpace& space, const Family& family, const XView& x, const YView& y,
             int N, const CView& coefficients, const WView& weights) {
  const std::string where = "recur::fit: ";
  check_fit_arguments<ExecSpace>(where, x, y, N, coefficients, weights);
  const std::int64_t M = std::int64_t(x.extent(0));
  const int K          = int(columns(coefficients));
  if (M < N)
    throw std::invalid_argument(where + "x has " + std::to_string(M) + " points, fewer than N = " +
                                std::to_string(N) + " terms; a fit needs at least N points");
  // Checked before any work is done.
  const std::vector<double> inverse_scale = fit_inverse_scales(family, N, where);
  ScopedRegion region("recur::fit");
  std::int64_t bad = 0;
  const std::vector<double> R = fit_triangle(space, family, x, y, N, K, weights, bad);
  if (bad > 0) throw std::invalid_argument(bad_points_message<WView>(where, bad, M));
  store_coefficients(space, coefficients, solve_triangle(R, N, K, inverse_scale, where));
}

}  // namespace impl

/// Least-squares fit: the N coefficients c minimizing
///   sum_i (w_i (sum_{n<N} c_n p_n(x_i) - y_i))^2
/// (weights multiply the unsquared residual, as numpy.polynomial's *fit; use
/// 1/sigma_i for Gaussian errors). y may be rank-2 (M x K, K data sets sharing
/// x; coefficients N x K). Any family evaluate takes; weighted three-term
/// families are fitted in their orthonormal basis and converted back. With
/// a recur::ProductBasis for `family`, x is M x d samples, N = P and the
/// coefficients are those of the basis as given (regression polynomial
/// chaos; take orthonormal families for a well-conditioned fit).
///
/// Householder QR of [V | y] (M x (N + K), in double whatever T is),
/// blocked as a tall-skinny QR on `space`: the error grows with V's condition
/// number, not its square as with the normal equations V^T V c = V^T y, so
/// ill-conditioned bases (monomials, or a basis sampled off its weight's
/// support) still fit to the precision the data allow. Memory: M x (N + K)
/// doubles; on an NVIDIA GPU with N + K <= 36, none of that size ([V | y] is
/// made 64 rows at a time where it is factored). Throws for fewer points than terms, non-finite data, and bases
/// linearly dependent at the points.
/// N = coefficients.extent(0).
template <class ExecSpace, class Family, class XView, class YView, class CView,
          class WView = Unweighted,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               Kokkos::is_view<CView>::value,
                           int> = 0>
void fit(const ExecSpace& space, const Family& family, const XView& x, const YView& y,
         const CView& coefficients, const WView& weights = {}) {
  static_assert(impl::check_fit_types<ExecSpace, XView, YView, CView>());
  if (coefficients.extent(0) == 0 ||
      coefficients.extent(0) > std::size_t(std::numeric_limits<int>::max()))
    throw std::invalid_argument("recur::fit: coefficients has " +
                                std::to_string(coefficients.extent(0)) +
                                " rows; N = coefficients.extent(0), the number of terms, must be "
                                "between 1 and 2^31 - 1");
  impl::run_fit(space, family, x, y, int(coefficients.extent(0)), coefficients, weights);
}

/// recur::fit with N given as well: throws unless coefficients has N rows.
template <class ExecSpace, class Family, class XView, class YView, class CView,
          class WView = Unweighted,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void fit(const ExecSpace& space, const Family& family, const XView& x, const YView& y, int N,
         const CView& coefficients, const WView& weights = {}) {
  static_assert(impl::check_fit_types<ExecSpace, XView, YView, CView>());
  impl::run_fit(space, family, x, y, N, coefficients, weights);
}

/// recur::fit on a default-constructed instance of x's execution space.
template <class Family, class XView, class YView, class CView, class WView = Unweighted,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               Kokkos::is_view<CView>::value,
                           int> = 0>
void fit(const Family& family, const XView& x, const YView& y, const CView& coefficients,
         const WView& weights = {}) {
  fit(typename XView::execution_space{}, family, x, y, coefficients, weights);
}

}  // namespace recur

#endif
