// ScanAlongN against the sequential recurrence (ThreadPerX), and Auto's
// choices. ScanAlongN starts each chunk from a product of transfer matrices,
// so it agrees with the sequential recurrence to rounding, not bit for bit.
#include "test_support.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace scan_test {

using namespace recur_test;

template <class C>
class ScanAlongN : public ::testing::Test {};
TYPED_TEST_SUITE(ScanAlongN, AllConfigs, ConfigName);

// The worst scaled error (test_support.hpp) of `got` against `reference`
// over all rows, the reference taken as exact.
template <class A, class B>
double worst_row_error(const A& got, const B& reference) {
  double worst = 0;
  for (std::size_t i = 0; i < got.extent(0); ++i) {
    std::vector<long double> ref(got.extent(1));
    for (std::size_t n = 0; n < ref.size(); ++n) ref[n] = reference(i, n);
    worst = std::max(worst, scaled_error([&](std::size_t n) { return got(i, n); }, ref));
  }
  return worst;
}

template <class C, class Family>
double scan_against_sequential(const Family& family, int M, int N, int chunk,
                               double bound = 0.95) {
  using T = typename C::scalar;
  const auto x = to_device<typename C::XView>(sample_points<T>(M, bound));
  typename C::VView sequential("sequential", M, N), scanned("scanned", M, N);
  recur::evaluate(typename C::space{}, family, x, sequential, recur::ThreadPerX{});
  recur::evaluate(typename C::space{}, family, x, scanned, recur::ScanAlongN{chunk});
  return worst_row_error(to_host(scanned), to_host(sequential));
}

TYPED_TEST(ScanAlongN, AgreesWithTheSequentialRecurrenceOnEveryChunking) {
  using C = TypeParam;
  using T = typename C::scalar;
  // (M, N, chunk): one term; chunks of one term; partial last chunks; one
  // chunk for the whole row; more rows than a GPU team; the default chunk;
  // a scan of two levels whose last block has one member; four levels
  // (40 001 chunks, 1251 blocks, 40, 2), each with a partial last block.
  const int shapes[][3] = {{37, 1, 0},  {37, 2, 1},     {5, 1000, 7}, {3, 300, 0},
                           {300, 130, 64}, {9, 5000, 0}, {2, 33, 1},   {4, 40001, 1}};
  for (const auto& s : shapes) {
    const int M = s[0], N = s[1], chunk = s[2];
    const double tol = tolerance<T>(N);
    const auto where = ::testing::Message() << "M=" << M << " N=" << N << " chunk=" << chunk;
    EXPECT_LE(scan_against_sequential<C>(recur::PowerSums{}, M, N, chunk), tol) << where;
    EXPECT_LE(scan_against_sequential<C>(recur::HermiteENormalized{}, M, N, chunk, 4.0), tol)
        << where;
    EXPECT_LE(scan_against_sequential<C>(recur::Legendre{}, M, N, chunk), tol) << where;
    EXPECT_LE(scan_against_sequential<C>(recur::ChebyshevT{}, M, N, chunk, 1.0), tol) << where;
    EXPECT_LE(scan_against_sequential<C>(recur::JacobiNormalized{0.5, -0.5}, M, N, chunk), tol)
        << where;
    EXPECT_LE(scan_against_sequential<C>(recur::GegenbauerNormalized{0.75}, M, N, chunk), tol)
        << where;
  }
}

// The one-pass form (impl::chained_scan_along_n: tiles that look back along
// their rows for their starting states), what GPUs run for column slices;
// on CPUs a tile is a chunk of one row by default, and the threads still
// look back at each other's tiles; where the backend has teams of two
// threads (OpenMP), also tiles of 1 row x 2 chunks (the tree of matrices,
// two tiles read a look-back round) and of 2 rows x 1 chunk (row blocks).
template <class Space>
struct TeamProbe {
  KOKKOS_FUNCTION void operator()(const typename Kokkos::TeamPolicy<Space>::member_type&) const {}
};
template <class C, class Family>
double one_pass_against_sequential(const Family& family, int M, int N, int chunk) {
  using T      = typename C::scalar;
  using Space  = typename C::space;
  const auto x = to_device<typename C::XView>(sample_points<T>(M, 0.95));
  typename C::VView sequential("sequential", M, N), scanned("scanned", M, N);
  recur::evaluate(Space{}, family, x, sequential, recur::ThreadPerX{});
  const auto kernel = recur::impl::make_kernel<T, recur::Accurate>(Space{}, family, N);
  bool pairs = false;
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename Space::memory_space>::accessible)
    pairs = Kokkos::TeamPolicy<Space>(Space{}, 1, 1).team_size_max(
                TeamProbe<Space>{}, Kokkos::ParallelForTag()) >= 2;
  double worst = 0;
  for (const auto& tile : {std::array<int, 2>{0, 0}, {1, 2}, {2, 1}}) {
    if (tile[0] > 0 && !pairs) continue;
    Kokkos::deep_copy(scanned, T(0));
    recur::impl::chained_scan_along_n(Space{}, "one pass", x, scanned,
                                      recur::impl::scan_form(kernel), chunk, tile[0], tile[1]);
    worst = std::max(worst, worst_row_error(to_host(scanned), to_host(sequential)));
  }
  return worst;
}

TYPED_TEST(ScanAlongN, OnePassAgreesWithTheSequentialRecurrence) {
  using C = TypeParam;
  using T = typename C::scalar;
  // (M, N, chunk): one term; chunks of one term (many tiles a row); a
  // partial last chunk and tile; more rows than a tile; a row block of 4;
  // chunks of a block of 8 steps and a tail of 7 (chunks whose length is not
  // a multiple of 8 once took extra steps on an H100: scan_along_n.hpp).
  const int shapes[][3] = {{37, 1, 1},  {3, 2, 1},       {5, 1000, 7}, {300, 130, 8},
                           {4, 20001, 3}, {16, 70001, 64}, {16, 4096, 15}};
  for (const auto& s : shapes) {
    const int M = s[0], N = s[1], chunk = s[2];
    const double tol = tolerance<T>(N);
    const auto where = ::testing::Message() << "M=" << M << " N=" << N << " chunk=" << chunk;
    EXPECT_LE(one_pass_against_sequential<C>(recur::PowerSums{}, M, N, chunk), tol) << where;
    EXPECT_LE(one_pass_against_sequential<C>(recur::Legendre{}, M, N, chunk), tol) << where;
    EXPECT_LE(one_pass_against_sequential<C>(recur::JacobiNormalized{0.5, -0.5}, M, N, chunk), tol)
        << where;
  }
}

// V a block of a larger View (LayoutStride): for row slices its rows lie
// apart (columns [first, first + N) of 1024), for column slices its columns
// (rows [first, first + M) of 64). Each chunking's terms land where the
// rows lie, the last chunk's partial run included, and nothing outside the
// block is written; first = 1 puts the block off every 16-byte boundary.
TYPED_TEST(ScanAlongN, BlocksOfALargerViewAgreeWithTheSequentialRecurrence) {
  using C     = TypeParam;
  using T     = typename C::scalar;
  using Space = typename C::space;
  constexpr bool rows = std::is_same_v<typename C::layout, Kokkos::LayoutRight>;
  const int M = 20, N = 1001, wide = 1024, tall = 64;
  const T outside = T(-777);
  for (const int first : {0, 1}) {
    for (const int chunk : {64, 16, 0}) {
      const auto where = ::testing::Message() << "first=" << first << " chunk=" << chunk;
      const auto check = [&](const auto& family, double bound, const char* name) {
        const auto xs = to_device<typename C::XView>(sample_points<T>(M, bound));
        typename C::VView sequential("sequential", M, N);
        typename C::VView whole("whole", rows ? M : tall, rows ? wide : N);
        Kokkos::deep_copy(whole, outside);
        const auto block = rows ? std::make_pair(first, first + N) : std::make_pair(0, N);
        const auto lines = rows ? std::make_pair(0, M) : std::make_pair(first, first + M);
        const Kokkos::View<T**, Kokkos::LayoutStride, Space> V = Kokkos::subview(whole, lines, block);
        recur::evaluate(Space{}, family, xs, sequential, recur::ThreadPerX{});
        recur::evaluate(Space{}, family, xs, V, recur::ScanAlongN{chunk});
        // (V is strided: GPUs copy it back as part of the whole View.)
        const auto h = to_host(whole);
        EXPECT_LE(worst_row_error(Kokkos::subview(h, lines, block), to_host(sequential)),
                  tolerance<T>(N))
            << where << " " << name;
        int written_outside = 0;
        for (std::size_t i = 0; i < h.extent(0); ++i)
          for (std::size_t n = 0; n < h.extent(1); ++n) {
            const bool inside = int(i) >= lines.first && int(i) < lines.second &&
                                int(n) >= block.first && int(n) < block.second;
            written_outside += !inside && h(i, n) != outside;
          }
        EXPECT_EQ(written_outside, 0) << where << " " << name;
      };
      check(recur::Legendre{}, 0.95, "Legendre");
      check(recur::HermiteENormalized{}, 4.0, "HermiteENormalized");
      check(recur::PowerSums{}, 0.95, "PowerSums");
    }
  }
}

// The accuracy over long rows: T_n(cos t) = cos(n t), against long double,
// for the sequential recurrence and for ScanAlongN, N = 2^16, chunks of 64.
// The measured errors (recorded as test properties) stay within 4x of each
// other and far within the families' tolerance.
TYPED_TEST(ScanAlongN, LongRowsAreAsAccurateAsTheSequentialRecurrence) {
  using C = TypeParam;
  using T = typename C::scalar;
  const int M = 8, N = 1 << 16;
  std::vector<T> xs(M);
  std::vector<long double> angles(M);
  for (int i = 0; i < M; ++i) {
    xs[i]     = T(std::cos(0.1 + 0.37 * i));
    angles[i] = std::acos((long double)xs[i]);
  }
  const auto x = to_device<typename C::XView>(xs);
  typename C::VView sequential("sequential", M, N), scanned("scanned", M, N);
  recur::evaluate(typename C::space{}, recur::ChebyshevT{}, x, sequential, recur::ThreadPerX{});
  recur::evaluate(typename C::space{}, recur::ChebyshevT{}, x, scanned, recur::ScanAlongN{64});
  const auto s = to_host(sequential);
  const auto q = to_host(scanned);
  long double worst_sequential = 0, worst_scanned = 0;
  for (int i = 0; i < M; ++i)
    for (int n = 0; n < N; ++n) {
      const long double exact = std::cos(n * angles[i]);
      worst_sequential = std::max(worst_sequential, std::fabs(s(i, n) - exact));
      worst_scanned    = std::max(worst_scanned, std::fabs(q(i, n) - exact));
    }
  ::testing::Test::RecordProperty("worst_sequential", std::to_string(double(worst_sequential)));
  ::testing::Test::RecordProperty("worst_scanned", std::to_string(double(worst_scanned)));
  EXPECT_LE(double(worst_scanned), tolerance<T>(N));
  EXPECT_LE(worst_scanned,
            4 * worst_sequential + 4 * std::numeric_limits<T>::epsilon());
}

TEST(ScanAlongNErrors, RefusesNegativeChunksAndDerivativesByName) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> x("x", 4);
  Kokkos::View<double**, Space> V("V", 4, 3), dV("dV", 4, 3);
  EXPECT_EQ(invalid_argument_message([&] { recur::evaluate(Space{}, recur::Legendre{}, x, V, recur::ScanAlongN{-2}); }),
            "recur::evaluate[Legendre,ScanAlongN]: ScanAlongN{chunk = -2} is invalid; "
            "the chunk must be positive, or 0 for the default");
  EXPECT_EQ(invalid_argument_message([&] { recur::evaluate(Space{}, recur::Legendre{}, x, V, dV, recur::ScanAlongN{}); }),
            "recur::evaluate: the ScanAlongN policy does not fill derivatives yet; "
            "use recur::ThreadPerX or recur::Auto with dV");
}

// ScanAlongN{0}'s chunk length (impl::default_chunk): 1024 on CPUs; on a
// GPU (here an H100's 132 x 2048 threads) the layout's and family's base
// where M x N is large, shorter where it is small, never under 128 terms or
// over N.
TEST(ScanAlongNDefaults, ChunkFollowsBackendLayoutAndShape) {
  using recur::impl::default_chunk;
  const std::int64_t gpu = 132 * 2048;
  EXPECT_EQ(default_chunk(true, false, true, 16, 1 << 24, 2), 1024);
  EXPECT_EQ(default_chunk(true, true, false, 16, 1 << 12, 2), 1024);
  EXPECT_EQ(default_chunk(true, false, true, 16, 100, 2), 100);
  // M = 16, N = 2^24: column slices 512, power sums' 1024 (512 from M = 17
  // on), row slices 1024.
  EXPECT_EQ(default_chunk(false, false, true, 16, 1 << 24, gpu), 512);
  EXPECT_EQ(default_chunk(false, false, false, 16, 1 << 24, gpu), 1024);
  EXPECT_EQ(default_chunk(false, false, false, 17, 1 << 24, gpu), 512);
  EXPECT_EQ(default_chunk(false, true, true, 16, 1 << 24, gpu), 1024);
  EXPECT_EQ(default_chunk(false, true, false, 64, 1 << 24, gpu), 1024);
  // Smaller M x N: the longest chunk that leaves one for every eighth of
  // the threads (M x N / L >= 33792).
  EXPECT_EQ(default_chunk(false, true, true, 16, 1 << 22, gpu), 1024);
  EXPECT_EQ(default_chunk(false, true, true, 16, 1 << 20, gpu), 256);
  EXPECT_EQ(default_chunk(false, false, true, 64, 1 << 18, gpu), 256);
  EXPECT_EQ(default_chunk(false, false, true, 33792, 512, gpu), 512);
  EXPECT_EQ(default_chunk(false, false, true, 33791, 512, gpu), 256);
  EXPECT_EQ(default_chunk(false, true, true, 16, 1 << 12, gpu), 128);
  EXPECT_EQ(default_chunk(false, true, true, 16, 100, gpu), 100);
  // Power sums' column slices: a chunk for every 32nd of the threads.
  EXPECT_EQ(default_chunk(false, false, false, 16, 1 << 18, gpu), 256);
  EXPECT_EQ(default_chunk(false, false, false, 16, 1 << 20, gpu), 1024);
  EXPECT_EQ(default_chunk(false, false, false, 64, 1 << 16, gpu), 256);
  EXPECT_EQ(default_chunk(false, true, false, 16, 1 << 18, gpu), 128);
}

// Auto's rule (recur/evaluate.hpp), checked through recur::auto_policy and
// through the kernels Auto actually runs.
template <class Space>
void expect_auto_choices() {
  const Space space;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  const auto rows_right = [](int M, int N) {
    return Kokkos::View<float**, Kokkos::LayoutRight, Space>("V", M, N);
  };
  const auto rows_left = [](int M, int N) {
    return Kokkos::View<float**, Kokkos::LayoutLeft, Space>("V", M, N);
  };
  using recur::PolicyKind;
  // One row of 2^14 terms: scan for linear recurrences where there are
  // threads to share it (not on Serial), never for the rest.
  const PolicyKind long_row =
      space.concurrency() > 1 ? PolicyKind::ScanAlongN : PolicyKind::ThreadPerX;
  EXPECT_EQ(recur::auto_policy(space, recur::Legendre{}, rows_left(1, 1 << 14)), long_row);
  EXPECT_EQ(recur::auto_policy(space, recur::PowerSums{}, rows_left(1, 1 << 14)), long_row);
  EXPECT_EQ(recur::auto_policy(space, recur::HermiteFunction{}, rows_left(1, 1 << 14)),
            long_row);
  EXPECT_EQ(recur::auto_policy(space, rows_left(1, 1 << 14)), PolicyKind::ThreadPerX);
  // One thread per x on CPUs, and on GPUs for column slices and a direct
  // family's rows of one vector store; Staged for other row slices on GPUs.
  EXPECT_EQ(recur::auto_policy(space, recur::Legendre{}, rows_left(100000, 32)),
            PolicyKind::ThreadPerX);
  const PolicyKind row_slices = host ? PolicyKind::ThreadPerX : PolicyKind::Staged;
  EXPECT_EQ(recur::auto_policy(space, recur::PowerSums{}, rows_right(100000, 4)),
            PolicyKind::ThreadPerX);
  EXPECT_EQ(recur::auto_policy(space, recur::Legendre{}, rows_right(100000, 4)), row_slices);
  EXPECT_EQ(recur::auto_policy(space, recur::Legendre{}, rows_right(100000, 32)), row_slices);
  EXPECT_EQ(recur::auto_policy(space, rows_right(100000, 32)), row_slices);
  EXPECT_STREQ(recur::name(row_slices), host ? "ThreadPerX" : "Staged");
}

TEST(Auto, ChoosesByBackendLayoutShapeAndFamily) {
#ifdef KOKKOS_ENABLE_CUDA
  expect_auto_choices<Kokkos::Cuda>();
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  expect_auto_choices<Kokkos::OpenMP>();
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  expect_auto_choices<Kokkos::Serial>();
#endif
}

std::vector<std::string>& seen_labels() {
  static std::vector<std::string> labels;
  return labels;
}
void record_label(const char* name, std::uint32_t, std::uint64_t*) {
  seen_labels().emplace_back(name);
}

TEST(Auto, RunsWhatItSaysAndScanKernelsAreLabelled) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<double*, Space> x("x", 1);
  Kokkos::View<double**, Kokkos::LayoutRight, Space> V("V", 1, 5000);
  if (Space().concurrency() == 1) GTEST_SKIP() << "one thread: Auto never scans";
  ASSERT_EQ(recur::auto_policy(Space{}, recur::Legendre{}, V), recur::PolicyKind::ScanAlongN);
  seen_labels().clear();
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(record_label);
  recur::evaluate(Space{}, recur::Legendre{}, x, V);
  Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr);
  EXPECT_NE(std::find(seen_labels().begin(), seen_labels().end(),
                      "recur::evaluate[Legendre,ScanAlongN]"),
            seen_labels().end());
  EXPECT_NE(std::find(seen_labels().begin(), seen_labels().end(),
                      "recur::evaluate[Legendre,ScanAlongN] transfers"),
            seen_labels().end());
}

}  // namespace scan_test

namespace scan_test {

// Coefficient tables are kept between calls (impl/three_term.hpp): changing
// the family's parameters or asking for more terms must not reuse a wrong or
// short table, and a shorter call reuses the kept one's prefix.
TEST(CoefficientTables, KeptTablesFollowParametersAndLength) {
  using Space = Kokkos::DefaultExecutionSpace;
  using View  = Kokkos::View<double**, Kokkos::LayoutLeft, Space>;
  const auto x = to_device<Kokkos::View<double*, Space>>(sample_points<double>(20, 0.9));
  const auto run = [&](const recur::Jacobi& family, int N) {
    View V("V", 20, N);
    recur::evaluate(Space{}, family, x, V, recur::ThreadPerX{});
    return to_host(V);
  };
  const auto a_long  = run(recur::Jacobi{0.5, 1.5}, 300);
  const auto b       = run(recur::Jacobi{1.5, 0.5}, 100);
  const auto a_short = run(recur::Jacobi{0.5, 1.5}, 50);
  const auto a_more  = run(recur::Jacobi{0.5, 1.5}, 400);
  const auto a_again = run(recur::Jacobi{0.5, 1.5}, 50);
  int differ_from_a = 0;
  for (int i = 0; i < 20; ++i) {
    for (int n = 0; n < 50; ++n) {
      EXPECT_EQ(a_short(i, n), a_long(i, n));
      EXPECT_EQ(a_again(i, n), a_long(i, n));
    }
    for (int n = 0; n < 300; ++n) EXPECT_EQ(a_more(i, n), a_long(i, n));
    for (int n = 1; n < 100; ++n) differ_from_a += b(i, n) != a_long(i, n);
  }
  EXPECT_GT(differ_from_a, 20 * 90);
}

}  // namespace scan_test

namespace scan_test {

// The staged passes on GPUs (Staged's long rows, ScanAlongN's row-slice
// chunks) produce their values in rounds through impl::stage_terms; here its
// rounds, on the host, against the sequential recurrence (ThreadPerX), bit
// for bit: any round length, chunks starting inside a row, and the last term.
template <class T, class Family>
void expect_rounds_equal_sequential(const Family& family) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  const int N = 70;
  const T xi  = T(0.73);
  Kokkos::View<T*, Space> x("x", 1);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> V("V", 1, N);
  x(0) = xi;
  recur::evaluate(Space{}, family, x, V, recur::ThreadPerX{});
  const auto kernel = recur::impl::make_kernel<T>(Space{}, family, N);
  const auto scan   = recur::impl::scan_form(kernel);
  using State       = typename std::decay_t<decltype(scan)>::state_type;
  for (const auto [begin, end] : {std::pair{0, 70}, {5, 40}, {69, 70}, {3, 4}})
    for (const int S : {1, 7, 32, 100}) {
      State s;  // the state at `begin`, carried there one step at a time
      scan.start(double(xi), s);
      for (int n = 0; n < begin; ++n) scan.advance(double(xi), scan.load(n), s);
      std::vector<T> got(std::size_t(end - begin), T(-7));
      for (int first = begin; first < end; first += S)
        recur::impl::stage_terms(scan, double(xi), first, std::min(first + S, end), end, s,
                                 got.data() + (first - begin));
      int wrong = 0;
      for (int n = begin; n < end; ++n) wrong += got[std::size_t(n - begin)] != V(0, n);
      EXPECT_EQ(wrong, 0) << Family::name() << " terms [" << begin << ", " << end
                          << ") in rounds of " << S;
    }
}

// Inside a block of steps between range checks the double-double steps skip
// their inf branches (BlockTag, scan_form.hpp; step<Bounded> in numbers.hpp):
// here both forms of every step of a long row, from the same state, checked
// every check_period steps as for_steps does, bit for bit. x = 0 takes
// step()'s zero branch; 3.9 lets the states grow and be scaled.
template <class Family>
void expect_bounded_steps_equal_checked(const Family& family) {
  using Space       = Kokkos::DefaultHostExecutionSpace;
  const int N       = 3000;
  const auto kernel = recur::impl::make_kernel<double>(Space{}, family, N);
  const auto scan   = recur::impl::scan_form(kernel);
  using Scan        = std::decay_t<decltype(scan)>;
  static_assert(std::is_same_v<typename Scan::number_type, recur::impl::DoubleDouble>);
  const auto bits = [](const typename Scan::state_type& s) {
    return std::array<double, 4>{s.u0.hi, s.u0.lo, s.u1.hi, s.u1.lo};
  };
  for (const double x : {0.0, 0.3, -0.99, 3.9}) {
    typename Scan::state_type checked, bounded;
    scan.start(x, checked);
    bounded   = checked;
    int wrong = 0;
    for (int n = 0; n + 1 < N; ++n) {
      scan.advance(x, scan.load(n), checked, recur::impl::BlockTag<false, false>{});
      scan.advance(x, scan.load(n), bounded, recur::impl::BlockTag<false>{});
      if (n % Scan::check_period == Scan::check_period - 1) {
        recur::impl::keep_both_in_range(checked);
        recur::impl::keep_both_in_range(bounded);
      }
      const auto a = bits(checked), b = bits(bounded);
      wrong += std::memcmp(a.data(), b.data(), sizeof a) != 0 || checked.e != bounded.e;
    }
    EXPECT_EQ(wrong, 0) << Family::name() << " at x = " << x;
    EXPECT_TRUE(std::isfinite(checked.u0.hi)) << Family::name() << " at x = " << x;
  }
}

TEST(BoundedSteps, EqualCheckedStepsBitForBit) {
  expect_bounded_steps_equal_checked(recur::HermiteE{});
  expect_bounded_steps_equal_checked(recur::HermiteENormalized{});
  expect_bounded_steps_equal_checked(recur::Legendre{});
  expect_bounded_steps_equal_checked(recur::JacobiNormalized{0.5, -0.5});
  expect_bounded_steps_equal_checked(recur::Laguerre{2.5});
}

// A family whose a_5 is below 2^-60 (so that f = a_5 x can be 0 at normal
// x): its steps keep step()'s rule for f = 0 everywhere.
struct TinyStep {
  static constexpr const char* name() { return "TinyStep"; }
  long double initial() const { return 1; }
  template <class R = long double>
  recur::ThreeTermCoefficients<R> coefficients(int n) const {
    return {n == 5 ? R(0x1p-70L) : R(1), R(0), R(0.5)};
  }
};

// Where ThreeTermKernel::nonzero_f(x) holds, for_steps' blocks leave out
// step()'s rule for f = 0 (BlockTag::nonzero_f): here both forms of every
// step of a long row, from the same state, checked every check_period steps
// as for_steps does, bit for bit, for float, double and double-double
// states; 3.9 lets the states grow and be scaled.
template <class T, class Precision, class Family>
void expect_nonzero_steps_equal_ruled(const Family& family) {
  using Space       = Kokkos::DefaultHostExecutionSpace;
  const int N       = 3000;
  const auto kernel = recur::impl::make_kernel<T, Precision>(Space{}, family, N);
  using Scan        = std::decay_t<decltype(kernel)>;
  using W           = typename Scan::number_type;
  const auto same   = [](const typename Scan::state_type& a, const typename Scan::state_type& b) {
    return std::memcmp(&a.u0, &b.u0, sizeof(W)) == 0 && std::memcmp(&a.u1, &b.u1, sizeof(W)) == 0 &&
           a.e == b.e;
  };
  for (const double x : {0x1p-60, -0x1p-60, 1e-10, 0.3, -0.99, 3.9}) {
    ASSERT_TRUE(kernel.nonzero_f(x)) << Family::name() << " at x = " << x;
    typename Scan::state_type ruled, plain;
    kernel.start(x, ruled);
    plain     = ruled;
    int wrong = 0;
    for (int n = 0; n + 1 < N; ++n) {
      kernel.advance(x, kernel.load(n), ruled, recur::impl::BlockTag<false>{});
      kernel.advance(x, kernel.load(n), plain, recur::impl::BlockTag<false, true, true>{});
      if (n % Scan::check_period == Scan::check_period - 1) {
        recur::impl::keep_both_in_range(ruled);
        recur::impl::keep_both_in_range(plain);
      }
      wrong += !same(ruled, plain);
    }
    EXPECT_EQ(wrong, 0) << Family::name() << " at x = " << x << " in " << sizeof(W) << "-byte numbers";
  }
}

TEST(NonzeroSteps, EqualStepsWithTheZeroRuleBitForBit) {
  expect_nonzero_steps_equal_ruled<float, recur::Fast>(recur::HermiteE{});
  expect_nonzero_steps_equal_ruled<float, recur::Accurate>(recur::HermiteENormalized{});
  expect_nonzero_steps_equal_ruled<double, recur::Fast>(recur::Legendre{});
  expect_nonzero_steps_equal_ruled<double, recur::Accurate>(recur::HermiteENormalized{});
  expect_nonzero_steps_equal_ruled<double, recur::Accurate>(recur::ChebyshevU{});
}

TEST(NonzeroSteps, OnlyWhereNoStepsFCanBeZero) {
  using Space  = Kokkos::DefaultHostExecutionSpace;
  const auto k = recur::impl::make_kernel<double>(Space{}, recur::HermiteE{}, 40);
  EXPECT_TRUE(k.nonzero_f(0x1p-60));
  EXPECT_TRUE(k.nonzero_f(-2.5));
  EXPECT_FALSE(k.nonzero_f(0x1p-61));  // a_n x may be 0 in float
  EXPECT_FALSE(k.nonzero_f(0.0));
  EXPECT_FALSE(k.nonzero_f(-0.0));
  EXPECT_FALSE(k.nonzero_f(std::nan("")));
  // b_n != 0: f is 0 at -b_n / a_n
  EXPECT_FALSE(recur::impl::make_kernel<double>(Space{}, recur::Laguerre{}, 40).nonzero_f(0.3));
  EXPECT_FALSE(recur::impl::make_kernel<float>(Space{}, recur::JacobiNormalized{0.5, -0.5}, 40).nonzero_f(0.3));
  // |a_5| < 2^-60
  const auto tiny_double = recur::impl::make_kernel<double, recur::Fast>(Space{}, TinyStep{}, 40);
  const auto tiny_float  = recur::impl::make_kernel<float, recur::Fast>(Space{}, TinyStep{}, 40);
  EXPECT_FALSE(tiny_double.nonzero_f(0.3));
  EXPECT_FALSE(tiny_float.nonzero_f(0.3));
}

TEST(StagedRounds, EqualTheSequentialRecurrence) {
  expect_rounds_equal_sequential<float>(recur::PowerSums{});
  expect_rounds_equal_sequential<double>(recur::PowerSums{});
  expect_rounds_equal_sequential<float>(recur::HermiteENormalized{});
  expect_rounds_equal_sequential<double>(recur::HermiteENormalized{});
  expect_rounds_equal_sequential<double>(recur::JacobiNormalized{0.5, -0.5});
}

}  // namespace scan_test
