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

}  // namespace recur

#endif
