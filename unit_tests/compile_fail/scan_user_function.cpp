#include <recur/recur.hpp>
struct Ones {
  KOKKOS_FUNCTION void operator()(double, recur::Slice<double> s) const {
    for (int n = 0; n < s.size(); ++n) s(n) = 1;
  }
};
int main() {
  Kokkos::View<double*> x("x", 4);
  Kokkos::View<double**> V("V", 4, 3);
  recur::for_each_slice(x, V, Ones{}, recur::ScanAlongN{});
}
