"""An ok report's scores: every attempt's rule values, its fact statuses and the totals.

The rule values are computed once, when the report is built (:meth:`Scored.of`); the
statuses and bases of the attempts a chunk at a time, when the report's text is made
(:meth:`Scored.chunks`), so a report of millions of attempts never sits in memory whole.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...io.reports import attempt_texts

_CHUNK_ROWS = 20_000
"""Attempts whose statuses, bases and text are built at a time."""


@dataclass(frozen=True)
class Scored:
    """An ok report's scores: the rule values of every attempt (``scores``: ``id``,
    ``attempt`` and each rule's own value, :func:`recallscore_nb.core.rules.verdict_columns`),
    and what the statuses need."""

    scores: pd.DataFrame
    bench: Any
    schema: Any

    @classmethod
    def of(cls, bench, attempts, schema, squad_mode: str) -> Scored:
        from ...core.items import Items
        from ...core.rules import verdict_columns
        from ...core.scoring import score_benchmark, score_items

        if isinstance(bench, Items):
            scores = score_items(bench, attempts[["id", "item", "attempt"]],
                                 squad_mode=squad_mode)
            keep = ["id", "item", "attempt", *verdict_columns()]
        else:
            frame = None if attempts is None else attempts[["id", "attempt"]]
            scores = score_benchmark(bench, frame, squad_mode=squad_mode)
            keep = ["id", "attempt", *verdict_columns()]
        return cls(scores[keep].reset_index(drop=True), bench, schema)

    def statuses(self, scores: pd.DataFrame, basis: bool = True) -> tuple[pd.DataFrame, list]:
        """The statuses of ``scores``' attempts (rows from 0) and the fact names, sorted."""
        from ...core.items import Items
        from ...core.status import fact_status, item_fact_names, item_fact_status

        if isinstance(self.bench, Items):
            table = item_fact_status(scores["attempt"], scores["item"], self.bench, self.schema,
                                     basis=basis)
            names = item_fact_names(self.bench)
        else:
            table = fact_status(scores["attempt"], self.bench, self.schema, basis=basis)
            names = list(self.bench.fact_names)
        return table.reset_index(drop=True), sorted(names)

    def totals(self) -> dict:
        """``count``, ``mean_weighted_score`` (exactly summed; None for no attempts) and
        ``status_counts`` (per fact, every status, zeros included)."""
        from ...core.status import STATUSES

        statuses, names = self.statuses(self.scores, basis=False)
        weighted = statuses["weighted_score"].to_numpy(dtype=np.float64)
        counts = {}
        for name in names:
            found = statuses[f"status_{name}"].value_counts()
            counts[name] = {status: int(found.get(status, 0)) for status in STATUSES}
        count = len(weighted)
        scored = weighted[~np.isnan(weighted)]  # an item without a checklist has none
        return {"count": count,
                "mean_weighted_score": math.fsum(scored.tolist()) / len(scored) if len(scored)
                else None,
                "status_counts": counts}

    def chunks(self) -> Iterator[list[str]]:
        """The attempts' text (:func:`~recallscore_nb.io.reports.attempt_texts`), a chunk of
        attempts at a time, their statuses and bases computed for that chunk only."""
        for start in range(0, len(self.scores), _CHUNK_ROWS):
            chunk = self.scores.iloc[start:start + _CHUNK_ROWS].reset_index(drop=True)
            yield attempt_texts(chunk, *self.statuses(chunk))
