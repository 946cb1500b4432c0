#ifndef RECUR_IMPL_ETI_HPP
#define RECUR_IMPL_ETI_HPP

// Explicit template instantiation (ETI) of the common cases, as Kokkos
// Kernels does it: recur's library holds recur::evaluate (values, and values
// with derivatives, under Auto) compiled for the built-in families (all of
// them unless CMake's RECUR_ETI_FAMILIES names fewer) x float,
// double x LayoutLeft, LayoutRight x every execution space the Kokkos enables
// (Serial, OpenMP, Threads, Cuda), with x of V's value type; beneath them the
// kernels' bodies once a kernel type (the families of tabulated three-term
// coefficients share one), under every policy and both precisions
// (RECUR_IMPL_ETI_KERNELS_* below); and the product V^T g of recur::project
// (Kokkos Kernels' gemv and gemm), float and double. A call that matches
// runs through Views of one canonical type (unmanaged, in the space's
// memory), whose instantiation the headers declare `extern`: the calling
// code compiles against a declaration, not the kernels. Every other call (a
// family of your own, LayoutStride, x of another type) instantiates the same
// templates in place, as without ETI. Results are the same bits either way.
// RECUR_ENABLE_ETI in recur/config.hpp says whether the library was built
// with them (CMake option RECUR_ENABLE_ETI).

#include <recur/config.hpp>
#include <recur/families.hpp>
#include <recur/impl/kokkos_compat.hpp>
#include <recur/policies.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace recur::impl {

template <class ExecSpace>
using device_of = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;

// The canonical Views of the precompiled instances.
template <class ExecSpace, class T>
using eti_x_t = Kokkos::View<const T*, Kokkos::LayoutRight, device_of<ExecSpace>,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class ExecSpace, class T, class Layout>
using eti_v_t = Kokkos::View<T**, Layout, device_of<ExecSpace>,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class ExecSpace, class T>
using eti_vector_t = Kokkos::View<T*, Kokkos::LayoutRight, device_of<ExecSpace>,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class ExecSpace, class T>
using eti_matrix_t = Kokkos::View<const T**, Kokkos::LayoutLeft, device_of<ExecSpace>,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class Family>
struct is_eti_family : std::false_type {};
template <class ExecSpace>
struct is_eti_space : std::false_type {};

// A View in `ExecSpace`'s own memory, with a contiguous layout and no access
// traits, so that it converts to the canonical View.
template <class View, class ExecSpace>
inline constexpr bool is_plain_view_in =
    std::is_same_v<typename View::memory_space, typename ExecSpace::memory_space> &&
    (std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft> ||
     std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>) &&
    !View::memory_traits::is_random_access && !View::memory_traits::is_atomic &&
    !View::memory_traits::is_restrict && !View::memory_traits::is_aligned;

// The Views the kernels are compiled for. A View, its subviews and an
// unmanaged View of the same memory are three types (managed or not, the
// space or a Kokkos::Device, const or not), and each would compile every
// kernel again; so a plain View (is_plain_view_in) reaches the kernels as
// the canonical unmanaged View of its value type, rank and layout: const
// where the kernels read it (kernel_input; rank 1 as LayoutRight), as it is
// where they write (kernel_output). Every other View goes as it is. One
// instantiation then serves them all, and a call that a precompiled
// instance serves has its types (eti_x_t, eti_v_t). unit_tests/
// test_policies.cpp, which passes Views of many kinds, compiles in half the
// time (docs/performance.md, "Compile time, 2026-12-07").
template <class ExecSpace, class View>
using kernel_input_t =
    Kokkos::View<typename View::const_data_type,
                 std::conditional_t<view_rank<View> == 1, Kokkos::LayoutRight,
                                    typename View::array_layout>,
                 device_of<ExecSpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class ExecSpace, class View>
using kernel_output_t = Kokkos::View<typename View::data_type, typename View::array_layout,
                                     device_of<ExecSpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class Canonical, class ExecSpace, class View>
auto canonical_or_same(const View& v) {
  if constexpr (is_plain_view_in<View, ExecSpace>) {
    return Canonical(v);
  } else {
    return v;
  }
}
template <class ExecSpace, class View>
auto kernel_input(const View& v) {
  return canonical_or_same<kernel_input_t<ExecSpace, View>, ExecSpace>(v);
}
template <class ExecSpace, class View>
auto kernel_output(const View& v) {
  return canonical_or_same<kernel_output_t<ExecSpace, View>, ExecSpace>(v);
}

// Whether evaluate(space, family, x, V[, dV], policy, precision) has a
// precompiled instance (Auto and Accurate only).
template <class ExecSpace, class Family, class XView, class VView, class Policy,
          class Precision = Accurate>
inline constexpr bool has_eti_instance =
    is_eti_space<ExecSpace>::value && is_eti_family<Family>::value &&
    std::is_same_v<Policy, Auto> && std::is_same_v<Precision, Accurate> &&
    std::is_same_v<typename XView::non_const_value_type, typename VView::non_const_value_type> &&
    is_plain_view_in<XView, ExecSpace> && is_plain_view_in<VView, ExecSpace>;

// Whether evaluate(space, family, x, V, dV) has one: dV as V.
template <class ExecSpace, class Family, class XView, class VView, class DView,
          class Precision = Accurate>
inline constexpr bool has_derivative_instance =
    has_eti_instance<ExecSpace, Family, XView, VView, Auto, Precision> &&
    std::is_same_v<typename DView::array_layout, typename VView::array_layout> &&
    std::is_same_v<typename DView::non_const_value_type, typename VView::non_const_value_type> &&
    is_plain_view_in<DView, ExecSpace>;

// Whether transpose_product(space, A, G, out) (recur::project's V^T g, by
// Kokkos Kernels' gemv or gemm) has a precompiled instance: A LayoutLeft, G
// and out rank-1, or rank-2 with G LayoutLeft, all of one value type.
template <class ExecSpace, class AView, class GView, class OutView>
inline constexpr bool has_product_instance =
    is_eti_space<ExecSpace>::value &&
    std::is_same_v<typename AView::array_layout, Kokkos::LayoutLeft> &&
    std::is_same_v<typename AView::non_const_value_type, typename OutView::non_const_value_type> &&
    std::is_same_v<typename GView::non_const_value_type, typename OutView::non_const_value_type> &&
    (std::is_same_v<typename OutView::non_const_value_type, float> ||
     std::is_same_v<typename OutView::non_const_value_type, double>) &&
    int(GView::rank) == int(OutView::rank) &&
    (int(OutView::rank) == 1 || std::is_same_v<typename GView::array_layout, Kokkos::LayoutLeft>) &&
    is_plain_view_in<AView, ExecSpace> && is_plain_view_in<GView, ExecSpace> &&
    is_plain_view_in<OutView, ExecSpace>;

}  // namespace recur::impl

// The families that may have precompiled instances, each passed to X with A
// (the library's CMakeLists reads this list: one source file per family
// that RECUR_ETI_FAMILIES chooses; config.hpp's RECUR_IMPL_ETI_BUILT_FAMILIES
// lists those chosen in the same form).
#define RECUR_IMPL_ETI_FAMILIES(X, A)                                                   \
  X(A, PowerSums) X(A, Monomials) X(A, HermiteE) X(A, HermiteENormalized) X(A, Hermite) \
  X(A, HermiteNormalized) X(A, HermiteFunction) X(A, Legendre) X(A, LegendreNormalized) \
  X(A, ChebyshevT) X(A, ChebyshevTNormalized) X(A, ChebyshevU)                          \
  X(A, ChebyshevUNormalized) X(A, Laguerre) X(A, LaguerreNormalized) X(A, Jacobi)       \
  X(A, JacobiNormalized) X(A, Gegenbauer) X(A, GegenbauerNormalized)

// Calls X(Space) for every execution space the Kokkos enables.
#ifdef KOKKOS_ENABLE_SERIAL
#define RECUR_IMPL_ETI_SERIAL(X) X(Kokkos::Serial)
#else
#define RECUR_IMPL_ETI_SERIAL(X)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define RECUR_IMPL_ETI_OPENMP(X) X(Kokkos::OpenMP)
#else
#define RECUR_IMPL_ETI_OPENMP(X)
#endif
#ifdef KOKKOS_ENABLE_THREADS
#define RECUR_IMPL_ETI_THREADS(X) X(Kokkos::Threads)
#else
#define RECUR_IMPL_ETI_THREADS(X)
#endif
#ifdef KOKKOS_ENABLE_CUDA
#define RECUR_IMPL_ETI_CUDA(X) X(Kokkos::Cuda)
#else
#define RECUR_IMPL_ETI_CUDA(X)
#endif
#define RECUR_IMPL_ETI_SPACES(X) \
  RECUR_IMPL_ETI_SERIAL(X) RECUR_IMPL_ETI_OPENMP(X) RECUR_IMPL_ETI_THREADS(X) RECUR_IMPL_ETI_CUDA(X)

#ifdef RECUR_ENABLE_ETI
namespace recur::impl {
#define RECUR_IMPL_ETI_MARK_FAMILY(A, F) \
  template <>                            \
  struct is_eti_family<F> : std::true_type {};
RECUR_IMPL_ETI_BUILT_FAMILIES(RECUR_IMPL_ETI_MARK_FAMILY, )
#undef RECUR_IMPL_ETI_MARK_FAMILY
#define RECUR_IMPL_ETI_MARK_SPACE(S) \
  template <>                        \
  struct is_eti_space<S> : std::true_type {};
RECUR_IMPL_ETI_SPACES(RECUR_IMPL_ETI_MARK_SPACE)
#undef RECUR_IMPL_ETI_MARK_SPACE
}  // namespace recur::impl
#endif

// The instances of evaluate's two bodies for one space, family, value type
// and layout, written inside namespace recur::impl: PREFIX is `extern
// template` (declarations, in the headers) or `template` (definitions, in
// the library's generated sources, build/eti/).
#define RECUR_IMPL_ETI_EVALUATE_ONE(PREFIX, S, F, T, L)                                        \
  PREFIX void evaluate_values<S, F, eti_x_t<S, T>, eti_v_t<S, T, L>, Auto, Accurate>(          \
      const S&, const F&, const eti_x_t<S, T>&, const eti_v_t<S, T, L>&, Auto, Accurate);      \
  PREFIX void evaluate_derivatives<S, F, eti_x_t<S, T>, eti_v_t<S, T, L>, eti_v_t<S, T, L>,  \
                                   Accurate>(const S&, const F&, const eti_x_t<S, T>&,         \
                                             const eti_v_t<S, T, L>&, const eti_v_t<S, T, L>&, \
                                             Accurate);
// The precompiled products A^T G for one space (src/eti/products.cpp).
#define RECUR_IMPL_ETI_PRODUCTS_OF(PREFIX, S, T)                                              \
  PREFIX void transpose_product_any<S, eti_v_t<S, T, Kokkos::LayoutLeft>, eti_x_t<S, T>,      \
                                    eti_vector_t<S, T>>(                                      \
      const S&, const eti_v_t<S, T, Kokkos::LayoutLeft>&, const eti_x_t<S, T>&,               \
      const eti_vector_t<S, T>&, bool);                                                       \
  PREFIX void transpose_product_any<S, eti_v_t<S, T, Kokkos::LayoutLeft>, eti_matrix_t<S, T>, \
                                    eti_v_t<S, T, Kokkos::LayoutLeft>>(                       \
      const S&, const eti_v_t<S, T, Kokkos::LayoutLeft>&, const eti_matrix_t<S, T>&,          \
      const eti_v_t<S, T, Kokkos::LayoutLeft>&, bool);                                        \
  PREFIX void transpose_product_any<S, eti_v_t<S, T, Kokkos::LayoutLeft>, eti_matrix_t<S, T>, \
                                    eti_v_t<S, T, Kokkos::LayoutRight>>(                      \
      const S&, const eti_v_t<S, T, Kokkos::LayoutLeft>&, const eti_matrix_t<S, T>&,          \
      const eti_v_t<S, T, Kokkos::LayoutRight>&, bool);
#define RECUR_IMPL_ETI_PRODUCTS(PREFIX, S)       \
  RECUR_IMPL_ETI_PRODUCTS_OF(PREFIX, S, float) \
  RECUR_IMPL_ETI_PRODUCTS_OF(PREFIX, S, double)

// The kernel bodies of evaluate (evaluate_kernel under every policy, and
// evaluate_kernel_derivatives) for family F's kernel type, one space, value
// type T, layout and precision P. Every family of one kernel type shares
// them: the families of tabulated three-term coefficients (every built-in
// family but PowerSums and HermiteFunction, Monomials included) have one,
// named here by Legendre; PowerSums and HermiteFunction have their own.
// config.hpp's RECUR_IMPL_ETI_BUILT_KERNELS lists those of the families
// built, and the library holds them in one source a kernel, value type and
// precision (src/eti/evaluate_kernel.cpp.in); each family's own instances
// then hold only its kernel's making and a call.
#define RECUR_IMPL_ETI_KERNEL_POLICY(PREFIX, S, F, T, L, P, POLICY)                            \
  PREFIX void evaluate_kernel<S, kernel_t<T, S, F, P>, eti_x_t<S, T>, eti_v_t<S, T, L>, POLICY>( \
      const S&, const kernel_t<T, S, F, P>&, const FamilyNotes&, const eti_x_t<S, T>&,          \
      const eti_v_t<S, T, L>&, POLICY);
#define RECUR_IMPL_ETI_KERNEL_LAYOUT(PREFIX, S, F, T, L, P)                                      \
  RECUR_IMPL_ETI_KERNEL_POLICY(PREFIX, S, F, T, L, P, Auto)                                      \
  RECUR_IMPL_ETI_KERNEL_POLICY(PREFIX, S, F, T, L, P, ThreadPerX)                                \
  RECUR_IMPL_ETI_KERNEL_POLICY(PREFIX, S, F, T, L, P, Staged)                                    \
  RECUR_IMPL_ETI_KERNEL_POLICY(PREFIX, S, F, T, L, P, ScanAlongN)                                \
  PREFIX void evaluate_kernel_derivatives<S, kernel_t<T, S, F, P>, eti_x_t<S, T>, eti_v_t<S, T, L>, \
                                          eti_v_t<S, T, L>>(                                     \
      const S&, const kernel_t<T, S, F, P>&, const FamilyNotes&, const eti_x_t<S, T>&,           \
      const eti_v_t<S, T, L>&, const eti_v_t<S, T, L>&);
#define RECUR_IMPL_ETI_KERNEL(PREFIX, S, F, T, P)                      \
  RECUR_IMPL_ETI_KERNEL_LAYOUT(PREFIX, S, F, T, Kokkos::LayoutLeft, P) \
  RECUR_IMPL_ETI_KERNEL_LAYOUT(PREFIX, S, F, T, Kokkos::LayoutRight, P)
// Each kernel's value types and precisions: PowerSums' double results run
// in double under either precision (one kernel type: one instance).
#define RECUR_IMPL_ETI_KERNELS_Legendre(PREFIX, S)               \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, Legendre, float, Accurate)    \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, Legendre, float, Fast)        \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, Legendre, double, Accurate)   \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, Legendre, double, Fast)
#define RECUR_IMPL_ETI_KERNELS_HermiteFunction(PREFIX, S)             \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, HermiteFunction, float, Accurate)  \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, HermiteFunction, float, Fast)      \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, HermiteFunction, double, Accurate) \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, HermiteFunction, double, Fast)
#define RECUR_IMPL_ETI_KERNELS_PowerSums(PREFIX, S)             \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, PowerSums, float, Accurate)  \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, PowerSums, float, Fast)      \
  RECUR_IMPL_ETI_KERNEL(PREFIX, S, PowerSums, double, Accurate)

#define RECUR_IMPL_ETI_EVALUATE(PREFIX, S, F)                           \
  RECUR_IMPL_ETI_EVALUATE_ONE(PREFIX, S, F, float, Kokkos::LayoutLeft)  \
  RECUR_IMPL_ETI_EVALUATE_ONE(PREFIX, S, F, float, Kokkos::LayoutRight) \
  RECUR_IMPL_ETI_EVALUATE_ONE(PREFIX, S, F, double, Kokkos::LayoutLeft) \
  RECUR_IMPL_ETI_EVALUATE_ONE(PREFIX, S, F, double, Kokkos::LayoutRight)

#endif
