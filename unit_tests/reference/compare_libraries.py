#!/usr/bin/python3
"""Worst errors of other libraries against the reference files (*.tsv here).

For every reference file a library can evaluate, and N in 16, 64, 256, 2000,
over all points and the stored degrees n < N:
  row metric   |got - ref| / max(|ref|,  1e-3 * rowmax<N>)
  local metric |got - ref| / max(local, 1e-3 * rowmax<N>)
(rowmax<N> = max_{n<N} |p_n(x)|, local = max(|p_{n-1}|, |p_n|, |p_{n+1}|)).
Non-finite results (inf, NaN) where the reference is finite and representable
in the library's precision are counted, not measured. Where the reference lies
beyond the precision's range, an inf of the right sign is no error; a NaN
there is counted apart; a finite result there is measured.

Libraries: scipy.special eval_* (float64), with the normalizing constants a
user would write for the _normalized families; numpy.polynomial *vander
(float64); torch.special *_polynomial_* (float32 and float64), if torch is
importable.

Usage: unit_tests/reference/compare_libraries.py [--out FILE.md]
"""

import argparse
import datetime
import glob
import math
import os
import platform
import subprocess
import sys
import time

import mpmath
import numpy as np
import scipy
import scipy.special as sc
from mpmath import mpf

HERE = os.path.dirname(os.path.abspath(__file__))
NS = (16, 64, 256, 2000)
N_MAX = 2000
mpmath.mp.dps = 30

try:
    import torch
    import torch.special as ts
except ImportError as e:  # reported in the output
    torch, ts, TORCH_ERROR = None, None, str(e)


# ----------------------------------------------------------------------------
# Reading the reference files.

class Reference:
    def __init__(self, path):
        self.path = path
        self.family, self.params = None, {}
        self.points = []   # (x, {N: rowmax})
        self.data = {}     # point index -> (ns array, [ref mpf], [local mpf])
        with open(path) as f:
            for line in f:
                if line.startswith("# family "):
                    words = line.split()[2:]
                    self.family = words[0]
                    self.params = {k: v for k, v in zip(words[1::2], words[2::2])}
                elif line.startswith("# point\t"):
                    f_ = line.split()[2:]
                    assert int(f_[0]) == len(self.points)
                    x = float(np.float32(f_[1]))
                    self.points.append((x, dict(zip(NS, map(mpf, f_[2:6])))))
                elif line.startswith("#") or not line.strip():
                    continue
                else:
                    i, n, v, loc = line.split()
                    ns, refs, locs = self.data.setdefault(int(i), ([], [], []))
                    ns.append(int(n))
                    refs.append(mpf(v))
                    locs.append(mpf(loc))
        self.stem = os.path.basename(path)[:-4]

    def param(self, name):
        return float(self.params[name])

    def param_text(self):
        return ", ".join("%s = %s" % (k, v) for k, v in self.params.items())


# ----------------------------------------------------------------------------
# Libraries: family stem -> f(ns int array, x float) -> values, or None.

def scipy_functions(ref):
    fam = ref.family
    f = {
        "hermite_e": lambda n, x: sc.eval_hermitenorm(n, x),
        "hermite_e_normalized": lambda n, x: sc.eval_hermitenorm(n, x)
        / np.sqrt(sc.factorial(n)),
        "hermite": lambda n, x: sc.eval_hermite(n, x),
        "hermite_normalized": lambda n, x: sc.eval_hermite(n, x)
        / np.sqrt(2.0 ** n * sc.factorial(n)),
        "hermite_function": lambda n, x: sc.eval_hermite(n, x) * np.exp(-x * x / 2)
        / np.sqrt(2.0 ** n * sc.factorial(n) * np.sqrt(np.pi)),
        "legendre": lambda n, x: sc.eval_legendre(n, x),
        "legendre_normalized": lambda n, x: np.sqrt(2 * n + 1.0) * sc.eval_legendre(n, x),
        "chebyshev_t": lambda n, x: sc.eval_chebyt(n, x),
        "chebyshev_t_normalized": lambda n, x: np.where(n == 0, 1.0, np.sqrt(2.0))
        * sc.eval_chebyt(n, x),
        "chebyshev_u": lambda n, x: sc.eval_chebyu(n, x),
        "chebyshev_u_normalized": lambda n, x: sc.eval_chebyu(n, x),
    }.get(fam)
    if f is not None:
        return f, _scipy_text(fam)
    gl = sc.gammaln
    if fam.startswith("laguerre"):
        a = ref.param("alpha")
        if fam == "laguerre":
            return (lambda n, x: sc.eval_genlaguerre(n, a, x)), "eval_genlaguerre(n, alpha, x)"
        return (lambda n, x: sc.eval_genlaguerre(n, a, x)
                * np.exp(0.5 * (gl(n + 1.0) + gl(a + 1) - gl(n + a + 1)))), \
            "eval_genlaguerre(n, alpha, x) * exp((gammaln(n+1) + gammaln(alpha+1) " \
            "- gammaln(n+alpha+1)) / 2)"
    if fam.startswith("jacobi"):
        a, b = ref.param("alpha"), ref.param("beta")
        if fam == "jacobi":
            return (lambda n, x: sc.eval_jacobi(n, a, b, x)), "eval_jacobi(n, alpha, beta, x)"

        def jn(n, x):
            s = a + b + 1
            log_h = s * np.log(2) - np.log(2 * n + s) + gl(n + a + 1) + gl(n + b + 1) \
                - gl(n + s) - gl(n + 1.0)
            log_m = s * np.log(2) + gl(a + 1) + gl(b + 1) - gl(s + 1)
            return sc.eval_jacobi(n, a, b, x) * np.exp(0.5 * (log_m - log_h))
        return jn, "eval_jacobi(n, alpha, beta, x) * exp((log m - log h_n) / 2), " \
            "log h_n and log m from gammaln"
    if fam.startswith("gegenbauer"):
        lam = ref.param("lambda")
        if fam == "gegenbauer":
            return (lambda n, x: sc.eval_gegenbauer(n, lam, x)), \
                "eval_gegenbauer(n, lambda, x)"

        def gn(n, x):
            log_h = np.log(np.pi) + (1 - 2 * lam) * np.log(2) + gl(n + 2 * lam) \
                - gl(n + 1.0) - np.log(np.abs(n + lam)) - 2 * gl(lam)
            log_m = 0.5 * np.log(np.pi) + gl(lam + 0.5) - gl(lam + 1)
            return sc.eval_gegenbauer(n, lam, x) * np.exp(0.5 * (log_m - log_h))
        return gn, "eval_gegenbauer(n, lambda, x) * exp((log m - log h_n) / 2), " \
            "log h_n and log m from gammaln (log |Gamma|)"
    return None, None


def _scipy_text(fam):
    return {
        "hermite_e": "eval_hermitenorm(n, x)",
        "hermite_e_normalized": "eval_hermitenorm(n, x) / sqrt(factorial(n))",
        "hermite": "eval_hermite(n, x)",
        "hermite_normalized": "eval_hermite(n, x) / sqrt(2.0**n * factorial(n))",
        "hermite_function": "eval_hermite(n, x) * exp(-x*x/2) / "
                            "sqrt(2.0**n * factorial(n) * sqrt(pi))",
        "legendre": "eval_legendre(n, x)",
        "legendre_normalized": "sqrt(2n+1) * eval_legendre(n, x)",
        "chebyshev_t": "eval_chebyt(n, x)",
        "chebyshev_t_normalized": "(1 if n == 0 else sqrt(2)) * eval_chebyt(n, x)",
        "chebyshev_u": "eval_chebyu(n, x)",
        "chebyshev_u_normalized": "eval_chebyu(n, x)",
    }[fam]


def numpy_functions(ref):
    P = np.polynomial
    vander = {
        "hermite_e": (P.hermite_e.hermevander, "hermevander"),
        "hermite": (P.hermite.hermvander, "hermvander"),
        "legendre": (P.legendre.legvander, "legvander"),
        "chebyshev_t": (P.chebyshev.chebvander, "chebvander"),
        "monomials": (P.polynomial.polyvander, "polyvander"),
    }
    if ref.family == "laguerre" and ref.param("alpha") == 0:
        vander["laguerre"] = (P.laguerre.lagvander, "lagvander")
    if ref.family == "power_sums":
        def ps(n, x):
            with np.errstate(all="ignore"):
                v = np.cumsum(P.polynomial.polyvander(np.array([x]), N_MAX)[0, 1:])
            return v[n]
        return ps, "cumsum(polyvander(x, 2000)[1:])"
    if ref.family not in vander:
        return None, None
    fn, name = vander[ref.family]

    def f(n, x):
        with np.errstate(all="ignore"):
            return fn(np.array([x]), N_MAX - 1)[0, n]
    return f, "%s(x, 1999)[n]" % name


def torch_functions(dtype):
    def make(ref):
        if torch is None:
            return None, None
        fns = {
            "hermite_e": "hermite_polynomial_he",
            "hermite": "hermite_polynomial_h",
            "legendre": "legendre_polynomial_p",
            "chebyshev_t": "chebyshev_polynomial_t",
            "chebyshev_u": "chebyshev_polynomial_u",
        }
        if ref.family == "laguerre" and ref.param("alpha") == 0:
            fns["laguerre"] = "laguerre_polynomial_l"
        name = fns.get(ref.family)
        if name is None or not hasattr(ts, name):
            return None, None
        fn = getattr(ts, name)

        def f(n, x):
            xs = torch.full((len(n),), x, dtype=dtype)
            return fn(xs, torch.tensor(n, dtype=dtype)).numpy().astype(np.float64)
        return f, "torch.special.%s(x, n)" % name
    return make


# ----------------------------------------------------------------------------

def measure(ref, f, dtype, details=None):
    """{N: [worst row, where, worst local, non-finite, bad beyond range,
    rowmax<N> beyond range at some point]}"""
    fi = np.finfo(dtype)
    big, tiny = mpf(float(fi.max)), mpf(float(fi.tiny))
    res = {N: [mpf(0), None, mpf(0), 0, 0, False] for N in NS}
    for x, rowmax in ref.points:
        for N in NS:
            res[N][5] |= rowmax[N] > big
    for i, (x, rowmax) in enumerate(ref.points):
        ns, refs, locs = ref.data[i]
        xd = float(np.asarray(x, dtype=dtype))  # x is a float32 number: exact
        with np.errstate(all="ignore"):
            got = np.asarray(f(np.array(ns), xd), dtype=np.float64)
        for n, r, loc, g in zip(ns, refs, locs, got):
            g = float(np.asarray(g, dtype=dtype))
            if not math.isfinite(g):
                if abs(r) <= big:
                    kind = 3     # non-finite where the value is representable
                elif not math.isnan(g) and (g > 0) == (r > 0):
                    continue     # overflow where the true value overflows
                else:
                    kind = 4     # NaN, or inf of the wrong sign, beyond range
                if details is not None:
                    details.append("%s x=%.9g n=%d got %r ref %s" % (
                        "non-finite" if kind == 3 else "beyond range", x, n, g,
                        mpmath.nstr(r, 5)))
                for N in NS:
                    if n < N:
                        res[N][kind] += 1
                continue
            diff = abs(mpf(g) - r)
            for N in NS:
                if n >= N:
                    continue
                floor = max(mpf("1e-3") * rowmax[N], tiny)
                e_row = diff / max(abs(r), floor) if diff else mpf(0)
                e_loc = diff / max(loc, floor) if diff else mpf(0)
                w = res[N]
                if w[1] is None or e_row > w[0]:
                    w[0], w[1] = e_row, (x, n)
                w[2] = max(w[2], e_loc)
    return res


def fmt_err(e):
    if e == 0:
        return "0"
    return mpmath.nstr(e, 2, min_fixed=0, max_fixed=0)


def machine():
    model = platform.processor() or "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "%d-core CPU (%s), %s %s" % (os.cpu_count() or 0, model, platform.system(),
                                       platform.machine())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "docs", "data",
                                                  "accuracy-libraries.md"))
    ap.add_argument("--command", default="unit_tests/reference/compare_libraries.py",
                    help="command line to record in the output")
    ap.add_argument("--details", action="store_true",
                    help="print every non-finite result")
    args = ap.parse_args()
    t0 = time.time()

    refs = [Reference(p) for p in sorted(glob.glob(os.path.join(HERE, "*.tsv")))]
    generated = None
    with open(refs[0].path) as f:
        for line in f:
            if line.startswith("# generated"):
                generated = line[2:].strip()
                break

    libs = [("scipy.special %s, float64" % scipy.__version__, scipy_functions, np.float64),
            ("numpy.polynomial %s, float64" % np.__version__, numpy_functions, np.float64)]
    if torch is not None:
        for dt, tdt in ((np.float32, torch.float32), (np.float64, torch.float64)):
            libs.append(("torch.special %s, %s" % (torch.__version__, np.dtype(dt).name),
                         torch_functions(tdt), dt))

    versions = "Python %s, numpy %s, scipy %s, mpmath %s, torch %s" % (
        platform.python_version(), np.__version__, scipy.__version__, mpmath.__version__,
        torch.__version__ if torch is not None else "not available (%s)" % TORCH_ERROR)
    out = [
        "# Accuracy of other libraries against the mpmath references",
        "",
        "Run of %s on a %s; %s. Command: `%s` (from the repository root); the "
        "references are `unit_tests/reference/*.tsv` (%s)." % (
            datetime.date.today().isoformat(), machine(), versions, args.command, generated),
        "",
        "For each reference file (family, parameters) and N, over all its points x "
        "(float32 numbers, evaluated exactly in the library's precision) and the stored "
        "degrees n < N (every n below 64, then every 32nd, and 1999):",
        "",
        "- **row**: max |got − ref| / max(|ref|, 1e-3 · rowmax<N>), "
        "rowmax<N> = max over n < N of |p_n(x)|;",
        "- **local**: max |got − ref| / max(local, 1e-3 · rowmax<N>), "
        "local = max(|p_{n−1}|, |p_n|, |p_{n+1}|);",
        "- **non-finite**: results that are inf or NaN where the reference is finite and "
        "representable in that precision (not part of the two maxima);",
        "- **bad beyond range**: NaN, or inf of the wrong sign, where the reference "
        "exceeds the precision's range. An inf of the right sign there is correct and is "
        "not counted; a finite result there is measured (its error is then about 1);",
        "- the denominators are never below the smallest normal number of the precision "
        "(2.2e-308 in float64, 1.2e-38 in float32): where the reference underflows, a "
        "result of 0 or a subnormal is not counted as wrong in full (this affects only rows "
        "with rowmax<N> below 1000 times that number, here hermite_function at x = ±40);",
        "- **worst at**: x and n of the row maximum;",
        "- **†** after N: at some point, rowmax<N> exceeds the precision's range. There "
        "the degrees whose values overflow are not measured (an inf is right) and the "
        "others are measured against a floor beyond range, so that point adds almost "
        "nothing to the maxima, which then come from the other points (if all points are "
        "such, as for hermite at N = 2000, the maxima say nothing; read the counts and "
        "the rows for smaller N).",
        "",
        "Unit roundoff: 1.1e-16 in float64, 6.0e-8 in float32. Family parameters are "
        "passed as the binary64 numbers the reference files name. A library that has no "
        "function for a family (or parameter set) is left out of that table.",
        "",
    ]
    for lib_name, functions, dtype in libs:
        rows = []
        texts = []
        for ref in refs:
            f, text = functions(ref)
            if f is None:
                continue
            texts.append((ref.family, text))
            details = [] if args.details else None
            res = measure(ref, f, dtype, details)
            for d in details or ():
                print("    %s %s: %s" % (lib_name, ref.stem, d))
            for N in NS:
                w = res[N]
                where = "x = %.9g, n = %d" % w[1] if w[1] else ""
                rows.append("| %s | %s | %s | %s | %s | %d | %d | %s |" % (
                    ref.family, ref.param_text() or "", "%d%s" % (N, " †" if w[5] else ""),
                    fmt_err(w[0]), fmt_err(w[2]),
                    w[3], w[4], where))
            print("[%5.1fs] %s: %s" % (time.time() - t0, lib_name, ref.stem), flush=True)
        out += ["## %s" % lib_name, ""]
        seen = []
        for fam, text in texts:
            if (fam, text) not in seen:
                seen.append((fam, text))
        out += ["Calls: " + "; ".join("%s: `%s`" % ft for ft in seen) + ".", ""]
        out += ["| family | parameters | N | row | local | non-finite | bad beyond range "
                "| worst at |",
                "|---|---|---:|---:|---:|---:|---:|---|"] + rows + [""]
    if torch is None:
        out += ["torch.special: not measured, torch is not importable (%s)." % TORCH_ERROR, ""]
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    print("wrote %s in %.1fs" % (args.out, time.time() - t0))


if __name__ == "__main__":
    main()
