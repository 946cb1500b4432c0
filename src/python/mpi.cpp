// recur.mpi: least squares over the rows of every MPI rank (MPI_COMM_WORLD),
// built where recur has MPI (RECUR_ENABLE_MPI).
#include "common.hpp"

#include <recur/mpi.hpp>

namespace recur::python {

namespace {
bool mpi_started_here = false;
}  // namespace

void mpi_initialize() {
  int started = 0;
  MPI_Initialized(&started);
  if (started) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  mpi_started_here = true;
}

void mpi_finalize() {
  int ended = 0;
  MPI_Finalized(&ended);
  if (mpi_started_here && !ended) MPI_Finalize();
}

std::tuple<int, int> mpi_rank_size() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return {rank, size};
}

// recur::mpi::fit over MPI_COMM_WORLD: this rank's x (M_r values), y (M_r x
// K, F order), coefficients N x K (F order, every rank's the same), all
// float64; weights M_r values or none. Collective.
void mpi_fit(const cli::FamilyChoice& choice, const Input& x, const Input& y, const Output& c,
             const std::optional<Input>& w, std::uintptr_t stream) {
  const std::string where = "recur.mpi.fit: ";
  nb::gil_scoped_release release;
  const Space space = space_on(stream);
  std::optional<Bound<const double*, Kokkos::LayoutRight>> xb, wb;
  std::optional<Bound<const double**, Kokkos::LayoutLeft>> yb;
  std::optional<Bound<double**, Kokkos::LayoutLeft>> cb;
  // This rank's arguments, checked collectively: an error here raises on
  // every rank (mpi_fail is the same step for errors found in Python).
  recur::mpi::impl::agree(MPI_COMM_WORLD, [&] {
    check_array<double, Kokkos::LayoutRight>(x, where, "x", 1);
    check_array<double, Kokkos::LayoutLeft>(y, where, "y", 2);
    check_array<double, Kokkos::LayoutLeft>(c, where, "the coefficients' out", 2);
    if (w) check_array<double, Kokkos::LayoutRight>(*w, where, "w", 1);
    cli::visit_family(choice, [](const auto&) {});
    xb.emplace(space, x, where, "x", true);
    yb.emplace(space, y, where, "y", true);
    cb.emplace(space, c, where, "the coefficients' out", false);
    if (w) wb.emplace(space, *w, where, "w", true);
  });
  const int N = int(c.shape(0));
  cli::visit_family(choice, [&](const auto& family) {
    if (wb)
      recur::mpi::fit(MPI_COMM_WORLD, space, family, xb->view(), yb->view(), N, cb->view(),
                      wb->view());
    else
      recur::mpi::fit(MPI_COMM_WORLD, space, family, xb->view(), yb->view(), N, cb->view());
  });
  cb->finish(space);
  space.fence();
}

// The collective step of mpi_fit's argument check, failing with `message`
// on this rank: every rank raises (the lowest failing rank's message).
void mpi_fail(const std::string& message) {
  recur::mpi::impl::agree(MPI_COMM_WORLD, [&] { throw std::invalid_argument(message); });
}

}  // namespace recur::python
