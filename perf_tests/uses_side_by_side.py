#!/usr/bin/python3
"""What users do with V, recur beside numpy.polynomial in one run: recur_perf's
series, gauss, project and fit entries (double, Legendre, the default
execution space's backend) and numpy_uses.py's cases on the same shapes, one
after the other, with the ratio numpy's time / recur's (above 1: recur is
faster). numpy's BLAS threads as the environment sets them (OPENBLAS_NUM_THREADS).

Usage: perf_tests/uses_side_by_side.py [path/to/recur_perf] [--space OpenMP]
       (default build/openmp/perf_tests/recur_perf; set OMP_NUM_THREADS,
       OMP_PROC_BIND=spread, OMP_PLACES=threads as for the suite)
"""
import argparse
import re

import numpy as np
from numpy_uses import cases, recur_perf  # this directory


def recur_times(binary, space):
    """{(kind, argument, variant): ms} of the double Legendre entries."""
    pattern = f"(series|project|fit)/{space}/double/Legendre/|gauss/{space}/Legendre/"
    benchmarks = recur_perf(binary, pattern, 0.2)
    times = {}
    for b in benchmarks:
        name = b["name"].replace("/manual_time", "")
        kind = name.split("/")[0]
        args = dict(re.findall(r"([A-Za-z0-9]+):(\d+)", name))
        ms = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6
        if kind == "series":
            times[("series", int(args["K"]), name.split("/")[4])] = ms
        elif kind == "gauss":
            times[("gauss", int(args["n"]), "Accurate")] = ms
        elif kind == "project":
            times[("project", int(args["K"]), "Accurate")] = ms
        else:
            times[("fit", None, "Accurate")] = ms
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default="build/openmp/perf_tests/recur_perf")
    parser.add_argument("--space", default="OpenMP")
    args = parser.parse_args()
    recur = recur_times(args.binary, args.space)
    numpy = {}
    for key, label, t in cases():
        numpy.setdefault(key, (label.strip(), t))  # series K = 1: legval
    print(f"numpy {np.__version__}, recur_perf {args.binary} ({args.space}); ratio = numpy / recur")
    print("| case | recur variant | recur (ms) | numpy | numpy (ms) | ratio |")
    print("| --- | --- | ---: | --- | ---: | ---: |")
    for (kind, arg, variant), ms in sorted(recur.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0, kv[0][2])):
        label, t = numpy.get((kind, arg), ("—", float("nan")))
        shape = f"{kind} {'' if arg is None else ('K' if kind in ('series', 'project') else 'n') + ' = ' + str(arg)}"
        print(f"| {shape} | {variant} | {ms:.2f} | {' '.join(label.split())} | {t:.2f} | {t / ms:.2f} |")


if __name__ == "__main__":
    main()
