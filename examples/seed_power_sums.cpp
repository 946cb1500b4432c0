// The seed's t2.py, written as a recur user recurrence: one scalar x in, the
// N partial power sums x + x^2 + ... + x^(n+1) out. No dummy input array, and
// V's layout (the execution space's default) decides how threads map to
// memory.
#include "print_table.hpp"

#include <recur/recur.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int rows = 1280000;
  const int cols = 4;
  Kokkos::View<float*> x("x", rows);
  Kokkos::View<float**> V("V", rows, cols);
  Kokkos::parallel_for(
      "seed_power_sums::x", rows, KOKKOS_LAMBDA(int i) { x(i) = i % 4 + 1; });

  recur::for_each_slice(x, V, KOKKOS_LAMBDA(float xi, recur::Slice<float> out) {
    float tmp1 = 0;
    float tmp  = xi;
    for (int i = 0; i < out.size(); ++i) {
      tmp1 += tmp;
      out(i) = tmp1;
      tmp *= xi;
    }
  });
  print_table("result", V);
}
