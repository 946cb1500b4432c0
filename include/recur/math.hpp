#ifndef RECUR_MATH_HPP
#define RECUR_MATH_HPP

// Math functions for user recurrences (for_each_slice bodies) that compile on
// every supported Kokkos and every backend, host and device alike.

#include <recur/impl/kokkos_compat.hpp>

namespace recur {

/// Square root, callable on host and device (Kokkos::sqrt).
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return impl::kokkos_math::sqrt(x);
}

/// Exponential, callable on host and device (Kokkos::exp).
template <class T>
KOKKOS_INLINE_FUNCTION T exp(T x) {
  return impl::kokkos_math::exp(x);
}

}  // namespace recur

#endif
