#ifndef RECUR_PERF_SUPPORT_HPP
#define RECUR_PERF_SUPPORT_HPP

// Shared by the perf suite's files: timing and the same-process ceiling.

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace recur_perf {

/// The median of `repetitions` fenced runs of `operation`, in seconds.
template <class Space, class Operation>
double median_seconds(const Space& space, const Operation& operation, int repetitions) {
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    space.fence();
    Kokkos::Timer timer;
    operation();
    space.fence();
    times.push_back(timer.seconds());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

/// Times `operation` over the benchmark's iterations, after one warm-up call
/// (coefficient tables, first-call setup), as manual time; returns the median.
template <class Space, class Operation>
double run(benchmark::State& state, const Space& space, const Operation& operation) {
  operation();
  std::vector<double> times;
  for (auto _ : state) {
    times.push_back(median_seconds(space, operation, 1));
    state.SetIterationTime(times.back());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

// The ceiling: V's allocation (V.span() elements) filled by the faster of two
// Kokkos fills, timed here in the same process:
//  - deep_copy of a scalar into V's allocation as a rank-1 View: fastest on
//    CPUs, but one element per GPU thread, which on an H200 stores only about
//    2e11 elements/s (845 GB/s in float);
//  - a plain store kernel, 8 elements a work item, coalesced (item c stores
//    c, c + chunks, ...): near the memory's speed on a GPU.
template <class Space, class View>
double fill_seconds(const Space& space, const View& V) {
  using T                   = typename View::value_type;
  T* const data             = V.data();
  const std::int64_t count  = std::int64_t(V.span());
  const std::int64_t chunks = (count + 7) / 8;
  const Kokkos::View<T*, Space, Kokkos::MemoryUnmanaged> flat(data, V.span());
  const double deep_copy = median_seconds(
      space, [&] { Kokkos::deep_copy(space, flat, T(1)); }, 7);
  const double kernel = median_seconds(
      space,
      [&] {
        Kokkos::parallel_for(
            "recur_perf::fill",
            Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
            KOKKOS_LAMBDA(std::int64_t c) {
              for (int j = 0; j < 8; ++j)
                if (c + j * chunks < count) data[c + j * chunks] = T(1);
            });
      },
      7);
  return std::min(deep_copy, kernel);
}

// What users do with V (perf_uses.cpp): series fused and through Kokkos
// Kernels, Gauss rules, projection and fitting on `Space`.
template <class Space>
void add_uses();

}  // namespace recur_perf

#endif
