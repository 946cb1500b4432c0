"""The Python package against numpy.polynomial and the mpmath references
(unit_tests/reference), on the backend the package was built for with NumPy
arrays: values, layouts, out= (slices included), dtypes, errors, no copies.
Run by ctest (test `python`) with PYTHONPATH=<build>/python."""

import glob
import math
import os
import sys
import threading
import time
import warnings

import numpy as np
import numpy.polynomial as npp
import pytest

import recur
from recur import _recur
from recur import polynomial as P

REFERENCE = os.path.join(os.path.dirname(__file__), "..", "reference")

# recur.polynomial prefix -> numpy.polynomial module
NUMPY = {"herm": npp.hermite, "herme": npp.hermite_e, "leg": npp.legendre,
         "cheb": npp.chebyshev, "lag": npp.laguerre, "poly": npp.polynomial}
FAMILY = {"herm": "hermite", "herme": "hermite_e", "leg": "legendre", "cheb": "chebyshev_t",
          "lag": "laguerre", "poly": "monomials"}


def read_reference(path):
    """(family, points [(x, rowmax64)], {(point, n): (value, local)})."""
    family, points, data = None, [], {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if line.startswith("# family"):
                words = fields[2:]
                params = {words[i]: float(words[i + 1]) for i in range(1, len(words), 2)}
                family = recur.Family(words[0], **params)
            elif line.startswith("# point"):
                points.append((float(fields[3]), float(fields[5])))
            elif not line.startswith("#") and fields:
                data[(int(fields[0]), int(fields[1]))] = (float(fields[2]), float(fields[3]))
    return family, points, data


REFERENCE_FILES = sorted(glob.glob(os.path.join(REFERENCE, "*.tsv")))


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=os.path.basename)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_vander_against_mpmath(path, dtype):
    # The C++ tests' metric: |got - ref| / max(local, 1e-3 rowmax_64) <=
    # 1e-13 sqrt(N) in double, 2e-6 sqrt(N) in float, N = 64; values below
    # the dtype's smallest normal number may flush to zero.
    family, points, data = read_reference(path)
    N = 64
    x = np.array([p[0] for p in points], dtype=dtype)
    V = recur.vander(family, x, N)
    assert V.dtype == np.dtype(dtype) and V.shape == (len(points), N)
    bound = (1e-13 if dtype == "float64" else 2e-6) * math.sqrt(N)
    big, tiny = float(np.finfo(dtype).max) / 1e3, float(np.finfo(dtype).tiny)
    checked = 0
    for (i, n), (value, local) in data.items():
        if n >= N or abs(value) > big or local > big:
            continue
        scale = max(local, 1e-3 * points[i][1])
        assert abs(float(V[i, n]) - value) <= bound * scale + tiny, (family, x[i], n, V[i, n],
                                                                     value)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("prefix", sorted(NUMPY))
def test_vander_against_numpy_argument_forms(prefix):
    ours, theirs = getattr(P, prefix + "vander"), getattr(NUMPY[prefix], prefix + "vander")
    rng = np.random.default_rng(1)
    forms = [0.25, [0.1, -0.7, 0.3], rng.uniform(-1, 1, 11), rng.uniform(-1, 1, (3, 4)),
             rng.uniform(-1, 1, (2, 3, 2)), np.arange(5), rng.uniform(-1, 1, 9).astype(np.float32),
             np.array(0.5)]
    for x in forms:
        for deg in (0, 1, 7, np.int64(5)):
            got, want = ours(x, deg), theirs(x, deg)
            assert got.shape == want.shape and got.dtype == want.dtype, (x, deg)
            tol = 1e-5 if want.dtype == np.float32 else 1e-12
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("prefix", sorted(NUMPY))
def test_val_against_numpy(prefix):
    ours, theirs = getattr(P, prefix + "val"), getattr(NUMPY[prefix], prefix + "val")
    rng = np.random.default_rng(2)
    for x in ([0.2, -0.4], rng.uniform(-1, 1, 13), rng.uniform(-1, 1, (2, 5))):
        for c in ([1.0], [0.5, -1, 2], rng.normal(size=(6, 3)), rng.normal(size=(4, 2, 2)), [1, 2, 3]):
            got, want = ours(x, c), theirs(x, c)
            assert np.shape(got) == np.shape(want), (x, c)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    x32, c32 = rng.uniform(-1, 1, 7).astype(np.float32), rng.normal(size=4).astype(np.float32)
    assert ours(x32, c32).dtype == theirs(x32, c32).dtype == np.float32
    assert ours(x32, c32.astype(np.float64)).dtype == np.float64


def test_val_hands_over_to_numpy():
    # scalar x, complex data and tensor=False: numpy's own results
    c = np.array([1.0, 2.0, 3.0])
    assert P.hermeval(0.5, c) == npp.hermite_e.hermeval(0.5, c)
    z = np.array([0.5 + 1j, -0.2j])
    np.testing.assert_array_equal(P.legval(z, c), npp.legendre.legval(z, c))
    c2 = np.arange(6.0).reshape(3, 2)
    x2 = np.array([0.1, 0.2])
    np.testing.assert_array_equal(P.chebval(x2, c2, tensor=False),
                                  npp.chebyshev.chebval(x2, c2, tensor=False))


def test_vander_hands_over_to_numpy():
    z = np.array([0.5 + 1j, -0.2j])
    np.testing.assert_array_equal(P.hermvander(z, 3), npp.hermite.hermvander(z, 3))
    h = np.array([0.5, 0.25], dtype=np.float16)
    got = P.legvander(h, 2)
    assert got.dtype == np.float16
    with pytest.raises(ValueError, match="deg must be non-negative"):
        P.hermevander([0.5], -1)
    with pytest.raises(TypeError):
        P.hermevander([0.5], 2.5)


@pytest.mark.parametrize("prefix", sorted(NUMPY))
def test_fit_against_numpy(prefix):
    ours, theirs = getattr(P, prefix + "fit"), getattr(NUMPY[prefix], prefix + "fit")
    rng = np.random.default_rng(3)
    x = np.sort(rng.uniform(0.05, 0.95, 40))
    y = np.exp(x) + 0.01 * rng.normal(size=40)
    Y = np.stack([y, np.sin(3 * x)], axis=1)
    w = rng.uniform(0.5, 2, 40)
    for args, kwargs in (((x, y, 4), {}), ((x, Y, 5), {}), ((list(x), list(y), 3), {"w": w})):
        got, want = ours(*args, **kwargs), theirs(*args, **kwargs)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)
    # numpy's own answers where recur does not compute: full, a list of degrees
    full_got, full_want = ours(x, y, 3, full=True), theirs(x, y, 3, full=True)
    np.testing.assert_array_equal(full_got[0], full_want[0])
    np.testing.assert_array_equal(ours(x, y, [0, 2]), theirs(x, y, [0, 2]))
    with warnings.catch_warnings():  # fewer points than terms: numpy's warning and answer
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(ours(x[:3], y[:3], 5), theirs(x[:3], y[:3], 5))


@pytest.mark.parametrize("prefix", ["herm", "herme", "leg", "cheb", "lag"])
def test_gauss_against_numpy(prefix):
    ours, theirs = getattr(P, prefix + "gauss"), getattr(NUMPY[prefix], prefix + "gauss")
    for deg in (1, 2, 9, 40):
        (x, w), (xn, wn) = ours(deg), theirs(deg)
        np.testing.assert_allclose(x, xn, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(w, wn, rtol=1e-10, atol=1e-300)
    with pytest.raises(ValueError, match="deg must be a positive integer"):
        ours(0)


def test_layouts_out_and_no_copies():
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, 33)
    want = npp.legendre.legvander(x, 9)
    C = recur.vander("legendre", x, 10)
    F = recur.vander("legendre", x, 10, order="F")
    assert C.flags.c_contiguous and F.flags.f_contiguous
    np.testing.assert_allclose(C, want, rtol=1e-14, atol=1e-14)
    np.testing.assert_array_equal(C, F)
    # out= a C block, an F block, and slices of bigger arrays (strided)
    for big, view in ((np.zeros((33, 10)), lambda b: b),
                      (np.zeros((33, 10), order="F"), lambda b: b),
                      (np.zeros((33, 25)), lambda b: b[:, 5:15]),
                      (np.zeros((33, 25), order="F"), lambda b: b[:, 3:13]),
                      (np.zeros((66, 20)), lambda b: b[::2, ::2])):
        out = view(big)
        address = out.__array_interface__["data"][0]
        result = recur.vander("legendre", x, 10, out=out)
        assert result is out and out.__array_interface__["data"][0] == address
        np.testing.assert_array_equal(out, C)
    assert big[1::2].sum() == 0 and big[::2, 1::2].sum() == 0  # nothing outside the slice
    # x read in place: the address the library read from
    recur.vander("legendre", x, 10)
    assert _recur.last_input_address() == x.__array_interface__["data"][0]
    x32 = x.astype(np.float32)
    recur.vander("legendre", x32, 10)
    assert _recur.last_input_address() == x32.__array_interface__["data"][0]


def test_derivatives_and_precision():
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, 20)
    V, dV = recur.vander(recur.HermiteE(), x, 8, derivative=True)
    np.testing.assert_allclose(V, npp.hermite_e.hermevander(x, 7), rtol=1e-13, atol=1e-13)
    # d/dx He_n = n He_{n-1}
    np.testing.assert_allclose(dV[:, 1:], V[:, :-1] * np.arange(1, 8), rtol=1e-13, atol=1e-13)
    outs = (np.empty((20, 8), order="F"), np.empty((20, 8), order="F"))
    got = recur.vander(recur.HermiteE(), x, 8, derivative=True, out=outs)
    assert got[0] is outs[0] and got[1] is outs[1]
    np.testing.assert_array_equal(got[1], dV)
    fast = recur.vander("legendre", x.astype(np.float32), 16, precision="fast")
    accurate = recur.vander("legendre", x.astype(np.float32), 16)
    assert fast.dtype == np.float32
    np.testing.assert_allclose(fast, accurate, rtol=0, atol=1e-5)


def test_series_fit_project_gauss():
    rng = np.random.default_rng(6)
    x = rng.uniform(-1, 1, 50)
    c = rng.normal(size=(12, 3))
    f = recur.LegendreNormalized()
    V = recur.vander(f, x, 12)
    np.testing.assert_allclose(recur.series(f, c, x), V @ c, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(recur.series(f, c[:, 0], x), V @ c[:, 0], rtol=1e-12, atol=1e-12)
    out = np.empty((50, 3))
    assert recur.series(f, c, x, out=out) is out
    y = V @ c
    np.testing.assert_allclose(recur.fit(f, x, y, 12), c, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(recur.fit(f, x, y[:, 1], 12, w=np.full(50, 2.0)), c[:, 1],
                               rtol=1e-9, atol=1e-9)
    # project: a polynomial of degree < n comes back exactly
    coefficients = rng.normal(size=6)
    got = recur.project(f, lambda t: recur.series(f, coefficients, t), 6)
    np.testing.assert_allclose(got, coefficients, rtol=1e-13, atol=1e-13)
    nodes, weights = recur.gauss(recur.Legendre(), 5)
    np.testing.assert_allclose(weights.sum(), 2.0, rtol=1e-15)
    np.testing.assert_allclose((weights * nodes ** 8).sum(), 2 / 9, rtol=1e-14)


def test_product_vander():
    rng = np.random.default_rng(7)
    X = rng.uniform(-1, 1, (30, 3))
    # tensor sets equal numpy's legvander3d column for column
    Psi = recur.product_vander(recur.Legendre(), X, 2, index_set="tensor")
    want = npp.legendre.legvander3d(X[:, 0], X[:, 1], X[:, 2], [2, 2, 2])
    np.testing.assert_allclose(Psi, want, rtol=1e-13, atol=1e-13)
    # total degree, mixed families, as products of univariate columns
    families = [recur.HermiteENormalized(), recur.LegendreNormalized(), recur.Laguerre(0.5)]
    Psi, dPsi = recur.product_vander(families, X, 3, derivative=True, order="F")
    alpha = recur.multi_indices(3, 3)
    assert Psi.shape == (30, len(alpha)) == (30, 20) and dPsi.shape == (30, 20, 3)
    columns = [recur.vander(f, X[:, k], 4) for k, f in enumerate(families)]
    derivatives = [recur.vander(f, X[:, k], 4, derivative=True)[1] for k, f in enumerate(families)]
    for j, a in enumerate(alpha):
        prod = columns[0][:, a[0]] * columns[1][:, a[1]] * columns[2][:, a[2]]
        np.testing.assert_allclose(Psi[:, j], prod, rtol=1e-13, atol=1e-13)
        d1 = columns[0][:, a[0]] * derivatives[1][:, a[1]] * columns[2][:, a[2]]
        np.testing.assert_allclose(dPsi[:, j, 1], d1, rtol=1e-12, atol=1e-12)
    assert recur.multi_indices(3, 2).tolist()[:6] == [[0, 0, 0], [1, 0, 0], [0, 1, 0],
                                                     [0, 0, 1], [2, 0, 0], [1, 1, 0]]


def test_product_basis_series_fit_sobol():
    rng = np.random.default_rng(8)
    basis = recur.ProductBasis([recur.HermiteENormalized(), recur.LegendreNormalized(),
                                recur.HermiteENormalized()], degree=3)
    assert basis.d == 3 and basis.size == 20
    X = np.column_stack([rng.normal(size=400), rng.uniform(-1, 1, 400), rng.normal(size=400)])
    Psi = basis.vander(X)
    c = rng.normal(size=(20, 2))
    np.testing.assert_allclose(basis.series(c, X), Psi @ c, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(basis.series(c[:, 0], X.astype(np.float32)),
                               (Psi @ c[:, 0]).astype(np.float32), rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(basis.fit(X, Psi @ c), c, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(basis.fit(X, Psi @ c[:, 1], w=rng.uniform(1, 2, 400)), c[:, 1],
                               rtol=1e-9, atol=1e-9)
    # y = 1 + 2 Psi_(1,0,0) + Psi_(0,1,0) + Psi_(1,1,0): variance 4 + 1 + 1 = 6
    alpha = [tuple(a) for a in basis.indices]
    model = np.zeros(20)
    for a, v in (((0, 0, 0), 1.0), ((1, 0, 0), 2.0), ((0, 1, 0), 1.0), ((1, 1, 0), 1.0)):
        model[alpha.index(a)] = v
    stats = basis.sobol_indices(model)
    assert stats["mean"] == 1.0 and stats["variance"] == 6.0
    np.testing.assert_allclose(stats["first_order"], [4 / 6, 1 / 6, 0.0], rtol=1e-15)
    np.testing.assert_allclose(stats["total"], [5 / 6, 2 / 6, 0.0], rtol=1e-15)
    with pytest.raises(ValueError, match="not orthonormal"):
        recur.ProductBasis(recur.Legendre(), 2, 2).sobol_indices(np.ones(6))


def test_errors():
    x = np.linspace(-1, 1, 5)
    with pytest.raises(ValueError, match="unknown family 'legendary'"):
        recur.vander("legendary", x, 4)
    with pytest.raises(ValueError, match="alpha = -2 is invalid; alpha must be > -1"):
        recur.Jacobi(-2.0, 0.0)
    with pytest.raises(TypeError, match="legendre takes no parameters"):
        recur.Family("legendre", alpha=1.0)
    with pytest.raises(ValueError, match="out has shape \\(5, 3\\) but the result has shape \\(5, 4\\)"):
        recur.vander("legendre", x, 4, out=np.empty((5, 3)))
    with pytest.raises(TypeError, match="out must hold float32 or float64, not int64"):
        recur.vander("legendre", x, 4, out=np.empty((5, 4), dtype=np.int64))
    with pytest.raises(TypeError, match="dtype must be float32 or float64, not float16"):
        recur.vander("legendre", x, 4, dtype=np.float16)
    with pytest.raises(ValueError, match="precision must be 'accurate' or 'fast'"):
        recur.vander("legendre", x, 4, precision="exact")
    with pytest.raises(ValueError, match="x has shape \\(5, 1\\); it must be 1-D"):
        recur.vander("legendre", x[:, None], 4)
    with pytest.raises(ValueError, match="hermite_function has no weight|power_sums has no weight"):
        recur.gauss("power_sums", 4)
    with pytest.raises(ValueError, match="fit needs N >= 1 terms"):
        recur.fit("legendre", x, x, 0)
    with pytest.raises(ValueError, match="fewer|points"):
        recur.fit("legendre", x, x, 8)
    with pytest.raises(ValueError, match="2 families for d = 3 dimensions"):
        recur.product_vander(["legendre", "hermite_e"], np.zeros((4, 3)), 2)
    with pytest.raises(ValueError, match="power_sums is no polynomial family"):
        recur.product_vander("power_sums", np.zeros((4, 3)), 2)
    # the compiled core checks what it is given, too
    with pytest.raises(TypeError, match="x must hold float64"):
        _recur.vander(recur.Legendre()._choice, x.astype(np.float32), np.empty((5, 4)), None,
                      False, 0)
    with pytest.raises(ValueError, match="x must be contiguous"):
        _recur.vander(recur.Legendre()._choice, np.linspace(0, 1, 10)[::2], np.empty((5, 4)),
                      None, False, 0)


def test_gil_released_while_computing():
    # The main thread runs Python while another thread is inside recur.vander:
    # with the GIL held there, no main-thread step could fall inside the call.
    x = np.linspace(-1, 1, 1 << 20)
    out = np.empty((1 << 20, 32))
    window = {}

    def work():
        window["start"] = time.perf_counter()
        recur.vander("hermite_e_normalized", x, 32, out=out)
        window["end"] = time.perf_counter()

    # Threads hand the GIL over every 0.2 ms; the middle half of the call is
    # well inside the compiled part (the Python around it takes milliseconds at
    # most, while the call takes tens).
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)
    try:
        worker = threading.Thread(target=work)
        steps = []
        worker.start()
        while worker.is_alive():
            steps.append(time.perf_counter())
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    start, end = window["start"], window["end"]
    assert end - start > 0.02
    quarter = (end - start) / 4
    inside = [t for t in steps if start + quarter < t < end - quarter]
    assert len(inside) > 10, (end - start, len(steps))


def test_info():
    info = recur.info()
    assert info["version"] == _recur.version() and info["backend"] in info["configuration"]
    assert set(recur.families()) >= {"legendre", "jacobi", "hermite_e_normalized"}
