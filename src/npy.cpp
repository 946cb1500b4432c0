#include <recur/npy.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>
#include <utility>

namespace recur::npy {

namespace {

constexpr unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

// NumPy itself refuses headers over 10 000 bytes unless told otherwise;
// anything this large is a damaged file, and it bounds what is read.
constexpr std::size_t max_header_length = std::size_t(1) << 20;

// Nesting a well-formed header never needs (a structured dtype's list of
// tuples of shapes is 3 deep); bounds the parser's recursion.
constexpr int max_nesting = 16;

bool host_is_big_endian() {
  const std::uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 0;
}

std::string shape_string(const std::vector<std::size_t>& shape) {
  std::ostringstream out;
  out << '(';
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out << ", ";
    out << shape[i];
  }
  if (shape.size() == 1) out << ',';
  out << ')';
  return out.str();
}

// The bytes of an array of this shape, or false when they are more than a
// signed size can hold. As in NumPy, zero extents do not excuse the others:
// (2^40, 2^40, 0) is as invalid as (2^40, 2^40), though it holds no element.
bool bytes_of(DType dtype, const std::vector<std::size_t>& shape, std::size_t& bytes) {
  constexpr std::size_t limit = std::size_t(std::numeric_limits<std::ptrdiff_t>::max());
  std::size_t nonzero = size_of(dtype);
  bool empty          = false;
  for (std::size_t extent : shape) {
    if (extent == 0) {
      empty = true;
      continue;
    }
    if (extent > limit / nonzero) return false;
    nonzero *= extent;
  }
  bytes = empty ? 0 : nonzero;
  return true;
}

std::string shown(const std::string& text) {
  // Header text may hold any byte: show control and non-ASCII bytes escaped,
  // so the message stays one printable line.
  std::string out = "'";
  for (unsigned char c : text.substr(0, 40)) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += char(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
    }
  }
  if (text.size() > 40) out += "...";
  return out + "'";
}

// The value of a Python literal in a .npy header: the dictionary's keys and
// values are strings, True/False, integers and tuples (lists for structured
// dtypes).
struct Literal {
  enum Kind { String, Boolean, Integer, Tuple, List, None } kind = None;
  std::string text;            // String
  bool boolean      = false;   // Boolean
  bool negative     = false;   // Integer
  bool too_large    = false;   // Integer beyond 64 bits
  std::uint64_t magnitude = 0;  // Integer
  std::vector<Literal> items;  // Tuple, List
};

class HeaderParser {
 public:
  HeaderParser(const unsigned char* begin, const unsigned char* end) : begin_(begin), p_(begin), end_(end) {}

  // The header's dictionary, as (key, value) pairs.
  std::vector<std::pair<std::string, Literal>> dictionary() {
    skip_space();
    expect('{', "the dictionary to start with '{'");
    std::vector<std::pair<std::string, Literal>> entries;
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      if (peek() != '\'' && peek() != '"') fail("expected a quoted key");
      std::string key = string_literal();
      skip_space();
      expect(':', "':' after key " + shown(key));
      Literal value = value_literal(1);
      entries.emplace_back(std::move(key), std::move(value));
      skip_space();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() != '}') fail("expected ',' or '}' after the value of " + shown(entries.back().first));
    }
    ++p_;
    skip_space();
    if (p_ != end_) fail("unexpected " + shown(std::string(1, char(*p_))) + " after the dictionary");
    return entries;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::ostringstream message;
    message << "malformed .npy header: " << what << " at character " << (p_ - begin_)
            << " of the header; the file is damaged or was not written by numpy.save";
    throw Error(message.str());
  }
  int peek() const { return p_ < end_ ? *p_ : -1; }
  void skip_space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  void expect(char c, const std::string& what) {
    if (peek() != c) fail("expected " + what);
    ++p_;
  }
  bool keyword(const char* word) {
    const std::size_t n = std::strlen(word);
    if (std::size_t(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    return true;
  }

  std::string string_literal() {
    const unsigned char quote = *p_++;
    std::string text;
    while (p_ < end_ && *p_ != quote) {
      if (*p_ == '\\') {
        ++p_;
        if (p_ == end_) break;
      }
      text += char(*p_++);
    }
    if (p_ == end_) fail("unterminated string");
    ++p_;
    return text;
  }

  Literal value_literal(int depth) {
    if (depth > max_nesting) fail("values nested too deeply");
    skip_space();
    Literal value;
    const int c = peek();
    if (c == '\'' || c == '"') {
      value.kind = Literal::String;
      value.text = string_literal();
    } else if (c == '(' || c == '[') {
      value.kind        = c == '(' ? Literal::Tuple : Literal::List;
      const char close  = c == '(' ? ')' : ']';
      ++p_;
      for (;;) {
        skip_space();
        if (peek() == close) break;
        value.items.push_back(value_literal(depth + 1));
        skip_space();
        if (peek() == ',') {
          ++p_;
          continue;
        }
        if (peek() != close) fail(std::string("expected ',' or '") + close + "' in a sequence");
      }
      ++p_;
    } else if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
      value.kind = Literal::Integer;
      if (c == '-' || c == '+') {
        value.negative = c == '-';
        ++p_;
        skip_space();
      }
      if (!(peek() >= '0' && peek() <= '9')) fail("expected digits of an integer");
      while (peek() >= '0' && peek() <= '9') {
        const unsigned digit = unsigned(*p_++ - '0');
        if (value.magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
          value.too_large = true;
        else
          value.magnitude = value.magnitude * 10 + digit;
      }
      if (peek() == 'L' || peek() == 'l') ++p_;  // Python 2 longs, in old files
    } else if (keyword("True")) {
      value.kind    = Literal::Boolean;
      value.boolean = true;
    } else if (keyword("False")) {
      value.kind = Literal::Boolean;
    } else if (keyword("None")) {
      value.kind = Literal::None;
    } else {
      fail(c < 0 ? std::string("expected a value, found the end of the header")
                 : "expected a value, found " + shown(std::string(1, char(c))));
    }
    return value;
  }

  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
};

const char* kind_of_type(char type, std::size_t bytes) {
  switch (type) {
    case 'i': return "integer";
    case 'u': return "unsigned integer";
    case 'c': return "complex";
    case 'O': return "object";
    case 'b':
    case '?': return "boolean";
    case 'f': return bytes == 2 ? "float16" : "floating point of an unsupported size";
    case 'U': return "unicode string";
    case 'S':
    case 'a': return "byte string";
    case 'V': return "structured or void";
    case 'M': return "datetime";
    case 'm': return "timedelta";
    default: return "unknown";
  }
}

void parse_descr(const Literal& descr, Header& header) {
  if (descr.kind == Literal::List)
    throw Error(
        "unsupported dtype: a structured dtype (named fields); recur reads plain float32 or "
        "float64 arrays: save one field, e.g. x['name'].astype(numpy.float64)");
  if (descr.kind != Literal::String)
    throw Error("malformed .npy header: 'descr' must be a dtype string such as '<f8'");
  const std::string& text = descr.text;
  std::size_t i           = 0;
  bool big                = host_is_big_endian();
  if (!text.empty() && (text[0] == '<' || text[0] == '>' || text[0] == '=' || text[0] == '|')) {
    if (text[0] == '<') big = false;
    if (text[0] == '>') big = true;
    i = 1;
  }
  const char type = i < text.size() ? text[i] : '\0';
  std::size_t bytes = 0;
  bool digits = i + 1 < text.size();
  for (std::size_t k = i + 1; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9' || bytes > 1000) {
      digits = false;
      break;
    }
    bytes = bytes * 10 + std::size_t(text[k] - '0');
  }
  if (type == 'f' && digits && (bytes == 4 || bytes == 8)) {
    header.dtype      = bytes == 4 ? DType::Float32 : DType::Float64;
    header.big_endian = big;
    return;
  }
  throw Error("unsupported dtype " + shown(text) + " (" + kind_of_type(type, digits ? bytes : 0) +
              "); recur reads float32 or float64 arrays: convert with x.astype(numpy.float64)");
}

void parse_shape(const Literal& shape, Header& header) {
  if (shape.kind != Literal::Tuple)
    throw Error("malformed .npy header: 'shape' must be a tuple of integers, such as (1000,)");
  for (const Literal& item : shape.items) {
    if (item.kind != Literal::Integer)
      throw Error("malformed .npy header: 'shape' must be a tuple of integers, such as (1000,)");
    if (item.negative && (item.magnitude != 0 || item.too_large))
      throw Error("invalid .npy shape: a dimension is negative (-" +
                  (item.too_large ? std::string("...") : std::to_string(item.magnitude)) +
                  "); the header is damaged");
    if (item.too_large || item.magnitude > std::numeric_limits<std::size_t>::max())
      throw Error("invalid .npy shape: a dimension has more than 20 digits; the header is damaged");
    header.shape.push_back(std::size_t(item.magnitude));
  }
}

}  // namespace

const char* name(DType dtype) {
  return dtype == DType::Float32 ? "float32" : dtype == DType::Float64 ? "float64" : "int64";
}

std::size_t size_of(DType dtype) { return dtype == DType::Float32 ? 4 : 8; }

Header parse_header(const unsigned char* bytes, std::size_t size, std::uint64_t file_size) {
  if (bytes == nullptr) size = 0;
  if (file_size == 0) throw Error("the file is empty (0 bytes); expected a .npy array");
  const std::size_t have = std::size_t(std::min<std::uint64_t>(size, file_size));
  if (have < sizeof magic || std::memcmp(bytes, magic, sizeof magic) != 0)
    throw Error(
        "not a .npy file: it does not start with \\x93NUMPY; save the array with numpy.save");
  if (have < 10)
    throw Error("truncated .npy header: the file ends after " + std::to_string(have) +
                " bytes, inside the 10-byte prefix");
  const int major = bytes[6], minor = bytes[7];
  if (!(major >= 1 && major <= 3 && minor == 0))
    throw Error("unsupported .npy format version " + std::to_string(major) + "." +
                std::to_string(minor) + "; recur reads versions 1.0, 2.0 and 3.0");
  std::size_t prefix        = 10;
  std::uint64_t header_size = std::uint64_t(bytes[8]) | std::uint64_t(bytes[9]) << 8;
  if (major >= 2) {
    if (have < 12)
      throw Error("truncated .npy header: the file ends after " + std::to_string(have) +
                  " bytes, inside the 12-byte prefix");
    prefix      = 12;
    header_size = header_size | std::uint64_t(bytes[10]) << 16 | std::uint64_t(bytes[11]) << 24;
  }
  if (prefix + header_size > file_size)
    throw Error("truncated .npy header: it says it is " + std::to_string(header_size) +
                " bytes long but the file has only " + std::to_string(file_size - prefix) +
                " bytes after the " + std::to_string(prefix) + "-byte prefix");
  if (header_size > max_header_length)
    throw Error("the .npy header says it is " + std::to_string(header_size) +
                " bytes long, more than the " + std::to_string(max_header_length) +
                " bytes recur accepts; the file is damaged");
  if (prefix + header_size > have)
    throw Error("the .npy header needs " + std::to_string(prefix + header_size) +
                " bytes but only " + std::to_string(have) + " were given to the parser");

  Header header;
  header.data_offset = prefix + std::size_t(header_size);
  // Versions 1.0 and 2.0 are latin-1, 3.0 is UTF-8: the same to this parser,
  // which only needs the ASCII keys and values of a float array's header.
  HeaderParser parser(bytes + prefix, bytes + prefix + header_size);
  const auto entries = parser.dictionary();
  const Literal* descr = nullptr;
  const Literal* order = nullptr;
  const Literal* shape = nullptr;
  for (const auto& [key, value] : entries) {
    const Literal** slot = key == "descr"           ? &descr
                           : key == "fortran_order" ? &order
                           : key == "shape"         ? &shape
                                                    : nullptr;
    if (slot == nullptr)
      throw Error("malformed .npy header: unexpected key " + shown(key) +
                  " (a .npy header has 'descr', 'fortran_order' and 'shape')");
    if (*slot != nullptr) throw Error("malformed .npy header: key " + shown(key) + " appears twice");
    *slot = &value;
  }
  for (const auto& [key, slot] : {std::pair<const char*, const Literal*>{"descr", descr},
                                  {"fortran_order", order},
                                  {"shape", shape}})
    if (slot == nullptr)
      throw Error(std::string("malformed .npy header: no '") + key +
                  "' key (a .npy header has 'descr', 'fortran_order' and 'shape')");
  if (order->kind != Literal::Boolean)
    throw Error("malformed .npy header: 'fortran_order' must be True or False");
  header.fortran_order = order->boolean;
  parse_shape(*shape, header);
  parse_descr(*descr, header);

  std::size_t data_bytes = 0;
  if (!bytes_of(header.dtype, header.shape, data_bytes))
    throw Error("invalid .npy shape " + shape_string(header.shape) +
                ": more bytes than this machine can address; the header is damaged");
  const std::uint64_t after_header = file_size - header.data_offset;
  const std::string described = "shape " + shape_string(header.shape) + " of " +
                                name(header.dtype) + " needs " + std::to_string(data_bytes) +
                                " bytes";
  if (after_header < data_bytes)
    throw Error("truncated .npy data: " + described + " but the file has " +
                std::to_string(after_header) + " after the header");
  if (after_header > data_bytes)
    throw Error("the .npy file is longer than its header says: " + described + " but the file has " +
                std::to_string(after_header) + " after the header; it is damaged");
  return header;
}

namespace {

// A file descriptor closed on every path.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

void read_exactly(int fd, std::uint64_t offset, void* data, std::size_t bytes, const std::string& path) {
  auto* out = static_cast<unsigned char*>(data);
  while (bytes > 0) {
    const ssize_t got = ::pread(fd, out, std::min<std::size_t>(bytes, std::size_t(1) << 30), off_t(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(path + ": cannot read: " + std::strerror(errno));
    if (got == 0) throw Error(path + ": the file became shorter while it was read");
    out += got;
    offset += std::uint64_t(got);
    bytes -= std::size_t(got);
  }
}

template <class Word>
Word byte_swapped(Word word) {
  unsigned char b[sizeof(Word)];
  std::memcpy(b, &word, sizeof b);
  std::reverse(b, b + sizeof b);
  std::memcpy(&word, b, sizeof b);
  return word;
}

template <class Float, class Word>
void widen(const unsigned char* data, std::size_t count, bool swap, std::vector<double>& out) {
  out.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    Word word;
    std::memcpy(&word, data + i * sizeof(Word), sizeof word);
    if (swap) word = byte_swapped(word);
    Float value;
    std::memcpy(&value, &word, sizeof value);
    out[i] = double(value);
  }
}

}  // namespace

namespace {

// Opens a .npy file for reading and parses its header; throws Error naming
// `path`.
Header open_for_reading(const std::string& path, FileDescriptor& file) {
  file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) {
    const int error = errno;
    if (error == ENOENT) throw Error(path + ": no such file");
    throw Error(path + ": cannot open: " + std::strerror(error));
  }
  struct stat info;
  if (::fstat(file.fd, &info) != 0) throw Error(path + ": cannot read: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw Error(path + ": is a folder, not a .npy file");
  const std::uint64_t file_size = std::uint64_t(info.st_size);
  try {
    std::vector<unsigned char> start(std::size_t(std::min<std::uint64_t>(file_size, max_header_length + 12)));
    read_exactly(file.fd, 0, start.data(), start.size(), path);
    return parse_header(start.data(), start.size(), file_size);
  } catch (const Error& error) {
    if (std::strncmp(error.what(), path.c_str(), path.size()) == 0) throw;
    throw Error(path + ": " + error.what());
  }
}

// `count` elements of the file's type from `offset` (in elements), widened.
void read_widened(const FileDescriptor& file, const Header& header, std::size_t offset,
                  std::size_t count, const std::string& path, std::vector<double>& out) {
  const std::size_t element = size_of(header.dtype);
  std::vector<unsigned char> data(count * element);
  read_exactly(file.fd, header.data_offset + std::uint64_t(offset) * element, data.data(), data.size(),
               path);
  const bool swap = header.big_endian != host_is_big_endian();
  if (header.dtype == DType::Float32)
    widen<float, std::uint32_t>(data.data(), count, swap, out);
  else
    widen<double, std::uint64_t>(data.data(), count, swap, out);
}

}  // namespace

VectorPart read_vector_part(const std::string& path, const PartOf& part_of) {
  FileDescriptor file;
  const Header header = open_for_reading(path, file);
  std::size_t count = 1;
  for (std::size_t extent : header.shape) count *= extent;  // checked by parse_header
  const std::size_t rank = header.shape.size();
  if (!(rank == 1 || (rank == 2 && (header.shape[0] == 1 || header.shape[1] == 1))))
    throw Error(path + ": the array has shape " + shape_string(header.shape) +
                "; recur reads a 1-D array (or one of shape (M, 1) or (1, M)): save x.ravel() "
                "to use every entry");

  // With one extent 1, C and Fortran order hold the entries in the same order.
  const auto [first, part] = part_of(count);
  if (first > count || part > count - first)
    throw Error(path + ": entries " + std::to_string(first) + " to " + std::to_string(first + part) +
                " asked for, beyond its " + std::to_string(count));
  VectorPart result;
  result.length        = count;
  result.first         = first;
  result.vector.dtype  = header.dtype;
  read_widened(file, header, first, part, path, result.vector.values);
  return result;
}

Matrix read_matrix(const std::string& path) {
  FileDescriptor file;
  const Header header = open_for_reading(path, file);
  if (header.shape.empty() || header.shape.size() > 2)
    throw Error(path + ": the array has shape " + shape_string(header.shape) +
                "; recur reads samples as an (M, d) array, one sample a row (or a 1-D array "
                "for d = 1)");
  Matrix result;
  result.dtype   = header.dtype;
  result.rows    = header.shape[0];
  result.columns = header.shape.size() == 2 ? header.shape[1] : 1;
  std::vector<double> values;
  read_widened(file, header, 0, result.rows * result.columns, path, values);
  if (!header.fortran_order || result.columns == 1) {
    result.values = std::move(values);
  } else {
    result.values.resize(values.size());
    for (std::size_t k = 0; k < result.columns; ++k)
      for (std::size_t i = 0; i < result.rows; ++i)
        result.values[i * result.columns + k] = values[k * result.rows + i];
  }
  return result;
}

Vector read_vector(const std::string& path) {
  return read_vector_part(path, [](std::size_t length) {
           return std::pair<std::size_t, std::size_t>(0, length);
         }).vector;
}



std::string make_header(DType dtype, const std::vector<std::size_t>& shape, bool fortran_order) {
  std::string dict = std::string("{'descr': '") + (host_is_big_endian() ? '>' : '<') +
                     (dtype == DType::Float32 ? "f4" : dtype == DType::Float64 ? "f8" : "i8") +
                     "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + shape_string(shape) + ", }";
  // NumPy pads with spaces and a final newline so that the data starts at a
  // multiple of 64 bytes.
  for (int major = 1; major <= 2; ++major) {
    const std::size_t prefix = major == 1 ? 10 : 12;
    const std::size_t total  = (prefix + dict.size() + 1 + 63) / 64 * 64;
    const std::size_t length = total - prefix;
    if (major == 1 && length > 0xffff) continue;
    std::string header(reinterpret_cast<const char*>(magic), sizeof magic);
    header += char(major);
    header += char(0);
    for (std::size_t k = 0; k < prefix - 8; ++k) header += char((length >> (8 * k)) & 0xff);
    header += dict;
    header.append(length - dict.size() - 1, ' ');
    header += '\n';
    return header;
  }
  throw Error("the .npy header of shape " + shape_string(shape) + " is too long to write");
}

namespace {

std::string folder_of(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  return folder.empty() ? std::string(".") : folder.string();
}

[[noreturn]] void fail_to_create(const std::string& path, int error) {
  const std::string folder = folder_of(path);
  switch (error) {
    case ENOENT: throw Error("cannot write " + path + ": the folder " + folder + " does not exist");
    case ENOTDIR: throw Error("cannot write " + path + ": " + folder + " is not a folder");
    case EACCES:
    case EPERM:
      throw Error("cannot write " + path + ": no permission to create files in " + folder);
    case EROFS: throw Error("cannot write " + path + ": " + folder + " is on a read-only file system");
    default: throw Error("cannot write " + path + ": " + std::strerror(error));
  }
}

[[noreturn]] void fail_to_store(const std::string& path, int error, std::uint64_t bytes) {
  if (error == ENOSPC || error == EDQUOT)
    throw Error("no space left on device for " + path + ": needs " + std::to_string(bytes) +
                " bytes");
  if (error == EFBIG)
    throw Error("cannot write " + path + ": its " + std::to_string(bytes) +
                " bytes exceed the file size limit (ulimit -f)");
  throw Error("cannot write " + path + ": " + std::strerror(error));
}

}  // namespace

Writer::Writer(const std::string& path, DType dtype, std::vector<std::size_t> shape,
               bool fortran_order)
    : path_(path), dtype_(dtype) {
  if (path.empty()) throw Error("cannot write an output with an empty path");
  struct stat existing;
  const bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode))
    throw Error("cannot write " + path + ": it is a folder; give a file name");
  if (exists && ::access(path.c_str(), W_OK) != 0)
    throw Error("cannot write " + path + ": the file exists and is read-only");

  std::size_t data_bytes = 0;
  if (!bytes_of(dtype, shape, data_bytes))
    throw Error("cannot write " + path + ": shape " + shape_string(shape) + " is too large");
  elements_ = data_bytes / size_of(dtype);
  const std::string header = make_header(dtype, shape, fortran_order);
  data_offset_             = header.size();
  total_bytes_             = std::uint64_t(data_offset_) + data_bytes;

  const std::string name = std::filesystem::path(path).filename().string();
  std::string temporary  = folder_of(path) + "/." + name + ".tmp-XXXXXX";
  fd_ = ::mkstemp(temporary.data());
  if (fd_ < 0) fail_to_create(path, errno);
  temporary_ = temporary;
  try {
    ::fcntl(fd_, F_SETFD, FD_CLOEXEC);
    // The permissions an ordinary new file gets (mkstemp makes it 0600), or
    // the ones of the file it replaces.
    mode_t mode = existing.st_mode & 07777;
    if (!exists) {
      const mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    ::fchmod(fd_, mode);

    if (total_bytes_ > 0) {
      const int error = ::posix_fallocate(fd_, 0, off_t(total_bytes_));
      if (error == EOPNOTSUPP || error == ENOSYS) {
        // A file system that cannot reserve: the length at least.
        if (::ftruncate(fd_, off_t(total_bytes_)) != 0) fail_to_store(path, errno, total_bytes_);
      } else if (error != 0) {
        fail_to_store(path, error, total_bytes_);
      }
    }
    const ssize_t wrote = ::pwrite(fd_, header.data(), header.size(), 0);
    if (wrote != ssize_t(header.size())) fail_to_store(path, wrote < 0 ? errno : EIO, total_bytes_);
  } catch (...) {
    ::close(fd_);
    ::unlink(temporary_.c_str());
    throw;
  }
}

Writer::~Writer() {
  if (fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void Writer::write(std::size_t element_offset, const void* native_data, std::size_t count) {
  if (fd_ < 0) throw Error("cannot write " + path_ + ": the file is already committed");
  if (element_offset > elements_ || count > elements_ - element_offset)
    throw Error("cannot write " + path_ + ": elements " + std::to_string(element_offset) + " to " +
                std::to_string(element_offset + count) + " are beyond its " +
                std::to_string(elements_));
  const std::size_t element = size_of(dtype_);
  const auto* data          = static_cast<const unsigned char*>(native_data);
  std::size_t bytes         = count * element;
  std::uint64_t offset      = std::uint64_t(data_offset_) + std::uint64_t(element_offset) * element;
  while (bytes > 0) {
    const ssize_t wrote = ::pwrite(fd_, data, std::min<std::size_t>(bytes, std::size_t(1) << 30), off_t(offset));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) fail_to_store(path_, wrote < 0 ? errno : EIO, total_bytes_);
    data += wrote;
    offset += std::uint64_t(wrote);
    bytes -= std::size_t(wrote);
  }
}

void Writer::commit() {
  if (fd_ < 0) throw Error("cannot write " + path_ + ": the file is already committed");
  if (::fsync(fd_) != 0) fail_to_store(path_, errno, total_bytes_);
  const int fd = fd_;
  fd_          = -1;
  if (::close(fd) != 0) fail_to_store(path_, errno, total_bytes_);
  if (::rename(temporary_.c_str(), path_.c_str()) != 0)
    throw Error("cannot write " + path_ + ": renaming " + temporary_ + " over it failed: " +
                std::strerror(errno));
  temporary_.clear();
  // The rename itself reaches the disk when the folder is synced.
  const int folder = ::open(folder_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    ::fsync(folder);
    ::close(folder);
  }
}

void write(const std::string& path, DType dtype, const std::vector<std::size_t>& shape,
           bool fortran_order, const void* native_data) {
  Writer writer(path, dtype, shape, fortran_order);
  writer.write(0, native_data, writer.elements());
  writer.commit();
}

}  // namespace recur::npy
