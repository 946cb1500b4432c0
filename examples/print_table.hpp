#ifndef RECUR_EXAMPLES_PRINT_TABLE_HPP
#define RECUR_EXAMPLES_PRINT_TABLE_HPP

// Prints a rank-2 View the way NumPy prints a small array (the seed's output),
// eliding the middle rows of a long one.

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

template <class View>
void print_table(const std::string& title, const View& V) {
  auto h = Kokkos::create_mirror_view(V);
  Kokkos::deep_copy(h, V);
  const int pad = (80 - int(title.size())) / 2;
  std::printf("%s%s%s\n", std::string(pad, '-').c_str(), title.c_str(),
              std::string(80 - pad - int(title.size()), '-').c_str());
  const int M = int(h.extent(0));
  for (int i = 0; i < M; ++i) {
    if (M > 6 && i == 3) {
      std::printf(" ...\n");
      i = M - 3;
    }
    std::printf("%s[", i == 0 ? "[" : " ");
    for (int n = 0; n < int(h.extent(1)); ++n)
      std::printf("%s%11.6g", n ? " " : "", double(h(i, n)));
    std::printf("]%s\n", i == M - 1 ? "]" : "");
  }
}

#endif
