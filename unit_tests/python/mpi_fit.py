"""recur.mpi.fit under mpirun (ctest python_mpi_2, python_mpi_3): each rank
holds its share of the points (one rank none, with 3 ranks); every rank's
coefficients must equal recur.fit of all the points in one process, and an
error on one rank must raise on every rank. Any failure exits non-zero, and
mpirun with it."""

import numpy as np

import recur
import recur.mpi

rank, size = recur.mpi.rank(), recur.mpi.size()
rng = np.random.default_rng(11)
x = rng.uniform(-1, 1, 300)
y = np.column_stack([np.exp(x), np.cos(4 * x)])
w = rng.uniform(0.5, 2, 300)
# rank r holds rows [bounds[r], bounds[r + 1]); the last rank none when size >= 3
cuts = np.linspace(0, 300, size if size >= 3 else size + 1).astype(int)
bounds = list(cuts) + [300] * (size + 1 - len(cuts))
mine = slice(bounds[rank], bounds[rank + 1])

want = recur.fit(recur.LegendreNormalized(), x, y, 10, w=w)
got = recur.mpi.fit(recur.LegendreNormalized(), x[mine], y[mine], 10, w=w[mine])
assert got.shape == (10, 2)
np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
got1 = recur.mpi.fit("hermite_e", x[mine], y[mine, 0], 6)
np.testing.assert_allclose(got1, recur.fit("hermite_e", x, y[:, 0], 6), rtol=1e-11, atol=1e-13)

bad = y[mine].copy()
if rank == 0:  # one rank's data is bad: every rank raises
    bad[0, 0] = np.nan
try:
    recur.mpi.fit("legendre", x[mine], bad, 4)
    raise AssertionError("no error on rank %d" % rank)
except ValueError as error:
    assert str(error) == ("recur::mpi::fit: 1 of the 300 points have a non-finite x or y; "
                          "drop those points (or give them weight 0) before fitting"), error
# an argument error on one rank only (a y of the wrong length): every rank
# raises with that rank's message, none waits for the others
try:
    recur.mpi.fit("legendre", x[mine], y[mine][: 1 if rank == 1 else None], 4)
    raise AssertionError("no error on rank %d" % rank)
except ValueError as error:
    assert str(error).startswith("rank 1: recur.mpi.fit: x has shape"), error
if rank == 0:
    print("recur.mpi: OK on %d ranks" % size)
