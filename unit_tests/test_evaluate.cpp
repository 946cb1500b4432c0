#include "test_support.hpp"

#ifdef RECUR_ENABLE_KOKKOSKERNELS
#include <KokkosKernels_config.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace {

using namespace recur_test;

template <class C>
class Evaluate : public ::testing::Test {};
TYPED_TEST_SUITE(Evaluate, AllConfigs, ConfigName);

// Evaluates `family` for M points in [-bound, bound] and each N, and checks
// every row against the long double reference with the scaled metric.
template <class C, class Family, class Reference>
void expect_matches_reference(const Family& family, Reference reference,
                              double bound, const std::vector<int>& Ns) {
  using T = typename C::scalar;
  const std::size_t M = 1037;
  const std::vector<T> xs = sample_points<T>(M, bound);
  const auto x            = to_device<typename C::XView>(xs);
  for (int N : Ns) {
    typename C::VView V("V", M, N);
    recur::evaluate(typename C::space{}, family, x, V);
    const auto h = to_host(V);
    double worst = 0;
    std::size_t worst_row = 0;
    for (std::size_t i = 0; i < M; ++i) {
      const double e = scaled_error([&](std::size_t n) { return h(i, n); },
                                    reference(xs[i], N));
      if (!(e <= worst)) {
        worst     = e;
        worst_row = i;
      }
    }
    EXPECT_LE(worst, tolerance<T>(N))
        << Family::name() << " N=" << N << " worst at x=" << xs[worst_row];
    if (std::getenv("RECUR_TEST_VERBOSE"))
      std::printf("%s N=%d worst %.3g = %.3g of tolerance\n", Family::name(),
                  N, worst, worst / tolerance<T>(N));
  }
}

template <class T>
std::vector<int> degrees() {
  if constexpr (std::is_same_v<T, double>) return {1, 2, 3, 7, 32, 200};
  return {1, 2, 3, 7, 32};
}

TYPED_TEST(Evaluate, PowerSumsMatchLongDoubleReference) {
  // |x| <= 2 keeps x^N representable in float up to N = 32 and in double
  // up to N = 200.
  expect_matches_reference<TypeParam>(recur::PowerSums{}, power_sums_reference,
                                      2.0, degrees<typename TypeParam::scalar>());
}

TYPED_TEST(Evaluate, HermiteEMatchesLongDoubleReference) {
  expect_matches_reference<TypeParam>(recur::HermiteE{}, hermite_e_reference,
                                      6.0, degrees<typename TypeParam::scalar>());
}

TYPED_TEST(Evaluate, HermiteENormalizedMatchesLongDoubleReference) {
  expect_matches_reference<TypeParam>(recur::HermiteENormalized{},
                                      hermite_e_normalized_reference, 6.0,
                                      degrees<typename TypeParam::scalar>());
}

// The seed's He_n / sqrt(n!) overflows float from n = 35 and double from
// n = 171; the normalized recurrence stays finite and accurate far beyond.
TYPED_TEST(Evaluate, HermiteENormalizedStaysFiniteAtHighDegree) {
  using T = typename TypeParam::scalar;
  if constexpr (std::is_same_v<T, float>) {
    expect_matches_reference<TypeParam>(recur::HermiteENormalized{},
                                        hermite_e_normalized_reference, 12.0,
                                        {64});
  } else {
    expect_matches_reference<TypeParam>(recur::HermiteENormalized{},
                                        hermite_e_normalized_reference, 40.0,
                                        {2000});
  }
}

TYPED_TEST(Evaluate, DefaultInstanceAndExplicitPolicyGiveTheSameValues) {
  using T         = typename TypeParam::scalar;
  const int M     = 300;
  const int N     = 9;
  const auto x    = to_device<typename TypeParam::XView>(sample_points<T>(M, 3));
  typename TypeParam::VView a("a", M, N), b("b", M, N);
  recur::evaluate(typename TypeParam::space{}, recur::HermiteENormalized{}, x,
                  a, recur::ThreadPerX{});
  recur::evaluate(recur::HermiteENormalized{}, x, b);
  const auto ha = to_host(a);
  const auto hb = to_host(b);
  EXPECT_EQ(count_differences(ha, hb), 0);
  EXPECT_EQ(hb(0, 0), T(1));  // He_0 = 1: b was written
}

// A LayoutStride V (every other row of a larger View) is filled in place and
// the rows in between are left untouched.
TYPED_TEST(Evaluate, LayoutStrideSubviewWritesOnlyItsEntries) {
  using T      = typename TypeParam::scalar;
  using Space  = typename TypeParam::space;
  const int M  = 257;
  const int N  = 6;
  const std::vector<T> xs = sample_points<T>(M, 1.5);
  const auto x = to_device<typename TypeParam::XView>(xs);
  typename TypeParam::VView big("big", 2 * M, N + 3);
  Kokkos::deep_copy(big, T(-777));
  Kokkos::View<T**, Kokkos::LayoutStride, Space> V = Kokkos::subview(
      big, std::make_pair(M, 2 * M), std::make_pair(1, N + 1));
  recur::evaluate(Space{}, recur::PowerSums{}, x, V);
  const auto h = to_host(big);
  double worst = 0;
  int untouched_changed = 0;
  for (int i = 0; i < 2 * M; ++i) {
    for (int n = 0; n < N + 3; ++n) {
      const bool inside = i >= M && n >= 1 && n <= N;
      if (!inside) untouched_changed += h(i, n) != T(-777);
    }
    if (i >= M) {
      const auto ref = power_sums_reference(xs[i - M], N);
      worst = std::max(worst, scaled_error(
                                  [&](std::size_t n) { return h(i, n + 1); }, ref));
    }
  }
  EXPECT_EQ(untouched_changed, 0);
  EXPECT_LE(worst, tolerance<T>(N));
}

// x in a different precision than V enters the recurrence at its own
// precision: a float x exactly, a double x unrounded when V holds float, so
// V(i, n) is p_n(x_i) rounded once. T_1999(0.999999) is -0.950935; at
// float(0.999999) it would be -0.956552.
TYPED_TEST(Evaluate, XEntersAtItsOwnPrecision) {
  using T     = typename TypeParam::scalar;
  using Other = std::conditional_t<std::is_same_v<T, float>, double, float>;
  using Space = typename TypeParam::space;
  const int M = 100;
  const int N = 2000;
  std::vector<Other> xo = sample_points<Other>(M, 4);
  xo[0]                 = Other(0.999999);
  const auto x_other = to_device<Kokkos::View<Other*, Space>>(xo);
  typename TypeParam::VView a("a", M, N);
  Kokkos::View<double**, typename TypeParam::layout, Space> b("b", M, N);
  recur::evaluate(Space{}, recur::ChebyshevT{}, x_other, a);
  recur::evaluate(Space{}, recur::ChebyshevT{}, x_other, b);  // in double
  const auto ha = to_host(a);
  const auto hb = to_host(b);
  int far = 0;
  for (int i = 0; i < M; ++i)
    for (int n = 0; n < N; ++n) {
      const T expected = T(hb(i, n));  // rounded twice: within an ulp of T
      far += std::abs(double(ha(i, n)) - double(expected)) >
             std::abs(double(expected)) * std::numeric_limits<T>::epsilon() + 1e-300;
    }
  EXPECT_EQ(far, 0);
  const double exact = std::cos(1999 * std::acos(double(Other(0.999999))));
  EXPECT_NEAR(double(ha(0, N - 1)), exact, 16 * std::numeric_limits<T>::epsilon());
}

// A family defined outside the library, by its coefficients alone: the
// monomials x^n (p_{n+1} = x p_n).
struct Monomials {
  static constexpr const char* name() { return "TestMonomials"; }
  double initial() const { return 1.0; }
  recur::ThreeTermCoefficients<double> coefficients(int) const {
    return {1.0, 0.0, 0.0};
  }
};

TYPED_TEST(Evaluate, UserThreeTermFamilyNeedsNoLibraryChange) {
  using T     = typename TypeParam::scalar;
  const int M = 64;
  const int N = 10;
  const std::vector<T> xs = sample_points<T>(M, 1.9);
  const auto x = to_device<typename TypeParam::XView>(xs);
  typename TypeParam::VView V("V", M, N);
  recur::evaluate(Monomials{}, x, V);
  const auto h = to_host(V);
  double worst = 0;
  for (int i = 0; i < M; ++i) {
    std::vector<long double> ref(N);
    for (int n = 0; n < N; ++n) ref[n] = std::pow((long double)xs[i], n);
    worst = std::max(worst, scaled_error([&](std::size_t n) { return h(i, n); }, ref));
  }
  EXPECT_LE(worst, tolerance<T>(N));
}

// Normalized<> over a family defined outside the library: Legendre written
// by hand, with h_{n+1}/h_n, must give LegendreNormalized exactly.
struct HandLegendre {
  static constexpr const char* name() { return "HandLegendre"; }
  static constexpr const char* normalized_name() { return "HandLegendreNormalized"; }
  long double initial() const { return 1; }
  // Templates on the number type, as recommended: tabulated in double-double.
  template <class R = long double>
  recur::ThreeTermCoefficients<R> coefficients(int n) const {
    return {R(2 * n + 1) / R(n + 1), R(0), R(n) / R(n + 1)};
  }
  template <class R = long double>
  R norm_ratio(int n) const {
    return R(2 * n + 1) / R(2 * n + 3);
  }
};

TYPED_TEST(Evaluate, NormalizedOfAUserFamilyMatchesTheLibrarys) {
  using T     = typename TypeParam::scalar;
  const int M = 50;
  const int N = 30;
  const auto x = to_device<typename TypeParam::XView>(sample_points<T>(M, 1));
  typename TypeParam::VView a("a", M, N), b("b", M, N);
  recur::evaluate(recur::Normalized<HandLegendre>{}, x, a);
  recur::evaluate(recur::LegendreNormalized{}, x, b);
  const auto ha = to_host(a);
  const auto hb = to_host(b);
  EXPECT_EQ(count_differences(ha, hb), 0);
  EXPECT_NEAR(hb(0, 2), std::sqrt(5.0) * -0.5, 1e-6);  // x = 0: sqrt(5) P_2(0)
}

TEST(Configuration, NamesVersionAndKokkos) {
  std::ostringstream out;
  recur::print_configuration(out);
  EXPECT_NE(out.str().find("recur " RECUR_VERSION_STRING " on Kokkos "),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find(Kokkos::DefaultExecutionSpace::name()),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("; products by " + recur::describe_blas() + ";"), std::string::npos)
      << out.str();
}

// OpenBLAS's generic kernels on a CPU with AVX2 get a note that says how
// to get its fast ones; any other build of it, or a CPU without AVX2, none.
TEST(Configuration, NotesOpenBlasGenericKernels) {
  const std::string generic = "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64";
  EXPECT_EQ(recur::impl::openblas_generic_note(generic, true),
            " [OpenBLAS runs its generic SSE3 kernels here, not knowing this CPU: set "
            "OPENBLAS_CORETYPE=Haswell (AVX2) or SkylakeX (AVX-512) for its fast ones]");
  EXPECT_EQ(recur::impl::openblas_generic_note(generic, false), "");
  EXPECT_EQ(recur::impl::openblas_generic_note(
                "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64", true),
            "");
  EXPECT_EQ(recur::impl::openblas_generic_note("OpenBLAS 0.3.21 Prescott", true).empty(), false);
}

// What does the products is what Kokkos Kernels was built with.
TEST(Configuration, NamesTheVendorBlas) {
  const std::string blas = recur::describe_blas();
#ifndef RECUR_ENABLE_KOKKOSKERNELS
  EXPECT_EQ(blas, "recur's own kernels");
#else
#if defined(KOKKOSKERNELS_ENABLE_TPL_BLAS)
  // "host BLAS LIBRARY", after "cuBLAS and " where both are on.
  EXPECT_EQ(blas.find("host BLAS "), blas.find("cuBLAS") == 0 ? 11u : 0u) << blas;
#endif
#if defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS)
  EXPECT_EQ(blas.find("cuBLAS"), 0u) << blas;
#endif
#if !defined(KOKKOSKERNELS_ENABLE_TPL_BLAS) && !defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS)
  EXPECT_EQ(blas, "Kokkos Kernels' own kernels");
#endif
#endif
}

}  // namespace
