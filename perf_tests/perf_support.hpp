#ifndef RECUR_PERF_SUPPORT_HPP
#define RECUR_PERF_SUPPORT_HPP

// Shared by the perf suite's files: timing and the same-process ceiling.

#include <recur/ceiling.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace recur_perf {

/// Times `operation` over the benchmark's iterations, after one warm-up call
/// (coefficient tables, first-call setup), as manual time; returns the median.
template <class Space, class Operation>
double run(benchmark::State& state, const Space& space, const Operation& operation) {
  operation();
  std::vector<double> times;
  for (auto _ : state) {
    space.fence();
    Kokkos::Timer timer;
    operation();
    space.fence();
    times.push_back(timer.seconds());
    state.SetIterationTime(times.back());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

// The ceiling: the best store rate for V's allocation (V.span() elements),
// measured here in the same process by recur::store_ceiling
// (recur/ceiling.hpp: the best of a Kokkos fill, 16-byte stores, deep_copy
// and the vendor's memset, each the median of 7 fenced runs).
template <class Space, class View>
double fill_seconds(const Space& space, const View& V) {
  return recur::store_ceiling(space, V).seconds;
}

// The spaces the suite measures: the default execution space and, where
// that is a GPU, the default host space (an OpenMP + Serial Kokkos measures
// OpenMP; a Serial-only one, Serial).
using HostSpace = Kokkos::DefaultHostExecutionSpace;
constexpr bool measures_host =
    !std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>;

// What users do with V (perf_uses.cpp): series fused and through Kokkos
// Kernels, Gauss rules, projection and fitting on `Space`.
template <class Space>
void add_uses();

// The built-in families beyond the suite's four at the table's shape, Auto
// and Auto-Fast (perf_families.cpp).
template <class Space>
void add_other_families();

}  // namespace recur_perf

#endif
