"""Benchmark: the public API and the ``score`` command against the per-row loop, in one run.

Two shapes (``--shape both``, the default): one reference (N attempts derived from the 12 of
the shipped benchmark, half of them distinct; ``score_benchmark``) and items (``--items``
items, ``--item-rows`` attempts in all, each against its own item; ``score_items`` of
``load_items`` of an items file, the file's reading included). For each, in this order: the
per-row loop (``tests/oracles/reference_rules.score_row`` row after row, the rows in
memory: the baseline), the public API call (``--rounds`` times, the median reported, with
the default number of processes and, where that is more than one, with one), the ``score``
command end to end (``python -m recallscore_nb score`` on a Parquet file, reading and
writing included, ``--rounds`` times), and unless ``--skip-independent`` the independent
per-row loop with its own file reading and writing (``baseline_loop.py``). Every row of the
API's table and of the command's file is compared with the loop's (floats by ``==``).

``--rules`` scores with some rules only (``rules=``, ``score --rules``); ``--rules loop``
with the loop's rules, like against like, against issue 23's goals (every rule: issue 31's).

Exit status: 0 when everything agrees with the loop everywhere, 1 otherwise. Speed goals
are printed, never asserted.

    .venv/bin/python benchmarks/bench_scoring.py --rows 20000 --item-rows 4000 --items 40
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generate import (
    BENCHMARK_JSON,
    REPO,
    SHOW_DIFFS,
    attempt_ids,
    fmt_rate,
    load_benchmark,
    make_attempts,
    reference_rules,
    run_independent,
)

GOALS = {"one": 20.0, "items": 20.0, "command": None}
"""Issue 31's goals with every rule the package has (the loop has all but ``equivalent``):
the half-distinct one-reference shape and the items shape at 20x."""
LIKE_GOALS = {"one": 60.0, "items": 40.0, "command": 40.0}
"""Issue 23's goals, like against like: ``--rules loop`` (the package scoring with the
loop's rules only)."""
LOOP_RULES = "literal,normalized,squad_exact_match,token_f1,contains,checklist"
"""The rules the per-row loop computes: ``--rules loop``."""


# --- the loop ----------------------------------------------------------------------------
def run_baseline(attempts, references_of, facts_of, mode):
    """The plain per-row loop: ``score_row`` for each attempt, its references and facts given
    by ``references_of(i)`` and ``facts_of(i)``; (seconds, column names, one tuple a row)."""
    score_row = reference_rules.score_row
    out = []
    append = out.append
    start = time.perf_counter()
    for i, attempt in enumerate(attempts):
        append(tuple(score_row(attempt, references_of(i), facts_of(i), mode).values()))
    seconds = time.perf_counter() - start
    columns = list(score_row(attempts[0], references_of(0), facts_of(0), mode))
    return seconds, columns, out


def compare(columns, ref_rows, frame) -> list[str]:
    """What differs between the loop's rows and a scored table, column by column (empty:
    every row equal); a loop column the table lacks is a difference."""
    import numpy as np

    if len(frame) != len(ref_rows):
        return [f"{len(frame)} rows scored for {len(ref_rows)} attempts"]
    notes = []
    for name, values in zip(columns, zip(*ref_rows)):
        if name not in frame.columns:
            notes.append(f"no column {name!r}")
            continue
        got = frame[name]
        kind = {bool: bool, int: np.int64, float: np.float64, str: object}[type(values[0])]
        ref = np.array(values, dtype=kind)
        if kind is object:
            differ = np.array([a != b for a, b in zip(got.fillna("").tolist(), values)])
        else:
            differ = got.isna().to_numpy() | (got.to_numpy(dtype=kind, na_value=0) != ref)
        if differ.any():
            row = int(np.flatnonzero(differ)[0])
            notes.append(f"column {name!r}: {int(differ.sum()):,} rows differ, e.g. row {row}: "
                         f"loop {values[row]!r}, package {got.iloc[row]!r}")
    return notes


def timed_rounds(call, rounds: int, label: str) -> tuple[float, object]:
    """The median wall time of ``call()`` over ``rounds`` calls, and its last result."""
    timings, result = [], None
    for r in range(rounds):
        result = None
        start = time.perf_counter()
        result = call()
        timings.append(time.perf_counter() - start)
        print(f"  {label}, round {r + 1}: {timings[-1]:.3f} s", flush=True)
    return statistics.median(timings), result


# --- the command -------------------------------------------------------------------------
def run_cli(table, scorer: list[str], rounds: int, squad_mode: str, rules=None) -> dict:
    """``python -m recallscore_nb score`` on ``table`` written to a Parquet file, under
    ``/usr/bin/time`` (a child of this process would report this process's RSS high-water
    mark, which Linux carries across exec); the median wall time of ``rounds`` runs, the
    peak RSS of the last, and its output read back."""
    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory(prefix="bench_scoring_") as tmp:
        attempts, out = Path(tmp) / "attempts.parquet", Path(tmp) / "out.parquet"
        pq.write_table(table, attempts)
        cmd = [sys.executable, "-m", "recallscore_nb", "score", *scorer, "--attempts",
               str(attempts), "--out", str(out), "--quiet", "--squad-mode", squad_mode,
               *(["--rules", rules] if rules else [])]
        timed = Path("/usr/bin/time").exists()
        timings, peak = [], None
        for r in range(rounds):
            start = time.perf_counter()
            proc = subprocess.run((["/usr/bin/time", "-f", "@@ %M"] if timed else []) + cmd,
                                  cwd=REPO, capture_output=True, text=True)
            timings.append(time.perf_counter() - start)
            if proc.returncode != 0:
                return {"ok": False, "stderr": proc.stderr[-2000:]}
            marks = [x for x in proc.stderr.splitlines() if x.startswith("@@ ")]
            peak = int(marks[-1].split()[1]) if marks else None
            print(f"  score command, round {r + 1}: {timings[-1]:.3f} s", flush=True)
        return {"ok": True, "seconds": statistics.median(timings), "peak_kib": peak,
                "out": pq.read_table(out).to_pandas()}


# --- the shapes --------------------------------------------------------------------------
def one_reference(args) -> dict:
    """The one-reference shape: the loop, ``score_benchmark``, the command."""
    import pandas as pd
    import pyarrow as pa

    from recallscore_nb.execution.api import score_benchmark
    from recallscore_nb.io.benchmarks import load_benchmark as load_package_benchmark

    reference, facts, seeds = load_benchmark()
    print(f"one reference: {BENCHMARK_JSON.relative_to(REPO)}, generating {args.rows:,} "
          f"attempts (seed {args.seed}) ...", flush=True)
    attempts = make_attempts(seeds, args.rows, args.seed)
    print("  the per-row loop ...", flush=True)
    base, columns, rows = run_baseline(attempts, lambda i: [reference], lambda i: facts,
                                       args.squad_mode)
    bench = load_package_benchmark()
    frame = pd.DataFrame({"attempt": attempts})  # pandas' own string column, as read
    result = {"shape": "one reference", "rows": len(attempts), "baseline": base,
              "distinct": len(set(attempts)) / len(attempts)}

    def api(processes):
        return lambda: score_benchmark(bench, frame, squad_mode=args.squad_mode,
                                       processes=processes, rules=args.rules)
    package_runs(result, api, args, "score_benchmark", columns, rows)
    if not args.skip_cli:
        table = pa.table({"id": attempt_ids(len(attempts)), "attempt": attempts})
        command(result, table, [], args, columns, rows)
    if not args.skip_independent:
        print("  the independent loop (baseline_loop.py, files included) ...", flush=True)
        result["independent"] = run_independent(attempts)
    return result


def package_runs(result: dict, api, args, label: str, columns, rows) -> None:
    """Time ``api(processes)()`` with the default processes (and with one, where the default
    is more), and compare its last table with the loop's rows."""
    from recallscore_nb.execution.processes import default_processes

    result["processes"] = args.processes or default_processes()
    result["package"], table = timed_rounds(api(args.processes), args.rounds,
                                            f"{label}, {result['processes']} process(es)")
    result["package_notes"] = compare(columns, rows, table)
    del table
    if result["processes"] > 1:
        result["one_process"], _ = timed_rounds(api(1), args.rounds, f"{label}, one process")


def command(result: dict, table, scorer: list[str], args, columns, rows) -> None:
    """The ``score`` command's time and peak RSS, and its file compared with the loop."""
    cli = run_cli(table, scorer, args.rounds, args.squad_mode, args.rules)
    if not cli["ok"]:
        result["cli_notes"] = [f"the command failed: {cli['stderr']}"]
        return
    result.update(cli_seconds=cli["seconds"], cli_peak_kib=cli["peak_kib"])
    result["cli_notes"] = compare(columns, rows, cli["out"])


# --- the report --------------------------------------------------------------------------
def report(results: list[dict], goals: dict) -> bool:
    """Print every shape's rates and ratios against ``goals``; whether everything agreed
    with the loop."""
    agree = True

    def line(label: str, value: str, comment: str = "") -> None:
        print(f"  {label:<34}{value:>18}   {comment}".rstrip())

    def ratio(label: str, seconds: float, base: float, goal: float | None) -> None:
        x = base / seconds
        met = "met" if goal is not None and x >= goal else "NOT met"
        verdict = "" if goal is None else f"goal >= {goal:.0f}x: {met}"
        line(label, f"{x:.1f}x", verdict)

    for r in results:
        n = r["rows"]
        print(f"\n{r['shape']}: {n:,} rows" + (f", {r['distinct']:.1%} distinct"
                                             if "distinct" in r else ""))
        line("per-row loop (baseline)", fmt_rate(n, r["baseline"]), f"{r['baseline']:.2f} s")
        line(f"package, {r['processes']} process(es)", fmt_rate(n, r["package"]),
             f"{r['package']:.3f} s, median of {r['rounds']}")
        ratio("ratio package/loop", r["package"], r["baseline"], goals[r["key"]])
        if "one_process" in r:
            line("package, one process", fmt_rate(n, r["one_process"]),
                 f"{r['one_process']:.3f} s")
            ratio("ratio package/loop, one process", r["one_process"], r["baseline"], None)
        if "cli_seconds" in r:
            peak = f", peak RSS {r['cli_peak_kib'] / 1024:,.0f} MiB" if r["cli_peak_kib"] else ""
            line("score command, end to end", fmt_rate(n, r["cli_seconds"]),
                 f"{r['cli_seconds']:.2f} s{peak}")
            ratio("ratio command/loop", r["cli_seconds"], r["baseline"], goals["command"])
        if "independent" in r:
            line("independent loop, files included", fmt_rate(n, r["independent"]),
                 f"{r['independent']:.2f} s (baseline_loop.py)")
            if "cli_seconds" in r:
                ratio("ratio command/independent loop", r["cli_seconds"], r["independent"],
                      None)
            ratio("ratio package/independent", r["package"], r["independent"], None)
        notes = r["package_notes"] + r.get("cli_notes", [])
        agree = agree and not notes
        line("agreement", "every row" if not notes else "DIFFERS", "floats by ==")
        for note in notes[:SHOW_DIFFS]:
            print(f"    {note}")
    return agree


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=("both", "one", "items"), default="both")
    parser.add_argument("--rows", type=int, default=1_000_000,
                        help="attempts against one reference")
    parser.add_argument("--items", type=int, default=2_000, help="items of the items shape")
    parser.add_argument("--item-rows", type=int, default=200_000,
                        help="attempts of the items shape, in all")
    parser.add_argument("--seed", type=int, default=0, help="seed of the attempt generator")
    parser.add_argument("--rounds", type=int, default=3, help="timings of each (median)")
    parser.add_argument("--skip-cli", action="store_true", help="do not run the command")
    parser.add_argument("--skip-independent", action="store_true",
                        help="do not run baseline_loop.py, the independent per-row loop")
    parser.add_argument("--squad-mode", choices=("v1.1", "v2.0"), default="v1.1")
    parser.add_argument("--processes", type=int, default=None,
                        help="processes of the API calls (default: the package's default)")
    parser.add_argument("--rules", default=None,
                        help="the package's rules, comma-separated (rules= and score --rules); "
                             "'loop': the loop's rules, like against like (default: every "
                             "rule)")
    args = parser.parse_args(argv)
    args.rules = LOOP_RULES if args.rules == "loop" else args.rules
    if min(args.rows, args.rounds, args.items, args.item_rows) < 1:
        parser.error("--rows, --rounds, --items and --item-rows must be at least 1")
    results = []
    if args.shape in ("both", "one"):
        results.append(dict(one_reference(args), key="one", rounds=args.rounds))
    if args.shape in ("both", "items"):
        import items_shape

        results.append(dict(items_shape.run(args), key="items", rounds=args.rounds))
    print(f"\nrecallscore scoring benchmark (squad_mode {args.squad_mode}, rules "
          f"{args.rules or 'every rule'}); the per-row loop is reference_rules.score_row, in "
          "this run")
    return 0 if report(results, LIKE_GOALS if args.rules == LOOP_RULES else GOALS) else 1


if __name__ == "__main__":
    sys.exit(main())
