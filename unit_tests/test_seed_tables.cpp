// The tables printed in the seed (../shared/seed/numba-guvectorize-answer.txt),
// reproduced on every configuration.
#include "test_support.hpp"

namespace {

using namespace recur_test;

template <class C>
class SeedTables : public ::testing::Test {};
TYPED_TEST_SUITE(SeedTables, AllConfigs, ConfigName);

template <class C, class Family, std::size_t M, std::size_t N>
void expect_table(const Family& family, const std::vector<double>& xs,
                  const double (&printed)[M][N], double relative) {
  using T      = typename C::scalar;
  const auto x = to_device<typename C::XView>(std::vector<T>(xs.begin(), xs.end()));
  typename C::VView V("V", M, N);
  recur::evaluate(family, x, V);
  const auto h = to_host(V);
  for (std::size_t i = 0; i < M; ++i) {
    double row_max = 0;
    for (std::size_t n = 0; n < N; ++n)
      row_max = std::max(row_max, std::fabs(printed[i][n]));
    for (std::size_t n = 0; n < N; ++n)
      EXPECT_NEAR(h(i, n), printed[i][n], relative * row_max)
          << Family::name() << " x=" << xs[i] << " n=" << n;
  }
}

// t2.py: power sums for x = 1..4, N = 4 (integers, exact in float).
TYPED_TEST(SeedTables, PowerSumsT2) {
  const double printed[4][4] = {
      {1, 2, 3, 4}, {2, 6, 14, 30}, {3, 12, 39, 120}, {4, 20, 84, 340}};
  expect_table<TypeParam>(recur::PowerSums{}, {1, 2, 3, 4}, printed, 0.0);
}

// t3.py: He_n(x) / sqrt(n!) for x = 0..4, N = 4, as its "cpu result" printed
// them (8 to 9 significant digits). Each entry is judged on its row's scale:
// 0 = (1/sqrt(2)) 1 - sqrt(1/2) 1 and 0.816 = 2.45 - 1.63 cancel, so a few
// units in the last place of the row's largest value is what any float
// recurrence can promise there.
TYPED_TEST(SeedTables, HermiteENormalizedT3) {
  const double printed[5][4] = {{1, 0, -0.70710678, -0},
                                {1, 1, 0, -0.81649658},
                                {1, 2, 2.12132034, 0.81649658},
                                {1, 3, 5.65685425, 7.34846923},
                                {1, 4, 10.60660172, 21.2289111}};
  expect_table<TypeParam>(recur::HermiteENormalized{}, {0, 1, 2, 3, 4}, printed,
                          std::is_same_v<typename TypeParam::scalar, float>
                              ? 5e-7
                              : 1e-8);
}

}  // namespace
