#!/usr/bin/env python3
"""Tests of the `recur` command, driven from NumPy.

    python3 test_cli.py --recur build/openmp/recur [unittest options]

Checks that files NumPy writes are read (every header version, byte order,
memory order, float32/float64), that files recur writes load in NumPy
unchanged and hold values computed here independently (numpy.polynomial),
that streaming in chunks changes no bit, and that every bad input ends with
its exit status, one line on stderr that matches the expected message, and no
output written. Exits 77 (ctest's skip) when NumPy is missing.
"""

import argparse
import glob
import math
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

try:
    import numpy as np
    from numpy.lib import format as npformat
except ImportError:
    print("numpy is not installed for", sys.executable, "- skipping the CLI tests")
    sys.exit(77)

try:
    import openturns as ot
except ImportError:
    ot = None

try:
    import scipy.special as special
except ImportError:
    special = None

RECUR = None
ENV = dict(os.environ, OMP_PROC_BIND="false", OMP_NUM_THREADS="2")


def run(*args, preexec_fn=None):
    result = subprocess.run([RECUR] + [str(a) for a in args], capture_output=True, text=True,
                            env=ENV, preexec_fn=preexec_fn, timeout=600)
    return result.returncode, result.stdout, result.stderr


def contents(path):
    with open(path, "rb") as f:
        return f.read()


def save(path, array, version=None):
    with open(path, "wb") as f:
        npformat.write_array(f, array, version=version)


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="recur-cli-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def eval_ok(self, *args):
        rc, out, err = run("eval", *args)
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        return rc

    def assert_fails(self, rc_expected, pattern, *args, out=None, preexec_fn=None):
        """The command fails with rc_expected, one stderr line matching
        pattern, and leaves no output and no temporary file behind."""
        before = sorted(os.listdir(self.dir))
        old = contents(out) if out and os.path.isfile(out) else None
        was_folder = out is not None and os.path.isdir(out)
        rc, stdout, err = run(*args, preexec_fn=preexec_fn)
        self.assertEqual(rc, rc_expected, f"stderr: {err!r}")
        self.assertEqual(len(err.splitlines()), 1, f"stderr is not one line: {err!r}")
        self.assertRegex(err, pattern)
        self.assertEqual(sorted(os.listdir(self.dir)), before, "files were left behind")
        if out is not None:
            if was_folder:
                self.assertTrue(os.path.isdir(out))
            elif old is None:
                self.assertFalse(os.path.exists(out))
            else:
                self.assertEqual(contents(out), old, "the old output changed")
        return err


def power_sums(x, N):
    return np.cumsum(x[:, None] ** np.arange(1, N + 1), axis=1)


class ReadsWhatNumpyWrites(Case):
    def test_versions_orders_byte_orders_dtypes(self):
        x = np.linspace(-1.5, 2.5, 17)
        for dtype in ("<f4", ">f4", "<f8", ">f8"):
            for version in ((1, 0), (2, 0), (3, 0)):
                for shape in ((17,), (17, 1), (1, 17)):
                    for order in ("C", "F"):
                        with self.subTest(dtype=dtype, version=version, shape=shape, order=order):
                            array = np.asarray(x.reshape(shape), dtype=dtype, order=order)
                            save(self.path("x.npy"), array, version)
                            self.eval_ok("--family", "monomials", "--n", 3, "--x", self.path("x.npy"),
                                         "--out", self.path("V.npy"))
                            V = np.load(self.path("V.npy"))
                            self.assertEqual(V.dtype, np.dtype(dtype).newbyteorder("="))
                            self.assertEqual(V.shape, (17, 3))
                            xs = x.astype(dtype)
                            np.testing.assert_array_equal(V[:, 1], xs)
                            np.testing.assert_array_equal(V[:, 0], 1)

    def test_text_input(self):
        x = np.array([-1.25, 0.0, 0.5, 3.0, 1e-3])
        with open(self.path("x.txt"), "w") as f:
            f.write("# x values\n-1.25\n\n0\n  0.5 \n3e0\n1e-3\n")
        np.save(self.path("x.npy"), x)
        self.eval_ok("--family", "legendre", "--n", 6, "--x", self.path("x.txt"), "--out", self.path("a.npy"))
        self.eval_ok("--family", "legendre", "--n", 6, "--x", self.path("x.npy"), "--out", self.path("b.npy"))
        self.assertEqual(contents(self.path("a.npy")), contents(self.path("b.npy")))
        self.assertEqual(np.load(self.path("a.npy")).dtype, np.float64)

    def test_empty_array_gives_empty_output(self):
        np.save(self.path("x.npy"), np.zeros(0))
        self.eval_ok("--family", "hermite", "--n", 4, "--x", self.path("x.npy"), "--out", self.path("V.npy"))
        self.assertEqual(np.load(self.path("V.npy")).shape, (0, 4))


class ValuesMatchNumpy(Case):
    x = np.concatenate([np.linspace(-1, 1, 41), np.linspace(-3, 3, 13)])

    def compare(self, family, N, reference, rtol, extra=(), dtype="float64", x=None):
        x = self.x if x is None else x
        np.save(self.path("x.npy"), x)
        self.eval_ok("--family", family, "--n", N, "--x", self.path("x.npy"), "--out", self.path("V.npy"),
                     "--dtype", dtype, *extra)
        V = np.load(self.path("V.npy"))
        self.assertEqual(V.dtype, np.dtype(dtype))
        ref = reference(np.asarray(x, dtype=np.float64), N)  # x at its own precision
        scale = np.maximum(1.0, np.abs(ref))
        self.assertLess(np.max(np.abs(V - ref) / scale), rtol, family)

    def test_families(self):
        P = np.polynomial
        cases = {
            "power_sums": power_sums,
            "monomials": lambda x, N: P.polynomial.polyvander(x, N - 1),
            "hermite_e": lambda x, N: P.hermite_e.hermevander(x, N - 1),
            "hermite_e_normalized": lambda x, N: P.hermite_e.hermevander(x, N - 1)
            / np.sqrt([math.factorial(n) for n in range(N)]),
            "hermite": lambda x, N: P.hermite.hermvander(x, N - 1),
            "legendre": lambda x, N: P.legendre.legvander(x, N - 1),
            "legendre_normalized": lambda x, N: P.legendre.legvander(x, N - 1) * np.sqrt(2 * np.arange(N) + 1),
            "chebyshev_t": lambda x, N: P.chebyshev.chebvander(x, N - 1),
            "laguerre": lambda x, N: P.laguerre.lagvander(x, N - 1),
        }
        for family, reference in cases.items():
            for dtype, rtol in (("float64", 1e-12), ("float32", 2e-6)):
                with self.subTest(family=family, dtype=dtype):
                    self.compare(family, 12, reference, rtol, dtype=dtype)

    @unittest.skipIf(special is None, "scipy is not installed")
    def test_parameterized_families(self):
        n = np.arange(10)
        self.compare("jacobi", 10, lambda x, N: special.eval_jacobi(n, 0.5, -0.25, x[:, None]), 1e-12,
                     extra=("--alpha", 0.5, "--beta", -0.25))
        self.compare("gegenbauer", 10, lambda x, N: special.eval_gegenbauer(n, 1.5, x[:, None]), 1e-12,
                     extra=("--lambda", 1.5))
        self.compare("laguerre", 10, lambda x, N: special.eval_genlaguerre(n, 2.0, x[:, None]), 1e-12,
                     extra=("--alpha", 2))
        self.compare("chebyshev_u", 10, lambda x, N: special.eval_chebyu(n, x[:, None]), 1e-12)

    def test_derivative(self):
        np.save(self.path("x.npy"), self.x)
        self.eval_ok("--family", "hermite_e", "--n", 9, "--x", self.path("x.npy"), "--out", self.path("V.npy"),
                     "--derivative", self.path("dV.npy"))
        V, dV = np.load(self.path("V.npy")), np.load(self.path("dV.npy"))
        # He_n' = n He_{n-1}
        ref = np.zeros_like(V)
        ref[:, 1:] = V[:, :-1] * np.arange(1, 9)
        np.testing.assert_allclose(dV, ref, rtol=1e-13, atol=1e-13)

    def test_layouts_and_chunks(self):
        for rows, chunks in ((1001, (7, 1000, 5000)), (23, (1, 22))):
            with self.subTest(rows=rows):
                self.check_layouts_and_chunks(rows, chunks)

    def check_layouts_and_chunks(self, rows, chunks):
        x = np.random.default_rng(6).uniform(-1.2, 1.2, rows)
        np.save(self.path("x.npy"), x)
        for dtype in ("float32", "float64"):
            files = {}
            for layout in ("row", "col"):
                for chunk in (None,) + chunks:
                    name = f"V_{layout}_{chunk}.npy"
                    extra = [] if chunk is None else ["--chunk", chunk]
                    self.eval_ok("--family", "legendre_normalized", "--n", 37, "--x", self.path("x.npy"),
                                 "--out", self.path(name), "--layout", layout, "--dtype", dtype,
                                 "--derivative", self.path("d" + name), *extra)
                    files[layout, chunk] = name
            for (layout, chunk), name in files.items():
                with self.subTest(dtype=dtype, layout=layout, chunk=chunk):
                    # Streaming changes no bit of the file.
                    for prefix in ("", "d"):
                        self.assertEqual(contents(self.path(prefix + name)),
                                         contents(self.path(prefix + files[layout, None])))
                    V = np.load(self.path(name))
                    self.assertEqual(np.isfortran(V), layout == "col")
                    np.testing.assert_array_equal(V, np.load(self.path(files["row", None])))

    def test_policies_agree(self):
        np.save(self.path("x.npy"), self.x)
        for policy in ("auto", "thread", "staged", "scan"):
            with self.subTest(policy=policy):
                self.eval_ok("--family", "chebyshev_t", "--n", 20, "--x", self.path("x.npy"),
                             "--out", self.path("V.npy"), "--policy", policy)
                np.testing.assert_allclose(np.load(self.path("V.npy")),
                                           np.polynomial.chebyshev.chebvander(self.x, 19), atol=1e-13)

    def test_precision_fast(self):
        # fast computes in the output's own type: it differs from accurate in the last
        # bits, within 4 N^2 eps of the row's scale (the rounding growth near x = +-1).
        x = np.linspace(-1, 1, 101)
        np.save(self.path("x.npy"), x)
        N = 200
        for dtype in ("float64", "float32"):
            for precision in ("accurate", "fast"):
                self.eval_ok("--family", "legendre_normalized", "--n", N, "--x", self.path("x.npy"),
                             "--out", self.path(precision + ".npy"), "--dtype", dtype,
                             "--precision", precision, "--derivative", self.path("d" + precision + ".npy"))
            with self.subTest(dtype=dtype):
                accurate, fast = np.load(self.path("accurate.npy")), np.load(self.path("fast.npy"))
                self.assertEqual(fast.dtype, np.dtype(dtype))
                self.assertGreater(np.count_nonzero(fast != accurate), 100)
                bound = 4 * N ** 2 * np.finfo(dtype).eps
                np.testing.assert_allclose(fast, accurate, rtol=0, atol=bound * np.abs(accurate).max())
                dfast, daccurate = np.load(self.path("dfast.npy")), np.load(self.path("daccurate.npy"))
                np.testing.assert_allclose(dfast, daccurate, rtol=0, atol=N * bound * np.abs(daccurate).max())

    def test_nan_and_inf_are_data(self):
        x = np.array([0.5, -0.25, np.nan, 1.0, np.inf, 0.75])
        np.save(self.path("x.npy"), x)
        rc, _, err = run("eval", "--family", "hermite_e", "--n", 5, "--x", self.path("x.npy"),
                         "--out", self.path("V.npy"))
        self.assertEqual(rc, 0)
        self.assertEqual(err, "recur: warning: x holds 1 NaN and 1 infinite values of 6 (the first at row 2); "
                              "their rows are NaN\n")
        V = np.load(self.path("V.npy"))
        self.assertTrue(np.all(np.isnan(V[[2, 4]])))
        finite = [0, 1, 3, 5]
        np.testing.assert_allclose(V[finite], np.polynomial.hermite_e.hermevander(x[finite], 4), rtol=1e-15)

    def test_strict_refuses_nan(self):
        np.save(self.path("x.npy"), np.array([0.5, np.nan]))
        self.assert_fails(1, r"^recur eval: error: x holds 1 NaN and 0 infinite values of 2 \(the first at row 1\); "
                             r"--strict refuses them", "eval", "--family", "legendre", "--n", 3,
                          "--x", self.path("x.npy"), "--out", self.path("V.npy"), "--strict",
                          out=self.path("V.npy"))


class Edges(Case):
    def test_values_beyond_the_range_are_inf_never_nan(self):
        # P_n(1.3) passes float's range at n = 122 and double's beyond n = 900.
        np.save(self.path("x.npy"), np.array([1.3, -1.3, 0.5]))
        for family in ("legendre", "chebyshev_t", "jacobi"):
            for dtype in ("float32", "float64"):
                with self.subTest(family=family, dtype=dtype):
                    self.eval_ok("--family", family, "--n", 1000, "--x", self.path("x.npy"),
                                 "--out", self.path("V.npy"), "--dtype", dtype)
                    V = np.load(self.path("V.npy"))
                    self.assertFalse(np.any(np.isnan(V)))
                    self.assertTrue(np.all(V[0, 990:] == np.inf))
                    self.assertTrue(np.all(np.isinf(V[1, 990:])))
                    self.assertTrue(np.all(np.sign(V[1, 990:]) == (-1.0) ** np.arange(990, 1000)))
                    self.assertTrue(np.all(np.isfinite(V[2])))
                    # Finite, then inf from the first value beyond the range on.
                    k = int(np.argmax(np.isinf(V[0])))
                    self.assertTrue(np.all(np.isfinite(V[0, :k])) and np.all(np.isinf(V[0, k:])))
                    self.assertGreater(float(V[0, k - 1]) * 2.2, float(np.finfo(dtype).max))

    def test_float_results_of_double_x_are_rounded_once_and_chunks_change_no_bit(self):
        # float32(T_1999(0.999999)) = -0.95093; T_1999(float32(0.999999)) would be -0.95655.
        x = np.concatenate([[0.999999], np.random.default_rng(3).uniform(-1.5, 1.5, 399)])
        np.save(self.path("x.npy"), x)
        for family in ("chebyshev_t", "power_sums"):
            files = []
            for chunk in (None, 1, 3, 64):
                name = self.path("V%s.npy" % chunk)
                extra = [] if chunk is None else ["--chunk", chunk]
                self.eval_ok("--family", family, "--n", 2000, "--x", self.path("x.npy"), "--out", name,
                             "--dtype", "float32", *extra)
                files.append(name)
            for name in files[1:]:
                with self.subTest(family=family, file=name):
                    self.assertEqual(contents(name), contents(files[0]))
            if family == "chebyshev_t":
                self.assertAlmostEqual(float(np.load(files[0])[0, 1999]), math.cos(1999 * math.acos(0.999999)),
                                       delta=2e-6)


class Gauss(Case):
    def test_matches_numpy(self):
        P = np.polynomial
        for family, rule in (("legendre", P.legendre.leggauss), ("hermite", P.hermite.hermgauss),
                             ("hermite_e", P.hermite_e.hermegauss), ("laguerre", P.laguerre.laggauss),
                             ("hermite_e_normalized", P.hermite_e.hermegauss)):
            for n in (1, 2, 5, 12):
                with self.subTest(family=family, n=n):
                    rc, _, err = run("gauss", "--family", family, "--n", n, "--out", self.path("g.npy"))
                    self.assertEqual(rc, 0, err)
                    g = np.load(self.path("g.npy"))
                    self.assertEqual(g.shape, (n, 2))
                    nodes, weights = rule(n)
                    np.testing.assert_allclose(g[:, 0], nodes, rtol=1e-13, atol=1e-14)
                    np.testing.assert_allclose(g[:, 1], weights, rtol=1e-12)

    def test_gegenbauer_at_lambda_0_is_the_chebyshev_rule(self):
        # (1 - x^2)^(-1/2), the weight of Gegenbauer at lambda = 0 and of Chebyshev T.
        for family in ("gegenbauer", "gegenbauer_normalized"):
            with self.subTest(family=family):
                rc, _, err = run("gauss", "--family", family, "--lambda", 0, "--n", 7, "--out", self.path("g.npy"))
                self.assertEqual(rc, 0, err)
                g = np.load(self.path("g.npy"))
                nodes, weights = np.polynomial.chebyshev.chebgauss(7)
                np.testing.assert_allclose(g[:, 0], np.sort(nodes), rtol=1e-14, atol=1e-15)
                np.testing.assert_allclose(g[:, 1], weights, rtol=1e-14)

    def test_float32(self):
        rc, _, err = run("gauss", "--family", "chebyshev_t", "--n", 4, "--out", self.path("g.npy"),
                         "--dtype", "float32")
        self.assertEqual(rc, 0, err)
        g = np.load(self.path("g.npy"))
        self.assertEqual(g.dtype, np.float32)
        nodes, weights = np.polynomial.chebyshev.chebgauss(4)
        np.testing.assert_allclose(g[:, 0], np.sort(nodes), rtol=1e-6, atol=1e-7)


class Usage(Case):
    def test_help_on_every_command(self):
        for command in ("eval", "gauss", "basis", "info"):
            rc, out, err = run(command, "--help")
            self.assertEqual(rc, 0)
            self.assertTrue(out.startswith("usage: recur " + command), out)
            self.assertEqual(err, "")
        rc, out, _ = run("--help")
        self.assertEqual(rc, 0)
        self.assertIn("recur eval", out)
        self.assertIn("recur basis", out)
        rc, _, err = run()
        self.assertEqual(rc, 2)
        self.assertIn("usage:", err)

    def on_a_terminal(self, args, delay):
        # Runs the command with stderr on a pseudo-terminal; returns what it drew.
        import pty
        master, slave = pty.openpty()
        env = dict(ENV, RECUR_PROGRESS_DELAY=delay)
        process = subprocess.Popen(args, env=env, stderr=slave, stdout=subprocess.DEVNULL)
        os.close(slave)
        drawn = b""
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not data:
                break
            drawn += data
        os.close(master)
        self.assertEqual(process.wait(timeout=600), 0, drawn)
        return drawn.decode()

    def test_progress_bar_on_a_terminal(self):
        # With stderr on a terminal (a pseudo-terminal here) a run longer than
        # the delay (RECUR_PROGRESS_DELAY, 0 here, so that fast machines draw
        # too) draws a bar with percentage, rate and ETA, and ends it with the
        # total time; the output is the same as without the bar. With a delay
        # longer than the run nothing is drawn.
        x, out = self.path("x.npy"), self.path("V.npy")
        np.save(x, np.linspace(-1, 1, 200000))
        args = [RECUR, "eval", "--family", "legendre", "--n", "64", "--x", x, "--chunk", "25"]
        text = self.on_a_terminal(args + ["--out", out], "0")
        self.assertRegex(text, r"\r *\d+% \[#* *\] [\d.]+ [kMGT]?B/s, ETA \d+:\d\d")
        self.assertRegex(text, r"\r100% \[#{30}\] [\d.]+ [kMGT]?B/s, \d+:\d\d +\r?\n$")
        self.eval_ok("--family", "legendre", "--n", 64, "--x", x, "--out", self.path("quiet.npy"))
        self.assertEqual(contents(out), contents(self.path("quiet.npy")))
        self.assertEqual(self.on_a_terminal(args + ["--out", self.path("late.npy")], "3600"), "")

    def test_info(self):
        rc, out, err = run("info")
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"^recur \d+\.\d+\.\d+ on Kokkos \d+\.\d+\.\d+, default execution space \w+, enabled:")
        self.assertRegex(out, r"memory [\d.]+ GiB total")
        self.assertIn("Kokkos Version", out)
        # OpenBLAS describes itself (loaded for the description where no product has).
        if re.search(r"products by host BLAS \S*libopenblas", out):
            self.assertRegex(out, r"products by host BLAS \S*libopenblas\S* \(OpenBLAS \d")

    def test_kokkos_thread_option_either_spelling(self):
        # Kokkos 3.7 renamed --kokkos-threads to --kokkos-num-threads; both
        # must reach the Kokkos recur was built with.
        for option in ("--kokkos-num-threads=1", "--kokkos-threads=1"):
            rc, out, err = run("info", option)
            self.assertEqual(rc, 0, err)
            self.assertRegex(out, r"\b1 used by ", option)


class ProductBases(Case):
    """recur basis and recur eval --degree: multivariate product bases."""

    def basis(self, *args):
        out = self.path("alpha.npy")
        rc, _, err = run("basis", "--out", out, *args)
        self.assertEqual(rc, 0, err)
        table = np.load(out)
        self.assertEqual(table.dtype, np.int64)
        return table

    def psi(self, x, *args, derivative=False):
        save(self.path("xi.npy"), x)
        extra = ["--derivative", self.path("dPsi.npy")] if derivative else []
        self.eval_ok("--x", self.path("xi.npy"), "--out", self.path("Psi.npy"), *args, *extra)
        psi = np.load(self.path("Psi.npy"))
        return (psi, np.load(self.path("dPsi.npy"))) if derivative else psi

    def expect_close(self, got, want, tolerance):
        scale = np.maximum(1.0, np.abs(want))
        self.assertLess(np.max(np.abs(got - want) / scale), tolerance)

    def test_index_sets_in_their_documented_orders(self):
        self.assertEqual(self.basis("--dims", "3", "--degree", "2").tolist(), [
            [0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [2, 0, 0], [1, 1, 0], [1, 0, 1],
            [0, 2, 0], [0, 1, 1], [0, 0, 2]])
        tensor = self.basis("--dims", "2", "--degree", "1,2", "--index-set", "tensor")
        self.assertEqual(tensor.tolist(), [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]])
        hyperbolic = self.basis("--dims", "2", "--degree", "4", "--index-set", "hyperbolic:0.5")
        # q = 0.5, p = 4: sqrt(a) + sqrt(b) <= 2 keeps (1, 1) and no other mixed term.
        self.assertEqual(sorted(map(tuple, hyperbolic.tolist())),
                         sorted([(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1), (3, 0), (0, 3),
                                 (4, 0), (0, 4)]))

    def test_tensor_sets_equal_numpys_vander2d_and_vander3d(self):
        rng = np.random.default_rng(3)
        x = rng.uniform(-1, 1, size=(300, 3))
        he = np.polynomial.hermite_e
        leg = np.polynomial.legendre
        got = self.psi(x[:, :2], "--family", "hermite_e", "--degree", "3,5", "--index-set", "tensor")
        self.expect_close(got, he.hermevander2d(x[:, 0], x[:, 1], [3, 5]), 1e-14)
        got = self.psi(x, "--family", "legendre", "--degree", "2,4,3", "--index-set", "tensor",
                       "--layout", "col")
        self.assertTrue(np.isfortran(got))
        self.expect_close(got, leg.legvander3d(x[:, 0], x[:, 1], x[:, 2], [2, 4, 3]), 1e-14)
        got = self.psi(x, "--family", "hermite_e", "--degree", "3", "--index-set", "tensor")
        self.expect_close(got, he.hermevander3d(x[:, 0], x[:, 1], x[:, 2], [3, 3, 3]), 1e-14)
        got32 = self.psi(x.astype(np.float32), "--family", "hermite_e", "--degree", "3",
                         "--index-set", "tensor")
        self.assertEqual(got32.dtype, np.float32)
        want = he.hermevander3d(*x.astype(np.float32).astype(np.float64).T, [3, 3, 3])
        self.expect_close(got32, want, 3e-7)

    @unittest.skipIf(ot is None, "OpenTURNS is not installed")
    def test_total_degree_bases_equal_openturns(self):
        rng = np.random.default_rng(5)
        for d, p, names in [(2, 6, "HL"), (3, 6, "HLH"), (6, 4, "HLHLHL"), (4, 5, "LLLL"),
                            (6, 6, "HHHHHH")]:
            families = [ot.HermiteFactory() if c == "H" else ot.LegendreFactory() for c in names]
            x = np.column_stack([rng.standard_normal(64) if c == "H" else rng.uniform(-1, 1, 64)
                                 for c in names])
            enumerate_function = ot.LinearEnumerateFunction(d)
            factory = ot.OrthogonalProductPolynomialFactory(families, enumerate_function)
            P = enumerate_function.getStrataCumulatedCardinal(p)
            want = np.column_stack([np.array(factory.build(j)(x)).ravel() for j in range(P)])
            alpha = np.array([list(enumerate_function(j)) for j in range(P)])
            self.assertEqual(self.basis("--dims", str(d), "--degree", str(p)).tolist(),
                             alpha.tolist())
            family = ",".join("hermite_e_normalized" if c == "H" else "legendre_normalized"
                              for c in names)
            got = self.psi(x, "--family", family, "--degree", str(p))
            self.assertEqual(got.shape, (64, P))
            # 1e-13 relative to the values' scale (OpenTURNS' own rounding
            # reaches a few 1e-15 at degree 6).
            self.expect_close(got, want, 1e-13)

    def test_gradients_and_parameters(self):
        rng = np.random.default_rng(8)
        x = np.column_stack([rng.uniform(-1, 1, 50), rng.gamma(2.5, size=50)])
        lag = np.polynomial.laguerre
        # Legendre in x1, the Laguerre polynomials L_n (alpha = 0) in x2.
        psi, dpsi = self.psi(x, "--family", "legendre,laguerre:alpha=0", "--degree", "3,2",
                             "--index-set", "tensor", derivative=True)
        leg = np.polynomial.legendre
        v1, v2 = leg.legvander(x[:, 0], 3), lag.lagvander(x[:, 1], 2)
        d1 = np.column_stack([leg.legval(x[:, 0], leg.legder(np.eye(4)[n])) for n in range(4)])
        d2 = np.column_stack([lag.lagval(x[:, 1], lag.lagder(np.eye(3)[n])) for n in range(3)])
        want = np.einsum("ia,ib->iab", v1, v2).reshape(50, 12)
        want_d = np.stack([np.einsum("ia,ib->iab", d1, v2).reshape(50, 12),
                           np.einsum("ia,ib->iab", v1, d2).reshape(50, 12)], axis=2)
        self.expect_close(psi, want, 1e-14)
        self.assertEqual(dpsi.shape, (50, 12, 2))
        self.expect_close(dpsi, want_d, 1e-13)
        col_psi, col_dpsi = self.psi(x, "--family", "legendre,laguerre", "--degree", "3,2",
                                     "--index-set", "tensor", "--layout", "col", derivative=True)
        self.assertTrue(np.isfortran(col_dpsi))
        self.assertTrue(np.array_equal(col_psi, psi))
        self.assertTrue(np.array_equal(col_dpsi, dpsi))

    def test_bad_input(self):
        save(self.path("xi.npy"), np.zeros((4, 3)))
        save(self.path("cube.npy"), np.zeros((2, 2, 2)))
        xi = self.path("xi.npy")
        out = self.path("Psi.npy")
        cases = [
            (["eval", "--family", "legendre,hermite_e", "--degree", "2", "--x", xi, "--out", out], 2,
             "recur eval: error: --family lists 2 families but x has d = 3 columns; give one "
             "family for every dimension, or one per dimension"),
            (["eval", "--family", "legendre", "--degree", "-1", "--x", xi, "--out", out], 2, None),
            (["eval", "--family", "legendre", "--degree", "2", "--index-set", "hyperbolic:1.5",
              "--x", xi, "--out", out], 2,
             "recur eval: error: --index-set hyperbolic:1.5: q must be in (0, 1] (1 gives the total "
             "set)"),
            (["eval", "--family", "legendre", "--degree", "2", "--index-set", "sparse",
              "--x", xi, "--out", out], 2,
             "recur eval: error: --index-set sparse: expected total, tensor or hyperbolic:Q"),
            (["eval", "--family", "power_sums", "--degree", "2", "--x", xi, "--out", out], 2,
             "recur eval: error: power_sums is no polynomial family; a basis takes the three-term "
             "families (every family but power_sums and hermite_function)"),
            (["eval", "--family", "jacobi:gamma=1", "--degree", "2", "--x", xi, "--out", out], 2,
             "recur eval: error: --family jacobi:gamma=1: 'gamma=1' is no parameter; write "
             "NAME:alpha=A:beta=B or NAME:lambda=L"),
            (["eval", "--family", "legendre", "--degree", "2", "--n", "3", "--x", xi, "--out", out],
             2, "recur eval: error: --n and --degree exclude each other: --n N for one variable, "
             "--degree P for the samples of an (M, d) array"),
            (["eval", "--family", "legendre", "--degree", "2", "--x", self.path("cube.npy"), "--out",
              out], 1, "recur eval: error: " + self.path("cube.npy") + ": the array has shape "
             "(2, 2, 2); recur reads samples as an (M, d) array, one sample a row (or a 1-D array "
             "for d = 1)"),
            (["eval", "--family", "legendre", "--degree", "700", "--x", xi, "--out", out], 2,
             "recur eval: error: the set would hold more than 44739242 multi-indices of d = 3 (2^27 "
             "entries); lower the degree or the dimension, or use a hyperbolic set"),
            (["basis", "--dims", "0", "--degree", "2", "--out", out], 2, None),
            (["basis", "--dims", "3", "--degree", "1,2", "--index-set", "tensor", "--out", out], 2,
             "recur basis: error: --degree 1,2 gives 2 degrees for d = 3 dimensions; give one "
             "degree, or one per dimension"),
        ]
        for args, status, message in cases:
            rc, _, err = run(*args)
            self.assertEqual(rc, status, (args, err))
            self.assertEqual(len(err.splitlines()), 1, err)
            if message:
                self.assertEqual(err.strip(), message)
            self.assertFalse(os.path.exists(out), args)
        # Outside a family's domain, as with one variable: NaN, and a warning.
        save(xi, np.array([[0.5, np.nan]]))
        rc, _, err = run("eval", "--family", "legendre", "--degree", "2", "--x", xi, "--out", out)
        self.assertEqual(rc, 0, err)
        self.assertIn("x holds 1 NaN and 0 infinite values of 2 (the first at row 0)", err)
        self.assertTrue(np.all(np.isnan(np.load(out))))


class BadInput(Case):
    """Each case of the issue's list: its exit status and message."""

    def setUp(self):
        super().setUp()
        self.x = self.path("x.npy")
        self.out = self.path("V.npy")
        np.save(self.x, np.linspace(0, 1, 5))

    def fails(self, rc, pattern, *extra, x=None, family="legendre", n=4, out=None, preexec_fn=None):
        args = ["eval", "--family", family, "--n", n, "--x", x or self.x, "--out", out or self.out, *extra]
        return self.assert_fails(rc, pattern, *args, out=out or self.out, preexec_fn=preexec_fn)

    def write_bytes(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def valid_bytes(self, array=None, version=(1, 0)):
        save(self.path("tmp.npy"), np.linspace(0, 1, 5) if array is None else array, version)
        data = contents(self.path("tmp.npy"))
        os.remove(self.path("tmp.npy"))
        return data

    def test_missing_file(self):
        self.fails(1, r"^recur eval: error: .*/missing\.npy: no such file$", x=self.path("missing.npy"))

    def test_empty_file(self):
        self.fails(1, r"empty.npy is empty \(0 bytes\)", x=self.write_bytes("empty.npy", b""))
        self.fails(1, r"empty.txt is empty \(0 bytes\)", x=self.write_bytes("empty.txt", b""))
        self.fails(1, r"blank.txt holds no numbers", x=self.write_bytes("blank.txt", b"\n# nothing\n"))

    def test_truncated_header(self):
        data = self.valid_bytes()
        self.fails(1, r"truncated .npy header: it says it is 118 bytes long but the file has only 30 bytes "
                      r"after the 10-byte prefix", x=self.write_bytes("t.npy", data[:40]))
        self.fails(1, r"truncated .npy header: the file ends after 8 bytes, inside the 10-byte prefix",
                   x=self.write_bytes("t.npy", data[:8]))

    def test_header_lying_about_its_size(self):
        data = bytearray(self.valid_bytes())
        data[8:10] = (60000).to_bytes(2, "little")
        self.fails(1, r"truncated .npy header: it says it is 60000 bytes long", x=self.write_bytes("l.npy", data))
        data = self.valid_bytes()
        self.fails(1, r"truncated .npy data: shape \(5,\) of float64 needs 40 bytes but the file has 32 after the header",
                   x=self.write_bytes("s.npy", data[:-8]))
        self.fails(1, r"the .npy file is longer than its header says: shape \(5,\) of float64 needs 40 bytes but "
                      r"the file has 48", x=self.write_bytes("g.npy", data + bytes(8)))
        # A header whose length field stops inside its dictionary.
        data = bytearray(self.valid_bytes())
        data[8:10] = (20).to_bytes(2, "little")
        self.fails(1, r"malformed .npy header", x=self.write_bytes("h.npy", data))

    def test_bad_magic_and_version(self):
        self.fails(1, r"not a .npy file: it does not start with \\x93NUMPY",
                   x=self.write_bytes("text.npy", b"0.5\n0.25\n"))
        data = bytearray(self.valid_bytes())
        data[6] = 4
        self.fails(1, r"unsupported .npy format version 4.0; recur reads versions 1.0, 2.0 and 3.0",
                   x=self.write_bytes("v.npy", data))

    def test_unsupported_dtypes(self):
        cases = [
            (np.arange(5, dtype=np.int64), r"unsupported dtype '<i8' \(integer\); recur reads float32 or float64 "
                                           r"arrays: convert with x.astype\(numpy.float64\)"),
            (np.arange(5, dtype=np.uint8), r"unsupported dtype '\|u1' \(unsigned integer\)"),
            (np.ones(5, dtype=np.complex128), r"unsupported dtype '<c16' \(complex\)"),
            (np.ones(5, dtype=np.float16), r"unsupported dtype '<f2' \(float16\)"),
            (np.ones(5, dtype=bool), r"unsupported dtype '\|b1' \(boolean\)"),
            (np.zeros(5, dtype=[("a", "<f8"), ("b", "<i4")]), r"unsupported dtype: a structured dtype"),
        ]
        for array, pattern in cases:
            with self.subTest(dtype=str(array.dtype)):
                self.fails(1, pattern, x=self.write_bytes("d.npy", self.valid_bytes(array)))
        # Object arrays carry a pickle after the header.
        with open(self.path("o.npy"), "wb") as f:
            npformat.write_array(f, np.array([1.0, "a"], dtype=object), allow_pickle=True)
        self.fails(1, r"unsupported dtype '\|O' \(object\)", x=self.path("o.npy"))

    def test_wrong_rank(self):
        self.fails(1, r"the array has shape \(3, 4\); recur reads a 1-D array \(or one of shape \(M, 1\) or \(1, M\)\)",
                   x=self.write_bytes("r.npy", self.valid_bytes(np.zeros((3, 4)))))
        self.fails(1, r"the array has shape \(\)", x=self.write_bytes("r.npy", self.valid_bytes(np.float64(2.0))))

    def test_bad_text(self):
        self.fails(1, r"x.txt:2: 'abc' is not a number; a text file of x values holds one number per line",
                   x=self.write_bytes("x.txt", b"0.5\nabc\n"))

    def test_n_not_positive_or_too_large(self):
        for n in (0, -3, "ten", 2**31):
            with self.subTest(n=n):
                self.fails(2, rf"^recur eval: error: --n {n}: N must be a whole number from 1 to 2147483647 "
                              r"\(see recur eval --help\)$|^recur eval: error: --n \S+: N must be a whole number",
                           n=n)

    def test_n_too_large_for_memory(self):
        # One row of 2^31 - 1 doubles and its derivatives is 34 GB. Two such rows
        # (and, on a GPU, their page-locked host mirrors) must fit in half of the
        # available host memory, which is what decides here.
        with open("/proc/meminfo") as f:
            available = dict(line.split(":", 1) for line in f).get("MemAvailable", "0 kB")
        if int(available.split()[0]) * 1024 >= 4 * 34359738360:
            self.skipTest("this machine has room for a row of 2^31 - 1 doubles")
        self.fails(1, r"a row of N = 2147483647 values needs 34359738360 bytes, two of them more than half of the "
                      r"\d+ bytes of host memory available; lower N",
                   "--derivative", self.path("dV.npy"), n=2**31 - 1)

    def test_invalid_family_parameters(self):
        self.fails(2, r"^recur eval: error: recur::Laguerre: alpha = -2 is invalid; alpha must be > -1$",
                   "--alpha", -2, family="laguerre")
        self.fails(2, r"recur::Jacobi: beta = nan is invalid; beta must be > -1", "--beta", "nan", family="jacobi")
        self.fails(2, r"recur::Gegenbauer: lambda = -0.5 is invalid; lambda must be > -1/2", "--lambda", -0.5,
                   family="gegenbauer_normalized")
        self.fails(2, r"hermite_e takes no --alpha; --alpha is for laguerre, laguerre_normalized, jacobi, "
                      r"jacobi_normalized", "--alpha", 1, family="hermite_e")
        self.fails(2, r"--alpha x: expected a real number", "--alpha", "x", family="laguerre")

    def test_unknown_family(self):
        self.fails(2, r"^recur eval: error: unknown family 'hermit'; the families are power_sums, monomials, "
                      r"hermite_e, ", family="hermit")

    def test_other_usage_errors(self):
        self.fails(2, r"unknown option --bogus for recur eval", "--bogus", "1")
        self.fails(2, r"--dtype float16: expected one of float32, float64", "--dtype", "float16")
        self.fails(2, r"--layout diagonal: expected one of row, col", "--layout", "diagonal")
        self.fails(2, r"--precision double: expected one of accurate, fast", "--precision", "double")
        self.fails(2, r"--derivative needs --policy auto or thread", "--policy", "staged",
                   "--derivative", self.path("dV.npy"))
        self.fails(2, r"--chunk 0: ROWS must be a whole number from 1", "--chunk", 0)
        self.assert_fails(2, r"missing --out V.npy", "eval", "--family", "legendre", "--n", 3, "--x", self.x)
        self.assert_fails(2, r"unknown command 'evaluate'", "evaluate")
        self.assert_fails(2, r"power_sums has no weight function", "gauss", "--family", "power_sums", "--n", 3,
                          "--out", self.out, out=self.out)
        self.assert_fails(2, r"--n 0: N must be", "gauss", "--family", "legendre", "--n", 0, "--out", self.out)

    def test_unwritable_output(self):
        self.fails(1, r"cannot write .*/no/such/V.npy: the folder .*/no/such does not exist",
                   out=self.path("no/such/V.npy"))
        self.fails(1, r"cannot write .*/x.npy/V.npy: .*/x.npy is not a folder", out=self.path("x.npy/V.npy"))
        os.mkdir(self.path("folder"))
        self.fails(1, r"cannot write .*/folder: it is a folder; give a file name", out=self.path("folder"))
        if os.geteuid() != 0:  # root writes anywhere
            os.chmod(self.path("folder"), 0o555)
            self.fails(1, r"no permission to create files in .*/folder", out=self.path("folder/V.npy"))

    def test_output_is_input(self):
        self.fails(2, r"--out .*x.npy is the input --x; write the output to another file", out=self.x)
        self.fails(2, r"is the input --x", out=os.path.join(self.dir, ".", "x.npy"))
        os.symlink(self.x, self.path("link.npy"))
        self.fails(2, r"is the input --x", out=self.path("link.npy"))
        self.fails(2, r"--derivative .*x.npy is the input --x", "--derivative", self.x)
        self.fails(2, r"--derivative and --out are the same file", "--derivative", self.out)

    def test_disk_full_keeps_the_old_output(self):
        with open(self.out, "wb") as f:
            f.write(b"the previous output")

        def limit_file_size():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        np.save(self.x, np.linspace(0, 1, 1000))
        self.fails(1, r"^recur eval: error: cannot write .*V.npy: its 8128 bytes exceed the file size limit "
                      r"\(ulimit -f\)$", n=1, preexec_fn=limit_file_size)
        self.assertEqual(contents(self.out), b"the previous output")
        self.assertEqual(glob.glob(self.path(".V.npy.tmp-*")), [])

    def test_full_tmpfs_keeps_the_old_output(self):
        # A real full file system: a 64 KiB tmpfs mounted in a private mount
        # namespace (unshare), which holds the previous output. The 128 KB
        # result does not fit, and neither does a derivative after a result
        # that fits; both runs must leave the tmpfs as they found it.
        folder = self.path("small")
        os.mkdir(folder)
        np.save(self.x, np.linspace(0, 1, 1000))
        script = (
            'mount -t tmpfs -o size=64k tmpfs "$1" || exit 99; cd "$1"; shift\n'
            'printf "the previous output" > V.npy\n'
            '"$@" --out V.npy --n 16; echo "rc=$?" >&2\n'
            '"$@" --out V.npy --n 6 --derivative dV.npy; echo "rc=$?" >&2\n'
            'ls -A; cat V.npy\n')
        try:
            result = subprocess.run(["unshare", "--map-root-user", "--mount", "sh", "-c", script, "sh", folder,
                                     RECUR, "eval", "--family", "legendre", "--x", self.x],
                                    capture_output=True, text=True, env=ENV, timeout=120)
        except FileNotFoundError:
            self.skipTest("unshare is not installed")
        if result.returncode == 99 or "rc=" not in result.stderr:
            self.skipTest("this machine does not let a test mount a tmpfs: " + result.stderr.strip())
        self.assertEqual(result.stderr.splitlines(), [
            "recur eval: error: no space left on device for V.npy: needs 128128 bytes", "rc=1",
            "recur eval: error: no space left on device for dV.npy: needs 48128 bytes", "rc=1"])
        self.assertEqual(result.stdout, "V.npy\nthe previous output")

    def test_signal_leaves_no_temporary(self):
        # A run ended by SIGTERM removes its temporary file.
        np.save(self.x, np.linspace(-1, 1, 200000))
        process = subprocess.Popen([RECUR, "eval", "--family", "legendre", "--n", "200", "--x", self.x,
                                    "--out", self.out, "--chunk", "100"], env=ENV,
                                   stderr=subprocess.DEVNULL)
        for _ in range(1000):
            if glob.glob(self.path(".V.npy.tmp-*")) or process.poll() is not None:
                break
            time.sleep(0.01)
        process.terminate()
        process.wait(timeout=60)
        # (320 MB take seconds to compute and write: the signal came first.)
        self.assertEqual(process.returncode, -signal.SIGTERM)
        self.assertEqual(glob.glob(self.path(".V.npy.tmp-*")), [])
        self.assertFalse(os.path.exists(self.out))


def main():
    global RECUR
    parser = argparse.ArgumentParser()
    parser.add_argument("--recur", required=True, help="the recur executable")
    args, rest = parser.parse_known_args()
    RECUR = os.path.abspath(args.recur)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
