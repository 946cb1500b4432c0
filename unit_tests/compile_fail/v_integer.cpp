#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> x("x", 4);
  Kokkos::View<int**> V("V", 4, 3);
  recur::evaluate(recur::PowerSums{}, x, V);
}
