#ifndef RECUR_MULTI_INDEX_HPP
#define RECUR_MULTI_INDEX_HPP

// Multi-index sets: which products Psi_alpha(xi) = prod_k p_{alpha_k}(xi_k)
// a multivariate (polynomial chaos) basis in d dimensions holds, and in what
// order. A set is a table of P multi-indices alpha in N^d (row j: alpha_j),
// made on the host.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace recur {

class MultiIndexSet {
 public:
  /// The most entries a set's table (P x d ints) may hold: 2^27, 512 MiB.
  static constexpr std::int64_t max_entries = std::int64_t(1) << 27;

  /// Every alpha with |alpha| = alpha_1 + ... + alpha_d <= p (P = C(p + d,
  /// d)): graded by |alpha|, and within one degree in decreasing
  /// lexicographic order, as OpenTURNS' LinearEnumerateFunction orders them
  /// (d = 3: (0,0,0), (1,0,0), (0,1,0), (0,0,1), (2,0,0), (1,1,0), ...).
  static MultiIndexSet total_degree(int d, int p) {
    const std::string where = "recur::MultiIndexSet::total_degree: ";
    check_dimension_and_degree(where, d, p);
    // P = C(p + d, d), known before a single index is made.
    std::int64_t size = 1;
    for (int i = 1; i <= d; ++i) {
      size = size * (p + i) / i;  // C(p + i, i), exact at each step
      check_size(where, size, d);
    }
    return graded(where, d, p, [](const std::vector<int>&, int) { return true; });
  }

  /// Every alpha with alpha_k <= p[k] for each of the d = p.size()
  /// dimensions (P = prod (p_k + 1)), in numpy's *vander2d / *vander3d
  /// column order: alpha_1 varies slowest, alpha_d fastest.
  static MultiIndexSet tensor(const std::vector<int>& p) {
    const std::string where = "recur::MultiIndexSet::tensor: ";
    const int d = int(p.size());
    check_dimension_and_degree(where, d, 0);
    std::int64_t size = 1;
    for (int k = 0; k < d; ++k) {
      if (p[k] < 0)
        throw std::invalid_argument(where + "degree " + std::to_string(p[k]) + " in dimension " +
                                    std::to_string(k) + "; every degree must be at least 0");
      size *= std::int64_t(p[k]) + 1;
      check_size(where, size, d);
    }
    MultiIndexSet set(d);
    set.m_table.reserve(std::size_t(size) * std::size_t(d));
    std::vector<int> alpha(std::size_t(d), 0);
    for (std::int64_t j = 0; j < size; ++j) {
      set.m_table.insert(set.m_table.end(), alpha.begin(), alpha.end());
      for (int k = d - 1; k >= 0; --k) {  // the next alpha: the last dimension fastest
        if (alpha[k] < p[k]) {
          ++alpha[k];
          break;
        }
        alpha[k] = 0;
      }
    }
    return set;
  }

  /// tensor with the same degree p in each of d dimensions.
  static MultiIndexSet tensor(int d, int p) {
    check_dimension_and_degree("recur::MultiIndexSet::tensor: ", d, p);
    return tensor(std::vector<int>(std::size_t(d), p));
  }

  /// Every alpha whose q-norm (sum alpha_k^q)^(1/q) is at most p, 0 < q <= 1
  /// (q = 1: total_degree; smaller q keeps fewer interactions between
  /// dimensions), in total_degree's order. Within 1e-12 relative: (1, 1) is
  /// in the set of p = 4, q = 0.5.
  static MultiIndexSet hyperbolic(int d, int p, double q) {
    const std::string where = "recur::MultiIndexSet::hyperbolic: ";
    check_dimension_and_degree(where, d, p);
    if (!(q > 0 && q <= 1))
      throw std::invalid_argument(where + "q = " + number(q) +
                                  "; the quasi-norm's q must be in (0, 1] (1 gives the total "
                                  "degree set)");
    const double bound = std::pow(double(p), q) * (1 + 1e-12);
    return graded(where, d, p, [q, bound](const std::vector<int>& alpha, int filled) {
      double sum = 0;
      for (int k = 0; k < filled; ++k) sum += alpha[k] > 0 ? std::pow(double(alpha[k]), q) : 0.0;
      return sum <= bound;
    });
  }

  /// The multi-indices of `table` (P rows of d entries, row-major), in its
  /// order: each entry at least 0, no row twice.
  static MultiIndexSet from_table(int d, std::vector<int> table) {
    const std::string where = "recur::MultiIndexSet::from_table: ";
    check_dimension_and_degree(where, d, 0);
    if (table.empty() || table.size() % std::size_t(d) != 0)
      throw std::invalid_argument(where + "the table has " + std::to_string(table.size()) +
                                  " entries, which is not a positive multiple of d = " +
                                  std::to_string(d) + "; give P rows of d degrees each");
    check_size(where, std::int64_t(table.size() / std::size_t(d)), d);
    MultiIndexSet set(d);
    set.m_table = std::move(table);
    std::set<std::vector<int>> seen;
    for (int j = 0; j < set.size(); ++j) {
      std::vector<int> row(set.m_table.begin() + std::ptrdiff_t(j) * d,
                           set.m_table.begin() + std::ptrdiff_t(j + 1) * d);
      for (int k = 0; k < d; ++k)
        if (row[k] < 0)
          throw std::invalid_argument(where + "row " + std::to_string(j) + " has degree " +
                                      std::to_string(row[k]) + " in dimension " +
                                      std::to_string(k) + "; degrees must be at least 0");
      if (!seen.insert(row).second)
        throw std::invalid_argument(where + "row " + std::to_string(j) +
                                    " repeats an earlier row; each multi-index may appear once");
    }
    return set;
  }

  /// d, the number of dimensions.
  int dimension() const { return m_dimension; }
  /// P, the number of multi-indices (basis functions).
  int size() const { return int(m_table.size() / std::size_t(m_dimension)); }
  /// Entry k of multi-index j: the degree of dimension k in basis function j.
  int operator()(int j, int k) const { return m_table[std::size_t(j) * m_dimension + k]; }
  /// The largest degree dimension k takes in the set.
  int max_degree(int k) const {
    int most = 0;
    for (int j = 0; j < size(); ++j) most = (*this)(j, k) > most ? (*this)(j, k) : most;
    return most;
  }
  /// The P x d table, row-major.
  const std::vector<int>& table() const { return m_table; }

 private:
  explicit MultiIndexSet(int d) : m_dimension(d) {}

  static std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  }

  static void check_dimension_and_degree(const std::string& where, int d, int p) {
    if (d < 1)
      throw std::invalid_argument(where + "d = " + std::to_string(d) +
                                  " dimensions; a set needs at least one");
    if (p < 0)
      throw std::invalid_argument(where + "degree p = " + std::to_string(p) +
                                  "; the degree must be at least 0");
  }

  static void check_size(const std::string& where, std::int64_t size, int d) {
    if (size > max_entries / d)
      throw std::invalid_argument(where + "the set would hold more than " +
                                  std::to_string(max_entries / d) + " multi-indices of d = " +
                                  std::to_string(d) +
                                  " (2^27 entries); lower the degree or the dimension, or use "
                                  "a hyperbolic set");
  }

  // Every alpha of total degree <= p that `keep` accepts, graded, each
  // degree in decreasing lexicographic order. keep(alpha, filled) sees the
  // first `filled` entries; it must reject every extension of a prefix it
  // rejects (it prunes).
  template <class Keep>
  static MultiIndexSet graded(const std::string& where, int d, int p, const Keep& keep) {
    MultiIndexSet set(d);
    std::vector<int> alpha(std::size_t(d), 0);
    std::int64_t count = 0;
    // Entries k.. of alpha summing to `left`, the largest first.
    const auto fill = [&](const auto& self, int k, int left) -> void {
      if (k == d - 1) {
        alpha[k] = left;
        if (keep(alpha, d)) {
          check_size(where, ++count, d);
          set.m_table.insert(set.m_table.end(), alpha.begin(), alpha.end());
        }
        return;
      }
      for (int a = left; a >= 0; --a) {
        alpha[k] = a;
        if (keep(alpha, k + 1)) self(self, k + 1, left - a);
      }
    };
    for (int degree = 0; degree <= p; ++degree) fill(fill, 0, degree);
    return set;
  }

  int m_dimension;
  std::vector<int> m_table;
};

}  // namespace recur

#endif
