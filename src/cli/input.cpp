#include "input.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace recur::cli {

namespace {

bool has_npy_magic(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char start[6] = {};
  file.read(start, sizeof start);
  return file.gcount() == 6 && std::memcmp(start, "\x93NUMPY", 6) == 0;
}

std::string trimmed(const std::string& line) {
  const char* space = " \t\r\n\v\f";
  const std::size_t first = line.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(space) - first + 1);
}

npy::Vector read_text(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw npy::Error(path + ": cannot open: " + std::strerror(errno));
  npy::Vector vector;
  std::string line;
  for (std::size_t number = 1; std::getline(file, line); ++number) {
    const std::string text = trimmed(line);
    if (text.empty() || text[0] == '#') continue;
    char* end = nullptr;
    errno     = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0')
      throw npy::Error(path + ":" + std::to_string(number) + ": '" + text.substr(0, 40) +
                       "' is not a number; a text file of x values holds one number per line");
    if (errno == ERANGE && std::isinf(value))
      throw npy::Error(path + ":" + std::to_string(number) + ": " + text.substr(0, 40) +
                       " is beyond the range of float64");
    vector.values.push_back(value);
  }
  if (file.bad()) throw npy::Error(path + ": cannot read: " + std::strerror(errno));
  if (vector.values.empty())
    throw npy::Error(path + " holds no numbers; give a .npy file or a text file with one x per line");
  return vector;
}

}  // namespace

npy::VectorPart read_x_part(const std::string& path, const npy::PartOf& part_of) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw npy::Error(path + ": no such file");
  if (std::filesystem::is_directory(status)) throw npy::Error(path + ": is a folder, not a file");
  if (std::filesystem::is_regular_file(status) && std::filesystem::file_size(path, error) == 0)
    throw npy::Error(path + " is empty (0 bytes); give a .npy file or a text file with one x per line");
  if (has_npy_magic(path) || std::filesystem::path(path).extension() == ".npy")
    return npy::read_vector_part(path, part_of);
  npy::VectorPart part;
  part.vector              = read_text(path);
  part.length              = part.vector.values.size();
  const auto [first, count] = part_of(part.length);
  part.first               = first;
  std::vector<double>& values = part.vector.values;
  values.erase(values.begin() + std::ptrdiff_t(first + count), values.end());
  values.erase(values.begin(), values.begin() + std::ptrdiff_t(first));
  return part;
}

}  // namespace recur::cli
