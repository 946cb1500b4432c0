#ifndef RECUR_IMPL_KOKKOS_COMPAT_HPP
#define RECUR_IMPL_KOKKOS_COMPAT_HPP

// Everything that differs between the Kokkos versions recur supports (3.4 to
// 4.x) lives here, so that the rest of the code is written once.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace recur::impl {

// Kokkos 4 made View::rank an integral-constant object; 3.x has an enum.
// int(...) reads both.
template <class View>
inline constexpr int view_rank = int(View::rank);

// Kokkos::Profiling::ScopedRegion appeared in Kokkos 4.1.
class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) {
    Kokkos::Profiling::pushRegion(name);
  }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&)            = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

// Named fences (shown by Kokkos Tools) appeared in Kokkos 3.6.
template <class ExecSpace>
void fence(const ExecSpace& space, const std::string& name) {
#if KOKKOS_VERSION >= 30600
  space.fence(name);
#else
  (void)name;
  space.fence();
#endif
}

// Kokkos 3.6 moved the math functions from Kokkos::Experimental to Kokkos.
#if KOKKOS_VERSION >= 30600
namespace kokkos_math = ::Kokkos;
#else
namespace kokkos_math = ::Kokkos::Experimental;
#endif

// Whether the code being compiled has a hardware fused multiply-add: always
// on a GPU; on a CPU when the compiler targets one (-march=haswell and later:
// GCC and Clang define __FMA__). Without it std::fma is a slow library call.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__FMA__)
#define RECUR_IMPL_HARDWARE_FMA 1
#endif

// a b + c in one rounding: exact products for double-double arithmetic.
KOKKOS_FORCEINLINE_FUNCTION double fma(double a, double b, double c) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::fma(a, b, c);
#else
  return ::fma(a, b, c);
#endif
}

KOKKOS_FORCEINLINE_FUNCTION float fma(float a, float b, float c) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::fma(a, b, c);
#else
  return ::fmaf(a, b, c);
#endif
}

// a b + c in float or double, fused where the hardware fuses, else as
// written: for plain arithmetic, where one more rounding is harmless.
template <class R>
KOKKOS_FORCEINLINE_FUNCTION R multiply_add(R a, R b, R c) {
  static_assert(std::is_floating_point_v<R>, "recur: multiply_add of float or double");
#ifdef RECUR_IMPL_HARDWARE_FMA
  return fma(a, b, c);
#else
  return a * b + c;
#endif
}

// Two instances of `space` whose work may overlap: independent streams on a
// GPU (Kokkos::Experimental::partition_space, Kokkos 4.0 and later); `space`
// twice on CPUs, where partitioning would split the thread pool, and on
// Kokkos 3.x.
template <class ExecSpace>
std::vector<ExecSpace> two_instances(const ExecSpace& space) {
#if KOKKOS_VERSION >= 40000
  if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                            typename ExecSpace::memory_space>::accessible)
    return Kokkos::Experimental::partition_space(space, 1, 1);
#endif
  return {space, space};
}

// Host memory that a device copies into asynchronously: page-locked where
// the backend has it.
template <class MemorySpace>
struct staging_space {
  using type = Kokkos::HostSpace;
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct staging_space<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

// Free bytes of the device memory behind `ExecSpace`, or 0 when the backend
// cannot tell.
template <class ExecSpace>
std::size_t free_device_memory(const ExecSpace&) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) return free;
  }
#endif
  return 0;
}

}  // namespace recur::impl

#endif
