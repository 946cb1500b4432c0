// recur.vander in recur::Accurate (through the library's precompiled
// instances where there are some), and where x was read from.
#include "vander.hpp"

namespace recur::python {

std::uintptr_t last_input = 0;

template void vander_in<Accurate>(const cli::FamilyChoice&, const Input&, const Output&,
                                  const std::optional<Output>&, std::uintptr_t);

}  // namespace recur::python
