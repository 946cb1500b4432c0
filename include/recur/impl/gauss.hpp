#ifndef RECUR_IMPL_GAUSS_HPP
#define RECUR_IMPL_GAUSS_HPP

#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/three_term.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace recur::impl {

template <class Family>
struct is_normalized : std::false_type {};
template <class Family>
struct is_normalized<Normalized<Family>> : std::true_type {};

// The orthonormal family of a weighted family (itself if already Normalized).
template <class Family>
auto orthonormal(const Family& family) {
  if constexpr (is_normalized<Family>::value) {
    return family;
  } else {
    return Normalized<Family>(family);
  }
}

// Eigenvalues of the symmetric tridiagonal matrix with diagonal d and
// off-diagonal e (e[k] couples k and k + 1), by the implicit QL algorithm with
// Wilkinson shifts; d is overwritten with them, ascending. O(n^2).
inline void tridiagonal_eigenvalues(std::vector<double>& d, std::vector<double> e) {
  const int n = int(d.size());
  e.push_back(0.0);
  for (int l = 0; l < n; ++l) {
    for (int iteration = 0;; ++iteration) {
      int m = l;
      for (; m < n - 1; ++m) {
        const double dd = std::fabs(d[m]) + std::fabs(d[m + 1]);
        if (std::fabs(e[m]) <= 1e-300 || std::fabs(e[m]) <= 0x1p-53 * dd) break;
      }
      if (m == l) break;
      if (iteration == 60)
        throw std::runtime_error("recur::gauss: the eigenvalue iteration did not converge");
      // (Jacobi matrices here are far from overflow: sqrt(a^2 + b^2) is safe,
      // and several times faster than std::hypot.)
      double g = (d[l + 1] - d[l]) / (2.0 * e[l]);
      double r = std::sqrt(g * g + 1.0);
      g        = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
      double s = 1, c = 1, p = 0;
      int i = m - 1;
      for (; i >= l; --i) {
        double f = s * e[i];
        const double b = c * e[i];
        r = std::sqrt(f * f + g * g);
        e[i + 1] = r;
        if (r == 0) {
          d[i + 1] -= p;
          e[m] = 0;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * s + 2 * c * b;
        p = s * r;
        d[i + 1] = g + p;
        g = c * r - b;
      }
      if (r == 0 && i >= l) continue;
      d[l] -= p;
      e[l] = g;
      e[m] = 0;
    }
  }
  std::sort(d.begin(), d.end());
}

// Newton's method on p_n (orthonormal) from the eigenvalue estimates, then
// the Christoffel weight by the Christoffel-Darboux identity:
//   sum_{k<n} p_k(x)^2 = beta_n (p_n'(x) p_{n-1}(x) - p_{n-1}'(x) p_n(x)),
//   w = mass / that sum.
// The recurrence runs in the working number W, rescaled by 2^-256 whenever it
// passes 2^256 (the orthonormal Hermite polynomials at the outer nodes of
// n = 10 000 reach e^10000): Newton's ratio does not see the scale, and the
// weight is scaled back with ldexp, underflowing to 0 where the true weight is
// below double's range.
template <class T, class W, class MemorySpace, class NodesView, class WeightsView>
struct GaussPolish {
  ThreeTermKernel<W, MemorySpace> kernel;  // orthonormal, n + 1 terms
  NodesView nodes;
  WeightsView weights;
  int n;
  double mass;
  double beta_n;

  KOKKOS_FUNCTION void operator()(std::int64_t i) const {
    double x = nodes(i);
    for (int iteration = 0; iteration < 3; ++iteration) {
      W previous{}, current = kernel.initial, dprevious{}, dcurrent{};
      int scale = 0;
      for (int k = 0; k < n; ++k) {
        const ThreeTermCoefficients<W> c = kernel.coefficients(k);
        const W f     = affine(c.a, x, c.b);
        const W next  = step(f, current, c.c, previous);
        const W dnext = c.a * current + step(f, dcurrent, c.c, dprevious);
        previous = current, current = next, dprevious = dcurrent, dcurrent = dnext;
        if (kokkos_math::fabs(to_double(current)) > 0x1p256 ||
            kokkos_math::fabs(to_double(dcurrent)) > 0x1p256) {
          const W shrink = constant<W>(0x1p-256);
          previous = previous * shrink, current = current * shrink;
          dprevious = dprevious * shrink, dcurrent = dcurrent * shrink;
          ++scale;
        }
      }
      if (iteration < 2) {  // two Newton steps from the eigenvalues
        const double derivative = to_double(dcurrent);
        if (derivative != 0) x -= to_double(current) / derivative;
        continue;
      }
      // The identity in full: x is the double nearest the zero, where p_n is
      // not 0 (near +-1, p_{n-1}' p_n would be 1e-12 of the sum at n = 40).
      // Each product carries 2^(512 scale).
      const double christoffel =
          beta_n * to_double(dcurrent * previous + -(dprevious * current));
      double weight = mass / christoffel;
      for (int s = 0; s < scale; ++s) weight *= 0x1p-512;  // underflows to 0 in two steps
      nodes(i)   = T(x);
      weights(i) = T(weight);
    }
  }
};

}  // namespace recur::impl

#endif
