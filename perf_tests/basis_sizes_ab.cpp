// A/B of recur::evaluate on CPUs between two trees over the size of the
// output: a product basis (HermiteENormalized in d = 5 dimensions, total
// degree 4, P = 126; X of zeros) at M = 512 ... 2^20 samples, Psi in
// LayoutLeft and LayoutRight, float and double; and the 1-D evaluate
// (He_n/sqrt(n!), N = 32) at M = 2^11 ... 2^17 in both layouts, where the
// outputs go from cache-sized to beyond the size from which they are
// streamed. Median of 41 fenced calls, microseconds. Build it once against
// each tree's headers and run the builds alternately:
//
//   K=$Kokkos_ROOT; for t in old new; do g++ -O3 -DNDEBUG -fopenmp -march=native
//     -std=c++17 -I$t/include -I$t/build/openmp/include -isystem $K/include
//     perf_tests/basis_sizes_ab.cpp -o sizes_$t $t/build/openmp/librecur.a -L$K/lib
//     -lkokkoscontainers -lkokkoscore -ldl; done    (one command line per tree)
//   for t in old new old new; do
//     OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads ./sizes_$t; done
//
// (docs/multivariate.md, "CPU, 2026-12-05: columns streamed from 128 KiB".)
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using Space = Kokkos::DefaultHostExecutionSpace;

template <class F>
double median_us(F&& f) {
  std::vector<double> t;
  f();
  for (int r = 0; r < 41; ++r) {
    Kokkos::Timer timer;
    f();
    Space().fence();
    t.push_back(timer.seconds() * 1e6);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T, class Layout>
double one_d(int M) {
  Kokkos::View<T*, Space> x("x", M);
  for (int i = 0; i < M; ++i) x(i) = T(-1 + 2.0 * i / M);
  Kokkos::View<T**, Layout, Space> V("V", M, 32);
  return median_us([&] { recur::evaluate(Space{}, recur::HermiteENormalized{}, x, V); });
}

template <class T, class Layout>
double basis(const recur::ProductBasis& b, int M) {
  Kokkos::View<T**, Kokkos::LayoutRight, Space> X("X", M, b.dimension());
  Kokkos::View<T**, Layout, Space> Psi("Psi", M, b.size());
  return median_us([&] { recur::evaluate(Space{}, b, X, Psi); });
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using LL = Kokkos::LayoutLeft;
  using LR = Kokkos::LayoutRight;
  for (int M = 1 << 11; M <= 1 << 17; M *= 2)
    std::printf("1-D M %7d (%6.2f MB float) float LL %8.1f LR %8.1f double LL %8.1f LR %8.1f us\n", M,
                M * 128e-6, one_d<float, LL>(M), one_d<float, LR>(M), one_d<double, LL>(M),
                one_d<double, LR>(M));
  const recur::ProductBasis b(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(5, 4));
  for (int M = 512; M <= 1 << 20; M *= 2)
    std::printf("basis M %7d (%6.2f MB float) float LL %8.1f LR %8.1f double LL %8.1f LR %8.1f us\n", M,
                M * 504e-6, basis<float, LL>(b, M), basis<float, LR>(b, M), basis<double, LL>(b, M),
                basis<double, LR>(b, M));
}
