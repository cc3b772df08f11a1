"""Where things live: the package data (benchmarks, schemas, style) and the workbook.

Every path is found from the installed package itself, never from a checkout or the working
directory, so it holds wherever the package is installed.

>>> DEFAULT_BENCHMARK.name
'four_fact_recall.json'
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "DATA_DIR", "BENCHMARKS_DIR", "SCHEMAS_DIR", "DEFAULT_BENCHMARK",
    "REPO_ROOT", "NOTEBOOKS_DIR", "REPORTS_DIR", "STAMPS_DIR",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
BENCHMARKS_DIR = DATA_DIR / "benchmarks"
SCHEMAS_DIR = DATA_DIR / "schemas"
DEFAULT_BENCHMARK = BENCHMARKS_DIR / "four_fact_recall.json"

# The repository around an editable install (the workbook's notebooks and reports live there).
REPO_ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
REPORTS_DIR = REPO_ROOT / "reports"
STAMPS_DIR = REPO_ROOT / ".stamps"
