"""``recallscore validate``: a benchmark file checked and described in one line, importing
only what reading a benchmark needs (not the scoring stack of :mod:`.handlers`), so that it
answers quickly.

>>> validate_command(None)[0].startswith("shipped benchmark four_fact_recall.json: valid")
True
"""

from __future__ import annotations

from pathlib import Path

from ..io.benchmarks import load_benchmark

__all__ = ["validate_command"]


def validate_command(benchmark_path) -> list[str]:
    """Validate a benchmark file; the line to print (its rows, facts and hash)."""
    bench = load_benchmark(benchmark_path)
    shown = benchmark_path or "shipped benchmark " + Path(bench.path).name
    return [f"{shown}: valid benchmark: {len(bench.rows)} rows, {len(bench.facts)} facts, "
            f"sha256 {bench.sha256[:12]}"]
