#!/usr/bin/python3
"""numpy.polynomial doing what perf_uses.cpp times, on the same shapes, for the
side-by-side in docs/using-v.md: legval (series, K = 1), legvander @ C
(K = 8, 64), leggauss (n = 100, 1000, 2000), projection through leggauss, and
legfit (weighted least squares). Double precision (numpy.polynomial has no
other); median of 5 runs (3 for the slow ones), in ms.

Usage: perf_tests/numpy_uses.py   (with numpy; prints one line per case)
"""
import json
import os
import subprocess
import sys
import tempfile
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


def recur_perf(binary, pattern, min_time):
    """recur_perf's benchmarks matching `pattern`, from its JSON (for the
    side-by-side scripts)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "recur.json")
        run = subprocess.run([binary, f"--benchmark_filter={pattern}", f"--benchmark_min_time={min_time}",
                              f"--benchmark_out={out}", "--benchmark_out_format=json"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{binary} failed ({run.returncode}):\n{run.stderr[-2000:]}")
        with open(out) as f:
            return json.load(f)["benchmarks"]


def cases():
    """Yields (key, label, ms) for every case: key ("series", K), ("gauss", n),
    ("project", K) or ("fit", None); for K = 1 two series cases (legval first)."""
    M, N = 2**18, 32
    x = -1 + 2 * (np.arange(M) + 0.5) / M
    for K in (1, 8, 64):
        C = np.full((N, K), 1.0 / N)
        if K == 1:
            t = median_ms(lambda: legendre.legval(x, C[:, 0]))
            yield ("series", K), "series  legval                M=2^18 N=32 K=1  ", t
        t = median_ms(lambda: legendre.legvander(x, N - 1) @ C)
        yield ("series", K), f"series  legvander @ C         M=2^18 N=32 K={K:<3d}", t
    for n in (100, 1000, 2000):
        t = median_ms(lambda: legendre.leggauss(n), runs=3 if n > 100 else 5)
        yield ("gauss", n), f"gauss   leggauss              n={n:<5d}         ", t
    n = 1024
    nodes, weights = legendre.leggauss(n)
    scale = (2 * np.arange(n) + 1) / 2
    for K in (1, 64):
        f = np.ones((n, K))
        t = median_ms(lambda: scale[:, None] * (legendre.legvander(nodes, n - 1).T @ (weights[:, None] * f)))
        yield ("project", K), f"project legvander.T @ (w f)   n=1024 K={K:<3d}     ", t
    M = 2**20
    x = -1 + 2 * (np.arange(M) + 0.5) / M
    y = np.sin(3 * x)
    t = median_ms(lambda: legendre.legfit(x, y, N - 1), runs=3)
    yield ("fit", None), "fit     legfit                M=2^20 N=32      ", t


def main():
    print(f"numpy {np.__version__}")
    for _, label, t in cases():
        print(f"{label} {t:9.2f} ms")


if __name__ == "__main__":
    main()
