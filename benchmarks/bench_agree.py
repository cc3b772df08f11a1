"""Time ``recallscore agree`` on EVOUNA's NQ and TriviaQA sets together (about 25,000 judged
answers, five systems) with 2,000 resamples, as a user runs it: convert both, join the three
files of each, run the command under ``/usr/bin/time -v`` and report wall time and peak RSS.

    .venv/bin/python benchmarks/bench_agree.py [--resamples 2000] [--data ../shared/human-judgments/EVOUNA]

The data sets are read from ``../shared/human-judgments/EVOUNA`` (never copied into the
repository); everything is written into a temporary folder.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
RECALLSCORE = Path(sys.executable).parent / "recallscore"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "human-judgments"
                        / "EVOUNA")
    parser.add_argument("--resamples", type=int, default=2000)
    args = parser.parse_args()
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
