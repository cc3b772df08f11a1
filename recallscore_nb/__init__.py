"""recallscore: score free-text answers against a reference, reproducibly, row by row.

>>> from recallscore_nb import load_benchmark, score_benchmark
>>> from recallscore_nb.core.rules import Checklist
>>> scores = score_benchmark(load_benchmark())
>>> int(scores[Checklist.column].sum())
8

The public names, listed in ``__all__``, come from the package's layers (``core``: rules,
errors; ``io``: loading files; ``execution``: loading and scoring as the command runs them,
worker processes on request) and are imported on first use, so importing the package, and
starting the command line, stays quick.
"""

from importlib import import_module

from ._version import __version__

__all__ = [
    "__version__",
    "load_benchmark",
    "score_benchmark",
    "load_items",
    "score_items",
    "load_scoring_schema",
    "fact_status",
    "read_attempts",
    "literal_match",
    "normalized_match",
    "squad_exact_match",
    "token_f1",
    "checklist",
    "rules",
    "normalizers",
    "Benchmark",
    "RecallScoreError",
    "BenchmarkFormatError",
]

_LAZY = {
    "load_benchmark": "io.benchmarks",
    "load_items": "execution.api",
    "load_scoring_schema": "io.scoring_schemas",
    "read_attempts": "io.attempts",
    "score_benchmark": "execution.api",
    "score_items": "execution.api",
    "literal_match": "core.scoring",
    "normalized_match": "core.scoring",
    "squad_exact_match": "core.scoring",
    "token_f1": "core.scoring",
    "checklist": "core.scoring",
    "fact_status": "execution.api",
    "rules": "core.registry",
    "normalizers": "core.registry",
    "Benchmark": "core.benchmark",
    "RecallScoreError": "core.errors",
    "BenchmarkFormatError": "core.errors",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
