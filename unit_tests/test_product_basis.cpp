// Product bases (recur/product_basis.hpp): values and gradients against
// long double products of the univariate recurrences, orthonormality on
// tensor Gauss rules, NaN samples, Sobol indices of known models, and the
// errors of bad calls.
#include "test_support.hpp"

#include <cstring>

#include <recur/product_basis.hpp>

#include <random>

namespace product_basis_test {

using namespace recur_test;

// Mixed families, as a polynomial-chaos user picks them per input.
std::vector<recur::AnyFamily> mixed_families() {
  return {recur::HermiteENormalized{}, recur::LegendreNormalized{},
          recur::Normalized<recur::Laguerre>{1.5}, recur::Normalized<recur::Jacobi>{0.5, -0.5},
          recur::Hermite{}, recur::ChebyshevT{}};
}

// p^(k)_n(x) for n <= p in long double, by the recurrences of test_support.
std::vector<long double> univariate(int k, long double x, int p, bool derivative) {
  std::vector<long double> values, derivatives;
  switch (k % 6) {
    case 0: reference_values(recur::HermiteENormalized{}, x, p + 1, values, derivatives); break;
    case 1: reference_values(recur::LegendreNormalized{}, x, p + 1, values, derivatives); break;
    case 2:
      reference_values(recur::Normalized<recur::Laguerre>{1.5}, x, p + 1, values, derivatives);
      break;
    case 3:
      reference_values(recur::Normalized<recur::Jacobi>{0.5, -0.5}, x, p + 1, values, derivatives);
      break;
    case 4: reference_values(recur::Hermite{}, x, p + 1, values, derivatives); break;
    default: reference_values(recur::ChebyshevT{}, x, p + 1, values, derivatives);
  }
  return derivative ? derivatives : values;
}

// Samples in each family's natural range: normal, [-1, 1], gamma-like.
std::vector<double> samples(int M, int d, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::gamma_distribution<double> gamma(2.5);
  std::vector<double> X(std::size_t(M) * d);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < d; ++k) {
      const int kind = k % 6;
      X[std::size_t(i) * d + k] =
          kind == 0 || kind == 4 ? normal(rng) : kind == 2 ? gamma(rng) : uniform(rng);
    }
  return X;
}

template <class Space, class T, class XLayout, class PsiLayout, class Precision = recur::Accurate>
void expect_products(const recur::MultiIndexSet& set, int M, bool gradient, double tolerance) {
  const int d = set.dimension(), P = set.size();
  const auto all = mixed_families();
  const recur::ProductBasis basis(std::vector<recur::AnyFamily>(all.begin(), all.begin() + d), set);
  const std::vector<double> x = samples(M, d, 11 + d);
  Kokkos::View<T**, XLayout, Space> X("X", M, d);
  auto X_host = Kokkos::create_mirror_view(X);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < d; ++k) X_host(i, k) = T(x[std::size_t(i) * d + k]);
  Kokkos::deep_copy(X, X_host);
  Kokkos::View<T**, PsiLayout, Space> Psi("Psi", M, P);
  Kokkos::View<T***, PsiLayout, Space> dPsi("dPsi", gradient ? M : 0, P, d);
  if (gradient)
    recur::evaluate(Space{}, basis, X, Psi, dPsi, Precision{});
  else
    recur::evaluate(Space{}, basis, X, Psi, Precision{});
  const auto got  = to_host(Psi);
  const auto dgot = to_host(dPsi);
  double worst = 0, dworst = 0;
  for (int i = 0; i < M; ++i) {
    std::vector<std::vector<long double>> p(d), dp(d);
    for (int k = 0; k < d; ++k) {
      p[k]  = univariate(k, X_host(i, k), set.max_degree(k), false);
      dp[k] = univariate(k, X_host(i, k), set.max_degree(k), true);
    }
    for (int j = 0; j < P; ++j) {
      // Each error relative to the sum of the absolute factors' product,
      // the scale the rounding of each factor works at.
      long double value = 1;
      for (int k = 0; k < d; ++k) value *= p[k][set(j, k)];
      worst = std::max(worst, double(std::fabs(got(i, j) - value) / std::max(1.0L, std::fabs(value))));
      if (!gradient) continue;
      for (int k = 0; k < d; ++k) {
        long double g = dp[k][set(j, k)];
        for (int l = 0; l < d; ++l)
          if (l != k) g *= p[l][set(j, l)];
        dworst = std::max(dworst, double(std::fabs(dgot(i, j, k) - g) / std::max(1.0L, std::fabs(g))));
      }
    }
  }
  EXPECT_LT(worst, tolerance) << "d = " << d << ", P = " << P;
  if (gradient) {
    EXPECT_LT(dworst, 4 * tolerance) << "d = " << d << ", P = " << P;
  }
}

template <class Space>
class ProductBasis : public ::testing::Test {};
// The default space and a one-thread host space (Serial where Kokkos has it).
#ifdef KOKKOS_ENABLE_SERIAL
using OneThread = Kokkos::Serial;
#else
using OneThread = Kokkos::DefaultHostExecutionSpace;
#endif
using Spaces = std::conditional_t<std::is_same_v<Kokkos::DefaultExecutionSpace, OneThread>,
                                  ::testing::Types<OneThread>,
                                  ::testing::Types<Kokkos::DefaultExecutionSpace, OneThread>>;
TYPED_TEST_SUITE(ProductBasis, Spaces);

TYPED_TEST(ProductBasis, ValuesAreProductsOfTheUnivariateFamilies) {
  using S = TypeParam;
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  // Double results within a few units in the last place of the scale.
  for (int d : {1, 2, 3, 6}) {
    const auto set = recur::MultiIndexSet::total_degree(d, d == 6 ? 4 : 6);
    expect_products<S, double, R, L>(set, 97, false, 2e-15);
    expect_products<S, double, L, R>(set, 97, false, 2e-15);
  }
  expect_products<S, double, R, R>(recur::MultiIndexSet::tensor({3, 0, 5}), 200, false, 2e-15);
  expect_products<S, double, L, L>(recur::MultiIndexSet::hyperbolic(4, 7, 0.6), 65, false, 2e-15);
  // More functions than a CPU team keeps values of (Tables::max_chain).
  expect_products<S, double, R, R>(recur::MultiIndexSet::total_degree(2, 260), 5, false, 1e-12);
  expect_products<S, double, L, L>(recur::MultiIndexSet::total_degree(2, 260), 5, false, 1e-12);
  // User tables whose functions lack their parents (the walk's nodes with
  // no function), out of order, alpha = 0 last; and one of more than 2^15
  // functions (a CPU team's walk): total degree 260 in 2 dimensions without
  // (a, 0), a > 0.
  const auto gaps = recur::MultiIndexSet::from_table(
      3, {2, 3, 0, 0, 0, 4, 1, 1, 1, 2, 3, 1, 3, 0, 2, 0, 5, 0, 0, 0, 0});
  expect_products<S, double, R, L>(gaps, 97, false, 2e-15);
  expect_products<S, double, L, R>(gaps, 97, false, 2e-15);
  std::vector<int> sparse;
  const auto full = recur::MultiIndexSet::total_degree(2, 260);
  for (int j = 0; j < full.size(); ++j)
    if (full(j, 0) == 0 || full(j, 1) > 0) sparse.insert(sparse.end(), {full(j, 0), full(j, 1)});
  const auto large_gaps = recur::MultiIndexSet::from_table(2, sparse);
  ASSERT_GT(large_gaps.size(), 1 << 15);
  expect_products<S, double, R, L>(large_gaps, 5, false, 1e-12);
  expect_products<S, float, R, L>(recur::MultiIndexSet::total_degree(3, 5), 97, false, 3e-7);
  expect_products<S, float, L, R>(recur::MultiIndexSet::total_degree(3, 5), 97, false, 3e-7);
  expect_products<S, double, R, R, recur::Fast>(recur::MultiIndexSet::total_degree(3, 5), 97, false,
                                                1e-13);
  expect_products<S, float, R, L, recur::Fast>(recur::MultiIndexSet::total_degree(3, 5), 97, false,
                                               2e-5);
}

TYPED_TEST(ProductBasis, GradientsAreProductsWithOneFactorDifferentiated) {
  using S = TypeParam;
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  expect_products<S, double, R, L>(recur::MultiIndexSet::total_degree(3, 5), 70, true, 2e-15);
  expect_products<S, double, L, R>(recur::MultiIndexSet::total_degree(6, 3), 70, true, 2e-15);
  expect_products<S, float, R, R>(recur::MultiIndexSet::tensor({2, 4}), 70, true, 3e-7);
}

TYPED_TEST(ProductBasis, AreOrthonormalOnTensorGaussRules) {
  using S = TypeParam;
  // Hermite, Legendre, Laguerre(1.5) orthonormal families; total degree 5
  // needs n = 6 nodes per dimension to integrate products of degree 10.
  const auto all = mixed_families();
  const recur::ProductBasis basis({all[0], all[1], all[2]}, recur::MultiIndexSet::total_degree(3, 5));
  const int n = 6, M = n * n * n, P = basis.size();
  Kokkos::View<double*, S> nodes[3], weights[3];
  nodes[0] = Kokkos::View<double*, S>("n0", n), weights[0] = Kokkos::View<double*, S>("w0", n);
  nodes[1] = Kokkos::View<double*, S>("n1", n), weights[1] = Kokkos::View<double*, S>("w1", n);
  nodes[2] = Kokkos::View<double*, S>("n2", n), weights[2] = Kokkos::View<double*, S>("w2", n);
  recur::gauss(S{}, recur::HermiteE{}, nodes[0], weights[0]);
  recur::gauss(S{}, recur::Legendre{}, nodes[1], weights[1]);
  recur::gauss(S{}, recur::Laguerre{1.5}, nodes[2], weights[2]);
  std::vector<decltype(to_host(nodes[0]))> x, w;
  for (int k = 0; k < 3; ++k) x.push_back(to_host(nodes[k])), w.push_back(to_host(weights[k]));
  // The rules of the weights' probability measures: weights summing to 1.
  std::vector<long double> mass(3, 0);
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < n; ++a) mass[k] += w[k](a);
  Kokkos::View<double**, Kokkos::LayoutRight, S> X("X", M, 3);
  auto X_host = Kokkos::create_mirror_view(X);
  std::vector<long double> W(M);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c) {
        const int i = (a * n + b) * n + c;
        X_host(i, 0) = x[0](a), X_host(i, 1) = x[1](b), X_host(i, 2) = x[2](c);
        W[i] = w[0](a) / mass[0] * w[1](b) / mass[1] * w[2](c) / mass[2];
      }
  Kokkos::deep_copy(X, X_host);
  Kokkos::View<double**, Kokkos::LayoutLeft, S> Psi("Psi", M, P);
  recur::evaluate(S{}, basis, X, Psi);
  const auto psi = to_host(Psi);
  double worst = 0;
  for (int j = 0; j < P; ++j)
    for (int l = 0; l <= j; ++l) {
      long double sum = 0;
      for (int i = 0; i < M; ++i) sum += W[i] * psi(i, j) * psi(i, l);
      worst = std::max(worst, double(std::fabs(sum - (j == l ? 1 : 0))));
    }
  EXPECT_LT(worst, 1e-13);
  EXPECT_TRUE(basis.orthonormal());
}

TYPED_TEST(ProductBasis, ANanCoordinateGivesANanRow) {
  using S = TypeParam;
  const recur::ProductBasis basis(recur::LegendreNormalized{}, recur::MultiIndexSet::total_degree(3, 2));
  Kokkos::View<double**, Kokkos::LayoutRight, S> X("X", 2, 3);
  auto X_host = Kokkos::create_mirror_view(X);
  X_host(0, 0) = 0.5, X_host(0, 1) = std::nan(""), X_host(0, 2) = 0.25;
  X_host(1, 0) = 0.5, X_host(1, 1) = -0.5, X_host(1, 2) = 0.25;
  Kokkos::deep_copy(X, X_host);
  Kokkos::View<double**, Kokkos::LayoutRight, S> Psi("Psi", 2, basis.size());
  Kokkos::View<double***, Kokkos::LayoutRight, S> dPsi("dPsi", 2, basis.size(), 3);
  recur::evaluate(S{}, basis, X, Psi, dPsi);
  const auto psi = to_host(Psi);
  const auto dpsi = to_host(dPsi);
  for (int j = 0; j < basis.size(); ++j) {
    EXPECT_TRUE(std::isnan(psi(0, j))) << j;
    EXPECT_TRUE(std::isfinite(psi(1, j))) << j;
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(std::isnan(dpsi(0, j, k))) << j << ", " << k;
      if (basis.indices()(j, k) == 0) {
        EXPECT_EQ(dpsi(1, j, k), 0.0) << j << ", " << k;
      }
    }
  }
  EXPECT_EQ(psi(1, 0), 1.0);  // the constant function
}

TYPED_TEST(ProductBasis, TakesStridedViewsAndNoSamples) {
  using S = TypeParam;
  const recur::ProductBasis basis(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(2, 3));
  const int M = 50, P = basis.size();
  Kokkos::View<double**, Kokkos::LayoutRight, S> wide("wide", M, 5);
  Kokkos::deep_copy(wide, 0.375);
  const auto X = Kokkos::subview(wide, Kokkos::ALL, Kokkos::make_pair(1, 3));  // LayoutStride
  Kokkos::View<double**, Kokkos::LayoutLeft, S> big("big", M + 10, P + 4);
  const auto Psi = Kokkos::subview(big, Kokkos::make_pair(10, M + 10), Kokkos::make_pair(4, P + 4));
  recur::evaluate(S{}, basis, X, Psi);
  Kokkos::View<double**, Kokkos::LayoutLeft, S> plain("plain", M, P);
  Kokkos::View<double**, Kokkos::LayoutRight, S> X_plain("X", M, 2);
  Kokkos::deep_copy(X_plain, 0.375);
  recur::evaluate(S{}, basis, X_plain, plain);
  const auto a = to_host(big);
  const auto b = to_host(plain);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < P; ++j) EXPECT_EQ(a(i + 10, j + 4), b(i, j));
  for (int j = 0; j < P + 4; ++j) EXPECT_EQ(a(0, j), 0.0);  // outside the slice: untouched

  Kokkos::View<double**, S> X0("X0", 0, 2), Psi0("Psi0", 0, P);
  recur::evaluate(S{}, basis, X0, Psi0);
}

// Psi's columns from every 16-byte offset of a 512-byte run (samples k to
// k + M - 1 of a LayoutLeft View, float and double): on a GPU the teams'
// blocks start at column 0's first 512-byte boundary and those of the
// samples before it come last (ProductTables::head); M below and above a
// block of 128. The same values as a Psi of its own, and nothing written
// outside the slice.
template <class T, class Space>
void expect_columns_from_every_offset() {
  const recur::ProductBasis basis(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(3, 3));
  const int P = basis.size(), per_run = 512 / int(sizeof(T));
  for (const int M : {5, 300}) {
    const std::vector<double> x = samples(M, 3, 7u);
    Kokkos::View<double**, Kokkos::LayoutRight, Space> X("X", M, 3);
    auto host_X = Kokkos::create_mirror_view(X);
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < 3; ++k) host_X(i, k) = x[std::size_t(i) * 3 + k];
    Kokkos::deep_copy(X, host_X);
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> plain("plain", M, P);
    recur::evaluate(Space{}, basis, X, plain);
    const auto b = to_host(plain);
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> big("big", M + per_run, P);
    for (int k = 0; k < per_run; k += 16 / int(sizeof(T))) {
      Kokkos::deep_copy(big, T(-5));
      recur::evaluate(Space{}, basis, X, Kokkos::subview(big, std::make_pair(k, k + M), Kokkos::ALL));
      const auto a = to_host(big);
      int wrong = 0, touched = 0;
      for (int i = 0; i < M + per_run; ++i)
        for (int j = 0; j < P; ++j) {
          if (i >= k && i < k + M) wrong += a(i, j) != b(i - k, j);
          else touched += a(i, j) != T(-5);
        }
      EXPECT_EQ(wrong, 0) << "M = " << M << ", samples from " << k;
      EXPECT_EQ(touched, 0) << "M = " << M << ", samples from " << k;
    }
  }
}

TYPED_TEST(ProductBasis, WritesColumnsFromEveryOffset) {
  expect_columns_from_every_offset<float, TypeParam>();
  expect_columns_from_every_offset<double, TypeParam>();
}

// Random samples X (M x d) in the mixed families' ranges, on Space.
template <class Space>
Kokkos::View<double**, Kokkos::LayoutRight, Space> sample_view(int M, int d, unsigned seed) {
  const std::vector<double> x = samples(M, d, seed);
  Kokkos::View<double**, Kokkos::LayoutRight, Space> X("X", M, d);
  auto host = Kokkos::create_mirror_view(X);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < d; ++k) host(i, k) = x[std::size_t(i) * d + k];
  Kokkos::deep_copy(X, host);
  return X;
}

TYPED_TEST(ProductBasis, SeriesEqualsPsiTimesC) {
  using S        = TypeParam;
  const auto all = mixed_families();
  const recur::ProductBasis basis({all[0], all[1], all[2]}, recur::MultiIndexSet::total_degree(3, 5));
  const int M = 150, P = basis.size(), K = 3;
  const auto X = sample_view<S>(M, 3, 21);
  Kokkos::View<double**, Kokkos::LayoutLeft, S> Psi("Psi", M, P), C("C", P, K), Y("Y", M, K);
  Kokkos::View<double*, S> c("c", P), y("y", M);
  auto C_host = Kokkos::create_mirror_view(C);
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int j = 0; j < P; ++j)
    for (int k = 0; k < K; ++k) C_host(j, k) = u(rng);
  Kokkos::deep_copy(C, C_host);
  Kokkos::deep_copy(c, Kokkos::subview(C, Kokkos::ALL, 1));
  recur::evaluate(S{}, basis, X, Psi);
  recur::series(S{}, basis, C, X, Y);
  recur::series(S{}, basis, c, X, y);
  Kokkos::View<float**, Kokkos::LayoutRight, S> Yf("Yf", M, K);
  recur::series(S{}, basis, C, X, Yf, recur::Fast{});
  const auto psi = to_host(Psi);
  const auto got = to_host(Y);
  const auto one = to_host(y);
  const auto fast = to_host(Yf);
  double worst = 0, worst_fast = 0;
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      long double sum = 0, scale = 0;
      for (int j = 0; j < P; ++j) {
        sum += (long double)psi(i, j) * C_host(j, k);
        scale += std::fabs((long double)psi(i, j) * C_host(j, k));
      }
      worst      = std::max(worst, double(std::fabs(got(i, k) - sum) / scale));
      worst_fast = std::max(worst_fast, double(std::fabs(fast(i, k) - sum) / scale));
      if (k == 1) {
        EXPECT_EQ(one(i), got(i, 1)) << i;
      }
    }
  EXPECT_LT(worst, 1e-14);
  EXPECT_LT(worst_fast, 1e-5);
  {  // More functions than a CPU team keeps values of (the value-by-value sums).
    const recur::ProductBasis large(recur::HermiteENormalized{},
                                    recur::MultiIndexSet::total_degree(2, 260));
    const int L = large.size(), m = 7;
    const auto Xl = sample_view<S>(m, 2, 5);
    Kokkos::View<double**, Kokkos::LayoutRight, S> Psil("Psi", m, L);
    Kokkos::View<double*, S> cl("c", L), yl("y", m);
    auto cl_host = Kokkos::create_mirror_view(cl);
    for (int j = 0; j < L; ++j) cl_host(j) = u(rng);
    Kokkos::deep_copy(cl, cl_host);
    recur::evaluate(S{}, large, Xl, Psil);
    recur::series(S{}, large, cl, Xl, yl);
    const auto psil = to_host(Psil);
    const auto gotl = to_host(yl);
    for (int i = 0; i < m; ++i) {
      long double sum = 0, scale = 0;
      for (int j = 0; j < L; ++j) {
        sum += (long double)psil(i, j) * cl_host(j);
        scale += std::fabs((long double)psil(i, j) * cl_host(j));
      }
      EXPECT_LT(double(std::fabs(gotl(i) - sum) / scale), 1e-13) << i;
    }
  }
  Kokkos::View<double**, S> wrong("C", P - 1, K);
  EXPECT_EQ(invalid_argument_message([&] { recur::series(S{}, basis, wrong, X, Y); }),
            "recur::series (product basis): C has " + std::to_string(P - 1) +
                " rows but the basis has P = " + std::to_string(P) + " functions; C must be P x K");
}

TYPED_TEST(ProductBasis, FitRecoversTheCoefficientsOfAnExpansion) {
  using S        = TypeParam;
  const auto all = mixed_families();
  const recur::ProductBasis basis({all[0], all[1], all[3]}, recur::MultiIndexSet::total_degree(3, 4));
  const int M = 400, P = basis.size();
  const auto X = sample_view<S>(M, 3, 33);
  Kokkos::View<double*, S> c("c", P), y("y", M), got("got", P);
  auto c_host = Kokkos::create_mirror_view(c);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int j = 0; j < P; ++j) c_host(j) = u(rng);
  Kokkos::deep_copy(c, c_host);
  recur::series(S{}, basis, c, X, y);
  recur::fit(S{}, basis, X, y, got);
  const auto fitted = to_host(got);
  for (int j = 0; j < P; ++j) EXPECT_NEAR(fitted(j), c_host(j), 1e-11) << j;

  auto X_host = Kokkos::create_mirror_view(X);
  Kokkos::deep_copy(X_host, X);
  X_host(7, 2) = std::nan("");
  Kokkos::deep_copy(X, X_host);
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(S{}, basis, X, y, got); }),
            "recur::fit: 1 of the 400 points have a non-finite x or y; drop those points (or give "
            "them weight 0) before fitting");
  const auto few = Kokkos::subview(X, std::make_pair(0, P - 1), Kokkos::ALL);
  EXPECT_EQ(invalid_argument_message([&] {
              recur::fit(S{}, basis, few, Kokkos::subview(y, std::make_pair(0, P - 1)), got);
            }),
            "recur::fit: x has " + std::to_string(P - 1) + " points, fewer than N = " +
                std::to_string(P) + " terms; a fit needs at least N points");
}

// Outputs of 16 MiB and more are written with streaming stores on CPUs, and
// rows through tiles turned in registers: the same numbers as chunks of
// rows small enough for plain stores, in every layout, remainders included.
template <class Space, class T, class Layout>
void expect_large_equals_chunks() {
  const recur::ProductBasis basis(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(5, 4));
  const int M = 40003, P = basis.size(), chunk = 1000;
  const auto X = sample_view<Space>(M, 5, 77);
  Kokkos::View<T**, Layout, Space> whole("whole", M, P), pieces("pieces", M, P);
  recur::evaluate(Space{}, basis, X, whole);
  for (int first = 0; first < M; first += chunk) {
    const auto rows = std::make_pair(first, std::min(M, first + chunk));
    recur::evaluate(Space{}, basis, Kokkos::subview(X, rows, Kokkos::ALL),
                    Kokkos::subview(pieces, rows, Kokkos::ALL));
  }
  EXPECT_EQ(count_differences(to_host(whole), to_host(pieces)), 0);
}

// Column slices and row slices (on CPUs both by the walk, 32 samples in
// vectors; rows then turned in registers a vector of rows at a time and
// stored through a staging buffer, whole cache lines; float rows with
// recur::Fast where the build has AVX-512 by lookups, 16 functions at a
// time, except where the tables a value reads take more than 32 slots, as
// at d = 7, p = 5): the same products in the same order, the same bits. P
// odd (a row is not whole 32-byte pieces), fewer functions than a vector
// holds, M not a multiple of 32, and outputs large enough to be streamed.
template <class Space, class T, class Precision = recur::Accurate>
void expect_columns_equal_rows(const recur::MultiIndexSet& set, int M) {
  const recur::ProductBasis basis(recur::HermiteENormalized{}, set);
  const int P = basis.size(), d = set.dimension();
  const auto X = sample_view<Space>(M, d, 79);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> columns("columns", M, P);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> rows("rows", M, P);
  recur::evaluate(Space{}, basis, X, columns, Precision{});
  recur::evaluate(Space{}, basis, X, rows, Precision{});
  const auto c = to_host(columns);
  const auto r = to_host(rows);
  int differences = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < P; ++j) differences += std::memcmp(&c(i, j), &r(i, j), sizeof(T)) != 0;
  EXPECT_EQ(differences, 0) << (std::is_same_v<T, float> ? "float" : "double") << ", P = " << P
                            << ", M = " << M;
}

// Columns whose samples are apart in memory (LayoutStride, every other
// element): the values of contiguous columns, bit for bit, and nothing
// written between them.
template <class Space, class T, class Precision>
void expect_strided_columns_equal_contiguous() {
  const recur::ProductBasis basis(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(5, 4));
  const int M = 1003, P = basis.size();
  const auto X = sample_view<Space>(M, 5, 81);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> columns("columns", M, P);
  Kokkos::View<T*, Space> buffer("buffer", 2 * std::size_t(M) * P);
  Kokkos::View<T**, Kokkos::LayoutStride, Space> apart(buffer.data(), Kokkos::LayoutStride(M, 2, P, 2 * M));
  recur::evaluate(Space{}, basis, X, columns, Precision{});
  recur::evaluate(Space{}, basis, X, apart, Precision{});
  const auto c = to_host(columns);
  const auto b = to_host(buffer);
  int differences = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < P; ++j) {
      const std::size_t at = 2 * std::size_t(i) + 2 * std::size_t(M) * j;
      differences += std::memcmp(&c(i, j), &b(at), sizeof(T)) != 0 || b(at + 1) != 0;
    }
  EXPECT_EQ(differences, 0) << (std::is_same_v<T, float> ? "float" : "double");
}

TYPED_TEST(ProductBasis, LargeOutputsGiveTheNumbersOfSmallOnes) {
  using S = TypeParam;
  expect_large_equals_chunks<S, float, Kokkos::LayoutLeft>();
  expect_large_equals_chunks<S, float, Kokkos::LayoutRight>();
  expect_large_equals_chunks<S, double, Kokkos::LayoutLeft>();
  expect_large_equals_chunks<S, double, Kokkos::LayoutRight>();
  for (const auto& [set, M] : {std::pair{recur::MultiIndexSet::total_degree(5, 4), 40003},
                               std::pair{recur::MultiIndexSet::total_degree(2, 12), 50003},
                               std::pair{recur::MultiIndexSet::total_degree(3, 3), 1001},
                               std::pair{recur::MultiIndexSet::total_degree(2, 1), 77},
                               std::pair{recur::MultiIndexSet::total_degree(7, 5), 1001}}) {
    expect_columns_equal_rows<S, float>(set, M);
    expect_columns_equal_rows<S, double>(set, M);
    expect_columns_equal_rows<S, float, recur::Fast>(set, M);
    expect_columns_equal_rows<S, double, recur::Fast>(set, M);
  }
  expect_strided_columns_equal_contiguous<S, float, recur::Accurate>();
  expect_strided_columns_equal_contiguous<S, double, recur::Accurate>();
  expect_strided_columns_equal_contiguous<S, float, recur::Fast>();
  expect_strided_columns_equal_contiguous<S, double, recur::Fast>();
  // Rows apart in memory (every other row of a wider View).
  const recur::ProductBasis basis(recur::LegendreNormalized{}, recur::MultiIndexSet::total_degree(5, 4));
  const int M = 20001, P = basis.size();
  const auto X = sample_view<S>(M, 5, 78);
  Kokkos::View<double***, Kokkos::LayoutRight, S> wide("wide", M, 2, P);
  const auto apart = Kokkos::subview(wide, Kokkos::ALL, 1, Kokkos::ALL);
  Kokkos::View<double**, Kokkos::LayoutRight, S> plain("plain", M, P);
  recur::evaluate(S{}, basis, X, apart);
  recur::evaluate(S{}, basis, X, plain);
  const auto a = to_host(wide);
  const auto b = to_host(plain);
  int differences = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < P; ++j) differences += a(i, 1, j) != b(i, j) || a(i, 0, j) != 0;
  EXPECT_EQ(differences, 0);
}

// In one dimension a total-degree basis is the family itself: the values
// of the 1-D evaluate, bit for bit, large and non-finite x included.
template <class Space, class T, class Precision, class Family>
void expect_one_dimension_equals_evaluate(const Family& family) {
  const int p = 12, M = 203;
  const recur::ProductBasis basis(family, recur::MultiIndexSet::total_degree(1, p));
  Kokkos::View<T**, Kokkos::LayoutRight, Space> X("X", M, 1);
  Kokkos::View<T*, Space> x("x", M);
  auto x_host = Kokkos::create_mirror_view(x);
  for (int i = 0; i < M; ++i) x_host(i) = T(-1.2 + 2.4 * i / (M - 1));
  x_host(0) = T(1e30), x_host(1) = T(-3e15), x_host(2) = std::numeric_limits<T>::infinity();
  x_host(3) = std::numeric_limits<T>::quiet_NaN(), x_host(4) = T(std::is_same_v<T, float> ? 1e19 : 1e200);
  Kokkos::deep_copy(x, x_host);
  Kokkos::deep_copy(Kokkos::subview(X, Kokkos::ALL, 0), x);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> Psi("Psi", M, p + 1), V("V", M, p + 1);
  recur::evaluate(Space{}, basis, X, Psi, Precision{});
  recur::evaluate(Space{}, family, x, V, Precision{});
  const auto a = to_host(Psi);
  const auto b = to_host(V);
  int differences = 0;
  for (int i = 0; i < M; ++i)
    for (int n = 0; n <= p; ++n)
      differences += !(a(i, n) == b(i, n) || (std::isnan(a(i, n)) && std::isnan(b(i, n))));
  EXPECT_EQ(differences, 0) << Family::name() << (std::is_same_v<T, float> ? " float" : " double")
                            << (std::is_same_v<Precision, recur::Fast> ? " Fast" : "");
}

TYPED_TEST(ProductBasis, InOneDimensionEqualsEvaluateBitForBit) {
  using S = TypeParam;
  const auto each = [](const auto& family) {
    expect_one_dimension_equals_evaluate<S, double, recur::Accurate>(family);
    expect_one_dimension_equals_evaluate<S, float, recur::Accurate>(family);
    expect_one_dimension_equals_evaluate<S, double, recur::Fast>(family);
    expect_one_dimension_equals_evaluate<S, float, recur::Fast>(family);
  };
  each(recur::Legendre{});
  each(recur::HermiteENormalized{});
  each(recur::Normalized<recur::Laguerre>{1.5});
  each(recur::Jacobi{0.5, -0.5});
}

// tensor_gauss gives the product rule (checked against the 1-D rules it is
// made of), and project on it recovers the coefficients of an expansion of
// the basis' own degree.
TYPED_TEST(ProductBasis, ProjectionOnATensorRuleRecoversAnExpansion) {
  using S        = TypeParam;
  const auto all = mixed_families();
  const recur::ProductBasis basis({all[0], all[1], all[2]}, recur::MultiIndexSet::total_degree(3, 4));
  const std::vector<int> n{5, 5, 6};  // max_degree + 1 at least
  const int M = 5 * 5 * 6, P = basis.size();
  Kokkos::View<double**, Kokkos::LayoutRight, S> X("X", M, 3);
  Kokkos::View<double*, S> w("w", M);
  recur::tensor_gauss(S{}, basis, n, X, w);
  const auto x  = to_host(X);
  const auto wh = to_host(w);
  Kokkos::View<double*, Kokkos::HostSpace> nodes("nodes", 5), weights("weights", 5);
  recur::gauss(Kokkos::DefaultHostExecutionSpace{}, recur::Legendre{}, nodes, weights);
  double sum = 0;
  for (int i = 0; i < M; ++i) sum += wh(i);
  EXPECT_NEAR(sum, 1.0, 1e-14);
  // Point (2, 3, 1): the first dimension slowest.
  const int i = (2 * 5 + 3) * 6 + 1;
  EXPECT_EQ(x(i, 1), nodes(3));
  EXPECT_NEAR(wh(i) / wh((2 * 5 + 0) * 6 + 1), weights(3) / weights(0), 1e-13);

  Kokkos::View<double**, Kokkos::LayoutLeft, S> C("C", P, 2), F("F", M, 2), got("got", P, 2);
  auto C_host = Kokkos::create_mirror_view(C);
  for (int j = 0; j < P; ++j) C_host(j, 0) = std::sin(j + 1.0), C_host(j, 1) = 1.0 / (j + 1);
  Kokkos::deep_copy(C, C_host);
  recur::series(S{}, basis, C, X, F);
  recur::project(S{}, basis, X, w, F, got);
  const auto c = to_host(got);
  for (int j = 0; j < P; ++j)
    for (int k = 0; k < 2; ++k) EXPECT_NEAR(c(j, k), C_host(j, k), 1e-13) << j << ", " << k;

  const recur::ProductBasis raw(recur::Legendre{}, recur::MultiIndexSet::total_degree(3, 4));
  EXPECT_EQ(invalid_argument_message([&] { recur::project(S{}, raw, X, w, F, got); }),
            "recur::project (product basis): the basis is not orthonormal; projections onto a "
            "product basis take orthonormal families (recur::Normalized<...>)");
  const recur::ProductBasis monomials(recur::Monomials{}, recur::MultiIndexSet::total_degree(3, 4));
  EXPECT_EQ(invalid_argument_message([&] { recur::tensor_gauss(S{}, monomials, 4, X, w); }),
            "recur::tensor_gauss: Monomials (dimension 0) has no weight function, so no Gauss "
            "rule");
  EXPECT_EQ(invalid_argument_message([&] { recur::tensor_gauss(S{}, basis, 4, X, w); }),
            "recur::tensor_gauss: X is 150 x 3 and weights has 150 entries; the rule has M = 64 "
            "points of d = 3");
}

TEST(ProductBasisErrors, SayWhatToFix) {
  using S = Kokkos::DefaultHostExecutionSpace;
  const auto set = recur::MultiIndexSet::total_degree(3, 2);
  EXPECT_EQ(invalid_argument_message([&] {
              recur::ProductBasis({recur::Legendre{}, recur::HermiteE{}}, set);
            }),
            "recur::ProductBasis: 2 families for a multi-index set of d = 3 dimensions; give one "
            "family per dimension, or one for all");
  const recur::ProductBasis basis(recur::Legendre{}, set);
  Kokkos::View<double**, S> X("X", 4, 2), Psi("Psi", 4, 10), X3("X", 4, 3), Psi9("Psi", 4, 9);
  EXPECT_EQ(invalid_argument_message([&] { recur::evaluate(S{}, basis, X, Psi); }),
            "recur::evaluate (product basis): X has 2 columns but the basis has d = 3 "
            "dimensions; X must be M x d, one sample a row");
  EXPECT_EQ(invalid_argument_message([&] { recur::evaluate(S{}, basis, X3, Psi9); }),
            "recur::evaluate (product basis): Psi is 4 x 9 but must be M x P = 4 x 10 (M rows of "
            "X, P functions in the basis)");
  Kokkos::View<double**, S> Psi10("Psi", 4, 10);
  Kokkos::View<double***, S> dPsi("dPsi", 4, 10, 2);
  EXPECT_EQ(invalid_argument_message([&] { recur::evaluate(S{}, basis, X3, Psi10, dPsi); }),
            "recur::evaluate (product basis): dPsi is 4 x 10 x 2 but must be M x P x d = 4 x 10 x 3");
  EXPECT_EQ(invalid_argument_message([&] { recur::sobol_indices(basis, std::vector<double>(10)); }),
            "recur::sobol_indices: the basis is not orthonormal; Sobol indices follow from "
            "coefficients of orthonormal families only (use recur::Normalized<...>, e.g. "
            "HermiteENormalized)");
  const recur::ProductBasis orthonormal(recur::LegendreNormalized{}, set);
  EXPECT_EQ(invalid_argument_message([&] { recur::sobol_indices(orthonormal, std::vector<double>(9)); }),
            "recur::sobol_indices: 9 coefficients for a basis of P = 10 functions; give one "
            "coefficient per function");
}

// y = 3 + a Psi_(1,0,0) + b Psi_(0,2,0) + c Psi_(1,1,0) + e Psi_(2,0,0): the
// variance is the sum of squares, xi_3 has no share, interactions count in
// the total indices only.
TEST(SobolIndices, OfAKnownModel) {
  const recur::ProductBasis basis(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(3, 2));
  // Total degree order: (0,0,0) (1,0,0) (0,1,0) (0,0,1) (2,0,0) (1,1,0) (1,0,1) (0,2,0) ...
  std::vector<double> c(basis.size(), 0.0);
  const double a = 0.5, b = -2, cc = 1.5, e = 0.25;
  c[0] = 3, c[1] = a, c[4] = e, c[5] = cc, c[7] = b;
  ASSERT_EQ(basis.indices()(7, 1), 2);
  const auto s = recur::sobol_indices(basis, c);
  const double V = a * a + b * b + cc * cc + e * e;
  EXPECT_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.variance, V);
  EXPECT_DOUBLE_EQ(s.first_order[0], (a * a + e * e) / V);
  EXPECT_DOUBLE_EQ(s.first_order[1], b * b / V);
  EXPECT_EQ(s.first_order[2], 0);
  EXPECT_DOUBLE_EQ(s.total[0], (a * a + e * e + cc * cc) / V);
  EXPECT_DOUBLE_EQ(s.total[1], (b * b + cc * cc) / V);
  EXPECT_EQ(s.total[2], 0);
  const auto constant = recur::sobol_indices(basis, std::vector<double>(basis.size(), 0.0));
  EXPECT_TRUE(std::isnan(constant.first_order[0]));
}

// The Ishigami function f = sin x1 + a sin^2 x2 + b x3^4 sin x1, x_k
// uniform on [-pi, pi]: its coefficients in the orthonormal Legendre basis
// of xi = x / pi (total degree 18), projected on a tensor Gauss-Legendre
// rule of 20^3 nodes (tensor_gauss, project), give the closed-form Sobol
// indices.
template <class Space>
struct Ishigami {
  Kokkos::View<double**, Kokkos::LayoutRight, Space> X;
  Kokkos::View<double*, Space> f;
  double a, b;
  KOKKOS_FUNCTION void operator()(int r) const {
    const double pi = 3.14159265358979323846;
    const double x1 = pi * X(r, 0), x2 = pi * X(r, 1), x3 = pi * X(r, 2);
    f(r) = recur::sin(x1) + a * recur::sin(x2) * recur::sin(x2) + b * x3 * x3 * x3 * x3 * recur::sin(x1);
  }
};

TEST(SobolIndices, OfTheIshigamiFunctionMatchTheirClosedForm) {
  using S         = Kokkos::DefaultExecutionSpace;
  const double a  = 7, b = 0.1, pi = 3.14159265358979323846;
  const int n     = 20;
  const recur::ProductBasis basis(recur::LegendreNormalized{},
                                  recur::MultiIndexSet::total_degree(3, 18));
  const int M = n * n * n, P = basis.size();
  Kokkos::View<double**, Kokkos::LayoutRight, S> X("X", M, 3);
  Kokkos::View<double*, S> w("w", M), f("f", M), coefficients("c", P);
  recur::tensor_gauss(S{}, basis, n, X, w);
  Kokkos::parallel_for(Kokkos::RangePolicy<S>(0, M), Ishigami<S>{X, f, a, b});
  recur::project(S{}, basis, X, w, f, coefficients);
  const auto c_host = to_host(coefficients);
  const std::vector<double> c(c_host.data(), c_host.data() + P);
  const auto s     = recur::sobol_indices(basis, c);
  const double pi4 = std::pow(pi, 4), pi8 = pi4 * pi4;
  const double V1 = 0.5 * (1 + b * pi4 / 5) * (1 + b * pi4 / 5), V2 = a * a / 8;
  const double V13 = 8 * b * b * pi8 / 225;
  const double V   = V1 + V2 + V13;
  EXPECT_NEAR(s.mean, a / 2, 1e-9);
  EXPECT_NEAR(s.variance, V, 1e-6 * V);
  EXPECT_NEAR(s.first_order[0], V1 / V, 1e-6);
  EXPECT_NEAR(s.first_order[1], V2 / V, 1e-6);
  EXPECT_NEAR(s.first_order[2], 0, 1e-6);
  EXPECT_NEAR(s.total[0], (V1 + V13) / V, 1e-6);
  EXPECT_NEAR(s.total[1], V2 / V, 1e-6);
  EXPECT_NEAR(s.total[2], V13 / V, 1e-6);
}

}  // namespace product_basis_test
