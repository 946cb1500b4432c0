#ifndef RECUR_PERF_SUPPORT_HPP
#define RECUR_PERF_SUPPORT_HPP

// Shared by the perf suite's files: timing and the same-process ceiling.

#include <recur/ceiling.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace recur_perf {

inline double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

/// The times of `operation` over the benchmark's iterations, after one
/// warm-up call (coefficient tables, first-call setup), as manual time;
/// after(seconds) after each timed call, untimed.
template <class Space, class Operation, class After>
std::vector<double> timed_calls(benchmark::State& state, const Space& space,
                                const Operation& operation, const After& after) {
  operation();
  std::vector<double> times;
  for (auto _ : state) {
    space.fence();
    Kokkos::Timer timer;
    operation();
    space.fence();
    times.push_back(timer.seconds());
    state.SetIterationTime(times.back());
    after(times.back());
  }
  return times;
}

/// timed_calls' median.
template <class Space, class Operation>
double run(benchmark::State& state, const Space& space, const Operation& operation) {
  return median(timed_calls(state, space, operation, [](double) {}));
}

/// timed_calls, each timed call followed by one run of the ceiling's
/// method (`method`, store_ceiling's winner) on the bytes of V
/// (recur::store_seconds), so that each call is set against a ceiling of
/// the same moment: a machine's store rate can change between one entry's
/// ceiling and its calls (this project's AMD Zen 4 VM switched between
/// about 28 and 54 GB/s over minutes, docs/performance.md, "CPU,
/// 2026-12-08: AVX-512 on AMD Zen 4"). The medians of the calls' times,
/// of the ceiling's and of the ratios ceiling / call.
struct PairedTimes {
  double seconds = 0, ceiling_seconds = 0, ceiling_over_call = 0;
};
template <class Space, class View, class Operation>
PairedTimes run_paired(benchmark::State& state, const Space& space, const View& V,
                       const std::string& method, const Operation& operation) {
  void* const data        = static_cast<void*>(V.data());
  const std::size_t bytes = V.span() * sizeof(typename View::value_type);
  std::vector<double> ceilings, ratios;
  const std::vector<double> times = timed_calls(state, space, operation, [&](double seconds) {
    ceilings.push_back(recur::store_seconds(space, data, bytes, method, 1));
    ratios.push_back(ceilings.back() / seconds);
  });
  return {median(times), median(ceilings), median(ratios)};
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
