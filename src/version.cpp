#include <recur/config.hpp>
#include <recur/version.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <ostream>
#include <sstream>

#if defined(RECUR_VENDOR_BLAS) && defined(__GNUC__)
// OpenBLAS names its version and build; weak, so that any other BLAS links too.
extern "C" char* openblas_get_config() __attribute__((weak));
#endif

namespace recur {

std::string version() { return RECUR_VERSION_STRING; }

void print_configuration(std::ostream& out) {
  out << "recur " << version() << " on Kokkos " << KOKKOS_VERSION / 10000
      << '.' << KOKKOS_VERSION / 100 % 100 << '.' << KOKKOS_VERSION % 100
      << ", default execution space "
      << Kokkos::DefaultExecutionSpace::name() << ", enabled:"
#ifdef KOKKOS_ENABLE_CUDA
      << " Cuda"
#endif
#ifdef KOKKOS_ENABLE_OPENMP
      << " OpenMP"
#endif
#ifdef KOKKOS_ENABLE_SERIAL
      << " Serial"
#endif
#ifdef RECUR_ENABLE_KOKKOSKERNELS
      << "; Kokkos Kernels on"
#else
      << "; Kokkos Kernels off"
#endif
      << "; products by " << describe_blas()
#ifdef RECUR_ENABLE_MPI
      << "; MPI on (recur/mpi.hpp)"
#else
      << "; MPI off"
#endif
#ifdef RECUR_ENABLE_ETI
      << "; precompiled evaluate instances on"
#else
      << "; precompiled evaluate instances off"
#endif
      << '\n';
}

std::string describe_blas() {
#if !defined(RECUR_ENABLE_KOKKOSKERNELS)
  return "recur's own kernels";
#elif defined(RECUR_VENDOR_BLAS)
  std::string vendors = RECUR_VENDOR_BLAS;
#ifdef __GNUC__
  if (openblas_get_config) vendors += std::string(" (") + openblas_get_config() + ")";
#endif
  return vendors;
#else
  return "Kokkos Kernels' own kernels";
#endif
}

std::string describe_device() {
  std::ostringstream line;
#ifdef KOKKOS_ENABLE_CUDA
  const int device = Kokkos::Cuda().cuda_device();
  cudaDeviceProp properties;
  line << "CUDA device " << device;
  if (cudaGetDeviceProperties(&properties, device) == cudaSuccess) {
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x", properties.pciDomainID, properties.pciBusID,
                  properties.pciDeviceID);
    line << " (" << properties.name << ", PCI " << bus << ")";
  }
#else
  line << Kokkos::DefaultExecutionSpace::name() << ", "
       << Kokkos::DefaultExecutionSpace().concurrency() << " threads";
#endif
  return line.str();
}

}  // namespace recur
