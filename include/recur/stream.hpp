#ifndef RECUR_STREAM_HPP
#define RECUR_STREAM_HPP

#include <recur/evaluate.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/impl/three_term.hpp>
#include <recur/policies.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <future>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

namespace recur {

/// One chunk of rows of V (and dV) handed to the sink of evaluate_streamed:
/// rows [first_row, first_row + V.extent(0)) of the whole M x N result, on
/// the host, valid only during the sink's call. dV is empty without
/// derivatives.
template <class T, class Layout>
struct StreamChunk {
  using View = Kokkos::View<const T**, Layout, Kokkos::HostSpace,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  std::size_t first_row = 0;
  View V;
  View dV;
};

/// How evaluate_streamed works.
struct StreamOptions {
  /// Rows a chunk; 0 lets recur choose (default_chunk_rows).
  std::size_t chunk_rows = 0;
  /// Fill dV (p_n'(x)) too, handed to the sink with V.
  bool derivative = false;
};

namespace impl {

// Bytes of host memory the system can give without swapping (MemAvailable),
// or 0 when it cannot tell.
inline std::size_t available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit)
    if (key == "MemAvailable:") return value * 1024;
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return std::size_t(pages) * std::size_t(page);
#endif
  return 0;
}

// The largest chunk recur chooses: big enough that a launch, a copy and a
// hand-over cost little next to it, small enough that two of them (and, on a
// GPU, their page-locked host mirrors, slow to allocate) leave room. On an
// H200, 8 GiB of float streamed to the host at 33 GB/s in chunks of 128 MiB,
// 24 GB/s in chunks of 256 MiB and 9 GB/s in 1 GiB (docs/performance.md).
// On CPUs much smaller:
// buffers reused chunk after chunk stay mapped and in cache, where one M x N
// buffer pays a page fault for every 4 KiB it first touches (2-core VM, 2^22
// x 32 floats of HermiteENormalized: 0.28 s in chunks of 1 to 4 MiB, 0.52 s
// in chunks of 32 MiB; into a .npy file 15 s in one chunk, 6 s in chunks).
inline constexpr std::size_t device_chunk_bytes = std::size_t(128) << 20;
inline constexpr std::size_t host_chunk_bytes   = std::size_t(4) << 20;

}  // namespace impl

/// The rows a chunk of evaluate_streamed holds when StreamOptions::chunk_rows
/// is 0, for M rows of N values of type T (doubled with derivatives): chunks
/// of at most 4 MiB on CPUs and 128 MiB on a device, and at most a quarter
/// of the available host memory (and, on a device, of its free memory) each,
/// so that two of them fit while the next is computed and the last handed
/// over; a device's chunks have page-locked host mirrors, so both memories
/// count. Throws std::runtime_error when not even one row fits.
template <class T, class ExecSpace>
std::size_t default_chunk_rows(const ExecSpace& space, std::size_t M, int N,
                               bool derivative = false) {
  constexpr bool on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const std::size_t row_bytes = std::size_t(N) * sizeof(T) * (derivative ? 2 : 1) + sizeof(double);
  std::size_t budget = on_host ? impl::host_chunk_bytes : impl::device_chunk_bytes;
  const auto fit = [&](std::size_t memory, const char* where) {
    if (memory == 0) return;  // unknown
    if (row_bytes > memory / 4)
      throw std::runtime_error(
          "recur::evaluate_streamed: a row of N = " + std::to_string(N) + " values needs " +
          std::to_string(row_bytes) + " bytes, two of them more than half of the " +
          std::to_string(memory) + " bytes of " + where + " memory available; lower N");
    budget = std::min(budget, memory / 4);
  };
  fit(impl::available_host_memory(), "host");
  if constexpr (!on_host) fit(impl::free_device_memory(space), "device");
  return std::max<std::size_t>(1, std::min(M, budget / row_bytes));
}

namespace impl {

// The policy Auto would choose for the whole M x N result, so that the way
// the rows are cut does not change what each row gets (ScanAlongN is chosen
// for few rows, and rounds differently from ThreadPerX).
template <class T, class Layout, class ExecSpace, class Family, class Policy, class Run>
void with_whole_policy(const ExecSpace& space, const Family& family, std::size_t M, int N,
                       Policy policy, const Run& run) {
  if constexpr (std::is_same_v<Policy, Auto>) {
    using Shape = Kokkos::View<T**, Layout, typename ExecSpace::memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const Shape shape(static_cast<T*>(nullptr), M, std::size_t(N));
    switch (auto_policy(space, family, shape)) {
      case PolicyKind::Staged: run(Staged{}); break;
      case PolicyKind::ScanAlongN:
        if constexpr (has_scan_form<kernel_t<T, ExecSpace, Family>>::value) run(ScanAlongN{});
        break;
      default: run(ThreadPerX{});
    }
  } else {
    run(policy);
  }
}

}  // namespace impl

/// Evaluates V(i, n) = p_n(x(i)) (and dV with StreamOptions::derivative) for
/// M = x.extent(0) rows and N terms a chunk of rows at a time, and hands each
/// chunk, in order, to `sink(const StreamChunk<T, Layout>&)` on the host: for
/// results larger than device memory, or to write them out as they come.
///
/// Two chunk buffers on `space` and two execution space instances (separate
/// streams on a GPU) let chunk k + 1 be computed while chunk k is copied to
/// page-locked host memory and handed to the sink, which runs on a worker
/// thread (one call at a time; an exception it throws ends the run and is
/// rethrown here). On CPUs the buffers are the chunks themselves, reused. `x`: a
/// rank-1 View in host memory. Auto is resolved once for the whole M x N
/// result, so every row comes out as recur::evaluate gives it, however the
/// rows are cut.
template <class T, class Layout, class ExecSpace, class Family, class XView, class Sink,
          class Policy = Auto, class Precision = Accurate>
void evaluate_streamed(const ExecSpace& space, const Family& family, const XView& x, int N,
                       const Sink& sink, StreamOptions options = {}, Policy policy = {},
                       Precision precision = {}) {
  if constexpr (impl::is_precision_v<Policy>) {
    static_assert(std::is_same_v<Precision, Accurate>,
                  "recur::evaluate_streamed: give the policy before the precision");
    evaluate_streamed<T, Layout>(space, family, x, N, sink, options, Auto{}, policy);
    return;
  }
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "recur::evaluate_streamed: the first argument must be a Kokkos execution space");
  static_assert(Kokkos::is_view<XView>::value && impl::view_rank<XView> == 1 &&
                    std::is_arithmetic_v<typename XView::non_const_value_type>,
                "recur::evaluate_streamed: x must be a rank-1 View of real numbers");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename XView::memory_space>::accessible,
                "recur::evaluate_streamed: x must live in host memory");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "recur::evaluate_streamed: T must be float or double");
  static_assert(impl::is_policy_v<Policy> || impl::is_precision_v<Policy>,
                "recur::evaluate_streamed: the policy must be recur::Auto, "
                "recur::ThreadPerX, recur::Staged or recur::ScanAlongN");
  static_assert(impl::is_precision_v<Precision>,
                "recur::evaluate_streamed: the precision must be recur::Accurate or recur::Fast");
  using X           = typename XView::non_const_value_type;
  using MemorySpace = typename ExecSpace::memory_space;
  using Device      = Kokkos::Device<ExecSpace, MemorySpace>;
  using Unmanaged   = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using Staging     = typename impl::staging_space<MemorySpace>::type;
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;
  constexpr bool gives_derivatives =
      !impl::is_direct_family<Family, T>::value || impl::has_derivative_fill<Family, T>::value;

  if (N < 1)
    throw std::invalid_argument("recur::evaluate_streamed: N = " + std::to_string(N) +
                                "; N is the number of terms per x and must be at least 1");
  if (options.derivative && !gives_derivatives)
    throw std::invalid_argument(std::string("recur::evaluate_streamed: ") + Family::name() +
                                " gives no derivatives");
  const std::size_t M = x.extent(0);
  if (M == 0) return;
  const std::size_t rows =
      options.chunk_rows > 0 ? std::min(options.chunk_rows, M)
                             : default_chunk_rows<T>(space, M, N, options.derivative);
  const std::size_t chunks  = (M + rows - 1) / rows;
  const int buffers         = chunks > 1 ? 2 : 1;
  const std::size_t size    = rows * std::size_t(N);
  const bool derivative     = options.derivative;
  impl::ScopedRegion region("recur::evaluate_streamed");

  Kokkos::View<X*, Device> xs[2];
  Kokkos::View<T*, Device> values[2], derivatives[2];
  Kokkos::View<T*, Staging> staged_values[2], staged_derivatives[2];
  for (int b = 0; b < buffers; ++b) {
    using Kokkos::view_alloc;
    using Kokkos::WithoutInitializing;
    xs[b]     = Kokkos::View<X*, Device>(view_alloc("recur::evaluate_streamed::x", WithoutInitializing), rows);
    values[b] = Kokkos::View<T*, Device>(view_alloc("recur::evaluate_streamed::V", WithoutInitializing), size);
    if (derivative)
      derivatives[b] = Kokkos::View<T*, Device>(view_alloc("recur::evaluate_streamed::dV", WithoutInitializing), size);
    if constexpr (!on_host) {
      staged_values[b] = Kokkos::View<T*, Staging>(
          view_alloc("recur::evaluate_streamed::V_host", WithoutInitializing), size);
      if (derivative)
        staged_derivatives[b] = Kokkos::View<T*, Staging>(
            view_alloc("recur::evaluate_streamed::dV_host", WithoutInitializing), size);
    }
  }
  const std::vector<ExecSpace> instances = impl::two_instances(space);

  // Enqueues chunk k into buffer b: x in, V (and dV) computed.
  const auto compute = [&](std::size_t k, int b) {
    const std::size_t first = k * rows, m = std::min(rows, M - first);
    const ExecSpace& instance = instances[b];
    const Kokkos::View<X*, Device, Unmanaged> xk(xs[b].data(), m);
    Kokkos::deep_copy(instance, xk, Kokkos::subview(x, std::make_pair(first, first + m)));
    using Chunk = Kokkos::View<T**, Layout, Device, Unmanaged>;
    const Chunk V(values[b].data(), m, std::size_t(N));
    if (derivative) {
      if constexpr (gives_derivatives)
        evaluate(instance, family, xk, V, Chunk(derivatives[b].data(), m, std::size_t(N)), policy,
                 precision);
    } else {
      impl::with_whole_policy<T, Layout>(space, family, M, N, policy, [&](auto chosen) {
        evaluate(instance, family, xk, V, chosen, precision);
      });
    }
  };
  // On a device, enqueues the copy of chunk k from buffer b to its staging
  // buffer on the host.
  const auto copy_out = [&](std::size_t k, int b) {
    if constexpr (!on_host) {
      const ExecSpace& instance = instances[b];
      const std::size_t count   = std::min(rows, M - k * rows) * std::size_t(N);
      Kokkos::deep_copy(instance, Kokkos::View<T*, Staging, Unmanaged>(staged_values[b].data(), count),
                        Kokkos::View<T*, Device, Unmanaged>(values[b].data(), count));
      if (derivative)
        Kokkos::deep_copy(instance,
                          Kokkos::View<T*, Staging, Unmanaged>(staged_derivatives[b].data(), count),
                          Kokkos::View<T*, Device, Unmanaged>(derivatives[b].data(), count));
    } else {
      (void)k, (void)b;
    }
  };
  // The host view of chunk k in buffer b.
  const auto chunk_of = [&](std::size_t k, int b) {
    const std::size_t first = k * rows, m = std::min(rows, M - first);
    const T* v = on_host ? values[b].data() : staged_values[b].data();
    const T* d = on_host ? derivatives[b].data() : staged_derivatives[b].data();
    StreamChunk<T, Layout> chunk;
    chunk.first_row = first;
    chunk.V         = typename StreamChunk<T, Layout>::View(v, m, std::size_t(N));
    if (derivative) chunk.dV = typename StreamChunk<T, Layout>::View(d, m, std::size_t(N));
    return chunk;
  };

  // At most one sink call runs at a time: the one for chunk k - 1 while
  // chunk k is computed. Declared after the buffers, so that an exception
  // waits for the worker before the buffers go.
  std::future<void> handing[2];
  const auto hand_over = [&](std::size_t k) {
    const int b = int(k % 2);
    impl::fence(instances[b], "recur::evaluate_streamed: chunk done");
    handing[b] = std::async(std::launch::async, [&sink, chunk = chunk_of(k, b)] { sink(chunk); });
  };
  for (std::size_t k = 0; k < chunks; ++k) {
    const int b = int(k % 2);
    if constexpr (on_host) {
      // The kernel runs before compute returns: the previous chunk goes to
      // the sink first, once the sink is done with chunk k - 2's buffer.
      if (handing[b].valid()) handing[b].get();
      if (k > 0) hand_over(k - 1);
      compute(k, b);
    } else {
      // The device computes chunk k while chunk k - 1 is copied out (the
      // other instance) and the sink takes chunk k - 2 (from staging b).
      compute(k, b);
      if (handing[b].valid()) handing[b].get();
      copy_out(k, b);
      if (k > 0) hand_over(k - 1);
    }
  }
  const std::size_t last = chunks - 1;
  const int b            = int(last % 2);
  impl::fence(instances[b], "recur::evaluate_streamed: last chunk done");
  if (handing[1 - b].valid()) handing[1 - b].get();
  sink(chunk_of(last, b));
}

/// evaluate_streamed on a default-constructed instance of the default
/// execution space.
template <class T, class Layout, class Family, class XView, class Sink, class Policy = Auto,
          class Precision = Accurate,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value, int> = 0>
void evaluate_streamed(const Family& family, const XView& x, int N, const Sink& sink,
                       StreamOptions options = {}, Policy policy = {}, Precision precision = {}) {
  evaluate_streamed<T, Layout>(Kokkos::DefaultExecutionSpace{}, family, x, N, sink, options,
                               policy, precision);
}

/// evaluate_streamed with a policy (or a precision, or both) and the default
/// options.
template <class T, class Layout, class ExecSpace, class Family, class XView, class Sink,
          class Policy, class Precision = Accurate,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value &&
                               (impl::is_policy_v<Policy> || impl::is_precision_v<Policy>),
                           int> = 0>
void evaluate_streamed(const ExecSpace& space, const Family& family, const XView& x, int N,
                       const Sink& sink, Policy policy, Precision precision = {}) {
  evaluate_streamed<T, Layout>(space, family, x, N, sink, StreamOptions{}, policy, precision);
}

template <class T, class Layout, class Family, class XView, class Sink, class Policy,
          class Precision = Accurate,
          std::enable_if_t<!Kokkos::is_execution_space<Family>::value &&
                               (impl::is_policy_v<Policy> || impl::is_precision_v<Policy>),
                           int> = 0>
void evaluate_streamed(const Family& family, const XView& x, int N, const Sink& sink,
                       Policy policy, Precision precision = {}) {
  evaluate_streamed<T, Layout>(Kokkos::DefaultExecutionSpace{}, family, x, N, sink,
                               StreamOptions{}, policy, precision);
}

}  // namespace recur

#endif
