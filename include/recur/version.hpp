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
/// OpenBLAS's own description where the library is OpenBLAS, loading it if
/// no product has yet, and a note where it runs its generic kernels:
/// impl::openblas_generic_note), or "Kokkos Kernels' own
/// kernels" where Kokkos Kernels was built with none; "recur's own kernels"
/// without Kokkos Kernels.
std::string describe_blas();

namespace impl {
/// What describe_blas adds to OpenBLAS's description `config`
/// (openblas_get_config()): where OpenBLAS runs its generic SSE3 kernels
/// ("Prescott", its fallback for a CPU it does not recognize) on a CPU with
/// AVX2, a note that says how to get its fast ones; else nothing.
std::string openblas_generic_note(const std::string& config, bool avx2);
}  // namespace impl

/// The device the default execution space runs on, in one line: "CUDA device
/// D (NAME, PCI DOMAIN:BUS:DEVICE)" on a GPU, else "BACKEND, T threads".
std::string describe_device();

}  // namespace recur

#endif
