#ifndef RECUR_CLI_RANKS_HPP
#define RECUR_CLI_RANKS_HPP

// The command across MPI ranks (mpirun/srun): whether it runs so, the steps
// where every rank agrees that all is well, and the one .npy file all ranks
// write through MPI-IO. Without RECUR_ENABLE_MPI, or started without an MPI
// launcher, the command is one rank and none of this communicates.

#include <recur/config.hpp>
#include <recur/npy.hpp>

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#ifdef RECUR_ENABLE_MPI
#include <mpi.h>
#endif

namespace recur::cli::ranks {

/// MPI for the length of the program when an MPI launcher started it
/// (mpirun, mpiexec, srun: their environment variables say so); nothing
/// otherwise, so that a plain `recur` never starts MPI.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&)            = delete;
  Session& operator=(const Session&) = delete;
};

/// This process's rank and the number of ranks (0 and 1 without MPI).
int rank();
int count();
/// Whether the command runs on more than one rank.
inline bool many() { return count() > 1; }

/// An error every rank has agreed on (step()), with the exit status and the
/// one message the command ends with.
class Agreed : public std::runtime_error {
 public:
  Agreed(int status, const std::string& message) : std::runtime_error(message), status(status) {}
  int status;
};

/// The exit status of an error: 2 for a mistake on the command line
/// (UsageError) or a value recur refuses (std::invalid_argument), 1 for any
/// other failure, the agreed one for Agreed.
int status_of(const std::exception& error);

/// Runs `local` on every rank; when it threw on any rank, throws Agreed on
/// every rank, with the error of the lowest such rank (its message after
/// "rank R: " unless R is 0). Collective: every rank calls it the same number
/// of times. One rank: runs `local` and lets its error through.
void step(const std::function<void()>& local = [] {});

/// This rank's rows of M split evenly (recur::mpi::rows_of): (first, count).
std::pair<std::size_t, std::size_t> share(std::size_t M);

/// Sums of a count over the ranks, and the largest and smallest value.
std::size_t sum(std::size_t value);
std::size_t max(std::size_t value);
std::size_t min(std::size_t value);

/// The same bytes on every rank, from rank `root`.
void broadcast(std::string& text, int root = 0);

/// "host: rank R of P, local rank L" lines of every rank, gathered on rank 0
/// (empty elsewhere).
std::string gather_lines(const std::string& line);

#ifdef RECUR_ENABLE_MPI
/// An M x N .npy file that every rank writes its rows of, through MPI-IO:
/// opened collectively from a file rank 0 made (npy::Writer: the header
/// written, the length reserved), and closed before rank 0 commits it. C
/// order writes each rank's rows as one run with MPI_File_write_at_all;
/// Fortran order sets a file view of the rows' N column segments (a vector
/// type) and writes them with MPI_File_write_all.
class SharedFile {
 public:
  SharedFile(const std::string& path, npy::DType dtype, std::size_t M, std::size_t N,
             bool fortran_order, std::size_t data_offset);
  ~SharedFile();
  SharedFile(const SharedFile&)            = delete;
  SharedFile& operator=(const SharedFile&) = delete;

  /// Collective: rows [first, first + rows) of the array from `data` (rows
  /// x N in the file's order); rows may be 0. Throws std::runtime_error
  /// (on this rank) when MPI-IO reports an error.
  void write_rows(std::size_t first, std::size_t rows, const void* data);
  /// Collective: flushes and closes the file.
  void close();

 private:
  std::string path_;
  MPI_File file_ = MPI_FILE_NULL;
  MPI_Datatype element_;
  std::size_t M_, N_, element_bytes_, data_offset_;
  bool fortran_;
};
#endif

}  // namespace recur::cli::ranks

#endif
