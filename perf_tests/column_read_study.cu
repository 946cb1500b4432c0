// A study of what reading x costs column slices (plain CUDA, no Kokkos):
// an M x N column-major array (M = 2^24, N = 32, float and double) written
// as N column streams, each thread storing 16 bytes of neighbouring rows
// into every column (what recur's lockstep column slices store), evict-first
// (st.global.cs, as recur stores them). The variants separate the parts of
// evaluate's pattern:
//   pure          values from the index, nothing read
//   pure+dep      the same values plus 0 * x, x loaded (the stores wait on it)
//   pure+indep    x loaded but used only after the last store (reads beside
//                 the stores, no wait)
//   rec(idx)      a three-term recurrence from an x made from the index
//   rec(x)        the recurrence from a loaded x (evaluate's pattern)
//   rec(x) dbl    the same with the states in double (float Accurate)
//   rec(x) grid   a grid of a few blocks a multiprocessor striding over the
//                 pieces, the next piece's x loaded before this one's stores
//   rec(x) occ k/SM  the recurrence from a loaded x with the occupancy held
//                 to k blocks a multiprocessor (dynamic shared memory that
//                 the kernel does not use): what recur's lockstep kernel,
//                 at 96-122 registers a thread, gets
//   pure / rec(x) / fill16 V+b
//                 the same kernels with V's data b bytes past the
//                 allocation's start (cudaMalloc's, 2 MiB-aligned): each
//                 warp's 512-byte run of a column b bytes off a 512-byte
//                 boundary (a Kokkos View's data lies 128 bytes past its
//                 allocation's)
//   pure / rec(x) 2^c [warm last | warm plain]
//                 rows in chunks of 2^c, one launch each, each chunk's x
//                 first read into L2 by its own kernel (warm last: with an
//                 L2::evict_last cache policy, which keeps it there past the
//                 evict-first stores; warm plain: plain loads)
// Ceilings in the same process: cudaMemsetAsync and a one-shot grid of
// 16-byte stores. Each line: the median of 15 timed runs, the fraction of
// the faster ceiling for V's bytes, and for V's and x's bytes.
// Build and run on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 perf_tests/column_read_study.cu -o study && ./study
// docs/performance.md, "H100, 2026-12-05, evening: reading x costs column slices
// 14 %" and "2026-12-06: warps' stores aligned" have its results.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x)                                                              \
  do {                                                                     \
    cudaError_t e = (x);                                                   \
    if (e != cudaSuccess) {                                                \
      printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__);          \
      exit(1);                                                             \
    }                                                                      \
  } while (0)
template <class T>
struct alignas(16) P {
  static constexpr int Q = 16 / sizeof(T);
  T v[Q];
};
__constant__ double ca[64], cc[64];

template <class T>
__device__ __forceinline__ void put(T* a, const P<T>& p) {
  if constexpr (sizeof(T) == 4) {
    __stcs(reinterpret_cast<float4*>(a), *reinterpret_cast<const float4*>(&p));
  } else {
    __stcs(reinterpret_cast<double2*>(a), *reinterpret_cast<const double2*>(&p));
  }
}

enum Mode { Pure, PureDep, PureIndep, RecIdx, RecX };

// One piece: rows [row, row + Q) of every column. S: the states' type.
template <class T, class S, int MODE>
__device__ __forceinline__ void piece(T* __restrict__ V, const P<T>& xin, long row, long M, int N) {
  constexpr int Q = P<T>::Q;
  S x[Q], u0[Q], u1[Q];
  for (int j = 0; j < Q; ++j) {
    x[j]  = MODE == RecIdx ? S((row + j) & 1023) * S(1.0 / 512) - S(1) : S(xin.v[j]);
    u0[j] = S(1);
    u1[j] = S(0);
  }
  for (int n = 0; n < N; ++n) {
    P<T> p;
    for (int j = 0; j < Q; ++j) {
      if constexpr (MODE == Pure || MODE == PureIndep) {
        p.v[j] = T(row + j + n);
      } else if constexpr (MODE == PureDep) {
        p.v[j] = T(row + j + n) + T(0) * xin.v[j];
      } else {
        p.v[j] = T(u0[j]);
      }
    }
    put(V + n * M + row, p);
    if constexpr (MODE == RecIdx || MODE == RecX) {
      const S a = S(ca[n & 63]), c = S(cc[n & 63]);
      for (int j = 0; j < Q; ++j) {
        const S t = a * x[j] * u0[j] - c * u1[j];
        u1[j]     = u0[j];
        u0[j]     = t;
      }
    }
  }
}

template <class T, class S, int MODE>
__global__ void one_shot(T* __restrict__ V, const T* __restrict__ X, long M, int N) {
  constexpr int Q = P<T>::Q;
  const long row  = (long(blockIdx.x) * blockDim.x + threadIdx.x) * Q;
  P<T> xin{};
  if (MODE != Pure && MODE != RecIdx) xin = *reinterpret_cast<const P<T>*>(X + row);
  piece<T, S, MODE>(V, xin, row, M, N);
  if (MODE == PureIndep && xin.v[0] == T(12345)) V[0] = T(1);
}

// Blocks stride over the pieces; the next piece's x is loaded first.
template <class T, class S>
__global__ void grid(T* __restrict__ V, const T* __restrict__ X, long M, int N) {
  constexpr int Q    = P<T>::Q;
  const long step    = long(gridDim.x) * blockDim.x * Q;
  long row           = (long(blockIdx.x) * blockDim.x + threadIdx.x) * Q;
  P<T> xin           = *reinterpret_cast<const P<T>*>(X + row);
  for (; row < M; row += step) {
    P<T> next{};
    if (row + step < M) next = *reinterpret_cast<const P<T>*>(X + row + step);
    piece<T, S, RecX>(V, xin, row, M, N);
    xin = next;
  }
}

// x's rows [first, first + count) brought into L2 (loads kept in L2 past
// the stores, which are marked evict-first): the reads of a chunk in one
// burst before its stores.
template <class T, bool LAST>
__global__ void warm(const T* __restrict__ X, T* __restrict__ sink, long first, long count) {
  constexpr int Q = P<T>::Q;
  const long row  = first + (long(blockIdx.x) * blockDim.x + threadIdx.x) * Q;
  if (row < first + count) {
    P<T> p;
    if constexpr (!LAST) {
      p = *reinterpret_cast<const P<T>*>(X + row);
      if (p.v[0] == T(12345)) sink[0] = T(1);
      return;
    }
    unsigned long long policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    if constexpr (sizeof(T) == 4) {
      float4 v;
      asm volatile("ld.global.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(X + row), "l"(policy));
      p = *reinterpret_cast<P<T>*>(&v);
    } else {
      double2 v;
      asm volatile("ld.global.L2::cache_hint.v2.f64 {%0,%1}, [%2], %3;"
                   : "=d"(v.x), "=d"(v.y) : "l"(X + row), "l"(policy));
      p = *reinterpret_cast<P<T>*>(&v);
    }
    if (p.v[0] == T(12345)) sink[0] = T(1);
  }
}
// The recurrence for rows [first, first + count).
template <class T, class S, int MODE>
__global__ void chunk(T* __restrict__ V, const T* __restrict__ X, long first, long M, int N) {
  constexpr int Q = P<T>::Q;
  const long row  = first + (long(blockIdx.x) * blockDim.x + threadIdx.x) * Q;
  P<T> xin{};
  if (MODE == RecX) xin = *reinterpret_cast<const P<T>*>(X + row);
  piece<T, S, MODE>(V, xin, row, M, N);
}

template <class T>
__global__ void fill16(T* V, long count) {
  const long i = (long(blockIdx.x) * blockDim.x + threadIdx.x) * P<T>::Q;
  if (i < count) {
    P<T> p;
    for (int j = 0; j < P<T>::Q; ++j) p.v[j] = T(1);
    put(V + i, p);
  }
}
template <class F>
double med(F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  f();
  f();
  CK(cudaDeviceSynchronize());
  for (int r = 0; r < 15; ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[7];
}
template <class T>
void run(const char* tn) {
  const long M = 1L << 24;
  const int N  = 32;
  const long count = M * N;
  T *V, *X;
  CK(cudaMalloc(&V, count * sizeof(T) + 512));
  CK(cudaMalloc(&X, M * sizeof(T)));
  {
    std::vector<T> x(M);
    for (long i = 0; i < M; ++i) x[i] = T((i & 1023) / 512.0 - 1);
    CK(cudaMemcpy(X, x.data(), M * sizeof(T), cudaMemcpyHostToDevice));
  }
  const double bytes = double(count) * sizeof(T), xbytes = double(M) * sizeof(T);
  constexpr int Q    = P<T>::Q;
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const double ms_memset = med([&] { cudaMemsetAsync(V, 1, count * sizeof(T)); });
  const double ms_fill   = med([&] { fill16<T><<<count / Q / 256, 256>>>(V, count); });
  const double ceil      = std::min(ms_memset, ms_fill);
  printf("%s memset %.3f ms (%.0f GB/s) fill16 %.3f ms (%.0f GB/s)\n", tn, ms_memset,
         bytes / ms_memset / 1e6, ms_fill, bytes / ms_fill / 1e6);
  const auto line = [&](const char* what, int tb, double ms) {
    CK(cudaGetLastError());
    printf("%s %-14s tb=%4d: %.3f ms  %.3f of ceiling (V), %.3f (V and x)\n", tn, what, tb, ms,
           ceil / ms, ceil * (bytes + xbytes) / bytes / ms);
  };
#define SHOT(NAME, S, MODE, TB) \
  line(NAME, TB, med([&] { one_shot<T, S, MODE><<<M / Q / TB, TB>>>(V, X, M, N); }));
  for (int tb : {256}) {
    SHOT("pure", float, Pure, tb)
    SHOT("pure+dep", float, PureDep, tb)
    SHOT("pure+indep", float, PureIndep, tb)
    SHOT("rec(idx)", float, RecIdx, tb)
    SHOT("rec(x)", float, RecX, tb)
    SHOT("rec(x) dbl", double, RecX, tb)
  }
  // V's data off the allocation's start.
  for (int b : {128, 256, 384}) {
    T* const at = V + b / int(sizeof(T));
    char name[48];
    snprintf(name, sizeof name, "fill16 V+%d", b);
    line(name, 256, med([&] { fill16<T><<<count / Q / 256, 256>>>(at, count); }));
    snprintf(name, sizeof name, "pure V+%d", b);
    line(name, 256, med([&] { one_shot<T, float, Pure><<<M / Q / 256, 256>>>(at, X, M, N); }));
    snprintf(name, sizeof name, "rec(x) V+%d", b);
    line(name, 256, med([&] { one_shot<T, float, RecX><<<M / Q / 256, 256>>>(at, X, M, N); }));
  }
  // Occupancy held down: k blocks of tb threads a multiprocessor.
  int smem_sm;
  CK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  CK(cudaFuncSetAttribute(one_shot<T, float, RecX>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_sm - 1024));
  CK(cudaFuncSetAttribute(one_shot<T, double, RecX>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_sm - 1024));
  for (int tb : {128, 256}) {
    for (int k : {2, 4, 8}) {
      if (tb * k > 2048) continue;
      const int smem = smem_sm / k - 1024 - 512;  // k blocks fit, k + 1 do not
      char name[48];
      snprintf(name, sizeof name, "rec(x) occ %d/SM", k);
      line(name, tb, med([&] { one_shot<T, float, RecX><<<M / Q / tb, tb, smem>>>(V, X, M, N); }));
      snprintf(name, sizeof name, "rec(x) dbl occ %d/SM", k);
      line(name, tb, med([&] { one_shot<T, double, RecX><<<M / Q / tb, tb, smem>>>(V, X, M, N); }));
    }
  }
  for (int per : {4, 8, 16}) {
    char name[32];
    snprintf(name, sizeof name, "grid %d/SM", per);
    line(name, 256, med([&] { grid<T, float><<<sms * per, 256>>>(V, X, M, N); }));
    snprintf(name, sizeof name, "grid %d/SM dbl", per);
    line(name, 256, med([&] { grid<T, double><<<sms * per, 256>>>(V, X, M, N); }));
  }
  // Rows in chunks of 2^c: each chunk's x warmed into L2 first (or not).
  for (int c : {20, 21, 22}) {
    const long L = 1L << c;
    for (int warmed : {0, 1, 2, 1, 2}) {
      for (int mode : {0, 1}) {  // 0: pure stores, 1: rec(x)
        const double ms = med([&] {
          for (long first = 0; first < M; first += L) {
            if (warmed == 1) warm<T, true><<<L / Q / 256, 256>>>(X, V, first, L);
            if (warmed == 2) warm<T, false><<<L / Q / 256, 256>>>(X, V, first, L);
            if (mode) {
              chunk<T, float, RecX><<<L / Q / 256, 256>>>(V, X, first, M, N);
            } else {
              chunk<T, float, Pure><<<L / Q / 256, 256>>>(V, X, first, M, N);
            }
          }
        });
        char name[48];
        snprintf(name, sizeof name, "%s 2^%d%s", mode ? "rec(x)" : "pure", c, warmed == 1 ? " warm last" : warmed == 2 ? " warm plain" : "");
        line(name, 256, ms);
      }
    }
  }
  CK(cudaFree(V));
  CK(cudaFree(X));
}
int main() {
  double a[64], c[64];
  for (int n = 0; n < 64; ++n) {
    a[n] = 1.0 / std::sqrt(n + 1.0);
    c[n] = std::sqrt(n / (n + 1.0));
  }
  CK(cudaMemcpyToSymbol(ca, a, sizeof a));
  CK(cudaMemcpyToSymbol(cc, c, sizeof c));
  run<float>("float");
  run<double>("double");
  run<float>("float");
}
