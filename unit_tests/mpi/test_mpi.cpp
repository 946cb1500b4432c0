// recur::mpi::fit and recur::mpi::project against recur::fit and
// recur::project of one process holding every row, on 1 to 4 ranks (ctest
// runs this program under mpirun with each count). Rows are split unevenly,
// and with two ranks or more rank 1 holds none.
#include <recur/fit.hpp>
#include <recur/math.hpp>
#include <recur/mpi.hpp>
#include <recur/project.hpp>

#include "../test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;

using recur_test::invalid_argument_message;

int rank_of() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
int ranks_of() {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

// Rank r's rows [first, first + count) of M: shares r + 1 (rank 1: none).
recur::mpi::Rows uneven(std::int64_t M) {
  const int rank = rank_of(), ranks = ranks_of();
  if (ranks == 1) return {0, M};
  std::vector<std::int64_t> share(ranks);
  std::int64_t total = 0;
  for (int r = 0; r < ranks; ++r) total += share[r] = r == 1 ? 0 : r + 1;
  recur::mpi::Rows rows;
  std::int64_t given = 0;
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t count = r + 1 == ranks ? M - given : M * share[r] / total;
    if (r == rank) rows = {given, count};
    given += count;
  }
  return rows;
}

template <class T>
Kokkos::View<T*, Space> device_copy(const std::vector<T>& values, const char* label) {
  Kokkos::View<T*, Space> view(std::string(label), values.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i) host(i) = values[i];
  Kokkos::deep_copy(view, host);
  return view;
}

template <class View>
std::vector<double> host_values(const View& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, view);
  std::vector<double> values;
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (std::size_t j = 0; j < (View::rank == 2 ? host.extent(1) : 1); ++j)
      values.push_back(recur::impl::entry(host, std::int64_t(i), std::int64_t(j)));
  return values;
}

// max |a - b| / max |b|.
double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double difference = 0, scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    difference = std::max(difference, std::fabs(a[i] - b[i]));
    scale      = std::max(scale, std::fabs(b[i]));
  }
  return difference / scale;
}

// M points of [lo, hi] in a scrambled order, and a smooth function with a
// little deterministic noise.
struct Data {
  std::vector<double> x, y, w;
};
// exact: y a polynomial of degree 5 instead (a zero residual where N > 5).
Data sample(std::int64_t M, double lo, double hi, bool exact = false) {
  Data d;
  for (std::int64_t i = 0; i < M; ++i) {
    const double t = double((i * 7919) % M) / double(M - 1);
    const double x = lo + (hi - lo) * t;
    d.x.push_back(x);
    d.y.push_back(exact ? 1 - x + 0.5 * x * x - x * x * x / 6 + x * x * x * x / 24 -
                              x * x * x * x * x / 120
                        : std::exp(0.3 * x) * std::sin(2 * x) + 1e-3 * std::sin(1e3 * double(i)));
    d.w.push_back(1 + 0.5 * std::cos(double(i)));
  }
  return d;
}

template <class Family>
void fit_equals_one_process(const Family& family, int N, double lo, double hi,
                            bool exact = false, double tolerance = 1e-12) {
  const std::int64_t M = 1000;
  const Data d         = sample(M, lo, hi, exact);
  const auto x = device_copy(d.x, "x"), y = device_copy(d.y, "y"), w = device_copy(d.w, "w");
  Kokkos::View<double*, Space> one("one", N), many("many", N);
  recur::fit(Space{}, family, x, y, N, one);
  const recur::mpi::Rows mine = uneven(M);
  const auto range = std::make_pair(mine.first, mine.first + mine.count);
  recur::mpi::fit(MPI_COMM_WORLD, Space{}, family, Kokkos::subview(x, range),
                  Kokkos::subview(y, range), N, many);
  EXPECT_LE(relative_difference(host_values(many), host_values(one)), tolerance)
      << Family::name() << " N = " << N;
  // Weighted, and two data sets at once (y M x 2: y and 1 - y).
  Kokkos::View<double**, Space> Y("Y", M, 2), C1("C1", N, 2), C2("C2", N, 2);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, M), KOKKOS_LAMBDA(int i) {
        Y(i, 0) = y(i);
        Y(i, 1) = 1 - y(i);
      });
  recur::fit(Space{}, family, x, Y, N, C1, w);
  recur::mpi::fit(MPI_COMM_WORLD, Space{}, family, Kokkos::subview(x, range),
                  Kokkos::subview(Y, range, Kokkos::ALL), N, C2, Kokkos::subview(w, range));
  EXPECT_LE(relative_difference(host_values(C2), host_values(C1)), tolerance)
      << Family::name() << " N = " << N << ", weighted, K = 2";
}

TEST(MpiFit, EqualsOneProcessWellConditioned) {
  fit_equals_one_process(recur::Legendre{}, 12, -1, 1);
  fit_equals_one_process(recur::HermiteENormalized{}, 10, -3, 3);
  fit_equals_one_process(recur::ChebyshevT{}, 20, -1, 1);
}

// Monomials on [0, 2]: condition number of V 1.7e5 at N = 8 (numpy.linalg.cond
// of polyvander at these x); still to 1e-12 with noisy data. Legendre
// sampled on [0.5, 1] alone, a quarter of its interval: 3.8e6 at N = 7, where
// two backward-stable QRs of the same data differ by up to about cond(V) eps
// = 4e-10 in the coefficients even with a zero residual (measured 2e-11 to
// 5e-11 on 3 and 4 ranks): bounded by 4 cond(V) eps.
TEST(MpiFit, EqualsOneProcessIllConditioned) {
  fit_equals_one_process(recur::Monomials{}, 8, 0, 2);
  fit_equals_one_process(recur::Legendre{}, 7, 0.5, 1, true, 4 * 3.8e6 * 1.12e-16);
}

// A product basis (regression polynomial chaos): x is M x 2 samples.
TEST(MpiFit, ProductBasisEqualsOneProcess) {
  const std::int64_t M = 600;
  const recur::ProductBasis basis({recur::HermiteENormalized{}, recur::LegendreNormalized{}},
                                  recur::MultiIndexSet::total_degree(2, 5));
  const int N = basis.size();
  const Data a = sample(M, -2, 2), b = sample(M, -1, 1);
  Kokkos::View<double**, Kokkos::LayoutRight, Space> X("X", M, 2);
  auto X_host = Kokkos::create_mirror_view(X);
  for (std::int64_t i = 0; i < M; ++i) X_host(i, 0) = a.x[i], X_host(i, 1) = b.x[(i * 37) % M];
  Kokkos::deep_copy(X, X_host);
  const auto y = device_copy(a.y, "y");
  Kokkos::View<double*, Space> one("one", N), many("many", N);
  recur::fit(Space{}, basis, X, y, one);
  const recur::mpi::Rows mine = uneven(M);
  const auto range = std::make_pair(mine.first, mine.first + mine.count);
  recur::mpi::fit(MPI_COMM_WORLD, Space{}, basis, Kokkos::subview(X, range, Kokkos::ALL),
                  Kokkos::subview(y, range), N, many);
  EXPECT_LE(relative_difference(host_values(many), host_values(one)), 1e-12);
}

TEST(MpiFit, RowsOfSplitsEvenly) {
  // 10 rows over 4 ranks: 3, 3, 2, 2.
  EXPECT_EQ(recur::mpi::rows_of(10, 0, 4).first, 0);
  EXPECT_EQ(recur::mpi::rows_of(10, 1, 4).first, 3);
  EXPECT_EQ(recur::mpi::rows_of(10, 2, 4).first, 6);
  EXPECT_EQ(recur::mpi::rows_of(10, 3, 4).first, 8);
  EXPECT_EQ(recur::mpi::rows_of(10, 3, 4).count, 2);
  EXPECT_EQ(recur::mpi::rows_of(2, 3, 4).count, 0);
  EXPECT_EQ(recur::mpi::rows_of(2, 3, 4).first, 2);
}

TEST(MpiFit, ErrorsReachEveryRank) {
  const int rank = rank_of(), ranks = ranks_of(), last = ranks - 1;
  const std::string on_last = ranks > 1 ? "rank " + std::to_string(last) + ": " : "";
  const int N = 4;
  Kokkos::View<double*, Space> c("c", N);
  // A wrong extent on the last rank alone.
  {
    Kokkos::View<double*, Space> x("x", 10), y("y", rank == last ? 9 : 10);
    Kokkos::deep_copy(x, 0.25);
    EXPECT_EQ(invalid_argument_message(
                  [&] { recur::mpi::fit(MPI_COMM_WORLD, Space{}, recur::Legendre{}, x, y, N, c); }),
              "recur::mpi::fit: " + on_last + "x has 10 points but y has 9; y needs one value per x");
  }
  // A NaN on the last rank: counted over all ranks.
  {
    const Data d = sample(50, -1, 1);
    auto x = device_copy(d.x, "x"), y = device_copy(d.y, "y");
    if (rank == last) Kokkos::deep_copy(Kokkos::subview(y, 7), std::nan(""));
    EXPECT_EQ(invalid_argument_message(
                  [&] { recur::mpi::fit(MPI_COMM_WORLD, Space{}, recur::Legendre{}, x, y, N, c); }),
              "recur::mpi::fit: 1 of the " + std::to_string(50 * ranks) +
                  " points have a non-finite x or y; drop those points (or give them weight 0) "
                  "before fitting");
  }
  // Too few points in all: one a rank, N = ranks + 1.
  {
    Kokkos::View<double*, Space> x("x", 1), y("y", 1), c2("c2", ranks + 1);
    EXPECT_EQ(invalid_argument_message([&] {
                recur::mpi::fit(MPI_COMM_WORLD, Space{}, recur::Legendre{}, x, y, ranks + 1, c2);
              }),
              "recur::mpi::fit: the ranks hold " + std::to_string(ranks) +
                  " points in all, fewer than N = " + std::to_string(ranks + 1) +
                  " terms; a fit needs at least N points");
  }
  // The same x everywhere: the basis is dependent at all ranks' points
  // (the message one process gives, from recur::mpi::).
  {
    Kokkos::View<double*, Space> x("x", 20), y("y", 20);
    Kokkos::deep_copy(x, 0.5);
    const std::string one = invalid_argument_message(
        [&] { recur::fit(Space{}, recur::Legendre{}, x, y, N, c); });
    ASSERT_EQ(one.rfind("recur::fit: the N = 4 basis functions are linearly dependent", 0), 0u)
        << one;
    EXPECT_EQ(invalid_argument_message(
                  [&] { recur::mpi::fit(MPI_COMM_WORLD, Space{}, recur::Legendre{}, x, y, N, c); }),
              "recur::mpi::" + one.substr(7));
  }
}

template <class Family>
void project_equals_one_process(const Family& family, int n, int N) {
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n), f("f", n);
  recur::gauss(Space{}, family, nodes, weights);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(int i) { f(i) = recur::cos(nodes(i)) + nodes(i); });
  Kokkos::View<double*, Space> one("one", N), many("many", N);
  recur::project(Space{}, family, nodes, weights, f, one);
  const recur::mpi::Rows mine = uneven(n);
  const auto range = std::make_pair(mine.first, mine.first + mine.count);
  recur::mpi::project(MPI_COMM_WORLD, Space{}, family, Kokkos::subview(nodes, range),
                      Kokkos::subview(weights, range), Kokkos::subview(f, range), many);
  EXPECT_LE(relative_difference(host_values(many), host_values(one)), 1e-12) << Family::name();
}

struct Wave {
  KOKKOS_FUNCTION double operator()(double x) const { return recur::exp(-x * x) + x; }
};

TEST(MpiProject, EqualsOneProcess) {
  project_equals_one_process(recur::Legendre{}, 40, 30);
  project_equals_one_process(recur::Laguerre{}, 30, 30);
  project_equals_one_process(recur::HermiteE{}, 33, 20);
  // A function: every rank samples its even share of the nodes.
  Kokkos::View<double*, Space> one("one", 24), many("many", 24);
  recur::project(Space{}, recur::ChebyshevT{}, Wave{}, one, 48);
  recur::mpi::project(MPI_COMM_WORLD, Space{}, recur::ChebyshevT{}, Wave{}, many, 48);
  EXPECT_LE(relative_difference(host_values(many), host_values(one)), 1e-12);
}

TEST(MpiProject, ErrorsReachEveryRank) {
  const int ranks = ranks_of();
  Kokkos::View<double*, Space> nodes("nodes", 2), weights("weights", 2), f("f", 2),
      c("c", 2 * ranks + 1);
  EXPECT_EQ(invalid_argument_message([&] {
              recur::mpi::project(MPI_COMM_WORLD, Space{}, recur::Legendre{}, nodes, weights, f, c);
            }),
            "recur::mpi::project: coefficients has N = " + std::to_string(2 * ranks + 1) +
                " rows but the ranks hold n = " + std::to_string(2 * ranks) +
                " nodes in all; an n-point rule determines 1 <= N <= n coefficients");
  Kokkos::View<double*, Space> short_f("f", rank_of() == 0 ? 1 : 2), c1("c1", 1);
  EXPECT_EQ(invalid_argument_message([&] {
              recur::mpi::project(MPI_COMM_WORLD, Space{}, recur::Legendre{}, nodes, weights,
                                  short_f, c1);
            }),
            std::string("recur::mpi::project: ") + (ranks > 1 ? "rank 0: " : "") +
                "f has 1 rows but nodes has 2 entries and weights 2; f must hold one value per "
                "node of the rule");
}

}  // namespace
