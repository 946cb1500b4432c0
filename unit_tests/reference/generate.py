#!/usr/bin/python3
"""Reference values of recur's families, computed with mpmath at 60 digits.

Writes one file <family>[_<params>].tsv per family and parameter set next to
this script (or into --out). See README.md in this folder for the format and
the conventions. Deterministic: the random points come from a fixed seed and
everything else is exact or mpmath arithmetic.

How the numbers are made, per family, parameter set and point x:
  * every stored value p_n(x) comes from mpmath's own special function
    (mpmath.hermite, legendre, chebyt, chebyu, laguerre, jacobi, gegenbauer)
    at 60 digits, or from a closed form (monomials, power sums), times a
    normalizing constant made of mpmath factorial/gamma/sqrt/exp;
  * the whole row p_0(x) .. p_1999(x) is also computed by the family's
    three-term recurrence at 150 digits; it gives the row maxima and the
    local scale max(|p_{n-1}|, |p_n|, |p_{n+1}|), and every stored value is
    asserted to agree with it to 40 significant digits;
  * for n, m <= 5 each normalized family is checked to be orthonormal by
    mpmath.quad (sum of p_m p_n w / mass = delta_mn), and each unnormalized
    family is checked against scipy.special in float64 for n <= 12.

Usage: unit_tests/reference/generate.py [--out DIR] [--jobs J] [--only NAME...]
       unit_tests/reference/generate.py --edges [--out DIR]   (edges.txt alone)
"""

import argparse
import math
import multiprocessing
import os
import random
import sys
import time

import mpmath
import numpy as np
from mpmath import mp, mpf

DPS = 60            # digits of the stored values
RECUR_DPS = 150     # digits of the cross-checking recurrence
AGREE = mpf(10) ** -40  # required agreement of the two methods, relative to
AGREE_FLOOR = mpf(10) ** -10  # max(|p_n|, AGREE_FLOOR * local)
ZERO = mpf(10) ** -45   # |p_n| below ZERO * local: at the noise level of DPS
N_MAX = 2000
ROWMAX_N = (16, 64, 256, 2000)
STORED = sorted(set(list(range(64)) + list(range(64, N_MAX, 32)) + [N_MAX - 1]))
SEED = 20261201
NORM_CHECK_N = 6    # orthonormality checked for n, m < NORM_CHECK_N


# ----------------------------------------------------------------------------
# Points: every x is a float32 number, used exactly.

def f32(x):
    return float(np.float32(x))


def _random_points(tag, count, lo, hi):
    """count float32 values uniform in (lo, hi), from a seed fixed per tag."""
    rng = random.Random("%d-%s" % (SEED, tag))
    out = []
    while len(out) < count:
        x = f32(rng.uniform(lo, hi))
        if lo < x < hi and x not in out:
            out.append(x)
    return out


def _pm(*values):
    out = []
    for v in values:
        out += [v, -v]
    return out


def points_interval():
    fixed = [0.0] + _pm(1.0, 0.5, 1 - 1e-6)
    return [f32(x) for x in fixed] + _random_points("interval", 6, -1.0, 1.0) \
        + [f32(x) for x in _pm(1.5)]


def points_hermite():
    fixed = [0.0] + _pm(1.0, 5.5, 20.0, 40.0)
    return [f32(x) for x in fixed] + _random_points("hermite", 6, -10.0, 10.0)


def points_hermite_function():
    return points_hermite() + [f32(x) for x in _pm(30.0)]


def points_laguerre():
    fixed = [0.0, 1e-3, 0.5, 5.0, 50.0, 200.0, 1000.0]
    return [f32(x) for x in fixed] + _random_points("laguerre", 5, 0.0, 100.0) \
        + [f32(-1.0)]


def points_powers():
    fixed = [0.0] + _pm(1.0, 0.5, 0.999, 1.001) + [1.3, -1.3]
    return [f32(x) for x in fixed] + _random_points("powers", 4, -1.4, 1.4)


# ----------------------------------------------------------------------------
# Families. Each base family gives
#   special(n, x)  -> p_n(x) from mpmath's special function (60 digits)
#   row(x)         -> [p_0(x) .. p_{N_MAX-1}(x)] by the three-term recurrence
#   weight(x), support, for the orthonormality check
# and a list of output variants (file name, points, scale(n, x)).

def real_part(v):
    """mpmath returns complex values for some real arguments; the imaginary
    part must then be negligible."""
    if isinstance(v, mpmath.mpc):
        if abs(v.imag) > mpf(10) ** -50 * abs(v.real):
            raise ArithmeticError("complex value %s" % v)
        return v.real
    return v


def three_term(x, p1, step):
    """Rows of p_{n+1} = step(n, x, p_n, p_{n-1}) at RECUR_DPS digits."""
    with mp.workdps(RECUR_DPS):
        x = mpf(x)
        row = [mpf(1), p1(x)]
        for n in range(1, N_MAX - 1):
            row.append(step(n, x, row[n], row[n - 1]))
        return row[:N_MAX]


class Base:
    support = (-1, 1)
    params = ()          # ((name, decimal string), ...)
    reflect = False      # use p_n(-x) = (-1)^n q_n(x) for x < 0 (see special)

    def param(self, name):
        return mpf(float(dict(self.params)[name]))  # the binary64 value

    def label(self):
        return "".join("_%s%s" % (k, v) for k, v in self.params)

    def scipy_value(self, n, x):
        return None


class PowerSums(Base):
    name = "power_sums"
    support = None

    def special(self, n, x):
        x = mpf(x)
        if x == 1:
            return mpf(n + 1)
        return x * (x ** (n + 1) - 1) / (x - 1)

    def row(self, x):
        with mp.workdps(RECUR_DPS):
            x = mpf(x)
            out, s, power = [], mpf(0), mpf(1)
            for n in range(N_MAX):
                power *= x
                s += power
                out.append(s)
            return out


class Monomials(Base):
    name = "monomials"
    support = None

    def special(self, n, x):
        return mpf(x) ** n

    def row(self, x):
        with mp.workdps(RECUR_DPS):
            x = mpf(x)
            out = [mpf(1)]
            for n in range(1, N_MAX):
                out.append(out[-1] * x)
            return out

    def scipy_value(self, n, x):
        return x ** n


class HermiteE(Base):
    name = "hermite_e"
    support = (-mpmath.inf, mpmath.inf)

    def special(self, n, x):
        # He_n(x) = 2^(-n/2) H_n(x / sqrt(2)), the argument rounded at 40 more
        # digits so that its rounding error is invisible in the result
        with mp.workdps(mp.dps + 40):
            v = mpmath.hermite(n, mpf(x) / mpmath.sqrt(2)) / mpmath.sqrt(2) ** n
        return +v

    def row(self, x):
        return three_term(x, lambda x: x, lambda n, x, p, q: x * p - n * q)

    def weight(self, x):
        return mpmath.exp(-x * x / 2)

    def norm(self, n):
        return 1 / mpmath.sqrt(mpmath.factorial(n))

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_hermitenorm(n, x)


class Hermite(Base):
    name = "hermite"
    support = (-mpmath.inf, mpmath.inf)

    def special(self, n, x):
        return mpmath.hermite(n, mpf(x))

    def row(self, x):
        return three_term(x, lambda x: 2 * x,
                          lambda n, x, p, q: 2 * x * p - 2 * n * q)

    def weight(self, x):
        return mpmath.exp(-x * x)

    def norm(self, n):
        return 1 / mpmath.sqrt(mpmath.mpf(2) ** n * mpmath.factorial(n))

    def function_norm(self, n, x):
        return mpmath.exp(-mpf(x) ** 2 / 2) / mpmath.sqrt(
            mpmath.mpf(2) ** n * mpmath.factorial(n) * mpmath.sqrt(mpmath.pi))

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_hermite(n, x)


class Legendre(Base):
    name = "legendre"
    reflect = True

    def special(self, n, x, **kw):
        return mpmath.legendre(n, mpf(x), **kw)

    def row(self, x):
        return three_term(x, lambda x: x,
                          lambda n, x, p, q: ((2 * n + 1) * x * p - n * q) / (n + 1))

    def exponents(self):
        return mpf(0), mpf(0)

    def norm(self, n):
        return mpmath.sqrt(2 * n + 1)

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_legendre(n, x)


class ChebyshevT(Base):
    name = "chebyshev_t"

    def special(self, n, x, **kw):
        return mpmath.chebyt(n, mpf(x), **kw)

    def row(self, x):
        return three_term(x, lambda x: x, lambda n, x, p, q: 2 * x * p - q)

    def exponents(self):
        return -mpf(1) / 2, -mpf(1) / 2

    def norm(self, n):
        return mpf(1) if n == 0 else mpmath.sqrt(2)

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_chebyt(n, x)


class ChebyshevU(Base):
    name = "chebyshev_u"

    def special(self, n, x, **kw):
        return mpmath.chebyu(n, mpf(x), **kw)

    def row(self, x):
        return three_term(x, lambda x: 2 * x, lambda n, x, p, q: 2 * x * p - q)

    def exponents(self):
        return mpf(1) / 2, mpf(1) / 2

    def norm(self, n):
        return mpf(1)

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_chebyu(n, x)


class Laguerre(Base):
    name = "laguerre"
    support = (0, mpmath.inf)

    def __init__(self, alpha):
        self.params = (("alpha", alpha),)

    def special(self, n, x, **kw):
        return mpmath.laguerre(n, self.param("alpha"), mpf(x), **kw)

    def row(self, x):
        with mp.workdps(RECUR_DPS):
            a = self.param("alpha")
        return three_term(
            x, lambda x: 1 + a - x,
            lambda n, x, p, q: ((2 * n + 1 + a - x) * p - (n + a) * q) / (n + 1))

    def weight(self, x):
        return x ** self.param("alpha") * mpmath.exp(-x)

    def norm(self, n):
        a = self.param("alpha")
        return mpmath.sqrt(mpmath.factorial(n) * mpmath.gamma(a + 1)
                           / mpmath.gamma(n + a + 1))

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_genlaguerre(n, float(self.param("alpha")), x)


class Jacobi(Base):
    name = "jacobi"
    reflect = True

    def __init__(self, alpha, beta):
        self.params = (("alpha", alpha), ("beta", beta))

    def special(self, n, x, swap=False, **kw):
        a, b = self.param("alpha"), self.param("beta")
        if swap:
            a, b = b, a
        return mpmath.jacobi(n, a, b, mpf(x), **kw)

    def row(self, x):
        with mp.workdps(RECUR_DPS):
            a, b = self.param("alpha"), self.param("beta")
            s = a + b

        def step(n, x, p, q):
            m = 2 * n + s
            return ((m + 1) * ((m + 2) * m * x + a * a - b * b) * p
                    - 2 * (n + a) * (n + b) * (m + 2) * q) / (2 * (n + 1) * (n + s + 1) * m)
        return three_term(x, lambda x: (a + 1) + (s + 2) * (x - 1) / 2, step)

    def exponents(self):
        return self.param("alpha"), self.param("beta")

    def norm(self, n):
        # sqrt(m / h_n), m = int w, h_n = int P_n^2 w
        if n == 0:
            return mpf(1)
        a, b = self.param("alpha"), self.param("beta")
        s = a + b
        g = mpmath.gamma
        h = 2 ** (s + 1) / (2 * n + s + 1) * g(n + a + 1) * g(n + b + 1) \
            / (g(n + s + 1) * mpmath.factorial(n))
        m = 2 ** (s + 1) * g(a + 1) * g(b + 1) / g(s + 2)
        return mpmath.sqrt(m / h)

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_jacobi(n, float(self.param("alpha")),
                              float(self.param("beta")), x)


class Gegenbauer(Base):
    name = "gegenbauer"
    reflect = True

    def __init__(self, lam):
        self.params = (("lambda", lam),)

    def special(self, n, x, **kw):
        return mpmath.gegenbauer(n, self.param("lambda"), mpf(x), **kw)

    def row(self, x):
        with mp.workdps(RECUR_DPS):
            lam = self.param("lambda")
        return three_term(
            x, lambda x: 2 * lam * x,
            lambda n, x, p, q: (2 * (n + lam) * x * p - (n + 2 * lam - 1) * q) / (n + 1))

    def exponents(self):
        return self.param("lambda") - mpf(1) / 2, self.param("lambda") - mpf(1) / 2

    def norm(self, n):
        if n == 0:
            return mpf(1)
        lam = self.param("lambda")
        g = mpmath.gamma
        h = mpmath.pi * 2 ** (1 - 2 * lam) * g(n + 2 * lam) \
            / (mpmath.factorial(n) * (n + lam) * g(lam) ** 2)
        m = mpmath.sqrt(mpmath.pi) * g(lam + mpf(1) / 2) / g(lam + 1)
        return mpmath.sqrt(m / h)

    def scipy_value(self, n, x):
        import scipy.special as sc
        return sc.eval_gegenbauer(n, float(self.param("lambda")), x)


def special_value(fam, n, x):
    """p_n(x) from mpmath's special function at DPS digits.

    For the 2F1-based families (legendre, jacobi, gegenbauer), a negative x is
    mapped to -x by p_n(-x) = (-1)^n q_n(x) (q = p with alpha and beta swapped
    for jacobi): mpmath is 10-100 times slower for x < -0.5 and returns a
    complex number with a spurious imaginary part for x < -1. At exact zeros (odd
    degrees at x = 0, U_2(1/2), ...) hypsum cannot reach a relative accuracy
    and is told to accept a zero (zeroprec); the recurrence confirms them.
    """
    x = mpf(x)
    sign, swap = 1, False
    if fam.reflect and x < 0:
        x, swap = -x, True
        sign = -1 if n % 2 else 1
    kwargs = {"swap": True} if swap and isinstance(fam, Jacobi) else {}
    try:
        v = fam.special(n, x, **kwargs)
    except ValueError:
        # hypsum gives up at an exact zero (e.g. odd n at x = 0, U_2(1/2));
        # accept a result 4 * prec bits below the terms as zero.
        v = fam.special(n, x, zeroprec=4 * mp.prec, **kwargs)
    return sign * real_part(v)


# ----------------------------------------------------------------------------
# Variants written to files.

def variants(fam):
    """(file stem, header family words, points, scale(n, x) or None)."""
    pts = {
        "power_sums": points_powers, "monomials": points_powers,
        "hermite_e": points_hermite, "hermite": points_hermite,
        "laguerre": points_laguerre,
    }.get(fam.name, points_interval)()
    label = fam.label()
    words = fam.name + "".join(" %s %s" % kv for kv in fam.params)
    out = [(fam.name + label, words, pts, None)]
    if hasattr(fam, "norm"):
        nwords = fam.name + "_normalized" + "".join(" %s %s" % kv for kv in fam.params)
        out.append((fam.name + "_normalized" + label, nwords, pts,
                    lambda n, x: fam.norm(n)))
    if isinstance(fam, Hermite):
        out.append(("hermite_function", "hermite_function", points_hermite_function(),
                    fam.function_norm))
    return out


def all_families():
    return [PowerSums(), Monomials(), HermiteE(), Hermite(), Legendre(),
            ChebyshevT(), ChebyshevU()] \
        + [Laguerre(a) for a in ("0", "0.5", "3.7")] \
        + [Jacobi(a, b) for a, b in (("0", "0"), ("0.5", "-0.5"), ("2.5", "1.5"),
                                     ("-0.7", "3"))] \
        + [Gegenbauer(l) for l in ("0.5", "1.5", "-0.3")]


# ----------------------------------------------------------------------------

def fmt(v, digits):
    if v == 0:
        return "0"
    return mpmath.nstr(v, digits, min_fixed=0, max_fixed=0)


def rel_diff(a, b, local):
    if a == b:
        return mpf(0)
    return abs(a - b) / max(abs(b), AGREE_FLOOR * local)


def check_orthonormal(fam):
    """max |int p_m p_n w / int w - delta_mn| over m, n < NORM_CHECK_N, using
    the special-function values and the normalizing constants; the mass
    int w is integrated too.

    On [-1, 1], w = (1-x)^a (1+x)^b may be singular at both ends, and tanh-sinh
    nodes near them would be rounded onto them; so x = cos(theta), each half
    theta in [0, pi/2] and [pi/2, pi] is taken from its own end point, with
    theta = (pi/2) u^5: then (1-x)^a dx ~ u^(10a+9) du is smooth in u for the
    parameters used here (10a integer), and sin(theta/2), cos(theta/2) are
    computed without cancellation."""
    with mp.workdps(30):
        if fam.support == (-1, 1):
            a, b = fam.exponents()
            half, q = mpmath.pi / 2, 5

            def integral(p):
                def g(u):
                    th = half * u ** q
                    s, c, x = mpmath.sin(th / 2), mpmath.cos(th / 2), mpmath.cos(th)
                    jac = half * q * u ** (q - 1)
                    # theta near 0 (x near 1), and pi - theta (x near -1)
                    w1 = (2 * s * s) ** a * (2 * c * c) ** b * 2 * s * c
                    w2 = (2 * c * c) ** a * (2 * s * s) ** b * 2 * s * c
                    return (w1 * p(x) + w2 * p(-x)) * jac
                return mpmath.quad(g, [0, 1])
        else:
            lo, hi = fam.support
            ivl = [lo, 0, hi] if lo < 0 else [lo, hi]

            def integral(p):
                return mpmath.quad(lambda x: p(x) * fam.weight(x), ivl)
        mass = integral(lambda x: 1)
        worst = mpf(0)
        for m in range(NORM_CHECK_N):
            for n in range(m, NORM_CHECK_N):
                def p(x):
                    return (special_value(fam, m, x) * fam.norm(m)
                            * special_value(fam, n, x) * fam.norm(n))
                v = integral(p) / mass
                worst = max(worst, abs(v - (1 if m == n else 0)))
        return worst


def check_hermite_function():
    fam = Hermite()
    with mp.workdps(30):
        worst = mpf(0)
        for m in range(NORM_CHECK_N):
            for n in range(m, NORM_CHECK_N):
                def f(x):
                    return (fam.special(m, x) * fam.function_norm(m, x)
                            * fam.special(n, x) * fam.function_norm(n, x))
                v = mpmath.quad(f, [-mpmath.inf, 0, mpmath.inf])
                worst = max(worst, abs(v - (1 if m == n else 0)))
        return worst


def check_scipy(fam, pts):
    """max relative difference to scipy.special (float64) for n <= 12 at points
    where the value is moderate."""
    worst = 0.0
    for x in pts:
        for n in range(13):
            ref = float(special_value(fam, n, x))
            if not (1e-3 < abs(ref) < 1e30):
                continue
            got = fam.scipy_value(n, x)
            if got is None:
                return None
            worst = max(worst, abs(got - ref) / abs(ref))
    return worst


def run_family(fam):
    mp.dps = DPS
    t0 = time.time()
    notes = []
    vs = variants(fam)
    points = sorted(set(x for _, _, pts, _ in vs for x in pts))
    worst_agree, slowest, zeros = mpf(0), (0.0, None), []
    raw = {}     # x -> (row, {n: special value})
    for x in points:
        row = fam.row(x)
        vals = {}
        for n in STORED:
            t = time.time()
            s = special_value(fam, n, x)
            dt = time.time() - t
            if dt > slowest[0]:
                slowest = (dt, (n, x))
            r = row[n]
            local = max(abs(v) for v in row[max(n - 1, 0):n + 2])
            d = rel_diff(s, +r, local)
            if not d <= AGREE:
                raise AssertionError("%s%s n=%d x=%r: special %s, recurrence %s"
                                     % (fam.name, fam.label(), n, x, s, r))
            worst_agree = max(worst_agree, d)
            if abs(s) <= ZERO * local:
                # At (or within 1e-45 of the local scale from) a zero, the
                # 60-digit special function gives noise; the 150-digit
                # recurrence is still accurate there, or exactly zero.
                noise = s
                s = +r if abs(r) > mpf(10) ** (30 - RECUR_DPS) * local else mpf(0)
                zeros.append((n, x, s, noise))
            vals[n] = s
        raw[x] = (row, vals)

    files = {}
    for stem, words, pts, scale in vs:
        lines = [
            "# family %s" % words,
            "# generated by unit_tests/reference/generate.py with mpmath %s, %d digits"
            % (mpmath.__version__, DPS),
        ]
        if fam.params:
            lines.append("# parameters are the binary64 numbers nearest to these decimals: "
                         + ", ".join("%s = %s" % (k, mpmath.nstr(mpf(float(v)), 60))
                                     for k, v in fam.params))
        lines.append("# columns of the point lines: index, x (a float32 number, exact in double), rowmax16, rowmax64, "
                     "rowmax256, rowmax2000; of the data lines: index, n, p_n(x), local")
        body = []
        for i, x in enumerate(pts):
            row, vals = raw[x]
            if scale is None:
                srow = row
                svals = vals
            else:
                srow = [row[n] * scale(n, x) for n in range(N_MAX)]
                svals = {n: vals[n] * scale(n, x) for n in STORED}
            absrow = [abs(v) for v in srow]
            maxima = []
            for N in ROWMAX_N:
                maxima.append(max(absrow[:N]))
            # repr: the shortest decimal that reads back as this double, which
            # is the float32 point itself, so strtof and strtod both get it
            lines.append("# point\t%d\t%s\t%s" % (i, repr(x),
                                                  "\t".join(fmt(m, 6) for m in maxima)))
            for n in STORED:
                local = max(absrow[max(n - 1, 0):min(n + 2, N_MAX)])
                body.append("%d\t%d\t%s\t%s" % (i, n, fmt(svals[n], 21), fmt(local, 6)))
        files[stem + ".tsv"] = "\n".join(lines + body) + "\n"

    norm_worst = check_orthonormal(fam) if hasattr(fam, "norm") else None
    hf_worst = check_hermite_function() if isinstance(fam, Hermite) else None
    scipy_worst = check_scipy(fam, vs[0][2])
    if norm_worst is not None:
        assert norm_worst < mpf(10) ** -25, (fam.name, norm_worst)
    if hf_worst is not None:
        assert hf_worst < mpf(10) ** -25, ("hermite_function", hf_worst)
    if scipy_worst is not None:
        assert scipy_worst < 1e-10, (fam.name, scipy_worst)
    return dict(name=fam.name + fam.label(), files=files, seconds=time.time() - t0,
                agree=worst_agree, zeros=zeros, slowest=slowest, norm=norm_worst,
                hermite_function=hf_worst, scipy=scipy_worst)


# ----------------------------------------------------------------------------
# edges.txt: rows at the edges of the ranges, for test_edges.cpp. Values leave
# double's (and float's) range and, for some, come back; x are double numbers
# (not float32), so that a double x with a float V is tested; parameters sit
# near their limits. Values and first derivatives come from the family's
# three-term recurrence at RECUR_DPS digits (the recurrences that run_family
# checks against mpmath's special functions), derivatives by a central
# difference of step 1e-45 (its error is below 1e-80 relative).

EDGE_CASES = [
    # (variant, params, x, N)
    ("legendre", (), 1.3, 1000),
    ("chebyshev_t", (), -1.3, 1000),
    ("jacobi", (("alpha", "0.5"), ("beta", "-0.5")), 1.5, 1200),
    ("jacobi_normalized", (("alpha", "0.5"), ("beta", "-0.5")), -1.5, 1200),
    ("hermite_e_normalized", (), 56.0, 4000),
    ("hermite_e", (), -30.0, 400),
    ("hermite", (), 25.0, 500),
    ("laguerre", (("alpha", "0.5"),), -200.0, 600),
    ("laguerre_normalized", (("alpha", "3.7"),), 1500.0, 800),
    ("power_sums", (), -2.0, 1100),
    ("monomials", (), -3.5, 700),
    ("hermite_function", (), 27.0, 2000),
    ("hermite_function", (), -45.5, 3000),
    ("chebyshev_t", (), 0.999999, 2000),
    ("legendre", (), 0.999999, 2000),
    ("legendre_normalized", (), 0.9999, 2000),
    ("jacobi", (("alpha", "0.5"), ("beta", "-0.5")), 0.9999, 2000),
    ("gegenbauer", (("lambda", "0"),), 0.3, 8),
    ("laguerre", (("alpha", "-0.999"),), 0.5, 200),
    ("laguerre_normalized", (("alpha", "-0.999"),), 0.5, 200),
    ("jacobi", (("alpha", "-0.999"), ("beta", "-0.999")), 0.7, 200),
    ("jacobi_normalized", (("alpha", "-0.999"), ("beta", "-0.999")), 0.7, 200),
    ("jacobi_normalized", (("alpha", "-0.999"), ("beta", "5")), -0.3, 200),
    ("gegenbauer", (("lambda", "-0.499"),), 0.4, 200),
    ("gegenbauer_normalized", (("lambda", "-0.499"),), 0.4, 200),
    ("gegenbauer_normalized", (("lambda", "0.000001"),), 0.4, 200),
]


def edge_family(variant, params):
    """(base family, scale(n, x) or None) of a variant name."""
    base = variant.replace("_normalized", "")
    p = dict(params)
    if variant == "hermite_function":
        fam = Hermite()
        return fam, fam.function_norm
    fam = {
        "power_sums": PowerSums, "monomials": Monomials, "hermite_e": HermiteE,
        "hermite": Hermite, "legendre": Legendre, "chebyshev_t": ChebyshevT,
        "chebyshev_u": ChebyshevU,
    }.get(base)
    if fam is not None:
        fam = fam()
    elif base == "laguerre":
        fam = Laguerre(p["alpha"])
    elif base == "jacobi":
        fam = Jacobi(p["alpha"], p["beta"])
    elif base == "gegenbauer":
        fam = Gegenbauer(p["lambda"])
    else:
        raise ValueError(variant)
    if variant.endswith("_normalized"):
        return fam, lambda n, x: fam.norm(n)
    return fam, None


def edge_degrees(values, N):
    """Degrees stored: 0..15, every 37th, the last, and +-3 around every
    degree where |p_n| crosses float's or double's largest value."""
    keep = set(range(min(16, N))) | set(range(0, N, 37)) | {N - 1}
    limits = (mpf(float(np.finfo(np.float32).max)), mpf(float(np.finfo(np.float64).max)))
    for n in range(1, N):
        for lim in limits:
            if (abs(values[n]) > lim) != (abs(values[n - 1]) > lim):
                keep |= set(range(max(n - 3, 0), min(n + 4, N)))
    return sorted(keep)


def write_edges(path):
    global N_MAX
    h = mpf(10) ** -45
    lines = ["# edges: rows at the edges of the ranges (generate.py --edges); values and",
             "# first derivatives from the three-term recurrence at %d digits, written with"
             % RECUR_DPS,
             "# %d digits. Lines: '# case <id> <family> <alpha> <beta> <lambda> <x> <N>' (x a"
             % 21,
             "# double, written as Python repr), then '<id> <n> <p_n(x)> <p_n'(x)> <local>",
             "# <dlocal>', local = max |p_m(x)| and dlocal = max |p_m'(x)| over m = n-1..n+1."]
    for case, (variant, params, x, N) in enumerate(EDGE_CASES):
        fam, scale = edge_family(variant, params)
        N_MAX = N
        with mp.workdps(RECUR_DPS):
            xm = mpf(x)
            rows = [fam.row(xm + d) for d in (0, h, -h)]
            if scale is not None:
                rows = [[r[n] * scale(n, xm + d) for n in range(N)]
                        for r, d in zip(rows, (0, h, -h))]
            values = rows[0]
            derivs = [(rows[1][n] - rows[2][n]) / (2 * h) for n in range(N)]
        p = dict(params)
        lines.append("# case\t%d\t%s\t%s\t%s\t%s\t%r\t%d" % (
            case, variant, p.get("alpha", "0"), p.get("beta", "0"), p.get("lambda", "0"), x, N))
        for n in edge_degrees(values, N):
            near = range(max(n - 1, 0), min(n + 2, N))
            local = max(abs(values[m]) for m in near)
            dlocal = max(abs(derivs[m]) for m in near)
            lines.append("%d\t%d\t%s\t%s\t%s\t%s" % (
                case, n, fmt(values[n], 21), fmt(derivs[n], 21), fmt(local, 6), fmt(dlocal, 6)))
    N_MAX = 2000
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s: %d cases" % (path, len(EDGE_CASES)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", nargs="*", help="base family names (e.g. jacobi)")
    ap.add_argument("--edges", action="store_true", help="write only edges.txt")
    args = ap.parse_args()
    if args.edges:
        write_edges(os.path.join(args.out, "edges.txt"))
        return

    fams = all_families()
    if args.only:
        fams = [f for f in fams if f.name in args.only]
    # heaviest first, so the two workers finish together
    order = {"jacobi": 0, "gegenbauer": 1, "legendre": 2, "laguerre": 3}
    fams.sort(key=lambda f: order.get(f.name, 9))
    t0 = time.time()
    print("mpmath %s, %d digits (recurrence %d); %d degrees stored of %d; %d jobs"
          % (mpmath.__version__, DPS, RECUR_DPS, len(STORED), N_MAX, args.jobs), flush=True)
    results = []
    with multiprocessing.Pool(args.jobs) as pool:
        for r in pool.imap_unordered(run_family, fams):
            for fname, text in r["files"].items():
                with open(os.path.join(args.out, fname), "w") as f:
                    f.write(text)
            results.append(r)
            slow_dt, (sn, sx) = r["slowest"]
            msg = ["[%5.1fs] %s (%.1fs): %s" % (time.time() - t0, r["name"], r["seconds"],
                                                 ", ".join(sorted(r["files"])))]
            msg.append("special function vs recurrence: worst difference %s; slowest "
                       "mpmath call %.3fs (n=%d, x=%.9g)"
                       % (mpmath.nstr(r["agree"], 3), slow_dt, sn, sx))
            if r["norm"] is not None:
                msg.append("orthonormality (n, m < %d): worst error %s"
                           % (NORM_CHECK_N, mpmath.nstr(r["norm"], 3)))
            if r["hermite_function"] is not None:
                msg.append("hermite_function orthonormality: worst error %s"
                           % mpmath.nstr(r["hermite_function"], 3))
            if r["scipy"] is not None:
                msg.append("vs scipy.special float64 (n <= 12): worst relative "
                           "difference %.2g" % r["scipy"])
            if r["zeros"]:
                noisy = [(n, x, v) for n, x, v, sv in r["zeros"] if sv != 0]
                msg.append("%d values at zeros (|p_n| <= 1e-45 local), %d of them zero in "
                           "both methods; special-function noise replaced by the "
                           "recurrence at: %s" % (
                               len(r["zeros"]), len(r["zeros"]) - len(noisy),
                               " ".join("(n=%d, x=%.9g -> %s)" % (n, x, mpmath.nstr(v, 3))
                                        for n, x, v in noisy) or "none"))
            print("\n    ".join(msg), flush=True)
    print("done: %d files in %.1fs" % (sum(len(r["files"]) for r in results),
                                      time.time() - t0))


if __name__ == "__main__":
    main()
