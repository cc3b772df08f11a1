"""Benchmark: the vectorized ``score_all`` against the per-row reference ("the official way").

Generates N attempts from the 12 attempts of the shipped benchmark, scores them with a plain
Python loop over ``tests/reference_rules.score_row`` (the baseline) and with
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
import json
import random
import resource
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCHMARK_JSON = REPO / "recallscore_nb" / "data" / "benchmarks" / "four_fact_recall.json"
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

import reference_rules  # noqa: E402

RATIO_GOAL = 30.0
MEMORY_GOAL_MIB = 1024.0
SHOW_DIFFS = 5


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


# --- the attempts ------------------------------------------------------------------------
ARTICLES = ["a", "an", "the", "The", "A", "An", "THE"]
CONTEXTS = [
    "Please remember that ",
    "I think ",
    "Answer: ",
    "ok so ",
    "Hmm, ",
    "In short - ",
    "From memory: ",
    "(not sure) ",
    "The answer is ",
]
SPACES = ["  ", "\t", "\n", " \t ", "\r\n", "   ", " \n", "\x0b", "\x0c", "\x1f"]
NEAR_MISSES = {
    "west": ["northwest", "East", "west's", "wests"],
    "token": ["tokens", "token's", "tok en"],
    "copper": ["copper-colored", "Copper,", "coppery"],
    "drawer": ["drawers", "drawer-top"],
    "before": ["befor", "be-fore"],
    "museum": ["Museum's", "museums"],
    "opens": ["open", "opens!"],
}
NON_ASCII_WORDS = [
    "musée", "déjà", "ﬁnally", "铜", "抽屉", "博物馆", "Straße", "İstanbul", "\u212aelvin",
]  # fmt: skip


def _words(text: str) -> list[str]:
    return text.split(" ")


def _pos(rng: random.Random, seq) -> int:
    return rng.randrange(len(seq)) if seq else 0


def op_case(rng: random.Random, s: str) -> str:
    choice = rng.randrange(5)
    if choice == 0:
        return s.upper()
    if choice == 1:
        return s.lower()
    if choice == 2:
        return s.title()
    if choice == 3:
        return s.swapcase()
    words = _words(s)
    i = _pos(rng, words)
    words[i] = words[i].upper() if rng.random() < 0.5 else words[i].capitalize()
    return " ".join(words)


def op_punct_insert(rng: random.Random, s: str) -> str:
    ch = rng.choice(string.punctuation)
    if rng.random() < 0.5 or not s:  # after a word, as a writer would
        words = _words(s)
        i = _pos(rng, words)
        words[i] = words[i] + ch if words else ch
        return " ".join(words)
    i = rng.randrange(len(s) + 1)  # anywhere, even inside a word
    return s[:i] + ch + s[i:]


def op_punct_remove(rng: random.Random, s: str) -> str:
    marks = [i for i, ch in enumerate(s) if ch in string.punctuation]
    if not marks or rng.random() < 0.5:
        return s.translate(str.maketrans("", "", string.punctuation))
    i = rng.choice(marks)
    return s[:i] + s[i + 1 :]


def op_spacing(rng: random.Random, s: str) -> str:
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice(SPACES) + s
    if choice == 1:
        return s + rng.choice(SPACES)
    spaces = [i for i, ch in enumerate(s) if ch == " "]
    if not spaces:
        return " " + s
    i = rng.choice(spaces)
    return s[:i] + rng.choice(SPACES) + s[i + 1 :]


def op_word_drop(rng: random.Random, s: str) -> str:
    words = _words(s)
    if len(words) > 1:
        del words[_pos(rng, words)]
    return " ".join(words)


def op_word_dup(rng: random.Random, s: str) -> str:
    words = _words(s)
    i = _pos(rng, words)
    words.insert(i, words[i] if words else "token")
    return " ".join(words)


def op_word_swap(rng: random.Random, s: str) -> str:
    words = _words(s)
    if len(words) > 1:
        i = rng.randrange(len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words)


def op_article(rng: random.Random, s: str) -> str:
    words = _words(s)
    words.insert(rng.randrange(len(words) + 1), rng.choice(ARTICLES))
    return " ".join(words)


def op_context(rng: random.Random, s: str) -> str:
    return rng.choice(CONTEXTS) + s


def op_fragment(rng: random.Random, s: str) -> str:
    """A short slice of the attempt: few tokens, where F1's rounding shows."""
    words = s.split()
    if not words:
        return s
    i = rng.randrange(len(words))
    return " ".join(words[i : i + rng.randint(1, 4)])


def op_hyphenate(rng: random.Random, s: str) -> str:
    spaces = [i for i, ch in enumerate(s) if ch == " "]
    if not spaces:
        return s
    i = rng.choice(spaces)
    return s[:i] + rng.choice("-/_") + s[i + 1 :]


def op_near_miss(rng: random.Random, s: str) -> str:
    words = _words(s)
    hits = [i for i, w in enumerate(words) if w.lower().strip(string.punctuation) in NEAR_MISSES]
    if not hits:
        return s
    i = rng.choice(hits)
    words[i] = rng.choice(NEAR_MISSES[words[i].lower().strip(string.punctuation)])
    return " ".join(words)


def op_non_ascii(rng: random.Random, s: str) -> str:
    choice = rng.randrange(7)
    words = _words(s)
    i = _pos(rng, words)
    if choice == 0:  # typographic apostrophe
        words[i] = words[i] + rng.choice(["’s", "’"])
    elif choice == 1:  # en dash between words
        words.insert(i, "–")
    elif choice == 2:  # no-break space for a space
        return s.replace(" ", "\u00a0", rng.randint(1, 3))
    elif choice == 3:  # accented letter
        words[i] = words[i].replace("e", "é", 1) or "é"
    elif choice == 4:  # a word from elsewhere
        words.insert(i, rng.choice(NON_ASCII_WORDS))
    elif choice == 5:  # Chinese glued to a word (CJK letters are word characters)
        words[i] = words[i] + rng.choice(["铜", "在抽屉里", "。"])
    else:  # ligature
        words.insert(i, rng.choice(["ﬁ", "ﬁrst", "the’"]))
    return " ".join(words)


FILLERS = [
    "today", "maybe", "box", "coin", "small", "old", "left", "right", "top", "key", "it",
    "always", "then", "and", "or", "not", "in", "on", "of", "to", "is", "goes", "put",
    "copper", "token", "west", "drawer", "before", "museum", "opens", "after", "silver",
]  # fmt: skip


def op_filler(rng: random.Random, s: str) -> str:
    words = _words(s)
    words.insert(rng.randrange(len(words) + 1), rng.choice(FILLERS))
    return " ".join(words)


ASCII_OPS = [
    op_case,
    op_punct_insert,
    op_punct_remove,
    op_spacing,
    op_word_drop,
    op_word_dup,
    op_word_swap,
    op_article,
    op_context,
    op_fragment,
    op_hyphenate,
    op_near_miss,
    op_filler,
]
# Edge cases that always appear (only once each among the distinct attempts).
SPECIALS = ["", " ", "\t\n", "!!!", "the", "A", "The.", "an the a", "copper", "Copper."]
NON_ASCII_SHARE = 0.05


def perturb(rng: random.Random, seed_attempt: str, non_ascii: bool) -> str:
    s = seed_attempt
    for _ in range(rng.randint(1, 5)):
        s = rng.choice(ASCII_OPS)(rng, s)
    if non_ascii:
        for _ in range(rng.randint(1, 2)):
            s = op_non_ascii(rng, s)
    return s


def make_attempts(seeds: list[str], n_rows: int, seed: int) -> list[str]:
    """N attempts, half of them distinct, ~5% non-ASCII; deterministic in ``seed``.

    A pool of N/2 distinct attempts (the seeds, a few edge cases, then perturbations, of
    which 5% carry non-ASCII text) is completed to N rows by repeating pool members picked
    at random, then shuffled.
    """
    rng = random.Random(seed)
    target = max(1, n_rows // 2)
    want_non_ascii = round(target * NON_ASCII_SHARE)
    pool: dict[str, None] = {}
    for s in seeds + SPECIALS:
        if len(pool) < target - want_non_ascii:
            pool[s] = None
    for non_ascii, size in ((False, target - want_non_ascii), (True, target)):
        tries = 0
        while len(pool) < size and tries < 100 * target:
            tries += 1
            candidate = perturb(rng, rng.choice(seeds), non_ascii)
            if candidate.isascii() != non_ascii:
                pool.setdefault(candidate, None)
    distinct = list(pool)
    rows = distinct + [rng.choice(distinct) for _ in range(n_rows - len(distinct))]
    rng.shuffle(rows)
    return rows


# --- the run -----------------------------------------------------------------------------
def load_benchmark() -> tuple[str, list[tuple[str, list[str]]], list[str]]:
    with open(BENCHMARK_JSON, encoding="utf-8") as fh:
        bench = json.load(fh)
    reference = bench["referenceAnswer"]
    facts = [(f["fact"], list(f["requiredTerms"])) for f in bench["protocol"]["factChecklist"]]
    seeds = [row["attempt"] for row in bench["rows"]]
    return reference, facts, seeds


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


def _cli_ids(n: int) -> list[str]:
    return [f"A{i:07d}" for i in range(n)]


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
                "id": pa.array(_cli_ids(len(attempts)), type=pa.string()),
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
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
        result["seconds"] = time.perf_counter() - start
        result["peak_kib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        result["returncode"] = proc.returncode
        result["stderr"] = proc.stderr
        if proc.returncode == 0 and out_path.exists():
            result["ok"] = True
            out = pq.read_table(out_path).to_pandas()
            if "id" in out.columns and out["id"].is_unique:  # align rows by id, not order
                out = out.set_index("id").reindex(_cli_ids(len(attempts))).reset_index()
            result["out"] = out
    return result


def fmt_rate(rows: int, seconds: float) -> str:
    return f"{rows / seconds:,.0f} rows/s" if seconds > 0 else "inf rows/s"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="attempts to score")
    parser.add_argument("--seed", type=int, default=0, help="seed of the attempt generator")
    parser.add_argument("--rounds", type=int, default=3, help="package timings (median)")
    parser.add_argument("--skip-cli", action="store_true", help="do not run the CLI")
    parser.add_argument("--squad-mode", choices=("v1.1", "v2.0"), default="v1.1")
    parser.add_argument("--shape", choices=("one", "items"), default="one",
                        help="one reference for all rows, or many items (see items_shape.py)")
    parser.add_argument("--items", type=int, default=1_000, help="items, with --shape items")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.rounds < 1:
        parser.error("--rows and --rounds must be at least 1")
    if args.shape == "items":
        import items_shape

        return items_shape.run(args)

    import pandas as pd
    import pyarrow as pa

    from recallscore_nb.core.facts import Fact
    from recallscore_nb.core.scoring import score_all

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
    for r in range(args.rounds):
        frame = None
        gc.collect()
        reset = tracker.reset_hwm()
        before = _status_kib("VmRSS")
        hwm_before = _status_kib("VmHWM")
        start, cpu_start = time.perf_counter(), time.process_time()
        frame = score_all(series, reference, facts=pkg_facts, squad_mode=args.squad_mode)
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
        f"{pkg_seconds:.3f} s wall ({pkg_cpu:.3f} s CPU), median of {args.rounds}",
    )
    ratio_goal = f"goal >= {RATIO_GOAL:.0f}x: {goal(ratio >= RATIO_GOAL)}"
    line("ratio package/baseline", f"{ratio:.1f}x", ratio_goal)
    line("ratio by CPU time", f"{cpu_ratio:.1f}x", "(less sensitive to machine load)")
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
