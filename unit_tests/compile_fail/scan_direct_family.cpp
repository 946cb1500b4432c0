#include <recur/recur.hpp>
struct Squares {  // a direct family: it fills rows itself, so has no scan form
  static constexpr const char* name() { return "Squares"; }
  template <class T>
  KOKKOS_FUNCTION void fill(T x, const recur::Slice<T>& s) const {
    for (int n = 0; n < s.size(); ++n) s(n) = x * x;
  }
};
int main() {
  Kokkos::View<double*> x("x", 4);
  Kokkos::View<double**> V("V", 4, 3);
  recur::evaluate(Squares{}, x, V, recur::ScanAlongN{});
}
