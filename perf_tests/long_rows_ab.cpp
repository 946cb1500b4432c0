// recur::evaluate of power sums in long rows on CPUs, to compare trees:
// M = 16 .. 256 rows of 2^24 / M terms (2^24 terms in all), x spread over
// [-1, 1], float and double results, LayoutLeft and LayoutRight, with
// ThreadPerX, ScanAlongN and Auto; the fastest of 3 fenced calls each, ms.
// Build it against each tree's include with a config.hpp that declares no
// precompiled instances and run the builds alternately:
//
//   printf '#define RECUR_VERSION_STRING "ab"\n' > cfg/recur/config.hpp
//   for t in old new; do g++ -O3 -fopenmp -march=native -std=c++17 -I$t/include
//     -Icfg -I$Kokkos_ROOT/include perf_tests/long_rows_ab.cpp -o ab_$t
//     -L$Kokkos_ROOT/lib -lkokkoscore -ldl; done
//   for i in 1 2; do ./ab_old; ./ab_new; done
//
// (docs/performance.md, "CPU, 2026-12-05, night: power sums of long rows".)
#include <recur/recur.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
template <class F>
double best(F&& f) {
  double b = 1e30;
  f();
  for (int r = 0; r < 3; ++r) {
    Kokkos::fence();
    Kokkos::Timer t;
    f();
    Kokkos::fence();
    b = std::min(b, t.seconds());
  }
  return b * 1e3;
}
template <class T, class Layout, class Family>
void one(const char* what, int M, int N, const Family& fam) {
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = T(-1) + T(2) * T(i + 0.5) / T(M); });
  Kokkos::View<T**, Layout> V("V", M, N);
  const double a = best([&] { recur::evaluate(fam, x, V, recur::ThreadPerX{}); });
  const double s = best([&] { recur::evaluate(fam, x, V, recur::ScanAlongN{}); });
  const double u = best([&] { recur::evaluate(fam, x, V); });
  std::printf("%-28s M %5d  ThreadPerX %8.2f  ScanAlongN %8.2f  Auto %8.2f ms\n", what, M, a, s, u);
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const int N = 1 << 20;
  for (int M : {16, 32, 64, 128, 256}) {
    one<float, Kokkos::LayoutLeft>("float LL PowerSums", M, N / (M / 16), recur::PowerSums{});
    one<float, Kokkos::LayoutRight>("float LR PowerSums", M, N / (M / 16), recur::PowerSums{});
    one<double, Kokkos::LayoutLeft>("double LL PowerSums", M, N / (M / 16), recur::PowerSums{});
    one<double, Kokkos::LayoutRight>("double LR PowerSums", M, N / (M / 16), recur::PowerSums{});
  }
}
