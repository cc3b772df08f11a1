"""The benchmark scripts run as their README says, on a small input, and find the package
agreeing with the per-row oracle on every row (their speed is reported, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize("shape", [[], ["--shape", "items", "--items", "50"]])
def test_bench_scoring_agrees_with_the_oracle_and_times_the_independent_loop(shape):
    out = run("benchmarks/bench_scoring.py", "--rows", "3000", "--rounds", "1", "--skip-cli",
              *shape)
    agreement = [line for line in out.splitlines() if line.strip().startswith("agreement")]
    assert len(agreement) == 1 and "every row" in agreement[0]
    assert "ratio package/independent" in out


def test_the_cpu_time_ratio_is_printed_for_one_process_only():
    """With two processes the benchmark's own CPU time leaves out the child's: no such ratio."""
    two = run("benchmarks/bench_scoring.py", "--rows", "2000", "--rounds", "1", "--skip-cli",
              "--skip-independent")
    one = run("benchmarks/bench_scoring.py", "--rows", "2000", "--rounds", "1", "--skip-cli",
              "--skip-independent", "--processes", "1")
    assert "ratio by CPU time" not in two and "ratio with one process" in two
    assert "ratio by CPU time" in one


def test_bench_agree_times_equivalent_against_contains_in_one_run():
    lines = run("benchmarks/bench_agree.py", "--skip-agree", "--rounds", "1").splitlines()
    assert [line.split(":")[0].strip() for line in lines[:2]] == ["contains", "equivalent"]
    assert all("15,099 answers in" in line and "answers/s" in line for line in lines[:2])
    assert lines[2].startswith("equivalent / contains: ") and "goal 20,000 answers/s" in lines[2]
