// recur::evaluate on a CPU of families whose values grow without bound
// (He_n, H_n) beside one that does not (He_n/sqrt(n!)), to compare trees:
// M = 2^16 rows of N = 32 and 256 terms, x spread over [-1, 1], float and
// double results, LayoutLeft and LayoutRight, ThreadPerX with recur::Fast
// and recur::Accurate; the fastest of 30 fenced calls each, ms. At N = 256
// He_n and H_n pass double's 2^256 and, in float, their coefficients grow
// past what rows checked every 8 steps allow (docs/performance.md, "CPU,
// 2026-12-06: long rows of growing families in the vectors"). Build it
// against each tree's include with a config.hpp that declares no
// precompiled instances and run the builds alternately:
//
//   printf '#define RECUR_VERSION_STRING "ab"\n' > cfg/recur/config.hpp
//   for t in old new; do g++ -O3 -fopenmp -march=native -std=c++17 -I$t/include
//     -Icfg -I$Kokkos_ROOT/include perf_tests/growing_rows_ab.cpp -o ab_$t
//     -L$Kokkos_ROOT/lib -lkokkoscore -ldl; done
//   for i in 1 2; do ./ab_old; ./ab_new; done
#include <recur/recur.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>

template <class T, class Layout, class Precision, class Family>
double fastest(int M, int N, const Family& family) {
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = T(-1 + 2.0 * i / M); });
  Kokkos::View<T**, Layout> V("V", M, N);
  double best = 1e9;
  for (int r = 0; r < 30; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    recur::evaluate(family, x, V, recur::ThreadPerX{}, Precision{});
    Kokkos::fence();
    best = std::min(best, timer.seconds());
  }
  return best * 1e3;
}

template <class T, class Family>
void entries(const char* type, const Family& family, int N) {
  using LL = Kokkos::LayoutLeft;
  using LR = Kokkos::LayoutRight;
  const int M = 1 << 16;
  std::printf("%-6s %-20s N = %3d  LayoutLeft Fast %7.3f  Accurate %7.3f  LayoutRight Fast %7.3f  Accurate %7.3f ms\n",
              type, Family::name(), N, fastest<T, LL, recur::Fast>(M, N, family),
              fastest<T, LL, recur::Accurate>(M, N, family), fastest<T, LR, recur::Fast>(M, N, family),
              fastest<T, LR, recur::Accurate>(M, N, family));
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (int N : {32, 256}) {
    entries<float>("float", recur::HermiteE{}, N);
    entries<float>("float", recur::Hermite{}, N);
    entries<float>("float", recur::HermiteENormalized{}, N);
    entries<double>("double", recur::HermiteE{}, N);
    entries<double>("double", recur::Hermite{}, N);
    entries<double>("double", recur::HermiteENormalized{}, N);
  }
}
