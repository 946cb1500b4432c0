#ifndef RECUR_CLI_EVAL_INTO_FILES_HPP
#define RECUR_CLI_EVAL_INTO_FILES_HPP

// The definition of evaluate_into_files, instantiated once per value type in
// eval_float.cpp and eval_double.cpp (every family x policy x layout is a
// lot of kernels for one translation unit).

#include "errors.hpp"
#include "eval.hpp"

#include <recur/evaluate.hpp>
#include <recur/stream.hpp>

#include <algorithm>
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
  const std::size_t M = job.total_rows, N = std::size_t(job.N);
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
#ifdef RECUR_ENABLE_MPI
  // Across ranks every chunk is a collective write: every rank makes as many
  // (the most any rank has; those with fewer write no rows at the end), each
  // after a step() where all ranks agree that none has failed.
  const bool shared = job.shared_values != nullptr;
  std::size_t chunks = 0, written = 0;
  const auto write_shared = [&](std::size_t first, std::size_t rows, const T* values,
                                const T* derivatives) {
    ranks::step();
    job.shared_values->write_rows(first, rows, values);
    if (job.shared_derivatives) job.shared_derivatives->write_rows(first, rows, derivatives);
    ++written;
  };
#else
  constexpr bool shared = false;
#endif
  const auto sink = [&](const Chunk& chunk) {
    const std::size_t first = job.first_row + chunk.first_row;
    if (shared) {
#ifdef RECUR_ENABLE_MPI
      write_shared(first, chunk.V.extent(0), chunk.V.data(), chunk.dV.data());
#endif
    } else {
      store(*job.values, chunk.V, first);
      if (job.derivatives) store(*job.derivatives, chunk.dV, first);
    }
    if (job.progress) job.progress->advance(chunk.V.extent(0));
  };
  StreamOptions options;
  options.chunk_rows = job.chunk_rows;
  options.derivative = job.derivatives != nullptr;
#ifdef RECUR_ENABLE_MPI
  if (shared) {
    options.derivative = job.shared_derivatives != nullptr;
    const std::size_t m = x.extent(0), rows = std::min(job.chunk_rows, m);
    chunks = ranks::max(m == 0 ? 0 : (m + rows - 1) / rows);
  }
#endif
  const Kokkos::DefaultExecutionSpace space;
  try {
    visit_family(job.family, [&](const auto& family) {
      using Family = std::decay_t<decltype(family)>;
      with_policy<Family>(job.policy, [&](auto policy) {
        with_precision(job.fast, [&](auto precision) {
          // Auto as it chooses for all M rows, whatever this rank holds, so
          // that every row is what one process computes.
          recur::impl::with_whole_policy<T, Layout>(space, family, M, job.N, policy, [&](auto chosen) {
            evaluate_streamed<T, Layout>(space, family, x, job.N, sink, options, chosen, precision);
          });
        });
      });
    });
  } catch (const ranks::Agreed&) {
    throw;
  } catch (const std::exception&) {
    // This rank alone failed: the others hear of it at the next step.
    if (shared) ranks::step([] { throw; });
    throw;
  }
#ifdef RECUR_ENABLE_MPI
  while (shared && written < chunks) write_shared(0, 0, nullptr, nullptr);
  if (shared) ranks::step();  // the last writes' errors
#endif
}

}  // namespace recur::cli

#endif
