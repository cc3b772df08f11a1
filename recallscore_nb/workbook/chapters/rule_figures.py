"""Notebook 02: the paper's figures of the rules' verdicts, each with its underlying table.

(a) the variant × rule matrix, (b) full matches per rule against the fixtures'
facts-complete label, (c) facts present per variant. The figures are drawn by
:mod:`recallscore_nb.render.plots` from the tables built here, and written through the session.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.agreement import NA_TEXT, facts_complete_labels, label_counts
from ...core.rules import rules_for
from ...core.scoring import score_benchmark
from ...render import plots
from ..session import Session, start as _start

__all__ = ["STEM", "start", "matrix_table", "matrix_figure", "label_table", "label_figure",
           "facts_table", "facts_figure", "rule_matrix", "facts_present"]

STEM = "02_rule_figures"


def start(namespace: dict) -> Session:
    """Validate the parameters; the session signs its outputs with the five rules."""
    nb = _start(STEM, namespace)
    nb.sign(*(rule.signature() for rule in rules_for(str(nb.parameters["squad_mode"]))))
    return nb


def _scores(nb: Session) -> pd.DataFrame:
    return nb.memo("scores", lambda: score_benchmark(
        nb.benchmark, squad_mode=str(nb.parameters["squad_mode"])))


def _labels(nb: Session) -> pd.Series:
    return facts_complete_labels(nb.benchmark)


# --- (a) the variant × rule matrix ----------------------------------------------------------
def rule_matrix(scores: pd.DataFrame) -> pd.DataFrame:
    """The matrix's data: ``id, condition``, the verdicts, token F1 and the facts present."""
    out = pd.DataFrame({"id": scores["id"].astype(object),
                        "condition": (scores["condition"].astype(object).fillna("")
                                      if "condition" in scores else "")})
    for column in [*plots.MATRIX_COLUMNS, "facts_present", "facts_total"]:
        out[column] = scores[column].to_numpy()
    return out


def matrix_table(nb: Session):
    """Figure (a)'s data: every variant's verdicts, token F1 and facts present."""
    return nb.table("matrix", rule_matrix(_scores(nb)))


def matrix_figure(nb: Session):
    """Figure (a): the variant × rule matrix."""
    return nb.figure("matrix", plots.rule_matrix_figure(rule_matrix(_scores(nb))))


# --- (b) full matches against the facts-complete label --------------------------------------
def _counts(nb: Session) -> pd.DataFrame:
    return label_counts(_scores(nb), _labels(nb))


def label_table(nb: Session):
    """Figure (b)'s data: per binary rule, passing fixtures by facts-complete label.

    With no labelled row at all, the passing counts read ``n/a``.
    """
    counts = _counts(nb)
    known = bool((counts["complete_total"] + counts["incomplete_total"]).gt(0).any())
    for record in counts.itertuples(index=False):
        tag = _tag(record.rule)
        nb.number(f"FigureCompletePass{tag}", record.complete_pass if known else NA_TEXT)
        nb.number(f"FigureIncompletePass{tag}", record.incomplete_pass if known else NA_TEXT)
    if not known:
        counts = counts.astype({"complete_pass": object, "incomplete_pass": object})
        counts[["complete_pass", "incomplete_pass"]] = NA_TEXT
    return nb.table("by_label", counts)


def label_figure(nb: Session):
    """Figure (b): grouped bars of full matches per rule against the facts-complete label."""
    return nb.figure("by_label", plots.label_figure(_counts(nb)))


# --- (c) facts present per variant ----------------------------------------------------------
def facts_present(scores: pd.DataFrame, facts) -> pd.DataFrame:
    """Per variant: facts present, facts total, and the facts missing (by name)."""
    fact_columns = [f"fact_{f.name}" for f in facts]
    present = scores[fact_columns].to_numpy(dtype=bool)
    missing = ["; ".join(f.name for f, ok in zip(facts, row) if not ok) for row in present]
    return pd.DataFrame({
        "id": scores["id"].astype(object),
        "condition": (scores["condition"].astype(object).fillna("")
                      if "condition" in scores else ""),
        "facts_present": scores["facts_present"].to_numpy(),
        "facts_total": scores["facts_total"].to_numpy(),
        "missing": missing,
    })


def facts_table(nb: Session):
    """Figure (c)'s data: facts present, total and missing per variant."""
    return nb.table("facts", facts_present(_scores(nb), nb.benchmark.facts))


def facts_figure(nb: Session):
    """Figure (c): facts present per variant, with the facts total."""
    table = facts_present(_scores(nb), nb.benchmark.facts)
    return nb.figure("facts", plots.facts_present_figure(table))


def _tag(rule: str) -> str:
    return {"squad_exact_match": "Squad"}.get(rule, rule.capitalize())
