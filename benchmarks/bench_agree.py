"""Time the ``equivalent`` rule, then ``recallscore agree``, on EVOUNA.

First the rule itself: the answers per second of ``equivalent`` on EVOUNA NQ (15,099 judged
answers, the set shipped in the package), on one core (the process pinned to it), against
``contains`` in the same run (the baseline: one vectorized pass of SQuAD-normalized phrase
matching); each the best of ``--rounds`` runs, CPU time, every normalization done afresh and
every memo of the equivalence machinery emptied before each round (``--warm`` keeps them:
what a second call in the same process costs).

Then the command, as a user runs it: EVOUNA's NQ and TriviaQA sets together (about 25,000
judged answers, five systems) with 2,000 resamples: convert both, join the three files of
each, run ``recallscore agree`` under ``/usr/bin/time -v`` and report wall time and peak RSS
(``--skip-agree`` leaves this part out).

    .venv/bin/python benchmarks/bench_agree.py [--rounds 3] [--resamples 2000] [--skip-agree]

The data sets for the command are read from ``../shared/human-judgments/EVOUNA`` (never
copied into the repository); everything is written into a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from recallscore_nb.core import engine, equivalence
from recallscore_nb.core import rules as registry
from recallscore_nb.core.items import OWN_REFERENCES, own_references
from recallscore_nb.core.scoring import prepare_items
from recallscore_nb.io.human_sets import read_judged_sets

ROOT = Path(__file__).resolve().parents[1]
RECALLSCORE = Path(sys.executable).parent / "recallscore"


GOAL = 80_000
"""Answers per second issue 31 asks of ``equivalent`` on one core (issue 20 asked 20,000)."""


def rule_speed(rounds: int, set_name: str = "evouna-nq", warm: bool = False) -> None:
    """Print each rule's answers per second (best of ``rounds``, CPU time) and the ratio."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    (judged,) = read_judged_sets(set_name)
    attempts = judged.files.attempts
    own = own_references(attempts[OWN_REFERENCES]) if OWN_REFERENCES in attempts else None
    values = engine.as_string_array(attempts["attempt"])
    n = len(values)
    rates = {}
    for rule in (registry.Contains(), registry.Equivalent()):
        best = float("inf")
        for _ in range(rounds):
            prepared = prepare_items(judged.files.items)  # fresh: no normalization kept
            if not warm:
                equivalence.clear_caches()
            target = registry.Target(references=prepared.references.for_rows(
                prepared.rows_of(attempts["item"]), own))
            start = time.process_time()
            rule.compute(engine.Attempts(values), target)
            best = min(best, time.process_time() - start)
        rates[rule.name] = n / best
        print(f"{rule.name:>10}: {'warm' if warm else 'cold'}, {n:,} answers in {best:.3f} s CPU: "
              f"{n / best:,.0f} answers/s")
    print(f"equivalent / contains: {rates['equivalent'] / rates['contains']:.3f} of its speed; "
          f"goal {GOAL:,} answers/s on one core: "
          f"{'met' if rates['equivalent'] >= GOAL else 'NOT met'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "human-judgments"
                        / "EVOUNA")
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-agree", action="store_true")
    parser.add_argument("--warm", action="store_true")
    args = parser.parse_args()
    rule_speed(args.rounds, warm=args.warm)
    if args.skip_agree:
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name in ("NQ", "TQ"):
            subprocess.run([RECALLSCORE, "convert", "evouna", args.data / f"{name}.json.gz",
                            "--out-dir", tmp / name], check=True, capture_output=True)
        both = tmp / "both"
        both.mkdir()
        (both / "items.jsonl").write_text("".join((tmp / n / "items.jsonl").read_text()
                                                  for n in ("NQ", "TQ")))
        pd.concat([pd.read_parquet(tmp / n / "attempts.parquet") for n in ("NQ", "TQ")],
                  ignore_index=True).to_parquet(both / "attempts.parquet")
        judgments = [pd.read_csv(tmp / n / "judgments.csv", dtype=str, keep_default_na=False)
                     for n in ("NQ", "TQ")]
        pd.concat(judgments, ignore_index=True).to_csv(both / "judgments.csv", index=False)
        attempts = len(pd.read_parquet(both / "attempts.parquet"))
        command = ["/usr/bin/time", "-v", RECALLSCORE, "agree", both / "items.jsonl",
                   "--attempts", both / "attempts.parquet", "--judgments",
                   both / "judgments.csv", "--out-dir", tmp / "out", "--resamples",
                   str(args.resamples)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode:
            print(run.stdout, run.stderr, file=sys.stderr)
            return run.returncode
        wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", run.stderr).group(1)
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr).group(1))
        print(f"attempts: {attempts}, resamples: {args.resamples}")
        print(f"wall time: {wall} (m:ss), peak RSS: {rss / 1024:.0f} MiB")
        print(run.stdout.strip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
