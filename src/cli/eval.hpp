#ifndef RECUR_CLI_EVAL_HPP
#define RECUR_CLI_EVAL_HPP

#include "families.hpp"
#include "progress.hpp"
#include "ranks.hpp"

#include <recur/npy.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace recur::cli {

/// What `recur eval` computes once its arguments are checked and its
/// outputs are open.
struct EvalJob {
  FamilyChoice family;
  int N = 0;
  std::string policy;          ///< auto, thread, staged or scan
  bool fast = false;           ///< recur::Fast, else recur::Accurate
  std::size_t chunk_rows = 0;  ///< 0: recur::default_chunk_rows
  const std::vector<double>* x = nullptr;  ///< this rank's rows of x
  std::size_t total_rows = 0;  ///< M, all ranks' rows
  std::size_t first_row  = 0;  ///< where this rank's rows start
  npy::Writer* values      = nullptr;
  npy::Writer* derivatives = nullptr;  ///< null without --derivative
#ifdef RECUR_ENABLE_MPI
  /// Across ranks: the files all ranks write (instead of the Writers, which
  /// rank 0 holds to commit them).
  ranks::SharedFile* shared_values      = nullptr;
  ranks::SharedFile* shared_derivatives = nullptr;
#endif
  Progress* progress = nullptr;  ///< null: no progress drawn
};

/// Counts the NaN and infinite entries of x (all ranks' `rows` rows of
/// `columns` values; this rank's from `first_row`): a warning line, or with
/// `strict` an error.
void check_finite(const std::vector<double>& values, std::size_t columns, std::size_t first_row,
                  std::size_t rows, bool strict);

/// Streams V (and dV) of the job into its writers, with values of type T in
/// the file order of Layout (LayoutRight: C order; LayoutLeft: Fortran).
template <class T, class Layout>
void evaluate_into_files(const EvalJob& job);

extern template void evaluate_into_files<float, Kokkos::LayoutRight>(const EvalJob&);
extern template void evaluate_into_files<float, Kokkos::LayoutLeft>(const EvalJob&);
extern template void evaluate_into_files<double, Kokkos::LayoutRight>(const EvalJob&);
extern template void evaluate_into_files<double, Kokkos::LayoutLeft>(const EvalJob&);

}  // namespace recur::cli

#endif
