// A/B of recur::evaluate on a GPU between two trees, in the same conditions:
// He_n/sqrt(n!) and power sums, float and double, LayoutLeft (ThreadPerX)
// and LayoutRight (Staged), recur::Fast and recur::Accurate, M = 2^24,
// N = 32 (and float LayoutLeft Fast with x = 0 in one row of every 1024),
// each the median of 21 fenced runs, with recur::store_ceiling of
// the same V measured before it (so the tree's own ceiling: compare times).
// Build it against each tree's include with a config.hpp that declares no
// precompiled instances, with the device's Kokkos, and run the builds
// alternately:
//
//   printf '#define RECUR_VERSION_STRING "ab"\n' > cfg/recur/config.hpp
//   for t in old new; do $Kokkos_ROOT/bin/nvcc_wrapper -O3 -std=c++17
//     --extended-lambda -I$t/include -Icfg -I$Kokkos_ROOT/include perf_tests/gpu_ab.cpp
//     -o ab_$t -L$Kokkos_ROOT/lib -lkokkoscore -ldl -lcuda; done
//   for i in 1 2; do ./ab_old; ./ab_new; done
//
// (docs/performance.md, "H200, 2026-12-04: evict-first stores".)
#include <recur/ceiling.hpp>
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

template <class Run>
double median_ms(const Run& run) {
  std::vector<double> t;
  run();
  Kokkos::fence();
  for (int r = 0; r < 21; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    run();
    Kokkos::fence();
    t.push_back(timer.seconds());
  }
  std::nth_element(t.begin(), t.begin() + 10, t.end());
  return t[10] * 1e3;
}

// zeros: x = 0 exactly in one row of every 1024 (else x spans [-1, 1) in order).
template <class T, class Layout, class Family, class Policy, class Precision>
void one(const char* what, int M = 1 << 24, int N = 32, bool zeros = false) {
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) {
    x(i) = zeros && i % 1024 == 512 ? T(0) : T(-1) + T(2) * T(i) / T(M);
  });
  Kokkos::View<T**, Layout> V("V", M, N);
  const recur::StoreCeiling ceiling = recur::store_ceiling(Kokkos::DefaultExecutionSpace{}, V);
  const double ms = median_ms([&] { recur::evaluate(Family{}, x, V, Policy{}, Precision{}); });
  Kokkos::View<T*> row("row", N);
  Kokkos::deep_copy(row, Kokkos::subview(V, M / 3, Kokkos::ALL));
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, row);
  std::printf("%-40s %.3f ms  ceiling %.3f ms (%s)  %.3f   V(M/3, 31) = %.17g\n", what, ms,
              ceiling.seconds * 1e3, ceiling.method.c_str(), ceiling.seconds * 1e3 / ms,
              double(h(31)));
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using LL = Kokkos::LayoutLeft;
  using LR = Kokkos::LayoutRight;
  using HeN = recur::HermiteENormalized;
  using recur::Accurate, recur::Fast, recur::ThreadPerX, recur::Staged;
  one<float, LL, HeN, ThreadPerX, Fast>("float LayoutLeft He_n/sqrt(n!) Fast");
  one<float, LL, HeN, ThreadPerX, Accurate>("float LayoutLeft He_n/sqrt(n!) Accurate");
  one<float, LL, recur::PowerSums, ThreadPerX, Accurate>("float LayoutLeft power sums");
  one<float, LL, HeN, ThreadPerX, Fast>("float LayoutLeft He_n/sqrt(n!) Fast, zeros", 1 << 24, 32, true);
  one<float, LR, HeN, Staged, Fast>("float LayoutRight He_n/sqrt(n!) Fast");
  one<float, LR, HeN, Staged, Accurate>("float LayoutRight He_n/sqrt(n!) Accurate");
  one<double, LL, HeN, ThreadPerX, Fast>("double LayoutLeft He_n/sqrt(n!) Fast");
  one<double, LL, HeN, ThreadPerX, Accurate>("double LayoutLeft He_n/sqrt(n!) Accurate");
  one<double, LR, HeN, Staged, Fast>("double LayoutRight He_n/sqrt(n!) Fast");
  one<double, LR, HeN, Staged, Accurate>("double LayoutRight He_n/sqrt(n!) Accurate");
  using recur::ScanAlongN;
  one<float, LL, HeN, ScanAlongN, Accurate>("ScanAlongN float LayoutLeft He_n/sqrt(n!)", 16, 1 << 24);
  one<float, LR, HeN, ScanAlongN, Accurate>("ScanAlongN float LayoutRight He_n/sqrt(n!)", 16, 1 << 24);
  one<float, LL, recur::PowerSums, ScanAlongN, Accurate>("ScanAlongN float LayoutLeft power sums", 16, 1 << 24);
  one<float, LR, recur::PowerSums, ScanAlongN, Accurate>("ScanAlongN float LayoutRight power sums", 16, 1 << 24);
}
