#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> c("c", 4), x("x", 5);
  Kokkos::View<double**> Y("Y", 5, 1);
  recur::series(recur::Legendre{}, c, x, Y);
}
