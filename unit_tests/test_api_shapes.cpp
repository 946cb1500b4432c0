// One API shape everywhere: rank-1 or rank-2 for one expansion, sizes taken
// from the Views, a default-instance overload of every call, a function f for
// project, and recur:: device math. Each form is checked against the form it
// abbreviates (bit for bit where they run the same arithmetic) or against
// exact values.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace api_shapes_test {

using namespace recur_test;
using Space = Kokkos::DefaultExecutionSpace;

template <class T>
class ApiShapes : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ApiShapes, Scalars);

template <class View>
View filled(const std::string& label, std::size_t n, double scale) {
  View v(label, n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i)
    h(i) = typename View::value_type(scale * std::sin(1.0 + 0.37 * double(i)));
  Kokkos::deep_copy(v, h);
  return v;
}

// (Device lambdas may not live in a gtest body, which is a private member:
// they live in these functions.)
template <class View>
void add_to_each(const View& v, double offset) {
  using T = typename View::value_type;
  Kokkos::parallel_for(
      "add", Kokkos::RangePolicy<Space>(0, v.extent(0)), KOKKOS_LAMBDA(int i) { v(i) = T(offset) + v(i); });
}

// f(x) = e^x sin(3x), as a user writes it.
KOKKOS_INLINE_FUNCTION double exp_sin(double t) { return recur::exp(t) * recur::sin(3 * t); }

template <class View>
void sample_exp_sin(const Kokkos::View<double*, Space>& nodes, const View& f) {
  using T = typename View::value_type;
  Kokkos::parallel_for(
      "f", Kokkos::RangePolicy<Space>(0, f.extent(0)), KOKKOS_LAMBDA(int i) { f(i) = T(exp_sin(nodes(i))); });
}

// recur::project of a lambda, with and without the space.
template <class View>
void project_exp_sin(const View& c, const View& c_default, int n) {
  const auto f = KOKKOS_LAMBDA(double t) { return exp_sin(t); };
  recur::project(Space{}, recur::ChebyshevT{}, f, c, n);
  recur::project(recur::ChebyshevT{}, f, c_default, n);
}

// One expansion as rank-1 C and Y gives the bits of the rank-2 column K = 1,
// with and without dY, with an explicit space or the default instance.
TYPED_TEST(ApiShapes, SeriesTakesRankOneCoefficientsAndValues) {
  using T     = TypeParam;
  const int M = 57, N = 23;
  const auto x = filled<Kokkos::View<T*, Space>>("x", M, 1.0);
  const auto c = filled<Kokkos::View<T*, Space>>("c", N, 1.0);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> C("C", N, 1), Y2("Y2", M, 1), dY2("dY2", M, 1);
  Kokkos::deep_copy(Kokkos::subview(C, Kokkos::ALL, 0), c);
  Kokkos::View<T*, Space> Y("Y", M), dY("dY", M), Yd("Yd", M), dYd("dYd", M);
  recur::series(Space{}, recur::LegendreNormalized{}, C, x, Y2, dY2);
  recur::series(Space{}, recur::LegendreNormalized{}, c, x, Y, dY);
  recur::series(recur::LegendreNormalized{}, c, x, Yd, dYd);
  const auto y2 = to_host(Y2), dy2 = to_host(dY2);
  const auto y = to_host(Y), dy = to_host(dY), yd = to_host(Yd), dyd = to_host(dYd);
  for (int i = 0; i < M; ++i) {
    EXPECT_EQ(y(i), y2(i, 0)) << i;
    EXPECT_EQ(dy(i), dy2(i, 0)) << i;
    EXPECT_EQ(yd(i), y(i)) << i;
    EXPECT_EQ(dyd(i), dy(i)) << i;
  }
  // Power sums too (their own forward sum), and the value: sum_n c_n s_n(x).
  Kokkos::View<T*, Space> P("P", M);
  recur::series(recur::PowerSums{}, c, x, P);
  const auto ps = to_host(P);
  const auto xh = to_host(x), ch = to_host(c);
  for (int i = 0; i < M; ++i) {
    long double power = 1, s = 0, sum = 0, scale = 0;
    for (int n = 0; n < N; ++n) {
      power *= xh(i);
      s += power;
      sum += ch(n) * s;
      scale += std::fabs(ch(n) * s);
    }
    EXPECT_LE(std::fabs(ps(i) - sum), 4 * N * std::numeric_limits<T>::epsilon() * scale) << i;
  }
#ifdef RECUR_ENABLE_KOKKOSKERNELS
  Kokkos::View<T*, Space> Yb("Yb", M);
  recur::series_via_blas(Space{}, recur::LegendreNormalized{}, c, x, Yb);
  const auto yb = to_host(Yb);
  for (int i = 0; i < M; ++i)
    EXPECT_LE(std::fabs(yb(i) - y(i)), 40 * std::numeric_limits<T>::epsilon() * (1 + std::fabs(y(i))));
#endif
}

// gauss takes n from the Views; the overload with n checks it.
TYPED_TEST(ApiShapes, GaussTakesItsSizeFromTheViews) {
  using T     = TypeParam;
  const int n = 17;
  Kokkos::View<T*, Space> nodes("nodes", n), weights("weights", n), nodes_n("nodes_n", n),
      weights_n("weights_n", n), nodes_d("nodes_d", n), weights_d("weights_d", n);
  recur::gauss(Space{}, recur::Jacobi{0.5, -0.25}, nodes, weights);
  recur::gauss(Space{}, recur::Jacobi{0.5, -0.25}, n, nodes_n, weights_n);
  recur::gauss(recur::Jacobi{0.5, -0.25}, nodes_d, weights_d);
  const auto a = to_host(nodes), b = to_host(nodes_n), d = to_host(nodes_d);
  const auto wa = to_host(weights), wb = to_host(weights_n), wd = to_host(weights_d);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(a(i), b(i));
    EXPECT_EQ(a(i), d(i));
    EXPECT_EQ(wa(i), wb(i));
    EXPECT_EQ(wa(i), wd(i));
  }
  Kokkos::View<T*, Space> three("three", 3), empty("empty", 0);
  EXPECT_EQ(invalid_argument_message([&] { recur::gauss(recur::Legendre{}, nodes, three); }),
            "recur::gauss: nodes has 17 entries and weights 3; both must have n, the number of "
            "points");
  EXPECT_EQ(invalid_argument_message([&] { recur::gauss(recur::Legendre{}, empty, empty); }),
            "recur::gauss: nodes and weights have 0 entries; a rule needs 1 <= n < 2^31 - 1 "
            "points");
}

// fit takes N from the coefficients; the default instance is x's space.
TYPED_TEST(ApiShapes, FitTakesItsSizeFromTheCoefficients) {
  using T     = TypeParam;
  const int M = 200, N = 7;
  const auto x = filled<Kokkos::View<T*, Space>>("x", M, 1.0);
  const auto y = filled<Kokkos::View<T*, Space>>("y", M, 3.0);
  const auto w = filled<Kokkos::View<T*, Space>>("w", M, 0.5);
  add_to_each(w, 1.5);
  Kokkos::View<T*, Space> with_n("with_n", N), without("without", N), plain("plain", N),
      weighted_n("weighted_n", N), weighted("weighted", N);
  recur::fit(Space{}, recur::ChebyshevT{}, x, y, N, with_n);
  recur::fit(Space{}, recur::ChebyshevT{}, x, y, without);
  recur::fit(recur::ChebyshevT{}, x, y, plain);
  recur::fit(Space{}, recur::ChebyshevT{}, x, y, N, weighted_n, w);
  recur::fit(recur::ChebyshevT{}, x, y, weighted, w);
  const auto a = to_host(with_n), b = to_host(without), c = to_host(plain);
  const auto wa = to_host(weighted_n), wb = to_host(weighted);
  for (int k = 0; k < N; ++k) {
    EXPECT_EQ(a(k), b(k));
    EXPECT_EQ(a(k), c(k));
    EXPECT_EQ(wa(k), wb(k));
  }
  int differ = 0;
  for (int k = 0; k < N; ++k) differ += a(k) != wa(k);
  EXPECT_GT(differ, 0) << "the weights change the fit";
  Kokkos::View<T*, Space> none("none", 0);
  EXPECT_EQ(invalid_argument_message([&] { recur::fit(recur::ChebyshevT{}, x, y, none); }),
            "recur::fit: coefficients has 0 rows; N = coefficients.extent(0), the number of "
            "terms, must be between 1 and 2^31 - 1");
}

// A device-callable f(x) and a polynomial: 1 + 2x + 3x^2 = 2 P_0 + 2 P_1 + 2 P_2.
struct Quadratic {
  KOKKOS_FUNCTION double operator()(double x) const { return 1 + x * (2 + 3 * x); }
};

TYPED_TEST(ApiShapes, ProjectCallsAFunctionAtTheGaussNodes) {
  using T = TypeParam;
  const double eps = std::numeric_limits<T>::epsilon();
  Kokkos::View<T*, Space> c("c", 5), c_default("c_default", 5);
  recur::project(Space{}, recur::Legendre{}, Quadratic{}, c);
  recur::project(recur::Legendre{}, Quadratic{}, c_default);
  const auto h = to_host(c), hd = to_host(c_default);
  const double expected[] = {2, 2, 2, 0, 0};
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(double(h(k)), expected[k], 16 * eps) << k;
    EXPECT_EQ(h(k), hd(k)) << k;
  }

  // A lambda, n > N nodes: the same as the values at a rule of n nodes.
  const int n = 40, N = 12;
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n);
  recur::gauss(recur::ChebyshevT{}, nodes, weights);
  Kokkos::View<T*, Space> f("f", n), from_values("from_values", N), from_function("from_function", N),
      from_default("from_default", N);
  sample_exp_sin(nodes, f);
  recur::project(Space{}, recur::ChebyshevT{}, nodes, weights, f, from_values);
  project_exp_sin(from_function, from_default, n);
  const auto v = to_host(from_values), fn = to_host(from_function), fd = to_host(from_default);
  for (int k = 0; k < N; ++k) {
    EXPECT_EQ(fn(k), v(k)) << k;
    EXPECT_EQ(fd(k), v(k)) << k;
  }
  // The default-instance form with nodes and weights.
  Kokkos::View<T*, Space> again("again", N);
  recur::project(recur::ChebyshevT{}, nodes, weights, f, again);
  const auto ag = to_host(again);
  for (int k = 0; k < N; ++k) EXPECT_EQ(ag(k), v(k)) << k;

  EXPECT_EQ(invalid_argument_message([&] { recur::project(recur::Legendre{}, Quadratic{}, c, 3); }),
            "recur::project: coefficients has N = 5 rows but the rule has n = 3 nodes; an "
            "n-point rule determines 1 <= N <= n coefficients");
  EXPECT_EQ(invalid_argument_message([&] { recur::project(recur::Legendre{}, Quadratic{}, c, -2); }),
            "recur::project: n = -2 Gauss points; n must be at least 1 (and at least N)");
}

// recur:: math in device code gives what <cmath> gives on the host (to a
// few ulps: device libraries may round differently).
void device_math(const Kokkos::View<double**, Space>& out) {
  const int count = int(out.extent(0));
  Kokkos::parallel_for(
      "math", Kokkos::RangePolicy<Space>(0, count), KOKKOS_LAMBDA(int i) {
        const double x = 0.25 + 0.625 * i;  // exact: no rounding to contract differently
        out(i, 0)      = recur::sin(x);
        out(i, 1)      = recur::cos(x);
        out(i, 2)      = recur::tan(x);
        out(i, 3)      = recur::log(x);
        out(i, 4)      = recur::pow(x, 1.5);
        out(i, 5)      = recur::fabs(-x);
        out(i, 6)      = recur::abs(-x);
        out(i, 7)      = recur::atan2(x, 2.0);
        out(i, 8)      = recur::erf(x / 4);
        out(i, 9)      = recur::exp(-x);
        out(i, 10)     = recur::sqrt(x);
        out(i, 11)     = recur::cbrt(x);
        out(i, 12)     = recur::tanh(x);
        out(i, 13)     = recur::log1p(x);
        out(i, 14)     = recur::hypot(x, 1.0);
        out(i, 15)     = double(recur::abs(-3 - i));
      });
}

TEST(Math, DeviceFunctionsAgreeWithTheHostLibrary) {
  const int count = 9;
  Kokkos::View<double**, Space> out("out", count, 16);
  device_math(out);
  const auto h = to_host(out);
  for (int i = 0; i < count; ++i) {
    const double x             = 0.25 + 0.625 * i;
    const double expected[16] = {std::sin(x),      std::cos(x),   std::tan(x),     std::log(x),
                                 std::pow(x, 1.5), x,             x,               std::atan2(x, 2.0),
                                 std::erf(x / 4),  std::exp(-x),  std::sqrt(x),    std::cbrt(x),
                                 std::tanh(x),     std::log1p(x), std::hypot(x, 1.0), double(3 + i)};
    // CUDA's math library documents at most 2 ulps for these, glibc about 1.
    for (int k = 0; k < 16; ++k) {
      const double ulp = std::nextafter(std::fabs(expected[k]), HUGE_VAL) - std::fabs(expected[k]);
      EXPECT_LE(std::fabs(h(i, k) - expected[k]), 4 * ulp)
          << "function " << k << " x=" << x << ": " << (h(i, k) - expected[k]) / ulp << " ulps";
    }
  }
  static_assert(std::is_same_v<decltype(recur::sin(1.0f)), float>);
  static_assert(std::is_same_v<decltype(recur::sin(1)), double>);
  static_assert(std::is_same_v<decltype(recur::abs(-3)), int>);
}

}  // namespace api_shapes_test

namespace api_shapes_test {

// Which calls the library's precompiled instances serve (recur/impl/eti.hpp).
#ifdef RECUR_ENABLE_ETI
using Left  = Kokkos::View<double**, Kokkos::LayoutLeft, Space>;
using Right = Kokkos::View<float**, Kokkos::LayoutRight, Space>;
static_assert(recur::impl::has_eti_instance<Space, recur::Legendre, Kokkos::View<double*, Space>,
                                            Left, recur::Auto>);
static_assert(recur::impl::has_eti_instance<Space, recur::HermiteENormalized,
                                            Kokkos::View<const float*, Space>, Right, recur::Auto>);
// x of another type, LayoutStride, another policy, a family of one's own:
// compiled in place.
static_assert(!recur::impl::has_eti_instance<Space, recur::Legendre, Kokkos::View<float*, Space>,
                                             Left, recur::Auto>);
static_assert(!recur::impl::has_eti_instance<Space, recur::Legendre, Kokkos::View<double*, Space>,
                                             Kokkos::View<double**, Kokkos::LayoutStride, Space>,
                                             recur::Auto>);
static_assert(!recur::impl::has_eti_instance<Space, recur::Legendre, Kokkos::View<double*, Space>,
                                             Left, recur::ThreadPerX>);
static_assert(!recur::impl::has_eti_instance<Space, recur::Legendre, Kokkos::View<double*, Space>,
                                             Kokkos::View<double**, Kokkos::LayoutLeft, Space,
                                                          Kokkos::MemoryTraits<Kokkos::RandomAccess>>,
                                             recur::Auto>);
// Derivatives: dV of V's layout only.
static_assert(recur::impl::has_derivative_instance<Space, recur::Legendre,
                                                   Kokkos::View<double*, Space>, Left, Left>);
static_assert(!recur::impl::has_derivative_instance<
              Space, recur::Legendre, Kokkos::View<double*, Space>, Left,
              Kokkos::View<double**, Kokkos::LayoutStride, Space>>);
static_assert(!recur::impl::has_derivative_instance<
              Space, recur::Legendre, Kokkos::View<double*, Space>, Left,
              Kokkos::View<double**, Kokkos::LayoutRight, Space>>);
struct OwnFamily {
  static constexpr const char* name() { return "OwnFamily"; }
  long double initial() const { return 1; }
  recur::ThreeTermCoefficients<long double> coefficients(int) const { return {2, 0, 1}; }
};
static_assert(!recur::impl::has_eti_instance<Space, OwnFamily, Kokkos::View<double*, Space>, Left,
                                             recur::Auto>);
#endif

// The Views the kernels are compiled for (impl/eti.hpp): a managed View, its
// subviews, and const or unmanaged Views of the same kind reach them as one
// type, the precompiled instances' own; other Views as they are.
template <class View>
using kernel_input_of = decltype(recur::impl::kernel_input<Space>(std::declval<View>()));
template <class View>
using kernel_output_of = decltype(recur::impl::kernel_output<Space>(std::declval<View>()));
using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
using OnDevice  = Kokkos::Device<Space, Space::memory_space>;
using CanonicalLeft = recur::impl::eti_v_t<Space, double, Kokkos::LayoutLeft>;
static_assert(std::is_same_v<kernel_input_of<Kokkos::View<double*, Space>>, recur::impl::eti_x_t<Space, double>>);
static_assert(std::is_same_v<kernel_input_of<Kokkos::View<const double*, Kokkos::LayoutLeft, OnDevice, Unmanaged>>,
                             recur::impl::eti_x_t<Space, double>>);
static_assert(std::is_same_v<kernel_output_of<Kokkos::View<double**, Kokkos::LayoutLeft, Space>>, CanonicalLeft>);
static_assert(std::is_same_v<kernel_output_of<decltype(Kokkos::subview(
                                 std::declval<Kokkos::View<double**, Kokkos::LayoutLeft, Space>>(),
                                 std::make_pair(1, 5), Kokkos::ALL))>,
                             CanonicalLeft>);
static_assert(std::is_same_v<kernel_output_of<Kokkos::View<double**, Kokkos::LayoutLeft, OnDevice, Unmanaged>>,
                             CanonicalLeft>);
static_assert(std::is_same_v<kernel_input_of<Kokkos::View<float**, Kokkos::LayoutRight, Space>>,
                             Kokkos::View<const float**, Kokkos::LayoutRight, OnDevice, Unmanaged>>);
using Strided = Kokkos::View<double**, Kokkos::LayoutStride, Space>;
using Random  = Kokkos::View<const double*, Space, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
static_assert(std::is_same_v<kernel_output_of<Strided>, Strided>);
static_assert(std::is_same_v<kernel_input_of<Random>, Random>);

// Precompiled or compiled in place, the same bits: V (LayoutLeft or
// LayoutRight, the precompiled path when the library has it) against the
// same numbers written through a LayoutStride View (always compiled here),
// values and derivatives.
template <class T, class Layout, class Family>
void expect_same_bits_either_way(const Family& family) {
  const int M = 37, N = 45;
  const auto x = filled<Kokkos::View<T*, Space>>("x", M, 1.2);
  Kokkos::View<T**, Layout, Space> V("V", M, N), dV("dV", M, N), W_storage("W", M, N),
      dW_storage("dW", M, N);
  Kokkos::View<T**, Kokkos::LayoutStride, Space> W(W_storage), dW(dW_storage);
  recur::evaluate(family, x, V);
  recur::evaluate(family, x, W);
  const auto v = to_host(V), w = to_host(W_storage);
  EXPECT_EQ(count_differences(v, w), 0) << Family::name();
  recur::evaluate(family, x, V, dV);
  recur::evaluate(family, x, W, dW);
  const auto d = to_host(dV), e = to_host(dW_storage);
  EXPECT_EQ(count_differences(d, e), 0) << Family::name() << " derivatives";
}

TYPED_TEST(ApiShapes, PrecompiledAndInPlaceInstancesGiveTheSameBits) {
  using T = TypeParam;
  expect_same_bits_either_way<T, Kokkos::LayoutLeft>(recur::PowerSums{});
  expect_same_bits_either_way<T, Kokkos::LayoutRight>(recur::Monomials{});
  expect_same_bits_either_way<T, Kokkos::LayoutLeft>(recur::HermiteENormalized{});
  expect_same_bits_either_way<T, Kokkos::LayoutRight>(recur::HermiteFunction{});
  expect_same_bits_either_way<T, Kokkos::LayoutRight>(recur::JacobiNormalized{0.5, -0.25});
  expect_same_bits_either_way<T, Kokkos::LayoutLeft>(recur::Gegenbauer{1.5});
}

}  // namespace api_shapes_test

namespace api_shapes_test {

// recur::store_ceiling times every method it knows on the bytes given and
// reports the fastest; every method stores: the bytes end up overwritten.
TEST(StoreCeiling, NamesTheFastestMethodAndOverwritesTheBytes) {
  for (const std::size_t count : {std::size_t(1000), std::size_t(1003)}) {  // 16-byte multiple or not
    Kokkos::View<float*, Space> V("V", count);
    Kokkos::deep_copy(V, 3.0f);
    const recur::StoreCeiling ceiling = recur::store_ceiling(Space{}, V, 3);
    EXPECT_GT(ceiling.seconds, 0);
    EXPECT_TRUE(ceiling.method == "kokkos fill" || ceiling.method == "wide fill" ||
                ceiling.method == "one-shot wide fill" || ceiling.method == "deep_copy" ||
                ceiling.method == "memset" || ceiling.method == "streamed fill")
        << ceiling.method;
    if (count % 4 != 0) {
      EXPECT_NE(ceiling.method, "wide fill");
      EXPECT_NE(ceiling.method, "one-shot wide fill");
    }
    if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible)
      EXPECT_NE(ceiling.method, "one-shot wide fill");  // (device memory only)
    EXPECT_DOUBLE_EQ(ceiling.rate(count * 4), count * 4 / ceiling.seconds);
    const auto h = to_host(V);
    int unchanged = 0;
    for (std::size_t i = 0; i < count; ++i) unchanged += h(i) == 3.0f;
    EXPECT_EQ(unchanged, 0);
    EXPECT_GT(recur::copy_seconds(Space{}, V.data(), count * 4, 3), 0);
  }
}

// recur::store_seconds runs one of store_ceiling's methods by its name (the
// perf suite pairs each timed call with one): each that applies stores the
// bytes; those that need 16-byte words, or a GPU, give 0 where they do not
// apply; an unknown name is an error that says where the names are.
TEST(StoreCeiling, EachMethodByItsName) {
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible;
  for (const std::size_t count : {std::size_t(1000), std::size_t(1003)}) {
    Kokkos::View<float*, Space> V("V", count);
    int applied = 0;
    for (const char* method : recur::store_methods) {
      Kokkos::deep_copy(V, 3.0f);
      const double seconds = recur::store_seconds(Space{}, V.data(), count * 4, method, 1);
      const std::string name = method;
      const bool wide        = name == "wide fill" || name == "one-shot wide fill";
      if ((wide && count % 4 != 0) || (name == "one-shot wide fill" && host)) {
        EXPECT_EQ(seconds, 0) << name;
        continue;
      }
      if (seconds == 0) {  // (the streamed fill off x86 hosts, memset on some backends)
        EXPECT_TRUE(name == "streamed fill" || name == "memset") << name;
        continue;
      }
      ++applied;
      const auto h = to_host(V);
      int unchanged = 0;
      for (std::size_t i = 0; i < count; ++i) unchanged += h(i) == 3.0f;
      EXPECT_EQ(unchanged, 0) << name;
    }
    EXPECT_GE(applied, 2);  // kokkos fill and deep_copy apply everywhere
    const recur::StoreCeiling ceiling = recur::store_ceiling(Space{}, V, 1);
    EXPECT_GT(recur::store_seconds(Space{}, V.data(), count * 4, ceiling.method, 1), 0);
  }
  Kokkos::View<float*, Space> V("V", 16);
  try {
    recur::store_seconds(Space{}, V.data(), 64, "fill");
    ADD_FAILURE() << "no error for an unknown method";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "recur::store_seconds: no store method named \"fill\" (recur::store_methods lists them)");
  }
}

// The one-shot wide fill (GPUs' ceiling; it runs on any space) stores the
// fill word into every 16-byte word of the bytes given, and nothing past them.
TEST(StoreCeiling, OneShotFillWritesEveryWordAndNoOther) {
  Kokkos::View<std::uint32_t*, Space> words("words", 4 * 1000 + 3);
  Kokkos::deep_copy(words, 7u);
  EXPECT_GT(recur::impl::one_shot_fill_seconds(Space{}, words.data(), 4 * 1000 * 4, 1), 0);
  const auto h = to_host(words);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    ASSERT_EQ(h(i), i < 4 * 1000 ? recur::impl::fill_word : 7u) << "word " << i;
}

// The streamed fill's shares: every byte of each written (whole lines
// streamed, ragged ends stored plainly), none outside, at any alignment.
TEST(StoreCeiling, StreamedFillWritesEveryByteOfItsSharesAndNoOther) {
#ifdef RECUR_IMPL_STREAMED_FILL
  std::vector<unsigned char> buffer(8192 + 256);
  unsigned char* const base = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(buffer.data()) + 63) / 64 * 64);
  for (const std::size_t offset : {0, 1, 17, 63})
    for (const std::size_t bytes : {0, 1, 63, 64, 65, 200, 1000, 4099, 8000})
      for (const std::size_t parts : {1, 3}) {
        std::fill(buffer.begin(), buffer.end(), 0x11);
        const recur::impl::StreamedFill fill{base + offset, bytes, parts};
        for (std::size_t p = 0; p < parts; ++p) fill(std::int64_t(p));
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < buffer.size(); ++i) {
          const unsigned char* const q = buffer.data() + i;
          const bool inside = q >= base + offset && q < base + offset + bytes;
          wrong += inside ? *q == 0x11 : *q != 0x11;
        }
        EXPECT_EQ(wrong, 0u) << "offset " << offset << ", " << bytes << " bytes, " << parts << " parts";
      }
#else
  GTEST_SKIP() << "no non-temporal stores on this target";
#endif
}

}  // namespace api_shapes_test
