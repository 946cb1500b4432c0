#!/usr/bin/env python3
"""Tests of the `recur` command across MPI ranks.

    python3 test_cli_mpi.py --recur build/openmp/recur --mpiexec mpiexec [unittest options]

With 1 to 4 ranks (oversubscribing the cores, one OpenMP thread each): the
file `recur eval` writes is byte for byte the one a single process writes, in
both layouts, float32 and float64, with derivatives, from .npy and text x, and
with a rank that holds no rows; `recur gauss` likewise; `recur info` prints a
line per rank. Failures (unreadable x, bad parameters, a full disk, a rank
that runs out of memory, a rank killed) end every rank with the same status,
print one message, and leave no output and no temporary file. Exits 77
(ctest's skip) when NumPy is missing.
"""

import argparse
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

try:
    import numpy as np
except ImportError:
    print("numpy is not installed for", sys.executable, "- skipping the MPI CLI tests")
    sys.exit(77)

RECUR = None
MPIEXEC = None
# Open MPI: more ranks than cores, root allowed (containers), and no
# cross-memory attach between ranks (containers often forbid ptrace).
ENV = dict(os.environ, OMP_PROC_BIND="false", OMP_NUM_THREADS="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none",
           OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def mpirun(ranks, *args, preexec_fn=None, wrapper=None):
    """recur ARGS on `ranks` ranks (-q: mpirun's own notices off)."""
    command = [RECUR] + [str(a) for a in args]
    if wrapper:
        command = ["sh", "-c", wrapper + ' "$@"', "wrapper"] + command
    result = subprocess.run([MPIEXEC, "-q", "-n", str(ranks)] + command, capture_output=True,
                            text=True, env=ENV, preexec_fn=preexec_fn, timeout=600)
    return result.returncode, result.stdout, result.stderr


def single(*args):
    result = subprocess.run([RECUR] + [str(a) for a in args], capture_output=True, text=True,
                            env=ENV, timeout=600)
    return result.returncode, result.stdout, result.stderr


def ours(stderr):
    """The lines recur wrote to stderr (an MPI library may add notices of its own)."""
    return [line for line in stderr.splitlines() if line.startswith("recur")]


def contents(path):
    with open(path, "rb") as f:
        return f.read()


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="recur-mpi-")
        self.dir = self.tmp.name
        self.x = self.path("x.npy")
        self.out = self.path("V.npy")

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assert_fails(self, ranks, status, message, *args, preexec_fn=None, wrapper=None):
        """Every rank ends with `status`; stderr holds the one message line
        (whatever the launcher adds); no output or temporary file is left."""
        before = sorted(os.listdir(self.dir))
        rc, out, err = mpirun(ranks, *args, preexec_fn=preexec_fn, wrapper=wrapper)
        self.assertEqual(rc, status, f"stderr: {err!r}")
        lines = ours(err)
        self.assertEqual(len(lines), 1, f"not one message: {err!r}")
        self.assertRegex(lines[0], message)
        self.assertEqual(sorted(os.listdir(self.dir)), before, "files were left behind")
        return lines[0]


class SameFileAsOneProcess(Case):
    def test_layouts_dtypes_ranks(self):
        # 1001 rows in chunks of 64: ranks hold different numbers of chunks.
        x = np.linspace(-1.2, 1.3, 1001)
        np.save(self.x, x)
        for dtype in ("float32", "float64"):
            for layout in ("row", "col"):
                args = ["eval", "--family", "hermite_e_normalized", "--n", 33, "--x", self.x,
                        "--dtype", dtype, "--layout", layout, "--chunk", 64]
                one = self.path("one.npy")
                rc, _, err = single(*args, "--out", one)
                self.assertEqual(rc, 0, err)
                for ranks in (1, 2, 3, 4):
                    with self.subTest(dtype=dtype, layout=layout, ranks=ranks):
                        rc, _, err = mpirun(ranks, *args, "--out", self.out)
                        self.assertEqual(rc, 0, err)
                        self.assertEqual(ours(err), [])
                        self.assertEqual(contents(self.out), contents(one))
                        os.remove(self.out)

    def test_derivatives_text_input_and_an_empty_rank(self):
        # 3 rows over 4 ranks: rank 3 holds none. x from a text file.
        with open(self.path("x.txt"), "w") as f:
            f.write("# three points\n-0.5\n0.25\n0.75\n")
        for dtype, layout in (("float64", "row"), ("float64", "col"), ("float32", "row"),
                              ("float32", "col")):
            args = ["eval", "--family", "jacobi", "--alpha", "0.5", "--beta", "-0.25", "--n", 40,
                    "--x", self.path("x.txt"), "--layout", layout, "--dtype", dtype]
            rc, _, err = single(*args, "--out", self.path("one.npy"), "--derivative",
                                self.path("done.npy"))
            self.assertEqual(rc, 0, err)
            rc, _, err = mpirun(4, *args, "--out", self.out, "--derivative", self.path("dV.npy"))
            self.assertEqual(rc, 0, err)
            self.assertEqual(contents(self.out), contents(self.path("one.npy")))
            self.assertEqual(contents(self.path("dV.npy")), contents(self.path("done.npy")))

    def test_warning_counts_every_rank(self):
        x = np.linspace(-1, 1, 10)
        x[[2, 7, 8]] = [np.nan, np.inf, np.nan]
        np.save(self.x, x)
        args = ["eval", "--family", "legendre", "--n", 4, "--x", self.x]
        rc, _, one = single(*args, "--out", self.path("one.npy"))
        rc, _, err = mpirun(3, *args, "--out", self.out)
        self.assertEqual(rc, 0, err)
        self.assertEqual(ours(err), ours(one))
        self.assertIn("2 NaN and 1 infinite values of 10 (the first at row 2)", err)
        self.assertEqual(contents(self.out), contents(self.path("one.npy")))

    def test_gauss(self):
        rc, _, err = single("gauss", "--family", "laguerre", "--alpha", 1.5, "--n", 50, "--out",
                            self.path("one.npy"))
        self.assertEqual(rc, 0, err)
        rc, _, err = mpirun(3, "gauss", "--family", "laguerre", "--alpha", 1.5, "--n", 50, "--out",
                            self.out)
        self.assertEqual(rc, 0, err)
        self.assertEqual(contents(self.out), contents(self.path("one.npy")))

    def test_info_has_a_line_per_rank(self):
        rc, out, err = mpirun(3, "info")
        self.assertEqual(rc, 0, err)
        self.assertIn("MPI ranks:\n", out)
        for rank in range(3):
            self.assertRegex(out, rf"\n  rank {rank} of 3 on \S+ \(local rank {rank}\): ")
        self.assertEqual(out.count("Kokkos configuration:"), 1)


class FailuresEndEveryRank(Case):
    def test_unreadable_x_and_bad_parameters(self):
        self.assert_fails(3, 1, r"^recur eval: error: .*nothere.npy: no such file$", "eval",
                          "--family", "legendre", "--n", 4, "--x", self.path("nothere.npy"),
                          "--out", self.out)
        np.save(self.x, np.linspace(0, 1, 5))
        self.assert_fails(3, 2, r"^recur eval: error: --n 0: ", "eval", "--family", "legendre",
                          "--n", 0, "--x", self.x, "--out", self.out)
        self.assert_fails(2, 2, r"^recur eval: error: .*alpha", "eval", "--family", "jacobi",
                          "--alpha", -3, "--n", 4, "--x", self.x, "--out", self.out)
        x = np.linspace(0, 1, 5)
        x[4] = np.nan
        np.save(self.x, x)
        self.assert_fails(4, 1, r"^recur eval: error: x holds 1 NaN and 0 infinite values of 5 "
                          r"\(the first at row 4\); --strict refuses them", "eval", "--family",
                          "legendre", "--n", 4, "--x", self.x, "--out", self.out, "--strict")

    def test_full_disk_keeps_the_old_output(self):
        with open(self.out, "wb") as f:
            f.write(b"the previous output")

        # The limit on the ranks alone (the launcher writes files of its own).
        np.save(self.x, np.linspace(0, 1, 1000))
        self.assert_fails(3, 1, r"^recur eval: error: cannot write .*V.npy: its 8128 bytes exceed "
                          r"the file size limit \(ulimit -f\)$", "eval", "--family", "legendre",
                          "--n", 1, "--x", self.x, "--out", self.out,
                          wrapper="trap '' XFSZ; ulimit -f 4; exec")
        self.assertEqual(contents(self.out), b"the previous output")

    def test_one_rank_out_of_memory(self):
        # Rank 2 alone may map at most 1.2 GB: its chunk of a 1.6 GB result
        # (--chunk holds all its rows) cannot be allocated. (A CUDA build
        # cannot start under such a limit at all: the test is for CPUs.)
        if "CUDA device" in single("info")[1]:
            self.skipTest("ulimit -v stops the CUDA runtime's own start")
        np.save(self.x, np.linspace(-1, 1, 3 * 1000 * 1000))
        wrapper = 'if [ "$OMPI_COMM_WORLD_RANK" = 2 ]; then ulimit -v 1200000; fi; exec'
        message = self.assert_fails(3, 1, r"^recur eval: error: rank 2: ", "eval", "--family",
                                    "legendre", "--n", 200, "--x", self.x, "--out", self.out,
                                    "--chunk", 1000000, wrapper=wrapper)
        self.assertNotIn("\n", message)

    def test_a_rank_killed_leaves_nothing(self):
        np.save(self.x, np.linspace(-1, 1, 400000))
        pid_file = self.path("rank1.pid")
        wrapper = f'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then echo $$ > {pid_file}; fi; exec'
        command = [MPIEXEC, "-q", "-n", "2", "sh", "-c", wrapper + ' "$@"', "wrapper", RECUR,
                   "eval", "--family", "legendre", "--n", "200", "--x", self.x, "--out", self.out,
                   "--chunk", "200"]
        process = subprocess.Popen(command, env=ENV, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        for _ in range(2000):
            if glob.glob(self.path(".V.npy.tmp-*")) and os.path.exists(pid_file):
                break
            time.sleep(0.01)
        time.sleep(0.3)
        with open(pid_file) as f:
            os.kill(int(f.read()), signal.SIGKILL)
        process.wait(timeout=120)
        self.assertNotEqual(process.returncode, 0)
        self.assertFalse(os.path.exists(self.out))
        self.assertEqual(glob.glob(self.path(".V.npy.tmp-*")), [])


def main():
    global RECUR, MPIEXEC
    parser = argparse.ArgumentParser()
    parser.add_argument("--recur", required=True, help="the recur executable")
    parser.add_argument("--mpiexec", required=True, help="the MPI launcher (mpiexec)")
    args, rest = parser.parse_known_args()
    RECUR = os.path.abspath(args.recur)
    MPIEXEC = args.mpiexec
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
