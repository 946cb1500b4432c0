#include <recur/recur.hpp>
struct TakesAnInt {
  KOKKOS_FUNCTION void operator()(double, int) const {}
};
int main() {
  Kokkos::View<double*> x("x", 4);
  Kokkos::View<double**> V("V", 4, 3);
  recur::for_each_slice(x, V, TakesAnInt{});
}
