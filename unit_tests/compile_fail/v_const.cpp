#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> x("x", 4);
  Kokkos::View<const double**> V("V", 4, 3);
  recur::evaluate(recur::HermiteE{}, x, V);
}
