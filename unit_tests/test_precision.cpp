// recur::Fast against recur::Accurate: every form of evaluate, series and
// evaluate_streamed takes it, the forms agree bit for bit, and the results
// come from V's own arithmetic (they differ from Accurate's in the last bits,
// within Fast's bound; test_reference.cpp holds Fast to its bound against the
// mpmath references).
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace precision_test {

using namespace recur_test;
using Space = Kokkos::DefaultExecutionSpace;

template <class T>
class Precision : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Precision, Scalars);

template <class T, class Layout = Kokkos::LayoutRight>
using Matrix = Kokkos::View<T**, Layout, Space>;

// The largest |a - b| over the largest |b| of the row.
template <class A, class B>
double worst_row_relative(const A& a, const B& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.extent(0); ++i) {
    double scale = 0;
    for (std::size_t n = 0; n < a.extent(1); ++n) scale = std::max(scale, std::fabs(double(b(i, n))));
    for (std::size_t n = 0; n < a.extent(1); ++n)
      worst = std::max(worst, std::fabs(double(a(i, n)) - double(b(i, n))) / scale);
  }
  return worst;
}

template <class T, class Layout, class Family>
void check_family(const Family& family) {
  const int M = 301, N = 150;
  const std::vector<T> xs = sample_points<T>(M, 1.0);
  const auto x            = to_device<Kokkos::View<T*, Space>>(xs);
  Matrix<T, Layout> A("A", M, N), F("F", M, N), G("G", M, N), dA("dA", M, N), dF("dF", M, N);
  recur::evaluate(family, x, A);
  recur::evaluate(family, x, F, recur::Fast{});
  recur::evaluate(Space{}, family, x, G, recur::ThreadPerX{}, recur::Fast{});
  const auto a = to_host(A), f = to_host(F), g = to_host(G);
  EXPECT_EQ(count_differences(f, g), 0) << Family::name() << ": Fast through Auto and ThreadPerX";
  EXPECT_GT(count_differences(f, a), 0) << Family::name() << ": Fast must run in V's type";
  EXPECT_LE(worst_row_relative(f, a), (std::is_same_v<T, float> ? 2e-7 : 1e-15) * N * N) << Family::name();
  // With derivatives: the values are Fast's, bit for bit.
  recur::evaluate(family, x, G, dF, recur::Fast{});
  recur::evaluate(Space{}, family, x, A, dA, recur::Auto{}, recur::Fast{});
  EXPECT_EQ(count_differences(to_host(G), f), 0) << Family::name() << ": values beside dV";
  EXPECT_EQ(count_differences(to_host(dA), to_host(dF)), 0) << Family::name();
}

TYPED_TEST(Precision, FastEvaluatesInEveryFormAndStaysNearAccurate) {
  using T = TypeParam;
  check_family<T, Kokkos::LayoutRight>(recur::LegendreNormalized{});
  check_family<T, Kokkos::LayoutLeft>(recur::HermiteENormalized{});
  check_family<T, Kokkos::LayoutRight>(recur::JacobiNormalized{0.5, -0.5});
  check_family<T, Kokkos::LayoutLeft>(recur::ChebyshevT{});
  check_family<T, Kokkos::LayoutRight>(recur::HermiteFunction{});
}

// Staged and ScanAlongN take the precision after the policy; Staged gives
// ThreadPerX's bits, ScanAlongN agrees to rounding.
TYPED_TEST(Precision, FastWithEveryPolicy) {
  using T = TypeParam;
  const int M = 64, N = 300;
  const auto x = to_device<Kokkos::View<T*, Space>>(sample_points<T>(M, 1.0));
  Matrix<T> V("V", M, N), S("S", M, N), C("C", M, N);
  recur::evaluate(recur::Legendre{}, x, V, recur::ThreadPerX{}, recur::Fast{});
  recur::evaluate(recur::Legendre{}, x, S, recur::Staged{}, recur::Fast{});
  recur::evaluate(recur::Legendre{}, x, C, recur::ScanAlongN{16}, recur::Fast{});
  const auto v = to_host(V);
  EXPECT_EQ(count_differences(to_host(S), v), 0);
  EXPECT_LE(worst_row_relative(to_host(C), v), (std::is_same_v<T, float> ? 1e-7 * N * N : 1e-11));
}

// series with Fast: Clenshaw in V's type, near the sum of Fast's V times C.
TYPED_TEST(Precision, SeriesTakesFast) {
  using T      = TypeParam;
  const int M = 97, N = 40;
  const auto x = to_device<Kokkos::View<T*, Space>>(sample_points<T>(M, 1.0));
  Kokkos::View<T*, Space> c("c", N), y("y", M), y_accurate("ya", M), dy("dy", M), y2("y2", M);
  auto hc = Kokkos::create_mirror_view(c);
  for (int n = 0; n < N; ++n) hc(n) = T(1.0 / (1 + n));
  Kokkos::deep_copy(c, hc);
  recur::series(recur::Legendre{}, c, x, y, recur::Fast{});
  recur::series(Space{}, recur::Legendre{}, c, x, y2, dy, recur::Fast{});
  recur::series(recur::Legendre{}, c, x, y_accurate);
  Matrix<T> V("V", M, N);
  recur::evaluate(recur::Legendre{}, x, V, recur::Fast{});
  const auto hy = to_host(y), hy2 = to_host(y2), ha = to_host(y_accurate);
  const auto v  = to_host(V);
  int differ    = 0;
  for (int i = 0; i < M; ++i) {
    EXPECT_EQ(hy(i), hy2(i)) << "with and without dY";
    double sum = 0, scale = 0;
    for (int n = 0; n < N; ++n) {
      sum += double(hc(n)) * double(v(i, n));
      scale += std::fabs(double(hc(n)) * double(v(i, n)));
    }
    EXPECT_NEAR(double(hy(i)), sum, (std::is_same_v<T, float> ? 2e-6 : 1e-14) * scale) << i;
    differ += hy(i) != ha(i);
  }
  EXPECT_GT(differ, 0) << "Fast must run in Y's type";
}

// evaluate_streamed with Fast hands over what evaluate with Fast gives.
TYPED_TEST(Precision, StreamedTakesFast) {
  using T = TypeParam;
  const int N = 33;
  const std::vector<double> xs = sample_points<double>(250, 1.0);
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> hx(
      xs.data(), xs.size());
  Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> got("got", xs.size(), N);
  recur::StreamOptions options;
  options.chunk_rows = 17;
  recur::evaluate_streamed<T, Kokkos::LayoutRight>(
      Space{}, recur::HermiteENormalized{}, hx, N,
      [&](const recur::StreamChunk<T, Kokkos::LayoutRight>& chunk) {
        for (std::size_t i = 0; i < chunk.V.extent(0); ++i)
          for (int n = 0; n < N; ++n) got(chunk.first_row + i, n) = chunk.V(i, n);
      },
      options, recur::Fast{});
  const auto x = to_device<Kokkos::View<double*, Space>>(xs);
  Matrix<T> V("V", xs.size(), N);
  recur::evaluate(recur::HermiteENormalized{}, x, V, recur::Fast{});
  EXPECT_EQ(count_differences(got, to_host(V)), 0);
}

// Float Fast rows near the scaling limits (Range<float>, numbers.hpp): rows
// with |x| <= 32 are checked every 8 steps and scaled past 2^60, others after
// every step past 2^28. Large-x rows of growing families leave float's range
// within the first terms; their values must then be ±inf with the sign of
// the double-double recurrence's (never NaN), the rest near it (within Fast's
// bound, N^2 units of float rounding, of the row's largest value so far), and
// every policy must give the same bits (ScanAlongN: the same infinities,
// finite values to rounding). A state that overflowed between two checks
// would give inf - inf = NaN at the next step.
template <class Family, class Layout>
void fast_float_near_the_limits(const Family& family) {
  const std::vector<float> xs = {1.0f,  -1.0f,  4.5f,   -5.0f,  12.0f,  -20.0f,  31.5f,
                                 -32.0f, 32.5f, -33.0f, 100.0f, -1e4f,  1e9f,    0.25f};
  const int M = int(xs.size()), N = 96;
  const auto x = to_device<Kokkos::View<float*, Space>>(xs);
  using V = Kokkos::View<float**, Layout, Space>;
  V fast("fast", M, N), staged("staged", M, N), lanes("lanes", M, N), scan("scan", M, N);
  Kokkos::View<double**, Layout, Space> accurate("accurate", M, N);
  recur::evaluate(Space{}, family, x, fast, recur::Fast{});
  recur::evaluate(Space{}, family, x, lanes, recur::ThreadPerX{}, recur::Fast{});
  recur::evaluate(Space{}, family, x, staged, recur::Staged{}, recur::Fast{});
  recur::evaluate(Space{}, family, x, scan, recur::ScanAlongN{16}, recur::Fast{});
  recur::evaluate(Space{}, family, to_device<Kokkos::View<double*, Space>>(
                                       std::vector<double>(xs.begin(), xs.end())),
                  accurate);
  const auto f  = to_host(fast);
  const auto a  = to_host(accurate);
  const auto sc = to_host(scan);
  const std::string what = std::string(Family::name()) +
                           (std::is_same_v<Layout, Kokkos::LayoutLeft> ? " LayoutLeft" : " LayoutRight");
  EXPECT_EQ(count_differences(to_host(lanes), f), 0) << what << ": ThreadPerX";
  EXPECT_EQ(count_differences(to_host(staged), f), 0) << what << ": Staged";
  int wrong = 0;
  for (int i = 0; i < M; ++i) {
    double largest = 0;  // the row's largest magnitude up to n
    for (int n = 0; n < N; ++n) {
      const double r = a(i, n);
      largest        = std::max(largest, std::fabs(r));
      for (const float got : {f(i, n), sc(i, n)}) {
        bool right;
        if (std::fabs(r) > 0x1p127) {  // beyond float's range, or at its edge
          right = std::isinf(got) ? (got > 0) == (r > 0) : std::fabs(double(got)) > 0x1p126;
        } else {
          right = std::fabs(double(got) - r) <= 2e-7 * N * N * largest;
        }
        if (!right && wrong++ == 0)
          ADD_FAILURE() << what << " x = " << xs[std::size_t(i)] << ", n = " << n << ": " << got
                        << " where the double-double recurrence gives " << r;
      }
    }
  }
  EXPECT_EQ(wrong, 0) << what;
}

// Power sums with Fast: float results are summed in float (PowerSumsScan<
// float>: x as a float, s_n = s_{n-1} + x^n x fused, x^(n+1) = x^n x), the
// same bits in every policy (ScanAlongN to rounding) and beside dV, a
// float recurrence's bits until x^(n+1) leaves float's range; past it
// (scaled states) ±inf with the sign of the double sums, or near them.
// Rows with |x| > 2^64, ±inf or NaN are outside Fast float's domain (NaN).
// Double results sum in double with either precision.
template <class Layout>
void fast_power_sums() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs   = sample_points<float>(200, 1.0);
  for (const float v : {-0.0f, 1.5f, -1.75f, 2.0f, -3.0f, 100.0f, -128.0f, 129.0f, -200.0f, 1e9f,
                        -1e9f, 1.8e19f, -1e20f, 1e30f, inf, -inf, std::nanf(""), 1e-30f})
    xs.push_back(v);
  const int M = int(xs.size()), N = 96;
  const auto x = to_device<Kokkos::View<float*, Space>>(xs);
  using V      = Kokkos::View<float**, Layout, Space>;
  V fast("fast", M, N), lanes("lanes", M, N), staged("staged", M, N), scan("scan", M, N),
      beside("beside", M, N), d("d", M, N), accurate("accurate", M, N);
  const recur::PowerSums family;
  recur::evaluate(Space{}, family, x, fast, recur::Fast{});
  recur::evaluate(Space{}, family, x, lanes, recur::ThreadPerX{}, recur::Fast{});
  recur::evaluate(Space{}, family, x, staged, recur::Staged{}, recur::Fast{});
  recur::evaluate(Space{}, family, x, scan, recur::ScanAlongN{16}, recur::Fast{});
  recur::evaluate(Space{}, family, x, beside, d, recur::Fast{});
  recur::evaluate(Space{}, family, x, accurate);
  const auto xd = to_device<Kokkos::View<double*, Space>>(std::vector<double>(xs.begin(), xs.end()));
  Kokkos::View<double**, Layout, Space> sums("sums", M, N), sums_fast("sums_fast", M, N);
  recur::evaluate(Space{}, family, xd, sums);
  recur::evaluate(Space{}, family, xd, sums_fast, recur::Fast{});
  const std::string what = std::is_same_v<Layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight";
  // Entries that differ, NaN equal to NaN.
  const auto differences = [&](const auto& p, const auto& q) {
    int differ = 0;
    for (int i = 0; i < M; ++i)
      for (int n = 0; n < N; ++n)
        differ += !(p(i, n) == q(i, n) || (std::isnan(p(i, n)) && std::isnan(q(i, n))));
    return differ;
  };
  const auto f = to_host(fast), sc = to_host(scan), a = to_host(accurate);
  const auto s = to_host(sums);  // (double: a declaration of its own, as nvcc requires)
  EXPECT_EQ(differences(to_host(sums_fast), s), 0) << what << ": double power sums with Fast";
  EXPECT_EQ(differences(to_host(lanes), f), 0) << what << ": ThreadPerX";
  EXPECT_EQ(differences(to_host(staged), f), 0) << what << ": Staged";
  EXPECT_EQ(differences(to_host(beside), f), 0) << what << ": values beside dV";
  EXPECT_GT(count_differences(f, a), 0) << what << ": Fast must sum in float";
  int wrong = 0;
  const auto fail = [&](int i, int n, float got, const char* expected) {
    if (wrong++ == 0)
      ADD_FAILURE() << what << " x = " << xs[std::size_t(i)] << ", n = " << n << ": " << got
                    << " where " << expected;
  };
  for (int i = 0; i < M; ++i) {
    const float xi = xs[std::size_t(i)];
    const bool outside = !(std::fabs(xi) <= 0x1p64f);
    float sum = xi, power = xi;  // the float recurrence
    double largest = 0;
    for (int n = 0; n < N; ++n) {
      if (n > 0) {
        sum   = std::fma(power, xi, sum);
        power = power * xi;
      }
      largest = std::max(largest, std::fabs(s(i, n)));
      if (outside) {
        if (!std::isnan(f(i, n)) || !std::isnan(sc(i, n))) fail(i, n, f(i, n), "NaN (outside the domain)");
        continue;
      }
      if (std::isfinite(power)) {
        if (f(i, n) != sum) fail(i, n, f(i, n), "the float recurrence's bits");
        if (!(std::fabs(double(sc(i, n)) - double(sum)) <= 4e-7 * N * largest))
          fail(i, n, sc(i, n), "ScanAlongN near the float recurrence");
        continue;
      }
      for (const float got : {f(i, n), sc(i, n)}) {
        const double r = s(i, n);
        const bool right = std::fabs(r) > 0x1p127
                               ? std::isinf(got) ? (got > 0) == (r > 0) : std::fabs(double(got)) > 0x1p126
                               : std::fabs(double(got) - r) <= 2e-7 * N * largest;
        if (!right) fail(i, n, got, "near the double sums");
      }
    }
  }
  EXPECT_EQ(wrong, 0) << what;
}

// Monomials with Fast float results: rows with small |x| reach float's
// subnormal numbers (x^n below 2^-126) and 0 within N terms, where CPUs
// take the products in double (cpu_lanes::step_in_double); every policy
// must give the bits of the float recurrence, p_{n+1} = f p_n - 0 p_{n-1}
// fused (f = 1 x + 0 fused, and 0 - 0 p_{n-1} where f = 0), zeros' signs
// included.
template <class Layout>
void fast_monomials_through_subnormals() {
  std::vector<float> xs = sample_points<float>(120, 1.0);
  for (const float v : {0.05f, -0.05f, 0.0597f, -0.06f, 0.01f, -1e-3f, 2e-4f, 1e-20f, -1e-20f, 1e-40f,
                        -1e-40f, 0.0f, -0.0f, 0.5f, -0.75f})
    xs.push_back(v);
  const int M = int(xs.size()), N = 64;
  const auto x = to_device<Kokkos::View<float*, Space>>(xs);
  using V      = Kokkos::View<float**, Layout, Space>;
  V fast("fast", M, N), lanes("lanes", M, N), staged("staged", M, N);
  const recur::Monomials family;
  recur::evaluate(Space{}, family, x, fast, recur::Fast{});
  recur::evaluate(Space{}, family, x, lanes, recur::ThreadPerX{}, recur::Fast{});
  recur::evaluate(Space{}, family, x, staged, recur::Staged{}, recur::Fast{});
  const auto f = to_host(fast), l = to_host(lanes), st = to_host(staged);
  const std::string what = std::is_same_v<Layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight";
  const auto bits = [](float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  };
  int wrong = 0, subnormal = 0;
  for (int i = 0; i < M; ++i) {
    const float xi = xs[std::size_t(i)], fi = std::fma(1.0f, xi, 0.0f);
    float current = 1.0f, previous = 0.0f;
    for (int n = 0; n < N; ++n) {
      if (n > 0) {
        const float p = 0.0f * previous, next = fi == 0 ? 0.0f - p : std::fma(fi, current, -p);
        previous = current;
        current  = next;
      }
      subnormal += std::fpclassify(current) == FP_SUBNORMAL;
      for (const auto& [got, name] : {std::pair{f(i, n), "Auto"}, std::pair{l(i, n), "ThreadPerX"},
                                      std::pair{st(i, n), "Staged"}})
        if (bits(got) != bits(current) && wrong++ == 0)
          ADD_FAILURE() << what << " " << name << ", x = " << xi << ", n = " << n << ": " << got
                        << " where the float recurrence gives " << current;
    }
  }
  EXPECT_EQ(wrong, 0) << what;
  EXPECT_GT(subnormal, 50) << what << ": the rows must pass through subnormal numbers";
}

TEST(PrecisionLimits, FastFloatMonomialsThroughSubnormalNumbers) {
  fast_monomials_through_subnormals<Kokkos::LayoutRight>();
  fast_monomials_through_subnormals<Kokkos::LayoutLeft>();
}

TEST(PrecisionLimits, FastFloatPowerSumsInFloat) {
  fast_power_sums<Kokkos::LayoutRight>();
  fast_power_sums<Kokkos::LayoutLeft>();
}

TEST(PrecisionLimits, FastFloatRowsNearTheScalingLimits) {
  fast_float_near_the_limits<recur::HermiteE, Kokkos::LayoutRight>(recur::HermiteE{});
  fast_float_near_the_limits<recur::HermiteE, Kokkos::LayoutLeft>(recur::HermiteE{});
  fast_float_near_the_limits<recur::Hermite, Kokkos::LayoutRight>(recur::Hermite{});
  fast_float_near_the_limits<recur::Hermite, Kokkos::LayoutLeft>(recur::Hermite{});
  fast_float_near_the_limits<recur::Legendre, Kokkos::LayoutRight>(recur::Legendre{});
  fast_float_near_the_limits<recur::Laguerre, Kokkos::LayoutLeft>(recur::Laguerre{});
}

// Long rows at a double root of the recurrence's limit: x = ±1 for the
// Jacobi-type families, x = 0 for Laguerre. There a recurrence in V's own
// type drifts from the value exponentially in √ε n (float Legendre: 1.6 % at
// N = 10^4, overflow near 1.6·10^6; docs/accuracy.md, "At x = ±1 over long
// rows"). Accurate holds float rows to a few units in the last place and
// double rows to double's, against the closed forms p_n(1) = (α + 1)_n / n!
// (Jacobi), (2λ)_n / n! (Gegenbauer), (α + 1)_n / n! (Laguerre at 0), made
// in long double; Fast double stays within its documented 1e-16 N².
template <class Family>
void endpoint_rows(const Family& family, double x0, double shift_up, double shift_down) {
  const int N = 100000;
  // p_n(x0) = (shift_up + 1)_n / n!, p_n(-x0) = (-1)^n (shift_down + 1)_n / n!.
  std::vector<long double> up(N), down(N);
  up[0] = down[0] = 1;
  for (int n = 1; n < N; ++n) {
    up[n]   = up[n - 1] * ((n + (long double)shift_up) / n);
    down[n] = -down[n - 1] * ((n + (long double)shift_down) / n);
  }
  const int rows = x0 == 0 ? 1 : 2;
  const auto reference = [&](int i, int n) { return double(i == 0 ? up[n] : down[n]); };
  const auto worst = [&](const auto& V) {
    double w = 0;
    for (int i = 0; i < rows; ++i)
      for (int n = 0; n < N; ++n) {
        const double r = reference(i, n), got = double(V(i, n));
        const double e = std::isfinite(got) ? std::fabs(got - r) / std::fabs(r) : INFINITY;
        w = std::max(w, e);
      }
    return w;
  };
  std::vector<double> xd = {x0, -x0};
  std::vector<float> xf = {float(x0), float(-x0)};
  xd.resize(rows);
  xf.resize(rows);
  const auto x  = to_device<Kokkos::View<double*, Space>>(xd);
  const auto y  = to_device<Kokkos::View<float*, Space>>(xf);
  const auto each_policy = [&](auto policy, const char* name) {
    Matrix<double> D("D", rows, N), E("E", rows, N);
    Matrix<float> F("F", rows, N);
    recur::evaluate(Space{}, family, x, D, policy);
    recur::evaluate(Space{}, family, y, F, policy);
    recur::evaluate(Space{}, family, x, E, policy, recur::Fast{});
    const std::string what = std::string(Family::name()) + " " + name + " at x = " + std::to_string(x0);
    EXPECT_LE(worst(to_host(D)), 4e-15) << what << ", double Accurate";
    EXPECT_LE(worst(to_host(F)), 2.4e-7) << what << ", float Accurate";
    EXPECT_LE(worst(to_host(E)), 1e-16 * double(N) * N) << what << ", double Fast";
  };
  // (ScanAlongN composed such rows' transfer matrices 6e7 times too large at
  // N = 2^24 before it carried them in differences: scan_along_n.hpp.)
  each_policy(recur::ThreadPerX{}, "ThreadPerX");
  each_policy(recur::ScanAlongN{}, "ScanAlongN");
  each_policy(recur::Auto{}, "Auto");
}

TEST(PrecisionLimits, LongRowsAtTheEndpoints) {
  endpoint_rows(recur::Legendre{}, 1, 0, 0);
  endpoint_rows(recur::Jacobi{0.5, -0.5}, 1, 0.5, -0.5);
  endpoint_rows(recur::Gegenbauer{1.5}, 1, 2, 2);  // (2λ)_n / n! = (3)_n / n!
  endpoint_rows(recur::Laguerre{}, 0, 0, 0);
}

}  // namespace precision_test
