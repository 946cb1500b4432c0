#!/usr/bin/python3
"""recur on CPUs beside NumPy and the seed's numba kernel, in one run: double He_n,
He_n/sqrt(n!) and P_n for M = 2^20 x, N = 32 terms.

- recur: recur_perf's entries evaluate/OpenMP/double/<layout>/<family>/{Auto,Auto-Fast}
  (Accurate: double-double; Fast: plain double), median time, all OpenMP threads.
- NumPy (one thread): hermevander(x, 31), hermevander(x, 31) / sqrt(n!), legvander(x, 31).
- numba guvectorize (target 'parallel', all cores), He_n/sqrt(n!) by its stable
  recurrence: the seed's approach; skipped when numba is missing.
Every case writes the same M x N doubles; "ratio" is the peer's time over recur's
(above 1: recur is faster).

Usage: perf_tests/cpu_side_by_side.py [path/to/recur_perf]
       (default build/openmp/perf_tests/recur_perf; set OMP_NUM_THREADS,
       OMP_PROC_BIND=spread, OMP_PLACES=threads as for the suite)
"""
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one NumPy thread, as quoted
import numpy as np  # noqa: E402
from numpy.polynomial import hermite_e, legendre  # noqa: E402
from numpy_uses import median_ms, recur_perf  # noqa: E402  (this directory)

M, N = 2**20, 32


def recur_times(binary):
    """{(layout, family, precision): ms} from recur_perf's JSON."""
    pattern = "evaluate/OpenMP/double/.*/(HermiteE|HermiteENormalized|Legendre)/(Auto|Auto-Fast)/log2M:20/N:32/"
    benchmarks = recur_perf(binary, pattern, 0.3)
    times = {}
    for b in benchmarks:
        parts = b["name"].split("/")  # evaluate/OpenMP/double/<layout>/<family>/<policy>/...
        precision = "Fast" if parts[5] == "Auto-Fast" else "Accurate"
        times[(parts[3], parts[4], precision)] = b["real_time"]
    return times


def numba_hermite_normalized(x):
    try:
        from numba import guvectorize
    except ImportError:
        return None

    @guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="parallel")
    def hermite_norm(inp, out):
        v = inp[0]
        a, b = 1.0, v
        out[0] = a
        if out.shape[0] > 1:
            out[1] = b
        for n in range(2, out.shape[0]):
            c = (v * b - math.sqrt(n - 1.0) * a) / math.sqrt(float(n))
            out[n] = c
            a, b = b, c

    buf = np.empty((M, N))
    buf[:, 0] = x
    return median_ms(lambda: hermite_norm(buf, buf))


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/openmp/perf_tests/recur_perf"
    recur = recur_times(binary)
    x = -1 + 2 * np.arange(M) / M  # the suite's x
    scale = 1 / np.sqrt([float(math.factorial(n)) for n in range(N)])
    peers = {
        "HermiteE": ("NumPy hermevander, 1 thread",
                     median_ms(lambda: hermite_e.hermevander(x, N - 1))),
        "HermiteENormalized": ("NumPy hermevander / sqrt(n!), 1 thread",
                               median_ms(lambda: hermite_e.hermevander(x, N - 1) * scale)),
        "Legendre": ("NumPy legvander, 1 thread", median_ms(lambda: legendre.legvander(x, N - 1))),
    }
    seed = numba_hermite_normalized(x)
    print(f"M = 2^20, N = 32, double; numpy {np.__version__}; "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    print(f"{'recur':44s} {'ms':>8s}   {'peer':40s} {'ms':>8s} {'ratio':>6s}")
    for (layout, family, precision), ms in sorted(recur.items()):
        rows = [peers[family]]
        if family == "HermiteENormalized" and seed is not None:
            rows.append(("numba guvectorize (the seed), all cores", seed))
        for name, peer in rows:
            print(f"{family + ' ' + layout + ' ' + precision:44s} {ms:8.2f}   {name:40s} "
                  f"{peer:8.2f} {peer / ms:6.2f}")


if __name__ == "__main__":
    main()
