#include <recur/config.hpp>
#include <recur/version.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <ostream>
#include <sstream>

#if defined(RECUR_VENDOR_BLAS) && defined(__unix__)
#include <dlfcn.h>  // OpenBLAS's description, looked up where it is loaded
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
      << "; precompiled evaluate instances on (" RECUR_ETI_DESCRIPTION ")"
#else
      << "; precompiled evaluate instances off"
#endif
      // The host's vectors (impl/cpu_lanes.hpp's condition): 32 registers
      // of AVX-512 let its blocks keep their states in registers.
#if defined(__GNUC__) && defined(__AVX2__) && defined(__FMA__) && defined(__AVX512F__) && \
    defined(__AVX512VL__)
      << "; CPU vectors AVX2 and FMA with AVX-512's 32 registers"
#elif defined(__GNUC__) && defined(__AVX2__) && defined(__FMA__)
      << "; CPU vectors AVX2 and FMA"
#else
      << "; CPU vectors off (scalar lanes: build for AVX2 and FMA to have them)"
#endif
      << '\n';
}

std::string describe_blas() {
#if !defined(RECUR_ENABLE_KOKKOSKERNELS)
  return "recur's own kernels";
#elif defined(RECUR_VENDOR_BLAS)
  std::string vendors = RECUR_VENDOR_BLAS;
#ifdef __unix__
  // OpenBLAS names its version and build (and the kernels it chose). Looked
  // up, not linked (any other BLAS has no such function): in the process,
  // else in the libraries Kokkos Kernels was built with (the paths in
  // RECUR_VENDOR_BLAS), loaded as the products would load them; a program
  // that makes no product (`recur info`) has not loaded them.
  using Describe = char* (*)();
  auto describe  = reinterpret_cast<Describe>(dlsym(RTLD_DEFAULT, "openblas_get_config"));
  std::istringstream words(vendors);
  for (std::string word; !describe && words >> word;)
    if (word.front() == '/')
      if (void* library = dlopen(word.c_str(), RTLD_LAZY | RTLD_LOCAL))
        describe = reinterpret_cast<Describe>(dlsym(library, "openblas_get_config"));
  if (describe) {
    const std::string config = describe();
    bool avx2                = false;
#if defined(__x86_64__)
    avx2 = __builtin_cpu_supports("avx2");
#endif
    vendors += " (" + config + ")" + impl::openblas_generic_note(config, avx2);
  }
#endif
  return vendors;
#else
  return "Kokkos Kernels' own kernels";
#endif
}

std::string impl::openblas_generic_note(const std::string& config, bool avx2) {
  // OpenBLAS 0.3.21 (Debian 12) fell back to these on an Intel Xeon VM whose
  // model it did not know: a 1024 x 1024 by 1024 x 64 product 5x slower
  // (docs/using-v.md, "CPU, 2026-12-04").
  if (!avx2 || (" " + config + " ").find(" Prescott ") == std::string::npos) return "";
  return " [OpenBLAS runs its generic SSE3 kernels here, not knowing this CPU: set "
         "OPENBLAS_CORETYPE=Haswell (AVX2) or SkylakeX (AVX-512) for its fast ones]";
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
