#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> x("x", 4), V("V", 4);
  recur::evaluate(recur::HermiteE{}, x, V);
}
