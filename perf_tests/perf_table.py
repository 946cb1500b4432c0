#!/usr/bin/env python3
"""Turns recur_perf's JSON (--benchmark_out=FILE --benchmark_out_format=json)
into a Markdown table: one row per benchmark, with the median time, GB/s, the
same-run fill ceiling and the fraction of it.

    perf_tests/perf_table.py build/openmp/perf.json > table.md
"""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    context = data["context"]
    print(f"<!-- {path}: commit {context.get('git_commit')}, {context.get('date')}, "
          f"default space {context.get('default_execution_space')} -->")
    print("| space | T | layout | family | policy | M | N | time (ms) | GB/s | fill GB/s | of fill |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        name = b["name"].split("/")
        # evaluate/<space>/<T>/<layout>/<family>[/<policy>]/log2M:<m>/N:<n>/manual_time
        _, space, scalar, layout, family = name[:5]
        policy = "ThreadPerX" if name[5].startswith("log2M") else name[5]
        shape = [part for part in name if ":" in part]
        log2m = shape[0].split(":")[1]
        n = shape[1].split(":")[1]
        ms = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6
        print(f"| {space} | {scalar} | {layout} | {family} | {policy} | 2^{log2m} | {n} | {ms:.3f} | "
              f"{b['GBps']:.0f} | {b['fill_GBps']:.0f} | {100 * b['of_fill']:.1f} % |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: perf_table.py RESULT.json")
    main(sys.argv[1])
