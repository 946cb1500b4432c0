#!/usr/bin/python3
"""Writes docs/accuracy.md: recur's worst errors against the mpmath references
(from the unit tests' report) next to other libraries' (from
docs/data/accuracy-libraries.md, made by compare_libraries.py).

    RECUR_ACCURACY_REPORT=/tmp/recur-accuracy.tsv RECUR_EDGES_REPORT=/tmp/recur-edges.tsv \\
        build/openmp/unit_tests/recur_unit_tests --gtest_filter='Reference*:Edges*'
    unit_tests/reference/accuracy_report.py /tmp/recur-accuracy.tsv /tmp/recur-edges.tsv \\
        "<run description>"

Also draws docs/accuracy.png (matplotlib).
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOLERANCE = {"float": 2e-6, "double": 1e-13}
FAST_BOUND = ("≤ 2e-13·√N + 1e-16·N² in double (N = 16, 64, 256, 2000: 8.3e-13, 2.0e-12, "
              "9.8e-12, 4.1e-10) and ≤ 1e-6·N² in float (2.6e-4, 4.1e-3, 6.6e-2, 4)")


def read_recur(path):
    """{(file stem, precision, N): (local, row, non-finite, ulp)}"""
    out = {}
    for line in Path(path).read_text().splitlines():
        stem, precision, n, local, row, bad, ulp = line.split("\t")
        out[(stem, precision, int(n))] = (float(local), float(row), int(bad), float(ulp))
    return out


def read_edges(path):
    """[(family, alpha, beta, lambda, x, N, precision, ulp, beyond)] in file order,
    each case once per precision."""
    out, seen = [], set()
    for line in Path(path).read_text().splitlines():
        family, a, b, l, x, n, precision, ulp, beyond = line.split("\t")
        key = (family, a, b, l, x, n, precision)
        if key not in seen:
            seen.add(key)
            out.append((family, float(a), float(b), float(l), x, int(n), precision, float(ulp),
                        int(beyond)))
    return out


def read_libraries():
    """{(library title, family stem, N): local} from the comparison tables."""
    text = (ROOT / "docs/data/accuracy-libraries.md").read_text()
    out, title = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
        m = re.match(r"\| (\w+) \| ([^|]*) \| (\d+)[^|]*\| ([^|]+) \| ([^|]+) \| (\d+) \|", line)
        if title and m:
            family, params, n, row, local, bad = m.groups()
            stem = family + "".join(
                "_" + k + v for k, v in re.findall(r"(alpha|beta|lambda) = ([-\d.e]+)", params))
            out[(title, stem, int(n))] = (local.strip(), int(bad))
    return out


def fmt(x):
    return "0" if x == 0 else f"{x:.1e}"


def ulps(x):
    return "0" if x == 0 else (f"{x:.2f}" if x < 10 else f"{x:.0f}")


def plot(recur, path):
    """Worst error (local metric) against N per family: Accurate and Fast, double and
    float, one panel each, log-log, with the bounds the unit tests assert."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    Ns = [16, 64, 256, 2000]
    stems = sorted({k[0] for k in recur})
    fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex=True)
    panels = [("double", "Accurate, double"), ("double-fast", "Fast, double"),
              ("float", "Accurate, float"), ("float-fast", "Fast, float")]
    bounds = {
        "double": [TOLERANCE["double"] * n ** 0.5 for n in Ns],
        "double-fast": [2e-13 * n ** 0.5 + 1e-16 * n * n for n in Ns],
        "float": [TOLERANCE["float"] * n ** 0.5 for n in Ns],
        "float-fast": [1e-6 * n * n for n in Ns],
    }
    for ax, (precision, title) in zip(axes.flat, panels):
        for stem in stems:
            ys = [recur.get((stem, precision, n), (None,))[0] for n in Ns]
            if None in ys:
                continue
            # 0: every value of those rows is beyond the range (±inf, no error): not drawn.
            ax.plot(Ns, [y if y > 0 else float("nan") for y in ys], marker="o", linewidth=0.8,
                    markersize=3, label=stem)
        ax.plot(Ns, bounds[precision], color="black", linestyle="--", linewidth=1.5,
                label="asserted bound")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("N")
    for ax in axes[:, 0]:
        ax.set_ylabel("worst error, local metric")
    handles, labels = axes[0, 1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", fontsize=7)
    fig.tight_layout(rect=(0, 0, 0.8, 1))
    fig.savefig(path, dpi=80)


def precision_rows(recur, stems, suffix):
    """A table's rows: each family's worst double and float errors at four N,
    for the precision named by `suffix` ("" Accurate, "-fast" Fast)."""
    rows = []
    for stem in stems:
        for n in (16, 64, 256, 2000):
            d = recur.get((stem, "double" + suffix, n))
            f = recur.get((stem, "float" + suffix, n))
            if not d or not f:
                continue
            rows.append(f"| {stem} | {n} | {fmt(d[0])} | {fmt(d[1])} | {ulps(d[3])} | "
                        f"{fmt(f[0])} | {fmt(f[1])} | {ulps(f[3])} | {d[2] + f[2]} |")
    return rows


def main(report, edges_report, run):
    recur = read_recur(report)
    edges = read_edges(edges_report)
    libraries = read_libraries()
    stems = sorted({k[0] for k in recur})
    titles = sorted({k[0] for k in libraries})
    lines = [
        "# Accuracy",
        "",
        "Every family against reference values computed with mpmath at 60 digits",
        "(`unit_tests/reference/`, made by `generate.py` there; 13 to 17 points per family",
        "and parameter set, edge points included, degrees to 1999). The unit tests assert",
        "these bounds on every execution space and layout; this page shows the worst",
        "errors measured, next to what other libraries give on the same points.",
        "",
        "## Metric",
        "",
        "Per stored degree n of a row of N terms, two scales, both asserted by the unit",
        "tests at ≤ 1e-13·√N in double and ≤ 2e-6·√N in float:",
        "",
        "- *row*: |got − ref| / max(|ref|, 1e-3 · rowmax_N), rowmax_N = max over n < N of |p_n(x)|;",
        "- *local*: |got − ref| / max(local, 1e-3 · rowmax_N), local = max(|p_{n−1}|, |p_n|, |p_{n+1}|);",
        "",
        "denominators never below the precision's smallest normal number; and, reported, not",
        "asserted:",
        "",
        "- *ulp*: |got − ref| in units in the last place of ref in the output's type, over the",
        "  values away from zeros of the row (|p_n| ≥ local / 2) and not below 1e-3 · rowmax_N.",
        "",
        "Values beyond the precision's range must come out as ±inf with the true sign (the",
        "tests assert it); a non-finite result where the true value is representable fails.",
        "",
        "The *local* scale is the fair one for a recurrence run in the output's own",
        "precision: it carries the pair (p_{n−1}, p_n), so its rounding at step n is",
        "relative to that pair, and near a zero of p_n it cannot do better than ε_T times",
        "the neighbours (He_n at x = 4.61 in plain double: 1.5e-12 against |ref|, 6e-15",
        "against the neighbours). The other libraries are measured on both scales too.",
        "",
        "How: three-term recurrences run in double for float results and in double-double",
        "arithmetic for double results, with coefficients tabulated in double-double on the",
        "host (long double, 64 bits, left P_n(1) ≠ 1 from n = 417 and up to 24 ulp at",
        "n = 1999); the result is rounded once. Near x = ±1 rounding errors grow like n², so",
        "a plain double recurrence is off by up to 1e-10 at N = 2000 (scipy's `eval_chebyt`",
        "there: 1.1e-10), and a plain float one by 1e-1.",
        "",
        f"Run: {run}",
        "",
        "## recur, worst error per family, precision and N",
        "",
        "| family | N | double local | double row | double ulp | float local | float row | float ulp | non-finite |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += precision_rows(recur, stems, "")
    lines += [
        "",
        "## recur::Fast: results in V's own arithmetic",
        "",
        "`recur::Fast` (`--precision fast`) runs the same recurrences in the output's own",
        "type (plain double, plain float), several times faster where double-double is",
        "compute bound (`docs/performance.md`), and its rounding errors grow with n as any",
        "plain recurrence's do: like n² near x = ±1 for the Jacobi-type families, like n for",
        "the rest. The unit tests assert " + FAST_BOUND + " on both",
        "scales (`Reference.FastMatchesMpmathWithinItsBoundUpToN2000`). `PowerSums` sums in",
        "float for float results (in double for double results, as with Accurate). Same",
        "points, same metric, same run:",
        "",
        "![Worst error against N per family, Accurate and Fast](accuracy.png)",
        "",
        "(`docs/accuracy.png`, the local metric of the tables, made with them.)",
        "",
        "| family | N | double local | double row | double ulp | float local | float row | float ulp | non-finite |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += precision_rows(recur, stems, "-fast")
    lines += [
        "",
        "## Side by side at N = 2000 (local metric; non-finite results in parentheses)",
        "",
        "Other libraries from `docs/data/accuracy-libraries.md` (same points, same",
        "metric; how each was called is written there). A dash: the library has no",
        "such function.",
        "",
        "| family | recur double | recur float | " + " | ".join(titles) + " |",
        "|---|---:|---:|" + "---:|" * len(titles),
    ]
    for stem in stems:
        d, f = recur.get((stem, "double", 2000)), recur.get((stem, "float", 2000))
        cells = []
        for t in titles:
            v = libraries.get((t, stem, 2000))
            cells.append("—" if v is None else (v[0] + (f" ({v[1]})" if v[1] else "")))
        lines.append(f"| {stem} | {fmt(d[0])} | {fmt(f[0])} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "hermite and hermite_e at N = 2000: nearly every value of those rows exceeds",
        "double's range (H_1999(40) is about 1e2868), so the maxima there come from the",
        "few rows that stay small and say little; N = 256 in the tables above and in",
        "`docs/data/accuracy-libraries.md` is the informative one. The counts in",
        "parentheses are results that are inf or NaN where the true value is",
        "representable: He_n/sqrt(n!) through `factorial` from n = 171, H_1999(0) = 0",
        "returned as NaN, Jacobi and Gegenbauer at x = ±1.5 returned as inf or NaN",
        "below double's limit.",
    ]
    lines += [
        "",
        "## At the edges of the ranges",
        "",
        "`unit_tests/reference/edges.txt` (`generate.py --edges`: the families' recurrences at",
        "150 digits, values and first derivatives) holds rows chosen to leave float's and",
        "double's range, x given as doubles (not float32), and parameters near their limits.",
        "`test_edges.cpp` evaluates each through every policy, with dV, and as series with",
        "unit coefficients, in float and double, both layouts; what it asserts:",
        "",
        "- values beyond the output type's range are ±inf with the true sign, never NaN; values",
        "  inside it are within the tolerance above, also further along a row that left the",
        "  range (a recurrence's state carries its own binary exponent once it passes 2^256,",
        "  so double's range never overflows in the working precision);",
        "- x enters at its own precision: a double x with float results gives float(p_n(x)),",
        "  not p_n(float(x)) (T_1999(0.999999) = −0.950927, against −0.956552 at the float",
        "  nearest 0.999999);",
        "- a row's bits depend on its x alone: not on the policy (ScanAlongN aside, which",
        "  composes chunks and agrees to rounding), the row's place in a batch (the lanes of a",
        "  lockstep block), the batch's length (a stream's chunks) or whether x came as float",
        "  or as the same number in double;",
        "- NaN, ±inf and |x| > 2^256 (outside recur's domain) give NaN in every entry of their",
        "  row, p_0 included (scipy.special gives NaN for NaN; numpy's `*vander` NaN for both);",
        "- at the parameters' limits (α, β → −1, λ → −1/2, λ = 0 and near it, Laguerre α = 100,",
        "  Jacobi(40, −0.5)) Gauss rules, projections and fits are exact to 1e-12 / 1e-10;",
        "  Gegenbauer at λ = 0, whose C_n^(0) vanish for n ≥ 1, has Chebyshev's Gauss rule, and",
        "  `GegenbauerNormalized{0}` is `ChebyshevTNormalized` bit for bit, while project and",
        "  fit in the vanishing basis itself throw, naming the orthonormal variant.",
        "",
        "Worst error of ThreadPerX in ulp of the value (away from zeros, as above) and how",
        "many of the stored values were beyond the type's range (all of them ±inf):",
        "",
        "| family | parameters | x | N | double ulp | double beyond | float ulp | float beyond |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    by_case = {}
    for family, a, b, l, x, n, precision, ulp, beyond in edges:
        by_case.setdefault((family, a, b, l, x, n), {})[precision] = (ulp, beyond)
    for (family, a, b, l, x, n), v in by_case.items():
        params = ", ".join(f"{k} = {p:g}" for k, p in (("α", a), ("β", b), ("λ", l))
                           if p != 0 or (k == "λ" and family.startswith("gegenbauer")))
        d, f = v.get("double", (0, 0)), v.get("float", (0, 0))
        lines.append(f"| {family} | {params} | {x} | {n} | {ulps(d[0])} | {d[1]} | "
                     f"{ulps(f[0])} | {f[1]} |")
    (ROOT / "docs/accuracy.md").write_text("\n".join(lines) + "\n")
    plot(recur, ROOT / "docs/accuracy.png")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
