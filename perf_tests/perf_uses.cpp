// What users do with V, timed on each backend (recur_perf runs these with
// the evaluate suite; filter with --benchmark_filter=series/, gauss/, ...).
//
// series/<space>/<T>/Legendre/<fused|fused-fast|blas>/log2M:m/N:n/K:k
//   Y = V C for K coefficient sets: recur::series (Clenshaw, no V) against
//   recur::series_via_blas (evaluate into V, then Kokkos Kernels gemv/gemm);
//   fused-fast, blas-fast: the same with recur::Fast.
//   GBps = (M + M K + N K) sizeof(T) / time, the bytes a fused pass must move;
//   of_fill = GBps / the same-process fill of Y's bytes; GFLOPs = 2 M N K /
//   time, the product's flops.
// gauss/<space>/<Family>/n:n
//   recur::gauss; nodes_per_s.
// project/<space>/<T>/Legendre/n:n/K:k
//   recur::project with the rule given (n nodes, N = n coefficients): GBps =
//   the n x N basis matrix's bytes / time against a fill of them; GFLOPs.
// basis/<space>/<T>/<LayoutLeft|LayoutRight>[-Fast]/log2M:m/d:d/p:p
//   recur::evaluate of a product basis (HermiteENormalized in every
//   dimension, total degree p: P = C(p + d, d) functions) at M samples
//   (M x d, LayoutRight), recur::Accurate or (-Fast) recur::Fast: GBps =
//   (M P + M d) sizeof(T) / time (Psi written, X read), of_fill against the
//   same-process fill rate of Psi's bytes.
// basis-tables/<space>/<T>/log2M:m/d:d/p:p
//   recur::evaluate of the d functions p_p(xi_k) alone (the set {p e_k}):
//   the univariate tables of the basis entries at their depth, and a
//   store of d values a sample (M x d, LayoutLeft): what the tables cost.
// basis-series/<space>/<T>/log2M:m/d:d/p:p/K:k
//   recur::series on that basis (Y = Psi C, K = 1, Psi never stored):
//   against the basis entries, what forming Psi alone costs.
// fit/<space>/<T>/Legendre/log2M:m/N:n
//   recur::fit (TSQR of [V | y] in double): GBps = M (N + 1) 8 bytes / time
//   against a fill of the same bytes; TFLOPs = the Householder QR's
//   2 M (N + 1)^2 flops / time.
#include <recur/recur.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include "perf_support.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace recur_perf {

namespace {

template <class Space>
constexpr bool on_device() {
  return !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
}

template <class T>
const char* type_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

// x_i spread over [-1, 1].
template <class Space, class T>
Kokkos::View<T*, Space> spread(const Space& space, std::int64_t M) {
  Kokkos::View<T*, Space> x(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "x"), M);
  Kokkos::parallel_for(
      "recur_perf::x", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, M),
      KOKKOS_LAMBDA(std::int64_t i) { x(i) = T(-1) + T(2) * (T(i) + T(0.5)) / T(M); });
  return x;
}

template <class Space, class T, bool blas, class Precision = recur::Accurate>
void series(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int N = int(state.range(1)), K = int(state.range(2));
  const Space space;
  using Matrix = Kokkos::View<T**, Kokkos::LayoutLeft, Space>;
  const auto x = spread<Space, T>(space, M);
  Matrix C("C", N, K), Y(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Y"), M, K);
  Kokkos::deep_copy(space, C, T(1) / T(N));
  double median = 0;
#ifdef RECUR_ENABLE_KOKKOSKERNELS
  if constexpr (blas) {
    Matrix V(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "V"), M, N);
    median = run(state, space, [&] {
      recur::series_via_blas(space, recur::Legendre{}, C, x, Y, V, recur::Auto{}, Precision{});
    });
  }
#endif
  if constexpr (!blas)
    median = run(state, space,
                 [&] { recur::series(space, recur::Legendre{}, C, x, Y, Precision{}); });
  const double gbs = double(M + M * K + std::int64_t(N) * K) * sizeof(T) / median / 1e9;
  state.counters["GBps"]    = gbs;
  state.counters["of_fill"] = gbs / (double(Y.span()) * sizeof(T) / fill_seconds(space, Y) / 1e9);
  state.counters["GFLOPs"]  = 2.0 * double(M) * N * K / median / 1e9;
}

template <class Space, class T, class Layout, class Precision = recur::Accurate>
void basis(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int d = int(state.range(1)), p = int(state.range(2));
  const Space space;
  const recur::ProductBasis basis(recur::HermiteENormalized{},
                                  recur::MultiIndexSet::total_degree(d, p));
  const auto x = spread<Space, T>(space, M * d);
  const Kokkos::View<T**, Kokkos::LayoutRight, Space> X(x.data(), M, d);
  Kokkos::View<T**, Layout, Space> Psi(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Psi"),
                                       M, basis.size());
  const PairedTimes t = run_paired(state, space, Psi, recur::store_ceiling(space, Psi).method,
                                   [&] { recur::evaluate(space, basis, X, Psi, Precision{}); });
  // The bytes a call moves: Psi written, X read (as the 1-D entries count V and x).
  const double moved        = double(Psi.span() + X.span()) / double(Psi.span());
  state.counters["GBps"]    = double(Psi.span() + X.span()) * sizeof(T) / t.seconds / 1e9;
  state.counters["of_fill"] = moved * t.ceiling_over_call;
}

template <class Space, class T>
void basis_tables(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int d = int(state.range(1)), p = int(state.range(2));
  const Space space;
  std::vector<int> deepest(std::size_t(d) * std::size_t(d), 0);
  for (int k = 0; k < d; ++k) deepest[std::size_t(k) * std::size_t(d) + std::size_t(k)] = p;
  const recur::ProductBasis basis(recur::HermiteENormalized{},
                                  recur::MultiIndexSet::from_table(d, deepest));
  const auto x = spread<Space, T>(space, M * d);
  const Kokkos::View<T**, Kokkos::LayoutRight, Space> X(x.data(), M, d);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> Psi(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Psi"), M, d);
  const double median = run(state, space, [&] { recur::evaluate(space, basis, X, Psi); });
  state.counters["samples_per_s"] = double(M) / median;
}

template <class Space, class T>
void basis_series(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int d = int(state.range(1)), p = int(state.range(2)), K = int(state.range(3));
  const Space space;
  const recur::ProductBasis basis(recur::HermiteENormalized{},
                                  recur::MultiIndexSet::total_degree(d, p));
  const auto x = spread<Space, T>(space, M * d);
  const Kokkos::View<T**, Kokkos::LayoutRight, Space> X(x.data(), M, d);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> C("C", basis.size(), K),
      Y(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "Y"), M, K);
  Kokkos::deep_copy(space, C, T(1) / T(basis.size()));
  const double median = run(state, space, [&] { recur::series(space, basis, C, X, Y); });
  state.counters["samples_per_s"] = double(M) / median;
}

template <class Space, class Family>
void gauss(benchmark::State& state) {
  const int n = int(state.range(0));
  const Space space;
  Kokkos::View<double*, Space> nodes("nodes", n), weights("weights", n);
  const double median =
      run(state, space, [&] { recur::gauss(space, Family{}, n, nodes, weights); });
  state.counters["nodes_per_s"] = n / median;
}

template <class Space, class T>
void project(benchmark::State& state) {
  const int n = int(state.range(0)), K = int(state.range(1));
  const Space space;
  Kokkos::View<T*, Space> nodes("nodes", n), weights("weights", n);
  recur::gauss(space, recur::Legendre{}, n, nodes, weights);
  Kokkos::View<T**, Kokkos::LayoutLeft, Space> f("f", n, K), c("c", n, K), basis("basis", n, n);
  Kokkos::deep_copy(space, f, T(1));
  const double median = run(
      state, space, [&] { recur::project(space, recur::Legendre{}, nodes, weights, f, c); });
  const double gbs = 2.0 * double(n) * n * sizeof(T) / median / 1e9;  // written, then read
  state.counters["GBps"] = gbs;
  state.counters["of_fill"] =
      gbs / (double(basis.span()) * sizeof(T) / fill_seconds(space, basis) / 1e9);
  state.counters["GFLOPs"] = 2.0 * double(n) * n * K / median / 1e9;
}

template <class Space, class T>
void fit(benchmark::State& state) {
  const std::int64_t M = std::int64_t(1) << state.range(0);
  const int N          = int(state.range(1));
  const Space space;
  const auto x = spread<Space, T>(space, M);
  Kokkos::View<T*, Space> y("y", M), c("c", N);
  Kokkos::parallel_for(
      "recur_perf::y", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, M),
      KOKKOS_LAMBDA(std::int64_t i) { y(i) = recur::impl::kokkos_math::sin(T(3) * x(i)); });
  const double median =
      run(state, space, [&] { recur::fit(space, recur::Legendre{}, x, y, N, c); });
  Kokkos::View<double**, Kokkos::LayoutLeft, Space> A(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "A"), M, N + 1);
  const double gbs = double(A.span()) * sizeof(double) / median / 1e9;
  state.counters["GBps"]    = gbs;
  state.counters["of_fill"] = gbs / (double(A.span()) * sizeof(double) / fill_seconds(space, A) / 1e9);
  state.counters["TFLOPs"]  = 2.0 * double(M) * (N + 1) * (N + 1) / median / 1e12;
}

template <class Function>
benchmark::internal::Benchmark* add(const std::string& name, Function function) {
  return benchmark::RegisterBenchmark(name.c_str(), function)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

template <class Space, class T>
void add_typed() {
  const std::string space = std::string(Space::name()) + "/" + type_name<T>() + "/Legendre/";
  const int log2_m        = on_device<Space>() ? 22 : 18;
  for (const bool blas : {false, true}) {
#ifndef RECUR_ENABLE_KOKKOSKERNELS
    if (blas) continue;
#endif
    auto* b = add("series/" + space + (blas ? "blas" : "fused"),
                  blas ? series<Space, T, true> : series<Space, T, false>);
    b->ArgNames({"log2M", "N", "K"});
    for (int K : {1, 8, 64}) b->Args({log2_m, 32, K});
  }
  auto* fast = add("series/" + space + "fused-fast", series<Space, T, false, recur::Fast>);
  fast->ArgNames({"log2M", "N", "K"});
  for (int K : {1, 8, 64}) fast->Args({log2_m, 32, K});
#ifdef RECUR_ENABLE_KOKKOSKERNELS
  auto* blas_fast = add("series/" + space + "blas-fast", series<Space, T, true, recur::Fast>);
  blas_fast->ArgNames({"log2M", "N", "K"});
  for (int K : {1, 8, 64}) blas_fast->Args({log2_m, 32, K});
#endif
  auto* p = add("project/" + space, project<Space, T>);
  p->ArgNames({"n", "K"});
  for (int K : {1, 64}) p->Args({on_device<Space>() ? 4096 : 1024, K});
  add("fit/" + space, fit<Space, T>)->ArgNames({"log2M", "N"})->Args({log2_m + 2, 32});
  const std::string product = std::string("basis/") + Space::name() + "/" + type_name<T>() + "/";
  for (auto* b : {add(product + "LayoutLeft", basis<Space, T, Kokkos::LayoutLeft>),
                  add(product + "LayoutRight", basis<Space, T, Kokkos::LayoutRight>),
                  add(product + "LayoutLeft-Fast", basis<Space, T, Kokkos::LayoutLeft, recur::Fast>),
                  add(product + "LayoutRight-Fast", basis<Space, T, Kokkos::LayoutRight, recur::Fast>)})
    b->ArgNames({"log2M", "d", "p"})->Args({on_device<Space>() ? 22 : 20, 5, 4});
  add("basis-tables/" + std::string(Space::name()) + "/" + type_name<T>(), basis_tables<Space, T>)
      ->ArgNames({"log2M", "d", "p"})
      ->Args({on_device<Space>() ? 22 : 20, 5, 4});
  add("basis-series/" + std::string(Space::name()) + "/" + type_name<T>(), basis_series<Space, T>)
      ->ArgNames({"log2M", "d", "p", "K"})
      ->Args({on_device<Space>() ? 22 : 20, 5, 4, 1});
}

}  // namespace

template <class Space>
void add_uses() {
  add_typed<Space, float>();
  add_typed<Space, double>();
  const std::string gauss_name = std::string("gauss/") + Space::name();
  for (auto* b : {add(gauss_name + "/Legendre", gauss<Space, recur::Legendre>),
                  add(gauss_name + "/Hermite", gauss<Space, recur::Hermite>)})
    b->ArgName("n")->Arg(100)->Arg(1000)->Arg(on_device<Space>() ? 10000 : 2000);
}

template void add_uses<Kokkos::DefaultExecutionSpace>();
#ifdef KOKKOS_ENABLE_CUDA
template void add_uses<HostSpace>();
#endif

}  // namespace recur_perf
