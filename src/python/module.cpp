// recur._recur: the compiled half of the Python package (src/python/recur).
//
// Every function here takes arrays the caller owns, through DLPack
// (nb::ndarray: NumPy, CuPy, PyTorch, JAX), and writes its results into
// arrays the caller passed, so no array is ever copied on the way in or out;
// the Python half allocates outputs in the caller's kind of array and turns
// the argument forms users write into the few forms accepted here:
//   - x and the other inputs: contiguous, of the output's dtype;
//   - outputs: C-contiguous (LayoutRight) or F-contiguous (LayoutLeft).
// Arrays must be in the memory recur's backend computes in: the host for a
// CPU build; in a CUDA build the GPU recur runs on, or the host, in which
// case the array is staged through the GPU (a copy each way). The work runs
// on the caller's CUDA stream where one is given (Kokkos::Cuda instance on
// that stream), with the GIL released, and is fenced before returning.

#include "../cli/errors.hpp"
#include "../cli/families.hpp"

#include <recur/recur.hpp>
#include <recur/version.hpp>

#include <Kokkos_Core.hpp>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace nb = nanobind;

namespace recur::python {
namespace {

using Space  = Kokkos::DefaultExecutionSpace;
using Memory = Space::memory_space;
constexpr bool host_build = std::is_same_v<Memory, Kokkos::HostSpace>;

using Input  = nb::ndarray<nb::ro>;
using Output = nb::ndarray<>;

// A family as the Python side names it: the command's name and parameters.
cli::FamilyChoice family_choice(const std::string& name, std::optional<double> alpha,
                                std::optional<double> beta, std::optional<double> lambda) {
  return {name, alpha, beta, lambda};
}

// The execution space instance on the caller's stream (CUDA builds; 0: the
// default instance). Instances are kept, one a stream, until Kokkos ends.
std::map<std::uintptr_t, Space>& instances() {
  static std::map<std::uintptr_t, Space> kept;
  return kept;
}
Space space_on(std::uintptr_t stream) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    if (stream != 0) {
      auto& kept = instances();
      auto found = kept.find(stream);
      if (found == kept.end())
        found = kept.emplace(stream, Kokkos::Cuda(reinterpret_cast<cudaStream_t>(stream))).first;
      return found->second;
    }
  }
#endif
  (void)stream;
  return Space{};
}

std::string shape_of(const Input& a) {
  std::string s = "(";
  for (std::size_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

template <class T>
constexpr const char* dtype_name() {
  return std::is_same_v<T, float> ? "float32" : "float64";
}

// Whether recur can use the array where it is: host arrays always (staged
// in device builds), device arrays on recur's own GPU.
template <class Array>
bool on_host(const Array& a, const std::string& where, const char* what) {
  const int type = a.device_type();
  if (type == nb::device::cpu::value) return true;
  if constexpr (host_build) {
    throw std::invalid_argument(where + what +
                                " is a device array, but this recur computes on the host (" +
                                Space::name() + "); pass a NumPy (host) array");
  } else {
#ifdef KOKKOS_ENABLE_CUDA
    if (type != nb::device::cuda::value && type != nb::device::cuda_managed::value)
      throw std::invalid_argument(where + what +
                                  " is on a device this recur does not compute on; pass a "
                                  "CUDA array (CuPy, PyTorch, JAX) or a host array");
    const int in_use = Space().cuda_device();
    if (a.device_id() != in_use)
      throw std::invalid_argument(where + what + " is on GPU " + std::to_string(a.device_id()) +
                                  " but recur computes on GPU " + std::to_string(in_use) +
                                  "; move it there (or start recur on that GPU)");
#endif
    return false;
  }
}

// The array as a View in Memory with extents `extents` (its rank's) and
// layout L: the array's own memory, or in device builds for a host array a
// copy on the device (`copy_in`: with the array's values), copied back by
// `finish` for outputs.
template <class DataType, class L>
class Bound {
 public:
  using view_type  = Kokkos::View<DataType, L, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using value_type = typename view_type::value_type;
  using host_type  =
      Kokkos::View<DataType, L, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  template <class Array>
  Bound(const Space& space, const Array& a, const std::string& where, const char* what,
        bool copy_in)
      : m_layout(layout_of(a)) {
    auto* data = static_cast<value_type*>(const_cast<void*>(static_cast<const void*>(a.data())));
    if (on_host(a, where, what) && !host_build) {
      m_host    = host_type(data, m_layout);
      m_staged  = Kokkos::View<std::remove_const_t<value_type>*, Memory>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "recur::python::staged"),
          m_host.span());
      m_view    = view_type(m_staged.data(), m_layout);
      m_staging = true;
      if (copy_in) {
        const Kokkos::View<const value_type*, Kokkos::HostSpace,
                           Kokkos::MemoryTraits<Kokkos::Unmanaged>>
            from(m_host.data(), m_host.span());
        Kokkos::deep_copy(space, m_staged, from);
      }
    } else {
      m_view = view_type(data, m_layout);
    }
  }

  const view_type& view() const { return m_view; }

  void finish(const Space& space) const {
    if (!m_staging) return;
    const Kokkos::View<std::remove_const_t<value_type>*, Kokkos::HostSpace,
                       Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        to(const_cast<std::remove_const_t<value_type>*>(m_host.data()), m_host.span());
    Kokkos::deep_copy(space, to, m_staged);
  }

 private:
  template <class Array>
  static L layout_of(const Array& a) {
    if (a.ndim() == 1) return L(a.shape(0));
    if (a.ndim() == 2) return L(a.shape(0), a.shape(1));
    return L(a.shape(0), a.shape(1), a.shape(2));
  }

  L m_layout;
  view_type m_view;
  host_type m_host;
  Kokkos::View<std::remove_const_t<value_type>*, Memory> m_staged;
  bool m_staging = false;
};

// Checks that `a` has rank `rank`, dtype T and, for rank > 1, the strides
// of layout L (C order: LayoutRight, F order: LayoutLeft); rank 1: unit
// stride.
template <class T, class L, class Array>
void check_array(const Array& a, const std::string& where, const char* what, std::size_t rank) {
  if (a.ndim() != rank)
    throw std::invalid_argument(where + what + " has " + std::to_string(a.ndim()) +
                                " dimensions; it must have " + std::to_string(rank));
  if (a.dtype() != nb::dtype<T>())
    throw nb::type_error((where + what + " must hold " + dtype_name<T>()).c_str());
  std::int64_t expected = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t i = std::is_same_v<L, Kokkos::LayoutRight> ? rank - 1 - k : k;
    if (a.shape(i) > 1 && a.stride(i) != expected)
      throw std::invalid_argument(
          where + what + " must be " +
          (rank == 1 ? std::string("contiguous")
                     : std::is_same_v<L, Kokkos::LayoutRight> ? std::string("C-contiguous")
                                                              : std::string("F-contiguous")));
    expected *= std::int64_t(a.shape(i));
  }
}

// Whether a rank-2 output is in F order (LayoutLeft) rather than C order.
bool fortran_order(const Output& a) {
  if (a.ndim() < 2) return false;
  const bool c = a.shape(1) <= 1 || a.stride(1) == 1;
  return !c && (a.shape(0) <= 1 || a.stride(0) == 1);
}

template <class F>
void with_dtype(const Output& a, const std::string& where, F&& f) {
  if (a.dtype() == nb::dtype<float>())
    f(float{});
  else if (a.dtype() == nb::dtype<double>())
    f(double{});
  else
    throw nb::type_error((where + "the output must be float32 or float64").c_str());
}

template <class F>
void with_layout(bool fortran, F&& f) {
  if (fortran)
    f(Kokkos::LayoutLeft{});
  else
    f(Kokkos::LayoutRight{});
}

template <class F>
void with_precision(bool fast, F&& f) {
  if (fast)
    f(Fast{});
  else
    f(Accurate{});
}

// Where the last vander read x from: the tests check that x is read in place.
std::uintptr_t last_input = 0;

// V (and dV) of `family` at x: V M x N, C or F order, float32 or float64;
// x M values of V's dtype.
void vander(const cli::FamilyChoice& choice, const Input& x, const Output& V,
            const std::optional<Output>& dV, bool fast, std::uintptr_t stream) {
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
        with_precision(fast, [&](auto precision) {
          if (dVb)
            evaluate(space, family, xb.view(), Vb.view(), dVb->view(), precision);
          else
            evaluate(space, family, xb.view(), Vb.view(), precision);
        });
      });
      Vb.finish(space);
      if (dVb) dVb->finish(space);
      space.fence();
    });
  });
}

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

// Every family: (name, parameters it takes, description).
std::vector<std::tuple<std::string, std::vector<std::string>, std::string>> families() {
  std::vector<std::tuple<std::string, std::vector<std::string>, std::string>> all;
  cli::for_each_family([&](const auto& entry) {
    std::vector<std::string> parameters;
    for (const char* p : {"alpha", "beta", "lambda"})
      if (cli::impl::takes(std::decay_t<decltype(entry)>::parameters, p)) parameters.push_back(p);
    all.emplace_back(entry.name, parameters, entry.description);
  });
  return all;
}

std::string configuration() {
  std::ostringstream out;
  print_configuration(out);
  out << "device: " << describe_device() << "\n";
  return out.str();
}

// Kokkos starts once a process (on import) and ends at exit (atexit).
bool kokkos_ended = false;

void initialize() {
  if (!Kokkos::is_initialized() && !kokkos_ended) Kokkos::initialize();
}

// Makes the family (its constructor checks the parameters).
void check_family(const cli::FamilyChoice& choice) {
  cli::visit_family(choice, [](const auto&) {});
}

// The multi-indices of a set, P x d, as rows.
std::vector<std::vector<int>> multi_indices(const std::string& kind, int d, int p, double q) {
  const MultiIndexSet set = kind == "total"    ? MultiIndexSet::total_degree(d, p)
                            : kind == "tensor" ? MultiIndexSet::tensor(d, p)
                                               : MultiIndexSet::hyperbolic(d, p, q);
  std::vector<std::vector<int>> rows(std::size_t(set.size()), std::vector<int>(std::size_t(d)));
  for (int j = 0; j < set.size(); ++j)
    for (int k = 0; k < d; ++k) rows[std::size_t(j)][std::size_t(k)] = set(j, k);
  return rows;
}

void finalize() {
  instances().clear();
  if (Kokkos::is_initialized() && !kokkos_ended) Kokkos::finalize();
  kokkos_ended = true;
}

}  // namespace
}  // namespace recur::python

NB_MODULE(_recur, m) {
  namespace py = recur::python;
  m.doc() = "recur's compiled core; use the recur package";
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const recur::cli::UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  nb::class_<recur::cli::FamilyChoice>(m, "FamilyChoice")
      .def(nb::new_(&py::family_choice), nb::arg("name"), nb::arg("alpha").none(),
           nb::arg("beta").none(), nb::arg("lambda_").none());
  m.def("initialize", &py::initialize);
  m.def("finalize", &py::finalize);
  m.def("families", &py::families);
  m.def("check_family", &py::check_family);
  m.def("last_input_address", [] { return py::last_input; });
  m.def("multi_indices", &py::multi_indices);
  m.def("configuration", &py::configuration);
  m.def("version", &recur::version);
  m.def("backend", [] { return std::string(py::Space::name()); });
  m.def("host_build", [] { return py::host_build; });
  m.def("vander", &py::vander, nb::arg("family"), nb::arg("x"), nb::arg("out"),
        nb::arg("dout").none(), nb::arg("fast"), nb::arg("stream"));
  m.def("series", &py::series, nb::arg("family"), nb::arg("c"), nb::arg("x"), nb::arg("out"),
        nb::arg("fast"), nb::arg("stream"));
  m.def("gauss", &py::gauss, nb::arg("family"), nb::arg("nodes"), nb::arg("weights"));
  m.def("fit", &py::fit, nb::arg("family"), nb::arg("x"), nb::arg("y"), nb::arg("out"),
        nb::arg("w").none(), nb::arg("stream"));
  m.def("project", &py::project, nb::arg("family"), nb::arg("nodes"), nb::arg("weights"),
        nb::arg("values"), nb::arg("out"));
  m.def("product_vander", &py::product_vander, nb::arg("families"), nb::arg("indices"),
        nb::arg("x"), nb::arg("out"), nb::arg("dout").none(), nb::arg("fast"),
        nb::arg("stream"));
}
