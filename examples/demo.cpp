// recur's demo: the seed's two tables through recur::evaluate, then the
// throughput of a large batch next to the best store rate for the same bytes
// (recur::store_ceiling, measured here, in this process).
//
//   recur_demo [log2(M)]     (M = 2^22 on CPUs, 2^24 on GPUs by default)
#include "print_table.hpp"

#include <recur/recur.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace demo {

using Space = Kokkos::DefaultExecutionSpace;

// The median of 5 fenced runs after a warm-up, as recur::store_ceiling times.
template <class Operation>
double median_seconds(const Operation& operation, int repetitions = 5) {
  operation();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    Space().fence();
    Kokkos::Timer timer;
    operation();
    Space().fence();
    times.push_back(timer.seconds());
  }
  std::nth_element(times.begin(), times.begin() + repetitions / 2, times.end());
  return times[repetitions / 2];
}

template <class Layout, class Family, class Policy>
void throughput_row(const char* layout, const Family& family, Policy policy, int M, int N) {
  using T = float;
  Kokkos::View<T*, Space> x("x", M);
  Kokkos::View<T**, Layout, Space> V(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "V"), M, N);
  Kokkos::parallel_for(
      "demo::x", Kokkos::RangePolicy<Space>(0, M),
      KOKKOS_LAMBDA(int i) { x(i) = T(-1) + T(2) * T(i) / T(M); });
  // The ceiling: the best store rate for V's bytes, measured here.
  const recur::StoreCeiling ceiling = recur::store_ceiling(Space(), V);
  const double eval = median_seconds([&] { recur::evaluate(Space(), family, x, V, policy); });
  const double recur_gbs = (double(M) * N + M) * sizeof(T) / eval / 1e9;
  const double fill_gbs  = ceiling.rate(V.span() * sizeof(T)) / 1e9;
  std::printf("%-20s %-12s %-11s %8.3f ms %9.1f GB/s %9.1f GB/s %7.1f %%  (%s)\n",
              Family::name(), layout, Policy::name(), eval * 1e3, recur_gbs, fill_gbs,
              100 * recur_gbs / fill_gbs, ceiling.method.c_str());
}

}  // namespace demo

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  recur::print_configuration(std::cout);
  std::cout << '\n';

  {
    Kokkos::View<float*> x("x", 4);
    Kokkos::View<float**> V("V", 4, 4);
    Kokkos::parallel_for("demo::x", 4, KOKKOS_LAMBDA(int i) { x(i) = i + 1; });
    recur::evaluate(recur::PowerSums{}, x, V);
    print_table("power sums, x = 1..4, N = 4 (seed t2.py)", V);
  }
  {
    Kokkos::View<float*> x("x", 5);
    Kokkos::View<float**> V("V", 5, 4);
    Kokkos::parallel_for("demo::x", 5, KOKKOS_LAMBDA(int i) { x(i) = i; });
    recur::evaluate(recur::HermiteENormalized{}, x, V);
    print_table("He_n(x)/sqrt(n!), x = 0..4, N = 4 (seed t3.py)", V);
  }

  using demo::Space;
  const bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                                  Space::memory_space>::accessible;
  const int log2_m = argc > 1 ? std::atoi(argv[1]) : (on_host ? 22 : 24);
  const int M      = 1 << log2_m;
  const int N      = 32;
  std::printf(
      "\nthroughput on %s, float, M = 2^%d, N = %d (median of 5; bytes = M*N "
      "written + M read; the ceiling is the best store rate for V's bytes, its method in "
      "parentheses)\n",
      Space::name(), log2_m, N);
  std::printf("%-20s %-12s %-11s %11s %14s %14s %9s\n", "family", "layout", "policy",
              "time", "recur", "fill ceiling", "of fill");
  // Column slices suit one thread per x; row slices (C order) are written
  // coalesced by the staged policy on a GPU (on CPUs it is one thread per x).
  const auto rows_of = [&](const auto& family) {
    demo::throughput_row<Kokkos::LayoutLeft>("LayoutLeft", family, recur::ThreadPerX{}, M, N);
    demo::throughput_row<Kokkos::LayoutRight>("LayoutRight", family, recur::ThreadPerX{}, M, N);
    if (!on_host)
      demo::throughput_row<Kokkos::LayoutRight>("LayoutRight", family, recur::Staged{}, M, N);
  };
  rows_of(recur::PowerSums{});
  rows_of(recur::HermiteE{});
  rows_of(recur::HermiteENormalized{});
}
