"""The benchmark scripts run as their README says, on a small input, and find the package
and the command agreeing with the per-row oracle on every row (their speed is reported,
never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


def test_bench_scoring_agrees_with_the_oracle_on_both_shapes_and_prints_the_ratios():
    out = run("benchmarks/bench_scoring.py", "--rows", "3000", "--item-rows", "2000",
              "--items", "50", "--rounds", "1")
    agreement = [line for line in out.splitlines() if line.strip().startswith("agreement")]
    assert len(agreement) == 2 and all("every row" in line for line in agreement)
    labels = [line.strip()[:34].strip() for line in out.splitlines()]
    for ratio in ("ratio package/loop", "ratio command/loop", "ratio command/independent loop",
                  "ratio package/independent"):
        assert labels.count(ratio) == 2, ratio


def test_one_process_is_timed_too_where_the_default_is_more():
    two = run("benchmarks/bench_scoring.py", "--shape", "one", "--rows", "2000", "--rounds",
              "1", "--skip-cli", "--skip-independent", "--processes", "2")
    one = run("benchmarks/bench_scoring.py", "--shape", "items", "--item-rows", "1000",
              "--items", "10", "--rounds", "1", "--skip-cli", "--skip-independent",
              "--processes", "1")
    assert "ratio package/loop, one process" in two and "package, 2 process(es)" in two
    assert "one process" not in one and "package, 1 process(es)" in one


def test_bench_agree_times_equivalent_against_contains_in_one_run():
    lines = run("benchmarks/bench_agree.py", "--skip-agree", "--rounds", "1").splitlines()
    assert [line.split(":")[0].strip() for line in lines[:2]] == ["contains", "equivalent"]
    assert all("15,099 answers in" in line and "answers/s" in line for line in lines[:2])
    assert lines[2].startswith("equivalent / contains: ") and "goal 80,000 answers/s" in lines[2]
