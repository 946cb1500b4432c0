// recur._recur, the compiled half of the Python package: the module, and
// the functions that compute nothing (common.hpp says how arrays are taken).
#include "common.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace recur::python {
namespace {

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

// recur.vander: values (and derivatives) in either precision.
void vander(const cli::FamilyChoice& choice, const Input& x, const Output& V,
            const std::optional<Output>& dV, bool fast, std::uintptr_t stream) {
  if (fast)
    vander_in<Fast>(choice, x, V, dV, stream);
  else
    vander_in<Accurate>(choice, x, V, dV, stream);
}

// The median seconds of `repeats` calls of vander from C++ (no Python in
// the loop), each fenced: what recur.vander costs without its Python layer
// (perf_tests/python_perf.py sets the two side by side).
double time_vander(const cli::FamilyChoice& choice, const Input& x, const Output& V, bool fast,
                   int repeats) {
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    vander(choice, x, V, std::nullopt, fast, 0);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds.empty() ? 0.0 : seconds[seconds.size() / 2];
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
  m.def("time_vander", &py::time_vander, nb::arg("family"), nb::arg("x"), nb::arg("out"),
        nb::arg("fast"), nb::arg("repeats"));
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
  m.def("product_series", &py::product_series, nb::arg("families"), nb::arg("indices"),
        nb::arg("c"), nb::arg("x"), nb::arg("out"), nb::arg("fast"), nb::arg("stream"));
  m.def("product_fit", &py::product_fit, nb::arg("families"), nb::arg("indices"), nb::arg("x"),
        nb::arg("y"), nb::arg("out"), nb::arg("w").none(), nb::arg("stream"));
  m.def("product_sobol", &py::product_sobol, nb::arg("families"), nb::arg("indices"),
        nb::arg("c"));
#ifdef RECUR_ENABLE_MPI
  m.def("mpi_initialize", &py::mpi_initialize);
  m.def("mpi_finalize", &py::mpi_finalize);
  m.def("mpi_rank_size", &py::mpi_rank_size);
  m.def("mpi_fit", &py::mpi_fit, nb::arg("family"), nb::arg("x"), nb::arg("y"), nb::arg("out"),
        nb::arg("w").none(), nb::arg("stream"));
  m.def("mpi_fail", &py::mpi_fail);
#endif
}
