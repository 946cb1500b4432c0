// A/B of recur::evaluate for a product basis on CPUs between two trees:
// HermiteENormalized in d = 5 dimensions, total degree 4 (P = 126), M = 2^20
// samples in [-3, 3], Psi in LayoutLeft and LayoutRight, and the tables alone
// (the d functions p_4(xi_k)), and the series of one expansion (K = 1); float
// and double; fastest of 12 calls, ms.
// Build it once against each tree's headers and run the builds alternately:
//
//   K=$Kokkos_ROOT; for t in old new; do g++ -O3 -DNDEBUG -fopenmp -march=native
//     -std=c++17 -I$t/include -I$t/build/openmp/include -isystem $K/include
//     perf_tests/basis_ab.cpp -o basis_ab_$t $t/build/openmp/librecur.a -L$K/lib
//     -lkokkoscontainers -lkokkoscore -ldl; done    (one command line per tree)
//   for i in 1 2 3 4; do for t in old new; do
//     OMP_NUM_THREADS=2 OMP_PROC_BIND=false ./basis_ab_$t; done; done
//
// (docs/multivariate.md, "CPU, 2026-12-04" and "CPU, 2026-12-04, late".) No
// ceiling is measured here: recur_perf's basis entries give the fractions.
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using Space = Kokkos::DefaultHostExecutionSpace;

template <class F>
double best(F&& f) {
  double t = 1e9;
  for (int r = 0; r < 12; ++r) {
    const auto a = std::chrono::steady_clock::now();
    f();
    Space().fence();
    const auto b = std::chrono::steady_clock::now();
    t = std::min(t, std::chrono::duration<double, std::milli>(b - a).count());
  }
  return t;
}

template <class T>
void run() {
  const std::int64_t M = 1 << 20;
  const int d = 5, p = 4;
  Kokkos::View<T**, Kokkos::LayoutRight, Space> X("X", M, d);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, M), [=](std::int64_t i) {
    for (int k = 0; k < d; ++k)
      X(i, k) = T(-3 + 6 * double((i * 7919 + k * 104729) % 1000003) / 1000003.0);
  });
  const recur::ProductBasis basis(recur::HermiteENormalized{},
                                  recur::MultiIndexSet::total_degree(d, p));
  std::vector<int> deepest(d * d, 0);
  for (int k = 0; k < d; ++k) deepest[k * d + k] = p;
  const recur::ProductBasis tables(recur::HermiteENormalized{},
                                   recur::MultiIndexSet::from_table(d, deepest));
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> L("L", M, basis.size()), Td("Td", M, d);
  Kokkos::View<T**, Kokkos::LayoutRight, Space> R("R", M, basis.size());
  const double tl = best([&] { recur::evaluate(Space(), basis, X, L); });
  const double tr = best([&] { recur::evaluate(Space(), basis, X, R); });
  const double tt = best([&] { recur::evaluate(Space(), tables, X, Td); });
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> C("C", basis.size(), 1), Y("Y", M, 1);
  Kokkos::deep_copy(C, T(0.5));
  const double ts = best([&] { recur::series(Space(), basis, C, X, Y); });
  std::printf("%s LL %.2f LR %.2f tables %.2f series %.2f ms | ", sizeof(T) == 4 ? "float" : "double",
              tl, tr, tt, ts);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  run<float>();
  run<double>();
  std::printf("\n");
}
