"""Notebook 01: the benchmark's labels under every rule, published beside recomputed (Table 1)."""

from __future__ import annotations

from ...analysis.reproduce import reproduce
from ...core.rules import rules_for
from ...core.scoring import score_benchmark
from ..session import Session, start as _start

STEM = "01_reproduce_benchmark"


def start(namespace: dict) -> Session:
    """Validate the parameters; the session signs its outputs with the five rules."""
    nb = _start(STEM, namespace)
    nb.sign(*(rule.signature() for rule in rules_for(str(nb.parameters["squad_mode"]))))
    return nb


def scores_table(nb: Session):
    """Every row scored by every rule: the columns of ``recallscore score``."""
    scores = score_benchmark(nb.benchmark, squad_mode=str(nb.parameters["squad_mode"]))
    return nb.table("scores", scores)


def _reproduction(nb: Session):
    return nb.memo("reproduction", lambda: reproduce(
        nb.benchmark, squad_mode=str(nb.parameters["squad_mode"])))


def labels_table(nb: Session):
    """Table 1: each row's published labels beside the recomputed ones."""
    rep = _reproduction(nb)
    nb.number("RowsAgreeing", rep.rows_agreeing)
    nb.number("VariantCount", len(rep.rows))
    return nb.table("labels", rep.rows)


def summary_table(nb: Session):
    """The published summary beside the recomputed one."""
    rep = _reproduction(nb)
    for record in rep.summary.itertuples(index=False):
        if record.recomputed is not None:
            nb.number(record.field[0].upper() + record.field[1:], record.recomputed)
    return nb.table("summary", rep.summary)
