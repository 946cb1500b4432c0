// recur::series against the direct sum V C formed in long double on the host,
// with V from each family's recurrence run in long double.
#include "test_support.hpp"

#include <cstdio>
#include <cstring>

namespace series_test {

using namespace recur_test;

template <class C>
class Series : public ::testing::Test {};
TYPED_TEST_SUITE(Series, AllConfigs, ConfigName);

// The worst error of Y (and dY) relative to sum_n |C(n, k) p_n(x)| (and the
// same with p_n'), the scale of the rounding any summation commits.
template <class C, class Family>
void expect_series_matches(const Family& family, int M, int N, int K, double bound) {
  using T = typename C::scalar;
  using Space = typename C::space;
  const auto xs = sample_points<T>(M, bound);
  const auto x  = to_device<typename C::XView>(xs);
  Kokkos::View<T**, typename C::layout, Space> coefficients("C", N, K);
  typename C::VView Y("Y", M, K), dY("dY", M, K), Y_only("Y only", M, K);
  auto c = Kokkos::create_mirror_view(coefficients);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) c(n, k) = T(dist(rng));
  Kokkos::deep_copy(coefficients, c);
  recur::series(Space{}, family, coefficients, x, Y, dY);
  recur::series(Space{}, family, coefficients, x, Y_only);
  const auto y = to_host(Y), dy = to_host(dY), y_only = to_host(Y_only);
  double worst = 0, dworst = 0;
  std::vector<long double> p, dp;
  for (int i = 0; i < M; ++i) {
    reference_values(family, (long double)xs[i], N, p, dp);
    for (int k = 0; k < K; ++k) {
      long double sum = 0, dsum = 0, scale = 0, dscale = 0;
      for (int n = 0; n < N; ++n) {
        sum += c(n, k) * p[n];
        dsum += c(n, k) * dp[n];
        scale += std::fabs(c(n, k) * p[n]);
        dscale += std::fabs(c(n, k) * dp[n]);
      }
      worst  = std::max(worst, double(std::fabs(y(i, k) - sum) / scale));
      dworst = std::max(dworst, double(std::fabs(dy(i, k) - dsum) / std::max(dscale, 1e-300L)));
      EXPECT_EQ(y(i, k), y_only(i, k)) << "with and without dY";
    }
  }
  EXPECT_LE(worst, tolerance<T>(N)) << Family::name() << " N=" << N;
  EXPECT_LE(dworst, tolerance<T>(N)) << Family::name() << " N=" << N << " (derivative)";
}

TYPED_TEST(Series, MatchesTheDirectSumForEveryKindOfFamily) {
  using C = TypeParam;
  for (int N : {1, 2, 17, 300}) {
    expect_series_matches<C>(recur::PowerSums{}, 41, N, 3, 0.99);
    expect_series_matches<C>(recur::Monomials{}, 41, std::min(N, 40), 3, 1.0);
    expect_series_matches<C>(recur::Legendre{}, 41, N, 3, 1.0);
    expect_series_matches<C>(recur::ChebyshevT{}, 41, N, 3, 1.0);
    expect_series_matches<C>(recur::HermiteENormalized{}, 41, N, 3, 5.0);
    expect_series_matches<C>(recur::JacobiNormalized{0.5, -0.5}, 41, N, 3, 1.0);
    expect_series_matches<C>(recur::GegenbauerNormalized{1.5}, 41, N, 3, 1.0);
    expect_series_matches<C>(recur::HermiteFunction{}, 41, N, 3, 8.0);
  }
}

// Every x of a lockstep block (8 or 16 a work item on CPUs) gets, bit for
// bit, what it gets alone: the sums of 37 x (whole blocks and a partial one)
// against 37 calls of one x each, values and derivatives, with lanes scaled
// apart (He_n's functions at |x| up to 30 pass the scaling limit at
// different n). Blocks of x run in lockstep (on CPUs with AVX2, the sums of
// three-term families in vectors, double-double, double or float, which hand
// a block to the scalar lanes once a sum passes the scaling limit): whole
// blocks, a partial one, with and without derivatives, recur::Accurate and
// recur::Fast, x within [-1, 1] and out to 30 (where He_299 passes the limit).
TYPED_TEST(Series, EveryLaneGivesWhatOneXGetsAlone) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  using Space = typename C::space;
  const int M = 37, N = 300, K = 2;
  Kokkos::View<T**, typename C::layout, Space> coefficients("C", N, K);
  auto c = Kokkos::create_mirror_view(coefficients);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) c(n, k) = T(std::sin(1.0 + n + 7.0 * k));
  Kokkos::deep_copy(coefficients, c);
  for (const double reach : {30.0, 1.0}) {
    const auto xs = sample_points<T>(M, reach);
    const auto x  = to_device<typename C::XView>(xs);
    const auto check = [&](const auto& family, bool derivative, auto precision) {
      typename C::VView Y("Y", M, K), dY("dY", M, K);
      if (derivative) {
        recur::series(Space{}, family, coefficients, x, Y, dY, precision);
      } else {
        recur::series(Space{}, family, coefficients, x, Y, precision);
      }
      const auto y = to_host(Y), dy = to_host(dY);
      for (int i = 0; i < M; ++i) {
        const auto one = to_device<typename C::XView>(std::vector<T>{xs[i]});
        typename C::VView Y1("Y1", 1, K), dY1("dY1", 1, K);
        recur::series(Space{}, family, coefficients, one, Y1, dY1, precision);
        const auto y1 = to_host(Y1), dy1 = to_host(dY1);
        for (int k = 0; k < K; ++k) {
          EXPECT_EQ(std::memcmp(&y(i, k), &y1(0, k), sizeof(T)), 0)
              << family.name() << " x = " << xs[i] << (derivative ? " with" : " without") << " dY";
          if (derivative)
            EXPECT_EQ(std::memcmp(&dy(i, k), &dy1(0, k), sizeof(T)), 0)
                << family.name() << " x = " << xs[i];
        }
      }
    };
    for (const bool derivative : {true, false}) {
      check(recur::HermiteE{}, derivative, recur::Accurate{});
      check(recur::HermiteFunction{}, derivative, recur::Accurate{});
      check(recur::Legendre{}, derivative, recur::Accurate{});
      check(recur::HermiteE{}, derivative, recur::Fast{});
      check(recur::Legendre{}, derivative, recur::Fast{});
    }
  }
}

#ifdef RECUR_ENABLE_KOKKOSKERNELS
// The same sums through V and Kokkos Kernels' gemv (K = 1) and gemm (K > 1).
TYPED_TEST(Series, ThroughBlasMatchesTheFusedSums) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  using Space = typename C::space;
  const int M = 77, N = 33;
  const auto x = to_device<typename C::XView>(sample_points<T>(M, 1.0));
  for (int K : {1, 5}) {
    Kokkos::View<T**, typename C::layout, Space> coefficients("C", N, K);
    auto c = Kokkos::create_mirror_view(coefficients);
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) c(n, k) = T(1.0 / (1 + n + k));
    Kokkos::deep_copy(coefficients, c);
    typename C::VView fused("fused", M, K), blas("blas", M, K);
    recur::series(Space{}, recur::LegendreNormalized{}, coefficients, x, fused);
    recur::series_via_blas(Space{}, recur::LegendreNormalized{}, coefficients, x, blas);
    const auto f = to_host(fused), b = to_host(blas);
    double worst = 0;
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        worst = std::max(worst, double(std::fabs(f(i, k) - b(i, k)) /
                                       (1 + std::fabs((long double)f(i, k)))));
    EXPECT_LE(worst, 40 * std::numeric_limits<T>::epsilon()) << "K=" << K;
  }
}
#endif

TEST(SeriesErrors, ExtentsAreCheckedByName) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> x("x", 5);
  Kokkos::View<double**, Space> C("C", 4, 2), Y("Y", 5, 3), Y4("Y4", 4, 2), C0("C0", 0, 3),
      Y2("Y2", 5, 2), dY("dY", 5, 1);
  EXPECT_EQ(invalid_argument_message([&] { recur::series(Space{}, recur::Legendre{}, C, x, Y); }),
            "recur::series: C has 2 columns (coefficient sets) but Y has 3; Y must be "
            "M x K with K = C.extent(1)");
  EXPECT_EQ(invalid_argument_message([&] { recur::series(Space{}, recur::Legendre{}, C, x, Y4); }),
            "recur::series: x has 5 entries but Y has 4 rows; Y must be M x K with "
            "M = x.extent(0)");
  EXPECT_EQ(invalid_argument_message([&] { recur::series(Space{}, recur::Legendre{}, C0, x, Y); }),
            "recur::series: C has 0 rows; N = C.extent(0), the number of terms, must be "
            "between 1 and 2^31 - 1");
  EXPECT_EQ(invalid_argument_message([&] { recur::series(Space{}, recur::Legendre{}, C, x, Y2, dY); }),
            "recur::series: dY is 5 x 1 but Y is 5 x 2; dY must have Y's extents");
}

}  // namespace series_test
