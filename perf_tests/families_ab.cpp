// recur::evaluate of every built-in family on a CPU, to compare trees: M =
// 2^20, N = 32, x spread over [-1, 1], float and double results,
// LayoutLeft and LayoutRight, Auto with Accurate and with Fast; the fastest
// of 12 fenced calls each, ms, and the fraction of recur::store_ceiling of
// V (measured in the same process) counting x's bytes as the suite does.
// Jacobi{0.5, -0.5} (b_0 != 0), LaguerreNormalized{0.5}, Gegenbauer{1.5}
// (recur_perf's entries of the same shape take the defaults). Build it
// against each tree's include with a config.hpp that declares no
// precompiled instances and run the builds alternately:
//
//   printf '#define RECUR_VERSION_STRING "ab"\n' > cfg/recur/config.hpp
//   for t in old new; do g++ -O3 -fopenmp -march=native -std=c++17 -I$t/include
//     -Icfg -I$Kokkos_ROOT/include perf_tests/families_ab.cpp -o ab_$t
//     -L$Kokkos_ROOT/lib -lkokkoscore -ldl; done
//   for i in 1 2; do ./ab_old; ./ab_new; done
#include <recur/recur.hpp>
#include <recur/ceiling.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <algorithm>
template <class F> double best(F f) { double b = 1e9; for (int r = 0; r < 12; ++r) { Kokkos::fence(); Kokkos::Timer t; f(); Kokkos::fence(); b = std::min(b, t.seconds()); } return b; }
template <class T, class L, class Fam> void one(const char* name, Fam fam) {
  const long M = 1L << 20; const int N = 32;
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(long i) { x(i) = T(-1) + T(2) * T(i) / T(M); });
  Kokkos::View<T**, L> V("V", M, N);
  const double c = recur::store_ceiling(Kokkos::DefaultExecutionSpace{}, V).seconds;
  const double a = best([&] { recur::evaluate(fam, x, V, recur::Auto{}, recur::Accurate{}); });
  const double f = best([&] { recur::evaluate(fam, x, V, recur::Auto{}, recur::Fast{}); });
  const double k = (1.0 + 1.0 / N);
  std::printf("%-22s %-6s %-11s Acc %6.2f ms %.2f  Fast %6.2f ms %.2f\n", name, sizeof(T) == 4 ? "float" : "double",
              std::is_same_v<L, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight", a * 1e3, c / a * k, f * 1e3, c / f * k);
}
template <class Fam> void all(const char* name, Fam fam) {
  one<float, Kokkos::LayoutLeft>(name, fam); one<float, Kokkos::LayoutRight>(name, fam);
  one<double, Kokkos::LayoutLeft>(name, fam); one<double, Kokkos::LayoutRight>(name, fam);
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  all("Monomials", recur::Monomials{});
  all("Hermite", recur::Hermite{});
  all("HermiteNormalized", recur::HermiteNormalized{});
  all("HermiteFunction", recur::HermiteFunction{});
  all("LegendreNormalized", recur::LegendreNormalized{});
  all("ChebyshevT", recur::ChebyshevT{});
  all("ChebyshevU", recur::ChebyshevU{});
  all("Laguerre", recur::Laguerre{});
  all("LaguerreNormalized", recur::LaguerreNormalized{0.5});
  all("Jacobi", recur::Jacobi{0.5, -0.5});
  all("JacobiNormalized", recur::JacobiNormalized{0.5, -0.5});
  all("Gegenbauer", recur::Gegenbauer{1.5});
  all("GegenbauerNormalized", recur::GegenbauerNormalized{1.5});
}
