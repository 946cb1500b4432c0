// A/B of recur::evaluate's CPU lanes between two trees, in the same
// conditions: build this file once against each tree's headers (ThreadPerX,
// so no precompiled instance is used) and run the two alternately; each run
// prints, for float and for double, the fastest of 40 calls of six cases,
// M = 2^20, N = 32.
//
//   K=$Kokkos_ROOT; for t in old new; do g++ -O3 -DNDEBUG -fopenmp -march=native
//     -std=c++17 -I$t/include -I$t/build/openmp/include -isystem $K/include
//     perf_tests/lanes_ab.cpp -o lanes_ab_$t $t/build/openmp/librecur.a -L$K/lib
//     -lkokkoscontainers -lkokkoscore -ldl; done    (one command line per tree)
//   for i in 1 2 3; do for t in old new; do
//     OMP_NUM_THREADS=2 OMP_PROC_BIND=false ./lanes_ab_$t; done; done
//
// (docs/performance.md, "CPU, 2026-12-03".) No ceiling is measured here:
// recur_perf's evaluate entries give the fractions.
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

template <class Family, class Precision, class T, class Layout>
double seconds(const Kokkos::View<T*, Kokkos::HostSpace>& x,
               const Kokkos::View<T**, Layout, Kokkos::HostSpace>& V) {
  const auto start = std::chrono::steady_clock::now();
  recur::evaluate(Kokkos::DefaultHostExecutionSpace{}, Family{}, x, V, recur::ThreadPerX{},
                  Precision{});
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
void cases(const char* type) {
  const int M = 1 << 20, N = 32;
  Kokkos::View<T*, Kokkos::HostSpace> x("x", M);
  for (int i = 0; i < M; ++i) x(i) = T(-1 + 2.0 * i / M);
  Kokkos::View<T**, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", M, N);
  Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> right("right", M, N);
  double t[6] = {1, 1, 1, 1, 1, 1};
  for (int r = 0; r < 40; ++r) {
    t[0] = std::min(t[0], seconds<recur::HermiteENormalized, recur::Fast>(x, left));
    t[1] = std::min(t[1], seconds<recur::HermiteE, recur::Fast>(x, left));
    t[2] = std::min(t[2], seconds<recur::HermiteENormalized, recur::Accurate>(x, left));
    t[3] = std::min(t[3], seconds<recur::HermiteENormalized, recur::Fast>(x, right));
    t[4] = std::min(t[4], seconds<recur::HermiteE, recur::Fast>(x, right));
    t[5] = std::min(t[5], seconds<recur::HermiteENormalized, recur::Accurate>(x, right));
  }
  std::printf("%-6s LL HeN Fast %.2f  He Fast %.2f  HeN Acc %.2f | LR HeN Fast %.2f  He Fast %.2f  HeN Acc %.2f ms\n",
              type, t[0] * 1e3, t[1] * 1e3, t[2] * 1e3, t[3] * 1e3, t[4] * 1e3, t[5] * 1e3);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  cases<float>("float");
  cases<double>("double");
}
