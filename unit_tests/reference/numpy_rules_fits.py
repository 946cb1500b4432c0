#!/usr/bin/python3
"""numpy.polynomial's Gauss rules and least-squares fits, for recur to compare
with on cases where numpy is still accurate (unit_tests/test_project_fit.cpp).

Writes, next to this script (or into --out):
  numpy_gauss.txt  blocks "rule <name> <n>", then n lines "node weight"
                   (nodes ascending, as recur gives them), for
                   leggauss, chebgauss, hermgauss, hermegauss, laggauss at
                   n = 5, 20, 60 (numpy's Golub-Welsch Hermite rules lose
                   digits past about n = 150; at these n they are accurate);
  numpy_fit.txt    blocks "fit <name> <M> <degree>", then M lines "x y w", then
                   degree + 1 lines, numpy's coefficients with weights w.
Deterministic (fixed seed); every number is written with 17 significant
digits.

Usage: unit_tests/reference/numpy_rules_fits.py [--out DIR]
"""

import argparse
import os

import numpy as np
import numpy.polynomial as P

RULES = [("legendre", P.legendre.leggauss), ("chebyshev_t", P.chebyshev.chebgauss),
         ("hermite", P.hermite.hermgauss), ("hermite_e", P.hermite_e.hermegauss),
         ("laguerre", P.laguerre.laggauss)]

# name, numpy fit, interval of x
FITS = [("legendre", P.legendre.legfit, (-1.0, 1.0)),
        ("chebyshev_t", P.chebyshev.chebfit, (-1.0, 1.0)),
        ("hermite", P.hermite.hermfit, (-2.0, 2.0)),
        ("hermite_e", P.hermite_e.hermefit, (-3.0, 3.0)),
        ("laguerre", P.laguerre.lagfit, (0.0, 8.0)),
        ("monomials", P.polynomial.polyfit, (-1.0, 1.0))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()
    with open(os.path.join(args.out, "numpy_gauss.txt"), "w") as out:
        out.write(f"# numpy {np.__version__} Gauss rules: made by numpy_rules_fits.py\n")
        for name, rule in RULES:
            for n in (5, 20, 60):
                x, w = rule(n)
                order = np.argsort(x)  # chebgauss gives its nodes descending
                x, w = x[order], w[order]
                out.write(f"rule {name} {n}\n")
                for xi, wi in zip(x, w):
                    out.write(f"{xi:.17g} {wi:.17g}\n")
    rng = np.random.default_rng(20261130)
    with open(os.path.join(args.out, "numpy_fit.txt"), "w") as out:
        out.write(f"# numpy {np.__version__} weighted least-squares fits: made by "
                  "numpy_rules_fits.py\n")
        for name, fit, (lo, hi) in FITS:
            M, degree = 200, 7
            x = np.sort(rng.uniform(lo, hi, M))
            t = (x - lo) / (hi - lo)
            y = np.exp(t) * np.sin(5 * t) + 0.01 * rng.standard_normal(M)
            w = rng.uniform(0.5, 2.0, M)
            c = fit(x, y, degree, w=w)
            out.write(f"fit {name} {M} {degree}\n")
            for xi, yi, wi in zip(x, y, w):
                out.write(f"{xi:.17g} {yi:.17g} {wi:.17g}\n")
            for ci in c:
                out.write(f"{ci:.17g}\n")


if __name__ == "__main__":
    main()
