// The edges of the ranges (reference/edges.txt, made by `generate.py --edges`
// with mpmath): values and derivatives that leave float's and double's range
// (|x| > 1 for the Jacobi-type families at N >= 1000, large |x| for Hermite,
// Laguerre, power sums), a double x with a float V, HermiteFunction where its
// Gaussian underflows, and parameters near their limits, through every policy,
// dV and series. Then: a row's bits do not depend on the policy, its position
// in the batch, the batch's chunking or the precision x came in; NaN and x
// outside the domain give NaN rows.
//
// Judging a value p_n(x) (reference r, local = max |p_m| over m = n-1..n+1,
// the scale of a recurrence's rounding), in V's type T with largest value R:
//  - |r| beyond R: the result is inf with r's sign;
//  - |r| inside R: the result is finite and within tol(N) local of r, unless
//    that bound itself reaches R (a value near a zero of a row whose
//    neighbours are beyond R), where it must only not be NaN.
#include "test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace edges_test {

using namespace recur_test;

struct EdgeEntry {
  int n;
  long double value, derivative, local, dlocal;
};
struct EdgeCase {
  std::string family;
  double alpha = 0, beta = 0, lambda = 0, x = 0;
  int N = 0;
  std::vector<EdgeEntry> entries;
};

std::vector<EdgeCase> read_edges() {
  std::vector<EdgeCase> cases;
  std::ifstream in(reference_dir() + "/edges.txt");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (line.rfind("# case", 0) == 0) {
      std::string hash, key, x;
      int id;
      EdgeCase c;
      words >> hash >> key >> id >> c.family >> c.alpha >> c.beta >> c.lambda >> x >> c.N;
      c.x = std::strtod(x.c_str(), nullptr);
      cases.push_back(c);
    } else if (!line.empty() && line[0] != '#') {
      std::string id, n, v, d, l, dl;
      words >> id >> n >> v >> d >> l >> dl;
      cases.back().entries.push_back({std::atoi(n.c_str()), std::strtold(v.c_str(), nullptr),
                                      std::strtold(d.c_str(), nullptr),
                                      std::strtold(l.c_str(), nullptr),
                                      std::strtold(dl.c_str(), nullptr)});
    }
  }
  return cases;
}

// What is wrong with `got` against reference r (empty when right).
template <class T>
std::string judge(T got, long double r, long double local, int N) {
  const long double R = std::numeric_limits<T>::max();
  if (std::isnan(got)) return "NaN";
  if (std::fabs(r) > R * (1 + 1e-6L)) {
    if (std::isinf(got) && std::signbit(got) == std::signbit(r)) return "";
    return "not inf with the sign of the value beyond the range";
  }
  if (std::fabs(r) > R) return "";  // rounds to R or to inf
  const long double bound =
      tolerance<T>(N) * std::max<long double>(local, std::numeric_limits<T>::min());
  if (bound >= R / 4) return "";
  if (!std::isfinite(got)) return "not finite although representable";
  if (std::fabs(got - r) > bound) return "error above tolerance";
  return "";
}

// Appends to `path`: family, parameters, x, N, T, the worst error in units in
// the last place of the value (over values inside T's range, away from zeros
// of the row: |p_n| at least half its neighbours'), and how many values were
// beyond T's range (±inf).
template <class T, class Host>
void write_report(const char* path, const EdgeCase& c, const Host& h) {
  const long double R = std::numeric_limits<T>::max();
  double worst = 0;
  int beyond   = 0;
  for (const EdgeEntry& e : c.entries) {
    if (std::fabs(e.value) > R) {
      ++beyond;
      continue;
    }
    if (std::fabs(e.value) < e.local / 2 || std::fabs(e.value) < std::numeric_limits<T>::min())
      continue;
    const long double ulp =
        std::ldexp(1.0L, std::ilogb(e.value) - (std::numeric_limits<T>::digits - 1));
    worst = std::max(worst, double(std::fabs(h(0, e.n) - e.value) / ulp));
  }
  std::ofstream out(path, std::ios::app);
  out << c.family << '\t' << c.alpha << '\t' << c.beta << '\t' << c.lambda << '\t' << c.x
      << '\t' << c.N << '\t' << (std::is_same_v<T, float> ? "float" : "double") << '\t'
      << worst << '\t' << beyond << '\n';
}

// Evaluates case c into V (one row, the case's x) with each policy, with
// derivatives, and as series with unit coefficient columns (Y(0, k) =
// p_{n_k}(x)); every value is judged.
template <class T, class Layout>
void check_case(const EdgeCase& c) {
  using Space = Kokkos::DefaultExecutionSpace;
  const Space space;
  Kokkos::View<double*, Space> x("x", 1);
  Kokkos::deep_copy(x, c.x);
  Kokkos::View<T**, Layout, Space> V("V", 1, c.N), dV("dV", 1, c.N);
  const int K = int(c.entries.size());
  Kokkos::View<T**, Layout, Space> C("C", c.N, K), Y("Y", 1, K), dY("dY", 1, K);
  {
    auto hC = Kokkos::create_mirror_view(C);
    for (int k = 0; k < K; ++k) hC(c.entries[k].n, k) = 1;
    Kokkos::deep_copy(C, hC);
  }
  const std::string what = c.family + " x=" + std::to_string(c.x) + " N=" +
                           std::to_string(c.N) + (std::is_same_v<T, float> ? " float" : " double");
  const auto check_row = [&](const auto& host, bool derivative, const std::string& how) {
    int wrong = 0;
    std::string first;
    for (const EdgeEntry& e : c.entries) {
      const std::string why =
          derivative ? judge<T>(host(0, e.n), e.derivative, e.dlocal, c.N)
                     : judge<T>(host(0, e.n), e.value, e.local, c.N);
      if (!why.empty() && wrong++ == 0)
        first = "n=" + std::to_string(e.n) + " got " + std::to_string(double(host(0, e.n))) +
                ": " + why;
    }
    EXPECT_EQ(wrong, 0) << what << " " << how << (derivative ? " derivative" : "") << ", first "
                        << first;
  };
  with_family(c.family, c.alpha, c.beta, c.lambda, [&](const auto& family) {
    recur::evaluate(space, family, x, V, recur::ThreadPerX{});
    check_row(to_host(V), false, "ThreadPerX");
    if (const char* report = std::getenv("RECUR_EDGES_REPORT");
        report && std::is_same_v<Layout, Kokkos::LayoutRight>)
      write_report<T>(report, c, to_host(V));
    recur::evaluate(space, family, x, V, recur::Staged{});
    check_row(to_host(V), false, "Staged");
    recur::evaluate(space, family, x, V, recur::ScanAlongN{7});
    check_row(to_host(V), false, "ScanAlongN{7}");
    recur::evaluate(space, family, x, V);
    check_row(to_host(V), false, "Auto");
    recur::evaluate(space, family, x, V, dV);
    check_row(to_host(V), false, "with dV");
    check_row(to_host(dV), true, "with dV");
    recur::series(space, family, C, x, Y, dY);
    const auto hY = to_host(Y), hdY = to_host(dY);
    int wrong = 0;
    for (int k = 0; k < K; ++k) {
      const EdgeEntry& e = c.entries[k];
      const std::string why = judge<T>(hY(0, k), e.value, e.local, c.N) +
                              judge<T>(hdY(0, k), e.derivative, e.dlocal, c.N);
      wrong += !why.empty();
      if (!why.empty() && wrong == 1)
        ADD_FAILURE() << what << " series n=" << e.n << " got " << double(hY(0, k)) << ", "
                      << double(hdY(0, k)) << ": " << why;
    }
  });
}

TEST(Edges, ValuesBeyondTheRangeAreSignedInfinitiesAndTheRestIsRight) {
  const auto cases = read_edges();
  ASSERT_GE(cases.size(), 20u) << "reference data missing: " << reference_dir() << "/edges.txt";
  for (const EdgeCase& c : cases) {
    check_case<float, Kokkos::LayoutRight>(c);
    check_case<double, Kokkos::LayoutRight>(c);
    check_case<float, Kokkos::LayoutLeft>(c);
    check_case<double, Kokkos::LayoutLeft>(c);
  }
}

// The same x gives the same bits whatever the policy (ScanAlongN aside: it
// composes chunk matrices), the row's position in a batch (the lanes of a
// lockstep block), the batch's length (a chunk of a stream) and whether x
// came as float or as the same number in double.
template <class T, class Layout, class Family>
void expect_same_bits(const Family& family, const std::vector<double>& values) {
  using Space = Kokkos::DefaultExecutionSpace;
  const Space space;
  const int N = 300;
  const int M = 37;  // every lane position of blocks of 8, 4 and 2, and a tail
  std::vector<double> xs(M);
  std::vector<float> xf(M);
  for (int i = 0; i < M; ++i) xs[i] = values[std::size_t(i) % values.size()];
  for (int i = 0; i < M; ++i) xf[i] = float(xs[i]);
  const auto x  = to_device<Kokkos::View<double*, Space>>(xs);
  using VView   = Kokkos::View<T**, Layout, Space>;
  VView reference("reference", M, N);
  recur::evaluate(space, family, x, reference, recur::ThreadPerX{});
  const auto ref = to_host(reference);
  const std::string what = std::string(Family::name()) + (std::is_same_v<T, float> ? " float" : " double");
  for (int i = 0; i < M; ++i) {  // one x at a time, as a stream of chunks of 1
    VView one("one", 1, N);
    recur::evaluate(space, family, Kokkos::subview(x, std::make_pair(i, i + 1)), one);
    const auto h = to_host(one);
    int differences = 0;
    for (int n = 0; n < N; ++n) {
      const T a = h(0, n), b = ref(i, n);
      differences += !(a == b || (std::isnan(a) && std::isnan(b)));
    }
    EXPECT_EQ(differences, 0) << what << " row " << i << " alone";
  }
  for (const int first : {1, 3, 5, 8}) {  // batches starting at other lanes
    VView part("part", M - first, N);
    recur::evaluate(space, family, Kokkos::subview(x, std::make_pair(first, M)), part,
                    recur::Staged{});
    EXPECT_EQ(count_differences(to_host(part),
                                Kokkos::subview(ref, std::make_pair(first, M), Kokkos::ALL)),
              0)
        << what << " rows from " << first << ", Staged";
  }
  VView auto_chosen("auto", M, N);
  recur::evaluate(space, family, x, auto_chosen);
  EXPECT_EQ(count_differences(to_host(auto_chosen), ref), 0) << what << " Auto";
  // x as float: the values of the float numbers, exactly.
  std::vector<double> widened(xf.begin(), xf.end());
  VView from_double("from_double", M, N), from_float("from_float", M, N);
  recur::evaluate(space, family, to_device<Kokkos::View<double*, Space>>(widened), from_double);
  recur::evaluate(space, family, to_device<Kokkos::View<float*, Space>>(xf), from_float);
  EXPECT_EQ(count_differences(to_host(from_double), to_host(from_float)), 0)
      << what << " x as float against the same numbers in double";
}

template <class T, class Layout>
void same_bits_everywhere() {
  const std::vector<double> xs = {0.7315489, -0.999999, 1.3, -2.0, 0.1, 1e-5, 0.999, -1.001};
  expect_same_bits<T, Layout>(recur::PowerSums{}, xs);
  expect_same_bits<T, Layout>(recur::Legendre{}, xs);
  expect_same_bits<T, Layout>(recur::HermiteENormalized{}, {0.5, -3.25, 12.0, 30.0, -7.0});
  expect_same_bits<T, Layout>(recur::HermiteFunction{}, {0.5, -3.25, 27.0, 40.0, -7.0});
  expect_same_bits<T, Layout>(recur::JacobiNormalized{0.5, -0.5}, xs);
}

TEST(Edges, ARowsBitsDependOnItsXAlone) {
  same_bits_everywhere<float, Kokkos::LayoutLeft>();
  same_bits_everywhere<float, Kokkos::LayoutRight>();
  same_bits_everywhere<double, Kokkos::LayoutLeft>();
  same_bits_everywhere<double, Kokkos::LayoutRight>();
}

// NaN in x, ±inf, and |x| beyond 2^256 (the domain): NaN in every entry of
// that row, values and derivatives, every policy; the other rows untouched.
template <class T, class Family>
void expect_nan_rows(const Family& family) {
  using Space = Kokkos::DefaultExecutionSpace;
  const Space space;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> xs = {0.5, nan, -inf, inf, 0x1p257, -0x1p300, 0.25, 0x1p255};
  const std::vector<bool> bad  = {false, true, true, true, true, true, false, false};
  const auto x = to_device<Kokkos::View<double*, Space>>(xs);
  const int M = int(xs.size()), N = 40;
  Kokkos::View<T**, Space> V("V", M, N), dV("dV", M, N);
  Kokkos::View<T**, Space> C("C", N, 1), Y("Y", M, 1);
  Kokkos::deep_copy(C, T(0.5));
  const auto check = [&](const auto& h, const std::string& how) {
    int wrong = 0;
    for (int i = 0; i < M; ++i)
      for (int n = 0; n < int(h.extent(1)); ++n)
        wrong += bad[i] ? !std::isnan(h(i, n)) : std::isnan(h(i, n));
    EXPECT_EQ(wrong, 0) << Family::name() << " " << how;
  };
  recur::evaluate(space, family, x, V, recur::ThreadPerX{});
  check(to_host(V), "ThreadPerX");
  recur::evaluate(space, family, x, V, recur::Staged{});
  check(to_host(V), "Staged");
  recur::evaluate(space, family, x, V, recur::ScanAlongN{7});
  check(to_host(V), "ScanAlongN");
  recur::evaluate(space, family, x, V, dV);
  check(to_host(V), "with dV");
  check(to_host(dV), "dV");
  recur::series(space, family, C, x, Y);
  check(to_host(Y), "series");
}

TEST(Edges, NanAndXOutsideTheDomainGiveNanRows) {
  expect_nan_rows<float>(recur::PowerSums{});
  expect_nan_rows<double>(recur::PowerSums{});
  expect_nan_rows<float>(recur::HermiteE{});
  expect_nan_rows<double>(recur::LegendreNormalized{});
  expect_nan_rows<double>(recur::HermiteFunction{});
  expect_nan_rows<float>(recur::Laguerre{0.5});
}

// Each weighted family at and near its parameters' limits, end to end: its
// Gauss rule integrates the orthonormal products exactly, projecting and
// fitting a known expansion give its coefficients back (the fit at the nodes
// of a 40-point rule, each residual weighted by the square root of its Gauss
// weight: then the orthonormal basis is orthonormal at the points, and the
// least-squares problem perfectly conditioned, whatever the parameters).
template <class Family>
void expect_works_at_limits(const Family& family) {
  using Space = Kokkos::DefaultExecutionSpace;
  const Space space;
  const int n = 12, N = 6;
  const std::string what = std::string(Family::name());
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n);
  recur::gauss(space, family, n, nodes, weights);
  Kokkos::View<double**, Kokkos::LayoutLeft, Space> Q("Q", n, n);
  recur::evaluate(space, recur::impl::orthonormal(family), nodes, Q);
  const auto hq = to_host(Q);
  const auto hw = to_host(weights);
  const double mass = double(family.total_mass());
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int k = 0; j + k < 2 * n - 1 && k < n; ++k) {
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += hw(i) * hq(i, j) * hq(i, k) / mass;
      const double error = std::fabs(sum - (j == k));
      if (!(error <= worst)) worst = error;  // NaN too
    }
  EXPECT_LE(worst, 1e-12) << what << " Gauss rule";

  // f = sum_k c_k p_k, at the nodes and at points of the support.
  std::vector<double> c(N);
  for (int k = 0; k < N; ++k) c[std::size_t(k)] = 0.5 + 0.25 * k - 0.125 * k * k;
  Kokkos::View<double**, Space> C("C", N, 1);
  {
    auto h = Kokkos::create_mirror_view(C);
    for (int k = 0; k < N; ++k) h(k, 0) = c[std::size_t(k)];
    Kokkos::deep_copy(C, h);
  }
  const int M = 40;
  Kokkos::View<double*, Space> x("x", M), w("w", M);
  recur::gauss(space, family, M, x, w);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(space, 0, M), KOKKOS_LAMBDA(int i) { w(i) = recur::sqrt(w(i)); });
  Kokkos::View<double**, Space> fn("fn", n, 1), fx("fx", M, 1);
  recur::series(space, family, C, nodes, fn);
  recur::series(space, family, C, x, fx);
  Kokkos::View<double*, Space> projected("projected", N), fitted("fitted", N);
  recur::project(space, family, nodes, weights, Kokkos::subview(fn, Kokkos::ALL, 0), projected);
  recur::fit(space, family, x, Kokkos::subview(fx, Kokkos::ALL, 0), N, fitted, w);
  const auto hp = to_host(projected), hf = to_host(fitted);
  for (int k = 0; k < N; ++k) {
    EXPECT_NEAR(hp(k), c[std::size_t(k)], 1e-10) << what << " project, k = " << k;
    EXPECT_NEAR(hf(k), c[std::size_t(k)], 1e-10) << what << " fit, k = " << k;
  }
}

TEST(Edges, WeightedFamiliesWorkAtTheirParameterLimits) {
  expect_works_at_limits(recur::Laguerre{-0.999});
  expect_works_at_limits(recur::LaguerreNormalized{-0.999});
  expect_works_at_limits(recur::Laguerre{100});
  expect_works_at_limits(recur::Jacobi{-0.999, -0.999});
  expect_works_at_limits(recur::JacobiNormalized{-0.999, 5});
  expect_works_at_limits(recur::Jacobi{40, -0.5});
  expect_works_at_limits(recur::Gegenbauer{-0.499});
  expect_works_at_limits(recur::GegenbauerNormalized{-0.499});
  expect_works_at_limits(recur::GegenbauerNormalized{1e-6});
  expect_works_at_limits(recur::GegenbauerNormalized{0});
}

// Gegenbauer at lambda = 0: C_n^(0) = 0 for n >= 1, but its weight
// (1 - x²)^(-1/2) has a Gauss rule (Chebyshev's) and orthonormal polynomials
// (GegenbauerNormalized{0} is ChebyshevTNormalized, bit for bit); coefficients
// in the vanishing basis itself do not exist, and project and fit say so.
TEST(Edges, GegenbauerAtLambdaZero) {
  using Space = Kokkos::DefaultExecutionSpace;
  const Space space;
  const int n = 9;
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n);
  recur::gauss(space, recur::Gegenbauer{0}, n, nodes, weights);
  const auto hn = to_host(nodes), hw = to_host(weights);
  const double pi = std::acos(-1.0);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(hn(i), -std::cos((2 * i + 1) * pi / (2 * n)), 1e-15);
    EXPECT_NEAR(hw(i), pi / n, 1e-14);
  }
  const auto x = to_device<Kokkos::View<double*, Space>>({-0.9, -0.3, 0.2, 0.7, 1.5});
  Kokkos::View<double**, Space> a("a", 5, 40), b("b", 5, 40);
  recur::evaluate(space, recur::GegenbauerNormalized{0}, x, a);
  recur::evaluate(space, recur::ChebyshevTNormalized{}, x, b);
  EXPECT_EQ(count_differences(to_host(a), to_host(b)), 0);
  Kokkos::View<double*, Space> f("f", n), c("c", 3), y("y", 5);
  Kokkos::deep_copy(f, 1.0);
  Kokkos::deep_copy(y, 1.0);
  const std::string expected =
      "recur::project: Gegenbauer's p_1 is identically 0 (its leading coefficient vanishes for "
      "these parameters), so no coefficients of N = 3 terms in it exist; use N = 1, or its "
      "orthonormal variant GegenbauerNormalized";
  EXPECT_EQ(invalid_argument_message(
                [&] { recur::project(space, recur::Gegenbauer{0}, nodes, weights, f, c); }),
            expected);
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(space, recur::Gegenbauer{0}, x, y, 3, c); }),
            "recur::fit: " + expected.substr(std::string("recur::project: ").size()));
}

}  // namespace edges_test
