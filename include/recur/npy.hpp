#ifndef RECUR_NPY_HPP
#define RECUR_NPY_HPP

/// NumPy .npy files: a reader for vectors of float32/float64 and an atomic
/// writer of float32/float64 arrays (the format of numpy.lib.format).
///
/// Plain C++17 without Kokkos, so that tools (the fuzz harness of the header
/// parser) can build it alone.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

namespace recur::npy {

/// Every problem with a file: a one-line message that says what is wrong and
/// what to do about it.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The element types recur reads and writes (Int64: written only, for
/// multi-index tables).
enum class DType { Float32, Float64, Int64 };

/// "float32", "float64" or "int64", NumPy's names.
const char* name(DType dtype);

/// Bytes per element: 4 or 8.
std::size_t size_of(DType dtype);

/// What a .npy header says.
struct Header {
  DType dtype = DType::Float64;
  bool big_endian    = false;  ///< the data's byte order ('>' in descr)
  bool fortran_order = false;  ///< column-major (numpy's order='F')
  std::vector<std::size_t> shape;
  std::size_t data_offset = 0;  ///< where the data starts in the file
};

/// Parses the header at the start of a .npy file: `bytes` holds the first
/// `size` bytes of the file (the whole header at least), `file_size` is the
/// length of the whole file, against which the data's length is checked.
/// Reads format versions 1.0, 2.0 and 3.0 with dtypes '<f4', '>f4', '<f8',
/// '>f8' (and '=', '|' or no byte-order mark for native order); throws Error
/// for anything else, never reads outside [bytes, bytes + size).
Header parse_header(const unsigned char* bytes, std::size_t size, std::uint64_t file_size);

/// A vector of x values as read from a file, widened to double (exactly:
/// every float32 is a double).
struct Vector {
  DType dtype = DType::Float64;  ///< the file's element type
  std::vector<double> values;
};

/// Reads a 1-D array, or an (M, 1) or (1, M) one, of float32 or float64 in
/// either byte order and either memory order. Throws Error naming `path`.
Vector read_vector(const std::string& path);

/// A 2-D array of float32 or float64 (M rows, d columns), widened to
/// double, row-major in `values` whatever the file's order.
struct Matrix {
  DType dtype = DType::Float64;
  std::size_t rows = 0, columns = 0;
  std::vector<double> values;
};

/// Reads an (M, d) array of float32 or float64 in either byte order and
/// either memory order; a 1-D array of M entries is read as (M, 1). Throws
/// Error naming `path`.
Matrix read_matrix(const std::string& path);

/// Which entries of a vector of `length` entries to read: (first, count).
using PartOf = std::function<std::pair<std::size_t, std::size_t>(std::size_t length)>;

/// Part of the vector read_vector reads: entries [first, first + count) of
/// its `length`, (first, count) = part_of(length); only they are read.
struct VectorPart {
  std::size_t length = 0;
  std::size_t first  = 0;
  Vector vector;
};
VectorPart read_vector_part(const std::string& path, const PartOf& part_of);

/// Writes one .npy file atomically: the data goes to a temporary file in the
/// destination's folder, whose whole length is reserved up front (so a full
/// disk is reported before anything is computed), and commit() renames it
/// over `path`. Until then `path` is untouched; destroying a Writer that was
/// not committed removes the temporary file. The header is format 1.0
/// (2.0 when it needs more than 65535 bytes), padded to a multiple of 64
/// bytes as NumPy pads it, in the machine's byte order.
class Writer {
 public:
  /// Creates the temporary file and reserves its length; throws Error when
  /// the folder is not writable, `path` is a folder or a read-only file, or
  /// the disk (or the file size limit) has no room for it.
  Writer(const std::string& path, DType dtype, std::vector<std::size_t> shape,
         bool fortran_order);
  Writer(const Writer&)            = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer();

  /// Writes `count` elements of native byte order at element `element_offset`
  /// of the data (in the file's order: C or Fortran), in any order; calls
  /// for disjoint ranges may run concurrently.
  void write(std::size_t element_offset, const void* native_data, std::size_t count);

  /// Flushes the data to the disk and renames the file over `path`.
  void commit();

  /// Elements in the array (the product of the shape).
  std::size_t elements() const { return elements_; }
  /// Where the data start in the file: the header's length in bytes.
  std::size_t data_offset() const { return data_offset_; }
  /// The temporary file being written (empty once committed).
  const std::string& temporary_path() const { return temporary_; }

 private:
  std::string path_;
  std::string temporary_;
  DType dtype_;
  std::size_t elements_    = 0;
  std::size_t data_offset_   = 0;
  std::uint64_t total_bytes_ = 0;
  int fd_                    = -1;
};

/// Writes a whole array from memory (C order if !fortran_order) through a
/// Writer.
void write(const std::string& path, DType dtype, const std::vector<std::size_t>& shape,
           bool fortran_order, const void* native_data);

/// The header bytes a Writer writes for that array (for tests and tools).
std::string make_header(DType dtype, const std::vector<std::size_t>& shape, bool fortran_order);

}  // namespace recur::npy

#endif
