// A recurrence of the user's own, through for_each_slice.
#include <recur/recur.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int M = 1000, N = 32;
  Kokkos::View<float*> x("x", M);
  Kokkos::View<float**, Kokkos::LayoutRight> V("V", M, N);
  Kokkos::deep_copy(x, 0.5f);
  recur::for_each_slice(x, V, KOKKOS_LAMBDA(float xi, recur::Slice<float> row) {
    row(0) = 1;
    for (int k = 1; k < row.size(); ++k) row(k) = row(k - 1) * xi + 1;
  });
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, V);
  std::printf("V(0, N - 1) = %.6f\n", v(0, N - 1));
  return 0;
}
