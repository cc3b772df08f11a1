"""recallscore: score free-text answers against a reference, reproducibly, row by row.

>>> from recallscore_nb import load_benchmark, score_benchmark
>>> scores = score_benchmark(load_benchmark())
>>> int(scores["checklist_full_match"].sum())
8
"""

from ._version import __version__
from .benchmarks import Benchmark, load_benchmark
from .errors import BenchmarkFormatError, RecallScoreError
from .scoring import score_benchmark

__all__ = [
    "__version__",
    "Benchmark",
    "BenchmarkFormatError",
    "RecallScoreError",
    "load_benchmark",
    "score_benchmark",
]
