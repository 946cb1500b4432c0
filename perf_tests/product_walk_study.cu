// A study of product-basis kernels for one shape, outside the library (plain
// CUDA, no Kokkos): Psi(i, j) = prod_k h_{alpha_jk}(x_ik) for orthonormal
// Hermite h_n, d = 5, total degree <= 4 (P = 126), M = 2^22, tables in
// double, float and double results. It measures, in one process:
//  - ceilings: cudaMemsetAsync, 16-byte fills (grid-stride and one-shot),
//    and pure stores of the same pattern as LayoutLeft results (P column
//    streams, 1 or 2 values a thread a column);
//  - "recipe columns": a value from its four table entries (the library's
//    value-by-value kernel before the walk);
//  - "tree columns" / "tree2 columns": the walk (ProductStructure::program
//    in recur/impl/product_basis.hpp): one table entry and one multiply a
//    value, depth first over the trie of the multi-indices; tree2 reads the
//    program one step ahead, from global memory (mode 0) or a copy in shared
//    memory (mode 1); mode 2 fills the tables alone;
//  - "tree3 columns": tree2 in persistent blocks (PER a multiprocessor), each
//    thread filling its own samples' tables and reading the next block's x
//    before it walks the current one;
//  - "tree rows" / "tree2 rows": the walk into rows staged per warp in shared
//    memory, then stored in 16-byte pieces (LayoutRight).
// Each line: median of 9 timed runs, TB/s of the result's bytes, and the
// fraction of the fastest ceiling; "check" lines: the largest relative error
// against a long double reference at a few samples.
// Build and run on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 perf_tests/product_walk_study.cu -o study && ./study
// docs/multivariate.md has its results.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <map>
#include <functional>
#include <array>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

constexpr int D = 5, PDEG = 4;
constexpr int MAXD = 4;

struct Op { unsigned short t, children; int j; };  // 8 bytes

template <class T, int N> struct alignas(sizeof(T) * N) Pack { T v[N]; };

// ---------------------------------------------------------------- tables
__constant__ double ca[D * PDEG], cb[D * PDEG];
// tab[t * B + b], t = k * PDEG + (n - 1) for degree n = 1..PDEG of dim k.
__device__ inline void fill_tables(double* tab, const double* x, long M, long i0, int B) {
  for (int b = threadIdx.x; b < B; b += blockDim.x) {
    for (int k = 0; k < D; ++k) {
      const double xv = x[k * M + i0 + b];
      double h0 = 1.0, h1 = xv;
      tab[(k * PDEG) * B + b] = h1;
#pragma unroll
      for (int n = 1; n < PDEG; ++n) {
        const double h2 = ca[k * PDEG + n] * xv * h1 - cb[k * PDEG + n] * h0;
        h0 = h1; h1 = h2;
        tab[(k * PDEG + n) * B + b] = h1;
      }
    }
  }
}

// ---------------------------------------------------------------- tree, columns
template <int L, class T, int SPT>
__device__ __forceinline__ void visit(const Op*& op, int count, const double (&parent)[SPT],
                                      const double* tab, int B, int s0, T* out, long ld) {
  for (int c = 0; c < count; ++c) {
    const Op o = *op++;
    double v[SPT];
    const double* t = tab + o.t * B + s0;
#pragma unroll
    for (int s = 0; s < SPT; ++s) v[s] = parent[s] * t[s];
    if (o.j >= 0) {
      Pack<T, SPT> pk;
#pragma unroll
      for (int s = 0; s < SPT; ++s) pk.v[s] = T(v[s]);
      *reinterpret_cast<Pack<T, SPT>*>(out + o.j * ld) = pk;
    }
    if constexpr (L + 1 < MAXD) visit<L + 1, T, SPT>(op, o.children, v, tab, B, s0, out, ld);
  }
}

template <class T, int SPT, int TPB>
__global__ void __launch_bounds__(TPB) tree_columns(const double* x, long M, const Op* prog, int roots,
                                                    int root_j, T* Psi) {
  extern __shared__ double tab[];
  constexpr int B = TPB * SPT;
  const long i0 = long(blockIdx.x) * B;
  fill_tables(tab, x, M, i0, B);
  __syncthreads();
  const int s0 = threadIdx.x * SPT;
  double base[SPT];
#pragma unroll
  for (int s = 0; s < SPT; ++s) base[s] = 1.0;
  T* out = Psi + i0 + s0;
  if (root_j >= 0) {
    Pack<T, SPT> pk;
    for (int s = 0; s < SPT; ++s) pk.v[s] = T(base[s]);
    *reinterpret_cast<Pack<T, SPT>*>(out + root_j * M) = pk;
  }
  const Op* op = prog;
  visit<0, T, SPT>(op, roots, base, tab, B, s0, out, M);
}

template <int L, class T, int SPT>
__device__ __forceinline__ void visitp(const Op* prog, int& q, Op& next, int count, const double (&parent)[SPT],
                                      const double* tab, int B, int s0, T* out, long ld) {
  for (int c = 0; c < count; ++c) {
    const Op o = next;
    next = prog[++q];
    double v[SPT];
    const double* t = tab + o.t * B + s0;
#pragma unroll
    for (int s = 0; s < SPT; ++s) v[s] = parent[s] * t[s];
    if (o.j >= 0) {
      Pack<T, SPT> pk;
#pragma unroll
      for (int s = 0; s < SPT; ++s) pk.v[s] = T(v[s]);
      *reinterpret_cast<Pack<T, SPT>*>(out + o.j * ld) = pk;
    }
    if constexpr (L + 1 < MAXD) visitp<L + 1, T, SPT>(prog, q, next, o.children, v, tab, B, s0, out, ld);
  }
}

// MODE 0: program in global, prefetched; 1: program in shared, prefetched; 2: tables only
template <class T, int SPT, int TPB, int MODE>
__global__ void __launch_bounds__(TPB) tree_columns2(const double* x, long M, const Op* gprog, int nprog, int roots,
                                                    int root_j, T* Psi) {
  extern __shared__ double tab[];
  constexpr int B = TPB * SPT;
  const long i0 = long(blockIdx.x) * B;
  fill_tables(tab, x, M, i0, B);
  Op* sprog = reinterpret_cast<Op*>(tab + D * PDEG * B);
  if (MODE == 1) for (int q = threadIdx.x; q <= nprog; q += TPB) sprog[q] = q < nprog ? gprog[q] : Op{0, 0, -1};
  __syncthreads();
  const int s0 = threadIdx.x * SPT;
  double base[SPT];
#pragma unroll
  for (int s = 0; s < SPT; ++s) base[s] = 1.0;
  T* out = Psi + i0 + s0;
  if (MODE == 2) {
    double acc = 0;
    for (int t = 0; t < D * PDEG; ++t) acc += tab[t * B + s0];
    if (acc == 12345.678) out[0] = T(acc);
    return;
  }
  if (root_j >= 0) {
    Pack<T, SPT> pk;
    for (int s = 0; s < SPT; ++s) pk.v[s] = T(base[s]);
    *reinterpret_cast<Pack<T, SPT>*>(out + root_j * M) = pk;
  }
  const Op* prog = MODE == 1 ? sprog : gprog;
  int q = 0;
  Op next = prog[0];
  visitp<0, T, SPT>(prog, q, next, roots, base, tab, B, s0, out, M);
}

// Persistent blocks; each thread fills its own samples' tables (no barrier),
// and loads the next block's x before walking the current one.
template <class T, int SPT, int TPB>
__global__ void __launch_bounds__(TPB) tree_columns3(const double* x, long M, const Op* gprog, int nprog, int roots,
                                                     int root_j, T* Psi) {
  extern __shared__ double tab[];
  constexpr int B = TPB * SPT;
  Op* sprog = reinterpret_cast<Op*>(tab + D * PDEG * B);
  for (int q = threadIdx.x; q <= nprog; q += TPB) sprog[q] = q < nprog ? gprog[q] : Op{0, 0, -1};
  __syncthreads();
  const long blocks = M / B;
  const int s0 = threadIdx.x * SPT;
  double xr[D][SPT];
  long blk = blockIdx.x;
  if (blk < blocks)
    for (int k = 0; k < D; ++k)
      for (int s = 0; s < SPT; ++s) xr[k][s] = x[k * M + blk * B + s0 + s];
  for (; blk < blocks; blk += gridDim.x) {
    for (int k = 0; k < D; ++k)
      for (int s = 0; s < SPT; ++s) {
        const double xv = xr[k][s];
        double h0 = 1.0, h1 = xv;
        tab[(k * PDEG) * B + s0 + s] = h1;
#pragma unroll
        for (int n = 1; n < PDEG; ++n) {
          const double h2 = ca[k * PDEG + n] * xv * h1 - cb[k * PDEG + n] * h0;
          h0 = h1; h1 = h2;
          tab[(k * PDEG + n) * B + s0 + s] = h1;
        }
      }
    const long nb = blk + gridDim.x;
    if (nb < blocks)
      for (int k = 0; k < D; ++k)
        for (int s = 0; s < SPT; ++s) xr[k][s] = x[k * M + nb * B + s0 + s];
    double base[SPT];
#pragma unroll
    for (int s = 0; s < SPT; ++s) base[s] = 1.0;
    T* out = Psi + blk * B + s0;
    if (root_j >= 0) {
      Pack<T, SPT> pk;
      for (int s = 0; s < SPT; ++s) pk.v[s] = T(base[s]);
      *reinterpret_cast<Pack<T, SPT>*>(out + root_j * M) = pk;
    }
    int q = 0;
    Op next = sprog[0];
    visitp<0, T, SPT>(sprog, q, next, roots, base, tab, B, s0, out, M);
  }
}

// ---------------------------------------------------------------- tree, rows (staging per warp)
template <int L, class T>
__device__ __forceinline__ void visit_rows(const Op*& op, int count, double parent,
                                           const double* tab, int B, int b, T* stage) {
  for (int c = 0; c < count; ++c) {
    const Op o = *op++;
    const double v = parent * tab[o.t * B + b];
    if (o.j >= 0) stage[o.j] = T(v);
    if constexpr (L + 1 < MAXD) visit_rows<L + 1, T>(op, o.children, v, tab, B, b, stage);
  }
}

template <class T, int TPB>
__global__ void __launch_bounds__(TPB) tree_rows(const double* x, long M, const Op* prog, int roots,
                                                 int root_j, int P, T* Psi) {
  extern __shared__ double tab[];
  constexpr int B = TPB;
  const long i0 = long(blockIdx.x) * B;
  fill_tables(tab, x, M, i0, B);
  T* stages = reinterpret_cast<T*>(tab + D * PDEG * B);
  __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T* stage = stages + long(warp) * 32 * P;
  T* row = stage + lane * P;
  if (root_j >= 0) row[root_j] = T(1.0);
  const Op* op = prog;
  visit_rows<0, T>(op, roots, 1.0, tab, B, threadIdx.x, row);
  __syncwarp();
  using V4 = Pack<T, 16 / sizeof(T)>;
  const V4* from = reinterpret_cast<const V4*>(stage);
  V4* to = reinterpret_cast<V4*>(Psi + (i0 + warp * 32) * P);
  const int n = 32 * P * sizeof(T) / 16;
  for (int q = lane; q < n; q += 32) to[q] = from[q];
}

template <int L, class T>
__device__ __forceinline__ void visit_rows2(const Op* prog, int& q, Op& next, int count, double parent,
                                           const double* tab, int B, int b, T* stage) {
  for (int c = 0; c < count; ++c) {
    const Op o = next;
    next = prog[++q];
    const double v = parent * tab[o.t * B + b];
    if (o.j >= 0) stage[o.j] = T(v);
    if constexpr (L + 1 < MAXD) visit_rows2<L + 1, T>(prog, q, next, o.children, v, tab, B, b, stage);
  }
}
// rows: each warp stages its 32 rows (pitch P | 1), then stores the run in 16-byte packs.
template <class T, int TPB>
__global__ void __launch_bounds__(TPB) tree_rows2(const double* x, long M, const Op* gprog, int nprog, int roots,
                                                 int root_j, int P, T* Psi) {
  extern __shared__ double tab[];
  constexpr int B = TPB;
  const long i0 = long(blockIdx.x) * B;
  fill_tables(tab, x, M, i0, B);
  Op* sprog = reinterpret_cast<Op*>(tab + D * PDEG * B);
  for (int q = threadIdx.x; q <= nprog; q += TPB) sprog[q] = q < nprog ? gprog[q] : Op{0, 0, -1};
  const int pitch = P | 1;
  T* stages = reinterpret_cast<T*>(sprog + nprog + 1);
  __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T* stage = stages + long(warp) * 32 * pitch;
  T* row = stage + lane * pitch;
  if (root_j >= 0) row[root_j] = T(1.0);
  int q = 0;
  Op next = sprog[0];
  visit_rows2<0, T>(sprog, q, next, roots, 1.0, tab, B, threadIdx.x, row);
  __syncwarp();
  constexpr int W = 16 / sizeof(T);
  using V4 = Pack<T, W>;
  V4* to = reinterpret_cast<V4*>(Psi + (i0 + warp * 32) * P);
  const int n = 32 * P / W;
  for (int e4 = lane; e4 < n; e4 += 32) {
    int e = e4 * W, b = e / P, j = e - b * P;
    V4 v;
#pragma unroll
    for (int w = 0; w < W; ++w) {
      v.v[w] = stage[b * pitch + j];
      if (++j == P) { j = 0; ++b; }
    }
    to[e4] = v;
  }
}

// ---------------------------------------------------------------- recipes (today's kernel, roughly)
template <class T, int TPB>
__global__ void __launch_bounds__(TPB) recipe_columns(const double* x, long M, const uint64_t* recipe,
                                                      int P, T* Psi) {
  extern __shared__ double tab[];
  constexpr int B = TPB;
  const long i0 = long(blockIdx.x) * B;
  fill_tables(tab, x, M, i0, B);
  for (int b = threadIdx.x; b < B; b += blockDim.x) tab[D * PDEG * B + b] = 1.0;
  __syncthreads();
  const int b = threadIdx.x;
  T* out = Psi + i0 + b;
  for (int j = 0; j < P; ++j, out += M) {
    const uint64_t r = recipe[j];
    double v = tab[(r & 0xffff) * B + b] * tab[((r >> 16) & 0xffff) * B + b] *
               tab[((r >> 32) & 0xffff) * B + b] * tab[(r >> 48) * B + b];
    *out = T(v);
  }
}

// ---------------------------------------------------------------- pure stores
template <class T, int SPT, int TPB>
__global__ void __launch_bounds__(TPB) store_columns(long M, int P, T* Psi) {
  constexpr int B = TPB * SPT;
  const long i0 = long(blockIdx.x) * B + threadIdx.x * SPT;
  Pack<T, SPT> pk;
  for (int s = 0; s < SPT; ++s) pk.v[s] = T(1.5);
  for (int j = 0; j < P; ++j) *reinterpret_cast<Pack<T, SPT>*>(Psi + j * M + i0) = pk;
}
template <class T>
__global__ void fill16(T* p, long n) {
  using V4 = Pack<T, 16 / sizeof(T)>;
  V4 v;
  for (int s = 0; s < int(16 / sizeof(T)); ++s) v.v[s] = T(1.5);
  V4* q = reinterpret_cast<V4*>(p);
  const long m = n / (16 / sizeof(T));
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < m; i += long(gridDim.x) * blockDim.x) q[i] = v;
}
template <class T>
__global__ void fill16_oneshot(T* p, long n) {
  using V4 = Pack<T, 16 / sizeof(T)>;
  V4 v;
  for (int s = 0; s < int(16 / sizeof(T)); ++s) v.v[s] = T(1.5);
  const long i = blockIdx.x * long(blockDim.x) + threadIdx.x;
  if (i < n / long(16 / sizeof(T))) reinterpret_cast<V4*>(p)[i] = v;
}

// ---------------------------------------------------------------- host
struct Set {
  std::vector<std::array<int, D>> a;
};
static void total_degree(std::vector<std::array<int, D>>& out) {
  for (int deg = 0; deg <= PDEG; ++deg) {
    std::array<int, D> a{};
    std::function<void(int, int)> rec = [&](int k, int left) {
      if (k == D - 1) { a[k] = left; out.push_back(a); return; }
      for (int v = left; v >= 0; --v) { a[k] = v; rec(k + 1, left - v); }
    };
    rec(0, deg);
  }
}

struct Node { int t = -1, j = -1; std::map<std::pair<int,int>, int> kids; };

static float ms_of(std::function<void()> f, int reps = 9) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  f(); f(); CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float m; cudaEventElapsedTime(&m, e0, e1); t.push_back(m);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const long M = 1L << 22;
  std::vector<std::array<int, D>> set;
  total_degree(set);
  const int P = int(set.size());
  // trie: path of (dim, degree) of the non-zero entries in dimension order
  std::vector<Node> nodes(1);
  int root_j = -1;
  for (int j = 0; j < P; ++j) {
    int cur = 0;
    bool any = false;
    for (int k = 0; k < D; ++k)
      if (set[j][k] > 0) {
        any = true;
        auto key = std::make_pair(k, set[j][k]);
        auto it = nodes[cur].kids.find(key);
        if (it == nodes[cur].kids.end()) {
          nodes.push_back(Node{});
          const int id = int(nodes.size()) - 1;
          nodes[id].t = k * PDEG + set[j][k] - 1;
          nodes[cur].kids[key] = id;
          cur = id;
        } else cur = it->second;
      }
    if (!any) root_j = j; else nodes[cur].j = j;
  }
  std::vector<Op> prog;
  std::function<void(int)> emit = [&](int n) {
    for (auto& kv : nodes[n].kids) {
      const Node& c = nodes[kv.second];
      prog.push_back(Op{(unsigned short)c.t, (unsigned short)c.kids.size(), c.j});
      emit(kv.second);
    }
  };
  emit(0);
  const int roots = int(nodes[0].kids.size());
  std::vector<uint64_t> recipe(P);
  for (int j = 0; j < P; ++j) {
    uint64_t r = 0; int f = 0;
    for (int k = 0; k < D; ++k) if (set[j][k] > 0) r |= uint64_t(k * PDEG + set[j][k] - 1) << (16 * f++);
    for (; f < 4; ++f) r |= uint64_t(D * PDEG) << (16 * f);
    recipe[j] = r;
  }
  printf("P=%d nodes=%zu roots=%d root_j=%d\n", P, prog.size(), roots, root_j);

  std::vector<double> hx(D * M);
  srand(1);
  for (auto& v : hx) v = 4.0 * (rand() / double(RAND_MAX)) - 2.0;
  double* x; Op* dprog; uint64_t* drecipe; void* Psi;
  CK(cudaMalloc(&x, hx.size() * 8));
  CK(cudaMemcpy(x, hx.data(), hx.size() * 8, cudaMemcpyHostToDevice));
  const int nprog = int(prog.size());
  prog.push_back(Op{0, 0, -1});  // prefetch pad
  CK(cudaMalloc(&dprog, prog.size() * sizeof(Op)));
  CK(cudaMemcpy(dprog, prog.data(), prog.size() * sizeof(Op), cudaMemcpyHostToDevice));
  {
    double a[D * PDEG], b[D * PDEG];
    for (int k = 0; k < D; ++k) for (int n = 0; n < PDEG; ++n) { a[k * PDEG + n] = 1 / std::sqrt(double(n + 1)); b[k * PDEG + n] = std::sqrt(double(n)) / std::sqrt(double(n + 1)); }
    CK(cudaMemcpyToSymbol(ca, a, sizeof a)); CK(cudaMemcpyToSymbol(cb, b, sizeof b));
  }
  CK(cudaMalloc(&drecipe, P * 8));
  CK(cudaMemcpy(drecipe, recipe.data(), P * 8, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&Psi, M * P * 8));

  auto reference = [&](long i, int j) {
    long double v = 1;
    for (int k = 0; k < D; ++k) {
      long double xv = hx[k * M + i], h0 = 1, h1 = xv;
      if (set[j][k] == 0) continue;
      for (int n = 1; n < set[j][k]; ++n) { long double h2 = (xv * h1 - sqrtl(n) * h0) / sqrtl(n + 1); h0 = h1; h1 = h2; }
      v *= h1;
    }
    return double(v);
  };
  auto check = [&](const char* name, bool rows, int bytes) {
    std::vector<char> h(M * P * bytes);
    CK(cudaMemcpy(h.data(), Psi, h.size(), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (long i : {0L, 1L, 31L, 127L, 128L, 511L, 4097L, M / 2 + 3, M - 1})
      for (int j = 0; j < P; ++j) {
        const long e = rows ? i * P + j : j * M + i;
        const double got = bytes == 4 ? double(reinterpret_cast<float*>(h.data())[e]) : reinterpret_cast<double*>(h.data())[e];
        const double ref = reference(i, j);
        worst = std::max(worst, std::fabs(got - ref) / std::max(1.0, std::fabs(ref)));
      }
    printf("  check %-28s worst %.2e\n", name, worst);
  };

  for (int bytes : {4, 8}) {
    const double gb = double(M) * P * bytes / 1e9;
    auto report = [&](const char* name, float ms, double ceil_ms) {
      printf("%s %-32s %7.3f ms %7.2f TB/s  %.3f of ceiling\n", bytes == 4 ? "float " : "double", name, ms, gb / ms,
             ceil_ms / ms);
    };
    const long n = M * P;
    const float t_memset = ms_of([&] { cudaMemsetAsync(Psi, 0x3f, n * bytes); });
    float t_fill, t_one;
    if (bytes == 4) {
      t_fill = ms_of([&] { fill16<float><<<132 * 16, 256>>>((float*)Psi, n); });
      t_one = ms_of([&] { fill16_oneshot<float><<<(n / 4 + 255) / 256, 256>>>((float*)Psi, n); });
    } else {
      t_fill = ms_of([&] { fill16<double><<<132 * 16, 256>>>((double*)Psi, n); });
      t_one = ms_of([&] { fill16_oneshot<double><<<(n / 2 + 255) / 256, 256>>>((double*)Psi, n); });
    }
    const double c = std::min(t_memset, std::min(t_fill, t_one));
    report("memset", t_memset, c);
    report("fill16 grid-stride", t_fill, c);
    report("fill16 one-shot", t_one, c);

    auto run_all = [&](auto tag) {
      using T = decltype(tag);
      const auto tabbytes = [](int B) { return size_t(D * PDEG + 1) * B * 8; };
#define STORECOL(SPT, TPB) report("store columns " #SPT "x" #TPB, ms_of([&] { store_columns<T, SPT, TPB><<<M / (SPT * TPB), TPB>>>(M, P, (T*)Psi); }), c)
      STORECOL(1, 128); STORECOL(2, 128);
#define TREECOL(SPT, TPB) { auto k = tree_columns<T, SPT, TPB>; const size_t sh = tabbytes(SPT * TPB); \
      CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sh))); \
      report("tree columns " #SPT "x" #TPB, ms_of([&] { k<<<M / (SPT * TPB), TPB, sh>>>(x, M, dprog, roots, root_j, (T*)Psi); }), c); \
      check("tree columns " #SPT "x" #TPB, false, sizeof(T)); }
      TREECOL(1, 128); TREECOL(2, 128);
#define RECIPE(TPB) { auto k = recipe_columns<T, TPB>; const size_t sh = tabbytes(TPB); \
      report("recipe columns 1x" #TPB, ms_of([&] { k<<<M / TPB, TPB, sh>>>(x, M, drecipe, P, (T*)Psi); }), c); \
      check("recipe columns", false, sizeof(T)); }
      RECIPE(128);
#define TREECOL2(SPT, TPB, MODE) { auto k = tree_columns2<T, SPT, TPB, MODE>; const size_t sh = tabbytes(SPT * TPB) + (nprog + 1) * 8; \
      CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sh))); \
      report("tree2 columns " #SPT "x" #TPB " mode " #MODE, ms_of([&] { k<<<M / (SPT * TPB), TPB, sh>>>(x, M, dprog, nprog, roots, root_j, (T*)Psi); }), c); \
      if (MODE != 2) check("tree2", false, sizeof(T)); }
      TREECOL2(1, 128, 2); TREECOL2(1, 128, 0); TREECOL2(1, 128, 1); TREECOL2(1, 64, 1); TREECOL2(1, 256, 1); TREECOL2(2, 64, 1); TREECOL2(2, 128, 1); TREECOL2(4, 64, 1);
      int sms = 0;
      CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
#define TREECOL3(SPT, TPB, PER) { auto k = tree_columns3<T, SPT, TPB>; const size_t sh = tabbytes(SPT * TPB) + (nprog + 1) * 8; \
      CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sh))); \
      report("tree3 columns " #SPT "x" #TPB " x" #PER "/SM", ms_of([&] { k<<<sms * PER, TPB, sh>>>(x, M, dprog, nprog, roots, root_j, (T*)Psi); }), c); \
      check("tree3", false, sizeof(T)); }
      TREECOL3(1, 128, 8); TREECOL3(1, 128, 12); TREECOL3(1, 256, 6); TREECOL3(2, 128, 4); TREECOL3(2, 128, 6); TREECOL3(2, 64, 12); TREECOL3(1, 64, 16);
#define TREEROW(TPB) { auto k = tree_rows<T, TPB>; const size_t sh = tabbytes(TPB) + size_t(TPB) * P * sizeof(T); \
      CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sh))); \
      report("tree rows 1x" #TPB, ms_of([&] { k<<<M / TPB, TPB, sh>>>(x, M, dprog, roots, root_j, P, (T*)Psi); }), c); \
      check("tree rows 1x" #TPB, true, sizeof(T)); }
      TREEROW(32);
#define TREEROW2(TPB) { auto k = tree_rows2<T, TPB>; const size_t sh = tabbytes(TPB) + (nprog + 1) * 8 + size_t(TPB) * (P | 1) * sizeof(T); \
      CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sh))); \
      report("tree2 rows 1x" #TPB, ms_of([&] { k<<<M / TPB, TPB, sh>>>(x, M, dprog, nprog, roots, root_j, P, (T*)Psi); }), c); \
      check("tree2 rows 1x" #TPB, true, sizeof(T)); }
      TREEROW2(32); TREEROW2(64); TREEROW2(128);
    };
    if (bytes == 4) run_all(float{}); else run_all(double{});
  }
  return 0;
}
