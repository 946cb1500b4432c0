// recur::evaluate_streamed: chunks arrive in order, cover every row once, and
// hold bit for bit what recur::evaluate puts in one M x N View, for every
// chunk size, with and without derivatives; a sink's exception ends the run.
#include "test_support.hpp"

#include <recur/stream.hpp>

#include <stdexcept>

namespace stream_test {

using namespace recur_test;

template <class C>
class Stream : public ::testing::Test {};
TYPED_TEST_SUITE(Stream, AllConfigs, ConfigName);

// What the sink saw, gathered into host M x N arrays.
template <class T, class Layout>
struct Gathered {
  Kokkos::View<T**, Layout, Kokkos::HostSpace> V, dV;
  std::vector<std::size_t> firsts, sizes;
};

template <class Space, class T, class Layout, class Family, class Policy = recur::Auto>
Gathered<T, Layout> gather(const Family& family, const std::vector<double>& x, int N,
                           std::size_t chunk_rows, bool derivative, Policy policy = {}) {
  const std::size_t M = x.size();
  Gathered<T, Layout> g{Kokkos::View<T**, Layout, Kokkos::HostSpace>("V", M, N),
                        Kokkos::View<T**, Layout, Kokkos::HostSpace>("dV", M, N),
                        {},
                        {}};
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> xs(
      x.data(), M);
  recur::StreamOptions options;
  options.chunk_rows = chunk_rows;
  options.derivative = derivative;
  recur::evaluate_streamed<T, Layout>(
      Space{}, family, xs, N,
      [&](const recur::StreamChunk<T, Layout>& chunk) {
        g.firsts.push_back(chunk.first_row);
        g.sizes.push_back(chunk.V.extent(0));
        EXPECT_EQ(chunk.V.extent(1), std::size_t(N));
        EXPECT_EQ(chunk.dV.extent(0), derivative ? chunk.V.extent(0) : 0u);
        for (std::size_t i = 0; i < chunk.V.extent(0); ++i)
          for (int n = 0; n < N; ++n) {
            g.V(chunk.first_row + i, n) = chunk.V(i, n);
            if (derivative) g.dV(chunk.first_row + i, n) = chunk.dV(i, n);
          }
      },
      options, policy);
  return g;
}

TYPED_TEST(Stream, ChunksHoldWhatEvaluateGives) {
  using Space  = typename TypeParam::space;
  using T      = typename TypeParam::scalar;
  using Layout = typename TypeParam::layout;
  const std::vector<double> x = sample_points<double>(103, 1.1);
  const int N                 = 19;
  const recur::LegendreNormalized family;
  const auto x_device = to_device<Kokkos::View<double*, Space>>(x);
  Kokkos::View<T**, Layout, Space> V("V", x.size(), N), dV("dV", x.size(), N);
  recur::evaluate(Space{}, family, x_device, V);
  const auto expected = to_host(V);
  recur::evaluate(Space{}, family, x_device, V, dV);
  const auto expected_with = to_host(V), expected_derivative = to_host(dV);

  for (std::size_t chunk : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(103), std::size_t(500)}) {
    for (bool derivative : {false, true}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + (derivative ? " with dV" : ""));
      const auto g = gather<Space, T, Layout>(family, x, N, chunk, derivative);
      const std::size_t rows = chunk == 0 || chunk > x.size() ? x.size() : chunk;
      ASSERT_EQ(g.firsts.size(), (x.size() + rows - 1) / rows);
      for (std::size_t k = 0; k < g.firsts.size(); ++k) {
        EXPECT_EQ(g.firsts[k], k * rows);
        EXPECT_EQ(g.sizes[k], std::min(rows, x.size() - k * rows));
      }
      EXPECT_EQ(count_differences(g.V, derivative ? expected_with : expected), 0);
      if (derivative) EXPECT_EQ(count_differences(g.dV, expected_derivative), 0);
    }
  }
}

// Auto is chosen once for the whole result: few long rows take ScanAlongN,
// whose rounding differs from ThreadPerX's, in chunks of one row too.
TYPED_TEST(Stream, AutoIsChosenForTheWholeResult) {
  using Space  = typename TypeParam::space;
  using T      = typename TypeParam::scalar;
  using Layout = typename TypeParam::layout;
  const std::vector<double> x{0.3, -0.7};
  const int N = 5000;
  const recur::Legendre family;
  const auto x_device = to_device<Kokkos::View<double*, Space>>(x);
  Kokkos::View<T**, Layout, Space> V("V", x.size(), N);
  recur::evaluate(Space{}, family, x_device, V);
  const auto g = gather<Space, T, Layout>(family, x, N, 1, false);
  EXPECT_EQ(count_differences(g.V, to_host(V)), 0);
}

TYPED_TEST(Stream, SinkErrorsEndTheRun) {
  using Space  = typename TypeParam::space;
  using T      = typename TypeParam::scalar;
  using Layout = typename TypeParam::layout;
  const std::vector<double> x = sample_points<double>(50, 1.0);
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> xs(
      x.data(), x.size());
  for (std::size_t failing : {0, 1, 4}) {
    int calls = 0;
    recur::StreamOptions options;
    options.chunk_rows = 10;
    try {
      recur::evaluate_streamed<T, Layout>(
          Space{}, recur::HermiteE{}, xs, 4,
          [&](const recur::StreamChunk<T, Layout>&) {
            if (calls++ == int(failing)) throw std::runtime_error("disk full");
          },
          options);
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "disk full");
    }
    EXPECT_EQ(calls, int(failing) + 1);  // no chunk after the failing one
  }
}

TEST(StreamErrors, Messages) {
  const std::vector<double> x{0.5};
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> xs(
      x.data(), 1);
  const auto sink = [](const recur::StreamChunk<double, Kokkos::LayoutRight>&) {};
  EXPECT_EQ(invalid_argument_message([&] {
              recur::evaluate_streamed<double, Kokkos::LayoutRight>(recur::Legendre{}, xs, 0, sink);
            }),
            "recur::evaluate_streamed: N = 0; N is the number of terms per x and must be at least 1");
  try {
    recur::default_chunk_rows<double>(Kokkos::DefaultHostExecutionSpace{}, 10, 2147483647, true);
    ADD_FAILURE() << "a row of 34 GB fitted";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("a row of N = 2147483647 values needs 34359738360 bytes"),
              std::string::npos)
        << error.what();
  }
  // On the host, all rows when they fit.
  EXPECT_EQ(recur::default_chunk_rows<float>(Kokkos::DefaultHostExecutionSpace{}, 1000, 32), 1000u);
}

}  // namespace stream_test
