#!/usr/bin/env python3
"""Turns recur_perf's JSON (--benchmark_out=FILE --benchmark_out_format=json)
into Markdown tables: the evaluate suite (one row per benchmark: median time,
GB/s, the same-run fill ceiling and the fraction of it), then every other
benchmark (series, gauss, project, fit, ...) with its counters; with --plot, a
PNG of the evaluate fractions: one panel per family and (T, layout), bars per
policy and shape.

    perf_tests/perf_table.py build/openmp/perf.json > table.md
    perf_tests/perf_table.py perf.json --plot docs/perf.png --space Cuda
"""
import argparse
import json
import sys

POLICIES = ["Auto", "ThreadPerX", "Staged", "ScanAlongN"]


def rows(data, space=None):
    """Yields one dict per benchmark run (aggregates left out)."""
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        name = b["name"].split("/")
        if name[0] != "evaluate":
            continue
        # evaluate/<space>/<T>/<layout>/<family>/<policy>/log2M:<m>/N:<n>/manual_time
        _, where, scalar, layout, family, policy = name[:6]
        if space and where != space:
            continue
        shape = {k: v for k, v in (part.split(":") for part in name if ":" in part)}
        row = dict(space=where, T=scalar, layout=layout, family=family, policy=policy,
                   chose=b.get("label", "").split(" | ")[0], log2M=int(shape["log2M"]), N=int(shape["N"]),
                   error=b.get("error_message") if b.get("error_occurred") else None)
        if not row["error"]:
            row["ms"] = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6
            row.update(GBps=b["GBps"], fill=b["fill_GBps"], of_fill=b["of_fill"])
        yield row


def table(data, path, space):
    context = data["context"]
    print(f"<!-- {path}: commit {context.get('git_commit')}, {context.get('date')}, "
          f"default space {context.get('default_execution_space')} -->")
    if not any(True for _ in rows(data, space)):
        return
    print("| space | T | layout | family | policy | M | N | time (ms) | GB/s | fill GB/s | of fill |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows(data, space):
        policy = f"{r['policy']} ({r['chose']})" if r["chose"] else r["policy"]
        head = (f"| {r['space']} | {r['T']} | {r['layout']} | {r['family']} | {policy} | "
                f"2^{r['log2M']} | {r['N']} |")
        if r["error"]:
            print(f"{head} — | — | — | not run: {r['error']} |")
        else:
            print(f"{head} {r['ms']:.3f} | {r['GBps']:.0f} | {r['fill']:.0f} | "
                  f"{100 * r['of_fill']:.1f} % |")


def other_table(data, space):
    """Every benchmark outside the evaluate suite: name, arguments, median
    time and its counters."""
    skip = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
            "repetitions", "repetition_index", "threads", "iterations", "real_time",
            "cpu_time", "time_unit", "label", "error_occurred", "error_message",
            "aggregate_name", "aggregate_unit"}
    runs = []
    for b in data["benchmarks"]:
        name = b["name"].replace("/manual_time", "").split("/")
        if b.get("run_type") == "aggregate" or name[0] in ("evaluate", "streams"):
            continue
        if space and name[1] != space:
            continue
        args = ", ".join(part.replace(":", " = ") for part in name if ":" in part)
        what = "/".join(part for part in name if ":" not in part and part)
        if b.get("error_occurred"):
            runs.append(f"| {what} | {args} | — | not run: {b.get('error_message')} |")
            continue
        ms = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6
        counters = ", ".join(f"{k} {v:.3g}" for k, v in b.items()
                             if k not in skip and isinstance(v, (int, float)))
        runs.append(f"| {what} | {args} | {ms:.3f} | {counters} |")
    if runs:
        print()
        print("| benchmark | arguments | time (ms) | counters |")
        print("| --- | --- | ---: | --- |")
        print("\n".join(runs))


def plot(data, out, space):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [r for r in rows(data, space) if not r["error"]]
    if not runs:
        sys.exit("perf_table.py: no runs to plot")
    families = sorted({r["family"] for r in runs})
    panels = sorted({(r["T"], r["layout"]) for r in runs})
    shapes = sorted({(r["log2M"], r["N"]) for r in runs}, key=lambda s: (s[1], -s[0]))
    policies = [p for p in POLICIES if any(r["policy"] == p for r in runs)]
    fig, axes = plt.subplots(len(families), len(panels), squeeze=False, sharey=True,
                             figsize=(3.6 * len(panels), 2.6 * len(families)))
    width = 0.8 / len(policies)
    for i, family in enumerate(families):
        for j, (scalar, layout) in enumerate(panels):
            ax = axes[i][j]
            for k, policy in enumerate(policies):
                heights = []
                for log2m, n in shapes:
                    match = [r for r in runs if (r["family"], r["T"], r["layout"], r["policy"],
                                                 r["log2M"], r["N"]) ==
                             (family, scalar, layout, policy, log2m, n)]
                    heights.append(100 * match[0]["of_fill"] if match else 0)
                ax.bar([s + (k - (len(policies) - 1) / 2) * width for s in range(len(shapes))],
                       heights, width, label=policy)
            ax.set_xticks(range(len(shapes)))
            ax.set_xticklabels([f"2^{m}\n{n if n < 4096 else '2^%d' % (n.bit_length() - 1)}"
                                for m, n in shapes], fontsize=7)
            ax.set_ylim(0, 105)
            ax.axhline(100, color="grey", linewidth=0.5)
            ax.set_title(f"{family}, {scalar}, {layout}", fontsize=8)
            if j == 0:
                ax.set_ylabel("% of fill")
    axes[0][0].legend(fontsize=7, loc="upper right")
    context = data["context"]
    fig.suptitle(f"recur_perf {space or ''}: % of same-run fill bandwidth, M (top) and N "
                 f"(bottom) per group; commit {context.get('git_commit')}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", help="recur_perf JSON output")
    parser.add_argument("--space", help="only this execution space (Cuda, OpenMP, Serial)")
    parser.add_argument("--plot", metavar="PNG", help="also write a plot of the fractions")
    args = parser.parse_args()
    with open(args.result) as f:
        data = json.load(f)
    table(data, args.result, args.space)
    other_table(data, args.space)
    if args.plot:
        plot(data, args.plot, args.space)


if __name__ == "__main__":
    main()
