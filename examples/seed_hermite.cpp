// The seed's t3.py, written as a recur user recurrence: He_n(x) / sqrt(n!)
// for x = 0..4, N = 4. The recurrence is normalized as it goes, so that it
// never forms n! (the seed's version overflows float from n = 35), and it is
// checked against the library's own HermiteENormalized family.
#include "print_table.hpp"

#include <recur/recur.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int rows = 5;
  const int cols = 4;
  Kokkos::View<float*> x("x", rows);
  Kokkos::View<float**> V("V", rows, cols), library("library", rows, cols);
  Kokkos::parallel_for(
      "seed_hermite::x", rows, KOKKOS_LAMBDA(int i) { x(i) = i; });

  recur::for_each_slice(x, V, KOKKOS_LAMBDA(float xi, recur::Slice<float> out) {
    out(0) = 1;
    if (out.size() > 1) out(1) = xi;
    for (int n = 1; n + 1 < out.size(); ++n)
      out(n + 1) = (xi * out(n) - recur::sqrt(float(n)) * out(n - 1)) /
                   recur::sqrt(float(n + 1));
  });
  print_table("user recurrence", V);

  recur::evaluate(recur::HermiteENormalized{}, x, library);
  print_table("recur::HermiteENormalized", library);
}
