// recur.series.
#include "common.hpp"

namespace recur::python {

// Y = sum_n C(n, k) p_n(x_i): C N x K in F order, x M values, Y M x K in C
// order, all of Y's dtype.
void series(const cli::FamilyChoice& choice, const Input& C, const Input& x, const Output& Y,
            bool fast, std::uintptr_t stream) {
  const std::string where = "recur.series: ";
  with_dtype(Y, where, [&](auto t) {
    using T = decltype(t);
    check_array<T, Kokkos::LayoutLeft>(C, where, "c", 2);
    check_array<T, Kokkos::LayoutRight>(x, where, "x", 1);
    check_array<T, Kokkos::LayoutRight>(Y, where, "out", 2);
    cli::visit_family(choice, [&](const auto& family) {
      using Family = std::decay_t<decltype(family)>;
      if constexpr (impl::is_three_term_family<Family>::value ||
                    std::is_same_v<Family, PowerSums>) {
        nb::gil_scoped_release release;
        const Space space = space_on(stream);
        const Bound<const T**, Kokkos::LayoutLeft> Cb(space, C, where, "c", true);
        const Bound<const T*, Kokkos::LayoutRight> xb(space, x, where, "x", true);
        const Bound<T**, Kokkos::LayoutRight> Yb(space, Y, where, "out", false);
        with_precision(fast, [&](auto precision) {
          recur::series(space, family, Cb.view(), xb.view(), Yb.view(), precision);
        });
        Yb.finish(space);
        space.fence();
      } else {
        throw std::invalid_argument(where + choice.name +
                                    " has no series; series takes the three-term families "
                                    "and power_sums");
      }
    });
  });
}


}  // namespace recur::python
