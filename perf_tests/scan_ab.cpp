// ScanAlongN on a GPU, A/B between two trees in the same conditions: M = 16,
// N = 2^24 (the suite's shape), float He_n/sqrt(n!) (Accurate and Fast), P_n
// and power sums, double He_n/sqrt(n!) (Fast and Accurate) and power sums,
// LayoutLeft and LayoutRight, each the median of 11 fenced runs, with
// recur::store_ceiling of the same V measured before it; a checksum of one
// row. `scan_ab sweep`: chunk lengths 128 to 1024 (float He_n/sqrt(n!)).
// `scan_ab chunks`: chunks of 512 and 1024, float power sums, He_n/sqrt(n!)
// and P_n (Accurate and Fast), He_n, in both layouts.
// `scan_ab lengths`: every chunk length from 128 to 2048 and the default,
// at M = 16 and 64 and N = 2^12 to 2^24, float power sums and He_n/sqrt(n!)
// (Accurate and Fast), both layouts, one line a shape (medians of 11 runs,
// fractions of the ceiling of the same V), for the default's choice.
// `scan_ab check`: ScanAlongN against ThreadPerX in LayoutLeft (float and
// double, Accurate and Fast; power sums, P_n, He_n/sqrt(n!), Jacobi; shapes
// from one term to M = 16, N = 2^20), the worst difference over a row's
// largest value. Build as perf_tests/gpu_ab.cpp says, alternately against
// each tree (docs/performance.md, "H100, 2026-12-06: ScanAlongN in one
// pass").
#include <recur/ceiling.hpp>
#include <recur/recur.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
template <class Run>
double median_ms(const Run& run) {
  std::vector<double> t;
  run();
  Kokkos::fence();
  for (int r = 0; r < 11; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    run();
    Kokkos::fence();
    t.push_back(timer.seconds());
  }
  std::nth_element(t.begin(), t.begin() + 5, t.end());
  return t[5] * 1e3;
}
template <class T, class Layout, class Family, class Precision>
void one(const char* what, int chunk = 0, int M = 16, int N = 1 << 24) {
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = T(-0.93) + T(1.8) * T(i) / T(M); });
  Kokkos::View<T**, Layout> V("V", M, N);
  const recur::StoreCeiling ceiling = recur::store_ceiling(Kokkos::DefaultExecutionSpace{}, V);
  const double ms = median_ms([&] { recur::evaluate(Family{}, x, V, recur::ScanAlongN{chunk}, Precision{}); });
  Kokkos::View<T*> row("row", N);
  Kokkos::deep_copy(row, Kokkos::subview(V, M / 3, Kokkos::ALL));
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, row);
  double sum = 0;
  for (int n = 0; n < N; n += 4099) sum += double(h(n));
  std::printf("%-44s chunk %4d  %.3f ms  ceiling %.3f ms  %.3f  V(M/3,N-1) = %.9g  sum %.9g\n", what, chunk, ms,
              ceiling.seconds * 1e3, ceiling.seconds * 1e3 / ms, double(h(N - 1)), sum);
}
// One line: the family at M x N for each chunk length (0: the default).
template <class Layout, class Family, class Precision>
void lengths(const char* what, int M, int lg) {
  const int N = 1 << lg;
  Kokkos::View<float*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = -0.93f + 1.8f * float(i) / float(M); });
  Kokkos::View<float**, Layout> V("V", M, N);
  const double ceiling = recur::store_ceiling(Kokkos::DefaultExecutionSpace{}, V).seconds * 1e3;
  std::printf("%-36s M %2d N 2^%d", what, M, lg);
  for (int chunk : {0, 128, 256, 512, 1024, 2048}) {
    const double ms = median_ms([&] { recur::evaluate(Family{}, x, V, recur::ScanAlongN{chunk}, Precision{}); });
    std::printf(" | %d: %.4f ms %.3f", chunk, ms, ceiling / ms);
  }
  std::printf("\n");
  std::fflush(stdout);
}
// ScanAlongN against ThreadPerX: the worst |difference| over a row's largest |value|.
template <class T, class Layout, class Family, class Precision>
double check(const Family& family, int M, int N, int chunk) {
  Kokkos::View<T*> x("x", M);
  Kokkos::parallel_for(M, KOKKOS_LAMBDA(int i) { x(i) = i == 1 ? T(0) : T(-0.97) + T(1.9) * T(i) / T(M); });
  Kokkos::View<T**, Layout> A("A", M, N), B("B", M, N);
  recur::evaluate(family, x, A, recur::ThreadPerX{}, Precision{});
  recur::evaluate(family, x, B, recur::ScanAlongN{chunk}, Precision{});
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, A);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, B);
  double worst = 0;
  for (int i = 0; i < M; ++i) {
    double big = 1e-300, diff = 0;
    for (int n = 0; n < N; ++n) {
      big = std::max(big, std::fabs(double(a(i, n))));
      const double d = std::fabs(double(a(i, n)) - double(b(i, n)));
      diff = d == d ? std::max(diff, d) : 1e300;
    }
    worst = std::max(worst, diff / big);
  }
  return worst;
}
template <class T, class Precision>
void checks() {
  const int shapes[][3] = {{37, 1, 1}, {3, 2, 1}, {5, 1000, 7}, {300, 130, 8}, {4, 20001, 3},
                           {16, 70001, 64}, {16, 1 << 20, 0}, {1, 300000, 0}, {40, 50000, 0}};
  using LL = Kokkos::LayoutLeft;
  double worst[4] = {0, 0, 0, 0};
  for (const auto& s : shapes) {
    worst[0] = std::max(worst[0], check<T, LL, recur::PowerSums, Precision>(recur::PowerSums{}, s[0], s[1], s[2]));
    worst[1] = std::max(worst[1], check<T, LL, recur::Legendre, Precision>(recur::Legendre{}, s[0], s[1], s[2]));
    worst[2] = std::max(worst[2], check<T, LL, recur::HermiteENormalized, Precision>(recur::HermiteENormalized{}, s[0], s[1], s[2]));
    worst[3] = std::max(worst[3], check<T, LL, recur::JacobiNormalized, Precision>(recur::JacobiNormalized{0.5, -0.5}, s[0], s[1], s[2]));
  }
  std::printf("check %s %s: power sums %.3g  P_n %.3g  He_n/sqrt(n!) %.3g  Jacobi %.3g\n",
              sizeof(T) == 4 ? "float" : "double", Precision::name(), worst[0], worst[1], worst[2], worst[3]);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using LL = Kokkos::LayoutLeft;
  using LR = Kokkos::LayoutRight;
  using HeN = recur::HermiteENormalized;
  using recur::Accurate;
  using recur::Fast;
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool sweep       = mode == "sweep";
  if (mode == "chunks") {
    for (int chunk : {512, 1024}) {
      one<float, LL, recur::PowerSums, Accurate>("float LL power sums", chunk);
      one<float, LR, recur::PowerSums, Accurate>("float LR power sums", chunk);
      one<float, LL, HeN, Accurate>("float LL He_n/sqrt(n!)", chunk);
      one<float, LR, HeN, Accurate>("float LR He_n/sqrt(n!)", chunk);
      one<float, LL, HeN, Fast>("float LL He_n/sqrt(n!) Fast", chunk);
      one<float, LR, HeN, Fast>("float LR He_n/sqrt(n!) Fast", chunk);
      one<float, LL, recur::Legendre, Accurate>("float LL P_n", chunk);
      one<float, LR, recur::Legendre, Accurate>("float LR P_n", chunk);
      one<float, LL, recur::Legendre, Fast>("float LL P_n Fast", chunk);
      one<float, LR, recur::Legendre, Fast>("float LR P_n Fast", chunk);
      one<float, LL, recur::HermiteE, Accurate>("float LL He_n", chunk);
      one<float, LR, recur::HermiteE, Accurate>("float LR He_n", chunk);
    }
    return 0;
  }
  if (mode == "lengths") {
    for (int M : {16, 64})
      for (int lg = 12; lg <= 24; lg += 2) {
        lengths<LL, recur::PowerSums, Accurate>("float LL power sums", M, lg);
        lengths<LL, HeN, Accurate>("float LL He_n/sqrt(n!)", M, lg);
        lengths<LL, HeN, Fast>("float LL He_n/sqrt(n!) Fast", M, lg);
        lengths<LR, recur::PowerSums, Accurate>("float LR power sums", M, lg);
        lengths<LR, HeN, Accurate>("float LR He_n/sqrt(n!)", M, lg);
        lengths<LR, HeN, Fast>("float LR He_n/sqrt(n!) Fast", M, lg);
      }
    return 0;
  }
  if (mode == "check") {
    checks<float, recur::Accurate>();
    checks<float, recur::Fast>();
    checks<double, recur::Accurate>();
    checks<double, recur::Fast>();
    return 0;
  }
  for (int chunk : sweep ? std::vector<int>{128, 256, 512, 1024} : std::vector<int>{0}) {
    one<float, LL, HeN, Accurate>("float LL He_n/sqrt(n!)", chunk);
    one<float, LR, HeN, Accurate>("float LR He_n/sqrt(n!)", chunk);
    if (sweep) continue;
    one<float, LL, HeN, Fast>("float LL He_n/sqrt(n!) Fast", chunk);
    one<float, LR, HeN, Fast>("float LR He_n/sqrt(n!) Fast", chunk);
    one<float, LL, recur::Legendre, Accurate>("float LL P_n", chunk);
    one<float, LR, recur::Legendre, Accurate>("float LR P_n", chunk);
    one<float, LL, recur::PowerSums, Accurate>("float LL power sums", chunk);
    one<float, LR, recur::PowerSums, Accurate>("float LR power sums", chunk);
    one<double, LL, HeN, Fast>("double LL He_n/sqrt(n!) Fast", chunk);
    one<double, LR, HeN, Fast>("double LR He_n/sqrt(n!) Fast", chunk);
    one<double, LL, HeN, Accurate>("double LL He_n/sqrt(n!)", chunk);
    one<double, LR, recur::PowerSums, Accurate>("double LR power sums", chunk);
  }
}
