// recur::npy: the .npy header parser, the vector reader and the atomic
// writer. Files NumPy itself writes are checked by unit_tests/cli/test_cli.py.

#include <recur/npy.hpp>

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using recur::npy::DType;

// A scratch folder per test.
class Npy : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "recur-npy-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }
  // Files in the folder, so that a test sees what a failed write leaves.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder_)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path folder_;
};

std::string contents(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

void put(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A .npy file of the given version, header dictionary and data bytes, with
// the dictionary padded as NumPy pads it.
std::string npy_file(int major, std::string dict, const std::string& data) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  const std::size_t total  = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string file = "\x93NUMPY";
  file += char(major);
  file += char(0);
  for (std::size_t k = 0; k < prefix - 8; ++k) file += char((dict.size() >> (8 * k)) & 0xff);
  return file + dict + data;
}

template <class Word>
std::string bytes_of(const std::vector<Word>& words, bool swap) {
  std::string bytes(words.size() * sizeof(Word), '\0');
  for (std::size_t i = 0; i < words.size(); ++i) {
    unsigned char b[sizeof(Word)];
    std::memcpy(b, &words[i], sizeof b);
    if (swap) std::reverse(b, b + sizeof b);
    std::memcpy(&bytes[i * sizeof(Word)], b, sizeof b);
  }
  return bytes;
}

// The message parse_header throws for a whole file's bytes ("" if none).
std::string parse_error(const std::string& file) {
  try {
    recur::npy::parse_header(reinterpret_cast<const unsigned char*>(file.data()), file.size(), file.size());
  } catch (const recur::npy::Error& error) {
    return error.what();
  }
  return "";
}

const std::string f8_dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
const std::string three_doubles = bytes_of(std::vector<double>{0.5, -2, 1e300}, false);

TEST_F(Npy, ReadsEveryVersionByteOrderAndElementType) {
  const std::vector<double> values{0.5, -2.25, 3e-310, 1e300};
  const std::vector<float> floats{0.5f, -2.25f, 1e-40f, 3e38f};
  const bool big_host = [] {
    const std::uint16_t one = 1;
    return *reinterpret_cast<const unsigned char*>(&one) == 0;
  }();
  for (int major : {1, 2, 3}) {
    for (const char* order : {"<", ">", "=", "|", ""}) {
      const bool swap = (std::string(order) == "<" && big_host) || (std::string(order) == ">" && !big_host);
      for (const char* shape : {"(4,)", "(4, 1)", "(1, 4)"}) {
        for (const char* fortran : {"False", "True"}) {
          SCOPED_TRACE(std::to_string(major) + order + shape + fortran);
          const std::string dict_end = std::string("', 'fortran_order': ") + fortran + ", 'shape': " + shape + ", }";
          put(path("d.npy"), npy_file(major, std::string("{'descr': '") + order + "f8" + dict_end,
                                      bytes_of(values, swap)));
          const auto d = recur::npy::read_vector(path("d.npy"));
          EXPECT_EQ(d.dtype, DType::Float64);
          EXPECT_EQ(d.values, values);
          put(path("f.npy"), npy_file(major, std::string("{'descr': '") + order + "f4" + dict_end,
                                      bytes_of(floats, swap)));
          const auto f = recur::npy::read_vector(path("f.npy"));
          EXPECT_EQ(f.dtype, DType::Float32);
          ASSERT_EQ(f.values.size(), 4u);
          for (int i = 0; i < 4; ++i) EXPECT_EQ(f.values[i], double(floats[i]));  // exact
        }
      }
    }
  }
}

TEST_F(Npy, HeaderFields) {
  const std::string file = npy_file(
      2, "{\"shape\": (3, 2), \"fortran_order\": True, \"descr\": \">f4\"}", std::string(24, '\0'));
  const auto header = recur::npy::parse_header(reinterpret_cast<const unsigned char*>(file.data()),
                                               file.size(), file.size());
  EXPECT_EQ(header.dtype, DType::Float32);
  EXPECT_TRUE(header.big_endian);
  EXPECT_TRUE(header.fortran_order);
  EXPECT_EQ(header.shape, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(header.data_offset, 128u);
}

TEST_F(Npy, RoundTripsThroughTheWriter) {
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (bool fortran : {false, true}) {
      const std::vector<std::size_t> shape{5, 3};
      std::vector<double> doubles(15);
      std::vector<float> floats(15);
      for (int i = 0; i < 15; ++i) floats[i] = float(doubles[i] = 0.1 * i - 0.7);
      const void* data = dtype == DType::Float32 ? static_cast<const void*>(floats.data()) : doubles.data();
      recur::npy::write(path("V.npy"), dtype, shape, fortran, data);
      const std::string file = contents(path("V.npy"));
      const auto header = recur::npy::parse_header(reinterpret_cast<const unsigned char*>(file.data()),
                                                   file.size(), file.size());
      EXPECT_EQ(header.dtype, dtype);
      EXPECT_EQ(header.fortran_order, fortran);
      EXPECT_EQ(header.shape, shape);
      EXPECT_EQ(header.data_offset % 64, 0u);  // NumPy's alignment
      EXPECT_EQ(file[header.data_offset - 1], '\n');
      EXPECT_EQ(file.substr(header.data_offset),
                std::string(static_cast<const char*>(data), 15 * recur::npy::size_of(dtype)));
    }
  }
  // A vector comes back as it went.
  const std::vector<double> x{1, -0.5, 1e-300};
  recur::npy::write(path("x.npy"), DType::Float64, {3}, false, x.data());
  EXPECT_EQ(recur::npy::read_vector(path("x.npy")).values, x);
  // Byte for byte what numpy.save writes for it.
  EXPECT_EQ(contents(path("x.npy")).substr(0, 128),
            std::string("\x93NUMPY\x01\x00\x76\x00", 10) + f8_dict + std::string(117 - f8_dict.size(), ' ') + "\n");
}

TEST_F(Npy, WritesVersion2WhenTheHeaderNeedsIt) {
  const std::vector<std::size_t> shape(22000, 1);  // a header of 66 000 bytes
  const std::string header = recur::npy::make_header(DType::Float64, shape, false);
  EXPECT_EQ(header[6], 2);
  EXPECT_EQ(header.size() % 64, 0u);
  const std::string file = header + std::string(8, '\0');
  const auto parsed = recur::npy::parse_header(reinterpret_cast<const unsigned char*>(file.data()),
                                               file.size(), file.size());
  EXPECT_EQ(parsed.shape, shape);
  EXPECT_EQ(recur::npy::make_header(DType::Float64, {3}, false)[6], 1);
}

TEST_F(Npy, Rejections) {
  const std::string valid = npy_file(1, f8_dict, three_doubles);
  EXPECT_EQ(parse_error(valid), "");
  EXPECT_EQ(parse_error(""), "the file is empty (0 bytes); expected a .npy array");
  EXPECT_EQ(parse_error("0.5\n1.5\n"),
            "not a .npy file: it does not start with \\x93NUMPY; save the array with numpy.save");
  EXPECT_EQ(parse_error(valid.substr(0, 8)),
            "truncated .npy header: the file ends after 8 bytes, inside the 10-byte prefix");
  EXPECT_EQ(parse_error(npy_file(2, f8_dict, three_doubles).substr(0, 11)),
            "truncated .npy header: the file ends after 11 bytes, inside the 12-byte prefix");
  std::string version = valid;
  version[6] = 4;
  EXPECT_EQ(parse_error(version), "unsupported .npy format version 4.0; recur reads versions 1.0, 2.0 and 3.0");
  version[6] = 1;
  version[7] = 1;
  EXPECT_EQ(parse_error(version), "unsupported .npy format version 1.1; recur reads versions 1.0, 2.0 and 3.0");
  EXPECT_EQ(parse_error(valid.substr(0, 50)),
            "truncated .npy header: it says it is 118 bytes long but the file has only 40 bytes after the "
            "10-byte prefix");
  std::string lying = valid;
  lying[8] = char(0xff);
  lying[9] = char(0xff);
  EXPECT_EQ(parse_error(lying),
            "truncated .npy header: it says it is 65535 bytes long but the file has only 142 bytes after the "
            "10-byte prefix");
  std::string huge = npy_file(2, f8_dict, three_doubles);
  huge[11] = char(0x10);  // 256 MiB and more, in a file that long
  try {
    recur::npy::parse_header(reinterpret_cast<const unsigned char*>(huge.data()), huge.size(), 300u << 20);
    ADD_FAILURE() << "a 256 MiB header was accepted";
  } catch (const recur::npy::Error& error) {
    EXPECT_STREQ(error.what(),
                 "the .npy header says it is 268435572 bytes long, more than the 1048576 bytes recur accepts; "
                 "the file is damaged");
  }
  EXPECT_EQ(parse_error(valid.substr(0, valid.size() - 8)),
            "truncated .npy data: shape (3,) of float64 needs 24 bytes but the file has 16 after the header");
  EXPECT_EQ(parse_error(valid + "x"),
            "the .npy file is longer than its header says: shape (3,) of float64 needs 24 bytes but the file "
            "has 25 after the header; it is damaged");
  // The bytes given must hold the header, whatever the file's size.
  EXPECT_THROW(recur::npy::parse_header(reinterpret_cast<const unsigned char*>(valid.data()), 60, valid.size()),
               recur::npy::Error);
}

TEST_F(Npy, UnsupportedDtypes) {
  const auto with_descr = [](const std::string& descr, std::size_t bytes) {
    return parse_error(npy_file(1, "{'descr': " + descr + ", 'fortran_order': False, 'shape': (3,), }",
                                std::string(3 * bytes, '\0')));
  };
  const std::string advice = "; recur reads float32 or float64 arrays: convert with x.astype(numpy.float64)";
  EXPECT_EQ(with_descr("'<i8'", 8), "unsupported dtype '<i8' (integer)" + advice);
  EXPECT_EQ(with_descr("'<u4'", 4), "unsupported dtype '<u4' (unsigned integer)" + advice);
  EXPECT_EQ(with_descr("'<c16'", 16), "unsupported dtype '<c16' (complex)" + advice);
  EXPECT_EQ(with_descr("'|O'", 8), "unsupported dtype '|O' (object)" + advice);
  EXPECT_EQ(with_descr("'|b1'", 1), "unsupported dtype '|b1' (boolean)" + advice);
  EXPECT_EQ(with_descr("'<f2'", 2), "unsupported dtype '<f2' (float16)" + advice);
  EXPECT_EQ(with_descr("'<f16'", 16), "unsupported dtype '<f16' (floating point of an unsupported size)" + advice);
  EXPECT_EQ(with_descr("'<U5'", 20), "unsupported dtype '<U5' (unicode string)" + advice);
  EXPECT_EQ(with_descr("'<M8[ns]'", 8), "unsupported dtype '<M8[ns]' (datetime)" + advice);
  EXPECT_EQ(with_descr("'<q8'", 8), "unsupported dtype '<q8' (unknown)" + advice);
  EXPECT_EQ(with_descr("'<f8\\x01'", 8),
            "unsupported dtype '<f8x01' (floating point of an unsupported size)" + advice);
  EXPECT_EQ(with_descr("[('a', '<f8'), ('b', '<i4')]", 12),
            "unsupported dtype: a structured dtype (named fields); recur reads plain float32 or float64 "
            "arrays: save one field, e.g. x['name'].astype(numpy.float64)");
  EXPECT_EQ(with_descr("8", 8), "malformed .npy header: 'descr' must be a dtype string such as '<f8'");
}

TEST_F(Npy, MalformedHeaders) {
  const auto with_dict = [](const std::string& dict) { return parse_error(npy_file(1, dict, three_doubles)); };
  const std::string tail = " of the header; the file is damaged or was not written by numpy.save";
  EXPECT_EQ(with_dict("['descr', '<f8']"), "malformed .npy header: expected the dictionary to start with '{' at character 0" + tail);
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': False}"),
            "malformed .npy header: no 'shape' key (a .npy header has 'descr', 'fortran_order' and 'shape')");
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'extra': 1}"),
            "malformed .npy header: unexpected key 'extra' (a .npy header has 'descr', 'fortran_order' and 'shape')");
  EXPECT_EQ(with_dict("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (3,)}"),
            "malformed .npy header: key 'descr' appears twice");
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': 0, 'shape': (3,)}"),
            "malformed .npy header: 'fortran_order' must be True or False");
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': [3]}"),
            "malformed .npy header: 'shape' must be a tuple of integers, such as (1000,)");
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3.5,)}"),
            "malformed .npy header: expected ',' or ')' in a sequence at character 52" + tail);
  EXPECT_EQ(with_dict("{'descr': '<f8, 'fortran_order': False, 'shape': (3,)}"),
            "malformed .npy header: expected ',' or '}' after the value of 'descr' at character 17" + tail);
  EXPECT_EQ(with_dict("{'descr' '<f8', 'fortran_order': False, 'shape': (3,)}"),
            "malformed .npy header: expected ':' after key 'descr' at character 9" + tail);
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,)} x"),
            "malformed .npy header: unexpected 'x' after the dictionary at character 56" + tail);
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': Fals, 'shape': (3,)}"),
            "malformed .npy header: expected a value, found 'F' at character 34" + tail);
  EXPECT_EQ(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,)"),
            "malformed .npy header: expected ',' or '}' after the value of 'shape' at character 118" + tail);
  EXPECT_EQ(with_dict("{'descr"), "malformed .npy header: unterminated string at character 54" + tail);
  EXPECT_EQ(with_dict("{'descr': " + std::string(40, '(') + std::string(40, ')') + "}"),
            "malformed .npy header: values nested too deeply at character 26" + tail);
}

TEST_F(Npy, InvalidShapes) {
  const auto with_shape = [](const std::string& shape) {
    return parse_error(npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }", ""));
  };
  EXPECT_EQ(with_shape("(-3,)"), "invalid .npy shape: a dimension is negative (-3); the header is damaged");
  EXPECT_EQ(with_shape("(3, -99999999999999999999999)"),
            "invalid .npy shape: a dimension is negative (-...); the header is damaged");
  EXPECT_EQ(with_shape("(99999999999999999999999,)"),
            "invalid .npy shape: a dimension has more than 20 digits; the header is damaged");
  EXPECT_EQ(with_shape("(4294967296, 4294967296)"),
            "invalid .npy shape (4294967296, 4294967296): more bytes than this machine can address; the header "
            "is damaged");
  EXPECT_EQ(with_shape("(4294967296, 1073741824)"),
            "invalid .npy shape (4294967296, 1073741824): more bytes than this machine can address; the header "
            "is damaged");
  // Zero extents are arrays without data; -0 is 0. As in NumPy, the other
  // extents must still describe an addressable array: 2^59 float64 are 2^62
  // bytes, 2^60 are 2^63, one more than a signed size holds.
  EXPECT_EQ(with_shape("(0, 536870912, 1073741824)"), "");
  EXPECT_EQ(with_shape("(1073741824, 0, 1073741824)"),
            "invalid .npy shape (1073741824, 0, 1073741824): more bytes than this machine can address; the "
            "header is damaged");
  // The fuzzer's find: the elements before the zero fit in 64 bits, their bytes do not.
  EXPECT_EQ(with_shape("(1000000, 5000, 48, 57000000, 0, 5778)"),
            "invalid .npy shape (1000000, 5000, 48, 57000000, 0, 5778): more bytes than this machine can "
            "address; the header is damaged");
  EXPECT_EQ(with_shape("(-0,)"), "");
  EXPECT_EQ(with_shape("(3L,)"),
            "truncated .npy data: shape (3,) of float64 needs 24 bytes but the file has 0 after the header");
}

TEST_F(Npy, ReadVectorSaysWhichFile) {
  const auto read_error = [](const std::string& path) {
    try {
      recur::npy::read_vector(path);
    } catch (const recur::npy::Error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(read_error(path("missing.npy")), path("missing.npy") + ": no such file");
  EXPECT_EQ(read_error(folder_.string()), folder_.string() + ": is a folder, not a .npy file");
  put(path("empty.npy"), "");
  EXPECT_EQ(read_error(path("empty.npy")), path("empty.npy") + ": the file is empty (0 bytes); expected a .npy array");
  put(path("m.npy"), npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }", std::string(48, '\0')));
  EXPECT_EQ(read_error(path("m.npy")),
            path("m.npy") + ": the array has shape (3, 2); recur reads a 1-D array (or one of shape (M, 1) or "
                            "(1, M)): save x.ravel() to use every entry");
  put(path("s.npy"), npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string(8, '\0')));
  EXPECT_EQ(read_error(path("s.npy")),
            path("s.npy") + ": the array has shape (); recur reads a 1-D array (or one of shape (M, 1) or "
                            "(1, M)): save x.ravel() to use every entry");
}

TEST_F(Npy, WriterReplacesOnlyOnCommit) {
  put(path("V.npy"), "the old output");
  {
    recur::npy::Writer writer(path("V.npy"), DType::Float64, {4}, false);
    const double values[] = {3, 4};
    writer.write(2, values, 2);  // any order
    EXPECT_EQ(contents(path("V.npy")), "the old output");
    EXPECT_EQ(files().size(), 2u);  // and the temporary file
  }  // not committed
  EXPECT_EQ(contents(path("V.npy")), "the old output");
  EXPECT_EQ(files(), std::vector<std::string>{"V.npy"});

  recur::npy::Writer writer(path("V.npy"), DType::Float64, {4}, false);
  const double values[] = {1, 2, 3, 4};
  writer.write(2, values + 2, 2);
  writer.write(0, values, 2);
  EXPECT_THROW(writer.write(3, values, 2), recur::npy::Error);
  writer.commit();
  EXPECT_EQ(recur::npy::read_vector(path("V.npy")).values, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(files(), std::vector<std::string>{"V.npy"});
  EXPECT_THROW(writer.commit(), recur::npy::Error);
}

TEST_F(Npy, WriterGivesNewFilesTheUsualPermissions) {
  const mode_t mask = ::umask(022);
  recur::npy::write(path("V.npy"), DType::Float32, {0, 3}, false, nullptr);
  ::umask(mask);
  struct stat info;
  ASSERT_EQ(::stat(path("V.npy").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
  const std::string file = contents(path("V.npy"));
  EXPECT_EQ(recur::npy::parse_header(reinterpret_cast<const unsigned char*>(file.data()), file.size(), file.size())
                .shape,
            (std::vector<std::size_t>{0, 3}));
}

TEST_F(Npy, WriterRefusesUnwritablePaths) {
  const auto create_error = [](const std::string& path) {
    try {
      recur::npy::Writer writer(path, DType::Float64, {1}, false);
    } catch (const recur::npy::Error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(create_error(path("no/V.npy")),
            "cannot write " + path("no/V.npy") + ": the folder " + path("no") + " does not exist");
  put(path("file"), "");
  EXPECT_EQ(create_error(path("file/V.npy")),
            "cannot write " + path("file/V.npy") + ": " + path("file") + " is not a folder");
  EXPECT_EQ(create_error(folder_.string()), "cannot write " + folder_.string() + ": it is a folder; give a file name");
  if (::geteuid() != 0) {  // root writes anywhere
    fs::create_directory(path("locked"));
    fs::permissions(path("locked"), fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(create_error(path("locked/V.npy")),
              "cannot write " + path("locked/V.npy") + ": no permission to create files in " + path("locked"));
    put(path("read_only.npy"), "old");
    fs::permissions(path("read_only.npy"), fs::perms::owner_read);
    EXPECT_EQ(create_error(path("read_only.npy")),
              "cannot write " + path("read_only.npy") + ": the file exists and is read-only");
  }
}

// A full disk, as a file size limit: the reservation fails before any data
// is written, with the message the command prints, and the old file stays.
TEST_F(Npy, WriterReportsAFullDiskUpFront) {
  put(path("V.npy"), "the old output");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const struct rlimit limit = {1 << 16, 1 << 16};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    int status = 3;
    try {
      recur::npy::Writer writer(path("V.npy"), DType::Float64, {100000}, false);
      status = 2;
    } catch (const recur::npy::Error& error) {
      status = std::string(error.what()) == "cannot write " + path("V.npy") +
                                                ": its 800128 bytes exceed the file size limit (ulimit -f)"
                   ? 0
                   : 1;
    }
    ::_exit(status);
  }
  int status = -1;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: another message, 2: no error, 3: another exception";
  EXPECT_EQ(contents(path("V.npy")), "the old output");
  EXPECT_EQ(files(), std::vector<std::string>{"V.npy"});
}

}  // namespace
