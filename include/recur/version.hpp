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

/// What does recur's matrix products (series_via_blas, project): the vendor
/// BLAS behind Kokkos Kernels, "cuBLAS" and/or "host BLAS LIBRARY" (with
/// OpenBLAS's own description where it is loaded), or "Kokkos Kernels' own
/// kernels" where Kokkos Kernels was built with none; "recur's own kernels"
/// without Kokkos Kernels.
std::string describe_blas();

/// The device the default execution space runs on, in one line: "CUDA device
/// D (NAME, PCI DOMAIN:BUS:DEVICE)" on a GPU, else "BACKEND, T threads".
std::string describe_device();

}  // namespace recur

#endif
