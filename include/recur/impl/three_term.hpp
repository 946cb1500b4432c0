#ifndef RECUR_IMPL_THREE_TERM_HPP
#define RECUR_IMPL_THREE_TERM_HPP

#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/slice.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

namespace recur::impl {

template <class Family, class = void>
struct is_three_term_family : std::false_type {};
template <class Family>
struct is_three_term_family<
    Family, std::void_t<decltype(std::declval<const Family&>().initial()),
                        decltype(std::declval<const Family&>().coefficients(0))>>
    : std::true_type {};

template <class Family, class T, class = void>
struct is_direct_family : std::false_type {};
template <class Family, class T>
struct is_direct_family<
    Family, T,
    std::void_t<decltype(std::declval<const Family&>().fill(
        std::declval<T>(), std::declval<const Slice<T>&>()))>>
    : std::true_type {};

// The device side of a three-term family: the tabulated coefficients and p_0.
template <class T, class MemorySpace>
struct ThreeTermKernel {
  Kokkos::View<const ThreeTermCoefficients<T>*, MemorySpace> coefficients;
  T initial;

  KOKKOS_FUNCTION void fill(T x, const Slice<T>& s) const {
    T previous = 0;
    T current  = initial;
    s(0)       = current;
    for (int n = 0; n + 1 < s.size(); ++n) {
      const ThreeTermCoefficients<T> k = coefficients(n);
      const T next = (k.a * x + k.b) * current - k.c * previous;
      previous     = current;
      current      = next;
      s(n + 1)     = current;
    }
  }
};

// What runs per x for `family` with N terms in precision T: a direct family
// runs as it is; a three-term family gets its coefficients tabulated on the
// host (in double) and copied to the execution space once per call.
template <class T, class ExecSpace, class Family>
auto make_kernel(const ExecSpace& space, const Family& family, int N) {
  if constexpr (is_direct_family<Family, T>::value) {
    (void)space;
    (void)N;
    return family;
  } else {
    static_assert(is_three_term_family<Family>::value,
                  "recur: a family must either give initial() and "
                  "coefficients(int n) (a three-term family) or a "
                  "fill(x, slice) member template (a direct family); see "
                  "recur/families.hpp");
    using MemorySpace = typename ExecSpace::memory_space;
    Kokkos::View<ThreeTermCoefficients<T>*, MemorySpace> table(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                           "recur::evaluate::coefficients"),
        N - 1);
    auto host = Kokkos::create_mirror_view(table);
    for (int n = 0; n + 1 < N; ++n) {
      const ThreeTermCoefficients<double> k = family.coefficients(n);
      host(n) = {T(k.a), T(k.b), T(k.c)};
    }
    Kokkos::deep_copy(space, table, host);
    // The host mirror must outlive the (possibly asynchronous) copy.
    fence(space, "recur::evaluate: coefficient upload");
    return ThreeTermKernel<T, MemorySpace>{table, T(family.initial())};
  }
}

}  // namespace recur::impl

#endif
