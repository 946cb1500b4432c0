#ifndef RECUR_TEST_SUPPORT_HPP
#define RECUR_TEST_SUPPORT_HPP

// Shared by the unit tests: the typed-test configurations (the tested
// execution spaces x {float, double} x {LayoutLeft, LayoutRight}), View
// helpers, long double references and the accuracy metric.

#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace recur_test {

template <class ExecSpace, class Scalar, class Layout>
struct Config {
  using space  = ExecSpace;
  using scalar = Scalar;
  using layout = Layout;
  using XView  = Kokkos::View<Scalar*, ExecSpace>;
  using VView  = Kokkos::View<Scalar**, Layout, ExecSpace>;
};

template <class... Spaces>
struct SpaceList {};

// The spaces the typed tests run on: the default execution space and, where
// that is a device, the default host space too (an OpenMP + Serial Kokkos
// tests OpenMP: a Serial-only Kokkos, as the sanitizer build of
// `cmake/run.sh asan` has, tests Serial); with RECUR_TEST_ALL_SPACES
// (CMake option of that name) every space the Kokkos install enables.
#ifdef RECUR_TEST_ALL_SPACES
using EnabledSpaces = SpaceList<
#ifdef KOKKOS_ENABLE_CUDA
    Kokkos::Cuda,
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    Kokkos::OpenMP,
#endif
#ifdef KOKKOS_ENABLE_SERIAL
    Kokkos::Serial,
#endif
    void>;
#else
using EnabledSpaces = std::conditional_t<
    std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>,
    SpaceList<Kokkos::DefaultExecutionSpace, void>,
    SpaceList<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace, void>>;
#endif

template <class List, class... Done>
struct ConfigsOf;
template <class... Done>
struct ConfigsOf<SpaceList<void>, Done...> {
  using type = ::testing::Types<Done...>;
};
template <class Space, class... Rest, class... Done>
struct ConfigsOf<SpaceList<Space, Rest...>, Done...>
    : ConfigsOf<SpaceList<Rest...>, Done...,
                Config<Space, float, Kokkos::LayoutLeft>,
                Config<Space, float, Kokkos::LayoutRight>,
                Config<Space, double, Kokkos::LayoutLeft>,
                Config<Space, double, Kokkos::LayoutRight>> {};

using AllConfigs = typename ConfigsOf<EnabledSpaces>::type;

struct ConfigName {
  template <class C>
  static std::string GetName(int) {
    std::string name = C::space::name();
    name += std::is_same_v<typename C::scalar, float> ? "_float" : "_double";
    name += std::is_same_v<typename C::layout, Kokkos::LayoutLeft> ? "_Left"
                                                                   : "_Right";
    return name;
  }
};

/// x values: the given edge points, then uniform random ones in [-bound, bound].
template <class T>
std::vector<T> sample_points(std::size_t count, double bound,
                             std::vector<double> edges = {0.0, 1.0, -1.0}) {
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> dist(-bound, bound);
  std::vector<T> x;
  for (double e : edges)
    if (x.size() < count) x.push_back(T(e));
  while (x.size() < count) x.push_back(T(dist(rng)));
  return x;
}

template <class XView>
XView to_device(const std::vector<typename XView::value_type>& values) {
  XView x("x", values.size());
  auto host = Kokkos::create_mirror_view(x);
  for (std::size_t i = 0; i < values.size(); ++i) host(i) = values[i];
  Kokkos::deep_copy(x, host);
  return x;
}

template <class View>
auto to_host(const View& V) {
  auto host = Kokkos::create_mirror_view(V);
  Kokkos::deep_copy(host, V);
  return host;
}

/// A user recurrence that reads back what it wrote: row(k) = row(k-1) x + x,
/// the power sums by another route.
template <class T>
struct PowerSumsReadingBack {
  KOKKOS_FUNCTION void operator()(T xi, const recur::Slice<T>& row) const {
    row(0) = xi;
    for (int k = 1; k < row.size(); ++k) row(k) = row(k - 1) * xi + xi;
  }
};

/// How many entries of two host rank-2 Views differ (bitwise, as values).
template <class A, class B>
int count_differences(const A& a, const B& b) {
  int differences = 0;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t n = 0; n < a.extent(1); ++n) differences += a(i, n) != b(i, n);
  return differences;
}

// References in long double, by formulas independent of the library's.
inline std::vector<long double> power_sums_reference(long double x, int N) {
  std::vector<long double> s(N);
  long double sum = 0;
  for (int k = 0; k < N; ++k) {
    sum += std::pow(x, k + 1);
    s[k] = sum;
  }
  return s;
}

inline std::vector<long double> hermite_e_reference(long double x, int N) {
  std::vector<long double> h(N);
  long double previous = 0, current = 1;
  for (int n = 0; n < N; ++n) {
    h[n] = current;
    const long double next = x * current - n * previous;
    previous               = current;
    current                = next;
  }
  return h;
}

// He_n(x) / sqrt(n!), dividing by a running product of sqrt(k) in long double.
inline std::vector<long double> hermite_e_normalized_reference(long double x,
                                                               int N) {
  std::vector<long double> h = hermite_e_reference(x, N);
  long double sqrt_factorial = 1;
  for (int n = 0; n < N; ++n) {
    if (n > 0) sqrt_factorial *= std::sqrt((long double)n);
    h[n] /= sqrt_factorial;
  }
  return h;
}

/// The data folder: RECUR_REFERENCE_DIR from the environment (a test binary
/// run away from its source tree), else the source tree's.
inline std::string reference_dir() {
  const char* dir = std::getenv("RECUR_REFERENCE_DIR");
  return dir ? dir : RECUR_REFERENCE_DIR;
}

/// The message of the std::invalid_argument `call` throws, or "no exception".
template <class Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

/// p_n(x) and p_n'(x), n < N, in long double: the family's recurrence (or, for
/// PowerSums, the partial sums), times the prefactor of HermiteFunction.
template <class Family>
void reference_values(const Family& family, long double x, int N, std::vector<long double>& p,
                      std::vector<long double>& dp) {
  p.assign(N, 0);
  dp.assign(N, 0);
  if constexpr (std::is_same_v<Family, recur::PowerSums>) {
    long double s = 0, ds = 0, power = x, dpower = 1;
    for (int n = 0; n < N; ++n) {
      s += power;
      ds += dpower;
      p[n] = s, dp[n] = ds;
      dpower = (n + 2) * power;
      power *= x;
    }
  } else {
    long double previous = 0, current = family.initial(), dprevious = 0, dcurrent = 0;
    for (int n = 0; n < N; ++n) {
      p[n] = current, dp[n] = dcurrent;
      const auto k = family.coefficients(n);
      const long double next  = (k.a * x + k.b) * current - k.c * previous;
      const long double dnext = k.a * current + (k.a * x + k.b) * dcurrent - k.c * dprevious;
      previous = current, current = next, dprevious = dcurrent, dcurrent = dnext;
    }
    if constexpr (std::is_same_v<Family, recur::HermiteFunction>) {
      const long double g = std::exp(-x * x / 2);
      for (int n = 0; n < N; ++n) {
        dp[n] = (dp[n] - x * p[n]) * g;
        p[n] *= g;
      }
    }
  }
}

/// Calls f(family) with the family that reference files name (generate.py's
/// variant names), with its parameters.
template <class F>
decltype(auto) with_family(const std::string& n, double alpha, double beta, double lambda,
                           F&& f) {
  if (n == "power_sums") return f(recur::PowerSums{});
  if (n == "monomials") return f(recur::Monomials{});
  if (n == "hermite_e") return f(recur::HermiteE{});
  if (n == "hermite_e_normalized") return f(recur::HermiteENormalized{});
  if (n == "hermite") return f(recur::Hermite{});
  if (n == "hermite_normalized") return f(recur::HermiteNormalized{});
  if (n == "hermite_function") return f(recur::HermiteFunction{});
  if (n == "legendre") return f(recur::Legendre{});
  if (n == "legendre_normalized") return f(recur::LegendreNormalized{});
  if (n == "chebyshev_t") return f(recur::ChebyshevT{});
  if (n == "chebyshev_t_normalized") return f(recur::ChebyshevTNormalized{});
  if (n == "chebyshev_u") return f(recur::ChebyshevU{});
  if (n == "chebyshev_u_normalized") return f(recur::ChebyshevUNormalized{});
  if (n == "laguerre") return f(recur::Laguerre{alpha});
  if (n == "laguerre_normalized") return f(recur::LaguerreNormalized{alpha});
  if (n == "jacobi") return f(recur::Jacobi{alpha, beta});
  if (n == "jacobi_normalized") return f(recur::JacobiNormalized{alpha, beta});
  if (n == "gegenbauer") return f(recur::Gegenbauer{lambda});
  if (n == "gegenbauer_normalized") return f(recur::GegenbauerNormalized{lambda});
  throw std::runtime_error("a reference file names an unknown family " + n);
}

template <class T>
double tolerance(int N) {
  return (std::is_same_v<T, float> ? 2e-6 : 1e-13) * std::sqrt(double(N));
}

/// The bound recur::Fast meets (docs/accuracy.md): arithmetic in T itself,
/// whose rounding errors grow like N^2 where the recurrence is least stable
/// (worst measured, double: 2.6e-13 at N = 16, 1.2e-12 at 64, 2.2e-10 at
/// 2000; float: 1.2e-4 at 16, 7.8e-4 at 64, 5.5e-3 at 256, 1.06 at 2000).
template <class T>
double fast_tolerance(int N) {
  return std::is_same_v<T, float> ? 1e-6 * double(N) * N
                                  : 2e-13 * std::sqrt(double(N)) + 1e-16 * double(N) * N;
}

/// The worst scaled error of row `got` (callable got(n)) against `ref`:
///   max_n |got(n) - ref[n]| / scale_n,
///   scale_n = max(|ref[n-1]|, |ref[n]|, |ref[n+1]|, 1e-3 max_m |ref[m]|).
/// A recurrence carries the pair (p_{n-1}, p_n) forward, so the rounding it
/// commits at step n is relative to the size of that pair, not to |p_n| alone:
/// near a zero of p_n (or a cancellation in a power sum) no algorithm working
/// in precision T does better than eps_T times its neighbours. The floor of
/// 1e-3 times the row's largest value keeps tiny rows honest. Infinite when
/// got(n) is not finite although ref[n] is.
template <class Got>
double scaled_error(const Got& got, const std::vector<long double>& ref) {
  long double row_max = 0;
  for (long double r : ref) row_max = std::max(row_max, std::fabs(r));
  double worst = 0;
  for (std::size_t n = 0; n < ref.size(); ++n) {
    const long double g = got(n);
    if (!std::isfinite(g)) return INFINITY;
    long double scale = std::max(std::fabs(ref[n]), 1e-3L * row_max);
    if (n > 0) scale = std::max(scale, std::fabs(ref[n - 1]));
    if (n + 1 < ref.size()) scale = std::max(scale, std::fabs(ref[n + 1]));
    const long double error = std::fabs(g - ref[n]);
    worst = std::max(worst, double(scale > 0 ? error / scale : error));
  }
  return worst;
}

}  // namespace recur_test

#endif
