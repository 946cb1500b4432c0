// recur gauss: the n-point Gauss rule of a family's weight into an n x 2
// .npy file.

#include "commands.hpp"
#include "ranks.hpp"
#include "errors.hpp"

#include <recur/gauss.hpp>
#include <recur/npy.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace recur::cli {

const CommandSpec gauss_command{
    "gauss",
    "gauss --family NAME --n N --out nodes_weights.npy [options]",
    "Computes the N-point Gauss rule of the family's weight function w, exact for\n"
    "polynomials of degree < 2N: sum_i w_i f(x_i) = integral of f(x) w(x) dx. Writes an N x 2\n"
    "array, nodes ascending in column 0 and weights in column 1, with numpy.polynomial's\n"
    "conventions (weights sum to the weight's total mass: 2 for legendre, sqrt(pi) for\n"
    "hermite, sqrt(2 pi) for hermite_e, Gamma(alpha + 1) for laguerre, ...).",
    {
        {"family", "NAME", "a weighted family: hermite_e, hermite, legendre, chebyshev_t,\n"
                           "chebyshev_u, laguerre, jacobi, gegenbauer (or NAME_normalized:\n"
                           "the same weight)"},
        {"n", "N", "the number of nodes, N >= 1"},
        {"out", "PATH", "the output, N x 2: nodes, weights"},
        {"alpha", "A", "alpha of laguerre and jacobi (default 0), > -1"},
        {"beta", "B", "beta of jacobi (default 0), > -1"},
        {"lambda", "L", "lambda of gegenbauer (default 0.5), > -1/2"},
        {"dtype", "float32|float64", "the output's type (default float64)"},
        {"help", nullptr, "this help"},
    },
    "Exit status: 0 done, 2 a mistake on the command line, 1 any other failure.\n"
    "\n"
    "example: recur gauss --family legendre --n 20 --out legendre20.npy\n"};

namespace {

using recur::impl::has_weight;

template <class T, class Family>
std::vector<T> nodes_and_weights(const Family& family, int n) {
  using Space = Kokkos::DefaultExecutionSpace;
  const Space space;
  Kokkos::View<T*, Space> nodes(Kokkos::view_alloc(space, "recur::gauss::nodes"), n);
  Kokkos::View<T*, Space> weights(Kokkos::view_alloc(space, "recur::gauss::weights"), n);
  gauss(space, family, n, nodes, weights);
  const auto host_nodes   = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, nodes);
  const auto host_weights = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, weights);
  std::vector<T> rows(2 * std::size_t(n));
  for (int i = 0; i < n; ++i) {
    rows[2 * std::size_t(i)]     = host_nodes(i);
    rows[2 * std::size_t(i) + 1] = host_weights(i);
  }
  return rows;
}

}  // namespace

namespace {

int write_gauss(const Arguments& arguments) {
  const FamilyChoice choice = family_choice(arguments);
  const int n = int(parse_integer("n", arguments.required("n"), 1, INT_MAX / 2, "N"));
  const std::string out = arguments.required("out");
  const std::string dtype = arguments.value("dtype").value_or("float64");
  if (dtype != "float32" && dtype != "float64")
    throw UsageError("--dtype " + dtype + ": expected one of float32, float64");
  visit_family(choice, [&](const auto& family) {
    if (!has_weight<std::decay_t<decltype(family)>>::value)
      throw UsageError(choice.name +
                       " has no weight function; gauss needs a weighted family: hermite_e, "
                       "hermite, legendre, chebyshev_t, chebyshev_u, laguerre, jacobi, "
                       "gegenbauer (or their _normalized variants)");
  });

  KokkosSession kokkos;
  const npy::DType type = dtype == "float32" ? npy::DType::Float32 : npy::DType::Float64;
  std::unique_ptr<TemporaryGuard> guard;  // outlives the writer
  std::unique_ptr<npy::Writer> output;
  {
    const HeldSignals held;
    output = std::make_unique<npy::Writer>(out, type, std::vector<std::size_t>{std::size_t(n), 2}, false);
    guard  = std::make_unique<TemporaryGuard>(0, output->temporary_path());
  }
  npy::Writer& writer = *output;
  visit_family(choice, [&](const auto& family) {
    if constexpr (has_weight<std::decay_t<decltype(family)>>::value) {
      if (type == npy::DType::Float32)
        writer.write(0, nodes_and_weights<float>(family, n).data(), writer.elements());
      else
        writer.write(0, nodes_and_weights<double>(family, n).data(), writer.elements());
    }
  });
  writer.commit();
  return 0;
}

}  // namespace

// Across MPI ranks, rank 0 alone makes the rule and writes it; every rank
// ends with its status.
int run_gauss(const Arguments& arguments) {
  int status = 0;
  ranks::step([&] {
    if (ranks::rank() == 0) status = write_gauss(arguments);
  });
  return status;
}

}  // namespace recur::cli
