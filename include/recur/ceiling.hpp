#ifndef RECUR_CEILING_HPP
#define RECUR_CEILING_HPP

// The store rate a backend reaches for a given allocation, measured in the
// calling process: the ceiling recur's perf suite and demo set their figures
// against, and one a user can set their own kernels against. It is the best
// of several ways to fill the same bytes, each timed as the median of a few
// fenced runs after a first (touching) one:
//  - "kokkos fill": a plain kernel storing 8 elements of 4 bytes per work
//    item, coalesced (item c stores c, c + chunks, ...);
//  - "wide fill": the same with 16-byte aligned stores (one vector store per
//    element on a GPU);
//  - "one-shot wide fill" (GPUs): one 16-byte store a work item, blocks of
//    256, marked evict-first as recur's kernels store V (impl/stores.hpp):
//    on the H200 such a grid in plain CUDA stored 2 GiB at 4.66 TB/s where
//    cudaMemsetAsync reached 4.53 (perf_tests/column_store_study.cu);
//  - "deep_copy": Kokkos::deep_copy of a scalar into the bytes as a rank-1
//    View (one element per thread on a GPU, a tuned fill on CPUs);
//  - "memset": the vendor's memset (cudaMemsetAsync on CUDA; on CPUs
//    std::memset of each thread's contiguous share, in parallel);
//  - "streamed fill" (x86 CPUs): each thread's contiguous share in
//    non-temporal stores of whole cache lines, the widest the build targets
//    (32 bytes with AVX, else 16), then a store fence. glibc's memset
//    streams only past a threshold scaled to the last-level cache, which on
//    a CPU with a large one (this project's Intel VM: 260 MiB) no V of a
//    benchmark reaches: there memset stored 128 MiB at 23-27 GB/s and these
//    stores at 41-47 GB/s (docs/performance.md, "CPU, 2026-12-04: the
//    streamed-fill ceiling").
// Every method stores a non-zero pattern (the bytes 0x3f, 0x3f800000 words:
// 1.0f): on some machines zeros are stored faster than data (this project's
// development VM: memset of 512 MiB to 0 at 87 GB/s on one thread, to 7 at
// 30 GB/s), and V holds data.
// copy_seconds times Kokkos::deep_copy between two allocations of the same
// size: the read + write rate, as STREAM's copy.

#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/stores.hpp>

#include <Kokkos_Core.hpp>

#if defined(__SSE2__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define RECUR_IMPL_STREAMED_FILL 1
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace recur {

/// The best fill of an allocation: its time and the method that reached it.
struct StoreCeiling {
  double seconds = 0;
  std::string method;
  /// Bytes per second for `bytes` bytes.
  double rate(std::size_t bytes) const { return seconds > 0 ? double(bytes) / seconds : 0; }
};

namespace impl {

template <class ExecSpace, class Operation>
double median_of_fenced_runs(const ExecSpace& space, const Operation& operation,
                             int repetitions) {
  operation();  // touches the pages, loads the kernel
  std::vector<double> times;
  for (int r = 0; r < std::max(1, repetitions); ++r) {
    space.fence();
    Kokkos::Timer timer;
    operation();
    space.fence();
    times.push_back(timer.seconds());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

// The stored pattern: 1.0f in every 4-byte word.
inline constexpr std::uint32_t fill_word = 0x3f800000u;
inline constexpr int fill_byte           = 0x3f;

struct alignas(16) Word16 {
  std::uint32_t v[4];
};

template <class Word>
constexpr Word filled_word() {
  if constexpr (std::is_same_v<Word, Word16>) {
    return Word16{{fill_word, fill_word, fill_word, fill_word}};
  } else {
    return Word(fill_word);
  }
}

// Element c, c + chunks, ..., c + 7 chunks of `data` set to `value`.
template <class Word>
struct StridedFill {
  Word* data;
  std::int64_t count, chunks;
  Word value;
  KOKKOS_FUNCTION void operator()(std::int64_t c) const {
    for (int j = 0; j < 8; ++j)
      if (c + j * chunks < count) data[c + j * chunks] = value;
  }
};

template <class ExecSpace, class Word>
double strided_fill_seconds(const ExecSpace& space, void* data, std::size_t bytes,
                            int repetitions) {
  const std::int64_t count  = std::int64_t(bytes / sizeof(Word));
  const std::int64_t chunks = (count + 7) / 8;
  const StridedFill<Word> fill{static_cast<Word*>(data), count, chunks, filled_word<Word>()};
  return median_of_fenced_runs(
      space,
      [&] {
        Kokkos::parallel_for(
            "recur::store_ceiling[fill]",
            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
            fill);
      },
      repetitions);
}

// Word c of `data` set to `value`, evict-first on GPUs.
struct OneShotFill {
  Word16* data;
  Word16 value;
  KOKKOS_FUNCTION void operator()(std::int64_t c) const { store_result(data + c, value); }
};

template <class ExecSpace>
double one_shot_fill_seconds(const ExecSpace& space, void* data, std::size_t bytes,
                             int repetitions) {
  const OneShotFill fill{static_cast<Word16*>(data), filled_word<Word16>()};
  return median_of_fenced_runs(
      space,
      [&] {
        Kokkos::parallel_for(
            "recur::store_ceiling[one-shot wide fill]",
            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>,
                                Kokkos::LaunchBounds<256, 1>>(
                space, 0, std::int64_t(bytes / sizeof(Word16))),
            fill);
      },
      repetitions);
}

// std::memset of each of `parts` contiguous shares, one per work item.
struct SharedMemset {
  unsigned char* data;
  std::size_t bytes, parts;
  void operator()(std::int64_t p) const {
    const std::size_t begin = bytes * std::size_t(p) / parts;
    const std::size_t end   = bytes * std::size_t(p + 1) / parts;
    std::memset(data + begin, fill_byte, end - begin);
  }
};

// Host memory filled by Fill{data, bytes, parts}(p) for each of `parts`
// shares, one per thread of `space`, in parallel.
template <class Fill, class ExecSpace>
double shares_seconds(const ExecSpace& space, void* data, std::size_t bytes, int repetitions,
                      const char* label) {
  const std::size_t parts = std::size_t(std::max(1, int(space.concurrency())));
  const Fill fill{static_cast<unsigned char*>(data), bytes, parts};
  return median_of_fenced_runs(
      space,
      [&] {
        Kokkos::parallel_for(label,
                             Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                 space, 0, std::int64_t(parts)),
                             fill);
      },
      repetitions);
}

template <class ExecSpace>
double memset_seconds(const ExecSpace& space, void* data, std::size_t bytes, int repetitions) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    return median_of_fenced_runs(
        space, [&] { cudaMemsetAsync(data, fill_byte, bytes, space.cuda_stream()); },
        repetitions);
  }
#endif
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecSpace::memory_space>::accessible) {
    return shares_seconds<SharedMemset>(space, data, bytes, repetitions,
                                        "recur::store_ceiling[memset]");
  }
  return 0;  // no memset on this backend
}

#ifdef RECUR_IMPL_STREAMED_FILL
// Each of `parts` contiguous shares in non-temporal stores: the whole cache
// lines of the share streamed, its ragged ends stored plainly.
struct StreamedFill {
  unsigned char* data;
  std::size_t bytes, parts;
  void operator()(std::int64_t p) const {
    unsigned char* const begin = data + bytes * std::size_t(p) / parts;
    unsigned char* const end   = data + bytes * std::size_t(p + 1) / parts;
    const auto line            = [](unsigned char* q, std::uintptr_t up) {
      const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(q);
      return reinterpret_cast<unsigned char*>(up ? (a + 63) / 64 * 64 : a / 64 * 64);
    };
    unsigned char* const first = std::min(line(begin, 1), end);
    unsigned char* const last  = std::max(line(end, 0), first);
    std::memset(begin, fill_byte, std::size_t(first - begin));
    for (unsigned char* q = first; q < last; q += 64) {
#ifdef __AVX__
      const __m256i v = _mm256_set1_epi32(int(fill_word));
      _mm256_stream_si256(reinterpret_cast<__m256i*>(q), v);
      _mm256_stream_si256(reinterpret_cast<__m256i*>(q + 32), v);
#else
      const __m128i v = _mm_set1_epi32(int(fill_word));
      for (int k = 0; k < 64; k += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(q + k), v);
#endif
    }
    std::memset(last, fill_byte, std::size_t(end - last));
    _mm_sfence();
  }
};
#endif

// The streamed fill of host memory; 0 where there is none.
template <class ExecSpace>
double streamed_fill_seconds(const ExecSpace& space, void* data, std::size_t bytes,
                             int repetitions) {
#ifdef RECUR_IMPL_STREAMED_FILL
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecSpace::memory_space>::accessible) {
    return shares_seconds<StreamedFill>(space, data, bytes, repetitions,
                                        "recur::store_ceiling[streamed fill]");
  }
#endif
  (void)space, (void)data, (void)bytes, (void)repetitions;
  return 0;
}

}  // namespace impl

/// The ways store_ceiling fills the bytes, by the names it reports.
inline constexpr const char* store_methods[] = {"kokkos fill", "wide fill", "one-shot wide fill",
                                                "deep_copy", "memset", "streamed fill"};

/// The time of one of store_ceiling's methods (`method`, a name of
/// store_methods) for the `bytes` bytes at `data`: the median of
/// `repetitions` fenced runs after a first one, in seconds; 0 where the
/// method does not apply to this backend or to these bytes (wide fills need
/// 16-byte alignment and size, the one-shot fill a GPU, the streamed fill an
/// x86 host). The perf suite times the method that won store_ceiling again
/// after each timed call, so that each call has its ceiling from the same
/// moment. Throws std::invalid_argument for another name. Fences `space`.
template <class ExecSpace>
double store_seconds(const ExecSpace& space, void* data, std::size_t bytes,
                     const std::string& method, int repetitions = 7) {
  const bool wide = reinterpret_cast<std::uintptr_t>(data) % 16 == 0 && bytes % 16 == 0;
  if (method == "kokkos fill")
    return impl::strided_fill_seconds<ExecSpace, std::uint32_t>(space, data, bytes, repetitions);
  if (method == "wide fill")
    return wide ? impl::strided_fill_seconds<ExecSpace, impl::Word16>(space, data, bytes, repetitions)
                : 0;
  if (method == "one-shot wide fill") {
    if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                              typename ExecSpace::memory_space>::accessible) {
      return wide ? impl::one_shot_fill_seconds(space, data, bytes, repetitions) : 0;
    } else {
      return 0;
    }
  }
  if (method == "deep_copy") {
    const Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>
        words(static_cast<std::uint32_t*>(data), bytes / 4);
    return impl::median_of_fenced_runs(
        space, [&] { Kokkos::deep_copy(space, words, impl::fill_word); }, repetitions);
  }
  if (method == "memset") return impl::memset_seconds(space, data, bytes, repetitions);
  if (method == "streamed fill") return impl::streamed_fill_seconds(space, data, bytes, repetitions);
  throw std::invalid_argument("recur::store_seconds: no store method named \"" + method +
                              "\" (recur::store_methods lists them)");
}

/// The best store rate of `space` for the `bytes` bytes at `data` (memory
/// `space` can write, aligned as Kokkos allocates, its contents overwritten):
/// the fastest of store_methods, each timed by store_seconds. Fences `space`.
template <class ExecSpace>
StoreCeiling store_ceiling(const ExecSpace& space, void* data, std::size_t bytes,
                           int repetitions = 7) {
  StoreCeiling best;
  for (const char* method : store_methods) {
    const double seconds = store_seconds(space, data, bytes, method, repetitions);
    if (seconds > 0 && (best.seconds == 0 || seconds < best.seconds)) best = {seconds, method};
  }
  return best;
}

/// store_ceiling for V's allocation (V.span() elements).
template <class ExecSpace, class View>
StoreCeiling store_ceiling(const ExecSpace& space, const View& V, int repetitions = 7) {
  return store_ceiling(space, static_cast<void*>(V.data()),
                       V.span() * sizeof(typename View::value_type), repetitions);
}

/// Kokkos::deep_copy from one allocation of `bytes` bytes into another (read
/// + write), the median of `repetitions` fenced runs, in seconds. Allocates
/// the source for the call.
template <class ExecSpace>
double copy_seconds(const ExecSpace& space, void* data, std::size_t bytes, int repetitions = 7) {
  using Words = Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space>;
  const Words source(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::copy_seconds::source"),
                     bytes / 4);
  Kokkos::deep_copy(space, source, impl::fill_word);  // data, not zeros
  const Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>
      target(static_cast<std::uint32_t*>(data), bytes / 4);
  return impl::median_of_fenced_runs(
      space, [&] { Kokkos::deep_copy(space, target, source); }, repetitions);
}

}  // namespace recur

#endif
