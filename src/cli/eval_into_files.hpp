#ifndef RECUR_CLI_EVAL_INTO_FILES_HPP
#define RECUR_CLI_EVAL_INTO_FILES_HPP

// The definition of evaluate_into_files, instantiated once per value type in
// eval_float.cpp and eval_double.cpp (every family x policy x layout is a
// lot of kernels for one translation unit).

#include "errors.hpp"
#include "eval.hpp"

#include <recur/evaluate.hpp>
#include <recur/stream.hpp>

#include <type_traits>

namespace recur::cli {

/// Calls run(policy) with the policy object `name` names.
template <class Family, class Run>
void with_policy(const std::string& name, const Run& run) {
  if (name == "thread") {
    run(ThreadPerX{});
  } else if (name == "staged") {
    run(Staged{});
  } else if (name == "scan") {
    // Every family of the command is a linear recurrence (three-term or power sums).
    static_assert(recur::impl::has_scan_form<
                  recur::impl::kernel_t<double, Kokkos::DefaultExecutionSpace, Family>>::value);
    run(ScanAlongN{});
  } else {
    run(Auto{});
  }
}

/// Calls run(precision) with recur::Fast or recur::Accurate.
template <class Run>
void with_precision(bool fast, const Run& run) {
  if (fast) {
    run(Fast{});
  } else {
    run(Accurate{});
  }
}

template <class T, class Layout>
void evaluate_into_files(const EvalJob& job) {
  using Chunk = StreamChunk<T, Layout>;
  const Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> x(
      job.x->data(), job.x->size());
  const std::size_t M = job.x->size(), N = std::size_t(job.N);
  // Rows of C order are contiguous in the file; in Fortran order each of the
  // chunk's N columns is a segment of its own.
  const auto store = [&](npy::Writer& writer, const typename Chunk::View& V, std::size_t first) {
    const std::size_t m = V.extent(0);
    if constexpr (std::is_same_v<Layout, Kokkos::LayoutRight>) {
      writer.write(first * N, V.data(), m * N);
    } else {
      for (std::size_t n = 0; n < N; ++n) writer.write(n * M + first, V.data() + n * m, m);
    }
  };
  const auto sink = [&](const Chunk& chunk) {
    store(*job.values, chunk.V, chunk.first_row);
    if (job.derivatives) store(*job.derivatives, chunk.dV, chunk.first_row);
    job.progress->advance(chunk.V.extent(0));
  };
  StreamOptions options;
  options.chunk_rows = job.chunk_rows;
  options.derivative = job.derivatives != nullptr;
  visit_family(job.family, [&](const auto& family) {
    using Family = std::decay_t<decltype(family)>;
    with_policy<Family>(job.policy, [&](auto policy) {
      with_precision(job.fast, [&](auto precision) {
        evaluate_streamed<T, Layout>(Kokkos::DefaultExecutionSpace{}, family, x, job.N, sink,
                                     options, policy, precision);
      });
    });
  });
}

}  // namespace recur::cli

#endif
