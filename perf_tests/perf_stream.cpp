// Streamed throughput (recur::evaluate_streamed: chunks of rows computed on
// the device and handed to the host) against in-memory recur::evaluate of the
// same M x N, measured in the same process; and the rate of the file path the
// recur command takes (chunks written through recur::npy::Writer, fsync and
// rename included) into a scratch folder under $TMPDIR.
//
//   recur_perf --benchmark_filter='^stream'
//
// Names: stream/<space>/float/HermiteENormalized/<sink>/log2M:<m>/N:<n>/
// log2chunk:<c> (0: recur's default chunk). Sinks: "host" takes each chunk
// and drops it (the pipeline's own rate: compute, copy out to host memory);
// "file" writes the .npy file. Counters: GBps = M*N*sizeof(T) / median time;
// in_memory_GBps = the same bytes over the median time of evaluate into one
// M x N View on the device; to_host_GBps = ... of evaluate and deep_copy of V
// to the host (the in-memory way to get V out, where it differs); of_in_memory
// = GBps / in_memory_GBps.
#include <recur/npy.hpp>
#include <recur/recur.hpp>
#include <recur/stream.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include "perf_support.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace recur_perf {
namespace {

// A scratch folder, removed with everything in it.
struct ScratchFolder {
  std::filesystem::path path;
  ScratchFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "recur-perf-stream-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a folder in $TMPDIR");
    path = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

template <class Space, class T, class Layout>
void stream(benchmark::State& state) {
  using Family         = recur::HermiteENormalized;
  const std::size_t M  = std::size_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const bool to_file   = state.range(3) != 0;
  const Space space;
  std::vector<double> x_values(M);
  for (std::size_t i = 0; i < M; ++i) x_values[i] = -1 + 2 * double(i) / double(M);
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> x(
      x_values.data(), M);
  recur::StreamOptions options;
  options.chunk_rows = state.range(2) > 0 ? std::size_t(1) << state.range(2) : 0;
  const std::size_t rows =
      options.chunk_rows > 0 ? options.chunk_rows : recur::default_chunk_rows<T>(space, M, N);
  state.SetLabel("chunk " + std::to_string(std::min(rows, M)) + " rows");

  // The in-memory baselines, on the same M x N.
  double in_memory = 0, to_host = 0;
  {
    Kokkos::View<double*, Space> x_device(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "x"), M);
    Kokkos::deep_copy(space, x_device, x);
    Kokkos::View<T**, Layout, Space> V(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "V"), M,
                                       std::size_t(N));
    const auto V_host = Kokkos::create_mirror_view(V);
    // Each: the median of 5 fenced runs after a warm-up (as the ceiling is timed).
    in_memory = recur::impl::median_of_fenced_runs(
        space, [&] { recur::evaluate(space, Family{}, x_device, V); }, 5);
    to_host = recur::impl::median_of_fenced_runs(
        space,
        [&] {
          recur::evaluate(space, Family{}, x_device, V);
          Kokkos::deep_copy(space, V_host, V);
        },
        5);
  }

  const ScratchFolder folder;
  const std::string path = (folder.path / "V.npy").string();
  std::vector<double> times;
  for (auto _ : state) {
    Kokkos::Timer timer;
    if (to_file) {
      recur::npy::Writer writer(path, std::is_same_v<T, float> ? recur::npy::DType::Float32
                                                               : recur::npy::DType::Float64,
                                {M, std::size_t(N)}, std::is_same_v<Layout, Kokkos::LayoutLeft>);
      recur::evaluate_streamed<T, Layout>(
          space, Family{}, x, N,
          [&](const recur::StreamChunk<T, Layout>& chunk) {
            const std::size_t m = chunk.V.extent(0);
            if constexpr (std::is_same_v<Layout, Kokkos::LayoutRight>) {
              writer.write(chunk.first_row * std::size_t(N), chunk.V.data(), m * std::size_t(N));
            } else {
              for (int n = 0; n < N; ++n)
                writer.write(std::size_t(n) * M + chunk.first_row, chunk.V.data() + std::size_t(n) * m, m);
            }
          },
          options);
      writer.commit();
    } else {
      recur::evaluate_streamed<T, Layout>(
          space, Family{}, x, N,
          [](const recur::StreamChunk<T, Layout>& chunk) { benchmark::DoNotOptimize(chunk.V.data()); },
          options);
    }
    times.push_back(timer.seconds());
    state.SetIterationTime(times.back());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  const double bytes          = double(M) * N * sizeof(T);
  const double gbs            = bytes / times[times.size() / 2] / 1e9;
  state.counters["GBps"]           = gbs;
  state.counters["in_memory_GBps"] = bytes / in_memory / 1e9;
  state.counters["to_host_GBps"]   = bytes / to_host / 1e9;
  state.counters["of_in_memory"]   = gbs / (bytes / in_memory / 1e9);
}

template <class Space>
void add_stream() {
  using T      = float;
  using Layout = Kokkos::LayoutRight;
  const bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  // 8 GiB of float on a GPU (2^26 x 32), 512 MiB on CPUs.
  const int log2_m = device ? 26 : 22;
  for (const char* sink : {"host", "file"}) {
    const std::string name = std::string("stream/") + Space::name() + "/float/" +
                             recur::HermiteENormalized::name() + "/" + sink;
    auto* b = benchmark::RegisterBenchmark(name.c_str(), stream<Space, T, Layout>);
    b->ArgNames({"log2M", "N", "log2chunk", "file"})->UseManualTime()->Unit(benchmark::kMillisecond);
    b->Iterations(3);
    const int file = std::string(sink) == "file";
    for (int log2_chunk : {0, log2_m - 10, log2_m - 7, log2_m - 4}) b->Args({log2_m, 32, log2_chunk, file});
  }
}

// Registered before main() runs (main only initializes Kokkos and runs what
// is registered).
const bool registered = [] {
  add_stream<Kokkos::DefaultExecutionSpace>();
  return true;
}();

}  // namespace
}  // namespace recur_perf
