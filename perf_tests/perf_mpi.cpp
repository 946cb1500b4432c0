// recur_perf across MPI ranks: see perf_mpi.hpp.
#include "perf_mpi.hpp"

#include "perf_support.hpp"

#include <recur/config.hpp>

#ifdef RECUR_ENABLE_MPI

#include <recur/evaluate.hpp>
#include <recur/fit.hpp>
#include <recur/mpi.hpp>
#include <recur/npy.hpp>
#include <recur/stream.hpp>
#include <recur/version.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace recur_perf {

namespace {

int rank_of() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
int ranks_of() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// x of `m` points of [-1, 1], different on every rank.
template <class T, class Space>
Kokkos::View<T*, Space> points(std::int64_t m) {
  Kokkos::View<T*, Space> x("x", m);
  const double shift = double(rank_of()) / double(ranks_of()) / double(m > 0 ? m : 1);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, m),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = T(-1 + 2 * (double(i) / double(m) + shift)); });
  return x;
}

// Weak scaling of evaluate: every rank 2^log2m rows of its own (no
// communication), timed as in the single-process entries.
template <class Space, class T, class Layout, class Family>
void mpi_eval(benchmark::State& state) {
  const std::int64_t m = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const Space space;
  const auto x = points<T, Space>(m);
  Kokkos::View<T**, Layout, Space> V("V", m, N);
  const double fill  = fill_seconds(space, V);
  const double t     = run(state, space, [&] { recur::evaluate(space, Family{}, x, V); });
  const double bytes = double(m) * (N + 1) * sizeof(T);
  state.counters["GBps"]    = bytes / t / 1e9;
  state.counters["of_fill"] = fill / t;
  state.counters["ranks"]   = ranks_of();
}

// recur::mpi::fit of 2^log2M rows in all (double Legendre, N terms), split
// evenly; a fixed number of iterations (the call is collective). Counter
// reduction_fraction: the time of the triangles' reduction across ranks
// (and the coefficients' broadcast) over the whole fit's.
template <class Space>
void mpi_fit(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const Space space;
  const recur::mpi::Rows mine = recur::mpi::rows_of(MPI_COMM_WORLD, M);
  const auto x = points<double, Space>(mine.count);
  Kokkos::View<double*, Space> y("y", mine.count), c("c", N);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, mine.count),
      KOKKOS_LAMBDA(std::int64_t i) { y(i) = 1 / (1 + 25 * x(i) * x(i)); });
  const double t = run(state, space, [&] {
    recur::mpi::fit(MPI_COMM_WORLD, space, recur::Legendre{}, x, y, N, c);
  });
  // The reduction alone, from this rank's own triangle.
  std::int64_t bad = 0;
  const std::vector<double> R =
      recur::impl::fit_triangle(space, recur::Legendre{}, x, y, N, 1, recur::Unweighted{}, bad);
  std::vector<double> times;
  for (int repeat = 0; repeat < 7; ++repeat) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    std::vector<double> top = recur::mpi::impl::reduce_triangles(MPI_COMM_WORLD, R, N + 1);
    top.resize(std::size_t(N), 0.0);
    MPI_Bcast(top.data(), N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    times.push_back(MPI_Wtime() - start);
  }
  std::nth_element(times.begin(), times.begin() + 3, times.end());
  const double flops = 2.0 * double(M) * double(N + 1) * double(N + 1);
  state.counters["GFLOPs"]             = flops / t / 1e9;
  state.counters["reduction_fraction"] = times[3] / t;
  state.counters["ranks"]              = ranks_of();
}

// The pipeline of `recur eval` across ranks into one .npy file: every rank
// 2^log2m rows, streamed from its device (evaluate_streamed, chunks of the
// smallest default of the ranks) into its rows of one file (C order) by
// MPI-IO collective writes, rank 0 writing the header. The file is made in
// $RECUR_PERF_DIR (default: the working directory; on a cluster, a shared
// file system) and removed after. A fixed number of iterations: the writes
// are collective.
template <class Space, class T>
void mpi_eval_file(benchmark::State& state) {
  const std::int64_t m = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const int rank = rank_of(), ranks = ranks_of();
  const std::size_t M  = std::size_t(m) * std::size_t(ranks);
  const Space space;
  const char* dir        = std::getenv("RECUR_PERF_DIR");
  const std::string path = std::string(dir ? dir : ".") + "/recur_perf_mpi_eval_file.npy";
  const auto dtype       = sizeof(T) == 4 ? recur::npy::DType::Float32 : recur::npy::DType::Float64;
  const std::string header = recur::npy::make_header(dtype, {M, std::size_t(N)}, false);
  Kokkos::View<double*, Kokkos::HostSpace> x("x", m);
  for (std::int64_t i = 0; i < m; ++i) x(i) = -1 + 2 * double(rank * m + i) / double(M);
  unsigned long long rows = recur::default_chunk_rows<T>(space, std::size_t(m), N);
  MPI_Allreduce(MPI_IN_PLACE, &rows, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  recur::StreamOptions options;
  options.chunk_rows = std::size_t(rows);
  const MPI_Datatype type = sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
  const double t = run(state, space, [&] {
    MPI_File file;
    if (MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                      MPI_INFO_NULL, &file) != MPI_SUCCESS)
      throw std::runtime_error("recur_perf: cannot open " + path + " through MPI-IO");
    if (rank == 0)
      MPI_File_write_at(file, 0, header.data(), int(header.size()), MPI_CHAR, MPI_STATUS_IGNORE);
    recur::evaluate_streamed<T, Kokkos::LayoutRight>(
        space, recur::HermiteENormalized{}, x, N,
        [&](const recur::StreamChunk<T, Kokkos::LayoutRight>& chunk) {
          const std::size_t first = std::size_t(rank * m) + chunk.first_row;
          MPI_File_write_at_all(file, MPI_Offset(header.size() + first * N * sizeof(T)),
                                chunk.V.data(), int(chunk.V.size()), type, MPI_STATUS_IGNORE);
        },
        options);
    MPI_File_close(&file);
  });
  if (rank == 0) MPI_File_delete(path.c_str(), MPI_INFO_NULL);
  state.counters["GBps"]  = double(m) * (N + 1) * sizeof(T) / t / 1e9;
  state.counters["ranks"] = ranks;
}

template <class Space>
void add_entries() {
  constexpr bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  const std::string space = Space::name();
  const auto eval = [&](auto* function, const std::string& name) {
    auto* b = benchmark::RegisterBenchmark(("mpi_eval/" + space + name).c_str(), function);
    b->ArgNames({"log2m", "N"})->UseManualTime()->Unit(benchmark::kMillisecond);
    for (int log2m : device ? std::vector<int>{22, 24} : std::vector<int>{19, 20}) b->Args({log2m, 32});
  };
  eval(mpi_eval<Space, float, Kokkos::LayoutLeft, recur::HermiteENormalized>,
       "/float/LayoutLeft/HermiteENormalized");
  eval(mpi_eval<Space, float, Kokkos::LayoutRight, recur::HermiteENormalized>,
       "/float/LayoutRight/HermiteENormalized");
  eval(mpi_eval<Space, double, Kokkos::LayoutRight, recur::HermiteENormalized>,
       "/double/LayoutRight/HermiteENormalized");
  for (auto* function : {mpi_eval_file<Space, float>, mpi_eval_file<Space, double>})
    benchmark::RegisterBenchmark(("mpi_eval_file/" + space +
                                  (function == mpi_eval_file<Space, float> ? "/float" : "/double") +
                                  "/LayoutRight/HermiteENormalized")
                                     .c_str(),
                                 function)
        ->ArgNames({"log2m", "N"})
        ->Args({device ? 24 : 20, 32})
        ->Iterations(3)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("mpi_fit/" + space + "/double/Legendre").c_str(), mpi_fit<Space>)
      ->ArgNames({"log2M", "N"})
      ->Args({device ? 24 : 22, 32})
      ->Iterations(device ? 20 : 5)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

// Each entry's results of every rank, gathered on rank 0 and reported there
// as one: the slowest rank's time, and counters time_min, time_median,
// time_max (the run's unit), ranks, and aggregate_GBps (all ranks' bytes over
// the slowest rank's time) where the entry has a GBps counter. The gather
// doubles as the barrier between entries.
class GatherReporter : public benchmark::BenchmarkReporter {
 public:
  GatherReporter(const std::string& out, const std::string& format) {
    if (rank_of() != 0) return;
    if (!out.empty()) {
      file_.open(out);
      if (!file_) throw std::runtime_error("recur_perf: cannot write " + out);
      if (format == "json")
        writer_ = std::make_unique<benchmark::JSONReporter>();
      else
        writer_ = std::make_unique<benchmark::ConsoleReporter>();
      writer_->SetOutputStream(&file_);
      writer_->SetErrorStream(&file_);
    }
  }

  bool ReportContext(const Context& context) override {
    if (rank_of() != 0) return true;
    console_.ReportContext(context);
    if (writer_) writer_->ReportContext(context);
    return true;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    const int ranks = ranks_of();
    std::vector<Run> gathered = runs;
    for (Run& run : gathered) {
      const auto rate = run.counters.find("GBps");
      double mine[2]  = {run.GetAdjustedRealTime(), rate == run.counters.end() ? 0.0 : rate->second.value};
      std::vector<double> all(2 * std::size_t(ranks));
      MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (rank_of() != 0) continue;
      std::vector<double> times;
      double bytes_per_unit = 0;  // sum of GBps x time
      for (int r = 0; r < ranks; ++r) {
        times.push_back(all[2 * r]);
        bytes_per_unit += all[2 * r + 1] * all[2 * r];
      }
      std::sort(times.begin(), times.end());
      const double slowest = times.back();
      run.counters["time_min"]    = times.front();
      run.counters["time_median"] = ranks % 2 ? times[ranks / 2]
                                              : (times[ranks / 2 - 1] + times[ranks / 2]) / 2;
      run.counters["time_max"]    = slowest;
      run.counters["ranks"]       = ranks;
      if (rate != run.counters.end() && slowest > 0)
        run.counters["aggregate_GBps"] = bytes_per_unit / slowest;
      if (mine[0] > 0) {
        run.real_accumulated_time *= slowest / mine[0];
        run.cpu_accumulated_time *= slowest / mine[0];
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_of() != 0) return;
    console_.ReportRuns(gathered);
    if (writer_) writer_->ReportRuns(gathered);
  }

  void Finalize() override {
    if (rank_of() != 0) return;
    console_.Finalize();
    if (writer_) writer_->Finalize();
  }

 private:
  benchmark::ConsoleReporter console_;
  std::ofstream file_;
  std::unique_ptr<benchmark::BenchmarkReporter> writer_;
};

// "host HOST, DEVICE, Kokkos X.Y.Z, BACKEND" of this rank.
std::string describe_rank() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::ostringstream line;
  line << "host " << host << ", " << recur::describe_device() << ", Kokkos "
       << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "."
       << KOKKOS_VERSION % 100 << ", " << Kokkos::DefaultExecutionSpace::name();
  return line.str();
}

}  // namespace

Ranks::Ranks(int& argc, char**& argv) {
  if (!recur::mpi::started_by_launcher()) return;
  int provided = 0;
  // evaluate_streamed hands chunks to the file from its worker thread.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  active_ = true;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--benchmark_out=", 0) == 0) {
      out_ = argument.substr(16);
    } else if (argument.rfind("--benchmark_out_format=", 0) == 0) {
      out_format_ = argument.substr(23);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc       = kept;
  argv[argc] = nullptr;
}

Ranks::~Ranks() {
  if (active_) MPI_Finalize();
}

void Ranks::run() {
  add_entries<Kokkos::DefaultExecutionSpace>();
  // Every rank's description, in the context rank 0 reports.
  const std::vector<std::string> lines =
      recur::mpi::impl::gather(MPI_COMM_WORLD, describe_rank());
  if (rank_of() == 0) {
    benchmark::AddCustomContext("mpi_ranks", std::to_string(lines.size()));
    for (std::size_t r = 0; r < lines.size(); ++r)
      benchmark::AddCustomContext("rank_" + std::to_string(r), lines[r]);
  }
  GatherReporter reporter(out_, out_format_);
  benchmark::RunSpecifiedBenchmarks(&reporter);
}

}  // namespace recur_perf

#else  // without MPI: nothing to do

namespace recur_perf {
Ranks::Ranks(int&, char**&) {}
Ranks::~Ranks() {}
void Ranks::run() {}
}  // namespace recur_perf

#endif
