#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> x("x", 4);
  Kokkos::View<double**> V("V", 4, 3);
  recur::evaluate(recur::HermiteFunction{}, x, V, recur::ScanAlongN{});
}
