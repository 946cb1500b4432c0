// Where the GPU fit's time goes (docs/using-v.md, "H200, 2026-12-04"): the
// triangle of recur::fit (impl::warp_qr_triangle) for M = 2^18 and 2^24 points
// and N = 8 ... 35 Legendre terms, three ways: rows evaluated where they are
// factored, as recur::fit does (double-double); the same rows in plain
// double; rows read from an M x (N + 1) matrix evaluated beforehand. At
// M = 2^18 it also checks R^T R = A^T A against the Gram matrix summed on the
// host in long double. `fit_stages profile` runs one fit of 2^24 points, for
// a profiler.
//
// Built outside the tree in a CMake project of its own: find_package(Kokkos)
// (a CUDA Kokkos), this file linked to Kokkos::kokkos, with include/ and a
// directory holding a recur/config.hpp without RECUR_ENABLE_ETI (so nothing
// needs librecur) on the include path.
#include <recur/evaluate.hpp>
#include <recur/fit.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using Space = Kokkos::Cuda;
using V     = Kokkos::View<double*, Space>;

template <class Precision = recur::Accurate>
std::vector<double> tri(const Space& space, V x, V y, int N) {
  std::int64_t bad = 0;
  return recur::impl::with_fit_basis(recur::Legendre{}, [&](const auto& basis) {
    const auto kernel = recur::impl::make_kernel<double, Precision>(space, basis, N);
    using Row         = recur::impl::FamilyRow<double, std::decay_t<decltype(kernel)>>;
    return recur::impl::warp_qr_triangle(
        space, recur::impl::FitRows<V, V, recur::Unweighted, Row>{x, y, {}, Row{kernel}, N},
        N + 1, bad);
  });
}

template <class F>
double median_ms(F&& f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < 9; ++r) {
    Kokkos::fence();
    auto a = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double matrix_ms(const Space& space, V x, V y, int N) {
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Space>;
  const std::int64_t M = x.extent(0);
  Matrix A("A", M, N + 1);
  recur::evaluate(space, recur::LegendreNormalized{}, x,
                  Kokkos::subview(A, Kokkos::ALL, std::make_pair(0, N)));
  Kokkos::deep_copy(Kokkos::subview(A, Kokkos::ALL, N), y);
  std::int64_t bad = 0;
  if (M <= (1 << 18)) {
    // R^T R = A^T A, against the Gram matrix summed on the host in long double.
    const int n = N + 1;
    auto R  = recur::impl::warp_qr_triangle(space, recur::impl::WarpQRMatrixRows{A}, n, bad);
    auto Ah = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, A);
    double worst = 0, top = 0;
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < n; ++c) {
        long double g = 0, r = 0;
        for (std::int64_t i = 0; i < M; ++i) g += (long double)Ah(i, a) * Ah(i, c);
        for (int k = 0; k < n; ++k) r += (long double)R[k * n + a] * R[k * n + c];
        worst = std::max(worst, double(std::fabs(g - r)));
        top   = std::max(top, double(std::fabs(g)));
      }
    std::printf("  check N=%d: max|R^T R - A^T A| / max|A^T A| = %.2e\n", N, worst / top);
  }
  return median_ms([&] {
    recur::impl::warp_qr_triangle(space, recur::impl::WarpQRMatrixRows{A}, N + 1, bad);
  });
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  Space space;
  const bool profile = argc > 1 && std::string(argv[1]) == "profile";
  for (int log2M : {18, 24}) {
    if (profile && log2M != 24) continue;
    const std::int64_t M = std::int64_t(1) << log2M;
    V x("x", M), y("y", M);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, M), KOKKOS_LAMBDA(std::int64_t i) {
      const double t = -1 + 2 * (double(i) + 0.5) / double(M);
      x(i) = t;
      y(i) = Kokkos::sin(3 * t) + 0.1 * Kokkos::cos(40 * t);
    });
    if (profile) {
      tri<>(space, x, y, 32);
      Kokkos::fence();
      return 0;
    }
    for (int N : {8, 16, 24, 32, 35}) {
      const double flops = 2.0 * double(M) * double(N + 1) * double(N + 1);
      const double tr    = median_ms([&] { tri<>(space, x, y, N); });
      const double tf    = median_ms([&] { tri<recur::Fast>(space, x, y, N); });
      const double tm    = matrix_ms(space, x, y, N);
      std::printf("M=2^%d N=%d fit rows %.3f ms (%.2f TFLOP/s), rows in double %.3f ms (%.2f), "
                  "from a stored matrix %.3f ms (%.2f TFLOP/s)\n",
                  log2M, N, tr, flops / tr * 1e-9, tf, flops / tf * 1e-9, tm, flops / tm * 1e-9);
      std::fflush(stdout);
    }
  }
}
