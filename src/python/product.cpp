// recur.product_vander.
#include "common.hpp"

namespace recur::python {

// Psi (M x P, C or F order) of the product basis of `families` (one, or
// one per dimension) over the multi-indices `indices` (P x d, int64, C
// order, host) at X (M x d, C order, Psi's dtype); dPsi M x P x d.
void product_vander(const std::vector<cli::FamilyChoice>& choices, const Input& indices,
                    const Input& X, const Output& Psi, const std::optional<Output>& dPsi,
                    bool fast, std::uintptr_t stream) {
  const std::string where = "recur.product_vander: ";
  check_array<std::int64_t, Kokkos::LayoutRight>(indices, where, "the multi-indices", 2);
  if (indices.device_type() != nb::device::cpu::value)
    throw std::invalid_argument(where + "the multi-indices must be a host (NumPy) array");
  const int d = int(indices.shape(1));
  std::vector<int> table(indices.shape(0) * indices.shape(1));
  const auto* entries = static_cast<const std::int64_t*>(indices.data());
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = int(entries[i]);
  std::vector<AnyFamily> families;
  for (const auto& choice : choices) families.push_back(cli::any_family(choice));
  const ProductBasis basis(std::move(families), MultiIndexSet::from_table(d, std::move(table)));
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


}  // namespace recur::python
