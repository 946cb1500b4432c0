#ifndef RECUR_FAMILIES_HPP
#define RECUR_FAMILIES_HPP

#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>

namespace recur {

/// Coefficients of one step of a three-term recurrence,
/// p_{n+1}(x) = (a x + b) p_n(x) - c p_{n-1}(x), with p_{-1} = 0.
template <class T>
struct ThreeTermCoefficients {
  T a;
  T b;
  T c;
};

// A *three-term family* is a trivially copyable type with
//   static constexpr const char* name();              // used in kernel labels
//   double initial() const;                           // p_0, a constant
//   ThreeTermCoefficients<double> coefficients(int n) const;  // step n -> n+1
// recur tabulates coefficients(0 .. N-2) once per call, on the host, so they
// may use sqrt, division or anything else; the device loop is then two FMAs
// per output. A user family of this shape needs no library change.
//
// A *direct family* instead gives the whole slice itself:
//   template <class T> KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const;

/// Partial power sums, the seed's first example:
/// V(i, k) = x_i + x_i^2 + ... + x_i^(k+1).
struct PowerSums {
  static constexpr const char* name() { return "PowerSums"; }

  template <class T>
  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const {
    // Same operation order as the seed's kernel, so float results match it.
    T power = x;
    T sum   = 0;
    for (int k = 0; k < s.size(); ++k) {
      sum += power;
      s(k) = sum;
      power *= x;
    }
  }
};

/// Probabilists' Hermite polynomials He_n(x) (scipy.special.eval_hermitenorm):
/// He_0 = 1, He_1 = x, He_{n+1} = x He_n - n He_{n-1}.
struct HermiteE {
  static constexpr const char* name() { return "HermiteE"; }
  double initial() const { return 1.0; }
  ThreeTermCoefficients<double> coefficients(int n) const {
    return {1.0, 0.0, double(n)};
  }
};

/// Normalized probabilists' Hermite polynomials He_n(x) / sqrt(n!), the seed's
/// second example, by the recurrence
///   h_{n+1} = x h_n / sqrt(n+1) - sqrt(n / (n+1)) h_{n-1},
/// which never forms n!: finite wherever the true value is representable
/// (the seed's He_n / sqrt(n!) overflows from n = 35 in float).
struct HermiteENormalized {
  static constexpr const char* name() { return "HermiteENormalized"; }
  double initial() const { return 1.0; }
  ThreeTermCoefficients<double> coefficients(int n) const {
    const double n1 = n + 1.0;
    return {1.0 / std::sqrt(n1), 0.0, std::sqrt(n / n1)};
  }
};

}  // namespace recur

#endif
