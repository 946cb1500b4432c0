#ifndef RECUR_VERSION_HPP
#define RECUR_VERSION_HPP

#include <recur/config.hpp>

#include <iosfwd>
#include <string>

namespace recur {

/// recur's version, "MAJOR.MINOR.PATCH".
std::string version();

/// Writes recur's version and the configuration of the Kokkos it was built
/// against (version, enabled backends, default execution space) to `out`.
void print_configuration(std::ostream& out);

/// The device the default execution space runs on, in one line: "CUDA device
/// D (NAME, PCI DOMAIN:BUS:DEVICE)" on a GPU, else "BACKEND, T threads".
std::string describe_device();

}  // namespace recur

#endif
