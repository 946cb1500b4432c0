// A study of column slices' store pattern outside the library (plain CUDA,
// no Kokkos): an M x N column-major array (M = 2^24, N = 32, float and
// double) written as N column streams, each thread storing 16 bytes of
// neighbouring rows into every column, K such pieces a thread (the k-th at
// k x 512 bytes past the first of its warp, "warp", or of its block,
// "block"), with plain stores, evict-first stores (st.global.cs, __stcs) or
// stores cached in L2 only (st.global.cg, __stcg); "pure" stores values
// made from the index, "compute" runs a three-term recurrence from a loaded
// x (coefficients in constant memory). Ceilings in the same process:
// cudaMemsetAsync and a one-shot grid of 16-byte stores. Each line: the
// median of 15 timed runs and the fraction of the faster ceiling.
// Build and run on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 perf_tests/column_store_study.cu -o study && ./study
// docs/performance.md, "H200, 2026-12-04: evict-first stores", has its results.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cmath>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
template <class T> struct alignas(16) P { static constexpr int Q = 16 / sizeof(T); T v[Q]; };
__constant__ float ca[64], cc[64];

// LAY 0: warp-interleaved (thread's k-th pack at warp base + k*32*Q + lane*Q)
// LAY 1: block-interleaved (block base + k*blockDim*Q + t*Q)
// ST 0 plain, 1 .cs (evict first), 2 .wt? (no: .cg)
template <class T, int K, int LAY, int ST, bool COMPUTE>
__global__ void pat(T* __restrict__ V, const T* __restrict__ X, long M, int N) {
  constexpr int Q = P<T>::Q;
  long row[K];
  if (LAY == 0) {
    const long g = long(blockIdx.x) * blockDim.x + threadIdx.x;
    const long base = (g / 32) * 32L * Q * K;
    for (int k = 0; k < K; ++k) row[k] = base + k * 32L * Q + (g % 32) * Q;
  } else {
    const long base = long(blockIdx.x) * blockDim.x * Q * K;
    for (int k = 0; k < K; ++k) row[k] = base + long(k) * blockDim.x * Q + threadIdx.x * Q;
  }
  float x[K][Q], u0[K][Q], u1[K][Q];
  if (COMPUTE) {
    for (int k = 0; k < K; ++k) {
      P<T> p = *reinterpret_cast<const P<T>*>(X + row[k]);
      for (int j = 0; j < Q; ++j) { x[k][j] = float(p.v[j]); u0[k][j] = 1.0f; u1[k][j] = 0.0f; }
    }
  }
  for (int n = 0; n < N; ++n) {
    for (int k = 0; k < K; ++k) {
      P<T> p;
      if (COMPUTE) {
        for (int j = 0; j < Q; ++j) p.v[j] = T(u0[k][j]);
      } else {
        for (int j = 0; j < Q; ++j) p.v[j] = T(row[k] + j + n);
      }
      P<T>* a = reinterpret_cast<P<T>*>(V + n * M + row[k]);
      if (ST == 0) *a = p;
      else if (ST == 1) { if (sizeof(T) == 4) __stcs(reinterpret_cast<float4*>(a), *reinterpret_cast<float4*>(&p)); else __stcs(reinterpret_cast<double2*>(a), *reinterpret_cast<double2*>(&p)); }
      else { if (sizeof(T) == 4) __stcg(reinterpret_cast<float4*>(a), *reinterpret_cast<float4*>(&p)); else __stcg(reinterpret_cast<double2*>(a), *reinterpret_cast<double2*>(&p)); }
    }
    if (COMPUTE) {
      const float a = ca[n & 63], c = cc[n & 63];
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < Q; ++j) { float t = fmaf(a * x[k][j], u0[k][j], -c * u1[k][j]); u1[k][j] = u0[k][j]; u0[k][j] = t; }
    }
  }
}
template <class T> __global__ void fill16(T* V, long count) {
  const long i = (long(blockIdx.x) * blockDim.x + threadIdx.x) * P<T>::Q;
  if (i < count) { P<T> p; for (int j = 0; j < P<T>::Q; ++j) p.v[j] = T(1); *reinterpret_cast<P<T>*>(V + i) = p; }
}
template <class F> double med(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  f(); f(); CK(cudaDeviceSynchronize());
  for (int r = 0; r < 15; ++r) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[7];
}
template <class T> void run(const char* tn) {
  const long M = 1L << 24; const int N = 32; const long count = M * N;
  T* V; T* X; CK(cudaMalloc(&V, count * sizeof(T))); CK(cudaMalloc(&X, M * sizeof(T)));
  CK(cudaMemset(X, 0, M * sizeof(T)));
  const double bytes = double(count) * sizeof(T);
  constexpr int Q = P<T>::Q;
  double ms_memset = med([&] { cudaMemsetAsync(V, 1, count * sizeof(T)); });
  double ms_fill = med([&] { fill16<T><<<count / Q / 256, 256>>>(V, count); });
  double ceil = std::min(ms_memset, ms_fill);
  printf("%s memset %.3f ms (%.0f GB/s) fill16 %.3f ms (%.0f GB/s)\n", tn, ms_memset, bytes / ms_memset / 1e6, ms_fill, bytes / ms_fill / 1e6);
#define ONE(K, LAY, ST, C, TB) { double ms = med([&] { pat<T, K, LAY, ST, C><<<M / Q / K / TB, TB>>>(V, X, M, N); }); CK(cudaGetLastError()); \
  printf("%s K=%d lay=%s st=%s %s tb=%d: %.3f ms  %.3f of ceiling\n", tn, K, LAY ? "block" : "warp", ST == 0 ? "plain" : ST == 1 ? "cs" : "cg", C ? "compute" : "pure", TB, ms, ceil / ms); }
  ONE(1, 0, 0, false, 256) ONE(2, 0, 0, false, 256) ONE(4, 0, 0, false, 256) ONE(8, 0, 0, false, 256)
  ONE(2, 1, 0, false, 256) ONE(4, 1, 0, false, 256)
  ONE(1, 0, 1, false, 256) ONE(2, 0, 1, false, 256) ONE(4, 0, 1, false, 256)
  ONE(1, 0, 2, false, 256) ONE(2, 0, 2, false, 256)
  ONE(1, 0, 0, false, 128) ONE(2, 0, 0, false, 128) ONE(1, 0, 0, false, 512)
  ONE(1, 0, 0, true, 256) ONE(2, 0, 0, true, 256) ONE(4, 0, 0, true, 256) ONE(2, 1, 0, true, 256)
  ONE(1, 0, 1, true, 256) ONE(2, 0, 1, true, 256)
  CK(cudaFree(V)); CK(cudaFree(X));
}
int main() {
  float a[64], c[64]; for (int n = 0; n < 64; ++n) { a[n] = 1.0f / std::sqrt(n + 1.0f); c[n] = std::sqrt(n / (n + 1.0f)); }
  cudaMemcpyToSymbol(ca, a, sizeof a); cudaMemcpyToSymbol(cc, c, sizeof c);
  run<float>("float"); run<double>("double"); run<float>("float");
}
