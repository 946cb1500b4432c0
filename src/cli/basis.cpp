// Multivariate product bases on the command line: `recur basis` writes a
// multi-index table, and `recur eval --degree P` evaluates a product basis
// at the samples of an (M, d) array.

#include "commands.hpp"
#include "errors.hpp"
#include "eval.hpp"

#include <recur/npy.hpp>
#include <recur/product_basis.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace recur::cli {

const CommandSpec basis_command{
    "basis",
    "basis --dims D --degree P --out A.npy [--index-set SET]",
    "Writes the multi-index table of a multivariate (polynomial chaos) basis: a P x D\n"
    "int64 array whose row j is the multi-index of basis function j, in the order\n"
    "`recur eval --degree` gives the functions (the columns of its output).",
    {
        {"dims", "D", "the number of dimensions, D >= 1"},
        {"degree", "P", "the degree: P >= 0, or for a tensor set one degree per dimension,\n"
                        "comma-separated (2,3,1)"},
        {"index-set", "SET", "total (default): total degree <= P, graded, each degree in\n"
                             "OpenTURNS' order; tensor: each degree <= P, in numpy's\n"
                             "*vander2d/3d order; hyperbolic:Q: q-norm <= P, 0 < Q <= 1"},
        {"out", "A.npy", "the output, P x D int64"},
        {"help", nullptr, "this help"},
    },
    "example: recur basis --dims 3 --degree 4 --out alpha.npy\n"};

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// --index-set and --degree, for d dimensions.
MultiIndexSet index_set(const Arguments& arguments, int d) {
  const std::string set    = arguments.value("index-set").value_or("total");
  const std::string degree = arguments.required("degree");
  const auto one_degree    = [&] {
    return int(parse_integer("degree", degree, 0, INT_MAX, "P"));
  };
  try {
    if (set == "total") return MultiIndexSet::total_degree(d, one_degree());
    if (set == "tensor") {
      const std::vector<std::string> parts = split(degree, ',');
      if (parts.size() == 1) return MultiIndexSet::tensor(d, one_degree());
      if (int(parts.size()) != d)
        throw UsageError("--degree " + degree + " gives " + std::to_string(parts.size()) +
                         " degrees for d = " + std::to_string(d) +
                         " dimensions; give one degree, or one per dimension");
      std::vector<int> degrees;
      for (const std::string& part : parts)
        degrees.push_back(int(parse_integer("degree", part, 0, INT_MAX, "each degree")));
      return MultiIndexSet::tensor(degrees);
    }
    if (set.rfind("hyperbolic:", 0) == 0) {
      const double q = parse_real("index-set", set.substr(11));
      if (!(q > 0 && q <= 1))
        throw UsageError("--index-set " + set + ": q must be in (0, 1] (1 gives the total set)");
      return MultiIndexSet::hyperbolic(d, one_degree(), q);
    }
  } catch (const std::invalid_argument& error) {
    // Sets too large for memory, from MultiIndexSet: the command line's mistake.
    const std::string message = error.what();
    throw UsageError(message.substr(message.find(": ") + 2));
  }
  throw UsageError("--index-set " + set + ": expected total, tensor or hyperbolic:Q");
}

// A family of --family's list: NAME, or NAME:alpha=A:beta=B (lambda=L).
AnyFamily family_of(const std::string& spec) {
  const std::vector<std::string> parts = split(spec, ':');
  FamilyChoice choice;
  choice.name = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::size_t equals = parts[i].find('=');
    const std::string name   = parts[i].substr(0, equals);
    const std::string value  = equals == std::string::npos ? "" : parts[i].substr(equals + 1);
    if (name != "alpha" && name != "beta" && name != "lambda")
      throw UsageError("--family " + spec + ": '" + parts[i] +
                       "' is no parameter; write NAME:alpha=A:beta=B or NAME:lambda=L");
    (name == "alpha" ? choice.alpha : name == "beta" ? choice.beta : choice.lambda) =
        parse_real("family", value);
  }
  return any_family(choice);
}

// --family: one family for every dimension, or d of them.
std::vector<AnyFamily> families_of(const Arguments& arguments, int d) {
  const std::string list             = arguments.required("family");
  const std::vector<std::string> all = split(list, ',');
  if (all.size() != 1 && int(all.size()) != d)
    throw UsageError("--family lists " + std::to_string(all.size()) + " families but x has d = " +
                     std::to_string(d) +
                     " columns; give one family for every dimension, or one per dimension");
  const bool global = arguments.has("alpha") || arguments.has("beta") || arguments.has("lambda");
  if (global && all.size() > 1)
    throw UsageError("--alpha, --beta and --lambda go with one family; with a list, write each "
                     "family's parameters as NAME:alpha=A:beta=B");
  std::vector<AnyFamily> families;
  if (global) {
    const FamilyChoice choice = family_choice(arguments);
    std::string spec          = choice.name;
    if (choice.alpha) spec += ":alpha=" + arguments.required("alpha");
    if (choice.beta) spec += ":beta=" + arguments.required("beta");
    if (choice.lambda) spec += ":lambda=" + arguments.required("lambda");
    families.push_back(family_of(spec));
  } else {
    for (const std::string& spec : all) families.push_back(family_of(spec));
  }
  return families;
}

// Rows [first, first + rows) of Psi (M x P) and dPsi (M x P x d) of the
// samples X (row-major, d columns), into the writers' files in C or Fortran
// order.
template <class T, class Layout>
void evaluate_basis_into_files(const ProductBasis& basis, const npy::Matrix& X, bool fast,
                               std::size_t chunk, npy::Writer& values, npy::Writer* derivatives) {
  using Space       = Kokkos::DefaultExecutionSpace;
  const Space space;
  const std::size_t M = X.rows, P = std::size_t(basis.size()), d = X.columns;
  Kokkos::View<double**, Kokkos::LayoutRight, Space> x("recur::eval::X", chunk, d);
  Kokkos::View<T**, Layout, Space> Psi("recur::eval::Psi", chunk, P);
  Kokkos::View<T***, Layout, Space> dPsi("recur::eval::dPsi", derivatives ? chunk : 0, P, d);
  auto Psi_host  = Kokkos::create_mirror_view(Psi);
  auto dPsi_host = Kokkos::create_mirror_view(dPsi);
  for (std::size_t first = 0; first < M; first += chunk) {
    const std::size_t rows = std::min(chunk, M - first);
    const auto range       = std::make_pair(std::size_t(0), rows);
    const Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace,
                       Kokkos::MemoryUnmanaged>
        samples(X.values.data() + first * d, rows, d);
    const auto x_rows = Kokkos::subview(x, range, Kokkos::ALL);
    Kokkos::deep_copy(space, x_rows, samples);
    const auto Psi_rows  = Kokkos::subview(Psi, range, Kokkos::ALL);
    const auto dPsi_rows = Kokkos::subview(dPsi, derivatives ? range : std::make_pair(std::size_t(0), std::size_t(0)),
                                           Kokkos::ALL, Kokkos::ALL);
    if (derivatives) {
      if (fast)
        evaluate(space, basis, x_rows, Psi_rows, dPsi_rows, Fast{});
      else
        evaluate(space, basis, x_rows, Psi_rows, dPsi_rows);
    } else {
      if (fast)
        evaluate(space, basis, x_rows, Psi_rows, Fast{});
      else
        evaluate(space, basis, x_rows, Psi_rows);
    }
    Kokkos::deep_copy(space, Psi_host, Psi);
    if (derivatives) Kokkos::deep_copy(space, dPsi_host, dPsi);
    space.fence();
    // C order: the rows are one run; Fortran order: a run per column
    // (and per column and dimension for dPsi).
    if (std::is_same_v<Layout, Kokkos::LayoutRight>) {
      values.write(first * P, Psi_host.data(), rows * P);
      if (derivatives) derivatives->write(first * P * d, dPsi_host.data(), rows * P * d);
    } else {
      for (std::size_t j = 0; j < P; ++j) values.write(j * M + first, &Psi_host(0, j), rows);
      if (derivatives)
        for (std::size_t k = 0; k < d; ++k)
          for (std::size_t j = 0; j < P; ++j)
            derivatives->write((k * P + j) * M + first, &dPsi_host(0, j, k), rows);
    }
  }
}

}  // namespace

int run_basis(const Arguments& arguments) {
  const int d = int(parse_integer("dims", arguments.required("dims"), 1, INT_MAX, "D"));
  const MultiIndexSet set = index_set(arguments, d);
  const std::string out   = arguments.required("out");
  std::vector<std::int64_t> table(set.table().begin(), set.table().end());
  std::unique_ptr<TemporaryGuard> guard;  // outlives the writer
  std::unique_ptr<npy::Writer> output;
  {
    const HeldSignals held;
    output = std::make_unique<npy::Writer>(
        out, npy::DType::Int64, std::vector<std::size_t>{std::size_t(set.size()), std::size_t(d)},
        false);
    guard = std::make_unique<TemporaryGuard>(0, output->temporary_path());
  }
  output->write(0, table.data(), table.size());
  output->commit();
  return 0;
}

int run_eval_basis(const Arguments& arguments) {
  if (ranks::many())
    throw UsageError("--degree (a multivariate basis) runs on one process; run it without mpirun");
  if (arguments.has("n"))
    throw UsageError("--n and --degree exclude each other: --n N for one variable, --degree P "
                     "for the samples of an (M, d) array");
  for (const char* option : {"policy", "chunk"})
    if (arguments.has(option))
      throw UsageError(std::string("--") + option + " is for one variable (--n); --degree takes "
                       "neither");
  const std::string x_path = arguments.required("x");
  const std::string out    = arguments.required("out");
  const std::optional<std::string> derivative = arguments.value("derivative");
  const bool fast = parse_choice(arguments, "precision", {"accurate", "fast"}, "accurate") == "fast";
  const bool column_major = parse_choice(arguments, "layout", {"row", "col"}, "row") == "col";
  const std::string dtype = parse_choice(arguments, "dtype", {"float32", "float64"}, "");
  if (same_file(out, x_path))
    throw UsageError("--out " + out + " is the input --x; write the output to another file");
  if (derivative && (same_file(*derivative, x_path) || same_file(*derivative, out)))
    throw UsageError("--derivative " + *derivative +
                     " is the input --x or the --out file; give it a path of its own");

  const npy::Matrix X = npy::read_matrix(x_path);
  if (X.columns == 0 || X.columns > std::size_t(INT_MAX))
    throw UsageError("x has " + std::to_string(X.columns) +
                     " columns; a basis needs at least one dimension");
  const int d = int(X.columns);
  const ProductBasis basis(families_of(arguments, d), index_set(arguments, d));
  check_finite(X.values, X.columns, 0, X.rows, arguments.has("strict"));

  const npy::DType type = dtype.empty()        ? X.dtype
                          : dtype == "float32" ? npy::DType::Float32
                                               : npy::DType::Float64;
  const std::size_t M = X.rows, P = std::size_t(basis.size());
  const std::size_t element = npy::size_of(type) * (derivative ? 1 + std::size_t(d) : 1);
  if (P > std::size_t(PTRDIFF_MAX) / element)
    throw UsageError("a row of P = " + std::to_string(P) + " functions is too large");
  // Chunks of about 64 MiB of output, at least one row.
  const std::size_t chunk = std::max<std::size_t>(1, std::min<std::size_t>(M, (std::size_t(64) << 20) / (P * element)));

  KokkosSession kokkos;
  std::unique_ptr<TemporaryGuard> guards[2];  // outlive the writers
  std::unique_ptr<npy::Writer> values, derivatives;
  {
    const HeldSignals held;
    values    = std::make_unique<npy::Writer>(out, type, std::vector<std::size_t>{M, P}, column_major);
    guards[0] = std::make_unique<TemporaryGuard>(0, values->temporary_path());
    if (derivative) {
      derivatives = std::make_unique<npy::Writer>(
          *derivative, type, std::vector<std::size_t>{M, P, std::size_t(d)}, column_major);
      guards[1] = std::make_unique<TemporaryGuard>(1, derivatives->temporary_path());
    }
  }
  if (M > 0) {
    const auto run = type == npy::DType::Float32
                         ? (column_major ? &evaluate_basis_into_files<float, Kokkos::LayoutLeft>
                                         : &evaluate_basis_into_files<float, Kokkos::LayoutRight>)
                         : (column_major ? &evaluate_basis_into_files<double, Kokkos::LayoutLeft>
                                         : &evaluate_basis_into_files<double, Kokkos::LayoutRight>);
    run(basis, X, fast, chunk, *values, derivatives.get());
  }
  if (derivatives) derivatives->commit();
  values->commit();
  return 0;
}

}  // namespace recur::cli
