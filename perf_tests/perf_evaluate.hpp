// recur_perf's evaluate entries (perf_evaluate.cpp, and perf_families.cpp,
// which registers the other built-in families in a translation unit of its
// own, so that the two compile side by side): one entry's run.
#ifndef RECUR_PERF_EVALUATE_HPP
#define RECUR_PERF_EVALUATE_HPP

#include "perf_support.hpp"

#include <recur/ceiling.hpp>
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <exception>
#include <string>

namespace recur_perf {

template <class Space, class T, class Layout, class Family, class Policy,
          class Precision = recur::Accurate>
void evaluate(benchmark::State& state, Policy policy) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const Space space;
  Kokkos::View<T*, Space> x(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "x"), M);
  Kokkos::View<T**, Layout, Space> V(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "V"), M, N);
  Kokkos::parallel_for(
      "recur_perf::x", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, M),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = T(-1) + T(2) * T(i) / T(M); });

  const recur::StoreCeiling ceiling = recur::store_ceiling(space, V);
  const double copy = recur::copy_seconds(space, V.data(), V.span() * sizeof(T));
  std::string label = std::is_same_v<Policy, recur::Auto>
                          ? recur::name(recur::auto_policy(space, Family{}, V))
                          : "";
  state.SetLabel(label + " | ceiling: " + ceiling.method);
  PairedTimes t;
  try {  // (what throws does so at the warm-up call, before the timed ones)
    t = run_paired(state, space, V, ceiling.method,
                   [&] { recur::evaluate(space, Family{}, x, V, policy, Precision{}); });
  } catch (const std::exception& e) {  // e.g. Staged rows longer than scratch
    state.SkipWithError(e.what());
    return;
  }
  // The bytes a call moves (V written, x read) over V's.
  const double moved          = double(M * N + M) / double(V.span());
  state.counters["GBps"]      = double(M * N + M) * sizeof(T) / t.seconds / 1e9;
  state.counters["fill_GBps"] = double(V.span()) * sizeof(T) / t.ceiling_seconds / 1e9;
  state.counters["of_fill"]   = moved * t.ceiling_over_call;
  state.counters["copy_GBps"] = 2 * double(V.span()) * sizeof(T) / copy / 1e9;
}

}  // namespace recur_perf

#endif
