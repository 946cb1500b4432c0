// The seed's table: He_n(x)/sqrt(n!) in float, row slices.
#include <recur/recur.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int M = 1000, N = 32;
  Kokkos::View<float*> x("x", M);
  Kokkos::View<float**, Kokkos::LayoutRight> V("V", M, N);
  Kokkos::deep_copy(x, 1.5f);
  recur::evaluate(recur::HermiteENormalized{}, x, V);
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, V);
  std::printf("V(0, 5) = %.6f\n", v(0, 5));
  return 0;
}
