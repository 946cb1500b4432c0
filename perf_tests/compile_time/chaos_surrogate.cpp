// A 1-D polynomial-chaos surrogate: Gauss rule, projection of a function,
// least-squares fit of samples, and the surrogate summed at new points.
#include <recur/recur.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int N = 12, M = 1000;
  const recur::HermiteENormalized basis;
  Kokkos::View<double*> projected("projected", N), fitted("fitted", N), x("x", M), y("y", M),
      surrogate("surrogate", M);
  const auto model = KOKKOS_LAMBDA(double xi) { return recur::exp(0.3 * xi) * recur::sin(xi); };
  recur::project(basis, model, projected, 40);
  Kokkos::parallel_for(
      "samples", M, KOKKOS_LAMBDA(int i) {
        x(i) = -4 + 8.0 * i / (M - 1);
        y(i) = model(x(i));
      });
  recur::fit(basis, x, y, fitted);
  recur::series(basis, projected, x, surrogate);
  const auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, surrogate);
  std::printf("surrogate(0) = %.6f\n", s(M / 2));
  return 0;
}
