#!/usr/bin/env python3
"""Turns recur_perf's JSON (--benchmark_out=FILE --benchmark_out_format=json)
into Markdown tables: the evaluate suite (one row per benchmark: median time,
GB/s, the same-run fill ceiling and the fraction of it), then every other
benchmark (series, gauss, project, fit, ...) with its counters; with --plot, a
PNG of the evaluate fractions: one panel per family and (T, layout), bars per
policy and shape.

    perf_tests/perf_table.py build/openmp/perf.json > table.md
    perf_tests/perf_table.py perf.json --plot docs/perf.png --space Cuda

Given several JSON files (runs on other machines, backends or rank counts,
e.g. of recur_perf under mpirun/srun), it merges them instead: one table with
a column per run (its machine, backend and ranks) and a row per benchmark, and
a weak-scaling table of the entries that ran on several rank counts
(aggregate GB/s, and the efficiency against ranks x the one-rank figure of
the same machine); --plot then draws that scaling:

    perf_tests/perf_table.py run-1rank.json run-2ranks.json run-4ranks.json --plot scaling.png
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


def auto_table(data, space):
    """Auto (recur::Accurate) against the fastest policy of the same entry
    (same space, T, layout, family and shape): the performance issue's
    "Auto within 10 % of the best policy"."""
    groups = {}
    for r in rows(data, space):
        if r["error"] or r["policy"] not in POLICIES:
            continue
        key = (r["space"], r["T"], r["layout"], r["family"], r["log2M"], r["N"])
        groups.setdefault(key, {})[r["policy"]] = r
    ratios = []
    for key, by_policy in sorted(groups.items()):
        if "Auto" not in by_policy or len(by_policy) < 2:
            continue
        best = min(by_policy.values(), key=lambda r: r["ms"])
        ratios.append((best["ms"] / by_policy["Auto"]["ms"], key, best["policy"],
                       by_policy["Auto"]["chose"]))
    if not ratios:
        return
    ratios.sort()
    print()
    print(f"Auto against the fastest policy of its entry, {len(ratios)} entries: worst "
          f"{ratios[0][0]:.2f}, {sum(1 for r in ratios if r[0] < 0.9)} below 0.90.")
    print()
    print("| space | T | layout | family | M | N | Auto chose | fastest | Auto / fastest (time) |")
    print("| --- | --- | --- | --- | ---: | ---: | --- | --- | ---: |")
    for ratio, (where, scalar, layout, family, log2m, n), fastest, chose in ratios[:12]:
        print(f"| {where} | {scalar} | {layout} | {family} | 2^{log2m} | {n} | {chose or '?'} | "
              f"{fastest} | {ratio:.2f} |")


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


def run_label(data):
    """Machine, backend and ranks of one run, from its context."""
    context = data["context"]
    ranks = int(context.get("mpi_ranks", 1))
    where = context.get("rank_0") or f"host {context.get('host_name')}"
    host = where.split(",")[0].replace("host ", "")
    backend = context.get("default_execution_space", "?")
    return f"{host} {backend} {ranks} rank{'s' if ranks > 1 else ''}", host, backend, ranks


def entries(data):
    """name -> (ms, aggregate or own GB/s) of every run of one file."""
    out = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b["name"].replace("/manual_time", "")
        ms = b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6
        out[name] = (ms, b.get("aggregate_GBps", b.get("GBps")))
    return out


def merged(paths, plot_path):
    runs = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        label, host, backend, ranks = run_label(data)
        runs.append(dict(path=path, label=label, host=host, backend=backend, ranks=ranks,
                         commit=data["context"].get("git_commit"), date=data["context"].get("date"),
                         entries=entries(data)))
    for r in runs:
        print(f"<!-- {r['path']}: {r['label']}, commit {r['commit']}, {r['date']} -->")
    names = sorted({n for r in runs for n in r["entries"]})
    print("| benchmark | " + " | ".join(r["label"] for r in runs) + " |")
    print("| --- |" + " ---: |" * len(runs))
    for name in names:
        cells = []
        for r in runs:
            e = r["entries"].get(name)
            cells.append("—" if e is None else
                         f"{e[0]:.3f} ms" + (f", {e[1]:.3g} GB/s" if e[1] is not None else ""))
        print(f"| {name} | " + " | ".join(cells) + " |")
    # Weak scaling: the same entry and machine and backend over rank counts.
    series = {}
    for r in runs:
        for name, (ms, rate) in r["entries"].items():
            if name.startswith("mpi_") and rate is not None:
                series.setdefault((name, r["host"], r["backend"]), {})[r["ranks"]] = rate
    series = {k: v for k, v in series.items() if len(v) > 1 and 1 in v}
    if not series:
        return
    print()
    print("| entry | machine, backend | ranks | aggregate GB/s | efficiency |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (name, host, backend), by_ranks in sorted(series.items()):
        for ranks, rate in sorted(by_ranks.items()):
            efficiency = rate / (ranks * by_ranks[1])
            print(f"| {name} | {host}, {backend} | {ranks} | {rate:.3g} | {efficiency:.2f} |")
    if plot_path:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for (name, host, backend), by_ranks in sorted(series.items()):
            ranks = sorted(by_ranks)
            ax.plot(ranks, [by_ranks[p] for p in ranks], marker="o",
                    label=f"{name.split('/log2')[0]} ({host}, {backend})")
            ax.plot(ranks, [p * by_ranks[1] for p in ranks], color="grey", linewidth=0.5,
                    linestyle="--")
        ax.set_xlabel("ranks")
        ax.set_ylabel("aggregate GB/s")
        ax.set_xticks(sorted({p for v in series.values() for p in v}))
        ax.set_title("recur_perf weak scaling (dashed: ranks x one rank)", fontsize=9)
        ax.legend(fontsize=6)
        fig.tight_layout()
        fig.savefig(plot_path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", nargs="+", help="recur_perf JSON output(s); several are merged")
    parser.add_argument("--space", help="only this execution space (Cuda, OpenMP, Serial)")
    parser.add_argument("--plot", metavar="PNG", help="also write a plot of the fractions "
                        "(of the scaling, for several files)")
    args = parser.parse_args()
    if len(args.result) > 1:
        merged(args.result, args.plot)
        return
    with open(args.result[0]) as f:
        data = json.load(f)
    table(data, args.result[0], args.space)
    auto_table(data, args.space)
    other_table(data, args.space)
    if args.plot:
        plot(data, args.plot, args.space)


if __name__ == "__main__":
    main()
