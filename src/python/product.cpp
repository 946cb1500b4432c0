// recur.ProductBasis: values, series, fit and Sobol indices of product bases.
#include "common.hpp"

namespace recur::python {

// The product basis of `families` (one, or one per dimension) over the
// multi-indices `indices` (P x d, int64, C order, host).
ProductBasis make_basis(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                        const std::string& where) {
  check_array<std::int64_t, Kokkos::LayoutRight>(indices, where, "the multi-indices", 2);
  if (indices.device_type() != nb::device::cpu::value)
    throw std::invalid_argument(where + "the multi-indices must be a host (NumPy) array");
  const int d = int(indices.shape(1));
  std::vector<int> table(indices.shape(0) * indices.shape(1));
  const auto* entries = static_cast<const std::int64_t*>(indices.data());
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = int(entries[i]);
  std::vector<AnyFamily> families;
  for (const auto& choice : choices) families.push_back(cli::any_family(choice));
  return ProductBasis(std::move(families), MultiIndexSet::from_table(d, std::move(table)));
}

// Psi (M x P, C or F order) of the basis at X (M x d, C order, Psi's
// dtype); dPsi M x P x d.
void product_vander(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                    const Input& X, const Output& Psi, const std::optional<Output>& dPsi,
                    bool fast, std::uintptr_t stream) {
  const std::string where = "recur.product_vander: ";
  const ProductBasis basis = make_basis(choices, indices, where);
  if (Psi.ndim() != 2)
    throw std::invalid_argument(where + "out must be M x P");
  with_dtype(Psi, where, [&](auto t) {
    using T = decltype(t);
    with_layout(fortran_order(Psi), [&](auto layout) {
      using L = decltype(layout);
      check_array<T, Kokkos::LayoutRight>(X, where, "x", 2);
      check_array<T, L>(Psi, where, "out", 2);
      if (dPsi) check_array<T, Kokkos::LayoutRight>(*dPsi, where, "the gradient's out", 3);
      nb::gil_scoped_release release;
      const Space space = space_on(stream);
      const Bound<const T**, Kokkos::LayoutRight> Xb(space, X, where, "x", true);
      const Bound<T**, L> Pb(space, Psi, where, "out", false);
      std::optional<Bound<T***, Kokkos::LayoutRight>> Gb;
      if (dPsi) Gb.emplace(space, *dPsi, where, "the gradient's out", false);
      with_precision(fast, [&](auto precision) {
        if (Gb)
          evaluate(space, basis, Xb.view(), Pb.view(), Gb->view(), precision);
        else
          evaluate(space, basis, Xb.view(), Pb.view(), precision);
      });
      Pb.finish(space);
      if (Gb) Gb->finish(space);
      space.fence();
    });
  });
}


// Y = Psi C without forming Psi: C P x K (F order), X M x d (C order), Y
// M x K (C order), all of Y's dtype.
void product_series(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                    const Input& C, const Input& X, const Output& Y, bool fast,
                    std::uintptr_t stream) {
  const std::string where = "recur.ProductBasis.series: ";
  const ProductBasis basis = make_basis(choices, indices, where);
  with_dtype(Y, where, [&](auto t) {
    using T = decltype(t);
    check_array<T, Kokkos::LayoutLeft>(C, where, "c", 2);
    check_array<T, Kokkos::LayoutRight>(X, where, "x", 2);
    check_array<T, Kokkos::LayoutRight>(Y, where, "out", 2);
    nb::gil_scoped_release release;
    const Space space = space_on(stream);
    const Bound<const T**, Kokkos::LayoutLeft> Cb(space, C, where, "c", true);
    const Bound<const T**, Kokkos::LayoutRight> Xb(space, X, where, "x", true);
    const Bound<T**, Kokkos::LayoutRight> Yb(space, Y, where, "out", false);
    with_precision(fast, [&](auto precision) {
      recur::series(space, basis, Cb.view(), Xb.view(), Yb.view(), precision);
    });
    Yb.finish(space);
    space.fence();
  });
}

// Regression: the P x K coefficients (F order) of the samples X (M x d, C
// order) and data y (M x K, F order), all float64; weights M values or none.
void product_fit(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                 const Input& X, const Input& y, const Output& c, const std::optional<Input>& w,
                 std::uintptr_t stream) {
  const std::string where = "recur.ProductBasis.fit: ";
  const ProductBasis basis = make_basis(choices, indices, where);
  check_array<double, Kokkos::LayoutRight>(X, where, "x", 2);
  check_array<double, Kokkos::LayoutLeft>(y, where, "y", 2);
  check_array<double, Kokkos::LayoutLeft>(c, where, "the coefficients' out", 2);
  if (w) check_array<double, Kokkos::LayoutRight>(*w, where, "w", 1);
  nb::gil_scoped_release release;
  const Space space = space_on(stream);
  const Bound<const double**, Kokkos::LayoutRight> Xb(space, X, where, "x", true);
  const Bound<const double**, Kokkos::LayoutLeft> yb(space, y, where, "y", true);
  const Bound<double**, Kokkos::LayoutLeft> cb(space, c, where, "the coefficients' out", false);
  if (w) {
    const Bound<const double*, Kokkos::LayoutRight> wb(space, *w, where, "w", true);
    recur::fit(space, basis, Xb.view(), yb.view(), cb.view(), wb.view());
  } else {
    recur::fit(space, basis, Xb.view(), yb.view(), cb.view());
  }
  cb.finish(space);
  space.fence();
}

// Mean, variance, first-order and total Sobol indices of coefficients c.
std::tuple<double, double, std::vector<double>, std::vector<double>> product_sobol(
    const std::vector<cli::FamilyChoice>& choices, const Input& indices,
    const std::vector<double>& c) {
  const SobolIndices s =
      sobol_indices(make_basis(choices, indices, "recur.ProductBasis.sobol_indices: "), c);
  return {s.mean, s.variance, s.first_order, s.total};
}

}  // namespace recur::python
