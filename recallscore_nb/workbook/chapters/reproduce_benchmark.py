"""Notebook 01: the benchmark's labels under every rule, published beside recomputed (Table 1).

The notebook reads::

    scores = chapter.scores(nb)
    nb.save("scores", scores)

and so on, one step a cell: every step returns what the notebook shows and saves.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.reproduce import reproduce
from ...core.scoring import score_benchmark
from ..session import Session, start as _start

__all__ = ["STEM", "start", "scores", "labels", "summary", "numbers"]

STEM = "01_reproduce_benchmark"


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark; the session signs its outputs with the
    rules."""
    nb = _start(STEM, namespace)
    nb.sign_rules(nb.params.squad_mode)
    nb.benchmark  # read now: the session lists it before any output
    return nb


def scores(nb: Session) -> pd.DataFrame:
    """Every row scored by every rule: the columns of ``recallscore score``."""
    return score_benchmark(nb.benchmark, squad_mode=nb.params.squad_mode)


def labels(nb: Session) -> pd.DataFrame:
    """Table 1: each row's published labels beside the recomputed ones."""
    return reproduce(nb.benchmark, squad_mode=nb.params.squad_mode).rows


def summary(nb: Session) -> pd.DataFrame:
    """The published summary beside the recomputed one."""
    return reproduce(nb.benchmark, squad_mode=nb.params.squad_mode).summary


def numbers(labels: pd.DataFrame, summary: pd.DataFrame) -> dict[str, object]:
    """The paper's numbers: rows agreeing, variants, and every recomputed summary count.

    >>> numbers(pd.DataFrame({"agrees": [True, None, False]}),
    ...         pd.DataFrame({"field": ["literalFullMatches"], "recomputed": [1]}))
    {'RowsAgreeing': 1, 'VariantCount': 3, 'LiteralFullMatches': 1}
    """
    quoted = {"RowsAgreeing": int((labels["agrees"] == True).sum()),  # noqa: E712 (None: unchecked)
              "VariantCount": len(labels)}
    for record in summary.itertuples(index=False):
        if record.recomputed is not None:
            quoted[record.field[0].upper() + record.field[1:]] = record.recomputed
    return quoted
