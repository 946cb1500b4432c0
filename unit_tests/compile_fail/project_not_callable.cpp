#include <recur/recur.hpp>
int main() {
  Kokkos::View<double*> c("c", 4);
  recur::project(recur::Legendre{}, 42, c);
}
