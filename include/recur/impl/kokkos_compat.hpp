#ifndef RECUR_IMPL_KOKKOS_COMPAT_HPP
#define RECUR_IMPL_KOKKOS_COMPAT_HPP

// Everything that differs between the Kokkos versions recur supports (3.4 to
// 4.x) lives here, so that the rest of the code is written once.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <string>

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

// a b + c, fused where the hardware fuses, else as written: for plain
// double arithmetic, where one more rounding is harmless.
KOKKOS_FORCEINLINE_FUNCTION double multiply_add(double a, double b, double c) {
#ifdef RECUR_IMPL_HARDWARE_FMA
  return fma(a, b, c);
#else
  return a * b + c;
#endif
}

}  // namespace recur::impl

#endif
