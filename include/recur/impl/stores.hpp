#ifndef RECUR_IMPL_STORES_HPP
#define RECUR_IMPL_STORES_HPP

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace recur::impl {

// 16 bytes, the widest store a GPU thread issues: a warp storing 32
// neighbouring Packs writes 512 contiguous bytes with one instruction.
template <class T>
struct alignas(16) Pack {
  static constexpr int size = 16 / int(sizeof(T));
  T v[size];
};

// The bytes a warp's 32 neighbouring Pack stores cover. Where such a run
// starts off a 256-byte boundary, the column pattern loses 5 % of its rate:
// on an H100, N = 32 column streams of 16-byte evict-first stores from
// loaded x's ran at 0.846 of the fill with every warp's run 0, 256 or 512
// bytes past a 2 MiB boundary and at 0.805 with it 128 or 384 bytes past,
// where a Kokkos View's data lies (its allocation header is 128 bytes); the
// fill itself the same either way. Kernels that store V in Packs start their
// warps' runs on these boundaries where V allows (aligned_run_offset): on an
// H200 float column slices took 0.59 ms against 0.64, double 1.17 against
// 1.30 (docs/performance.md, "2026-12-06: warps' stores aligned").
inline constexpr std::size_t warp_run_bytes = 32 * sizeof(Pack<float>);

// How many elements of T lie between p and the next multiple of
// warp_run_bytes (0 where p is one, or is not aligned to T).
template <class T>
KOKKOS_INLINE_FUNCTION std::int64_t aligned_run_offset(const T* p) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (at % sizeof(T) != 0) return 0;
  return std::int64_t((warp_run_bytes - at % warp_run_bytes) % warp_run_bytes / sizeof(T));
}

// *p = v for results a kernel writes once and never reads back (V, Psi,
// and the ceiling's fills). On NVIDIA GPUs the store is marked evict-first
// (st.global.cs, CUDA's __stcs), so that these lines leave L2 for memory
// first. In a study of column slices' pattern on the H200 (N = 32 column
// streams of 16-byte stores, M = 2^24; perf_tests/column_store_study.cu)
// marked stores ran at 0.94-0.95 of the best fill however the rows fell to
// the threads, plain ones at 0.48-0.94 depending on it; in recur (same-process
// A/B) double LayoutLeft He_n/sqrt(n!) took 1.28 ms against 1.39 (Accurate)
// and 1.29 against 1.33 (Fast), float 1-2 % less, Staged rows within 1 %,
// product bases' double Psi 2-4 % less. ScanAlongN keeps plain stores (1-4 %
// slower marked). docs/performance.md, "H200, 2026-12-04: evict-first
// stores". Elsewhere a plain store.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void store_result(T* p, const T& v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                std::is_same_v<T, std::uint32_t>) {
    __stcs(p, v);
  } else if constexpr (sizeof(T) == 16 && alignof(T) == 16) {  // Pack<float, double>, 16-byte words
    uint4 w;
    static_assert(sizeof(w) == sizeof(T));
    __builtin_memcpy(&w, &v, sizeof w);
    __stcs(reinterpret_cast<uint4*>(p), w);
  } else {
    *p = v;
  }
#else
  *p = v;
#endif
}

// V(i, n) = v, through store_result where V hands out plain references (a
// View with the Atomic trait hands out a proxy: a plain assignment there).
template <class View>
KOKKOS_FORCEINLINE_FUNCTION void store_result(const View& V, std::int64_t i, std::int64_t n,
                                              const typename View::non_const_value_type& v) {
  if constexpr (std::is_lvalue_reference_v<typename View::reference_type>) {
    store_result(&V(i, n), v);
  } else {
    V(i, n) = v;
  }
}

}  // namespace recur::impl

#endif
