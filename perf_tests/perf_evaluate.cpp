// Throughput of recur::evaluate against the bandwidth ceiling measured in the
// same process: the best store rate for the same bytes (recur::store_ceiling).
//
//   recur_perf --benchmark_out=evaluate.json --benchmark_out_format=json
//   recur_perf --benchmark_filter=Cuda        (one backend; names carry it)
//
// Names: evaluate/<space>/<T>/<layout>/<family>/<policy>/log2M:<m>/N:<n>, the
// policy "Auto-Fast" for recur::Fast; Auto's
// runs carry the policy it chose as their label, every run " | ceiling: "
// and the method that reached the ceiling. Counters:
// GBps = (M*N written + M read) * sizeof(T) / median time;
// fill_GBps = V's bytes / the median time of the ceiling's method, run again
// after each timed call (run_paired, perf_support.hpp);
// of_fill = the median over the calls of GBps / fill_GBps, each call against
// the ceiling run right after it;
// copy_GBps = 2 * V's bytes / median deep_copy time (read + write, as STREAM).
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include "perf_evaluate.hpp"
#include "perf_mpi.hpp"
#include "perf_support.hpp"
#include "recur_perf_commit.hpp"

#include <algorithm>
#include <exception>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace recur_perf {

// Why a column-slice (LayoutLeft) V stays below the fill: its N columns are
// N write streams M elements apart, where the fill writes 8. This stores
// 2^24 x 32 floats as S streams (work item c stores c, c + M/S, ...; every
// warp store 128 contiguous bytes, as in the fill and in ThreadPerX), S = 4 to
// 64: if DRAM efficiency falls with the number of streams, so does GB/s.
template <class Space>
void streams(benchmark::State& state) {
  const int S              = int(state.range(0));
  const std::int64_t count = std::int64_t(1) << 29;
  const std::int64_t items = count / S;
  const Space space;
  Kokkos::View<float*, Space> data(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "data"),
                                   count);
  float* const p = data.data();
  const auto store = [&] {
    Kokkos::parallel_for(
        "recur_perf::streams",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, items),
        KOKKOS_LAMBDA(std::int64_t c) {
          for (int j = 0; j < S; ++j) p[c + j * items] = 1.0f;
        });
  };
  state.counters["GBps"] = double(count) * sizeof(float) / run(state, space, store) / 1e9;
}

// The best store kernel for column slices' own pattern, on GPUs: a
// LayoutLeft M x N View written as ThreadPerX writes it, each work item
// storing `Bytes` of B neighbouring rows in every one of the N columns (its
// x's values; 16-byte Pack stores, marked evict-first as evaluate's are
// (impl::store_result), a warp's store of a column being 32 neighbouring
// Packs starting on a warp-run boundary, as evaluate's do:
// impl::aligned_run_offset). `columns/`: the values made from i and n in
// registers, nothing read; `columns-x/` (ReadX): evaluate's whole pattern,
// each item's B values of an x read first (16-byte loads) and the values
// made from them.
// Against the same View's store_ceiling (of_fill, as for evaluate): the
// fraction of the fill this pattern allows, the yardstick of evaluate's
// column-slice entries where it stays below 0.85 (docs/performance.md; on
// an H100 reading x cost the pattern 14 %: "H100, 2026-12-05, evening").
template <class Space, class T, int Bytes, bool ReadX>
void columns(benchmark::State& state) {
  using Pack           = recur::impl::Pack<T>;
  constexpr int B      = Bytes / int(sizeof(T));
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const Space space;
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> V(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "V"), M, N);
  Kokkos::View<T*, Space> x(Kokkos::view_alloc(space, "x"), ReadX ? M : 0);
  const recur::StoreCeiling ceiling = recur::store_ceiling(space, V);
  // Rows from column 0's first warp-run boundary on first, then those before
  // it, as evaluate takes them (recur::impl::aligned_run_offset).
  std::int64_t head = recur::impl::aligned_run_offset(V.data());
  if (head % B != 0) head = 0;
  const std::int64_t aligned = (M - head) / B;  // (M is a multiple of B)
  const auto store = [&] {
    Kokkos::parallel_for(
        "recur_perf::columns",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, M / B),
        KOKKOS_LAMBDA(std::int64_t item) {
          const std::int64_t i0 = item < aligned ? head + item * B : (item - aligned) * B;
          const T* const at     = x.data() + (ReadX ? i0 : 0);
          Pack from[B / Pack::size];
          for (int g = 0; g < B / Pack::size; ++g) {
            if constexpr (ReadX) {
              from[g] = *reinterpret_cast<const Pack*>(at + g * Pack::size);
            } else {
              for (int j = 0; j < Pack::size; ++j) from[g].v[j] = T(i0 + g * Pack::size + j);
            }
          }
          for (int n = 0; n < N; ++n) {
            for (int g = 0; g < B / Pack::size; ++g) {
              Pack pack;
              for (int j = 0; j < Pack::size; ++j) pack.v[j] = from[g].v[j] + T(n);
              recur::impl::store_result(reinterpret_cast<Pack*>(&V(i0 + g * Pack::size, n)), pack);
            }
          }
        });
  };
  const PairedTimes t         = run_paired(state, space, V, ceiling.method, store);
  state.counters["GBps"]      = double(V.span()) * sizeof(T) / t.seconds / 1e9;
  state.counters["fill_GBps"] = double(V.span()) * sizeof(T) / t.ceiling_seconds / 1e9;
  state.counters["of_fill"]   = t.ceiling_over_call;
  state.SetLabel("ceiling: " + ceiling.method);
}

template <class Space, class T, int Bytes, bool ReadX = false>
void add_columns() {
  const std::string name = std::string(ReadX ? "columns-x/" : "columns/") + Space::name() + "/" +
                           (std::is_same_v<T, float> ? "float" : "double") + "/bytes:" +
                           std::to_string(Bytes);
  benchmark::RegisterBenchmark(name.c_str(), columns<Space, T, Bytes, ReadX>)
      ->ArgNames({"log2M", "N"})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Args({24, 32});
}

// What a call's work arrays cost to make: a View of MiB mebibytes allocated
// (not initialized) and freed, fenced, as each ScanAlongN call does for its
// chunk matrices and states (float, M = 16, N = 2^24: 4 Mi chunks, 128 MiB
// of matrices and 64 MiB of states).
template <class Space>
void allocate(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0)) << 20;
  const Space space;
  std::vector<double> times;
  for (auto _ : state) {
    space.fence();
    Kokkos::Timer timer;
    {
      Kokkos::View<char*, Space> work(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur_perf::work"), bytes);
    }
    space.fence();
    times.push_back(timer.seconds());
    state.SetIterationTime(times.back());
  }
}

// Whether ThreadPerX on a CPU is bound by its arithmetic: the recurrences of
// evaluate's CPU path (8 x a thread in lockstep, the same working precision,
// the same conversion of each value to T) with V's stores left out: each
// value is only kept from being optimized away (benchmark::DoNotOptimize,
// which costs a little); against the fill of an M x N View of T in the same
// process.
// Where this takes longer than the fill (of_fill_bound < 1), no store
// pattern can bring evaluate to the fill.
template <int B, class T, class Scan>
struct ArithmeticOnly {
  Scan scan;
  Kokkos::View<const T*, Kokkos::HostSpace> x;
  int N;

  void operator()(std::int64_t block) const {
    using Lockstep = recur::impl::LockstepRows<B, false, T, Scan, Kokkos::View<const T*, Kokkos::HostSpace>,
                                               Kokkos::View<T**, Kokkos::HostSpace>>;
    using W = typename Scan::number_type;
    double xs[B];
    W u0[B], u1[B];
    int e[B];
    bool scaled = false;
    for (int r = 0; r < B; ++r) {
      xs[r] = double(x(block * B + r));
      typename Scan::state_type t;
      scan.start(xs[r], t);
      u0[r] = t.u0, u1[r] = t.u1, e[r] = t.e;
      T value = T(scan.output(t));
      benchmark::DoNotOptimize(value);
    }
    for (int n = 0; n + 1 < N; ++n) {
      Lockstep::advance(scan, xs, scan.load(n), u0, u1, recur::impl::BlockTag<false>{});
      if (n % Scan::check_period == Scan::check_period - 1)
        Lockstep::check(u0, u1, e, scaled, recur::impl::scaling_limit<W>(false));
      for (int r = 0; r < B; ++r) {
        T value = Lockstep::template value<false>(scan, u0, u1, e, r);
        benchmark::DoNotOptimize(value);
      }
    }
  }
};

template <class Space, class T, class Family>
void arithmetic(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  constexpr int B      = 8;
  const Space space;
  Kokkos::View<T*, Kokkos::HostSpace> x("x", M);
  for (std::int64_t i = 0; i < M; ++i) x(i) = T(-1 + 2 * double(i) / double(M));
  const auto kernel = recur::impl::make_kernel<T>(space, Family{}, N);
  using Scan = std::decay_t<decltype(recur::impl::scan_form(kernel))>;
  const ArithmeticOnly<B, T, Scan> functor{
      recur::impl::scan_form(kernel), x, N};
  const auto recurrences = [&] {
    Kokkos::parallel_for("recur_perf::arithmetic",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, M / B),
                         functor);
  };
  Kokkos::View<T**, Kokkos::LayoutRight, Space> V(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "V"), M, N);
  const double fill               = fill_seconds(space, V);
  const double median             = run(state, space, recurrences);
  state.counters["fill_ms"]       = fill * 1e3;
  state.counters["of_fill_bound"] = fill / median;
}

template <class Space, class T, class Family>
void add_arithmetic() {
  const std::string name = std::string("arithmetic/") + Space::name() + "/" +
                           (std::is_same_v<T, float> ? "float" : "double") + "/" + Family::name();
  benchmark::RegisterBenchmark(name.c_str(), arithmetic<Space, T, Family>)
      ->ArgNames({"log2M", "N"})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Args({20, 32});
}

template <class Space, class T, class Layout, class Family, class Policy>
void add(const std::string& layout) {
  const bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  const std::string name = std::string("evaluate/") + Space::name() + "/" +
                           (std::is_same_v<T, float> ? "float" : "double") + "/" +
                           layout + "/" + Family::name() + "/";
  const auto run = evaluate<Space, T, Layout, Family, Policy>;
  // Many short rows, and 16 rows of 2^24 terms; on CPUs 16x fewer rows, or
  // 16x shorter ones.
  const int shrink = device ? 0 : 4;
  const auto shapes = [&](benchmark::internal::Benchmark* b) {
    b->ArgNames({"log2M", "N"})->UseManualTime()->Unit(benchmark::kMillisecond);
    for (auto [log2_m, n] : {std::pair{24, 32}, {22, 64}, {20, 256}, {26, 4}})
      b->Args({log2_m - shrink, n});
    b->Args({4, (1 << 24) >> shrink});
  };
  shapes(benchmark::RegisterBenchmark((name + Policy::name()).c_str(), run, Policy{}));
  if constexpr (std::is_same_v<Policy, recur::Auto>)
    shapes(benchmark::RegisterBenchmark((name + "Auto-Fast").c_str(),
                                        evaluate<Space, T, Layout, Family, Policy, recur::Fast>,
                                        Policy{}));
  // ScanAlongN's chunk length against its default, on the long rows.
  if constexpr (std::is_same_v<Policy, recur::ScanAlongN>)
    for (const int chunk : {128, 256, 512}) {
      const std::string policy = "ScanAlongN{" + std::to_string(chunk) + "}";
      benchmark::RegisterBenchmark((name + policy).c_str(), run, recur::ScanAlongN{chunk})
          ->ArgNames({"log2M", "N"})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Args({4, (1 << 24) >> shrink});
    }
}

template <class Space, class T, class Layout, class Policy>
void add_families(const std::string& layout) {
  add<Space, T, Layout, recur::PowerSums, Policy>(layout);
  add<Space, T, Layout, recur::HermiteE, Policy>(layout);
  add<Space, T, Layout, recur::HermiteENormalized, Policy>(layout);
  // P_n beside numpy's legvander (cpu_side_by_side.py); Auto only.
  if constexpr (std::is_same_v<Policy, recur::Auto>) add<Space, T, Layout, recur::Legendre, Policy>(layout);
}

template <class Space, class Policy>
void add_policy() {
  add_families<Space, float, Kokkos::LayoutLeft, Policy>("LayoutLeft");
  add_families<Space, float, Kokkos::LayoutRight, Policy>("LayoutRight");
  add_families<Space, double, Kokkos::LayoutLeft, Policy>("LayoutLeft");
  add_families<Space, double, Kokkos::LayoutRight, Policy>("LayoutRight");
}

template <class Space>
void add_space() {
  constexpr bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  if constexpr (device) {
    auto* b = benchmark::RegisterBenchmark(
        (std::string("streams/") + Space::name() + "/float").c_str(), streams<Space>);
    b->ArgName("S")->UseManualTime()->Unit(benchmark::kMillisecond);
    for (int S : {4, 8, 16, 32, 64}) b->Arg(S);
    add_columns<Space, float, 16>();
    add_columns<Space, float, 32>();
    add_columns<Space, float, 64>();
    add_columns<Space, double, 16>();
    add_columns<Space, double, 32>();
    add_columns<Space, double, 64>();
    add_columns<Space, float, 16, true>();
    add_columns<Space, double, 16, true>();
    b = benchmark::RegisterBenchmark((std::string("allocate/") + Space::name()).c_str(),
                                     allocate<Space>);
    b->ArgName("MiB")->UseManualTime()->Unit(benchmark::kMillisecond);
    for (int MiB : {64, 128}) b->Arg(MiB);
  } else {
    add_arithmetic<Space, float, recur::PowerSums>();
    add_arithmetic<Space, float, recur::HermiteENormalized>();
    add_arithmetic<Space, double, recur::PowerSums>();
    add_arithmetic<Space, double, recur::HermiteENormalized>();
  }
  add_policy<Space, recur::Auto>();
  add_policy<Space, recur::ThreadPerX>();
  add_policy<Space, recur::Staged>();
  add_policy<Space, recur::ScanAlongN>();
  add_other_families<Space>();
  add_uses<Space>();
}

}  // namespace recur_perf

int main(int argc, char* argv[]) {
  // Under mpirun/srun: MPI for the run, the ranks in step (perf_mpi.hpp).
  recur_perf::Ranks ranks(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  recur_perf::add_space<Kokkos::DefaultExecutionSpace>();
  if constexpr (recur_perf::measures_host) recur_perf::add_space<recur_perf::HostSpace>();
  std::ostringstream configuration;
  Kokkos::print_configuration(configuration);
  benchmark::AddCustomContext("recur_version", recur::version());
  benchmark::AddCustomContext("git_commit", RECUR_GIT_COMMIT);
  benchmark::AddCustomContext("default_execution_space",
                              Kokkos::DefaultExecutionSpace::name());
  benchmark::AddCustomContext("kokkos_configuration", configuration.str());
  if (ranks.active()) {
    ranks.run();
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
}
