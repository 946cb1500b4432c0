// Chebyshev interpolation with derivatives: V and dV in one pass.
#include <recur/recur.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int M = 1000, N = 32;
  Kokkos::View<double*> x("x", M);
  Kokkos::View<double**, Kokkos::LayoutLeft> V("V", M, N), dV("dV", M, N);
  Kokkos::parallel_for("x", M, KOKKOS_LAMBDA(int i) { x(i) = -1 + 2.0 * i / (M - 1); });
  recur::evaluate(recur::ChebyshevT{}, x, V, dV);
  const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, dV);
  std::printf("T_31'(1) = %.1f\n", d(M - 1, N - 1));
  return 0;
}
