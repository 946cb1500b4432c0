// Identities every family must satisfy, in both precisions and on every
// execution space: exact parity, T_n(cos t) = cos(n t), orthonormality by
// Gauss quadrature, derivative formulas, and the high-degree range of
// HermiteENormalized and HermiteFunction against long double references.
#include "test_support.hpp"

#include <cstring>

#include <cfloat>
#include <cstdio>
#include <limits>

namespace identities_test {

using namespace recur_test;

template <class C>
class Identities : public ::testing::Test {};
TYPED_TEST_SUITE(Identities, AllConfigs, ConfigName);

template <class C, class Family>
auto evaluate_at(const Family& family, const std::vector<typename C::scalar>& xs, int N) {
  const auto x = to_device<typename C::XView>(xs);
  typename C::VView V("V", xs.size(), N);
  recur::evaluate(typename C::space{}, family, x, V);
  return to_host(V);
}

template <class C, class Family>
auto evaluate_derivative_at(const Family& family,
                            const std::vector<typename C::scalar>& xs, int N) {
  const auto x = to_device<typename C::XView>(xs);
  typename C::VView V("V", xs.size(), N), dV("dV", xs.size(), N);
  recur::evaluate(typename C::space{}, family, x, V, dV);
  return std::make_pair(to_host(V), to_host(dV));
}

// p_n(-x) = (-1)^n p_n(x), bit for bit: with b_n = 0 the recurrence only
// flips signs.
template <class C, class Family>
void expect_exact_parity(const Family& family) {
  using T = typename C::scalar;
  std::vector<T> xs = sample_points<T>(64, 1.0);
  const int M       = int(xs.size());
  for (int i = 0; i < M; ++i) xs.push_back(-xs[i]);
  const int N  = 40;
  const auto h = evaluate_at<C>(family, xs, N);
  int broken   = 0;
  for (int i = 0; i < M; ++i)
    for (int n = 0; n < N; ++n)
      broken += h(i + M, n) != (n % 2 ? -h(i, n) : h(i, n));
  EXPECT_EQ(broken, 0) << Family::name();
}

TYPED_TEST(Identities, SymmetricFamiliesHaveExactParity) {
  expect_exact_parity<TypeParam>(recur::HermiteE{});
  expect_exact_parity<TypeParam>(recur::Hermite{});
  expect_exact_parity<TypeParam>(recur::HermiteNormalized{});
  expect_exact_parity<TypeParam>(recur::Legendre{});
  expect_exact_parity<TypeParam>(recur::LegendreNormalized{});
  expect_exact_parity<TypeParam>(recur::ChebyshevT{});
  expect_exact_parity<TypeParam>(recur::ChebyshevU{});
  expect_exact_parity<TypeParam>(recur::Gegenbauer{1.5});
  expect_exact_parity<TypeParam>(recur::JacobiNormalized{0.7, 0.7});
}

TYPED_TEST(Identities, ChebyshevTOfCosineIsCosineOfMultiple) {
  using T     = typename TypeParam::scalar;
  const int N = std::is_same_v<T, float> ? 256 : 2000;
  std::vector<T> xs;
  for (int j = 0; j <= 100; ++j) xs.push_back(T(std::cos(3.14159265358979 * j / 100)));
  const auto h = evaluate_at<TypeParam>(recur::ChebyshevT{}, xs, N);
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const long double t = std::acos((long double)xs[i]);
    for (int n = 0; n < N; ++n)
      worst = std::max(worst, double(std::fabs(h(i, n) - std::cos(n * t))));
  }
  EXPECT_LE(worst, tolerance<T>(N));
}

// Gauss-Legendre nodes and weights (for the uniform density on [-1, 1]) by
// Newton's method on P_q in long double.
inline void gauss_legendre(int q, std::vector<long double>& nodes,
                           std::vector<long double>& weights) {
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int j = 0; j < q; ++j) {
    long double x = std::cos(pi * (j + 0.75L) / (q + 0.5L)), dp = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      long double p0 = 1, p1 = x;
      for (int n = 1; n < q; ++n) {
        const long double p2 = ((2 * n + 1) * x * p1 - n * p0) / (n + 1);
        p0 = p1;
        p1 = p2;
      }
      dp = q * (x * p1 - p0) / (x * x - 1);
      const long double step = p1 / dp;
      x -= step;
      if (std::fabs(step) < 1e-19L) break;
    }
    nodes.push_back(x);
    weights.push_back(1 / ((1 - x * x) * dp * dp));  // = w_j / 2
  }
}

// sum_j w_j p_m(x_j) p_n(x_j) = delta_mn for quadrature exact to degree m+n.
template <class H>
double orthonormality_error(const H& h, const std::vector<long double>& weights, int N) {
  double worst = 0;
  for (int m = 0; m < N; ++m)
    for (int n = 0; n <= m; ++n) {
      long double sum = 0;
      for (std::size_t j = 0; j < weights.size(); ++j) sum += weights[j] * h(j, m) * h(j, n);
      worst = std::max(worst, double(std::fabs(sum - (m == n))));
    }
  return worst;
}

TYPED_TEST(Identities, NormalizedFamiliesAreOrthonormal) {
  using T     = typename TypeParam::scalar;
  const int q = 40, N = 40;  // exact for degrees <= 2q - 1
  const long double pi = 3.141592653589793238462643383279502884L;
  const double tol     = 4 * tolerance<T>(N);
  {
    std::vector<long double> nodes, weights;
    gauss_legendre(q, nodes, weights);
    const std::vector<T> xs(nodes.begin(), nodes.end());
    EXPECT_LE(orthonormality_error(
                  evaluate_at<TypeParam>(recur::LegendreNormalized{}, xs, N), weights, N),
              tol);
  }
  {  // Gauss-Chebyshev, first kind: arcsine density
    std::vector<T> xs;
    std::vector<long double> weights(q, 1.0L / q);
    for (int j = 0; j < q; ++j) xs.push_back(T(std::cos(pi * (2 * j + 1) / (2 * q))));
    EXPECT_LE(orthonormality_error(
                  evaluate_at<TypeParam>(recur::ChebyshevTNormalized{}, xs, N), weights, N),
              tol);
  }
  {  // Gauss-Chebyshev, second kind: semicircle density
    std::vector<T> xs;
    std::vector<long double> weights;
    for (int j = 1; j <= q; ++j) {
      xs.push_back(T(std::cos(pi * j / (q + 1))));
      weights.push_back(2.0L / (q + 1) * std::pow(std::sin(pi * j / (q + 1)), 2));
    }
    EXPECT_LE(orthonormality_error(
                  evaluate_at<TypeParam>(recur::ChebyshevUNormalized{}, xs, N), weights, N),
              tol);
  }
}

// dV of `family` against `expected(n, V_other, i)` built from another
// family's values, both by recur.
template <class C, class Family, class Other, class Expected>
void expect_derivative(const Family& family, const Other& other, double bound,
                       Expected expected) {
  using T                 = typename C::scalar;
  const int N             = 24;
  const std::vector<T> xs = sample_points<T>(200, bound);
  const auto outputs     = evaluate_derivative_at<C>(family, xs, N);
  const auto& V          = outputs.first;
  const auto& dV         = outputs.second;
  const auto W            = evaluate_at<C>(other, xs, N);
  double worst            = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::vector<long double> ref(N);
    for (int n = 0; n < N; ++n) ref[n] = expected(n, W, i, xs[i]);
    worst = std::max(worst, scaled_error([&](std::size_t n) { return dV(i, n); }, ref));
  }
  // Two computations compared, and a derivative's rounding error grows one
  // power of n faster than the values': 16 times the value tolerance (the
  // worst seen: Laguerre' in float, 13 times).
  EXPECT_LE(worst, 16 * tolerance<T>(N)) << Family::name() << "' against " << Other::name();
}

TYPED_TEST(Identities, DerivativesMatchClassicalFormulas) {
  using C = TypeParam;
  // He_n' = n He_{n-1}, H_n' = 2n H_{n-1}
  expect_derivative<C>(recur::HermiteE{}, recur::HermiteE{}, 4,
                       [](int n, auto& W, auto i, auto) { return n ? n * (long double)W(i, n - 1) : 0; });
  expect_derivative<C>(recur::Hermite{}, recur::Hermite{}, 4,
                       [](int n, auto& W, auto i, auto) { return n ? 2 * n * (long double)W(i, n - 1) : 0; });
  // (He_n/sqrt(n!))' = sqrt(n) He_{n-1}/sqrt((n-1)!)
  expect_derivative<C>(recur::HermiteENormalized{}, recur::HermiteENormalized{}, 4,
                       [](int n, auto& W, auto i, auto) {
                         return n ? std::sqrt((long double)n) * W(i, n - 1) : 0;
                       });
  // T_n' = n U_{n-1}
  expect_derivative<C>(recur::ChebyshevT{}, recur::ChebyshevU{}, 1,
                       [](int n, auto& W, auto i, auto) { return n ? n * (long double)W(i, n - 1) : 0; });
  // L_n^(a)' = -L_{n-1}^(a+1)
  expect_derivative<C>(recur::Laguerre{0.5}, recur::Laguerre{1.5}, 1,
                       [](int n, auto& W, auto i, auto) { return n ? -(long double)W(i, n - 1) : 0; });
  // P_n^(a,b)' = (n+a+b+1)/2 P_{n-1}^(a+1,b+1); Legendre is Jacobi(0, 0)
  expect_derivative<C>(recur::Jacobi{0.5, -0.5}, recur::Jacobi{1.5, 0.5}, 1,
                       [](int n, auto& W, auto i, auto) {
                         return n ? (n + 1.0L) / 2 * W(i, n - 1) : 0;
                       });
  expect_derivative<C>(recur::Legendre{}, recur::Jacobi{1, 1}, 1,
                       [](int n, auto& W, auto i, auto) {
                         return n ? (n + 1.0L) / 2 * W(i, n - 1) : 0;
                       });
  // C_n^(l)' = 2 l C_{n-1}^(l+1)
  expect_derivative<C>(recur::Gegenbauer{1.5}, recur::Gegenbauer{2.5}, 1,
                       [](int n, auto& W, auto i, auto) { return n ? 3 * (long double)W(i, n - 1) : 0; });
  // x^n' = n x^(n-1); power sums' = 1 + 2x + ... + (n+1) x^n
  expect_derivative<C>(recur::Monomials{}, recur::Monomials{}, 1.5,
                       [](int n, auto& W, auto i, auto) { return n ? n * (long double)W(i, n - 1) : 0; });
  expect_derivative<C>(recur::PowerSums{}, recur::Monomials{}, 1.5, [](int n, auto& W, auto i, auto) {
    long double sum = 0;
    for (int k = 0; k <= n; ++k) sum += (k + 1) * (long double)W(i, k);
    return sum;
  });
}

TYPED_TEST(Identities, HermiteFunctionDerivativeIsLadder) {
  // psi_n' = sqrt(n/2) psi_{n-1} - sqrt((n+1)/2) psi_{n+1}
  using C = TypeParam;
  using T = typename C::scalar;
  const int N = 40;
  const std::vector<T> xs = sample_points<T>(200, std::is_same_v<T, float> ? 12 : 30,
                                             {0.0, 1.0, -25.0, 29.5});
  const auto outputs = evaluate_derivative_at<C>(recur::HermiteFunction{}, xs, N + 1);
  const auto& V      = outputs.first;
  const auto& dV     = outputs.second;
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::vector<long double> ref(N);
    for (int n = 0; n < N; ++n)
      ref[n] = (n ? std::sqrt(n / 2.0L) * V(i, n - 1) : 0) - std::sqrt((n + 1) / 2.0L) * V(i, n + 1);
    worst = std::max(worst, scaled_error([&](std::size_t n) { return dV(i, n); }, ref));
  }
  EXPECT_LE(worst, 8 * tolerance<T>(N));
}

// Long double reference for psi_n: the orthonormal recurrence started from
// pi^(-1/4) e^(-x²/2), which long double's range holds for |x| <= 40.
inline std::vector<long double> hermite_function_reference(long double x, int N) {
  std::vector<long double> psi(N);
  long double previous = 0, current = 0.75112554446494248285870300477622L * std::exp(-x * x / 2);
  for (int n = 0; n < N; ++n) {
    psi[n] = current;
    const long double next =
        std::sqrt(2.0L / (n + 1)) * x * current - std::sqrt((long double)n / (n + 1)) * previous;
    previous = current;
    current  = next;
  }
  return psi;
}

template <class C, class Family, class Reference>
void expect_high_degree(const Family& family, Reference reference, double bound, int N) {
  using T = typename C::scalar;
  const std::vector<T> xs = sample_points<T>(48, bound, {0.0, bound, -bound, bound / 2});
  const auto h = evaluate_at<C>(family, xs, N);
  double worst = 0;
  int not_finite = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto ref = reference(xs[i], N);
    std::vector<long double> kept(N);
    for (int n = 0; n < N; ++n) {
      const bool representable = std::fabs(ref[n]) <= std::numeric_limits<T>::max();
      not_finite += representable && !std::isfinite(h(i, n));
      kept[n] = representable ? ref[n] : 0;
    }
    worst = std::max(worst, scaled_error(
                                [&](std::size_t n) { return kept[n] == 0 ? 0.0L : (long double)h(i, n); },
                                kept));
  }
  EXPECT_EQ(not_finite, 0) << Family::name() << " N=" << N;
  EXPECT_LE(worst, tolerance<T>(N)) << Family::name() << " N=" << N;
}

TYPED_TEST(Identities, HighDegreeStaysFiniteWhereRepresentable) {
  using T = typename TypeParam::scalar;
  if constexpr (std::is_same_v<T, double>) {
    expect_high_degree<TypeParam>(recur::HermiteENormalized{}, hermite_e_normalized_reference, 40, 10000);
    expect_high_degree<TypeParam>(recur::HermiteFunction{}, hermite_function_reference, 40, 10000);
  } else {
    expect_high_degree<TypeParam>(recur::HermiteENormalized{}, hermite_e_normalized_reference, 12, 64);
    expect_high_degree<TypeParam>(recur::HermiteFunction{}, hermite_function_reference, 20, 2000);
  }
}

TYPED_TEST(Identities, NaNInXGivesNaNInThatRowOnly) {
  using T = typename TypeParam::scalar;
  std::vector<T> xs = sample_points<T>(10, 0.9);
  xs[3] = std::numeric_limits<T>::quiet_NaN();
  const auto h = evaluate_at<TypeParam>(recur::JacobiNormalized{0.5, 1.5}, xs, 7);
  int nan_rows = 0, nan_elsewhere = 0;
  for (int i = 0; i < 10; ++i)
    for (int n = 1; n < 7; ++n) (i == 3 ? nan_rows : nan_elsewhere) += std::isnan(h(i, n));
  EXPECT_EQ(nan_rows, 6);
  EXPECT_EQ(nan_elsewhere, 0);
}

// Values and derivatives of a block of x (on CPUs 16, 32 or 64 x a work
// item, in vectors, double-double included, handed back to scalar lanes
// where a number passes the scaling limit; row slices of a few KiB a block
// turned into rows through buffers) are, bit for bit, what each x gets
// alone: 150 x (whole blocks and a partial one) against one call per x,
// recur::Fast and recur::Accurate, both layouts, N = 300, 32 and 20, x
// within [-1, 1] and out to 30 (where He_n passes the limit at different n
// in different lanes), families with and without b_n.
TYPED_TEST(Identities, DerivativesOfABlockAreThoseOfEachXAlone) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  using Space = typename C::space;
  const int M = 150;
  for (const int N : {300, 32, 20})
  for (const double reach : {30.0, 1.0}) {
    const auto xs = sample_points<T>(M, reach);
    const auto x  = to_device<typename C::XView>(xs);
    const auto check = [&](const auto& family, auto precision) {
      typename C::VView V("V", M, N), dV("dV", M, N);
      recur::evaluate(Space{}, family, x, V, dV, recur::Auto{}, precision);
      const auto v = to_host(V), dv = to_host(dV);
      for (int i = 0; i < M; i += 7) {
        const auto one = to_device<typename C::XView>(std::vector<T>{xs[i]});
        typename C::VView V1("V1", 1, N), dV1("dV1", 1, N);
        recur::evaluate(Space{}, family, one, V1, dV1, recur::Auto{}, precision);
        const auto v1 = to_host(V1), dv1 = to_host(dV1);
        int differ = 0;
        for (int n = 0; n < N; ++n)
          differ += std::memcmp(&v(i, n), &v1(0, n), sizeof(T)) != 0 ||
                    std::memcmp(&dv(i, n), &dv1(0, n), sizeof(T)) != 0;
        EXPECT_EQ(differ, 0) << family.name() << " x = " << xs[i] << " reach " << reach
                             << " N = " << N;
      }
    };
    check(recur::HermiteE{}, recur::Fast{});
    check(recur::HermiteE{}, recur::Accurate{});
    check(recur::Legendre{}, recur::Fast{});
    check(recur::Legendre{}, recur::Accurate{});
    check(recur::HermiteENormalized{}, recur::Fast{});
    check(recur::Laguerre{}, recur::Fast{});  // (b_n != 0: a x + b in full)
    check(recur::Laguerre{}, recur::Accurate{});
  }
}

}  // namespace identities_test
