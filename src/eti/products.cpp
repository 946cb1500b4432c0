// The precompiled instances of recur::project's product V^T g (Kokkos
// Kernels' gemv and gemm where recur has it), include/recur/impl/eti.hpp.
#include <recur/impl/least_squares.hpp>

namespace recur::impl {
#define RECUR_IMPL_ETI_DEFINE_PRODUCTS(S) RECUR_IMPL_ETI_PRODUCTS(template, S)
RECUR_IMPL_ETI_SPACES(RECUR_IMPL_ETI_DEFINE_PRODUCTS)
}  // namespace recur::impl
