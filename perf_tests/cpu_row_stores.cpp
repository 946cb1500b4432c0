// Rows of V = M x N floats (M = 2^20, N = 32, LayoutRight, 128 MiB) made by
// the recurrence of He_n(x)/sqrt(n!) in plain float, 8 or 16 rows at a time
// with 16 columns of them in registers, transposed there and stored with
// non-temporal stores, each thread its half of the rows, fastest of 60 runs:
// how close rows computed this way come to the streamed fill, and which
// store orders keep them there (docs/performance.md, "CPU, 2026-12-04,
// night"; recur's cpu_lanes::rows is the first form).
//   - fill: the streamed fill (non-temporal 32-byte stores in address order);
//   - ymm rows: 8 rows (one vector of 8 floats) a time, two 8 x 8 transposes,
//     each row's 64 bytes stored as two 32-byte stores one after the other;
//   - ymm halves: the same values, every row's first 32 bytes, then every
//     row's second 32 bytes (lines left half written for a while);
//   - ymm + spills: the first form with four vectors stored to and loaded
//     back from the stack every 16 columns (plain stores beside the
//     non-temporal ones);
//   - zmm rows: 16 rows (a 512-bit vector) a time, one 16 x 16 transpose,
//     one 64-byte store a row.
//
//   g++ -O3 -march=native -fopenmp perf_tests/cpu_row_stores.cpp -o cpu_row_stores
//   OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads ./cpu_row_stores
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

const std::size_t M = std::size_t(1) << 20;
const int N         = 32;
float ka[N], kc[N];  // p_{n+1} = ka[n] x p_n - kc[n] p_{n-1}

void transpose8(__m256 (&r)[8]) {
  __m256 t[8], s[8];
  for (int k = 0; k < 4; ++k) {
    t[2 * k]     = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (int k = 0; k < 2; ++k) {
    s[4 * k]     = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
    s[4 * k + 1] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
    s[4 * k + 2] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
    s[4 * k + 3] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
  }
  for (int k = 0; k < 4; ++k) {
    r[k]     = _mm256_permute2f128_ps(s[k], s[k + 4], 0x20);
    r[k + 4] = _mm256_permute2f128_ps(s[k], s[k + 4], 0x31);
  }
}

enum Order { Lines, Halves, Spills };

template <Order order>
void ymm_rows(const float* x, float* V, std::size_t i0, std::size_t i1) {
  for (std::size_t i = i0; i < i1; i += 8) {
    const __m256 xv = _mm256_loadu_ps(x + i);
    __m256 cur = _mm256_set1_ps(1.0f), prev = _mm256_setzero_ps();
    for (int c0 = 0; c0 < N; c0 += 16) {
      __m256 a[8], b[8];
      for (int c = 0; c < 16; ++c) {
        const int n = c0 + c;
        if (n > 0) {
          const __m256 f    = _mm256_mul_ps(_mm256_set1_ps(ka[n - 1]), xv);
          const __m256 p    = _mm256_mul_ps(_mm256_set1_ps(kc[n - 1]), prev);
          const __m256 next = _mm256_fmsub_ps(f, cur, p);
          prev = cur, cur = next;
        }
        (c < 8 ? a[c] : b[c - 8]) = cur;
      }
      if (order == Spills) {
        alignas(32) static thread_local __m256 stack[4];
        stack[0] = prev, stack[1] = cur, stack[2] = a[7], stack[3] = b[0];
        asm volatile("" ::: "memory");
        prev = stack[0], cur = stack[1];
      }
      transpose8(a);
      transpose8(b);
      if (order == Halves) {
        for (int r = 0; r < 8; ++r) _mm256_stream_ps(V + (i + r) * N + c0, a[r]);
        for (int r = 0; r < 8; ++r) _mm256_stream_ps(V + (i + r) * N + c0 + 8, b[r]);
      } else {
        for (int r = 0; r < 8; ++r) {
          _mm256_stream_ps(V + (i + r) * N + c0, a[r]);
          _mm256_stream_ps(V + (i + r) * N + c0 + 8, b[r]);
        }
      }
    }
  }
}

void transpose16(__m512 (&r)[16]) {
  __m512 t[16];
  for (int k = 0; k < 8; ++k) {
    t[2 * k]     = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (int k = 0; k < 4; ++k) {
    r[4 * k]     = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
    r[4 * k + 1] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
    r[4 * k + 2] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
    r[4 * k + 3] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
  }
  for (int k = 0; k < 4; ++k) {
    t[k]      = _mm512_shuffle_f32x4(r[k], r[k + 4], 0x88);
    t[k + 4]  = _mm512_shuffle_f32x4(r[k], r[k + 4], 0xDD);
    t[k + 8]  = _mm512_shuffle_f32x4(r[k + 8], r[k + 12], 0x88);
    t[k + 12] = _mm512_shuffle_f32x4(r[k + 8], r[k + 12], 0xDD);
  }
  for (int k = 0; k < 4; ++k) {
    r[k]      = _mm512_shuffle_f32x4(t[k], t[k + 8], 0x88);
    r[k + 8]  = _mm512_shuffle_f32x4(t[k], t[k + 8], 0xDD);
    r[k + 4]  = _mm512_shuffle_f32x4(t[k + 4], t[k + 12], 0x88);
    r[k + 12] = _mm512_shuffle_f32x4(t[k + 4], t[k + 12], 0xDD);
  }
}

void zmm_rows(const float* x, float* V, std::size_t i0, std::size_t i1) {
  for (std::size_t i = i0; i < i1; i += 16) {
    const __m512 xv = _mm512_loadu_ps(x + i);
    __m512 cur = _mm512_set1_ps(1.0f), prev = _mm512_setzero_ps();
    for (int c0 = 0; c0 < N; c0 += 16) {
      __m512 a[16];
      for (int c = 0; c < 16; ++c) {
        const int n = c0 + c;
        if (n > 0) {
          const __m512 f    = _mm512_mul_ps(_mm512_set1_ps(ka[n - 1]), xv);
          const __m512 p    = _mm512_mul_ps(_mm512_set1_ps(kc[n - 1]), prev);
          const __m512 next = _mm512_fmsub_ps(f, cur, p);
          prev = cur, cur = next;
        }
        a[c] = cur;
      }
      transpose16(a);
      for (int r = 0; r < 16; ++r) _mm512_stream_ps(V + (i + r) * N + c0, a[r]);
    }
  }
}

void fill(const float*, float* V, std::size_t i0, std::size_t i1) {
  const __m256 v = _mm256_set1_ps(1.0f);
  for (std::size_t k = i0 * N; k < i1 * N; k += 16) {
    _mm256_stream_ps(V + k, v);
    _mm256_stream_ps(V + k + 8, v);
  }
}

}  // namespace

int main() {
  for (int n = 0; n < N; ++n) {
    ka[n] = 1 / std::sqrt(float(n + 1));
    kc[n] = std::sqrt(float(n) / float(n + 1));
  }
  float* const x = static_cast<float*>(std::aligned_alloc(64, M * sizeof(float)));
  for (std::size_t i = 0; i < M; ++i) x[i] = -1 + 2.0f * float(i) / float(M);
  const std::size_t bytes = M * N * sizeof(float);
  float* const V = static_cast<float*>(std::aligned_alloc(4096, bytes));
  float* const first = static_cast<float*>(std::aligned_alloc(4096, bytes));
  std::memset(V, 1, bytes);  // first touch
  const auto run = [&](const char* name, auto rows) {
    double best = 1;
    for (int r = 0; r < 60; ++r) {
      const auto start = std::chrono::steady_clock::now();
#pragma omp parallel
      {
        const std::size_t n = std::size_t(omp_get_num_threads()), k = std::size_t(omp_get_thread_num());
        rows(x, V, M * k / n, M * (k + 1) / n);
        _mm_sfence();
      }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("%-14s %.3f ms\n", name, best * 1e3);
  };
  for (int repeat = 0; repeat < 2; ++repeat) {
    run("fill", fill);
    run("ymm rows", ymm_rows<Lines>);
    std::memcpy(first, V, bytes);
    run("ymm halves", ymm_rows<Halves>);
    run("ymm + spills", ymm_rows<Spills>);
    run("zmm rows", zmm_rows);
    std::printf("the same values: %s\n", std::memcmp(first, V, bytes) == 0 ? "yes" : "NO");
  }
}
