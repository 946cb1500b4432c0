// recur::evaluate with and without dV on CPUs, to compare trees: He_n/sqrt(n!),
// M = 2^20, N = 32, float and double, LayoutLeft and LayoutRight,
// recur::Accurate and recur::Fast, the fastest of 9 fenced calls each. Build
// it against each tree's include with a config.hpp that declares no
// precompiled instances, with the same Kokkos, and run the builds
// alternately:
//
//   printf '#define RECUR_VERSION_STRING "ab"\n' > cfg/recur/config.hpp
//   for t in old new; do g++ -O3 -fopenmp -march=native -I$t/include -Icfg
//     -I$Kokkos_ROOT/include perf_tests/derivatives_ab.cpp -o ab_$t
//     -L$Kokkos_ROOT/lib -lkokkoscore -ldl; done
//   for i in 1 2; do ./ab_old; ./ab_new; done
//
// (docs/performance.md, "CPU, 2026-12-05: derivatives in lockstep".)
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>

template <class Run>
double best_ms(const Run& run) {
  double best = 1e30;
  run();
  for (int r = 0; r < 9; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    run();
    Kokkos::fence();
    best = std::min(best, timer.seconds());
  }
  return best * 1e3;
}

template <class T, class Layout, class Precision>
void one(const char* what) {
  const int M = 1 << 20, N = 32;
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = T(-1) + T(2) * T(i) / T(M); });
  Kokkos::View<T**, Layout> V("V", M, N), dV("dV", M, N);
  const recur::HermiteENormalized family;
  const double v = best_ms([&] { recur::evaluate(family, x, V, recur::Auto{}, Precision{}); });
  const double d = best_ms([&] { recur::evaluate(family, x, V, dV, recur::Auto{}, Precision{}); });
  std::printf("%-22s V %7.2f ms   V and dV %7.2f ms  (%.2f x V)\n", what, v, d, d / v);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using LL = Kokkos::LayoutLeft;
  using LR = Kokkos::LayoutRight;
  using recur::Accurate, recur::Fast;
  one<float, LL, Accurate>("float LL Accurate");
  one<float, LR, Accurate>("float LR Accurate");
  one<float, LL, Fast>("float LL Fast");
  one<float, LR, Fast>("float LR Fast");
  one<double, LL, Accurate>("double LL Accurate");
  one<double, LR, Accurate>("double LR Accurate");
  one<double, LL, Fast>("double LL Fast");
  one<double, LR, Fast>("double LR Fast");
}
