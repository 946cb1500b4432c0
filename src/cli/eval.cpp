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
        {"degree", "P", "a multivariate basis instead of --n: x is an (M, d) array of\n"
                        "samples and V(i, j) = Psi_j(x_i) = prod_k p^(k)_{a_jk}(x_ik) over the\n"
                        "multi-indices a_j of --index-set (recur basis writes them);\n"
                        "for a tensor set one degree, or one per dimension (2,3,1)"},
        {"index-set", "SET", "with --degree: total (default), tensor or hyperbolic:Q\n"
                             "(recur basis --help)"},
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
    "With --degree, --family is one name for every dimension or a comma-separated list of\n"
    "d names, each with its parameters after colons: legendre_normalized,\n"
    "laguerre_normalized:alpha=1.5,jacobi_normalized:alpha=0.5:beta=-0.5 (power_sums and\n"
    "hermite_function are not polynomial families). --derivative then writes the gradient,\n"
    "M x P x d. It runs on one process (no mpirun), in chunks of about 64 MiB of output.\n"
    "\n"
    "Exit status: 0 done, 2 a mistake on the command line, 1 any other failure.\n"
    "\n"
    "example: recur eval --family hermite_e_normalized --n 32 --x x.npy --out V.npy\n"
    "         recur eval --family hermite_e_normalized --degree 4 --x xi.npy --out Psi.npy\n"};

namespace {

using WriteFunction = void (*)(const EvalJob&);

WriteFunction writer_for(npy::DType dtype, bool column_major) {
  if (dtype == npy::DType::Float32)
    return column_major ? &evaluate_into_files<float, Kokkos::LayoutLeft>
                        : &evaluate_into_files<float, Kokkos::LayoutRight>;
  return column_major ? &evaluate_into_files<double, Kokkos::LayoutLeft>
                      : &evaluate_into_files<double, Kokkos::LayoutRight>;
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

namespace {

// What the command line asks of eval, checked.
struct EvalOptions {
  std::string x_path, out_path;
  std::optional<std::string> derivative_path;
  std::string layout, dtype;
  bool strict = false;
};

EvalOptions parse_eval(const Arguments& arguments, EvalJob& job) {
  EvalOptions o;
  job.family = family_choice(arguments);
  job.N      = int(parse_integer("n", arguments.required("n"), 1, INT_MAX, "N"));
  o.x_path          = arguments.required("x");
  o.out_path        = arguments.required("out");
  o.derivative_path = arguments.value("derivative");
  job.policy = parse_choice(arguments, "policy", {"auto", "thread", "staged", "scan"}, "auto");
  job.fast   = parse_choice(arguments, "precision", {"accurate", "fast"}, "accurate") == "fast";
  o.layout   = parse_choice(arguments, "layout", {"row", "col"}, "row");
  o.dtype    = parse_choice(arguments, "dtype", {"float32", "float64"}, "");
  if (auto chunk = arguments.value("chunk"))
    job.chunk_rows = std::size_t(parse_integer("chunk", *chunk, 1, LLONG_MAX, "ROWS"));
  o.strict = arguments.has("strict");

  if (o.derivative_path && (job.policy == "staged" || job.policy == "scan"))
    throw UsageError("--derivative needs --policy auto or thread; " + job.policy +
                     " does not fill derivatives");
  if (same_file(o.out_path, o.x_path))
    throw UsageError("--out " + o.out_path + " is the input --x; write the output to another file");
  if (o.derivative_path && same_file(*o.derivative_path, o.x_path))
    throw UsageError("--derivative " + *o.derivative_path +
                     " is the input --x; write the output to another file");
  if (o.derivative_path && same_file(*o.derivative_path, o.out_path))
    throw UsageError("--derivative and --out are the same file " + o.out_path +
                     "; give them different paths");
  return o;
}

}  // namespace

// NaN and infinite x of all ranks: a warning from rank 0, or with --strict
// an error on every rank.
void check_finite(const std::vector<double>& values, std::size_t columns, std::size_t first_row,
                  std::size_t rows, bool strict) {
  std::size_t nans = 0, infinities = 0, first_bad = SIZE_MAX;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool nan = std::isnan(values[i]), infinite = std::isinf(values[i]);
    if ((nan || infinite) && first_bad == SIZE_MAX) first_bad = first_row + i / columns;
    nans += nan;
    infinities += infinite;
  }
  nans       = ranks::sum(nans);
  infinities = ranks::sum(infinities);
  first_bad  = ranks::min(first_bad);
  if (nans + infinities == 0) return;
  const std::string count = std::to_string(nans) + " NaN and " + std::to_string(infinities) +
                            " infinite values of " + std::to_string(rows * columns) +
                            " (the first at row " + std::to_string(first_bad) + ")";
  if (strict)
    throw std::runtime_error("x holds " + count +
                             "; --strict refuses them: remove those rows, or drop --strict to "
                             "compute them as data");
  if (ranks::rank() == 0) warn("x holds " + count + "; their rows are NaN");
}


// Across MPI ranks (mpirun/srun): every rank reads its even share of x's rows
// (only those), computes them on its device and writes them into one file
// through MPI-IO, byte for byte the file of one process. Every step that can
// fail on one rank is agreed on by all (ranks::step), so that all end with
// the same exit status, rank 0 prints the one message, and the output's
// temporary file (rank 0's npy::Writer) is committed only when every rank
// succeeded.
int run_eval(const Arguments& arguments) {
  if (arguments.has("degree")) return run_eval_basis(arguments);
  EvalJob job;
  EvalOptions o;
  ranks::step([&] { o = parse_eval(arguments, job); });
  npy::VectorPart x;
  ranks::step([&] {
    x = read_x_part(o.x_path, [](std::size_t M) { return ranks::share(M); });
  });
  check_finite(x.vector.values, 1, x.first, x.length, o.strict);

  const npy::DType type = o.dtype.empty()        ? x.vector.dtype
                          : o.dtype == "float32" ? npy::DType::Float32
                                                 : npy::DType::Float64;
  const bool column_major = o.layout == "col";
  const std::size_t M     = x.length;
  job.x                   = &x.vector.values;
  job.total_rows          = M;
  job.first_row           = x.first;

  KokkosSession kokkos;
  // A row too long for memory fails here, before any file is made.
  const bool derivatives = o.derivative_path.has_value();
  const Kokkos::DefaultExecutionSpace space;
  ranks::step([&] {
    const std::size_t m    = x.vector.values.size();
    const std::size_t rows = type == npy::DType::Float32
                                 ? default_chunk_rows<float>(space, m, job.N, derivatives)
                                 : default_chunk_rows<double>(space, m, job.N, derivatives);
    if (job.chunk_rows == 0) job.chunk_rows = rows;
  });

  // Rank 0 makes the outputs (temporary files, reserved, headers written),
  // and alone commits them.
  const std::vector<std::size_t> shape{M, std::size_t(job.N)};
  // A signal that ends any rank (mpirun ends the others with one) removes
  // the temporary files; on rank 0 no signal falls between their making and
  // their guards. The guards are declared first so that they outlive the
  // writers, which remove their files when the run fails.
  std::unique_ptr<TemporaryGuard> guards[2];
  std::unique_ptr<npy::Writer> values, derivative;
  std::string paths[2];
  ranks::step([&] {
    if (ranks::rank() != 0) return;
    const HeldSignals held;
    values    = std::make_unique<npy::Writer>(o.out_path, type, shape, column_major);
    paths[0]  = values->temporary_path();
    guards[0] = std::make_unique<TemporaryGuard>(0, paths[0]);
    if (derivatives) {
      derivative = std::make_unique<npy::Writer>(*o.derivative_path, type, shape, column_major);
      paths[1]   = derivative->temporary_path();
      guards[1]  = std::make_unique<TemporaryGuard>(1, paths[1]);
    }
  });
  ranks::broadcast(paths[0]);
  ranks::broadcast(paths[1]);
  if (ranks::rank() != 0)
    for (int f = 0; f < 2; ++f) guards[f] = std::make_unique<TemporaryGuard>(f, paths[f]);
  job.values      = values.get();
  job.derivatives = derivative.get();
#ifdef RECUR_ENABLE_MPI
  std::unique_ptr<ranks::SharedFile> shared[2];
  if (ranks::many()) {
    const std::string header = npy::make_header(type, shape, column_major);
    ranks::step([&] {
      for (int f = 0; f < (derivatives ? 2 : 1); ++f)
        shared[f] = std::make_unique<ranks::SharedFile>(paths[f], type, M, std::size_t(job.N),
                                                        column_major, header.size());
    });
    job.shared_values      = shared[0].get();
    job.shared_derivatives = shared[1].get();
  }
#endif
  std::unique_ptr<Progress> progress;
  if (ranks::rank() == 0) {
    progress = std::make_unique<Progress>(x.vector.values.size(),
                                          std::size_t(job.N) * npy::size_of(type) *
                                              (derivatives ? 2 : 1));
    job.progress = progress.get();
  }
  writer_for(type, column_major)(job);
  if (progress) progress->finish();
#ifdef RECUR_ENABLE_MPI
  ranks::step([&] {
    for (auto& file : shared)
      if (file) file->close();
  });
#endif
  ranks::step([&] {
    if (derivative) derivative->commit();
    if (values) values->commit();
  });
  return 0;
}

}  // namespace recur::cli
