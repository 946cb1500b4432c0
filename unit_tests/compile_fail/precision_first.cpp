#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> x("x", 5);
  Kokkos::View<double**> V("V", 5, 3);
  recur::evaluate(recur::Legendre{}, x, V, recur::Fast{}, recur::Staged{});
}
