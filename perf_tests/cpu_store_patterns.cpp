// The store patterns of V = M x N floats (M = 2^20, N = 32, 128 MiB) on an
// x86 CPU, each thread its half of the rows, constant values, fastest of 40
// runs: what recur's CPU lanes can reach for each way of writing V
// (docs/performance.md, "CPU, 2026-12-04: the streamed-fill ceiling").
//   - streamed contiguous: non-temporal 32-byte stores in address order (the
//     streamed fill of recur::store_ceiling);
//   - plain contiguous: the same with ordinary stores;
//   - LayoutLeft, R rows a block: each block's 4 R bytes of each column,
//     column after column, non-temporal (R = 16: one line; 32: two);
//   - LayoutRight rows of 128 bytes, 16 a block: one line of each row, then
//     the other line of each ("halves"), or row after row.
//
//   g++ -O2 -mavx2 -fopenmp perf_tests/cpu_store_patterns.cpp -o cpu_store_patterns
//   OMP_NUM_THREADS=2 ./cpu_store_patterns
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main() {
  const std::size_t M = std::size_t(1) << 20;
  const int N         = 32;
  const std::size_t bytes = M * N * sizeof(float);
  float* const p = static_cast<float*>(std::aligned_alloc(4096, bytes));
  std::memset(p, 1, bytes);  // first touch
  const __m256 v = _mm256_set1_ps(1.0f);
  const auto run = [&](const char* name, auto rows) {
    std::vector<double> t;
    for (int r = 0; r < 40; ++r) {
      const auto start = std::chrono::steady_clock::now();
#pragma omp parallel
      {
        const std::size_t n = std::size_t(omp_get_num_threads()), k = std::size_t(omp_get_thread_num());
        rows(M * k / n, M * (k + 1) / n);
        _mm_sfence();
      }
      t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    std::printf("%-34s %6.2f ms  %5.1f GB/s  (median %.2f ms)\n", name, t[0] * 1e3, bytes / t[0] / 1e9,
                t[t.size() / 2] * 1e3);
  };
  for (int round = 0; round < 2; ++round) {
    run("streamed contiguous", [&](std::size_t a, std::size_t b) {
      for (std::size_t i = a * N; i < b * N; i += 8) _mm256_stream_ps(p + i, v);
    });
    run("plain contiguous", [&](std::size_t a, std::size_t b) {
      for (std::size_t i = a * N; i < b * N; i += 8) _mm256_store_ps(p + i, v);
    });
    run("LayoutLeft, 16 rows a block (64 B)", [&](std::size_t a, std::size_t b) {
      for (std::size_t i = a; i < b; i += 16)
        for (int c = 0; c < N; ++c)
          for (int k = 0; k < 16; k += 8) _mm256_stream_ps(p + c * M + i + k, v);
    });
    run("LayoutLeft, 32 rows a block (128 B)", [&](std::size_t a, std::size_t b) {
      for (std::size_t i = a; i < b; i += 32)
        for (int c = 0; c < N; ++c)
          for (int k = 0; k < 32; k += 8) _mm256_stream_ps(p + c * M + i + k, v);
    });
    run("LayoutRight, halves of 16 rows", [&](std::size_t a, std::size_t b) {
      for (std::size_t i = a; i < b; i += 16)
        for (int h = 0; h < 2; ++h)
          for (int r = 0; r < 16; ++r)
            for (int k = 0; k < 16; k += 8) _mm256_stream_ps(p + (i + r) * N + h * 16 + k, v);
    });
    run("LayoutRight, row after row", [&](std::size_t a, std::size_t b) {
      for (std::size_t i = a; i < b; i += 16)
        for (int r = 0; r < 16; ++r)
          for (int k = 0; k < N; k += 8) _mm256_stream_ps(p + (i + r) * N + k, v);
    });
  }
  std::free(p);
}
