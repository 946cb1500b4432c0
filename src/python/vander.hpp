#ifndef RECUR_PYTHON_VANDER_HPP
#define RECUR_PYTHON_VANDER_HPP

// recur.vander's body, compiled once per precision (vander_accurate.cpp,
// vander_fast.cpp).
#include "common.hpp"

namespace recur::python {

template <class Precision>
void vander_in(const cli::FamilyChoice& choice, const Input& x, const Output& V,
               const std::optional<Output>& dV, std::uintptr_t stream) {
  const std::string where = "recur.vander: ";
  if (V.ndim() != 2) throw std::invalid_argument(where + "out must be M x N");
  if (dV && (dV->ndim() != 2 || dV->shape(0) != V.shape(0) || dV->shape(1) != V.shape(1) ||
             dV->dtype() != V.dtype() || fortran_order(*dV) != fortran_order(V)))
    throw std::invalid_argument(where + "the derivatives' out must have the values' shape, "
                                "dtype and order");
  if (x.ndim() != 1 || x.shape(0) != V.shape(0))
    throw std::invalid_argument(where + "x has shape " + shape_of(x) + " but out has " +
                                std::to_string(V.shape(0)) + " rows; x must hold M values");
  with_dtype(V, where, [&](auto t) {
    using T = decltype(t);
    with_layout(fortran_order(V), [&](auto layout) {
      using L = decltype(layout);
      check_array<T, Kokkos::LayoutRight>(x, where, "x", 1);
      check_array<T, L>(V, where, "out", 2);
      if (dV) check_array<T, L>(*dV, where, "the derivatives' out", 2);
      last_input = reinterpret_cast<std::uintptr_t>(x.data());
      nb::gil_scoped_release release;
      const Space space = space_on(stream);
      const Bound<const T*, Kokkos::LayoutRight> xb(space, x, where, "x", true);
      const Bound<T**, L> Vb(space, V, where, "out", false);
      std::optional<Bound<T**, L>> dVb;
      if (dV) dVb.emplace(space, *dV, where, "the derivatives' out", false);
      cli::visit_family(choice, [&](const auto& family) {
        if (dVb)
          evaluate(space, family, xb.view(), Vb.view(), dVb->view(), Precision{});
        else
          evaluate(space, family, xb.view(), Vb.view(), Precision{});
      });
      Vb.finish(space);
      if (dVb) dVb->finish(space);
      space.fence();
    });
  });
}


}  // namespace recur::python

#endif
