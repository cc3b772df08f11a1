"""Where the package data lives: the shipped benchmark, its scoring schema, the catalogue, the
example attempts, the JSON Schemas and the figure style.

Every path is found from the installed package itself, never from a checkout or the working
directory, so it holds wherever the package is installed.

>>> DEFAULT_BENCHMARK.name
'four_fact_recall.json'
>>> DEFAULT_SCHEMA_PATH.parent == DEFAULT_BENCHMARK.parent
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DATA_DIR", "BENCHMARKS_DIR", "SCHEMAS_DIR", "DEFAULT_BENCHMARK", "DEFAULT_SCHEMA_PATH",
           "DEFAULT_CATALOGUE", "DEFAULT_ATTEMPTS", "JUDGED_EXAMPLE", "DEFAULT_JUDGED_ITEMS",
           "DEFAULT_JUDGED_ATTEMPTS", "DEFAULT_JUDGMENTS"]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
BENCHMARKS_DIR = DATA_DIR / "benchmarks"
SCHEMAS_DIR = DATA_DIR / "schemas"
DEFAULT_BENCHMARK = BENCHMARKS_DIR / "four_fact_recall.json"
"""The shipped four-fact benchmark: what every command reads without a ``BENCHMARK``."""
DEFAULT_SCHEMA_PATH = BENCHMARKS_DIR / "four_fact_recall.scoring.json"
"""The scoring schema shipped for the shipped four-fact benchmark."""
DEFAULT_CATALOGUE = DATA_DIR / "catalogue" / "suites.json"
"""The shipped suite catalogue (notebook 06)."""
DEFAULT_ATTEMPTS = DATA_DIR / "attempts" / "four_fact_systems.csv"
"""The shipped example of several systems' attempts (notebook 05)."""
JUDGED_EXAMPLE = DATA_DIR / "human_agreement"
"""The shipped example of judged attempts (notebook 08, ``recallscore agree``): authored, not
collected; its three files follow."""
DEFAULT_JUDGED_ITEMS = JUDGED_EXAMPLE / "items.jsonl"
"""Eight questions with alternative references."""
DEFAULT_JUDGED_ATTEMPTS = JUDGED_EXAMPLE / "attempts.csv"
"""Three systems' attempts at them."""
DEFAULT_JUDGMENTS = JUDGED_EXAMPLE / "judgments.csv"
"""Three annotators' verdicts on those attempts, and ``human``, their majority."""
