#ifndef RECUR_PERF_MPI_HPP
#define RECUR_PERF_MPI_HPP

// recur_perf under mpirun/srun (RECUR_ENABLE_MPI): every rank measures every
// entry on its own device at the same time, the ranks waiting for each other
// between entries; rank 0 prints and writes (--benchmark_out) one report
// whose entries carry the slowest rank's time and, as counters, the
// fastest, median and slowest rank's time and the aggregate rate; its
// context names every rank's host, device, Kokkos and backend. Entries of
// its own: mpi_eval (weak scaling of evaluate, in memory), mpi_eval_file (the
// distributed pipeline of `recur eval` into one .npy file through MPI-IO)
// and mpi_fit (recur::mpi::fit, with the share of its cross-rank reduction).

#include <string>

namespace recur_perf {

/// MPI for the run when a launcher started it (recur::mpi::started_by_launcher);
/// takes --benchmark_out=PATH (and its format) off the command line, for
/// rank 0 to write once the ranks' results are gathered.
class Ranks {
 public:
  Ranks(int& argc, char**& argv);
  ~Ranks();
  Ranks(const Ranks&)            = delete;
  Ranks& operator=(const Ranks&) = delete;

  /// Whether MPI runs (a launcher started the suite, one rank or more).
  bool active() const { return active_; }
  /// Registers the MPI entries, adds every rank's context, and runs the
  /// suite with the ranks in step; rank 0 reports. Call after
  /// benchmark::Initialize, Kokkos started.
  void run();

 private:
  bool active_ = false;
  std::string out_, out_format_ = "json";
};

}  // namespace recur_perf

#endif
