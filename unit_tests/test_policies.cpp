// Every policy gives the same values, bit for bit: they run the same
// arithmetic and differ only in how rows map to threads and memory.
#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace policies_test {

using namespace recur_test;

template <class C>
class Policies : public ::testing::Test {};
TYPED_TEST_SUITE(Policies, AllConfigs, ConfigName);

template <class C, class Family>
void expect_staged_equals_thread_per_x(const Family& family, int M, int N) {
  using T = typename C::scalar;
  const auto x = to_device<typename C::XView>(sample_points<T>(M, 0.95));
  typename C::VView a("a", M, N), b("b", M, N);
  recur::evaluate(typename C::space{}, family, x, a, recur::ThreadPerX{});
  recur::evaluate(typename C::space{}, family, x, b, recur::Staged{});
  EXPECT_EQ(count_differences(to_host(a), to_host(b)), 0)
      << Family::name() << " M=" << M << " N=" << N;
}

TYPED_TEST(Policies, StagedEqualsThreadPerXForEveryKindOfFamily) {
  using C = TypeParam;
  // M not a multiple of any tile size; N from 1 to past a warp.
  for (int N : {1, 2, 7, 33, 130}) {
    expect_staged_equals_thread_per_x<C>(recur::PowerSums{}, 1001, N);
    expect_staged_equals_thread_per_x<C>(recur::HermiteENormalized{}, 1001, N);
    expect_staged_equals_thread_per_x<C>(recur::JacobiNormalized{0.5, -0.5}, 257, N);
    expect_staged_equals_thread_per_x<C>(recur::HermiteFunction{}, 129, N);
  }
}

// A user recurrence through for_each_slice, into a LayoutStride V (every
// other row of a larger View): the same values, and nothing written between.
TYPED_TEST(Policies, StagedRunsUserRecurrencesIntoStridedViews) {
  using T     = typename TypeParam::scalar;
  using Space = typename TypeParam::space;
  const int M = 300, N = 19;
  const auto x = to_device<typename TypeParam::XView>(sample_points<T>(M, 1.2));
  typename TypeParam::VView big("big", 2 * M, N), reference("reference", M, N);
  Kokkos::deep_copy(big, T(-5));
  Kokkos::View<T**, Kokkos::LayoutStride, Space> every_other(
      big.data(), Kokkos::LayoutStride(M, 2 * big.stride_0(), N, big.stride_1()));
  recur::for_each_slice(Space{}, x, every_other, PowerSumsReadingBack<T>{}, recur::Staged{});
  recur::for_each_slice(Space{}, x, reference, PowerSumsReadingBack<T>{}, recur::ThreadPerX{});
  const auto h = to_host(big);
  const auto r = to_host(reference);
  int wrong = 0, touched = 0;
  for (int i = 0; i < 2 * M; ++i)
    for (int n = 0; n < N; ++n) {
      if (i % 2 == 0) wrong += h(i, n) != r(i / 2, n);
      else touched += h(i, n) != T(-5);
    }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(touched, 0);
}

// ThreadPerX into column slices that start off the 16-byte grid (rows 1 to M
// of a LayoutLeft View): a GPU writes blocks of x with 16-byte stores where
// aligned, so these columns take its fallback. The same values as a
// row-slice V, and nothing written outside the subview.
TYPED_TEST(Policies, ThreadPerXWritesUnalignedColumnSlices) {
  using T     = typename TypeParam::scalar;
  using Space = typename TypeParam::space;
  const int M = 1001, N = 37;
  const auto x = to_device<typename TypeParam::XView>(sample_points<T>(M, 0.97));
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> big("big", M + 3, N);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> reference("reference", M, N);
  Kokkos::deep_copy(big, T(-5));
  const auto columns = Kokkos::subview(big, std::make_pair(1, M + 1), Kokkos::ALL);
  for (const bool three_term : {false, true}) {
    if (three_term) {
      recur::evaluate(Space{}, recur::HermiteENormalized{}, x, columns, recur::ThreadPerX{});
      recur::evaluate(Space{}, recur::HermiteENormalized{}, x, reference, recur::ThreadPerX{});
    } else {
      recur::evaluate(Space{}, recur::PowerSums{}, x, columns, recur::ThreadPerX{});
      recur::evaluate(Space{}, recur::PowerSums{}, x, reference, recur::ThreadPerX{});
    }
    const auto h = to_host(big);
    const auto r = to_host(reference);
    int wrong = 0, touched = 0;
    for (int i = 0; i < M + 3; ++i)
      for (int n = 0; n < N; ++n) {
        if (i >= 1 && i <= M) wrong += h(i, n) != r(i - 1, n);
        else touched += h(i, n) != T(-5);
      }
    EXPECT_EQ(wrong, 0) << (three_term ? "HermiteENormalized" : "PowerSums");
    EXPECT_EQ(touched, 0);
  }
}

// ThreadPerX into column slices whose data starts at every 16-byte offset
// of a 512-byte run (rows k to k + M - 1 of a LayoutLeft View): a GPU
// starts its blocks at column 0's first 512-byte boundary and takes the
// rows before it last, in blocks of their own (impl::aligned_run_offset),
// so each offset moves that boundary; M below and above it. x has exact
// zeros at scattered rows, whose blocks' steps keep the rule for f = 0
// while their neighbours' leave it out (a warp agrees on one or the other
// on a GPU). The same values as a row-slice V, and nothing written outside
// the subview.
TYPED_TEST(Policies, ThreadPerXColumnSlicesFromEveryOffset) {
  using T     = typename TypeParam::scalar;
  using Space = typename TypeParam::space;
  constexpr int per_pack = 16 / int(sizeof(T)), per_run = 512 / int(sizeof(T));
  const int N = 21;
  for (const int M : {3, 700}) {
    std::vector<double> values = sample_points<double>(std::size_t(M), 0.9);
    for (int i = 1; i < M; i += 97) values[std::size_t(i)] = 0.0;
    const auto x = to_device<Kokkos::View<double*, Space>>(values);
    Kokkos::View<T**, Kokkos::LayoutRight, Space> reference("reference", M, N);
    recur::evaluate(Space{}, recur::HermiteENormalized{}, x, reference, recur::ThreadPerX{});
    const auto r = to_host(reference);
    Kokkos::View<T**, Kokkos::LayoutLeft, Space> big("big", M + per_run, N);
    for (int k = 0; k < per_run; k += per_pack) {
      Kokkos::deep_copy(big, T(-5));
      const auto columns = Kokkos::subview(big, std::make_pair(k, k + M), Kokkos::ALL);
      recur::evaluate(Space{}, recur::HermiteENormalized{}, x, columns, recur::ThreadPerX{});
      const auto h = to_host(big);
      int wrong = 0, touched = 0;
      for (int i = 0; i < M + per_run; ++i)
        for (int n = 0; n < N; ++n) {
          if (i >= k && i < k + M) wrong += h(i, n) != r(i - k, n);
          else touched += h(i, n) != T(-5);
        }
      EXPECT_EQ(wrong, 0) << "M = " << M << ", rows from " << k;
      EXPECT_EQ(touched, 0) << "M = " << M << ", rows from " << k;
    }
  }
}

// ThreadPerX on CPUs with AVX2 and FMA runs three-term rows without
// prefactor (plain float or double, and double-double for double results)
// and power sums in SIMD vectors, 16 rows a block (8 for three-term steps in double; impl/cpu_lanes.hpp):
// float lanes scale their states at the scaling limit themselves (He_n in
// float passes it from n = 17 at |x| <= 1), the others hand the block to
// the scalar lanes there; V with neither stride 1 (every other column of a
// wider View) takes the scalar lanes on CPUs and one x a thread on GPUs. The
// same bits either way: edge points at scattered lane positions (NaN, ±inf,
// 0, x whose rows leave float's and double's range mid-row, x checked every
// step), a tail block, N across the rows' 64-byte pieces (16 float or 8
// double columns, then a remainder), and a V large enough for non-temporal
// stores.
template <class C, class Precision, class Family>
void expect_vectors_equal_scalar_lanes(const Family& family, int M, int N) {
  using T     = typename C::scalar;
  using Space = typename C::space;
  std::vector<double> values = sample_points<double>(M, 3.5);
  const double edges[] = {std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          0.0, -0.0, 20.0, -20.0, 1e3, -1e3, 3e4, 1e30};
  int position = 5;
  for (double e : edges) {
    values[std::size_t(position) % values.size()] = e;
    position += 37;
  }
  const auto x = to_device<Kokkos::View<double*, Space>>(values);
  typename C::VView a("a", M, N);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> wide("wide", M, 2 * N);
  Kokkos::View<T**, Kokkos::LayoutStride, Space> every_other(
      wide.data(), Kokkos::LayoutStride(M, wide.stride_0(), N, 2));
  recur::evaluate(Space{}, family, x, a, recur::ThreadPerX{}, Precision{});
  recur::evaluate(Space{}, family, x, every_other, recur::ThreadPerX{}, Precision{});
  const auto h = to_host(a);
  const auto w = to_host(wide);
  int differences = 0, infinite = 0;
  for (int i = 0; i < M; ++i)
    for (int n = 0; n < N; ++n) {
      differences += std::memcmp(&h(i, n), &w(i, 2 * n), sizeof(T)) != 0;
      infinite += std::isinf(h(i, n));
    }
  EXPECT_EQ(differences, 0) << Family::name()
                            << (std::is_same_v<Precision, recur::Fast> ? " Fast" : " Accurate")
                            << " M=" << M << " N=" << N;
  if (N == 100) EXPECT_GT(infinite, 0) << "no row left the range";
}

TYPED_TEST(Policies, ThreadPerXVectorsEqualScalarLanesAtTheEdges) {
  using C = TypeParam;
  for (int N : {1, 8, 9, 33, 100}) {
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::HermiteE{}, 16 * 40 + 5, N);
    expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::HermiteE{}, 16 * 40 + 5, N);
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::JacobiNormalized{0.5, -0.5}, 331, N);
    expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::LegendreNormalized{}, 331, N);
    expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::PowerSums{}, 16 * 40 + 5, N);
  }
  // 2^17 + 3 rows of 40 or 48: 20-50 MiB, past the non-temporal stores'
  // threshold; rows of 48 (192 or 384 bytes) start cache lines, so that
  // LayoutRight streams too.
  for (int N : {40, 48}) {
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::HermiteENormalized{}, (1 << 17) + 3, N);
    expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::HermiteENormalized{},
                                                          (1 << 17) + 3, N);
  }
  // Few rows: V's last rows in blocks of half (and a quarter of) the
  // vectors' block where those take them (LockstepRows::tail), the rest lane
  // by lane.
  for (int M : {16, 21, 24, 51}) {
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::HermiteE{}, M, 100);
    expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::LegendreNormalized{}, M, 33);
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::PowerSums{}, M, 100);
  }
  expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::HermiteE{}, (1 << 17) + 3, 48);
  expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::PowerSums{}, (1 << 17) + 3, 48);
  // Long rows of families whose coefficients grow: the vectors' limits are
  // their blocks' own (cpu_lanes::lane_limit_exponent), not the scalar
  // lanes': float He_n and H_n, which the scalar lanes check after every
  // step past n = 223 and n = 95, and double and double-double lanes past
  // 2^256 (He_n from n = 98 at |x| <= 1), the same bits.
  for (int N : {120, 300}) {
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::HermiteE{}, 16 * 40 + 5, N);
    expect_vectors_equal_scalar_lanes<C, recur::Accurate>(recur::HermiteE{}, 16 * 40 + 5, N);
    expect_vectors_equal_scalar_lanes<C, recur::Fast>(recur::Hermite{}, 16 * 40 + 5, N);
  }
}

// The values of `family` at every x of x in blocks (ThreadPerX, V of
// `Layout`) against those of each x evaluated alone: how many differ in
// their bits.
template <class Layout, class XView, class Family, class Precision>
int differences_from_each_x_alone(const XView& x, const Family& family, int N, Precision precision) {
  using T     = typename XView::non_const_value_type;
  using Space = typename XView::execution_space;
  const int M = int(x.extent(0));
  Kokkos::View<T**, Layout, Space> V("V", M, N), one("one", 1, N);
  recur::evaluate(Space{}, family, x, V, recur::ThreadPerX{}, precision);
  const auto v = to_host(V);
  int differences = 0;
  for (int i = 0; i < M; ++i) {
    recur::evaluate(Space{}, family, Kokkos::subview(x, std::make_pair(i, i + 1)), one, recur::ThreadPerX{},
                    precision);
    const auto o = to_host(one);
    for (int n = 0; n < N; ++n) differences += std::memcmp(&o(0, n), &v(i, n), sizeof(T)) != 0;
  }
  return differences;
}

// Power sums of long rows: on CPUs the vectors drop powers below 2^-60
// before they reach subnormals (cpu_lanes.hpp, drop_tiny_powers), which
// changes no sum: rows of 3000 terms, x within [-1, 1] and a third of them
// within [-1e-3, 1e-3], in blocks and a tail, against each x alone, both
// precisions.
TYPED_TEST(Policies, PowerSumsOfLongRowsAreThoseOfEachXAlone) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  const int M = 69, N = 3000;
  std::vector<T> xs(M);
  for (int i = 0; i < M; ++i) {
    const double s = -1 + 2 * (i + 0.5) / M;
    xs[i]          = T(i % 3 == 0 ? 1e-3 * s : s);
  }
  const auto x = to_device<typename C::XView>(xs);
  const auto check = [&](auto precision) {
    EXPECT_EQ(differences_from_each_x_alone<typename C::VView::array_layout>(x, recur::PowerSums{}, N,
                                                                              precision),
              0)
        << (std::is_same_v<decltype(precision), recur::Fast> ? "Fast" : "Accurate");
  };
  check(recur::Accurate{});
  check(recur::Fast{});
}

// HermiteFunction (a kernel with a prefactor, whose start folds the
// prefactor's binary exponent into the state where it can, and whose rows
// then run in the CPUs' vectors): each row is the one x alone gets, bit for
// bit, in blocks whose rows all fold and in blocks with rows that do not
// (|x| past 9.4 in float, 26.6 in double, past the clamp of the exponent at
// |x| ~ 1.6e4, out of the domain, NaN), whose rows run lane by lane.
TYPED_TEST(Policies, HermiteFunctionRowsAreThoseOfEachXAlone) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  const int M = 203, N = 41;
  std::vector<T> xs(M);
  const T inf = std::numeric_limits<T>::infinity();
  for (int i = 0; i < M; ++i) xs[i] = T(-12 + 24 * (i + 0.5) / M);  // across float's fold bound
  const T special[] = {T(0), T(-0.0), T(1e-30), T(9.4), T(9.5), T(26.5), T(26.7), T(-40), T(2e4), inf, -inf,
                       std::numeric_limits<T>::quiet_NaN(), T(1e19), T(3e38)};
  for (int k = 0; k < int(sizeof special / sizeof special[0]); ++k) xs[100 + 7 * k] = special[k];
  for (int i = 0; i < 64; ++i) xs[i] = T(xs[i] * T(0.5));  // blocks that all fold
  const auto x = to_device<typename C::XView>(xs);
  const auto check = [&](auto precision, auto layout) {
    EXPECT_EQ(differences_from_each_x_alone<decltype(layout)>(x, recur::HermiteFunction{}, N, precision), 0)
        << (std::is_same_v<decltype(precision), recur::Fast> ? "Fast" : "Accurate")
                              << (std::is_same_v<decltype(layout), Kokkos::LayoutLeft> ? " LayoutLeft"
                                                                                      : " LayoutRight");
  };
  check(recur::Accurate{}, Kokkos::LayoutLeft{});
  check(recur::Accurate{}, Kokkos::LayoutRight{});
  check(recur::Fast{}, Kokkos::LayoutLeft{});
  check(recur::Fast{}, Kokkos::LayoutRight{});
}

// A family whose first step has f = x - 2 and p_0 = -1: at x = 2, step()'s
// rule for f = 0 gives p_1 = 0 - 0 = +0 where a plain fused step would
// give 0 (-1) - 0 = -0. The CPUs' vectors keep the rule only in blocks
// holding such an x (cpu_lanes::step_rules): each row is the one x alone
// gets, bit for bit, the block with x = 2 included; and Laguerre's and
// Jacobi's (b_n != 0) rows likewise at their own zeros of f (Laguerre's
// f_0 at x = 1, f_1 at 3, f_3 at 7, in float and double).
struct NegativeStart {
  static constexpr const char* name() { return "NegativeStart"; }
  long double initial() const { return -1; }
  template <class R = long double>
  recur::ThreeTermCoefficients<R> coefficients(int n) const {
    if (n == 0) return {R(1), R(-2), R(0)};
    return {R(1), R(0.5), R(1) / R(n + 1)};
  }
};

TYPED_TEST(Policies, RowsAtZerosOfAStepAreThoseOfEachXAlone) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  using Space = typename C::space;
  const int M = 203, N = 37;
  std::vector<T> xs(M);
  for (int i = 0; i < M; ++i) xs[i] = T(-1 + 2 * (i + 0.5) / M);
  const T zeros[] = {T(2), T(-0.5), T(1), T(3), T(7), T(-1), T(0)};
  for (int k = 0; k < int(sizeof zeros / sizeof zeros[0]); ++k) xs[40 + 21 * k] = zeros[k];
  const auto x = to_device<typename C::XView>(xs);
  const auto check = [&](const auto& family, auto precision, auto layout) {
    EXPECT_EQ(differences_from_each_x_alone<decltype(layout)>(x, family, N, precision), 0)
        << family.name() << (std::is_same_v<decltype(precision), recur::Fast> ? " Fast" : " Accurate")
                              << (std::is_same_v<decltype(layout), Kokkos::LayoutLeft> ? " LayoutLeft"
                                                                                      : " LayoutRight");
  };
  const auto every = [&](const auto& family) {
    check(family, recur::Accurate{}, Kokkos::LayoutLeft{});
    check(family, recur::Accurate{}, Kokkos::LayoutRight{});
    check(family, recur::Fast{}, Kokkos::LayoutLeft{});
    check(family, recur::Fast{}, Kokkos::LayoutRight{});
  };
  every(NegativeStart{});
  every(recur::Laguerre{});
  every(recur::Jacobi{0.5, -0.5});
  // the case itself: p_1(2) is +0 (a plain fused step would give -0)
  typename C::VView V("V", 1, 2);
  recur::evaluate(Space{}, NegativeStart{}, to_device<typename C::XView>(std::vector<T>{T(2)}), V);
  EXPECT_FALSE(std::signbit(to_host(V)(0, 1)));
}

// Rows of a wider View (columns 0 .. 39 of M x 64): on CPUs long enough to
// stream, 64 bytes of 8 rows at a time, so that the 40th column ends a
// partial piece (float), and rows leaving double's range stop the vectors
// after other rows of their block ran past that column. The same bits as
// column slices, and the other columns untouched.
TYPED_TEST(Policies, ThreadPerXStreamsRowsOfWiderViews) {
  using T     = typename TypeParam::scalar;
  using Space = typename TypeParam::space;
  const int M = (1 << 17) + 3, N = 40, wide_N = 64;
  std::vector<double> values = sample_points<double>(M, 3.5);
  values[1000] = 3e4;  // He_n(x) past double's scaling limit mid-row
  values[5001] = -1e3;
  const auto x = to_device<Kokkos::View<double*, Space>>(values);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> wide("wide", M, wide_N);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> reference("reference", M, N);
  const auto rows = Kokkos::subview(wide, Kokkos::ALL, std::make_pair(0, N));
  const auto check = [&](const char* what) {
    const auto w = to_host(wide);
    const auto r = to_host(reference);
    int differences = 0, touched = 0;
    for (int i = 0; i < M; ++i)
      for (int n = 0; n < wide_N; ++n) {
        if (n < N) differences += std::memcmp(&w(i, n), &r(i, n), sizeof(T)) != 0;
        else touched += w(i, n) != T(-5);
      }
    EXPECT_EQ(differences, 0) << what;
    EXPECT_EQ(touched, 0) << what;
  };
  Kokkos::deep_copy(wide, T(-5));
  recur::evaluate(Space{}, recur::HermiteE{}, x, rows, recur::ThreadPerX{}, recur::Fast{});
  recur::evaluate(Space{}, recur::HermiteE{}, x, reference, recur::ThreadPerX{}, recur::Fast{});
  check("HermiteE Fast");
  Kokkos::deep_copy(wide, T(-5));
  recur::evaluate(Space{}, recur::HermiteE{}, x, rows, recur::ThreadPerX{}, recur::Accurate{});
  recur::evaluate(Space{}, recur::HermiteE{}, x, reference, recur::ThreadPerX{}, recur::Accurate{});
  check("HermiteE Accurate");
  Kokkos::deep_copy(wide, T(-5));
  recur::evaluate(Space{}, recur::PowerSums{}, x, rows, recur::ThreadPerX{});
  recur::evaluate(Space{}, recur::PowerSums{}, x, reference, recur::ThreadPerX{});
  check("PowerSums");
}

TEST(Policies, StagedRefusesDerivativesByName) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> x("x", 4);
  Kokkos::View<double**, Space> V("V", 4, 3), dV("dV", 4, 3);
  EXPECT_EQ(invalid_argument_message([&] { recur::evaluate(Space{}, recur::Legendre{}, x, V, dV, recur::Staged{}); }),
            "recur::evaluate: the Staged policy does not fill derivatives yet; "
            "use recur::ThreadPerX or recur::Auto with dV");
}

}  // namespace policies_test

// Non-temporal stores only of whole, aligned cache lines: a block's piece of
// a column (rows x sizeof(T)) or a whole row. Half lines (float results of 8
// double lanes) ran 20 times slower than plain stores on an Intel CPU.
TEST(Policies, StreamsOnlyWholeCacheLines) {
  using Host = Kokkos::HostSpace;
  const auto uninitialized = [](const char* label) {
    return Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing);
  };
  const std::size_t M = std::size_t(1) << 21;  // x 2 columns: the 16 MiB that streams
  Kokkos::View<float**, Kokkos::LayoutLeft, Host> columns(uninitialized("columns"), M, 2);
  EXPECT_FALSE(recur::impl::streams(columns, 8));   // 32 bytes a column
  EXPECT_TRUE(recur::impl::streams(columns, 16));   // 64 bytes
  Kokkos::View<double**, Kokkos::LayoutLeft, Host> doubles(uninitialized("doubles"), M, 1);
  EXPECT_TRUE(recur::impl::streams(doubles, 8));
  Kokkos::View<float**, Kokkos::LayoutLeft, Host> odd(uninitialized("odd"), M + 8, 2);
  EXPECT_FALSE(recur::impl::streams(odd, 16));      // columns 32 bytes off a line
  Kokkos::View<float**, Kokkos::LayoutRight, Host> rows(uninitialized("rows"), M / 4, 16);
  EXPECT_TRUE(recur::impl::streams(rows, 8));       // 64-byte rows
  Kokkos::View<float**, Kokkos::LayoutRight, Host> short_rows(uninitialized("short"), M / 2, 8);
  EXPECT_FALSE(recur::impl::streams(short_rows, 8));
  Kokkos::View<float**, Kokkos::LayoutLeft, Host> small(uninitialized("small"), 1024, 32);
  EXPECT_FALSE(recur::impl::streams(small, 16));    // in cache: plain stores
}
