#!/usr/bin/env python3
"""Compile time of small programs that use recur, one compiler process at a
time (one core), with the flags a consumer of recur gets:

  perf_tests/compile_times.py BUILD_DIR [--repeat R] [--json OUT]

BUILD_DIR is a configured recur build (it exports compile_commands.json);
the flags are those of examples/demo.cpp there: recur's include folders,
Kokkos' flags and the build's optimization. Each program of
perf_tests/compile_time/ is compiled R times (best time kept) with the
build's flags ("release") and again without any -O or -DNDEBUG flag, as a
consumer without CMAKE_BUILD_TYPE compiles it ("no build type").
Prints a Markdown table; --json writes the numbers.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def consumer_command(build_dir):
    path = os.path.join(build_dir, "compile_commands.json")
    try:
        entries = json.load(open(path))
    except OSError as error:
        sys.exit(f"compile_times.py: cannot read {path} ({error.strerror}); configure the build first")
    for entry in entries:
        if entry["file"].endswith(os.path.join("examples", "demo.cpp")):
            args = entry.get("arguments") or shlex.split(entry["command"])
            return entry["directory"], args, entry["file"]
    sys.exit(f"compile_times.py: {path} has no examples/demo.cpp (configure with RECUR_ENABLE_EXAMPLES=ON)")


def without_optimization(args):
    return [a for a in args if not (a.startswith("-O") or a == "-DNDEBUG")]


def compile_seconds(directory, args, demo, source, repeat):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "program.o")
        command, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a == "-o":
                command += ["-o", out]
                skip = True
            elif a == demo:
                command.append(source)
            else:
                command.append(a)
        best = None
        for _ in range(repeat):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=directory, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit(f"compile_times.py: {source} did not compile:\n{done.stderr[-4000:]}")
            best = seconds if best is None else min(best, seconds)
        return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json")
    options = parser.parse_args()
    directory, args, demo = consumer_command(options.build_dir)
    programs = sorted(p for p in os.listdir(os.path.join(HERE, "compile_time")) if p.endswith(".cpp"))
    results = []
    print("| program | release (s) | no build type (s) |\n| --- | --- | --- |")
    for program in programs:
        source = os.path.join(HERE, "compile_time", program)
        release = compile_seconds(directory, args, demo, source, options.repeat)
        debug = compile_seconds(directory, without_optimization(args), demo, source, options.repeat)
        results.append({"program": program, "release_s": release, "no_build_type_s": debug})
        print(f"| `{program}` | {release:.2f} | {debug:.2f} |", flush=True)
    if options.json:
        with open(options.json, "w") as out:
            json.dump({"compiler": args[0], "flags": args, "results": results}, out, indent=1)


if __name__ == "__main__":
    main()
