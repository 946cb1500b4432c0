#ifndef RECUR_MPI_HPP
#define RECUR_MPI_HPP

/// recur across MPI ranks (RECUR_ENABLE_MPI; the package's config brings MPI
/// along). Data are row-partitioned: each rank holds its own rows of x (any
/// number of them, zero included) in its own execution space's memory, one
/// device per rank. evaluate, series, gauss and the rest act on a rank's own
/// rows and need no communication: call them as in one process. What does:
///  - recur::mpi::fit, least squares over every rank's rows together;
///  - recur::mpi::project, with the Gauss rule's nodes split across ranks.
/// Both are collective over `comm`: every rank calls them, with the same
/// family and N. An error on any rank (bad extents, non-finite data, ...)
/// throws on every rank, with the message of the lowest rank that failed.

#include <recur/config.hpp>

#ifndef RECUR_ENABLE_MPI
#error "recur/mpi.hpp: this recur was built without MPI; configure it where CMake finds MPI (RECUR_ENABLE_MPI=ON, docs/clusters.md)"
#endif

#include <recur/fit.hpp>
#include <recur/gauss.hpp>
#include <recur/project.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace recur::mpi {

/// A rank's share of M rows split evenly over a communicator: rows [first,
/// first + count); the first M mod P ranks take one row more.
struct Rows {
  std::int64_t first = 0;
  std::int64_t count = 0;
};

/// Rank `rank` of `ranks`' share of M rows.
inline Rows rows_of(std::int64_t M, int rank, int ranks) {
  const std::int64_t base = M / ranks, extra = M % ranks;
  return {rank * base + (rank < extra ? rank : extra), base + (rank < extra ? 1 : 0)};
}

/// This rank's share of M rows over `comm`.
inline Rows rows_of(MPI_Comm comm, std::int64_t M) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  return rows_of(M, rank, ranks);
}

/// Whether an MPI launcher started this process (mpirun, mpiexec, srun: the
/// environment variables of Open MPI, PMIx, PMI-1/2 and MVAPICH2 say so).
/// recur's command and perf suite start MPI only then, so that running them
/// alone never does.
inline bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK",
                           "MV2_COMM_WORLD_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

namespace impl {

using recur::impl::columns;

// Runs `local` on every rank of `comm`; when it threw on any rank, throws on
// every rank: std::invalid_argument where the lowest failing rank's error was
// one, else std::runtime_error, with that rank's message, "recur::f: ..."
// read as "recur::mpi::f: rank R: ..." (the rank named when `name_rank` and
// comm has more than one). Collective.
template <class Local>
void agree(MPI_Comm comm, const Local& local, bool name_rank = true) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::string message;
  int kind = 0;  // 0 no error, 1 invalid_argument, 2 any other
  try {
    local();
  } catch (const std::invalid_argument& error) {
    kind = 1, message = error.what();
  } catch (const std::exception& error) {
    kind = 2, message = error.what();
  }
  int first = kind ? rank : ranks;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == ranks) return;
  int header[2] = {kind, int(message.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  message.resize(std::size_t(header[1]));
  MPI_Bcast(message.data(), header[1], MPI_CHAR, first, comm);
  // "recur::fit: ..." from rank 2 reads "recur::mpi::fit: rank 2: ...".
  const std::string prefix = name_rank && ranks > 1 ? "rank " + std::to_string(first) + ": " : "";
  const std::size_t colon  = message.find(": ");
  const bool named         = message.rfind("recur::", 0) == 0 && colon != std::string::npos;
  const std::string text =
      named ? "recur::mpi::" + message.substr(7, colon - 7) + ": " + prefix + message.substr(colon + 2)
            : prefix + message;
  if (header[0] == 1) throw std::invalid_argument(text);
  throw std::runtime_error(text);
}

// The n x n triangle of [A; B] = Q R for two n x n triangles (row-major).
inline std::vector<double> stacked_triangle(const std::vector<double>& a,
                                            const std::vector<double>& b, int n) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> A("recur::mpi::fit::stack",
                                                                  2 * std::size_t(n), n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      A(i, k)     = a[std::size_t(i) * n + k];
      A(n + i, k) = b[std::size_t(i) * n + k];
    }
  return recur::impl::householder_triangle(Host{}, A);
}

// TSQR across ranks: each rank's triangle is reduced up a binomial tree (rank
// r + s sends to r for r a multiple of 2s); rank 0 returns the triangle of
// all rows, the others an empty vector. Collective.
inline std::vector<double> reduce_triangles(MPI_Comm comm, std::vector<double> R, int n) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int size = n * n;
  constexpr int tag = 4242;
  for (int step = 1; step < ranks; step *= 2) {
    if (rank % (2 * step) == step) {
      MPI_Send(R.data(), size, MPI_DOUBLE, rank - step, tag, comm);
      return {};
    }
    if (rank % (2 * step) == 0 && rank + step < ranks) {
      std::vector<double> other(std::size_t(size), 0.0);
      MPI_Recv(other.data(), size, MPI_DOUBLE, rank + step, tag, comm, MPI_STATUS_IGNORE);
      R = stacked_triangle(R, other, n);
    }
  }
  return R;
}

// Every rank's `text`, in rank order, on rank 0 (empty elsewhere).
inline std::vector<std::string> gather(MPI_Comm comm, const std::string& text) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int length = int(text.size());
  std::vector<int> lengths(ranks, 0), offsets(ranks, 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rank == 0) {
    for (int r = 0, at = 0; r < ranks; at += lengths[r], ++r) offsets[r] = at;
    all.resize(std::size_t(offsets[ranks - 1] + lengths[ranks - 1]));
  }
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, comm);
  std::vector<std::string> texts;
  if (rank == 0)
    for (int r = 0; r < ranks; ++r)
      texts.push_back(all.substr(std::size_t(offsets[r]), std::size_t(lengths[r])));
  return texts;
}

inline std::int64_t sum(MPI_Comm comm, std::int64_t local) {
  long long value = local;
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return std::int64_t(value);
}

}  // namespace impl

/// recur::fit over the rows of every rank of `comm`: the least-squares
/// coefficients of all ranks' points together, the answer one process holding
/// every row gives (to rounding), on every rank. Each rank passes its own x, y
/// (and weights), any number of rows, zero included; N and the family are the
/// same on every rank, and every rank's coefficients (N, or N x K for rank-2
/// y) receive the result.
///
/// Each rank reduces [V | y] to its triangle R by the tall-skinny QR of
/// recur::fit on its own device; the triangles go up a binary tree of ranks,
/// two stacked and reduced at each step (on the host: (N + K)^2 doubles a
/// message), and rank 0 solves and broadcasts. Never the normal equations.
/// Collective; throws on every rank when any rank's arguments are wrong, any
/// point is not finite, the ranks hold fewer than N points in all, or the
/// basis is linearly dependent at the points.
template <class ExecSpace, class Family, class XView, class YView, class CView,
          class WView = Unweighted,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void fit(MPI_Comm comm, const ExecSpace& space, const Family& family, const XView& x,
         const YView& y, int N, const CView& coefficients, const WView& weights = {}) {
  static_assert(recur::impl::check_fit_types<ExecSpace, XView, YView, CView>());
  const std::string where = "recur::fit: ";
  const int K             = int(impl::columns(coefficients));
  std::vector<double> inverse_scale;
  impl::agree(comm, [&] {
    recur::impl::check_fit_arguments<ExecSpace>(where, x, y, N, coefficients, weights);
    inverse_scale = recur::impl::fit_inverse_scales(family, N, where);
  });
  // Errors about all ranks' points together: every rank knows them alike.
  const std::string all   = "recur::mpi::fit: ";
  const std::int64_t M = impl::sum(comm, std::int64_t(x.extent(0)));
  if (M < N)
    throw std::invalid_argument(all + "the ranks hold " + std::to_string(M) +
                                " points in all, fewer than N = " + std::to_string(N) +
                                " terms; a fit needs at least N points");
  recur::impl::ScopedRegion region("recur::mpi::fit");
  std::vector<double> R;
  std::int64_t bad = 0;
  impl::agree(comm, [&] { R = recur::impl::fit_triangle(space, family, x, y, N, K, weights, bad); });
  const std::int64_t all_bad = impl::sum(comm, bad);
  if (all_bad > 0)
    throw std::invalid_argument(recur::impl::bad_points_message<WView>(all, all_bad, M));
  R = impl::reduce_triangles(comm, std::move(R), N + K);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> values(std::size_t(N) * K);
  // Only rank 0 solves; agree() hands its error (a basis dependent at all
  // ranks' points) to every rank.
  impl::agree(
      comm,
      [&] {
        if (rank != 0) return;
        const std::vector<long double> solution =
            recur::impl::solve_triangle(R, N, K, inverse_scale, where);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(solution[i]);
      },
      false);
  MPI_Bcast(values.data(), int(values.size()), MPI_DOUBLE, 0, comm);
  recur::impl::store_coefficients(space, coefficients,
                                  std::vector<long double>(values.begin(), values.end()));
}

/// recur::mpi::fit on a default-constructed instance of x's execution space.
template <class Family, class XView, class YView, class CView, class WView = Unweighted,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value, int> = 0>
void fit(MPI_Comm comm, const Family& family, const XView& x, const YView& y, int N,
         const CView& coefficients, const WView& weights = {}) {
  fit(comm, typename XView::execution_space{}, family, x, y, N, coefficients, weights);
}

/// recur::project with the nodes of the Gauss rule split across the ranks of
/// `comm`: each rank passes its own nodes, weights and f's values there (any
/// share of the rule's nodes, none included), and every rank's coefficients
/// receive the coefficients of the whole rule, the sums of all ranks'
/// products reduced with MPI_Allreduce. Collective.
template <class ExecSpace, class Family, class NodesView, class WeightsView, class FView,
          class CView, std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void project(MPI_Comm comm, const ExecSpace& space, const Family& family, const NodesView& nodes,
             const WeightsView& weights, const FView& f, const CView& coefficients) {
  static_assert(recur::impl::check_project_types<ExecSpace, Family, FView, CView>());
  static_assert(Kokkos::is_view<NodesView>::value && recur::impl::view_rank<NodesView> == 1 &&
                    Kokkos::is_view<WeightsView>::value &&
                    recur::impl::view_rank<WeightsView> == 1,
                "recur::mpi::project: nodes and weights must be rank-1 Views of a rank's "
                "nodes");
  using T                 = typename CView::value_type;
  const std::string where = "recur::project: ";
  const std::int64_t N    = std::int64_t(coefficients.extent(0));
  std::vector<T> inverse(std::size_t(N), T(1));
  impl::agree(comm, [&] {
    recur::impl::check_project_extents(where, nodes, weights, f, coefficients);
    if constexpr (!recur::impl::is_normalized<Family>::value)
      inverse = recur::impl::inverse_orthonormal_scales<T>(family, int(N), where);
  });
  const std::int64_t n = impl::sum(comm, std::int64_t(f.extent(0)));
  if (N > n)
    throw std::invalid_argument("recur::mpi::project: coefficients has N = " + std::to_string(N) +
                                " rows but the ranks hold n = " + std::to_string(n) +
                                " nodes in all; an n-point rule determines 1 <= N <= n "
                                "coefficients");
  recur::impl::ScopedRegion region("recur::mpi::project");
  impl::agree(comm, [&] {
    recur::impl::orthonormal_sums(space, family, nodes, weights, f, coefficients);
  });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, coefficients);
  const std::int64_t K = impl::columns(coefficients);
  std::vector<double> sums(std::size_t(N * K));
  for (std::int64_t k = 0; k < N; ++k)
    for (std::int64_t j = 0; j < K; ++j)
      sums[std::size_t(k * K + j)] = double(recur::impl::entry(host, k, j)) * double(inverse[k]);
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), int(sums.size()), MPI_DOUBLE, MPI_SUM, comm);
  for (std::int64_t k = 0; k < N; ++k)
    for (std::int64_t j = 0; j < K; ++j)
      recur::impl::entry(host, k, j) = T(sums[std::size_t(k * K + j)]);
  Kokkos::deep_copy(space, coefficients, host);
  recur::impl::fence(space, "recur::mpi::project: the host copy is released");
}

/// recur::mpi::project of a function: every rank makes the n-point Gauss rule
/// (n = 0: N, as recur::project) and calls f at its own even share of the
/// nodes (rows_of), on `space`. Collective.
template <class ExecSpace, class Family, class Function, class CView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               !Kokkos::is_view<Function>::value,
                           int> = 0>
void project(MPI_Comm comm, const ExecSpace& space, const Family& family, const Function& f,
             const CView& coefficients, int n = 0) {
  static_assert(Kokkos::is_view<CView>::value && recur::impl::view_rank<CView> == 1,
                "recur::mpi::project: with f a function, coefficients must be a rank-1 View of "
                "N values");
  static_assert(recur::impl::is_real_function_v<Function>,
                "recur::mpi::project: f must be a function of x callable on the execution "
                "space that returns a real number");
  using T = typename CView::value_type;
  if (n == 0) n = int(coefficients.extent(0));
  std::int64_t first = 0, count = 0;
  if (n >= 1) {
    const Rows mine = rows_of(comm, n);
    first = mine.first, count = mine.count;
  }
  // n is the same on every rank, so is its error.
  const auto rule = recur::impl::sampled_rule<T>(space, family, f, n, first, count);
  project(comm, space, family, rule.nodes, rule.weights, rule.values, coefficients);
}

}  // namespace recur::mpi

#endif
