"""Reproducing a benchmark: every published label and summary count, recomputed.

Pure: takes a loaded benchmark, returns a :class:`Reproduction` with the per-row and summary
tables (published beside recomputed), the differences, and what could not be checked.

>>> from recallscore_nb import load_benchmark
>>> rep = reproduce(load_benchmark())
>>> rep.agrees, rep.rows_agreeing, len(rep.rows)
(True, 12, 12)
>>> rep.summary.set_index("field")["recomputed"].tolist()
[12, 8, 4, 1, 4, 8]
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.rules import Checklist, LiteralMatch, NormalizedMatch
from ..core.scoring import score_benchmark

__all__ = ["Difference", "Reproduction", "reproduce", "ROW_LABELS", "SUMMARY_FIELDS"]

ROW_LABELS = {
    "literalMatch": LiteralMatch.column,
    "normalizedMatch": NormalizedMatch.column,
    "factsPresent": Checklist.present,
    "checklistFullMatch": Checklist.column,
}
"""Published row labels (the benchmark format's) and the score column that recomputes each."""
_FULL_MATCHES = {
    "literalFullMatches": LiteralMatch.column,
    "normalizedFullMatches": NormalizedMatch.column,
    "checklistFullMatches": Checklist.column,
}
"""Published summary counts and the score column whose passes each counts."""

SUMMARY_FIELDS = (
    "variantCount",
    "completeFactFixtures",
    "oneFactChangedOrMissingFixtures",
    "literalFullMatches",
    "normalizedFullMatches",
    "checklistFullMatches",
)


@dataclass(frozen=True)
class Difference:
    """A published value the recomputation does not reproduce (``row`` is "summary" for
    summary fields)."""

    row: str
    field: str
    published: object
    recomputed: object

    def __str__(self) -> str:
        return f"{self.row} {self.field} {_text(self.published)} {_text(self.recomputed)}"


@dataclass(frozen=True)
class Reproduction:
    """The outcome of :func:`reproduce`."""

    rows: pd.DataFrame
    summary: pd.DataFrame
    differences: tuple[Difference, ...]
    unchecked: tuple[str, ...]
    checked: int

    @property
    def agrees(self) -> bool:
        """True when something was checked and every published value agrees."""
        return self.checked > 0 and not self.differences

    @property
    def rows_with_labels(self) -> int:
        return int(self.rows["agrees"].notna().sum())

    @property
    def rows_agreeing(self) -> int:
        """Rows with at least one published label, all of which agree."""
        return int((self.rows["agrees"] == True).sum())  # noqa: E712 (None: nothing to check)


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "-" if value is None else str(value)


def _recomputed_summary(scores: pd.DataFrame, benchmark) -> dict[str, int | None]:
    complete = [row.expected.get("fixtureFactsComplete") for row in benchmark.rows]
    known = all(c is not None for c in complete)
    return {
        "variantCount": len(scores),
        "completeFactFixtures": sum(c is True for c in complete) if known else None,
        "oneFactChangedOrMissingFixtures": sum(c is False for c in complete) if known else None,
        **{field: int(scores[column].sum()) for field, column in _FULL_MATCHES.items()},
    }


def reproduce(benchmark, *, squad_mode: str = "v1.1") -> Reproduction:
    """Recompute every row's published labels and the published summary of ``benchmark``."""
    scores = score_benchmark(benchmark, squad_mode=squad_mode)
    differences: list[Difference] = []
    unchecked: list[str] = []
    checked = 0
    records = []
    values = {label: scores[column].tolist() for label, column in ROW_LABELS.items()}
    for i, row in enumerate(benchmark.rows):
        record = {"id": row.id, "condition": row.condition}
        agrees = True
        for label in ROW_LABELS:
            recomputed = values[label][i]
            published = row.expected.get(label)
            record[f"{label}_published"] = published
            record[f"{label}_recomputed"] = recomputed
            if published is None:
                unchecked.append(f"{row.id} {label}")
                continue
            checked += 1
            if published != recomputed or type(published) is not type(recomputed):
                agrees = False
                differences.append(Difference(row.id, label, published, recomputed))
        record["agrees"] = agrees if any(label in row.expected for label in ROW_LABELS) else None
        records.append(record)
    recomputed = _recomputed_summary(scores, benchmark)
    summary_records = []
    for field, published in benchmark.summary.items():
        if field not in recomputed or recomputed[field] is None:
            unchecked.append(f"summary {field}")
            summary_records.append({"field": field, "published": published, "recomputed": None})
            continue
        checked += 1
        summary_records.append({"field": field, "published": published, "recomputed": recomputed[field]})
        if published != recomputed[field]:
            differences.append(Difference("summary", field, published, recomputed[field]))
    for field in SUMMARY_FIELDS:
        if field not in benchmark.summary and recomputed[field] is not None:
            summary_records.append({"field": field, "published": None, "recomputed": recomputed[field]})
    # object columns: a missing published value stays missing, and counts stay integers
    rows = pd.DataFrame(records, columns=_row_columns(), dtype=object)
    summary = pd.DataFrame(summary_records, columns=["field", "published", "recomputed"], dtype=object)
    return Reproduction(rows, summary, tuple(differences), tuple(unchecked), checked)


def _row_columns() -> list[str]:
    labels = [f"{label}_{side}" for label in ROW_LABELS for side in ("published", "recomputed")]
    return ["id", "condition", *labels, "agrees"]
