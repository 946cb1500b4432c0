#!/usr/bin/python3
"""Multivariate product bases, recur beside OpenTURNS in one run: recur_perf's
basis entries (HermiteENormalized in each of d = 5 dimensions, total degree
p = 4, P = 126 functions; the same-process fill of Psi's bytes as the
ceiling) and OpenTURNS' design matrix for the same basis
(OrthogonalProductPolynomialFactory of HermiteFactory, LinearEnumerateFunction:
the functions evaluated one at a time over the sample, as OpenTURNS does),
in GB/s: recur's of Psi written and X read (M (P + d) values), OpenTURNS' of
its M x P float64 output alone; and recur's series on the same basis (K = 1),
which never stores Psi.

Usage: perf_tests/basis_side_by_side.py [path/to/recur_perf] [--space OpenMP]
       [--openturns-log2m 16]
       (default build/openmp/perf_tests/recur_perf; set OMP_NUM_THREADS,
       OMP_PROC_BIND=spread, OMP_PLACES=threads as for the suite)
"""
import argparse
import time

import numpy as np
from numpy_uses import recur_perf  # this directory


def openturns_gbps(log2m, d=5, p=4):
    import openturns as ot
    enumerate_function = ot.LinearEnumerateFunction(d)
    factory = ot.OrthogonalProductPolynomialFactory([ot.HermiteFactory()] * d, enumerate_function)
    P = enumerate_function.getStrataCumulatedCardinal(p)
    functions = [factory.build(j) for j in range(P)]
    x = ot.Sample(np.random.default_rng(1).standard_normal((2**log2m, d)))
    times = []
    for _ in range(3):
        start = time.perf_counter()
        psi = np.column_stack([np.asarray(f(x)).ravel() for f in functions])
        times.append(time.perf_counter() - start)
    seconds = sorted(times)[1]
    return ot.__version__, P, psi.nbytes / seconds / 1e9, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default="build/openmp/perf_tests/recur_perf")
    parser.add_argument("--space", default="OpenMP")
    parser.add_argument("--openturns-log2m", type=int, default=16)
    args = parser.parse_args()
    print("| library | case | M | ms | GB/s | of the fill |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for b in recur_perf(args.binary, f"basis(-series)?/{args.space}/", 0.5):
        name = b["name"].replace("/manual_time", "")
        ms = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6
        log2m = name.split("log2M:")[1].split("/")[0]
        if name.startswith("basis-series"):
            print(f"| recur | {name.split('/')[2]}, series K = 1 (Psi C, no Psi stored) | "
                  f"2^{log2m} | {ms:.1f} | | |")
        else:
            print(f"| recur | {'/'.join(name.split('/')[2:4])} | 2^{log2m} | {ms:.1f} | "
                  f"{b['GBps']:.2f} | {b['of_fill']:.2f} |")
    version, P, gbps, seconds = openturns_gbps(args.openturns_log2m)
    print(f"| OpenTURNS {version} | double, one function at a time (P = {P}) | "
          f"2^{args.openturns_log2m} | {seconds * 1e3:.1f} | {gbps:.3f} | |")


if __name__ == "__main__":
    main()
