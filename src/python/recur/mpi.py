"""recur across MPI ranks (MPI_COMM_WORLD), where recur was built with MPI:
run the script under mpirun/srun, each rank with its own rows.

    import recur.mpi
    c = recur.mpi.fit(recur.Legendre(), x_mine, y_mine, 8)   # the fit of all ranks' points

Importing recur.mpi starts MPI unless it is already started (by mpi4py, say),
and ends it at exit if it started it. docs/python.md says more.
"""

import atexit

from . import _recur, _fit_with

if not hasattr(_recur, "mpi_fit"):
    raise ImportError("recur.mpi: this recur was built without MPI (RECUR_ENABLE_MPI=OFF); "
                      "build it where CMake finds MPI (docs/clusters.md)")

_recur.mpi_initialize()
atexit.register(_recur.mpi_finalize)


def rank():
    """This process' rank in MPI_COMM_WORLD."""
    return _recur.mpi_rank_size()[0]


def size():
    """The number of ranks in MPI_COMM_WORLD."""
    return _recur.mpi_rank_size()[1]


def fit(family, x, y, N, *, w=None):
    """recur.fit over the points of every rank together: each rank passes
    its own x, y (and w), any number of them (none included), and every rank
    gets the same N (or N x K) coefficients. Collective: every rank calls it
    with the same family and N. An error on any rank (bad data, fewer points
    than terms in all) raises ValueError on every rank, with the message of
    the lowest rank that failed."""
    return _fit_with(_recur.mpi_fit, "recur.mpi.fit", family, x, y, N, w, allow_empty=True,
                     fail=_recur.mpi_fail)
