"""numpy.polynomial's functions under their names, computed by recur:

    from recur.polynomial import hermevander      # instead of numpy.polynomial.hermite_e's

*vander(x, deg), *val(x, c, tensor=True), *fit(x, y, deg, rcond=None,
full=False, w=None) and *gauss(deg) for the Hermite (herm), probabilists'
Hermite (herme), Legendre (leg), Chebyshev (cheb), Laguerre (lag) and power
(poly) series, with numpy's argument forms (scalars, lists, N-d x, deg an
int, 1-D and N-d coefficients), shapes and dtypes. What recur does not
compute is handed to numpy's own function, which gives numpy's result or
error: complex, object, float16 or long double data, deg that is no int,
*val with tensor=False, *fit with a list of degrees, rcond or full=True,
or with fewer points than terms. *vander and *val also take CuPy and
PyTorch arrays (results on their device).
"""

import operator

import numpy as np
import numpy.polynomial as _np_polynomial

from . import _arrays
from . import series as _series
from . import vander as _vander
from . import fit as _fit
from . import gauss as _gauss

# prefix: (recur family, numpy module)
_SERIES = {
    "herm": ("hermite", _np_polynomial.hermite),
    "herme": ("hermite_e", _np_polynomial.hermite_e),
    "leg": ("legendre", _np_polynomial.legendre),
    "cheb": ("chebyshev_t", _np_polynomial.chebyshev),
    "lag": ("laguerre", _np_polynomial.laguerre),
    "poly": ("monomials", _np_polynomial.polynomial),
}

_COMPUTED = ("float32", "float64")


def _numpy_float(a):
    """The dtype numpy's function gives for `a` (+ 0.0), when recur computes it."""
    if a.dtype.kind in "biu":
        return "float64"
    return a.dtype.name if a.dtype.name in _COMPUTED else None


def _make_vander(prefix, family, numpy_function):
    def vander(x, deg):
        try:
            ideg = operator.index(deg)
        except TypeError:
            return numpy_function(x, deg)
        if ideg < 0:
            return numpy_function(x, deg)
        if _arrays.library(x) in ("cupy", "torch"):
            flat = x.reshape(-1)
            V = _vander(family, flat, ideg + 1)
            return V.reshape(tuple(x.shape) + (ideg + 1,)) if x.ndim != 1 else V
        xa = np.atleast_1d(np.asarray(x))
        dtype = _numpy_float(xa)
        if dtype is None:
            return numpy_function(x, deg)
        V = _vander(family, xa.reshape(-1), ideg + 1, dtype=dtype)
        return V.reshape(xa.shape + (ideg + 1,)) if xa.ndim != 1 else V

    vander.__name__ = prefix + "vander"
    vander.__doc__ = ("numpy.polynomial's %svander(x, deg), computed by recur: the "
                      "pseudo-Vandermonde matrix, shape x.shape + (deg + 1,)." % prefix)
    return vander


def _make_val(prefix, family, numpy_function):
    def val(x, c, tensor=True):
        ca = np.atleast_1d(np.asarray(c))
        if ca.dtype.char in "?bBhHiIlLqQpP":
            ca = ca.astype(np.double)
        if isinstance(x, (tuple, list)):
            x = np.asarray(x)
        device = _arrays.library(x) in ("cupy", "torch")
        if not (isinstance(x, np.ndarray) or device) or ca.size == 0 or ca.dtype.name not in \
                _COMPUTED or (not tensor and ca.ndim > 1):
            return numpy_function(x, c, tensor)
        xdtype = _arrays.array_dtype(x) if device else _numpy_float(x)
        if xdtype is None:
            return numpy_function(x, c, tensor)
        dtype = "float32" if xdtype == "float32" and ca.dtype.name == "float32" else "float64"
        N, tail = ca.shape[0], ca.shape[1:]
        K = int(np.prod(tail)) if tail else 1
        xshape = tuple(int(n) for n in x.shape)
        Y = _series(family, ca.reshape(N, K), x.reshape(-1), dtype=dtype)
        return Y.T.reshape(tuple(tail) + xshape)

    val.__name__ = prefix + "val"
    val.__doc__ = ("numpy.polynomial's %sval(x, c, tensor=True), computed by recur "
                   "(Clenshaw's recurrence, without forming V)." % prefix)
    return val


def _make_fit(prefix, family, numpy_function):
    def fit(x, y, deg, rcond=None, full=False, w=None):
        def numpy_fit():
            return numpy_function(x, y, deg, rcond, full, w)

        if rcond is not None or full:
            return numpy_fit()
        try:
            ideg = operator.index(deg)
        except TypeError:
            return numpy_fit()
        xa, ya = np.asarray(x), np.asarray(y)
        if ideg < 0 or xa.ndim != 1 or ya.ndim not in (1, 2) or xa.size == 0 or \
                len(xa) != len(ya) or len(xa) < ideg + 1 or _numpy_float(xa) is None or \
                _numpy_float(ya) is None:
            return numpy_fit()
        wa = None
        if w is not None:
            wa = np.asarray(w)
            if wa.shape != xa.shape or _numpy_float(wa) is None:
                return numpy_fit()
        try:
            return _fit(family, xa, ya, ideg + 1, w=wa)
        except ValueError:
            # recur refuses bases linearly dependent at the points and
            # non-finite data; numpy's lstsq gives its answer (and warning).
            return numpy_fit()

    fit.__name__ = prefix + "fit"
    fit.__doc__ = ("numpy.polynomial's %sfit(x, y, deg, rcond=None, full=False, w=None), "
                   "computed by recur (Householder QR of [V | y])." % prefix)
    return fit


def _make_gauss(prefix, family, numpy_function):
    def gauss(deg):
        try:
            ideg = operator.index(deg)
        except TypeError:
            return numpy_function(deg)
        if ideg <= 0:
            return numpy_function(deg)
        nodes, weights = _gauss(family, ideg)
        if prefix == "cheb":  # numpy's chebgauss: nodes cos((2k - 1) pi / 2n), descending
            return nodes[::-1].copy(), weights[::-1].copy()
        return nodes, weights

    gauss.__name__ = prefix + "gauss"
    gauss.__doc__ = ("numpy.polynomial's %sgauss(deg), computed by recur (Golub-Welsch, "
                     "polished by Newton's method in double-double)." % prefix)
    return gauss


__all__ = []
for _prefix, (_family, _module) in _SERIES.items():
    for _kind, _make in (("vander", _make_vander), ("val", _make_val), ("fit", _make_fit),
                         ("gauss", _make_gauss)):
        _name = _prefix + _kind
        if hasattr(_module, _name):
            globals()[_name] = _make(_prefix, _family, getattr(_module, _name))
            __all__.append(_name)
del _prefix, _family, _module, _kind, _make, _name
