// A/B of recur::evaluate and recur::series for a product basis on the
// default execution space (a GPU) between two trees: HermiteENormalized in
// d = 5 dimensions, total degree 4 (P = 126), M = 2^22 samples in [-1, 1]
// (M x d, LayoutRight), Psi in LayoutLeft and LayoutRight, float and
// double, the tables alone (the d functions p_4(xi_k)) and series with
// K = 1; median of 15 calls. Each entry also gives the same-process store
// ceiling of Psi (recur::store_ceiling, counted with X's bytes as
// recur_perf's basis entries count them) and checks Psi against products of
// the 1-D evaluate's tables (largest relative error). `profile` runs the
// LayoutLeft and LayoutRight float calls three times each, for Nsight
// Compute. Built once against each tree's headers (and a recur/config.hpp
// with RECUR_ENABLE_ETI unset), as two executables of a small CMake
// project configured with -DCMAKE_CXX_COMPILER=$Kokkos_ROOT/bin/nvcc_wrapper:
//
//   find_package(Kokkos REQUIRED)
//   add_executable(basis_ab_old basis_gpu_ab.cpp)  # include: the old tree's
//   add_executable(basis_ab_new basis_gpu_ab.cpp)  # include: the new tree's
//   target_link_libraries(basis_ab_old Kokkos::kokkos)  (and basis_ab_new)
//
// then run alternately: for i in 1 2; do ./basis_ab_old; ./basis_ab_new; done
// (docs/multivariate.md, "H200, 2026-12-04".)
#include <recur/recur.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using Space = Kokkos::DefaultExecutionSpace;

template <class F>
double median_ms(const Space& space, F f, int n = 15) {
  f();
  space.fence();
  std::vector<double> t;
  for (int r = 0; r < n; ++r) {
    Kokkos::Timer timer;
    f();
    space.fence();
    t.push_back(timer.seconds() * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T, class Layout>
void one(const Space& space, const recur::ProductBasis& basis, const char* name, bool profile) {
  const std::int64_t M = std::int64_t(1) << 22;
  const int d = basis.dimension(), P = basis.size();
  Kokkos::View<T**, Kokkos::LayoutRight, Space> X("X", M, d);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(space, 0, M * d), KOKKOS_LAMBDA(std::int64_t q) {
    X.data()[q] = T(-1 + 2.0 * double((q * 7919) % (M * d)) / double(M * d));
  });
  Kokkos::View<T**, Layout, Space> Psi(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Psi"), M, P);
  if (profile) {
    for (int r = 0; r < 3; ++r) recur::evaluate(space, basis, X, Psi);
    space.fence();
    return;
  }
  const double ceil_ms = recur::store_ceiling(space, Psi).seconds * 1e3;
  const double ms = median_ms(space, [&] { recur::evaluate(space, basis, X, Psi); });
  const double moved = double(Psi.span() + X.span()) / double(Psi.span());
  // Check: products of the 1-D evaluate's tables (double).
  int pmax = 0;
  for (int k = 0; k < d; ++k) pmax = std::max(pmax, basis.indices().max_degree(k));
  Kokkos::View<double***, Kokkos::LayoutRight, Space> V1("V1", d, M, pmax + 1);
  for (int k = 0; k < d; ++k) {
    Kokkos::View<double*, Space> xk("xk", M);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(space, 0, M), KOKKOS_LAMBDA(std::int64_t i) { xk(i) = double(X(i, k)); });
    auto Vk = Kokkos::subview(V1, k, Kokkos::ALL, Kokkos::ALL);
    recur::evaluate(space, recur::HermiteENormalized{}, xk, Vk);
  }
  Kokkos::View<int**, Kokkos::LayoutRight, Space> A("A", P, d);
  auto Ah = Kokkos::create_mirror_view(A);
  for (int j = 0; j < P; ++j)
    for (int k = 0; k < d; ++k) Ah(j, k) = basis.indices()(j, k);
  Kokkos::deep_copy(A, Ah);
  double worst = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Space>(space, 0, M), KOKKOS_LAMBDA(std::int64_t i, double& w) {
    for (int j = 0; j < P; ++j) {
      double v = 1;
      for (int k = 0; k < d; ++k) v *= V1(k, i, A(j, k));
      const double e = Kokkos::fabs(double(Psi(i, j)) - v) / (Kokkos::fabs(v) + 1e-300);
      w = e > w ? e : w;
    }
  }, Kokkos::Max<double>(worst));
  std::printf("%-34s %8.3f ms  ceiling %.3f ms  of_ceiling %.3f  max rel err %.2e\n", name, ms, ceil_ms,
              moved * ceil_ms / ms, worst);
}

template <class T>
void series(const Space& space, const recur::ProductBasis& basis, const char* name) {
  const std::int64_t M = std::int64_t(1) << 22;
  const int d = basis.dimension(), P = basis.size();
  Kokkos::View<T**, Kokkos::LayoutRight, Space> X("X", M, d);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(space, 0, M * d), KOKKOS_LAMBDA(std::int64_t q) {
    X.data()[q] = T(-1 + 2.0 * double((q * 7919) % (M * d)) / double(M * d));
  });
  Kokkos::View<T*, Space> C("C", P), Y("Y", M);
  Kokkos::deep_copy(space, C, T(1) / T(P));
  const double ms = median_ms(space, [&] { recur::series(space, basis, C, X, Y); });
  std::printf("%-34s %8.3f ms\n", name, ms);
}

// What a call costs besides its kernels: the basis' data made and uploaded
// (impl::product_basis_data, then freed), and a whole call for 1024 samples.
void fixed_costs(const Space& space, const recur::ProductBasis& basis) {
  const double setup = median_ms(space, [&] {
    const auto prepared = recur::impl::product_basis_data<Space, recur::Accurate, float>(space, basis);
    (void)prepared;
  });
  Kokkos::View<float**, Kokkos::LayoutRight, Space> X("X", 1024, basis.dimension());
  Kokkos::View<float**, Kokkos::LayoutLeft, Space> Psi("Psi", 1024, basis.size());
  const double small = median_ms(space, [&] { recur::evaluate(space, basis, X, Psi); });
  std::printf("%-34s %8.3f ms\n%-34s %8.3f ms\n", "setup alone (data made, uploaded)", setup,
              "float LayoutLeft, M = 1024", small);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool profile = argc > 1 && std::strcmp(argv[1], "profile") == 0;
  const Space space;
  const recur::ProductBasis basis(recur::HermiteENormalized{}, recur::MultiIndexSet::total_degree(5, 4));
  std::vector<int> deepest(25, 0);
  for (int k = 0; k < 5; ++k) deepest[std::size_t(k) * 5 + std::size_t(k)] = 4;
  const recur::ProductBasis tables(recur::HermiteENormalized{}, recur::MultiIndexSet::from_table(5, deepest));
  if (profile) {
    one<float, Kokkos::LayoutLeft>(space, basis, "", true);
    one<float, Kokkos::LayoutRight>(space, basis, "", true);
    return 0;
  }
  fixed_costs(space, basis);
  one<float, Kokkos::LayoutLeft>(space, basis, "float LayoutLeft", false);
  one<float, Kokkos::LayoutRight>(space, basis, "float LayoutRight", false);
  one<double, Kokkos::LayoutLeft>(space, basis, "double LayoutLeft", false);
  one<double, Kokkos::LayoutRight>(space, basis, "double LayoutRight", false);
  one<float, Kokkos::LayoutLeft>(space, tables, "float tables only", false);
  series<float>(space, basis, "float series K = 1");
  series<double>(space, basis, "double series K = 1");
}
