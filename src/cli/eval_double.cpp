#include "eval_into_files.hpp"

namespace recur::cli {
template void evaluate_into_files<double, Kokkos::LayoutRight>(const EvalJob&);
template void evaluate_into_files<double, Kokkos::LayoutLeft>(const EvalJob&);
}  // namespace recur::cli
