// A/B of the Staged policy (LayoutRight) between two trees on a GPU: double
// He_n/sqrt(n!) Accurate and Fast, float Accurate and Fast, M = 2^24, N = 32, each the
// median of 21 fenced runs beside recur::store_ceiling of the same V. Build it
// against each tree's include (and a config.hpp without precompiled
// instances) with the device's Kokkos, run the builds alternately
// (docs/performance.md, "H200, 2026-12-04: launch bounds for double Staged rows").
#include <recur/recur.hpp>
#include <recur/ceiling.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
template <class Run> double med(const Run& run) {
  std::vector<double> t; run(); Kokkos::fence();
  for (int r = 0; r < 21; ++r) { Kokkos::fence(); Kokkos::Timer tm; run(); Kokkos::fence(); t.push_back(tm.seconds()); }
  std::nth_element(t.begin(), t.begin() + 10, t.end()); return t[10] * 1e3;
}
template <class T, class P> double one(const char* what) {
  const int M = 1 << 24, N = 32;
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = T(-1) + T(2) * T(i) / T(M); });
  Kokkos::View<T**, Kokkos::LayoutRight> V("V", M, N);
  const double c = recur::store_ceiling(Kokkos::DefaultExecutionSpace{}, V).seconds * 1e3;
  const double ms = med([&] { recur::evaluate(recur::HermiteENormalized{}, x, V, recur::Staged{}, P{}); });
  // the same values as ThreadPerX's, bit for bit
  Kokkos::View<T**, Kokkos::LayoutRight> W("W", M, N);
  recur::evaluate(recur::HermiteENormalized{}, x, W, recur::ThreadPerX{}, P{});
  long differ = 0;
  Kokkos::parallel_reduce(
      M * N, KOKKOS_LAMBDA(long k, long& d) { d += V(k / N, k % N) != W(k / N, k % N); }, differ);
  std::printf("%-22s %.3f ms  ceiling %.3f ms  %.3f   values differing from ThreadPerX's: %ld\n", what, ms, c,
              c / ms * (1.0 + 1.0 / N), differ);
  return ms;
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  one<double, recur::Accurate>("double Accurate");
  one<double, recur::Fast>("double Fast");
  one<float, recur::Accurate>("float Accurate");
  one<float, recur::Fast>("float Fast");
}
