// recur::MultiIndexSet against brute force: every alpha in [0, p]^d,
// filtered by the set's rule and put in its documented order by a sort.
#include <recur/multi_index.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace multi_index_test {

using Alpha = std::vector<int>;

// Every alpha in [0, p]^d, in numpy's tensor order (the last dimension fastest).
std::vector<Alpha> box(int d, int p) {
  std::vector<Alpha> all;
  Alpha alpha(d, 0);
  for (;;) {
    all.push_back(alpha);
    int k = d - 1;
    while (k >= 0 && alpha[k] == p) alpha[k--] = 0;
    if (k < 0) return all;
    ++alpha[k];
  }
}

int degree(const Alpha& alpha) {
  int sum = 0;
  for (int a : alpha) sum += a;
  return sum;
}

// Graded, then decreasing lexicographic within a degree.
void sort_graded(std::vector<Alpha>& set) {
  std::stable_sort(set.begin(), set.end(), [](const Alpha& a, const Alpha& b) {
    if (degree(a) != degree(b)) return degree(a) < degree(b);
    return a > b;
  });
}

std::vector<Alpha> rows(const recur::MultiIndexSet& set) {
  std::vector<Alpha> out;
  for (int j = 0; j < set.size(); ++j) {
    Alpha alpha;
    for (int k = 0; k < set.dimension(); ++k) alpha.push_back(set(j, k));
    out.push_back(alpha);
  }
  return out;
}

long long binomial(int n, int k) {
  long long c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

TEST(MultiIndex, TotalDegreeIsGradedInOpenTurnsOrder) {
  // The order the issue of record states for d = 3 (OpenTURNS'
  // LinearEnumerateFunction).
  const std::vector<Alpha> start = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {2, 0, 0}, {1, 1, 0}, {1, 0, 1}, {0, 2, 0}};
  const auto three = rows(recur::MultiIndexSet::total_degree(3, 2));
  ASSERT_EQ(three.size(), 10u);
  EXPECT_TRUE(std::equal(start.begin(), start.end(), three.begin()));
  for (int d = 1; d <= 6; ++d) {
    for (int p = 0; p <= 6; ++p) {
      const auto set = recur::MultiIndexSet::total_degree(d, p);
      EXPECT_EQ(set.size(), binomial(p + d, d)) << d << " " << p;
      auto expected = box(d, p);
      expected.erase(std::remove_if(expected.begin(), expected.end(),
                                    [p](const Alpha& a) { return degree(a) > p; }),
                     expected.end());
      sort_graded(expected);
      EXPECT_EQ(rows(set), expected) << "d = " << d << ", p = " << p;
      for (int k = 0; k < d; ++k) EXPECT_EQ(set.max_degree(k), p);
    }
  }
}

TEST(MultiIndex, TensorIsNumpysVanderOrder) {
  EXPECT_EQ(rows(recur::MultiIndexSet::tensor(3, 2)), box(3, 2));
  // Anisotropic: numpy's hermevander2d(x, y, [2, 1]) columns are
  // (0,0), (0,1), (1,0), (1,1), (2,0), (2,1).
  const auto set = recur::MultiIndexSet::tensor(std::vector<int>{2, 1});
  EXPECT_EQ(rows(set), (std::vector<Alpha>{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}}));
  EXPECT_EQ(set.max_degree(0), 2);
  EXPECT_EQ(set.max_degree(1), 1);
}

TEST(MultiIndex, HyperbolicKeepsTheQNormBallInGradedOrder) {
  for (const double q : {1.0, 0.75, 0.5, 0.3}) {
    for (int d = 1; d <= 4; ++d) {
      for (int p = 0; p <= 6; ++p) {
        auto expected = box(d, p);
        expected.erase(std::remove_if(expected.begin(), expected.end(),
                                      [&](const Alpha& a) {
                                        long double sum = 0;
                                        for (int v : a) sum += std::pow((long double)v, q);
                                        return std::pow(sum, 1 / (long double)q) > p + 1e-9L;
                                      }),
                       expected.end());
        sort_graded(expected);
        EXPECT_EQ(rows(recur::MultiIndexSet::hyperbolic(d, p, q)), expected)
            << "q = " << q << ", d = " << d << ", p = " << p;
      }
    }
  }
  // On the boundary: (1, 1) has q-norm (1 + 1)^2 = 4 at q = 0.5.
  const auto ball = rows(recur::MultiIndexSet::hyperbolic(2, 4, 0.5));
  EXPECT_NE(std::find(ball.begin(), ball.end(), Alpha{1, 1}), ball.end());
  EXPECT_EQ(std::find(ball.begin(), ball.end(), Alpha{2, 1}), ball.end());
  EXPECT_EQ(rows(recur::MultiIndexSet::hyperbolic(5, 3, 1.0)),
            rows(recur::MultiIndexSet::total_degree(5, 3)));
}

TEST(MultiIndex, FromTableKeepsTheTable) {
  const auto set = recur::MultiIndexSet::from_table(2, {0, 0, 3, 1, 0, 2});
  EXPECT_EQ(rows(set), (std::vector<Alpha>{{0, 0}, {3, 1}, {0, 2}}));
  EXPECT_EQ(set.max_degree(0), 3);
  EXPECT_EQ(set.max_degree(1), 2);
}

std::string message_of(void (*make)()) {
  try {
    make();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(MultiIndex, BadArgumentsSayWhatToFix) {
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::total_degree(0, 2); }),
            "recur::MultiIndexSet::total_degree: d = 0 dimensions; a set needs at least one");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::total_degree(3, -1); }),
            "recur::MultiIndexSet::total_degree: degree p = -1; the degree must be at least 0");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::hyperbolic(2, 3, 1.5); }),
            "recur::MultiIndexSet::hyperbolic: q = 1.5; the quasi-norm's q must be in (0, 1] "
            "(1 gives the total degree set)");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::hyperbolic(2, 3, 0); }),
            "recur::MultiIndexSet::hyperbolic: q = 0; the quasi-norm's q must be in (0, 1] "
            "(1 gives the total degree set)");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::tensor(std::vector<int>{2, -1}); }),
            "recur::MultiIndexSet::tensor: degree -1 in dimension 1; every degree must be at "
            "least 0");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::from_table(2, {0, 0, 1}); }),
            "recur::MultiIndexSet::from_table: the table has 3 entries, which is not a positive "
            "multiple of d = 2; give P rows of d degrees each");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::from_table(2, {0, 0, 1, -2}); }),
            "recur::MultiIndexSet::from_table: row 1 has degree -2 in dimension 1; degrees must "
            "be at least 0");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::from_table(2, {1, 0, 0, 1, 1, 0}); }),
            "recur::MultiIndexSet::from_table: row 2 repeats an earlier row; each multi-index "
            "may appear once");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::total_degree(40, 12); }),
            "recur::MultiIndexSet::total_degree: the set would hold more than 3355443 "
            "multi-indices of d = 40 (2^27 entries); lower the degree or the dimension, or use "
            "a hyperbolic set");
  EXPECT_EQ(message_of([] { recur::MultiIndexSet::tensor(20, 3); }),
            "recur::MultiIndexSet::tensor: the set would hold more than 6710886 multi-indices "
            "of d = 20 (2^27 entries); lower the degree or the dimension, or use a hyperbolic "
            "set");
}

}  // namespace multi_index_test
