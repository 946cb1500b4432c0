// recur.gauss, recur.fit and recur.project.
#include "common.hpp"

namespace recur::python {

// The n-point Gauss rule (float64), n = nodes.shape[0].
void gauss(const cli::FamilyChoice& choice, const Output& nodes, const Output& weights) {
  const std::string where = "recur.gauss: ";
  check_array<double, Kokkos::LayoutRight>(nodes, where, "nodes", 1);
  check_array<double, Kokkos::LayoutRight>(weights, where, "weights", 1);
  cli::visit_family(choice, [&](const auto& family) {
    using Family = std::decay_t<decltype(family)>;
    if constexpr (impl::has_weight<Family>::value) {
      nb::gil_scoped_release release;
      const Space space;
      const Bound<double*, Kokkos::LayoutRight> nb_(space, nodes, where, "nodes", false),
          wb(space, weights, where, "weights", false);
      recur::gauss(space, family, nb_.view(), wb.view());
      nb_.finish(space);
      wb.finish(space);
      space.fence();
    } else {
      throw std::invalid_argument(where + choice.name +
                                  " has no weight, so no Gauss rule; gauss takes the weighted "
                                  "families (every family but power_sums, monomials and "
                                  "hermite_function)");
    }
  });
}

// Least squares: coefficients (N x K, F order) of the points (x, y), y
// M x K in F order, all float64; weights M values or none.
void fit(const cli::FamilyChoice& choice, const Input& x, const Input& y, const Output& c,
         const std::optional<Input>& w, std::uintptr_t stream) {
  const std::string where = "recur.fit: ";
  check_array<double, Kokkos::LayoutRight>(x, where, "x", 1);
  check_array<double, Kokkos::LayoutLeft>(y, where, "y", 2);
  check_array<double, Kokkos::LayoutLeft>(c, where, "the coefficients' out", 2);
  if (w) check_array<double, Kokkos::LayoutRight>(*w, where, "w", 1);
  cli::visit_family(choice, [&](const auto& family) {
    nb::gil_scoped_release release;
    const Space space = space_on(stream);
    const Bound<const double*, Kokkos::LayoutRight> xb(space, x, where, "x", true);
    const Bound<const double**, Kokkos::LayoutLeft> yb(space, y, where, "y", true);
    const Bound<double**, Kokkos::LayoutLeft> cb(space, c, where, "the coefficients' out", false);
    if (w) {
      const Bound<const double*, Kokkos::LayoutRight> wb(space, *w, where, "w", true);
      recur::fit(space, family, xb.view(), yb.view(), cb.view(), wb.view());
    } else {
      recur::fit(space, family, xb.view(), yb.view(), cb.view());
    }
    cb.finish(space);
    space.fence();
  });
}

// Projection on a Gauss rule: values n x K (F order) at the nodes,
// coefficients N x K (F order), all float64.
void project(const cli::FamilyChoice& choice, const Input& nodes, const Input& weights,
             const Input& values, const Output& c) {
  const std::string where = "recur.project: ";
  check_array<double, Kokkos::LayoutRight>(nodes, where, "nodes", 1);
  check_array<double, Kokkos::LayoutRight>(weights, where, "weights", 1);
  check_array<double, Kokkos::LayoutLeft>(values, where, "the values", 2);
  check_array<double, Kokkos::LayoutLeft>(c, where, "the coefficients' out", 2);
  cli::visit_family(choice, [&](const auto& family) {
    using Family = std::decay_t<decltype(family)>;
    if constexpr (impl::is_three_term_family<Family>::value &&
                  impl::has_norm_ratio<Family>::value) {
      nb::gil_scoped_release release;
      const Space space;
      const Bound<const double*, Kokkos::LayoutRight> xb(space, nodes, where, "nodes", true),
          wb(space, weights, where, "weights", true);
      const Bound<const double**, Kokkos::LayoutLeft> fb(space, values, where, "the values", true);
      const Bound<double**, Kokkos::LayoutLeft> cb(space, c, where, "the coefficients' out",
                                                   false);
      recur::project(space, family, xb.view(), wb.view(), fb.view(), cb.view());
      cb.finish(space);
      space.fence();
    } else {
      throw std::invalid_argument(where + choice.name +
                                  " has no weight; project takes the weighted families");
    }
  });
}


}  // namespace recur::python
