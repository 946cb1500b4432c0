#ifndef RECUR_IMPL_LEAST_SQUARES_HPP
#define RECUR_IMPL_LEAST_SQUARES_HPP

// What recur::project and recur::fit share: the factors between a weighted
// family and its orthonormal variant, the product V^T G (Kokkos Kernels when
// recur has it), and a tall-skinny Householder QR.

#include <recur/config.hpp>
#include <recur/families.hpp>
#include <recur/impl/checks.hpp>
#include <recur/impl/eti.hpp>
#include <recur/impl/gauss.hpp>
#include <recur/impl/kokkos_compat.hpp>

#include <Kokkos_Core.hpp>
#ifdef RECUR_ENABLE_KOKKOSKERNELS
#include <KokkosBlas2_gemv.hpp>
#include <KokkosBlas3_gemm.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace recur::impl {

template <class Family, class = void>
struct has_norm_ratio : std::false_type {};
template <class Family>
struct has_norm_ratio<Family,
                      std::void_t<decltype(std::declval<const Family&>().norm_ratio(0))>>
    : std::true_type {};

// p_k = s_k q_k, with q_k the orthonormal variant: both recurrences' leading
// coefficients give s_k = p_0 prod_{j<k} a_j / a^_j. Returned as 1 / s_k in
// T, kept as mantissa and exponent on the way so that the Hermite families'
// s_k (sqrt(2^k k!)) never overflow: 1 / s_k underflows to 0 where it must.
// A family whose p_k vanish identically (Gegenbauer at lambda = 0, where
// C_k^(0) = 0 for k >= 1) has no coefficients to give: `where` throws.
template <class T, class Family>
std::vector<T> inverse_orthonormal_scales(const Family& family, int N, const std::string& where) {
  const auto basis = orthonormal(family);
  std::vector<T> inverse(N);
  long double mantissa = family.initial() / basis.initial();
  long exponent        = 0;
  for (int k = 0; k < N; ++k) {
    if (!(std::isfinite(mantissa) && mantissa != 0))
      throw std::invalid_argument(
          where + std::string(Family::name()) + "'s p_" + std::to_string(k) +
          " is identically 0 (its leading coefficient vanishes for these parameters), so no "
          "coefficients of N = " + std::to_string(N) + " terms in it exist; use N = " +
          std::to_string(k) + ", or its orthonormal variant " + Family::normalized_name());
    int e = 0;
    mantissa = std::frexp(mantissa, &e);
    exponent += e;
    inverse[k] = T(std::ldexp(1.0L / mantissa, int(std::clamp(-exponent, -100000L, 100000L))));
    if (k + 1 < N) mantissa *= family.coefficients(k).a / basis.coefficients(k).a;
  }
  return inverse;
}

// Out = A^T G for A (rows x N), G (rows x K), Out (N x K); G and Out may be
// rank-1 (K = 1). Kokkos Kernels' gemv / gemm when recur has it, else one
// thread per output entry.
template <class AView, class GView, class OutView>
struct TransposeProduct {
  AView A;
  GView G;
  OutView out;
  std::int64_t n_terms;
  KOKKOS_FUNCTION void operator()(std::int64_t index) const {
    const std::int64_t n = index % n_terms, k = index / n_terms;
    double sum           = 0;
    for (std::int64_t i = 0; i < std::int64_t(A.extent(0)); ++i)
      sum += double(A(i, n)) * double(entry(G, i, k));
    entry(out, n, k) = sum;
  }
};

template <class ExecSpace, class AView, class GView, class OutView>
void transpose_product_any(const ExecSpace& space, const AView& A, const GView& G,
                           const OutView& out, bool blas) {
  using T = typename OutView::non_const_value_type;
#ifdef RECUR_ENABLE_KOKKOSKERNELS
  if (blas) {
#if KOKKOS_VERSION < 40000
    fence(space, "recur: before Kokkos Kernels");
#define RECUR_BLAS_SPACE
#else
#define RECUR_BLAS_SPACE space,
#endif
    if constexpr (OutView::rank == 1)
      KokkosBlas::gemv(RECUR_BLAS_SPACE "T", T(1), A, G, T(0), out);
    else
      KokkosBlas::gemm(RECUR_BLAS_SPACE "T", "N", T(1), A, G, T(0), out);
#undef RECUR_BLAS_SPACE
    return;
  }
#endif
  (void)blas;
  const std::int64_t K = OutView::rank == 1 ? 1 : std::int64_t(out.extent(1));
  Kokkos::parallel_for("recur::transpose_product",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                           space, 0, std::int64_t(A.extent(1)) * K),
                       TransposeProduct<AView, GView, OutView>{A, G, out,
                                                               std::int64_t(A.extent(1))});
}

}  // namespace recur::impl

#ifdef RECUR_ENABLE_ETI
// The precompiled products (impl/eti.hpp), declared.
namespace recur::impl {
#define RECUR_IMPL_ETI_DECLARE_PRODUCTS(S) RECUR_IMPL_ETI_PRODUCTS(extern template, S)
RECUR_IMPL_ETI_SPACES(RECUR_IMPL_ETI_DECLARE_PRODUCTS)
#undef RECUR_IMPL_ETI_DECLARE_PRODUCTS
}  // namespace recur::impl
#endif

namespace recur::impl {

// Out = A^T G: through the library's precompiled instance where there is
// one (A LayoutLeft, float or double, in the space's memory), else
// compiled here.
template <class ExecSpace, class AView, class GView, class OutView>
void transpose_product(const ExecSpace& space, const AView& A, const GView& G,
                       const OutView& out, bool blas = true) {
  using T = typename OutView::non_const_value_type;
  if constexpr (has_product_instance<ExecSpace, AView, GView, OutView>) {
    if constexpr (view_rank<OutView> == 1) {
      transpose_product_any(space, eti_v_t<ExecSpace, T, Kokkos::LayoutLeft>(A),
                            eti_x_t<ExecSpace, T>(G), eti_vector_t<ExecSpace, T>(out), blas);
    } else {
      transpose_product_any(space, eti_v_t<ExecSpace, T, Kokkos::LayoutLeft>(A),
                            eti_matrix_t<ExecSpace, T>(G),
                            eti_v_t<ExecSpace, T, typename OutView::array_layout>(out), blas);
    }
  } else {
    transpose_product_any(space, A, G, out, blas);
  }
}

// One level of a tall-skinny QR (TSQR): the rows of A (LayoutLeft, double)
// are cut into blocks of `block` rows; each team reduces its block to upper
// triangular form by Householder reflections, in place, and writes the
// triangle R_p to rows p * n .. p * n + n - 1 of R (zero elsewhere), n the
// number of columns. Q is never formed: recur::fit factors [V | y], whose
// triangle holds both R and Q^T y. A warp (a vector of lanes) owns a column:
// its dot product with the reflector and its update need no team barrier;
// one barrier per reflector orders the columns.
template <class ExecSpace>
struct HouseholderBlocks {
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, typename ExecSpace::memory_space>;
  using Team   = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Matrix A;
  Matrix R;
  std::int64_t block;

  KOKKOS_FUNCTION void operator()(const Team& team) const {
    const int n             = int(A.extent(1));
    const std::int64_t row0 = std::int64_t(team.league_rank()) * block;
    const std::int64_t left = std::int64_t(A.extent(0)) - row0;
    const int rows          = int(left < block ? left : block);
    const int steps         = rows < n ? rows : n;
    for (int j = 0; j < steps; ++j) {
      double below = 0;  // sum of squares under the diagonal
      Kokkos::parallel_reduce(
          Kokkos::TeamVectorRange(team, j + 1, rows),
          [&](int i, double& sum) { sum += A(row0 + i, j) * A(row0 + i, j); }, below);
      const double alpha = A(row0 + j, j);
      if (below > 0) {
        // v = (alpha - s, A(j+1:, j)), s = -sign(alpha) |column|, so that
        // H = I - tau v v^T maps the column to s e_j; tau = 2 / v^T v.
        const double norm = kokkos_math::sqrt(alpha * alpha + below);
        const double s    = alpha < 0 ? norm : -norm;
        const double v0  = alpha - s;
        const double tau = -1 / (s * v0);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j + 1, n), [&](int k) {
          // Every lane reads the diagonal row's entry before the reduction
          // (which synchronizes the lanes), and only then may one write it.
          const double head = A(row0 + j, k);
          double w          = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, j + 1, rows),
              [&](int i, double& sum) { sum += A(row0 + i, j) * A(row0 + i, k); }, w);
          w = tau * (w + v0 * head);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, j + 1, rows),
                               [&](int i) { A(row0 + i, k) -= w * A(row0 + i, j); });
          Kokkos::single(Kokkos::PerThread(team), [&] { A(row0 + j, k) -= w * v0; });
        });
        team.team_barrier();
        Kokkos::single(Kokkos::PerTeam(team), [&] { A(row0 + j, j) = s; });
      }
      team.team_barrier();
    }
    const std::int64_t out0 = std::int64_t(team.league_rank()) * n;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 0, steps), [&](int i) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, i, n),
                           [&](int k) { R(out0 + i, k) = A(row0 + i, k); });
    });
  }
};

// The n x n matrix R (a device View) on the host, row-major.
template <class Matrix>
std::vector<double> triangle_on_host(const Matrix& R) {
  const int n  = int(R.extent(1));
  auto on_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, R);
  std::vector<double> triangle(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) triangle[std::size_t(i) * n + k] = on_host(i, k);
  return triangle;
}

// The n x n triangle R of A = Q R (A: rows x n, LayoutLeft, overwritten), by
// TSQR levels until one block is left; returned on the host, row-major.
template <class ExecSpace>
std::vector<double> householder_triangle(
    const ExecSpace& space,
    Kokkos::View<double**, Kokkos::LayoutLeft, typename ExecSpace::memory_space> A) {
  using Functor      = HouseholderBlocks<ExecSpace>;
  using Matrix       = typename Functor::Matrix;
  const int n        = int(A.extent(1));
  const bool host    = std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;
  // Blocks of at least 4 n rows shrink the rows 4-fold per level.
  const int lanes    = host ? 1 : 32;
  const int team     = host ? 1 : 8;
  const std::int64_t block = std::max<std::int64_t>(256, 4 * std::int64_t(n));
  for (;;) {
    const std::int64_t rows   = std::int64_t(A.extent(0));
    const std::int64_t blocks = (rows + block - 1) / block;
    Matrix R("recur::fit::R", blocks * n, n);
    Kokkos::parallel_for("recur::householder_blocks",
                         Kokkos::TeamPolicy<ExecSpace>(space, blocks, team, lanes),
                         Functor{A, R, block});
    if (blocks == 1) return triangle_on_host(R);
    A = R;
  }
}

}  // namespace recur::impl

#endif
