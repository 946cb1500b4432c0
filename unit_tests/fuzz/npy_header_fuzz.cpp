// libFuzzer harness of recur's .npy header parser: any bytes, read as a whole
// file and as the start of a longer one, must either parse into a header
// that agrees with the file's length or throw recur::npy::Error; anything
// else (a crash, a sanitizer report, another exception) is a bug.
//
// Built and run by run.sh (clang++ -fsanitize=fuzzer,address,undefined).

#include <recur/npy.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const std::uint64_t file_size : {std::uint64_t(size), std::uint64_t(size) + 4096}) {
    try {
      const recur::npy::Header header = recur::npy::parse_header(data, size, file_size);
      std::size_t bytes = recur::npy::size_of(header.dtype);
      for (const std::size_t extent : header.shape)
        if (__builtin_mul_overflow(bytes, extent, &bytes)) __builtin_trap();
      // An accepted header describes exactly the data that follows it.
      if (header.data_offset > size || header.data_offset + bytes != file_size) __builtin_trap();
    } catch (const recur::npy::Error&) {
    }
  }
  return 0;
}
