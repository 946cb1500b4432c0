#!/usr/bin/python3
"""numpy.polynomial doing what perf_uses.cpp times, on the same shapes, for the
side-by-side in docs/using-v.md: legval (series, K = 1), legvander @ C
(K = 8, 64), leggauss (n = 100, 1000, 2000), projection through leggauss, and
legfit (weighted least squares). Double precision (numpy.polynomial has no
other); median of 5 runs (3 for the slow ones), in ms.

Usage: perf_tests/numpy_uses.py   (with numpy; prints one line per case)
"""
import time

import numpy as np
from numpy.polynomial import legendre


def median_ms(fn, runs=5):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * sorted(times)[len(times) // 2]


def main():
    print(f"numpy {np.__version__}")
    M, N = 2**18, 32
    x = -1 + 2 * (np.arange(M) + 0.5) / M
    for K in (1, 8, 64):
        C = np.full((N, K), 1.0 / N)
        if K == 1:
            t = median_ms(lambda: legendre.legval(x, C[:, 0]))
            print(f"series  legval                M=2^18 N=32 K=1   {t:9.2f} ms")
        t = median_ms(lambda: legendre.legvander(x, N - 1) @ C)
        print(f"series  legvander @ C         M=2^18 N=32 K={K:<3d} {t:9.2f} ms")
    for n in (100, 1000, 2000):
        t = median_ms(lambda: legendre.leggauss(n), runs=3 if n > 100 else 5)
        print(f"gauss   leggauss              n={n:<5d}          {t:9.2f} ms")
    n = 1024
    nodes, weights = legendre.leggauss(n)
    scale = (2 * np.arange(n) + 1) / 2
    for K in (1, 64):
        f = np.ones((n, K))
        t = median_ms(lambda: scale[:, None] * (legendre.legvander(nodes, n - 1).T @ (weights[:, None] * f)))
        print(f"project legvander.T @ (w f)   n=1024 K={K:<3d}      {t:9.2f} ms")
    M = 2**20
    x = -1 + 2 * (np.arange(M) + 0.5) / M
    y = np.sin(3 * x)
    t = median_ms(lambda: legendre.legfit(x, y, N - 1), runs=3)
    print(f"fit     legfit                M=2^20 N=32       {t:9.2f} ms")


if __name__ == "__main__":
    main()
