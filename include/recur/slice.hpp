#ifndef RECUR_SLICE_HPP
#define RECUR_SLICE_HPP

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace recur {

/// The N outputs that belong to one x: a strided view of one row of V.
/// `slice(n)` is V(i, n) whatever V's layout, so a user recurrence written
/// against a Slice runs unchanged on LayoutLeft, LayoutRight and LayoutStride.
template <class T>
class Slice {
 public:
  using value_type = T;

  KOKKOS_FUNCTION Slice(T* data, std::ptrdiff_t stride, int size)
      : m_data(data), m_stride(stride), m_size(size) {}

  /// Element n (0 <= n < size()); checked when Kokkos has bounds checking on.
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int n) const {
#ifdef KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK
    if (n < 0 || n >= m_size) Kokkos::abort("recur::Slice: index out of range");
#endif
    return m_data[n * m_stride];
  }

  /// N, the number of terms per x.
  KOKKOS_FORCEINLINE_FUNCTION int size() const { return m_size; }

  /// Distance in elements between slice(n) and slice(n + 1).
  KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t stride() const { return m_stride; }

 private:
  T* m_data;
  std::ptrdiff_t m_stride;
  int m_size;
};

}  // namespace recur

#endif
