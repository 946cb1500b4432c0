"""recur from Python: batched recurrences (pseudo-Vandermonde matrices of
orthogonal polynomials, power sums) computed by recur's C++ library, on the
backend it was built for, into arrays of NumPy, CuPy, PyTorch or JAX
without copies (DLPack).

    import numpy as np, recur
    x = np.linspace(-1, 1, 1_000_000)
    V = recur.vander(recur.HermiteENormalized(), x, 32)   # V[i, n] = He_n(x_i) / sqrt(n!)

`recur.polynomial` has numpy.polynomial's *vander, *val, *fit and *gauss
functions under their names. docs/python.md says more.
"""

import atexit
import operator
import os

import numpy as np

# Threads unbound, as without OpenMP settings, and no Kokkos warning saying so.
os.environ.setdefault("OMP_PROC_BIND", "false")

from . import _arrays
from . import _recur

__all__ = [
    "Family", "vander", "series", "gauss", "fit", "project", "multi_indices",
    "ProductBasis", "product_vander", "info", "families",
]

_recur.initialize()
atexit.register(_recur.finalize)

_FAMILIES = {name: (parameters, description) for name, parameters, description in _recur.families()}


def _camel(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


class Family:
    """A family of recur's, with its parameters: made by the classes named as
    recur's C++ families (recur.HermiteENormalized(), recur.Jacobi(0.5, -0.5),
    recur.Laguerre(alpha=1.0), recur.Gegenbauer(lambda_=0.25)) or from the
    recur command's name (recur.Family("jacobi", alpha=0.5, beta=-0.5))."""

    def __init__(self, name, **parameters):
        if name not in _FAMILIES:
            raise ValueError(
                "unknown family '%s'; the families are %s" % (name, ", ".join(_FAMILIES)))
        takes = _FAMILIES[name][0]
        values = {}
        for key, value in parameters.items():
            p = "lambda" if key == "lambda_" else key
            if p not in takes:
                raise TypeError("%s takes %s" % (
                    name, "no parameters" if not takes else "only " + ", ".join(takes)))
            values[p] = float(value)
        self.name = name
        self.parameters = values
        self._choice = _recur.FamilyChoice(
            name, values.get("alpha"), values.get("beta"), values.get("lambda"))
        _recur.check_family(self._choice)

    def __repr__(self):
        arguments = ", ".join(
            "%s=%r" % ("lambda_" if k == "lambda" else k, v) for k, v in self.parameters.items())
        return "recur.%s(%s)" % (_camel(self.name), arguments)

    def __eq__(self, other):
        return isinstance(other, Family) and (self.name, self.parameters) == (
            other.name, other.parameters)

    def __hash__(self):
        return hash((self.name, tuple(sorted(self.parameters.items()))))


def _family_class(name, parameters, description):
    python_names = ["lambda_" if p == "lambda" else p for p in parameters]

    def __init__(self, *args, **kwargs):
        if len(args) > len(python_names):
            raise TypeError("%s takes at most %d parameters (%s)" % (
                _camel(name), len(python_names), ", ".join(python_names) or "none"))
        for key, value in zip(python_names, args):
            if key in kwargs:
                raise TypeError("%s got %s twice" % (_camel(name), key))
            kwargs[key] = value
        Family.__init__(self, name, **kwargs)

    doc = "%s (%s)%s" % (_camel(name), description,
                         "; parameters: " + ", ".join(python_names) if python_names else "")
    return type(_camel(name), (Family,), {"__init__": __init__, "__doc__": doc})


for _name, (_parameters, _description) in _FAMILIES.items():
    globals()[_camel(_name)] = _family_class(_name, _parameters, _description)
    __all__.append(_camel(_name))
del _name, _parameters, _description


def families():
    """Every family: {command name: (parameters, description)}."""
    return dict(_FAMILIES)


def _family(family):
    if isinstance(family, Family):
        return family
    if isinstance(family, type) and issubclass(family, Family):
        return family()
    if isinstance(family, str):
        return Family(family)
    raise TypeError("family must be a recur family (recur.Legendre(), ...) or a family's name, "
                    "not %r" % (family,))


def _fast(precision):
    if precision not in ("accurate", "fast"):
        raise ValueError("precision must be 'accurate' or 'fast', not %r" % (precision,))
    return precision == "fast"


def _float_dtype(dtype, where):
    name = _arrays.dtype_name(dtype)
    if name not in ("float32", "float64"):
        raise TypeError("%s: dtype must be float32 or float64, not %s" % (where, name))
    return name


def _default_dtype(*arrays):
    """float32 when every array is float32, float64 otherwise."""
    names = [_arrays.array_dtype(a) for a in arrays]
    return "float32" if all(n == "float32" for n in names) else "float64"


def _check_out(out, shape, where, what="out"):
    if _arrays.shape(out) != shape:
        raise ValueError("%s: %s has shape %s but the result has shape %s" % (
            where, what, _arrays.shape(out), shape))
    name = _arrays.array_dtype(out)
    if name not in ("float32", "float64"):
        raise TypeError("%s: %s must hold float32 or float64, not %s" % (where, what, name))
    return name


def _targets(outs, like, shape, dtype, order):
    """Arrays to compute into: each `out` itself where its memory is C or F
    ordered, else a new block (copied into it afterwards); new arrays where
    no out is given."""
    result = []
    for out in outs:
        if out is None:
            result.append(_arrays.empty(like, shape, dtype, order))
        elif _arrays.order(out) is None:
            result.append(_arrays.empty(out, shape, dtype, "C"))
        else:
            result.append(out)
    return result


def vander(family, x, N, *, order="C", dtype=None, precision="accurate", derivative=False,
           out=None):
    """V[i, n] = p_n(x[i]) for n < N: the M x N pseudo-Vandermonde matrix of
    `family` at the M values of x (a 1-D array of NumPy, CuPy, PyTorch or
    JAX, or a list), returned as an array of x's library on x's device.

    order: 'C' (rows contiguous) or 'F' (columns contiguous) for a new
    array; dtype: float32 or float64 (default: x's when x is float32 or
    float64, else float64); precision: 'accurate' (float computed in double,
    double in double-double) or 'fast' (in the result's own type);
    derivative: also dV[i, n] = p_n'(x[i]), returned as (V, dV); out: an
    M x N array to write (with derivative, a pair), any strides.
    """
    where = "recur.vander"
    fam = _family(family)
    fast = _fast(precision)
    N = operator.index(N)
    if N < 0:
        raise ValueError("%s: N = %d; the number of terms must be >= 0" % (where, N))
    if order not in ("C", "F"):
        raise ValueError("%s: order must be 'C' or 'F', not %r" % (where, order))
    xa = _arrays.asarray(x)
    if xa.ndim != 1:
        raise ValueError("%s: x has shape %s; it must be 1-D (M values)" % (
            where, _arrays.shape(xa)))
    shape = (int(xa.shape[0]), N)
    outs = [None, None] if derivative else [None]
    if out is not None:
        outs = list(out) if derivative else [out]
        if derivative and len(outs) != 2:
            raise ValueError("%s: with derivative=True, out must be a pair (V, dV)" % where)
        names = {_check_out(o, shape, where) for o in outs}
        if len(names) != 1:
            raise TypeError("%s: the values' and derivatives' out must have one dtype" % where)
        name = names.pop()
        if dtype is not None and _float_dtype(dtype, where) != name:
            raise TypeError("%s: dtype is %s but out holds %s" % (
                where, _arrays.dtype_name(dtype), name))
        dtype = name
    elif dtype is not None:
        dtype = _float_dtype(dtype, where)
    else:
        dtype = _arrays.array_dtype(xa)
        if dtype not in ("float32", "float64"):
            dtype = "float64"
    xc = _arrays.contiguous(xa, dtype)
    targets = _targets(outs, xa, shape, dtype, order)
    if derivative and _arrays.order(targets[0]) != _arrays.order(targets[1]):
        targets[1] = _arrays.empty(targets[0], shape, dtype, _arrays.order(targets[0]))
    h = _arrays.handle
    _recur.vander(fam._choice, h(xc), h(targets[0]), h(targets[1]) if derivative else None,
                  fast, _arrays.stream(xc))
    results = []
    for o, t in zip(outs, targets):
        if o is not None and o is not t:
            _arrays.assign(o, t)
            t = o
        results.append(_arrays.finish(xa, t))
    return tuple(results) if derivative else results[0]


def series(family, c, x, *, precision="accurate", dtype=None, out=None):
    """y[i] = sum_n c[n] p_n(x[i]) (c 1-D), or y[i, k] = sum_n c[n, k]
    p_n(x[i]) (c N x K: K expansions), by Clenshaw's recurrence without
    forming V; x 1-D (M values). Three-term families and power sums. The
    result is an array of x's library; dtype: float32 when x and c are
    float32, else float64 (or as given)."""
    where = "recur.series"
    fam = _family(family)
    fast = _fast(precision)
    xa = _arrays.asarray(x)
    ca = _arrays.asarray(c)
    if xa.ndim != 1:
        raise ValueError("%s: x has shape %s; it must be 1-D" % (where, _arrays.shape(xa)))
    if ca.ndim not in (1, 2) or ca.shape[0] == 0:
        raise ValueError("%s: c has shape %s; it must be N or N x K with N >= 1" % (
            where, _arrays.shape(ca)))
    M, K = int(xa.shape[0]), (int(ca.shape[1]) if ca.ndim == 2 else 1)
    shape = (M, K) if ca.ndim == 2 else (M,)
    if out is not None:
        dtype = _check_out(out, shape, where)
    elif dtype is not None:
        dtype = _float_dtype(dtype, where)
    else:
        dtype = _default_dtype(xa, ca)
    xc = _arrays.contiguous(xa, dtype)
    c2 = ca.reshape(int(ca.shape[0]), K) if ca.ndim == 1 else ca
    if _arrays.library(c2) != _arrays.library(xc):
        c2 = _arrays.asarray(np.asarray(c2))
        if _arrays.library(xc) != "numpy":
            c2 = _copy_like(xc, c2)
    cf = _contiguous_f(c2, dtype)
    target = out if out is not None and _arrays.order(out) == "C" else _arrays.empty(
        xa, shape, dtype, "C")
    h = _arrays.handle
    _recur.series(fam._choice, h(cf), h(xc),
                  h(target.reshape(M, K) if len(shape) == 1 else target), fast,
                  _arrays.stream(xc))
    if out is not None and target is not out:
        _arrays.assign(out, target)
        target = out
    return _arrays.finish(xa, target)


def _contiguous_f(a, dtype):
    """a (2-D) in F order and `dtype`: the transpose of a C-contiguous copy of a.T."""
    return _arrays.contiguous(a.T, dtype).T


def _copy_like(like, host):
    """A NumPy array copied to `like`'s library and device."""
    lib = _arrays.library(like)
    if lib == "cupy":
        import cupy

        return cupy.asarray(host)
    if lib == "torch":
        import torch

        return torch.as_tensor(host, device=like.device)
    import jax.numpy as jnp

    return jnp.asarray(host)


def gauss(family, n):
    """The n-point Gauss rule of a weighted family's weight: (nodes,
    weights), NumPy float64 arrays; weights sum to the weight's mass
    (numpy.polynomial's conventions)."""
    fam = _family(family)
    n = operator.index(n)
    if n < 1:
        raise ValueError("recur.gauss: n = %d; a Gauss rule has n >= 1 nodes" % n)
    nodes, weights = np.empty(n), np.empty(n)
    _recur.gauss(fam._choice, nodes, weights)
    return nodes, weights


def fit(family, x, y, N, *, w=None):
    """Least-squares coefficients of N terms of `family` through the points
    (x, y): y M values (coefficients: N) or M x K (K data sets; N x K);
    w multiplies the unsquared residuals, as in numpy's *fit. A
    Householder QR of [V | y] (tall-skinny, on recur's backend) in float64;
    raises ValueError for fewer points than terms, non-finite data, or a
    basis linearly dependent at the points."""
    return _fit_with(_recur.fit, "recur.fit", family, x, y, N, w, allow_empty=False)


def _fit_with(core, where, family, x, y, N, w, allow_empty, fail=None):
    """recur.fit and recur.mpi.fit: the arguments checked and converted, the
    coefficients made, `core` called. With `fail` (recur.mpi.fit), an error
    in the arguments goes to fail(message), which raises on every rank."""
    try:
        arguments = _fit_arguments(where, family, x, y, N, w, allow_empty)
    except (ValueError, TypeError) as error:
        if fail is None:
            raise
        fail(str(error))
        raise
    fam, xa, xc, yc, wc, coefficients, one = arguments
    h = _arrays.handle
    core(fam._choice, h(xc), h(yc), h(coefficients), None if wc is None else h(wc),
         _arrays.stream(xc))
    if one:
        coefficients = coefficients[:, 0]
    return _arrays.finish(xa, coefficients)


def _fit_arguments(where, family, x, y, N, w, allow_empty):
    fam = _family(family)
    N = operator.index(N)
    if N < 1:
        raise ValueError("%s: N = %d; fit needs N >= 1 terms" % (where, N))
    xa, ya = _arrays.asarray(x), _arrays.asarray(y)
    if xa.ndim != 1 or ya.ndim not in (1, 2) or ya.shape[0] != xa.shape[0]:
        raise ValueError("%s: x has shape %s and y %s; x must be M values, y M or M x K" % (
            where, _arrays.shape(xa), _arrays.shape(ya)))
    if not allow_empty and xa.shape[0] == 0:
        raise ValueError("%s: no points; a fit needs at least N = %d" % (where, N))
    K = int(ya.shape[1]) if ya.ndim == 2 else 1
    xc = _arrays.contiguous(xa, "float64")
    yc = _contiguous_f(ya.reshape(int(ya.shape[0]), K) if ya.ndim == 1 else ya, "float64")
    wc = None
    if w is not None:
        wa = _arrays.asarray(w)
        if _arrays.shape(wa) != (int(xa.shape[0]),):
            raise ValueError("%s: w has shape %s; it must hold M = %d weights" % (
                where, _arrays.shape(wa), int(xa.shape[0])))
        wc = _arrays.contiguous(wa, "float64")
    coefficients = _arrays.empty(xa, (N, K), "float64", "F")
    return fam, xa, xc, yc, wc, coefficients, ya.ndim == 1


def project(family, f, N, *, n=None):
    """The N coefficients of f in a weighted family, from f at the n-point
    Gauss nodes (n = N unless given): f a function (called once with the
    NumPy array of nodes; returning n values, or n x K for K functions) or
    the array of its values at recur.gauss(family, n)'s nodes. Polynomials
    of degree < n come back exactly (to rounding). NumPy float64 result,
    N or N x K."""
    where = "recur.project"
    fam = _family(family)
    N = operator.index(N)
    if callable(f):
        n = N if n is None else operator.index(n)
        if n < 1:
            raise ValueError("%s: n = %d; the rule needs n >= 1 nodes" % (where, n))
        nodes, weights = gauss(fam, n)
        values = np.asarray(f(nodes), dtype=np.float64)
    else:
        values = np.asarray(f, dtype=np.float64)
        if values.ndim not in (1, 2) or values.shape[0] < 1:
            raise ValueError("%s: f's values have shape %s; give n or n x K values" % (
                where, values.shape))
        if n is not None and operator.index(n) != values.shape[0]:
            raise ValueError("%s: n = %d but f has %d values" % (where, n, values.shape[0]))
        n = values.shape[0]
        nodes, weights = gauss(fam, n)
    if values.shape[:1] != (n,) or values.ndim > 2:
        raise ValueError("%s: f gave shape %s at the %d nodes; it must give %d or %d x K values" % (
            where, values.shape, n, n, n))
    if not 1 <= N <= n:
        raise ValueError("%s: N = %d; an n = %d point rule gives 1 <= N <= n coefficients" % (
            where, N, n))
    K = values.shape[1] if values.ndim == 2 else 1
    coefficients = np.empty((N, K), order="F")
    _recur.project(fam._choice, nodes, weights, np.asfortranarray(values.reshape(n, K)),
                   coefficients)
    return coefficients[:, 0] if values.ndim == 1 else coefficients


def multi_indices(d, degree, index_set="total"):
    """The multi-indices of a product basis, P x d (NumPy int64): index_set
    'total' (total degree <= degree, graded, OpenTURNS' order), 'tensor'
    (each entry <= degree, numpy's *vander2d/3d order) or 'hyperbolic:q'
    (q-norm <= degree, 0 < q <= 1)."""
    d, degree = operator.index(d), operator.index(degree)
    kind, q = index_set, 1.0
    if isinstance(index_set, str) and index_set.startswith("hyperbolic:"):
        kind = "hyperbolic"
        try:
            q = float(index_set.split(":", 1)[1])
        except ValueError:
            raise ValueError("index_set %r: write hyperbolic:Q with a number Q" % index_set)
    if kind not in ("total", "tensor", "hyperbolic"):
        raise ValueError("index_set must be 'total', 'tensor' or 'hyperbolic:Q', not %r" % (
            index_set,))
    rows = _recur.multi_indices(kind, d, degree, q)
    return np.array(rows, dtype=np.int64).reshape(len(rows), d)


class ProductBasis:
    """A multivariate (polynomial chaos) product basis Psi_j(xi) = prod_k
    p^(k)_{alpha_jk}(xi_k): one family for all d dimensions or a list of d,
    over the multi-indices multi_indices(d, degree, index_set), or the P x d
    table `indices`. docs/multivariate.md says more.

        basis = recur.ProductBasis(recur.HermiteENormalized(), d=5, degree=4)
        Psi = basis.vander(X)                 # M x P at the M x d samples X
        c = basis.fit(X, y)                   # regression PC
        stats = basis.sobol_indices(c)        # mean, variance, Sobol indices
    """

    def __init__(self, families, d=None, degree=None, *, index_set="total", indices=None):
        listed = list(families) if isinstance(families, (list, tuple)) else [families]
        self.families = [_family(f) for f in listed]
        if indices is None:
            if degree is None or (d is None and len(self.families) == 1):
                raise TypeError("recur.ProductBasis: give d and degree (with index_set), or "
                                "indices")
            d = len(self.families) if d is None else d
            self.indices = multi_indices(d, degree, index_set)
        else:
            self.indices = np.ascontiguousarray(indices, dtype=np.int64)
            if self.indices.ndim != 2 or (d is not None and self.indices.shape[1] != d):
                raise ValueError("recur.ProductBasis: indices has shape %s; it must be P x d" %
                                 (self.indices.shape,))
        self.d = int(self.indices.shape[1])
        if len(self.families) not in (1, self.d):
            raise ValueError("recur.ProductBasis: %d families for d = %d dimensions; give one, "
                             "or one per dimension" % (len(self.families), self.d))
        self._choices = [f._choice for f in self.families]

    @property
    def size(self):
        """P, the number of basis functions."""
        return int(self.indices.shape[0])

    def __repr__(self):
        return "recur.ProductBasis(%r, d=%d, P=%d)" % (self.families, self.d, self.size)

    def _samples(self, X, where):
        Xa = _arrays.asarray(X)
        if Xa.ndim != 2 or int(Xa.shape[1]) != self.d:
            raise ValueError("%s: X has shape %s; it must be M x d = M x %d" % (
                where, _arrays.shape(Xa), self.d))
        return Xa

    def vander(self, X, *, order="C", dtype=None, precision="accurate", derivative=False,
               out=None):
        """Psi[i, j] = Psi_j(X[i, :]), M x P, an array of X's library; with
        derivative, (Psi, dPsi), dPsi[i, j, k] = d Psi_j / d xi_k (M x P x d).
        order, dtype, precision and out as for recur.vander."""
        where = "recur.ProductBasis.vander"
        fast = _fast(precision)
        Xa = self._samples(X, where)
        shape = (int(Xa.shape[0]), self.size)
        if out is not None:
            dtype = _check_out(out, shape, where)
        elif dtype is not None:
            dtype = _float_dtype(dtype, where)
        else:
            dtype = _arrays.array_dtype(Xa)
            if dtype not in ("float32", "float64"):
                dtype = "float64"
        Xc = _arrays.contiguous(Xa, dtype)
        target = _targets([out], Xa, shape, dtype, order)[0]
        gradient = _arrays.empty(Xa, shape + (self.d,), dtype, "C") if derivative else None
        h = _arrays.handle
        _recur.product_vander(self._choices, self.indices, h(Xc), h(target),
                              None if gradient is None else h(gradient), fast,
                              _arrays.stream(Xc))
        if out is not None and target is not out:
            _arrays.assign(out, target)
            target = out
        target = _arrays.finish(Xa, target)
        return (target, _arrays.finish(Xa, gradient)) if derivative else target

    def series(self, c, X, *, precision="accurate", dtype=None):
        """y[i] = sum_j c[j] Psi_j(X[i, :]) (c P values), or M x K for c P x K,
        without forming Psi."""
        where = "recur.ProductBasis.series"
        fast = _fast(precision)
        Xa = self._samples(X, where)
        ca = np.asarray(c) if _arrays.library(c) == "numpy" else c
        if ca.ndim not in (1, 2) or int(ca.shape[0]) != self.size:
            raise ValueError("%s: c has shape %s; it must be P = %d or P x K" % (
                where, _arrays.shape(ca), self.size))
        M, K = int(Xa.shape[0]), (int(ca.shape[1]) if ca.ndim == 2 else 1)
        dtype = _float_dtype(dtype, where) if dtype is not None else _default_dtype(Xa, ca)
        Xc = _arrays.contiguous(Xa, dtype)
        c2 = ca.reshape(self.size, K)
        if _arrays.library(c2) != _arrays.library(Xc):
            c2 = np.asarray(c2)
            if _arrays.library(Xc) != "numpy":
                c2 = _copy_like(Xc, c2)
        target = _arrays.empty(Xa, (M, K), dtype, "C")
        h = _arrays.handle
        _recur.product_series(self._choices, self.indices, h(_contiguous_f(c2, dtype)), h(Xc),
                              h(target), fast, _arrays.stream(Xc))
        result = target if ca.ndim == 2 else target.reshape(M)
        return _arrays.finish(Xa, result)

    def fit(self, X, y, *, w=None):
        """The P (or P x K) least-squares coefficients of the data y (M, or
        M x K) at the samples X (regression polynomial chaos): a Householder
        QR in float64, as recur.fit."""
        where = "recur.ProductBasis.fit"
        Xa, ya = self._samples(X, where), _arrays.asarray(y)
        if ya.ndim not in (1, 2) or ya.shape[0] != Xa.shape[0]:
            raise ValueError("%s: y has shape %s; it must be M or M x K with M = %d" % (
                where, _arrays.shape(ya), int(Xa.shape[0])))
        K = int(ya.shape[1]) if ya.ndim == 2 else 1
        Xc = _arrays.contiguous(Xa, "float64")
        yc = _contiguous_f(ya.reshape(int(ya.shape[0]), K), "float64")
        wc = None
        if w is not None:
            wa = _arrays.asarray(w)
            if _arrays.shape(wa) != (int(Xa.shape[0]),):
                raise ValueError("%s: w has shape %s; it must hold M = %d weights" % (
                    where, _arrays.shape(wa), int(Xa.shape[0])))
            wc = _arrays.contiguous(wa, "float64")
        coefficients = _arrays.empty(Xa, (self.size, K), "float64", "F")
        h = _arrays.handle
        _recur.product_fit(self._choices, self.indices, h(Xc), h(yc), h(coefficients),
                           None if wc is None else h(wc), _arrays.stream(Xc))
        if ya.ndim == 1:
            coefficients = coefficients[:, 0]
        return _arrays.finish(Xa, coefficients)

    def sobol_indices(self, c):
        """Mean, variance, first-order and total Sobol indices (d each) of the
        model sum_j c[j] Psi_j, from the coefficients of an orthonormal basis:
        a dict."""
        values = np.asarray(c, dtype=np.float64)
        if values.shape != (self.size,):
            raise ValueError("recur.ProductBasis.sobol_indices: c has shape %s; it must hold "
                             "P = %d coefficients" % (values.shape, self.size))
        mean, variance, first, total = _recur.product_sobol(self._choices, self.indices,
                                                            values.tolist())
        return {"mean": mean, "variance": variance, "first_order": np.array(first),
                "total": np.array(total)}


def product_vander(families, X, degree=None, *, index_set="total", indices=None, order="C",
                   dtype=None, precision="accurate", derivative=False, out=None):
    """ProductBasis(families, d, degree, index_set=..., indices=...).vander(X, ...)
    with d = X.shape[1]: the M x P matrix of a product basis at the M x d samples X."""
    Xa = _arrays.asarray(X)
    if Xa.ndim != 2:
        raise ValueError("recur.product_vander: X has shape %s; it must be M x d" % (
            _arrays.shape(Xa),))
    basis = ProductBasis(families, int(Xa.shape[1]), degree, index_set=index_set,
                         indices=indices)
    return basis.vander(Xa, order=order, dtype=dtype, precision=precision,
                        derivative=derivative, out=out)


def info():
    """recur's version, backend and configuration: a dict."""
    return {
        "version": _recur.version(),
        "backend": _recur.backend(),
        "configuration": _recur.configuration(),
    }


from . import polynomial  # noqa: E402  (recur.polynomial, numpy.polynomial's names)
