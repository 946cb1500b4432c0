#!/usr/bin/env python3
"""recur's Python package timed beside what Python users have, in one process:

  - the call overhead: recur.vander for M = 1, N = 32 (and with out=);
  - recur.polynomial.hermevander(x, 31) against numpy's, M = 2^20 (CPU
    builds; x float64 and float32);
  - on a CUDA build, with PyTorch and/or CuPy arrays: recur.vander of
    He_n/sqrt(n!), M = 2^24, N = 32, float32, both orders, against
    torch.special.hermite_polynomial_he(x[:, None], n[None, :]) / sqrt(n!)
    (the route of ../shared/anchors/gpu_anchors.py), and the GB/s of V's and
    x's bytes;
  - each recur.vander beside the same call made from C++ in a loop
    (_recur.time_vander: no Python between calls).

Usage: PYTHONPATH=<build>/python python3 perf_tests/python_perf.py [--json FILE]
Each figure is the median of repeated runs; GPU runs are fenced (recur
returns finished data) and timed by the wall clock around the call.
"""

import argparse
import json
import math
import statistics
import sys
import time

import numpy as np

import recur
from recur import _recur
from recur import polynomial as P


def median_seconds(fn, repeat, number=1, warm=2, sync=None):
    for _ in range(warm):
        fn()
    if sync:
        sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        if sync:
            sync()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="write the figures to this file too")
    parser.add_argument("--log2m", type=int, default=None, help="log2 of M for the big runs")
    args = parser.parse_args()
    info = recur.info()
    print("recur %s, backend %s, Python %s, NumPy %s" % (
        info["version"], info["backend"], sys.version.split()[0], np.__version__))
    results = {"backend": info["backend"]}
    family = recur.HermiteENormalized()

    x1 = np.array([0.3])
    out1 = np.empty((1, 32))
    gpu = info["backend"] == "Cuda"
    results["overhead_us"] = median_seconds(lambda: recur.vander(family, x1, 32), 7, 2000) * 1e6
    results["overhead_out_us"] = median_seconds(
        lambda: recur.vander(family, x1, 32, out=out1), 7, 2000) * 1e6
    results["numpy_hermevander_M1_us"] = median_seconds(
        lambda: np.polynomial.hermite_e.hermevander(x1, 31), 7, 2000) * 1e6
    print("call overhead, M = 1, N = 32: recur.vander %.1f us (out= %.1f us); numpy's "
          "hermevander %.1f us" % (results["overhead_us"], results["overhead_out_us"],
                                  results["numpy_hermevander_M1_us"]))

    if not gpu:
        M = 2 ** (args.log2m or 20)
        rng = np.random.default_rng(0)
        x = rng.uniform(-3, 3, M)
        V = recur.vander(family, x, 32)
        python = median_seconds(lambda: recur.vander(family, x, 32, out=V), 9)
        native = _recur.time_vander(family._choice, x, V, False, 9)
        results["vander_python_ms"], results["vander_cpp_ms"] = python * 1e3, native * 1e3
        print("recur.vander, M = 2^%d, N = 32, float64: %.2f ms from Python, %.2f ms the same "
              "call from C++ (%.3f)" % (int(math.log2(M)), python * 1e3, native * 1e3,
                                        native / python))
        for dtype in (np.float64, np.float32):
            x = rng.uniform(-3, 3, M).astype(dtype)
            ours = median_seconds(lambda: P.hermevander(x, 31), 5)
            theirs = median_seconds(lambda: np.polynomial.hermite_e.hermevander(x, 31), 5)
            name = np.dtype(dtype).name
            results["hermevander_%s_ms" % name] = ours * 1e3
            results["numpy_hermevander_%s_ms" % name] = theirs * 1e3
            print("hermevander(x, 31), M = 2^%d, %s: recur.polynomial %.1f ms, numpy %.1f ms "
                  "(%.2fx)" % (int(math.log2(M)), name, ours * 1e3, theirs * 1e3, theirs / ours))
    else:
        M, N = 2 ** (args.log2m or 24), 32
        gb = (M * N + M) * 4 / 1e9
        try:
            import torch

            x = torch.rand(M, device="cuda") * 6 - 3
            sync = torch.cuda.synchronize
            for order in ("C", "F"):
                V = recur.vander(family, x, N, order=order)
                t = median_seconds(lambda: recur.vander(family, x, N, order=order, out=V), 20,
                                   sync=sync)
                native = _recur.time_vander(family._choice, x, V, False, 20)
                results["torch_%s_ms" % order] = t * 1e3
                results["cpp_%s_ms" % order] = native * 1e3
                print("recur.vander, torch float32, M = 2^%d, N = %d, order %s: %.3f ms, %.0f GB/s;"
                      " the same call from C++ %.3f ms (Python at %.3f of it)"
                      % (int(math.log2(M)), N, order, t * 1e3, gb / t, native * 1e3, native / t))
                del V
            n = torch.arange(N, device="cuda", dtype=torch.float32)
            norms = torch.tensor([math.sqrt(math.factorial(k)) for k in range(N)],
                                 device="cuda", dtype=torch.float32)
            route = lambda: torch.special.hermite_polynomial_he(x[:, None], n[None, :]) / norms
            t = median_seconds(route, 5, sync=sync)
            results["torch_special_ms"] = t * 1e3
            print("torch.special.hermite_polynomial_he / sqrt(n!), same shape: %.3f ms "
                  "(recur %.1fx faster)" % (t * 1e3, t / (results["torch_C_ms"] / 1e3)))
            # the result is the same
            V = recur.vander(family, x[:4096], N)
            err = ((V - route()[:4096]).abs() / route()[:4096].abs().clamp(min=1)).max().item()
            print("  largest difference to torch's (relative, |value| >= 1): %.2e" % err)
            del x
            torch.cuda.empty_cache()
        except ImportError:
            print("no PyTorch")
        try:
            import cupy

            x = cupy.random.uniform(-3, 3, M, dtype=cupy.float32)
            V = recur.vander(family, x, N)
            t = median_seconds(lambda: recur.vander(family, x, N, out=V), 20,
                               sync=cupy.cuda.runtime.deviceSynchronize)
            results["cupy_C_ms"] = t * 1e3
            print("recur.vander, CuPy float32, M = 2^%d, N = %d, order C: %.3f ms, %.0f GB/s" % (
                int(math.log2(M)), N, t * 1e3, gb / t))
        except ImportError:
            print("no CuPy")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
