// recur.vander in recur::Fast.
#include "vander.hpp"

namespace recur::python {

template void vander_in<Fast>(const cli::FamilyChoice&, const Input&, const Output&,
                              const std::optional<Output>&, std::uintptr_t);

}  // namespace recur::python
