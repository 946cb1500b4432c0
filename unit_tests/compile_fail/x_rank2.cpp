#include <recur/recur.hpp>
int main() {
  Kokkos::View<double**> x("x", 4, 1), V("V", 4, 3);
  recur::evaluate(recur::PowerSums{}, x, V);
}
