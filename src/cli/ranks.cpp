#include "ranks.hpp"

#include "errors.hpp"

#ifdef RECUR_ENABLE_MPI
#include <recur/mpi.hpp>
#endif

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <vector>

namespace recur::cli::ranks {

#ifdef RECUR_ENABLE_MPI

namespace {

bool initialized() {
  int flag = 0;
  MPI_Initialized(&flag);
  int done = 0;
  MPI_Finalized(&done);
  return flag && !done;
}

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, std::size_t(length));
}

}  // namespace

Session::Session(int& argc, char**& argv) {
  if (!recur::mpi::started_by_launcher()) return;
  // The chunks of evaluate_streamed reach the file from its worker thread,
  // one call at a time.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
}

Session::~Session() {
  if (initialized()) MPI_Finalize();
}

int rank() {
  int rank = 0;
  if (initialized()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int count() {
  int size = 1;
  if (initialized()) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

void step(const std::function<void()>& local) {
  if (!many()) {
    local();
    return;
  }
  const int me = rank(), all = count();
  int status = 0;
  std::string message;
  try {
    local();
  } catch (const std::exception& error) {
    status  = status_of(error);
    message = error.what();
    if (dynamic_cast<const Agreed*>(&error) == nullptr && me != 0)
      message = "rank " + std::to_string(me) + ": " + message;
  }
  int first = status != 0 ? me : all;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == all) return;
  MPI_Bcast(&status, 1, MPI_INT, first, MPI_COMM_WORLD);
  broadcast(message, first);
  throw Agreed(status, message);
}

std::pair<std::size_t, std::size_t> share(std::size_t M) {
  const recur::mpi::Rows rows = recur::mpi::rows_of(std::int64_t(M), rank(), count());
  return {std::size_t(rows.first), std::size_t(rows.count)};
}

std::size_t sum(std::size_t value) {
  unsigned long long v = value;
  if (many()) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return std::size_t(v);
}

std::size_t max(std::size_t value) {
  unsigned long long v = value;
  if (many()) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return std::size_t(v);
}

std::size_t min(std::size_t value) {
  unsigned long long v = value;
  if (many()) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  return std::size_t(v);
}

void broadcast(std::string& text, int root) {
  if (!many()) return;
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
  text.resize(std::size_t(length));
  MPI_Bcast(text.data(), int(length), MPI_CHAR, root, MPI_COMM_WORLD);
}

std::string gather_lines(const std::string& line) {
  if (!many()) return line;
  std::string all;
  for (const std::string& one : recur::mpi::impl::gather(MPI_COMM_WORLD, line)) all += one;
  return all;
}

SharedFile::SharedFile(const std::string& path, npy::DType dtype, std::size_t M, std::size_t N,
                       bool fortran_order, std::size_t data_offset)
    : path_(path),
      element_(dtype == npy::DType::Float32 ? MPI_FLOAT : MPI_DOUBLE),
      M_(M),
      N_(N),
      element_bytes_(npy::size_of(dtype)),
      data_offset_(data_offset),
      fortran_(fortran_order) {
  // Collective; MPI-IO returns its errors (files' default error handler).
  const int code = MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL,
                                 &file_);
  if (code != MPI_SUCCESS)
    throw std::runtime_error("cannot open " + path + " on this rank through MPI-IO: " +
                             mpi_error(code) +
                             "; the output must be on a file system every rank sees");
}

SharedFile::~SharedFile() {
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
}

void SharedFile::write_rows(std::size_t first, std::size_t rows, const void* data) {
  int code = MPI_SUCCESS;
  if (!fortran_) {
    const MPI_Offset at = MPI_Offset(data_offset_ + first * N_ * element_bytes_);
    code = MPI_File_write_at_all(file_, at, data, int(rows * N_), element_, MPI_STATUS_IGNORE);
  } else {
    // Element (i, n) lies at n M + i: N segments of `rows` elements, M apart.
    MPI_Datatype segments;
    MPI_Type_create_hvector(int(N_), int(rows), MPI_Aint(M_ * element_bytes_), element_, &segments);
    MPI_Type_commit(&segments);
    code = MPI_File_set_view(file_, MPI_Offset(data_offset_ + first * element_bytes_), element_,
                             segments, "native", MPI_INFO_NULL);
    if (code == MPI_SUCCESS)
      code = MPI_File_write_all(file_, data, int(rows * N_), element_, MPI_STATUS_IGNORE);
    MPI_Type_free(&segments);
  }
  if (code != MPI_SUCCESS)
    throw std::runtime_error("cannot write " + path_ + " through MPI-IO: " + mpi_error(code));
}

void SharedFile::close() {
  int code = MPI_File_sync(file_);
  const int closed = MPI_File_close(&file_);
  if (code == MPI_SUCCESS) code = closed;
  if (code != MPI_SUCCESS)
    throw std::runtime_error("cannot write " + path_ + " through MPI-IO: " + mpi_error(code));
}

#else  // one rank

Session::Session(int&, char**&) {}
Session::~Session() {}
int rank() { return 0; }
int count() { return 1; }
void step(const std::function<void()>& local) { local(); }
std::pair<std::size_t, std::size_t> share(std::size_t M) { return {0, M}; }
std::size_t sum(std::size_t value) { return value; }
std::size_t max(std::size_t value) { return value; }
std::size_t min(std::size_t value) { return value; }
void broadcast(std::string&, int) {}
std::string gather_lines(const std::string& line) { return line; }

#endif

int status_of(const std::exception& error) {
  if (const auto* agreed = dynamic_cast<const Agreed*>(&error)) return agreed->status;
  if (dynamic_cast<const UsageError*>(&error) || dynamic_cast<const std::invalid_argument*>(&error))
    return 2;
  return 1;
}

}  // namespace recur::cli::ranks
