"""A benchmark as a value: its reference answer, fact checklist and labelled rows.

:func:`recallscore_nb.io.benchmarks.load_benchmark` reads and validates a file into a
:class:`Benchmark`; everything here is computation on the value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .facts import Fact

if TYPE_CHECKING:  # pandas is imported when a frame is made: validating a file needs none
    import pandas as pd

__all__ = ["Benchmark", "Row", "LABELS"]

LABELS = (
    "literalMatch",
    "normalizedMatch",
    "factsPresent",
    "checklistFullMatch",
    "fixtureFactsComplete",
)
"""The published labels a row may carry, named as in the file."""


@dataclass(frozen=True)
class Row:
    """One attempt to score, with the labels the benchmark publishes for it.

    ``expected`` holds the published labels present on the row, keyed as in the file
    (see :data:`LABELS`); ``extra`` holds every other field, kept as read.
    """

    id: str
    attempt: str
    condition: str | None = None
    expected: dict[str, bool | int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Benchmark:
    """A validated benchmark: its reference answer, fact checklist and rows.

    ``path`` is the file as the caller named it and ``sha256`` the hash of its bytes;
    ``summary`` is the published summary (empty when the file has none) and ``raw`` the whole
    parsed file, unknown fields included.
    """

    path: str
    sha256: str
    title: str | None
    reference: str
    facts: tuple[Fact, ...]
    rows: tuple[Row, ...]
    summary: dict[str, Any]
    limitations: tuple[str, ...]
    version_history: tuple[dict[str, Any], ...]
    raw: dict[str, Any] = field(repr=False)

    @property
    def fact_names(self) -> tuple[str, ...]:
        """The checklist's fact names, in file order."""
        return tuple(fact.name for fact in self.facts)

    def rows_frame(self) -> pd.DataFrame:
        """The rows as a DataFrame: ``id``, ``attempt`` and ``condition`` (null when absent).

        >>> from recallscore_nb.core.engine import STRING
        >>> from recallscore_nb.io.benchmarks import load_benchmark
        >>> frame = load_benchmark().rows_frame()
        >>> frame.columns.tolist(), frame["attempt"].dtype == STRING
        (['id', 'attempt', 'condition'], True)
        """
        columns = {
            "id": [row.id for row in self.rows],
            "attempt": [row.attempt for row in self.rows],
            "condition": [row.condition for row in self.rows],
        }
        import pandas as pd

        from .engine import STRING

        return pd.DataFrame({key: pd.array(col, dtype=STRING) for key, col in columns.items()})
