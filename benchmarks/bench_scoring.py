"""Benchmark: the vectorized ``score_all`` against the per-row reference ("the official way").

Generates N attempts from the 12 attempts of the shipped benchmark, scores them with a plain
Python loop over ``tests/oracles/reference_rules.score_row`` (the baseline) and with
``recallscore_nb.core.scoring.score_all`` (the package), checks that both agree exactly on every
row and every column, and prints speed and memory. Unless ``--skip-cli``, it also runs
``python -m recallscore_nb score`` on a Parquet file of the same attempts.

Exit status: 0 when the package agrees with the baseline everywhere, 1 otherwise. Speed and
memory goals are printed, never asserted.

    .venv/bin/python benchmarks/bench_scoring.py --rows 20000 --skip-cli
"""

from __future__ import annotations

import argparse
import gc
import resource
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

RATIO_GOAL = 60.0
MEMORY_GOAL_MIB = 1024.0


# --- memory readings ---------------------------------------------------------------------
def _status_kib(field: str) -> int | None:
    """A ``VmXXX`` field of /proc/self/status, in KiB (None where unavailable)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class PeakTracker:
    """The process's peak RSS, surviving resets of the high-water mark (clear_refs)."""

    def __init__(self) -> None:
        self.peak_kib = 0

    def note(self) -> None:
        self.peak_kib = max(
            self.peak_kib,
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,  # KiB on Linux
            _status_kib("VmHWM") or 0,
        )

    def reset_hwm(self) -> bool:
        """Reset VmHWM to the current RSS (Linux: write 5 to clear_refs); False if not possible."""
        self.note()
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
                fh.write("5")
            return True
        except OSError:
            return False


def mib(kib: float | None) -> str:
    return "n/a" if kib is None else f"{kib / 1024:,.0f} MiB"


# --- the run -----------------------------------------------------------------------------
def run_baseline(attempts, reference, facts, mode):
    """The plain per-row loop; returns (wall s, CPU s, column names, one tuple per row)."""
    references = [reference]
    score_row = reference_rules.score_row
    out = []
    append = out.append
    start, cpu_start = time.perf_counter(), time.process_time()
    for attempt in attempts:
        append(tuple(score_row(attempt, references, facts, mode).values()))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    columns = list(score_row(attempts[0], references, facts, mode)) if attempts else []
    return seconds, cpu, columns, out


def compare(attempts, columns, ref_rows, frame):
    """Rows where the package differs from the reference: {row: [(column, ref, pkg)]}."""
    import numpy as np

    diffs: dict[int, list] = {}
    notes = []
    if len(frame) != len(attempts):
        notes.append(f"package returned {len(frame)} rows for {len(attempts)} attempts")
        return diffs, notes
    ref_columns = list(zip(*ref_rows)) if ref_rows else [() for _ in columns]
    for name, ref_values in zip(columns, ref_columns):
        if name not in frame.columns:
            notes.append(f"package frame has no column {name!r}")
            continue
        kind = {bool: bool, int: np.int64, float: np.float64}[type(ref_values[0])]
        ref = np.array(ref_values, dtype=kind)
        pkg_series = frame[name]
        missing = pkg_series.isna().to_numpy()
        pkg = pkg_series.to_numpy()
        if pkg.dtype == object:
            pairs = zip(pkg, ref.tolist(), missing.tolist())
            differ = np.fromiter(
                (m or not p == r for p, r, m in pairs), dtype=bool, count=len(ref)
            )
        else:
            differ = missing | (pkg != ref)
        if str(pkg_series.dtype) not in (str(ref.dtype), f"{ref.dtype}[pyarrow]"):
            notes.append(
                f"column {name!r}: package dtype {pkg_series.dtype}, reference {ref.dtype}"
            )
        for row in np.flatnonzero(differ)[:1000].tolist():
            diffs.setdefault(row, []).append((name, ref[row].item(), pkg[row]))
        if differ.any():
            notes.append(f"column {name!r}: {int(differ.sum()):,} rows differ")
    extra = [c for c in frame.columns if c not in columns]
    if extra:
        notes.append(f"package columns not in the reference (not compared): {extra}")
    return diffs, notes


def run_cli(attempts, squad_mode):
    """Score the attempts with ``python -m recallscore_nb score``; returns a result dict."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    result = {"ok": False, "seconds": None, "peak_kib": None, "stderr": "", "out": None}
    with tempfile.TemporaryDirectory(prefix="bench_scoring_") as tmp:
        attempts_path = Path(tmp) / "attempts.parquet"
        out_path = Path(tmp) / "out.parquet"
        table = pa.table(
            {
                "id": pa.array(attempt_ids(len(attempts)), type=pa.string()),
                "attempt": pa.array(attempts, type=pa.string()),
            }
        )
        pq.write_table(table, attempts_path)
        del table
        cmd = [
            sys.executable, "-m", "recallscore_nb", "score",
            "--attempts", str(attempts_path), "--out", str(out_path),
        ]  # fmt: skip
        if squad_mode != "v1.1":
            cmd += ["--squad-mode", squad_mode]
        # under /usr/bin/time: a child forked by this process (which holds the attempts and
        # the baseline's results) would report this process's RSS high-water mark, which
        # Linux carries across exec; time is small when it forks
        timed = Path("/usr/bin/time").exists()
        start = time.perf_counter()
        proc = subprocess.run((["/usr/bin/time", "-f", "@@ %M"] if timed else []) + cmd,
                              cwd=REPO, capture_output=True, text=True)
        result["seconds"] = time.perf_counter() - start
        marks = [x for x in proc.stderr.splitlines() if x.startswith("@@ ")]
        result["peak_kib"] = int(marks[-1].split()[1]) if marks else \
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        result["returncode"] = proc.returncode
        result["stderr"] = proc.stderr
        if proc.returncode == 0 and out_path.exists():
            result["ok"] = True
            out = pq.read_table(out_path).to_pandas()
            if "id" in out.columns and out["id"].is_unique:  # align rows by id, not order
                out = out.set_index("id").reindex(attempt_ids(len(attempts))).reset_index()
            result["out"] = out
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="attempts to score")
    parser.add_argument("--seed", type=int, default=0, help="seed of the attempt generator")
    parser.add_argument("--rounds", type=int, default=3, help="package timings (median)")
    parser.add_argument("--skip-cli", action="store_true", help="do not run the CLI")
    parser.add_argument("--skip-independent", action="store_true",
                        help="do not run baseline_loop.py, the independent per-row loop")
    parser.add_argument("--squad-mode", choices=("v1.1", "v2.0"), default="v1.1")
    parser.add_argument("--shape", choices=("one", "items"), default="one",
                        help="one reference for all rows, or many items (see items_shape.py)")
    parser.add_argument("--items", type=int, default=1_000, help="items, with --shape items")
    parser.add_argument("--processes", type=int, default=2,
                        help="processes the package scores in (score_all's processes=); the "
                             "one-process time is measured too")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.rounds < 1:
        parser.error("--rows and --rounds must be at least 1")
    if args.shape == "items":
        import items_shape

        return items_shape.run(args)

    import pandas as pd
    import pyarrow as pa

    from recallscore_nb.core.facts import Fact
    from recallscore_nb.execution.api import score_all

    tracker = PeakTracker()
    reference, facts, seeds = load_benchmark()
    print(f"benchmark: {BENCHMARK_JSON.relative_to(REPO)} ({len(seeds)} seed attempts)")
    print(f"generating {args.rows:,} attempts (seed {args.seed}) ...", flush=True)
    start = time.perf_counter()
    attempts = make_attempts(seeds, args.rows, args.seed)
    n = len(attempts)
    distinct = len(set(attempts)) / n
    non_ascii = sum(1 for a in attempts if not a.isascii()) / n
    seconds = time.perf_counter() - start
    print(f"  done in {seconds:.1f} s; distinct {distinct:.1%}, non-ASCII {non_ascii:.1%}")

    # The package, timed over rounds; the extra memory is the RSS high-water mark during the
    # call above the RSS just before it.
    series = pd.Series(attempts, dtype=pd.ArrowDtype(pa.string()))
    pkg_facts = [Fact(name, tuple(terms)) for name, terms in facts]
    timings, cpu_timings, extras = [], [], []
    frame = None
    single = []
    if args.processes > 1:
        for r in range(args.rounds):
            start = time.perf_counter()
            score_all(series, reference, facts=pkg_facts, squad_mode=args.squad_mode)
            single.append(time.perf_counter() - start)
            print(f"  package round {r + 1}, one process: {single[-1]:.3f} s", flush=True)
    for r in range(args.rounds):
        frame = None
        gc.collect()
        reset = tracker.reset_hwm()
        before = _status_kib("VmRSS")
        hwm_before = _status_kib("VmHWM")
        start, cpu_start = time.perf_counter(), time.process_time()
        frame = score_all(series, reference, facts=pkg_facts, squad_mode=args.squad_mode,
                          processes=args.processes)
        timings.append(time.perf_counter() - start)
        cpu_timings.append(time.process_time() - cpu_start)
        hwm_after = _status_kib("VmHWM")
        if before is not None and hwm_after is not None:
            # Without a reset the high-water mark may predate the call: a lower bound then.
            extras.append(hwm_after - (before if reset else max(before, hwm_before or 0)))
        tracker.note()
        print(f"  package round {r + 1}: {timings[-1]:.3f} s", flush=True)
    pkg_seconds = statistics.median(timings)
    pkg_cpu = statistics.median(cpu_timings)

    print(f"baseline: reference_rules.score_row over {n:,} rows ...", flush=True)
    base_seconds, base_cpu, columns, ref_rows = run_baseline(attempts, reference, facts, args.squad_mode)
    tracker.note()
    print(f"  done in {base_seconds:.1f} s", flush=True)

    diffs, notes = compare(attempts, columns, ref_rows, frame)
    tracker.note()
    agree = not diffs and not any("rows" in s or "no column" in s for s in notes)

    independent = None
    if not args.skip_independent:
        print("independent per-row loop: baseline_loop.py (file read included) ...", flush=True)
        independent = run_independent(attempts)

    cli = None
    if not args.skip_cli:
        print("CLI: python -m recallscore_nb score ...", flush=True)
        cli = run_cli(attempts, args.squad_mode)
        if not cli["ok"]:
            print(f"  CLI failed (exit {cli.get('returncode')}); stderr:")
            print("  " + "\n  ".join((cli["stderr"] or "(empty)").rstrip().splitlines()[-20:]))
        else:
            cli_diffs, cli_notes = compare(attempts, columns, ref_rows, cli["out"])
            cli["agree"] = not cli_diffs and not any("rows" in s for s in cli_notes)
            cli["diff_rows"] = len(cli_diffs)
            cli["diffs"] = {row: cli_diffs[row] for row in sorted(cli_diffs)[:SHOW_DIFFS]}
            cli["compared"] = [c for c in columns if c in cli["out"].columns]
            cli["out"] = None

    tracker.note()
    ratio = base_seconds / pkg_seconds if pkg_seconds > 0 else float("inf")
    cpu_ratio = base_cpu / pkg_cpu if pkg_cpu > 0 else float("inf")
    extra_kib = max(extras) if extras else None

    def goal(ok: bool) -> str:
        return "met" if ok else "NOT met"

    def line(label: str, value: str, comment: str = "") -> None:
        print(f"  {label:<28}{value:>18}   {comment}".rstrip())

    print()
    print(f"recallscore scoring benchmark (squad_mode {args.squad_mode})")
    line("rows", f"{n:,}")
    line("distinct attempts", f"{distinct:.1%}")
    line("non-ASCII attempts", f"{non_ascii:.1%}")
    line(
        "baseline (per-row loop)",
        fmt_rate(n, base_seconds),
        f"{base_seconds:.2f} s wall ({base_cpu:.2f} s CPU), one pass",
    )
    line(
        "package score_all",
        fmt_rate(n, pkg_seconds),
        f"{pkg_seconds:.3f} s wall ({pkg_cpu:.3f} s CPU here), median of {args.rounds}, "
        f"{args.processes} process(es)",
    )
    ratio_goal = f"goal >= {RATIO_GOAL:.0f}x: {goal(ratio >= RATIO_GOAL)}"
    line("ratio package/baseline", f"{ratio:.1f}x", ratio_goal)
    if single:
        one = statistics.median(single)
        line("package, one process", fmt_rate(n, one), f"{one:.3f} s wall, median of "
                                                       f"{args.rounds}")
        line("ratio with one process", f"{base_seconds / one:.1f}x")
    else:  # one process: its CPU time is all the package's (children's would be left out)
        line("ratio by CPU time", f"{cpu_ratio:.1f}x", "(less sensitive to machine load)")
    if independent is not None:
        line("independent loop, file read", fmt_rate(n, independent),
             f"{independent:.2f} s (baseline_loop.py)")
        line("ratio package/independent", f"{independent / pkg_seconds:.1f}x",
             f"goal >= {RATIO_GOAL:.0f}x: {goal(independent / pkg_seconds >= RATIO_GOAL)}"
             + (f"; one process {independent / statistics.median(single):.1f}x"
                if single else ""))
    if extra_kib is not None:
        ok = extra_kib / 1024 < MEMORY_GOAL_MIB
        line("package call extra memory", mib(extra_kib), f"goal < 1 GiB: {goal(ok)}")
    else:
        line("package call extra memory", "n/a")
    line("peak RSS of this process", mib(tracker.peak_kib), "(holds baseline and package)")
    if cli is not None:
        if cli["ok"]:
            ok = cli["peak_kib"] / 1024 < MEMORY_GOAL_MIB
            rate = fmt_rate(n, cli["seconds"])
            line("CLI wall time", f"{cli['seconds']:.2f} s", f"{rate} end to end")
            line("CLI peak RSS (children)", mib(cli["peak_kib"]), f"goal < 1 GiB: {goal(ok)}")
            verdict = "agrees" if cli["agree"] else f"DIFFERS ({cli['diff_rows']:,}+ rows)"
            line("CLI output vs reference", verdict, f"{len(cli['compared'])} columns compared")
        else:
            line("CLI", "failed", f"exit {cli.get('returncode')}, see stderr above")
    verdict = "every row" if agree else "DISAGREES"
    line("agreement", verdict, f"{len(columns)} columns, floats by ==")
    for note in notes:
        print(f"  note: {note}")

    if cli is not None and cli["ok"] and not cli["agree"]:
        show_diffs("CLI output", attempts, cli["diffs"])
    if not agree:
        show_diffs("package", attempts, diffs)
        return 1
    return 0


def show_diffs(what: str, attempts, diffs) -> None:
    print()
    print(f"first {SHOW_DIFFS} rows where the {what} differs from the reference:")
    for row in sorted(diffs)[:SHOW_DIFFS]:
        print(f"  row {row}: attempt={attempts[row]!r}")
        for name, ref_value, pkg_value in diffs[row]:
            print(f"    {name}: reference={ref_value!r} {what}={pkg_value!r}")


if __name__ == "__main__":
    sys.exit(main())
