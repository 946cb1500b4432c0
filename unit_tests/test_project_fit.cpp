// recur::project and recur::fit: the coefficients of known expansions come
// back, projections of smooth functions converge, fits are least-squares
// optimal, both agree with numpy.polynomial where numpy is accurate, and bad
// calls say what to fix.
#include "test_support.hpp"

#include <Kokkos_Random.hpp>

#include <fstream>
#include <map>
#include <sstream>

namespace project_fit_test {

using namespace recur_test;

// s_k with p_k = s_k q_k, q_k orthonormal for the weight's probability
// measure: s_0 = p_0, s_{k+1} = s_k sqrt(h_{k+1} / h_k).
template <class Family>
std::vector<long double> orthonormal_scales(const Family& family, int N) {
  std::vector<long double> s(N, family.initial());
  for (int k = 1; k < N; ++k) s[k] = s[k - 1] * std::sqrt(family.norm_ratio(k - 1));
  return s;
}

// sum_k c_k p_k(x) in long double.
template <class Family>
long double expansion(const Family& family, const std::vector<long double>& c, long double x) {
  std::vector<long double> p, dp;
  reference_values(family, x, int(c.size()), p, dp);
  long double sum = 0;
  for (std::size_t k = 0; k < c.size(); ++k) sum += c[k] * p[k];
  return sum;
}

// Coefficients of like weight: c_k = u_k / s_k, u_k uniform in [-1, 1].
template <class Family>
std::vector<std::vector<long double>> balanced_coefficients(const Family& family, int N, int K) {
  std::mt19937_64 rng(7 + N + K);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto s = orthonormal_scales(family, N);
  std::vector<std::vector<long double>> c(K, std::vector<long double>(N));
  for (auto& set : c)
    for (int k = 0; k < N; ++k) set[k] = u(rng) / s[k];
  return c;
}

template <class Space, class T, class Family>
void expect_projection_recovers(const Family& family, int n, int N, int K, double tol) {
  Kokkos::View<T*, Space> nodes("nodes", n), weights("weights", n);
  recur::gauss(Space{}, family, n, nodes, weights);
  const auto x = to_host(nodes);
  const auto c = balanced_coefficients(family, N, K);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> f("f", n, K), got("c", N, K), again("c", N, K);
  auto f_host = Kokkos::create_mirror_view(f);
  double f_max = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < K; ++k) {
      f_host(i, k) = T(expansion(family, c[k], x(i)));
      f_max        = std::max(f_max, std::fabs(double(f_host(i, k))));
    }
  Kokkos::deep_copy(f, f_host);
  recur::project(Space{}, family, nodes, weights, f, got);
  recur::project(Space{}, family, f, again);  // the rule made for the call
  const auto g = to_host(got), a = to_host(again);
  const auto s = orthonormal_scales(family, N);
  double worst = 0;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) {
      worst = std::max(worst, double(std::fabs((g(j, k) - c[k][j]) * s[j])));
      EXPECT_EQ(g(j, k), a(j, k)) << Family::name() << " j=" << j;
    }
  EXPECT_LE(worst, tol * f_max) << Family::name() << " n=" << n << " N=" << N << " K=" << K;

  // K = 1 through the rank-1 overload (gemv).
  Kokkos::View<T*, Space> f1("f1", n), c1("c1", N);
  Kokkos::deep_copy(f1, Kokkos::subview(f, Kokkos::ALL, 0));
  recur::project(Space{}, family, nodes, weights, f1, c1);
  const auto g1 = to_host(c1);
  for (int j = 0; j < N; ++j)
    EXPECT_NEAR(double(g1(j)), double(g(j, 0)), tol * f_max / double(s[j])) << Family::name();
}

// The coefficients of q_k (orthonormal) within tol * max |f|: rounding f
// alone moves them by eps |f| (sum_i w_i |q_k(x_i)| / mass <= 1), and the sum
// over n nodes adds sqrt(n) eps; tol = 4 sqrt(n) eps.
template <class Space, class T>
void expect_projections(double eps) {
  for (const auto [n, N, K] : {std::tuple{24, 16, 3}, std::tuple{12, 12, 1}}) {
    const double tol = 4 * std::sqrt(n) * eps;
    expect_projection_recovers<Space, T>(recur::Legendre{}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::ChebyshevT{}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::ChebyshevU{}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::HermiteE{}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::Hermite{}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::Laguerre{1.5}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::Jacobi{0.5, -0.3}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::Gegenbauer{1.5}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::LegendreNormalized{}, n, N, K, tol);
    expect_projection_recovers<Space, T>(recur::HermiteNormalized{}, n, N, K, tol);
  }
}

TEST(Project, RecoversTheCoefficientsOfPolynomials) {
#ifdef KOKKOS_ENABLE_CUDA
  expect_projections<Kokkos::Cuda, double>(0x1p-53);
  expect_projections<Kokkos::Cuda, float>(0x1p-24);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  expect_projections<Kokkos::OpenMP, double>(0x1p-53);
  expect_projections<Kokkos::OpenMP, float>(0x1p-24);
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  expect_projections<Kokkos::Serial, double>(0x1p-53);
#endif
}

// Smooth functions: the projection's series matches the function, e^x in
// Legendre and 1 / (2 - x) in Chebyshev T (coefficients decay like
// (2 - sqrt 3)^k), at points off the nodes, within 4 n eps: n rounded
// coefficients, each carrying a few eps of max |f|.
template <class Family, class F>
void expect_converged(const Family& family, int n, F function, double tol) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n), f("f", n), c("c", n);
  recur::gauss(Space{}, family, n, nodes, weights);
  const auto x = to_host(nodes);
  auto f_host  = Kokkos::create_mirror_view(f);
  for (int i = 0; i < n; ++i) f_host(i) = function(x(i));
  Kokkos::deep_copy(f, f_host);
  recur::project(Space{}, family, nodes, weights, f, c);
  const auto coefficients = to_host(c);
  std::vector<long double> cl(coefficients.data(), coefficients.data() + n);
  double worst = 0;
  for (const double t : sample_points<double>(200, 1.0))
    worst = std::max(worst, std::fabs(double(expansion(family, cl, t)) - function(t)) /
                                std::fabs(function(t)));
  EXPECT_LE(worst, tol) << Family::name();
}

TEST(Project, SeriesOfSmoothFunctionsConverge) {
  expect_converged(recur::Legendre{}, 30, [](double t) { return std::exp(t); }, 4 * 30 * 0x1p-52);
  expect_converged(recur::ChebyshevT{}, 40, [](double t) { return 1 / (2 - t); }, 4 * 40 * 0x1p-52);
}

TEST(Project, BadCallsSayWhatToFix) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> nodes("nodes", 5), weights("weights", 5), f("f", 5), c6("c", 6),
      f4("f4", 4), empty("empty", 0), c1("c1", 1);
  Kokkos::View<double**, Space> F("F", 5, 2), C("C", 3, 3);
  EXPECT_EQ(invalid_argument_message(
                [&] { recur::project(Space{}, recur::Legendre{}, nodes, weights, f, c6); }),
            "recur::project: coefficients has N = 6 rows but the rule has n = 5 nodes; an "
            "n-point rule determines 1 <= N <= n coefficients");
  EXPECT_EQ(invalid_argument_message(
                [&] { recur::project(Space{}, recur::Legendre{}, nodes, weights, f4, c1); }),
            "recur::project: f has 4 rows but nodes has 5 entries and weights 5; f must hold "
            "one value per node of the rule");
  EXPECT_EQ(invalid_argument_message(
                [&] { recur::project(Space{}, recur::Legendre{}, nodes, weights, F, C); }),
            "recur::project: f has 2 columns but coefficients has 3; both have one column per "
            "function");
  EXPECT_EQ(invalid_argument_message(
                [&] { recur::project(Space{}, recur::Legendre{}, empty, c1); }),
            "recur::project: f is empty; it needs n >= 1 values");
}

// y = sum_k c_k p_k(x) at M points of [lo, hi]: the fit gives c back. The
// error of c_k is weighed by the RMS of p_k over the points, relative to the
// largest such term (a basis-independent measure).
template <class Space, class T, class Family>
void expect_fit_recovers(const Family& family, double lo, double hi, int M, int N, int K,
                         bool weighted, double tol) {
  std::mt19937_64 rng(M + N);
  std::uniform_real_distribution<double> u(lo, hi), weight(0.5, 2);
  std::vector<T> xs(M), ws(M);
  for (auto& v : xs) v = T(u(rng));
  for (auto& v : ws) v = T(weight(rng));
  std::vector<std::vector<long double>> c(K, std::vector<long double>(N));
  std::vector<double> rms(N, 0);
  std::vector<long double> p, dp;
  for (int i = 0; i < M; ++i) {
    reference_values(family, xs[i], N, p, dp);
    for (int k = 0; k < N; ++k) rms[k] += double(p[k] * p[k]) / M;
  }
  std::uniform_real_distribution<double> unit(-1, 1);
  for (auto& set : c)
    for (int k = 0; k < N; ++k) set[k] = unit(rng) / std::sqrt(rms[k]);
  const auto x = to_device<Kokkos::View<T*, Space>>(xs);
  const auto w = to_device<Kokkos::View<T*, Space>>(ws);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> y("y", M, K), got("c", N, K);
  auto y_host = Kokkos::create_mirror_view(y);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) y_host(i, k) = T(expansion(family, c[k], xs[i]));
  Kokkos::deep_copy(y, y_host);
  if (weighted)
    recur::fit(Space{}, family, x, y, N, got, w);
  else
    recur::fit(Space{}, family, x, y, N, got);
  const auto g = to_host(got);
  double worst = 0;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      worst = std::max(worst, double(std::fabs(g(j, k) - c[k][j])) * std::sqrt(rms[j]));
  EXPECT_LE(worst, tol) << Family::name() << " M=" << M << " N=" << N << " K=" << K
                        << (weighted ? " weighted" : "");
}

template <class Space, class T>
void expect_fits(double tol) {
  for (const bool weighted : {false, true}) {
    expect_fit_recovers<Space, T>(recur::Legendre{}, -1, 1, 300, 10, 2, weighted, tol);
    expect_fit_recovers<Space, T>(recur::ChebyshevT{}, -1, 1, 300, 10, 1, weighted, tol);
    expect_fit_recovers<Space, T>(recur::HermiteE{}, -3, 3, 300, 10, 2, weighted, tol);
    expect_fit_recovers<Space, T>(recur::Hermite{}, -2, 2, 300, 10, 1, weighted, tol);
    expect_fit_recovers<Space, T>(recur::Laguerre{0.5}, 0, 10, 300, 10, 1, weighted, tol);
    expect_fit_recovers<Space, T>(recur::JacobiNormalized{0.5, -0.3}, -1, 1, 300, 10, 1,
                                  weighted, tol);
    expect_fit_recovers<Space, T>(recur::Monomials{}, -1, 1, 300, 8, 1, weighted, tol);
    expect_fit_recovers<Space, T>(recur::PowerSums{}, -0.9, 0.9, 300, 8, 1, weighted, tol);
    expect_fit_recovers<Space, T>(recur::HermiteFunction{}, -4, 4, 300, 10, 1, weighted, tol);
  }
  // Several TSQR levels (blocks of 256 rows: 20 000 -> 79 x 6 -> 2 x 6 -> 1).
  expect_fit_recovers<Space, T>(recur::LegendreNormalized{}, -1, 1, 20000, 6, 1, true, tol);
  // 33 and 36 columns: every column tile of the GPU's warp QR (tiles of 8;
  // 36 is the most it takes), with the data columns in the last tile.
  expect_fit_recovers<Space, T>(recur::LegendreNormalized{}, -1, 1, 5000, 32, 1, true, tol);
  expect_fit_recovers<Space, T>(recur::Legendre{}, -1, 1, 3000, 33, 3, false, tol);
  // Exactly determined, fewer rows than one block's triangle.
  expect_fit_recovers<Space, T>(recur::ChebyshevT{}, -1, 1, 7, 7, 1, false, 100 * tol);
  // Monomials of degree 15 on [0, 1]: condition number 1.4e11, so the normal
  // equations (1.4e11 squared) would lose every digit; QR loses 11.
  if constexpr (std::is_same_v<T, double>)
    expect_fit_recovers<Space, T>(recur::Monomials{}, 0, 1, 1000, 16, 1, false, 1e-3);
}

// Double: rounding times the basis' condition number at the points. Float:
// y itself is rounded to 6e-8, and Laguerre's basis sampled uniformly on
// [0, 10] has a condition number near 500.
TEST(Fit, RecoversTheCoefficientsOfNoiselessData) {
#ifdef KOKKOS_ENABLE_CUDA
  expect_fits<Kokkos::Cuda, double>(1e-12);
  expect_fits<Kokkos::Cuda, float>(1e-4);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  expect_fits<Kokkos::OpenMP, double>(1e-12);
  expect_fits<Kokkos::OpenMP, float>(1e-4);
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  expect_fits<Kokkos::Serial, double>(1e-12);
#endif
}

// Noisy data: the residual r = y - V c is orthogonal to every basis function
// in the weighted inner product, |sum_i w_i^2 r_i q_k(x_i)| <= tol |W r| |W q_k|
// (Cauchy-Schwarz scale), which only the least-squares solution satisfies.
TEST(Fit, ResidualIsOrthogonalToTheBasis) {
  using Space = Kokkos::DefaultExecutionSpace;
  const int M = 5000, N = 12;
  const recur::Legendre family;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1), weight(0.5, 2);
  std::normal_distribution<double> noise(0, 0.05);
  std::vector<double> xs(M), ys(M), ws(M);
  for (int i = 0; i < M; ++i) {
    xs[i] = u(rng);
    ys[i] = std::exp(xs[i]) * std::sin(4 * xs[i]) + noise(rng);
    ws[i] = weight(rng);
  }
  using Vector = Kokkos::View<double*, Space>;
  const auto x = to_device<Vector>(xs), y = to_device<Vector>(ys), w = to_device<Vector>(ws);
  Vector c("c", N);
  recur::fit(Space{}, family, x, y, N, c, w);
  const auto ch = to_host(c);
  std::vector<long double> cl(ch.data(), ch.data() + N);
  std::vector<long double> r(M);
  long double r_norm = 0;
  for (int i = 0; i < M; ++i) {
    r[i] = ys[i] - expansion(family, cl, xs[i]);
    r_norm += ws[i] * ws[i] * r[i] * r[i];
  }
  std::vector<long double> p, dp;
  std::vector<long double> dot(N, 0), q_norm(N, 0);
  for (int i = 0; i < M; ++i) {
    reference_values(family, xs[i], N, p, dp);
    for (int k = 0; k < N; ++k) {
      dot[k] += ws[i] * ws[i] * r[i] * p[k];
      q_norm[k] += ws[i] * ws[i] * p[k] * p[k];
    }
  }
  for (int k = 0; k < N; ++k)
    EXPECT_LE(double(std::fabs(dot[k]) / std::sqrt(r_norm * q_norm[k])), 1e-12) << "k=" << k;
}

TEST(Fit, BadCallsSayWhatToFix) {
  using Space  = Kokkos::DefaultExecutionSpace;
  using Vector = Kokkos::View<double*, Space>;
  Vector x("x", 5), y("y", 5), y4("y4", 4), c3("c", 3), c6("c", 6), w("w", 5), w4("w4", 4);
  const recur::Legendre legendre;
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y4, 3, c3); }),
            "recur::fit: x has 5 points but y has 4; y needs one value per x");
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 4, c3); }),
            "recur::fit: coefficients has 3 rows; it must have N = 4");
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 0, c3); }),
            "recur::fit: N = 0 terms; N must be at least 1");
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 6, c6); }),
            "recur::fit: x has 5 points, fewer than N = 6 terms; a fit needs at least N points");
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 3, c3, w4); }),
            "recur::fit: weights has 4 entries but x has 5; one weight per point");

  // Two distinct points cannot determine three terms.
  auto xh = Kokkos::create_mirror_view(x), wh = Kokkos::create_mirror_view(w);
  for (int i = 0; i < 5; ++i) xh(i) = i % 2 ? 0.5 : -0.25, wh(i) = 1;
  Kokkos::deep_copy(x, xh);
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 3, c3); }),
            "recur::fit: the N = 3 basis functions are linearly dependent at these points "
            "(term 2 is, to rounding, a combination of the lower ones); fit fewer terms or "
            "sample more distinct x");

  xh(3) = std::nan("");
  wh(1) = -1;
  Kokkos::deep_copy(x, xh);
  Kokkos::deep_copy(w, wh);
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 3, c3); }),
            "recur::fit: 1 of the 5 points have a non-finite x or y; drop those points (or "
            "give them weight 0) before fitting");
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(Space{}, legendre, x, y, 3, c3, w); }),
            "recur::fit: 2 of the 5 points have a non-finite x or y or a negative or "
            "non-finite weight; drop those points (or give them weight 0) before fitting");
}

// numpy.polynomial on the same cases (unit_tests/reference/numpy_rules_fits.py).
std::ifstream open_reference(const std::string& name) {
  std::ifstream in(reference_dir() + "/" + name);
  EXPECT_TRUE(in.good()) << "cannot read " << name;
  return in;
}

template <class Run>
void for_each_block(std::ifstream& in, const std::string& kind, Run run) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream header(line);
    std::string word, name;
    header >> word >> name;
    ASSERT_EQ(word, kind) << line;
    run(name, header, in);
  }
}

template <class Family>
void expect_numpy_rule(const Family& family, int n, std::ifstream& in) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n);
  recur::gauss(Space{}, family, n, nodes, weights);
  const auto x = to_host(nodes), w = to_host(weights);
  std::vector<double> xn(n), wn(n);
  for (int i = 0; i < n; ++i) in >> xn[i] >> wn[i];
  const double top = *std::max_element(wn.begin(), wn.end());
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(x(i), xn[i], 1e-14 * (1 + std::fabs(xn[i]))) << Family::name() << " n=" << n;
    // (numpy's own weights are off by up to 2.2e-12 relative at n = 60:
    // Legendre's outermost, against mpmath; recur's by 7e-14.)
    EXPECT_NEAR(w(i), wn[i], 1e-14 * top + 1e-11 * wn[i]) << Family::name() << " n=" << n;
  }
}

TEST(Numpy, GaussRulesAgree) {
  auto in    = open_reference("numpy_gauss.txt");
  int blocks = 0;
  for_each_block(in, "rule", [&](const std::string& name, std::istream& header, std::ifstream& data) {
    int n = 0;
    header >> n;
    ++blocks;
    if (name == "legendre") expect_numpy_rule(recur::Legendre{}, n, data);
    else if (name == "chebyshev_t") expect_numpy_rule(recur::ChebyshevT{}, n, data);
    else if (name == "hermite") expect_numpy_rule(recur::Hermite{}, n, data);
    else if (name == "hermite_e") expect_numpy_rule(recur::HermiteE{}, n, data);
    else if (name == "laguerre") expect_numpy_rule(recur::Laguerre{}, n, data);
    else FAIL() << "unknown rule " << name;
  });
  EXPECT_EQ(blocks, 15);
}

template <class Family>
void expect_numpy_fit(const Family& family, int M, int degree, std::ifstream& in) {
  using Space  = Kokkos::DefaultExecutionSpace;
  using Vector = Kokkos::View<double*, Space>;
  std::vector<double> xs(M), ys(M), ws(M), numpy(degree + 1);
  for (int i = 0; i < M; ++i) in >> xs[i] >> ys[i] >> ws[i];
  for (auto& c : numpy) in >> c;
  const auto x = to_device<Vector>(xs), y = to_device<Vector>(ys), w = to_device<Vector>(ws);
  Vector c("c", degree + 1);
  recur::fit(Space{}, family, x, y, degree + 1, c, w);
  const auto got = to_host(c);
  double top = 0;
  for (const double v : numpy) top = std::max(top, std::fabs(v));
  for (int k = 0; k <= degree; ++k)
    EXPECT_NEAR(got(k), numpy[k], 1e-11 * top) << Family::name() << " k=" << k;
}

TEST(Numpy, WeightedFitsAgree) {
  auto in    = open_reference("numpy_fit.txt");
  int blocks = 0;
  for_each_block(in, "fit", [&](const std::string& name, std::istream& header, std::ifstream& data) {
    int M = 0, degree = 0;
    header >> M >> degree;
    ++blocks;
    if (name == "legendre") expect_numpy_fit(recur::Legendre{}, M, degree, data);
    else if (name == "chebyshev_t") expect_numpy_fit(recur::ChebyshevT{}, M, degree, data);
    else if (name == "hermite") expect_numpy_fit(recur::Hermite{}, M, degree, data);
    else if (name == "hermite_e") expect_numpy_fit(recur::HermiteE{}, M, degree, data);
    else if (name == "laguerre") expect_numpy_fit(recur::Laguerre{}, M, degree, data);
    else if (name == "monomials") expect_numpy_fit(recur::Monomials{}, M, degree, data);
    else FAIL() << "unknown fit " << name;
  });
  EXPECT_EQ(blocks, 6);
}

#ifdef RECUR_ENABLE_KOKKOSKERNELS
// recur's own V^T G (used without Kokkos Kernels) against Kokkos Kernels'.
TEST(Project, TransposeProductWithoutKokkosKernelsAgrees) {
  using Space  = Kokkos::DefaultExecutionSpace;
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Space>;
  Matrix A("A", 50, 7), G("G", 50, 3), blas("blas", 7, 3), own("own", 7, 3);
  Kokkos::Random_XorShift64_Pool<Space> pool(5);
  Kokkos::fill_random(A, pool, -1.0, 1.0);
  Kokkos::fill_random(G, pool, -1.0, 1.0);
  recur::impl::transpose_product(Space{}, A, G, blas, true);
  recur::impl::transpose_product(Space{}, A, G, own, false);
  const auto b = to_host(blas), o = to_host(own);
  for (int n = 0; n < 7; ++n)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(b(n, k), o(n, k), 1e-13) << n << "," << k;
}
#endif

}  // namespace project_fit_test
