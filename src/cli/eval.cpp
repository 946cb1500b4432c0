// recur eval: V(i, n) = p_n(x_i) into a .npy file.

#include "commands.hpp"
#include "errors.hpp"
#include "eval.hpp"
#include "eval_into_files.hpp"
#include "input.hpp"

#include <recur/npy.hpp>
#include <recur/stream.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

namespace recur::cli {

const CommandSpec eval_command{
    "eval",
    "eval --family NAME --n N --x X --out V.npy [options]",
    "Computes V(i, n) = p_n(x_i) for every x_i of X and n = 0 .. N-1, an M x N array,\n"
    "and writes it to V.npy. The file appears whole or not at all; an existing V.npy is\n"
    "replaced only when the run succeeds. Outputs larger than memory are computed and\n"
    "written in chunks of rows.",
    {
        {"family", "NAME", "the family (below)"},
        {"n", "N", "terms per x: p_0 .. p_{N-1}; N >= 1"},
        {"x", "X", "the x values: a .npy file of float32 or float64, 1-D or (M, 1),\n"
                   "or a text file with one number per line"},
        {"out", "V.npy", "the output, M x N"},
        {"alpha", "A", "alpha of laguerre (default 0) and jacobi (default 0), > -1"},
        {"beta", "B", "beta of jacobi (default 0), > -1"},
        {"lambda", "L", "lambda of gegenbauer (default 0.5), > -1/2"},
        {"dtype", "float32|float64", "the output's type (default: the input's; text: float64)"},
        {"layout", "row|col", "row: C order (default); col: Fortran order (column-major)"},
        {"derivative", "dV.npy", "also write p_n'(x_i), with V's shape, type and layout"},
        {"policy", "auto|thread|staged|scan", "how rows map to threads (default auto; README.md)"},
        {"precision", "accurate|fast", "accurate (default): float64 results computed in\n"
                                       "double-double, float32 in double; fast: in the output's\n"
                                       "own type, several times faster for float64\n"
                                       "(docs/accuracy.md)"},
        {"chunk", "ROWS", "compute and write ROWS rows at a time (default: chunks of\n"
                          "4 MiB on CPUs, 128 MiB on a GPU)"},
        {"strict", nullptr, "fail when x holds NaN or infinite values (default: warn)"},
        {"help", nullptr, "this help"},
    },
    "families: power_sums, monomials, hermite_e, hermite, hermite_function, legendre,\n"
    "chebyshev_t, chebyshev_u, laguerre, jacobi, gegenbauer, and NAME_normalized of every\n"
    "weighted one (hermite_e_normalized = He_n / sqrt(n!), legendre_normalized = sqrt(2n+1) P_n,\n"
    "...: orthonormal for the weight's probability measure).\n"
    "\n"
    "NaN or infinite x are data: their rows come out as the recurrence gives them (NaN for\n"
    "NaN) and one warning line counts them; --strict makes them an error.\n"
    "\n"
    "Exit status: 0 done, 2 a mistake on the command line, 1 any other failure.\n"
    "\n"
    "example: recur eval --family hermite_e_normalized --n 32 --x x.npy --out V.npy\n"};

namespace {

using WriteFunction = void (*)(const EvalJob&);

WriteFunction writer_for(npy::DType dtype, bool column_major) {
  if (dtype == npy::DType::Float32)
    return column_major ? &evaluate_into_files<float, Kokkos::LayoutLeft>
                        : &evaluate_into_files<float, Kokkos::LayoutRight>;
  return column_major ? &evaluate_into_files<double, Kokkos::LayoutLeft>
                      : &evaluate_into_files<double, Kokkos::LayoutRight>;
}

std::string choice_of(const Arguments& arguments, const char* option,
                      std::initializer_list<const char*> choices, const char* fallback) {
  const std::optional<std::string> value = arguments.value(option);
  if (!value) return fallback;
  std::string list;
  for (const char* choice : choices) {
    if (*value == choice) return *value;
    list += list.empty() ? "" : ", ";
    list += choice;
  }
  throw UsageError(std::string("--") + option + " " + *value + ": expected one of " + list);
}

}  // namespace

FamilyChoice family_choice(const Arguments& arguments) {
  FamilyChoice choice;
  choice.name = arguments.required("family");
  if (auto a = arguments.value("alpha")) choice.alpha = parse_real("alpha", *a);
  if (auto b = arguments.value("beta")) choice.beta = parse_real("beta", *b);
  if (auto l = arguments.value("lambda")) choice.lambda = parse_real("lambda", *l);
  // Unknown names, parameters a family does not take and invalid values
  // fail here, before any file is touched.
  visit_family(choice, [](const auto&) {});
  return choice;
}

int run_eval(const Arguments& arguments) {
  EvalJob job;
  job.family = family_choice(arguments);
  job.N      = int(parse_integer("n", arguments.required("n"), 1, INT_MAX, "N"));
  const std::string x_path   = arguments.required("x");
  const std::string out_path = arguments.required("out");
  const std::optional<std::string> derivative_path = arguments.value("derivative");
  job.policy = choice_of(arguments, "policy", {"auto", "thread", "staged", "scan"}, "auto");
  job.fast   = choice_of(arguments, "precision", {"accurate", "fast"}, "accurate") == "fast";
  const std::string layout = choice_of(arguments, "layout", {"row", "col"}, "row");
  const std::string dtype  = choice_of(arguments, "dtype", {"float32", "float64"}, "");
  if (auto chunk = arguments.value("chunk"))
    job.chunk_rows = std::size_t(parse_integer("chunk", *chunk, 1, LLONG_MAX, "ROWS"));
  const bool strict = arguments.has("strict");

  if (derivative_path && (job.policy == "staged" || job.policy == "scan"))
    throw UsageError("--derivative needs --policy auto or thread; " + job.policy +
                     " does not fill derivatives");
  if (same_file(out_path, x_path))
    throw UsageError("--out " + out_path + " is the input --x; write the output to another file");
  if (derivative_path && same_file(*derivative_path, x_path))
    throw UsageError("--derivative " + *derivative_path +
                     " is the input --x; write the output to another file");
  if (derivative_path && same_file(*derivative_path, out_path))
    throw UsageError("--derivative and --out are the same file " + out_path +
                     "; give them different paths");

  const npy::Vector x = read_x(x_path);
  std::size_t nans = 0, infinities = 0, first_bad = 0;
  for (std::size_t i = 0; i < x.values.size(); ++i) {
    const bool nan = std::isnan(x.values[i]), infinite = std::isinf(x.values[i]);
    if ((nan || infinite) && nans + infinities == 0) first_bad = i;
    nans += nan;
    infinities += infinite;
  }
  if (nans + infinities > 0) {
    const std::string count = std::to_string(nans) + " NaN and " + std::to_string(infinities) +
                              " infinite values of " + std::to_string(x.values.size()) +
                              " (the first at row " + std::to_string(first_bad) + ")";
    if (strict)
      throw std::runtime_error("x holds " + count +
                               "; --strict refuses them: remove those rows, or drop --strict to "
                               "compute them as data");
    warn("x holds " + count + "; their rows are NaN");
  }

  const npy::DType type = dtype.empty()        ? x.dtype
                          : dtype == "float32" ? npy::DType::Float32
                                               : npy::DType::Float64;
  const bool column_major = layout == "col";
  const std::size_t M     = x.values.size();
  job.x                   = &x.values;

  KokkosSession kokkos;
  // A row too long for memory fails here, before any file is made.
  const bool derivatives = derivative_path.has_value();
  const Kokkos::DefaultExecutionSpace space;
  const std::size_t rows = type == npy::DType::Float32
                               ? default_chunk_rows<float>(space, M, job.N, derivatives)
                               : default_chunk_rows<double>(space, M, job.N, derivatives);
  if (job.chunk_rows == 0) job.chunk_rows = rows;

  const std::vector<std::size_t> shape{M, std::size_t(job.N)};
  std::unique_ptr<npy::Writer> values, derivative;
  std::unique_ptr<TemporaryGuard> values_guard, derivative_guard;
  {
    const HeldSignals held;
    values       = std::make_unique<npy::Writer>(out_path, type, shape, column_major);
    values_guard = std::make_unique<TemporaryGuard>(0, values->temporary_path());
    if (derivatives) {
      derivative       = std::make_unique<npy::Writer>(*derivative_path, type, shape, column_major);
      derivative_guard = std::make_unique<TemporaryGuard>(1, derivative->temporary_path());
    }
  }
  job.values      = values.get();
  job.derivatives = derivative.get();
  Progress progress(M, std::size_t(job.N) * npy::size_of(type) * (derivatives ? 2 : 1));
  job.progress = &progress;
  writer_for(type, column_major)(job);
  progress.finish();
  if (derivative) derivative->commit();
  values->commit();
  return 0;
}

}  // namespace recur::cli
