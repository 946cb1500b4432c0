#ifndef RECUR_FAMILIES_HPP
#define RECUR_FAMILIES_HPP

#include <recur/impl/scan_form.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

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
//   static constexpr const char* name();                       // kernel labels
//   long double initial() const;                                    // p_0, a constant
//   ThreeTermCoefficients<long double> coefficients(int n) const;   // step n -> n+1
// recur tabulates coefficients(0 .. N-2) once per call, on the host, so they
// may use sqrt, division or anything else; the device loop is then two FMAs
// per output. A user family of this shape needs no library change.
// coefficients (and norm_ratio) may also be member templates on the number
// type, `template <class R = long double> ThreeTermCoefficients<R>
// coefficients(int n) const`, written with R's +, -, *, / and sqrt (found by
// argument-dependent lookup; `using std::sqrt;` first): recur then tabulates
// them in double-double (impl::Quad), about 2^-104 accurate, as it does for
// its own families, which double results need to stay within an ulp at
// high degree (docs/accuracy.md).
//
// Optional members, for Normalized<Family>:
//   long double norm_ratio(int n) const;  // h_{n+1} / h_n, h_n = ∫ p_n² dμ
//   long double total_mass() const;       // ∫ w(x) dx, for recur::gauss
//   static constexpr const char* normalized_name();
//   void check_normalizable() const;      // throws for parameters without one
//
// A *direct family* instead fills the whole slice itself:
//   template <class T> KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const;
// and, to give derivatives too,
//   template <class T> KOKKOS_FUNCTION void fill(T x, const Slice<T>& s,
//                                                const Slice<T>& ds) const;
// x arrives converted to V's type T, unless fill also takes x in its own type
// (`template <class X, class T> fill(X x, const Slice<T>&)`), as PowerSums does.

namespace impl {

// Family parameters are checked when the family is made, so an invalid
// family never reaches a kernel.
inline void require_parameter(const char* family, const char* parameter,
                              double value, bool valid, const char* range) {
  if (valid && std::isfinite(value)) return;
  std::ostringstream message;
  message << "recur::" << family << ": " << parameter << " = " << value
          << " is invalid; " << parameter << " must be " << range;
  throw std::invalid_argument(message.str());
}

// A family may refuse parameters for which it has no orthonormal variant.
template <class Family, class = void>
struct has_check_normalizable : std::false_type {};
template <class Family>
struct has_check_normalizable<
    Family, std::void_t<decltype(std::declval<const Family&>().check_normalizable())>>
    : std::true_type {};

// The family's coefficients and norm ratios in the number type R: its own
// template for R where it has one (recur's families), else its long double
// ones converted.
template <class R, class Family, class = void>
struct has_coefficients_in : std::false_type {};
template <class R, class Family>
struct has_coefficients_in<
    R, Family, std::void_t<decltype(std::declval<const Family&>().template coefficients<R>(0))>>
    : std::true_type {};
template <class R, class Family, class = void>
struct has_norm_ratio_in : std::false_type {};
template <class R, class Family>
struct has_norm_ratio_in<
    R, Family, std::void_t<decltype(std::declval<const Family&>().template norm_ratio<R>(0))>>
    : std::true_type {};

// A family may give its orthonormal variant's coefficients in closed form
// (Gegenbauer, whose general form is 0/0 at lambda = 0).
template <class R, class Family, class = void>
struct has_normalized_coefficients : std::false_type {};
template <class R, class Family>
struct has_normalized_coefficients<
    R, Family,
    std::void_t<decltype(std::declval<const Family&>().template normalized_coefficients<R>(0))>>
    : std::true_type {};

template <class R, class Family>
ThreeTermCoefficients<R> coefficients_in(const Family& family, int n) {
  if constexpr (has_coefficients_in<R, Family>::value) {
    return family.template coefficients<R>(n);
  } else {
    const auto k = family.coefficients(n);
    return {R(k.a), R(k.b), R(k.c)};
  }
}
template <class R, class Family>
R norm_ratio_in(const Family& family, int n) {
  if constexpr (has_norm_ratio_in<R, Family>::value) {
    return family.template norm_ratio<R>(n);
  } else {
    return R(family.norm_ratio(n));
  }
}

}  // namespace impl

/// The orthonormal variant of a three-term family: p_n / sqrt(h_n) with
/// h_n = ∫ p_n² dμ, μ the probability measure proportional to the family's
/// weight (the Wiener–Askey / polynomial-chaos convention; p_0 = 1). Its
/// coefficients follow from the family's and from h_{n+1}/h_n, so no
/// factorial or Gamma function is formed at run time.
template <class Family>
struct Normalized : Family {
  template <class... Parameters>
  explicit Normalized(Parameters... parameters) : Family(parameters...) {
    if constexpr (impl::has_check_normalizable<Family>::value) Family::check_normalizable();
  }
  static constexpr const char* name() { return Family::normalized_name(); }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    using std::sqrt;
    const Family& family = *this;
    if constexpr (impl::has_normalized_coefficients<R, Family>::value)
      return family.template normalized_coefficients<R>(n);
    const ThreeTermCoefficients<R> k = impl::coefficients_in<R>(family, n);
    const R up   = sqrt(impl::norm_ratio_in<R>(family, n));  // sqrt(h_{n+1}/h_n)
    const R down = n > 0 ? sqrt(impl::norm_ratio_in<R>(family, n - 1)) : R(1);  // sqrt(h_n/h_{n-1})
    return {k.a / up, k.b / up, n > 0 ? k.c / (up * down) : R(0)};
  }
  template <class R = long double>
  R norm_ratio(int) const {
    return R(1);
  }
};

/// Partial power sums, the seed's first example:
/// V(i, n) = x_i + x_i^2 + ... + x_i^(n+1). Summed in double, except with
/// recur::Fast for float results, where it is summed in float (errors per N in
/// docs/accuracy.md); x taken at its own precision (Fast float: rounded to float), with
/// the binary exponent of impl::Scaled once sums pass 2^256 (float: 2^60).
/// Derivatives are summed in double either way.
struct PowerSums {
  static constexpr const char* name() { return "PowerSums"; }

  template <class X, class T>
  KOKKOS_FUNCTION void fill(X x, const Slice<T>& s) const {
    impl::PowerSumsScan<double>{}.fill(double(x), s);
  }

  // d/dx: 1 + 2x + ... + (n+1) x^n, in the same pass.
  template <class X, class T>
  KOKKOS_FUNCTION void fill(X x, const Slice<T>& s, const Slice<T>& ds) const {
    impl::PowerSumsScan<double>{}.fill(double(x), s, ds);
  }
};

/// Monomials x^n (numpy.polynomial.polynomial.polyvander).
struct Monomials {
  static constexpr const char* name() { return "Monomials"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int) const {
    return {R(1), R(0), R(0)};
  }
};

/// Probabilists' Hermite polynomials He_n (scipy.special.eval_hermitenorm):
/// He_{n+1} = x He_n - n He_{n-1}; weight e^{-x²/2} on the real line.
struct HermiteE {
  static constexpr const char* name() { return "HermiteE"; }
  static constexpr const char* normalized_name() { return "HermiteENormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    return {R(1), R(0), R(n)};
  }
  template <class R = long double>
  R norm_ratio(int n) const {  // h_n = n!
    return R(n + 1);
  }
  long double total_mass() const { return 2.50662827463100050241576528481104525L; }  // sqrt(2 pi)
};

/// He_n(x) / sqrt(n!), the seed's second example: orthonormal for the standard
/// normal density. By h_{n+1} = x h_n / sqrt(n+1) - sqrt(n/(n+1)) h_{n-1},
/// finite wherever the true value is representable (the seed's He_n / sqrt(n!)
/// overflows from n = 35 in float, n = 171 in double).
using HermiteENormalized = Normalized<HermiteE>;

/// Physicists' Hermite polynomials H_n (scipy.special.eval_hermite):
/// H_{n+1} = 2x H_n - 2n H_{n-1}; weight e^{-x²}.
struct Hermite {
  static constexpr const char* name() { return "Hermite"; }
  static constexpr const char* normalized_name() { return "HermiteNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    return {R(2), R(0), R(2 * n)};
  }
  template <class R = long double>
  R norm_ratio(int n) const {  // h_n = 2^n n!
    return R(2 * (n + 1));
  }
  long double total_mass() const { return 1.77245385090551602729816748334114518L; }  // sqrt(pi)
};

/// H_n(x) / sqrt(2^n n!): orthonormal for the density e^{-x²}/sqrt(pi).
using HermiteNormalized = Normalized<Hermite>;

/// Hermite functions psi_n(x) = (2^n n! sqrt(pi))^(-1/2) H_n(x) e^{-x²/2},
/// orthonormal on the real line (the quantum harmonic oscillator's
/// eigenfunctions). Computed as HermiteNormalized times pi^(-1/4) e^{-x²/2}
/// with the Gaussian carried as a separate, rescaled factor, so results stay
/// accurate where e^{-x²/2} alone underflows (|x| > 38 in double) as long as
/// psi_n(x) itself is representable.
struct HermiteFunction {
  static constexpr const char* name() { return "HermiteFunction"; }
  long double initial() const { return 0.751125544464942482858703L; }  // pi^(-1/4)
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    return HermiteNormalized{}.template coefficients<R>(n);
  }
  /// The logarithm of the x-dependent prefactor, -x²/2 exactly (as a
  /// double-double), and its derivative.
  KOKKOS_FUNCTION impl::DoubleDouble exponent(double x) const {
    impl::DoubleDouble g;
    exponent_parts(x, g.hi, g.lo, [](double a, double b, double c) { return impl::fma(a, b, c); });
    return g;
  }
  /// exponent(x)'s parts by the same operations for a number or for a
  /// vector of x (V; recur's CPU vectors, with their fused multiply-add).
  template <class V, class Fused>
  KOKKOS_FUNCTION static void exponent_parts(V x, V& hi, V& lo, const Fused& fused) {
    const V square = x * x;
    hi             = -0.5 * square;
    lo             = -0.5 * fused(x, x, -square);
  }
  KOKKOS_FUNCTION double exponent_derivative(double x) const { return -x; }
};

/// Legendre polynomials P_n (scipy.special.eval_legendre):
/// (n+1) P_{n+1} = (2n+1) x P_n - n P_{n-1}; weight 1 on [-1, 1].
struct Legendre {
  static constexpr const char* name() { return "Legendre"; }
  static constexpr const char* normalized_name() { return "LegendreNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    return {R(2 * n + 1) / R(n + 1), R(0), R(n) / R(n + 1)};
  }
  template <class R = long double>
  R norm_ratio(int n) const {
    return R(2 * n + 1) / R(2 * n + 3);
  }
  long double total_mass() const { return 2; }
};

/// sqrt(2n+1) P_n: orthonormal for the uniform density on [-1, 1].
using LegendreNormalized = Normalized<Legendre>;

/// Chebyshev polynomials of the first kind T_n (scipy.special.eval_chebyt):
/// T_1 = x, T_{n+1} = 2x T_n - T_{n-1}; weight 1/sqrt(1-x²).
struct ChebyshevT {
  static constexpr const char* name() { return "ChebyshevT"; }
  static constexpr const char* normalized_name() { return "ChebyshevTNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    return {R(n == 0 ? 1 : 2), R(0), R(1)};
  }
  template <class R = long double>
  R norm_ratio(int n) const {
    return R(n == 0 ? 0.5 : 1.0);
  }
  long double total_mass() const { return 3.14159265358979323846264338327950288L; }
};

/// T_0 = 1, sqrt(2) T_n: orthonormal for the arcsine density 1/(pi sqrt(1-x²)).
using ChebyshevTNormalized = Normalized<ChebyshevT>;

/// Chebyshev polynomials of the second kind U_n (scipy.special.eval_chebyu):
/// U_{n+1} = 2x U_n - U_{n-1}; weight sqrt(1-x²).
struct ChebyshevU {
  static constexpr const char* name() { return "ChebyshevU"; }
  static constexpr const char* normalized_name() { return "ChebyshevUNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int) const {
    return {R(2), R(0), R(1)};
  }
  template <class R = long double>
  R norm_ratio(int) const {
    return R(1);
  }
  long double total_mass() const { return 1.57079632679489661923132169163975144L; }
};

/// U_n itself: already orthonormal for the semicircle density (2/pi) sqrt(1-x²).
using ChebyshevUNormalized = Normalized<ChebyshevU>;

/// Generalized Laguerre polynomials L_n^(alpha) (scipy.special.eval_genlaguerre;
/// alpha = 0 is eval_laguerre): (n+1) L_{n+1} = (2n+1+alpha-x) L_n -
/// (n+alpha) L_{n-1}; weight x^alpha e^{-x} on [0, inf). Needs alpha > -1.
struct Laguerre {
  double alpha = 0.0;

  Laguerre() = default;
  explicit Laguerre(double alpha_) : alpha(alpha_) {
    impl::require_parameter("Laguerre", "alpha", alpha, alpha > -1, "> -1");
  }
  static constexpr const char* name() { return "Laguerre"; }
  static constexpr const char* normalized_name() { return "LaguerreNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    const R a = R(alpha), m = R(n + 1);
    return {R(-1) / m, (R(2 * n + 1) + a) / m, (R(n) + a) / m};
  }
  // h_n = Gamma(n+alpha+1) / (n! Gamma(alpha+1)) for the Gamma(alpha+1) density.
  template <class R = long double>
  R norm_ratio(int n) const {
    return (R(n + 1) + R(alpha)) / R(n + 1);
  }
  long double total_mass() const { return std::tgamma((long double)alpha + 1); }
};

/// L_n^(alpha) / sqrt(Gamma(n+alpha+1) / (n! Gamma(alpha+1))): orthonormal for
/// the Gamma density x^alpha e^{-x} / Gamma(alpha+1).
using LaguerreNormalized = Normalized<Laguerre>;

/// Jacobi polynomials P_n^(alpha, beta) (scipy.special.eval_jacobi); weight
/// (1-x)^alpha (1+x)^beta on [-1, 1]. Needs alpha > -1 and beta > -1.
struct Jacobi {
  double alpha = 0.0;
  double beta  = 0.0;

  Jacobi() = default;
  Jacobi(double alpha_, double beta_) : alpha(alpha_), beta(beta_) {
    impl::require_parameter("Jacobi", "alpha", alpha, alpha > -1, "> -1");
    impl::require_parameter("Jacobi", "beta", beta, beta > -1, "> -1");
  }
  static constexpr const char* name() { return "Jacobi"; }
  static constexpr const char* normalized_name() { return "JacobiNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    const R a = R(alpha), b = R(beta), s = a + b;
    if (n == 0) {  // P_1 = (alpha+1) + (s+2)(x-1)/2, valid also for s = -1
      return {(s + R(2)) / R(2), (a - b) / R(2), R(0)};
    }
    const R m = R(2 * n) + s;  // > 0 for n >= 1
    const R d = R(2 * (n + 1)) * (R(n + 1) + s) * m;
    return {(m + R(1)) * (m + R(2)) * m / d, (m + R(1)) * (a - b) * (a + b) / d,
            R(2) * (R(n) + a) * (R(n) + b) * (m + R(2)) / d};
  }
  template <class R = long double>
  R norm_ratio(int n) const {
    const R a = R(alpha), b = R(beta), s = a + b;
    if (n == 0) return (a + R(1)) * (b + R(1)) / (s + R(3));
    return (R(2 * n + 1) + s) / (R(2 * n + 3) + s) * (R(n + 1) + a) * (R(n + 1) + b) /
           ((R(n + 1) + s) * R(n + 1));
  }
  long double total_mass() const {
    const long double a = alpha, b = beta;
    return std::exp((a + b + 1) * std::log(2.0L) + std::lgamma(a + 1) + std::lgamma(b + 1) -
                    std::lgamma(a + b + 2));
  }
};

/// Jacobi polynomials orthonormal for the Beta-type density proportional to
/// (1-x)^alpha (1+x)^beta on [-1, 1].
using JacobiNormalized = Normalized<Jacobi>;

/// Gegenbauer (ultraspherical) polynomials C_n^(lambda)
/// (scipy.special.eval_gegenbauer): (n+1) C_{n+1} = 2(n+lambda) x C_n -
/// (n+2 lambda-1) C_{n-1}; weight (1-x²)^(lambda-1/2). Needs lambda > -1/2.
/// At lambda = 0 every C_n with n >= 1 is 0 (the standard normalization).
struct Gegenbauer {
  double lambda = 0.5;

  Gegenbauer() = default;
  explicit Gegenbauer(double lambda_) : lambda(lambda_) {
    impl::require_parameter("Gegenbauer", "lambda", lambda, lambda > -0.5, "> -1/2");
  }
  static constexpr const char* name() { return "Gegenbauer"; }
  static constexpr const char* normalized_name() { return "GegenbauerNormalized"; }
  long double initial() const { return 1.0; }
  template <class R = long double>
  ThreeTermCoefficients<R> coefficients(int n) const {
    const R l = R(lambda);
    return {R(2) * (R(n) + l) / R(n + 1), R(0), (R(n - 1) + R(2) * l) / R(n + 1)};
  }
  template <class R = long double>
  R norm_ratio(int n) const {
    const R l = R(lambda);
    return (R(n) + R(2) * l) * (R(n) + l) / (R(n + 1) * (R(n + 1) + l));
  }
  long double total_mass() const {
    const long double l = lambda;
    return std::exp(0.5L * std::log(3.14159265358979323846264338327950288L) +
                    std::lgamma(l + 0.5L) - std::lgamma(l + 1));
  }
  // The orthonormal recurrence with the factors of lambda cancelled, so that
  // lambda = 0 gives its limit, the orthonormal Chebyshev T_n (the weight
  // (1-x²)^(-1/2) has orthonormal polynomials although every C_n^(0) with
  // n >= 1 is 0):
  //   a_0 = ±sqrt(2 (lambda + 1)),
  //   a_n = 2 sqrt((n+lambda)(n+lambda+1) / ((n+1)(n+2 lambda))),
  //   c_1 = ±sqrt((2+lambda) / (1+2 lambda)),
  //   c_n = sqrt((n+2 lambda-1) n (n+lambda+1) / ((n+1)(n+2 lambda)(n+lambda-1))).
  template <class R = long double>
  ThreeTermCoefficients<R> normalized_coefficients(int n) const {
    using std::sqrt;
    const R l = R(lambda);
    // For lambda < 0 every C_n^(lambda), n >= 1, has the sign of lambda: a_0
    // and c_1 carry it.
    const R sign = R(lambda < 0 ? -1 : 1);
    if (n == 0) return {sign * sqrt(R(2) * (l + R(1))), R(0), R(0)};
    const R m = R(n) + R(2) * l;  // n + 2 lambda > 0 for n >= 1
    const R a = R(2) * sqrt((R(n) + l) * (R(n + 1) + l) / (R(n + 1) * m));
    if (n == 1) return {a, R(0), sign * sqrt((R(2) + l) / (R(1) + R(2) * l))};
    return {a, R(0),
            sqrt((m - R(1)) * R(n) * (R(n + 1) + l) / (R(n + 1) * m * (R(n - 1) + l)))};
  }
};

/// Gegenbauer polynomials orthonormal for the density proportional to
/// (1-x²)^(lambda-1/2) on [-1, 1]. Needs lambda > -1/2; at lambda = 0 it is
/// the limit ChebyshevTNormalized.
using GegenbauerNormalized = Normalized<Gegenbauer>;

}  // namespace recur

#endif
