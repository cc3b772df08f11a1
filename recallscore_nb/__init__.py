"""recallscore: score free-text answers against a reference, reproducibly, row by row.

>>> from recallscore_nb import load_benchmark, score_benchmark
>>> scores = score_benchmark(load_benchmark())
>>> int(scores["checklist_full_match"].sum())
8

The public names are imported on first use, so the command line starts quickly.
"""

from importlib import import_module

from ._version import __version__
from .core.errors import BenchmarkFormatError, RecallScoreError

__all__ = [
    "__version__",
    "Benchmark",
    "BenchmarkFormatError",
    "RecallScoreError",
    "load_benchmark",
    "score_benchmark",
]

_LAZY = {"Benchmark": "io.benchmarks", "load_benchmark": "io.benchmarks", "score_benchmark": "core.scoring"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
