// recur::gauss: rules integrate polynomials of degree < 2n exactly (to
// rounding), weights sum to the weight's total mass, for every weighted family,
// and stay so at n = 10 000.
#include "test_support.hpp"

namespace gauss_test {

using namespace recur_test;

template <class Space, class T>
struct Rule {
  Kokkos::View<T*, Space> nodes, weights;
};

template <class Space, class T, class Family>
Rule<Space, T> rule(const Family& family, int n) {
  Rule<Space, T> r{Kokkos::View<T*, Space>("nodes", n), Kokkos::View<T*, Space>("weights", n)};
  recur::gauss(Space{}, family, n, r.nodes, r.weights);
  return r;
}

// sum_i w_i p_j(x_i) p_k(x_i) = mass delta_jk for j, k < n, with p the
// orthonormal polynomials (so degree up to 2n - 2), and sum_i w_i p_j(x_i) = 0
// for 0 < j < 2n, each within `tol` of the sum of the magnitudes.
template <class Space, class Family>
void expect_exact(const Family& family, int n, double tol) {
  const auto r      = rule<Space, double>(family, n);
  using Ortho       = decltype(recur::impl::orthonormal(family));
  const Ortho basis = recur::impl::orthonormal(family);
  Kokkos::View<double**, Kokkos::LayoutLeft, Space> V("V", n, 2 * n);
  recur::evaluate(Space{}, basis, r.nodes, V);
  const auto v = to_host(V);
  const auto x = to_host(r.nodes), w = to_host(r.weights);
  const double mass = double(family.total_mass());
  for (int i = 0; i + 1 < n; ++i) EXPECT_LT(x(i), x(i + 1)) << Family::name() << " n=" << n;
  double worst_gram = 0, worst_moment = 0, total = 0;
  for (int i = 0; i < n; ++i) total += w(i);
  for (int j = 0; j < n; ++j)
    for (int k = 0; k <= j; ++k) {
      double sum = 0, scale = 0;
      for (int i = 0; i < n; ++i) {
        sum += w(i) * v(i, j) * v(i, k);
        scale += std::fabs(w(i) * v(i, j) * v(i, k));
      }
      worst_gram = std::max(worst_gram, std::fabs(sum - (j == k ? mass : 0.0)) / scale);
    }
  for (int j = 1; j < 2 * n; ++j) {
    double sum = 0, scale = 0;
    for (int i = 0; i < n; ++i) {
      sum += w(i) * v(i, j);
      scale += std::fabs(w(i) * v(i, j));
    }
    // (p_n vanishes at the nodes: its terms are all rounding, so the scale
    // has the floor of the mass, the integral of |p_j| being at most it.)
    worst_moment = std::max(worst_moment, std::fabs(sum) / std::max(scale, mass));
  }
  EXPECT_NEAR(total / mass, 1.0, tol) << Family::name() << " n=" << n;
  EXPECT_LE(worst_gram, tol) << Family::name() << " n=" << n;
  EXPECT_LE(worst_moment, tol) << Family::name() << " n=" << n;
}

template <class Space>
void expect_exact_rules() {
  for (int n : {1, 2, 7, 40}) {
    expect_exact<Space>(recur::Legendre{}, n, 1e-13);
    expect_exact<Space>(recur::ChebyshevT{}, n, 1e-13);
    expect_exact<Space>(recur::ChebyshevU{}, n, 1e-13);
    expect_exact<Space>(recur::HermiteE{}, n, 1e-13);
    expect_exact<Space>(recur::HermiteNormalized{}, n, 1e-13);
    expect_exact<Space>(recur::Laguerre{}, n, 1e-13);
    expect_exact<Space>(recur::Laguerre{1.5}, n, 1e-13);
    expect_exact<Space>(recur::Jacobi{0.5, -0.3}, n, 1e-13);
    expect_exact<Space>(recur::Gegenbauer{1.5}, n, 1e-13);
  }
}

TEST(Gauss, RulesAreExactForEveryWeightedFamily) {
#ifdef KOKKOS_ENABLE_CUDA
  expect_exact_rules<Kokkos::Cuda>();
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  expect_exact_rules<Kokkos::OpenMP>();
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  expect_exact_rules<Kokkos::Serial>();
#endif
}

// n = 10 000 (numpy's Golub-Welsch Hermite nodes degrade past about 200;
// 2000 in sanitized builds, whose unoptimized code would take minutes over
// the O(n^2) steps: the same paths, underflowing Hermite weights included):
// weights sum to the mass, nodes are symmetric, and the rule integrates
// p_1, p_2 and p_n (orthonormal) to 0, each within 1e-12 of the sum of the
// magnitudes (weights that underflow, below 1e-308, drop out).
template <class Family>
void expect_large_rule(const Family& family, int n) {
  using Space       = Kokkos::DefaultExecutionSpace;
  const auto r      = rule<Space, double>(family, n);
  const auto basis  = recur::impl::orthonormal(family);
  Kokkos::View<double**, Kokkos::LayoutLeft, Space> C("C", n + 1, 3), Y("Y", n, 3);
  auto c = Kokkos::create_mirror_view(C);
  c(1, 0) = 1, c(2, 1) = 1, c(n, 2) = 1;
  Kokkos::deep_copy(C, c);
  recur::series(Space{}, basis, C, r.nodes, Y);
  const auto y = to_host(Y);
  const auto x = to_host(r.nodes), w = to_host(r.weights);
  double total = 0, asymmetry = 0;
  for (int i = 0; i < n; ++i) {
    total += w(i);
    asymmetry = std::max(asymmetry, std::fabs(x(i) + x(n - 1 - i)) / (1 + std::fabs(x(i))));
  }
  EXPECT_NEAR(total / double(family.total_mass()), 1.0, 1e-12) << Family::name();
  EXPECT_LE(asymmetry, 1e-14) << Family::name();
  for (int k = 0; k < 3; ++k) {
    double sum = 0, scale = 0;
    for (int i = 0; i < n; ++i)
      if (w(i) > 0) sum += w(i) * y(i, k), scale += std::fabs(w(i) * y(i, k));
    EXPECT_LE(std::fabs(sum), 1e-12 * std::max(scale, double(family.total_mass())))
        << Family::name() << " k=" << k;
  }
}

#if defined(__SANITIZE_ADDRESS__)
constexpr int large_rule_points = 2000;
#else
constexpr int large_rule_points = 10000;
#endif

TEST(Gauss, LargeRulesOfLegendreAndHermite) {
  expect_large_rule(recur::Legendre{}, large_rule_points);
  expect_large_rule(recur::HermiteE{}, large_rule_points);
  expect_large_rule(recur::Hermite{}, large_rule_points);
}

TEST(Gauss, FloatRulesAreTheDoubleRulesToFloatPrecision) {
  using Space = Kokkos::DefaultExecutionSpace;
  const auto d = rule<Space, double>(recur::Legendre{}, 50);
  const auto f = rule<Space, float>(recur::Legendre{}, 50);
  const auto dx = to_host(d.nodes), dw = to_host(d.weights);
  const auto fx = to_host(f.nodes), fw = to_host(f.weights);
  for (int i = 0; i < 50; ++i) {
    EXPECT_NEAR(fx(i), dx(i), 6e-8 * std::fabs(dx(i)) + 1e-30);
    EXPECT_NEAR(fw(i), dw(i), 6e-8 * dw(i));
  }
}

TEST(GaussErrors, PointsAndExtentsAreCheckedByName) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> a("a", 4), b("b", 3);
  EXPECT_EQ(invalid_argument_message([&] { recur::gauss(Space{}, recur::Legendre{}, 0, a, a); }),
            "recur::gauss: n = 0 points; n must be at least 1");
  EXPECT_EQ(invalid_argument_message([&] { recur::gauss(Space{}, recur::Legendre{}, 4, a, b); }),
            "recur::gauss: nodes has 4 entries and weights 3; both must have n = 4");
}

}  // namespace gauss_test
