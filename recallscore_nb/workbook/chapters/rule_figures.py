"""Notebook 02: the paper's figures of the rules' verdicts, each with its underlying table.

(a) the variant × rule matrix, (b) full matches per rule against the fixtures'
facts-complete label, (c) facts present per variant. The tables are built here, the figures
drawn by :mod:`recallscore_nb.render.plots` from them; the notebook saves both.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.agreement import NA_TEXT, facts_complete_labels, label_counts
from ...core import rules as registry
from ...core.rules import Checklist
from ...core.scoring import score_benchmark
from ...render import plots
from ..session import Session, start as _start

__all__ = ["STEM", "start", "scores", "rule_matrix", "matrix_figure", "by_label",
           "by_label_figure", "facts", "facts_figure", "numbers", "facts_present"]

STEM = "02_rule_figures"


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark; the session signs its outputs with the
    rules."""
    nb = _start(STEM, namespace)
    nb.sign_rules(nb.params.squad_mode)
    nb.benchmark  # read now: the session lists it before any output
    return nb


def scores(nb: Session) -> pd.DataFrame:
    """Every row scored by every rule."""
    return score_benchmark(nb.benchmark, squad_mode=nb.params.squad_mode)


def _condition(scores: pd.DataFrame):
    return scores["condition"].astype(object).fillna("") if "condition" in scores else ""


# --- (a) the variant × rule matrix ----------------------------------------------------------
def rule_matrix(scores: pd.DataFrame) -> pd.DataFrame:
    """Figure (a)'s data: ``id, condition``, each rule's verdict, and the counts the counted
    verdicts read (the checklist's facts present and total)."""
    out = pd.DataFrame({"id": scores["id"].astype(object), "condition": _condition(scores)})
    counts = [c.name for c in registry.stored_columns() if c.kind == registry.COUNT]
    for column in [*plots.matrix_columns(), *counts]:
        out[column] = scores[column].to_numpy()
    return out


def matrix_figure(matrix: pd.DataFrame):
    """Figure (a): the variant × rule matrix."""
    return plots.rule_matrix_figure(matrix)


# --- (b) full matches against the facts-complete label --------------------------------------
def by_label(nb: Session, scores: pd.DataFrame) -> pd.DataFrame:
    """Figure (b)'s data: per binary rule, passing fixtures by facts-complete label.

    With no labelled row at all, the passing counts read ``n/a``.
    """
    counts = label_counts(scores, facts_complete_labels(nb.benchmark))
    if not bool((counts["complete_total"] + counts["incomplete_total"]).gt(0).any()):
        counts = counts.astype({"complete_pass": object, "incomplete_pass": object})
        counts[["complete_pass", "incomplete_pass"]] = NA_TEXT
    return counts


def by_label_figure(nb: Session, scores: pd.DataFrame):
    """Figure (b): grouped bars of full matches per rule against the facts-complete label."""
    return plots.label_figure(label_counts(scores, facts_complete_labels(nb.benchmark)))


# --- (c) facts present per variant ----------------------------------------------------------
def facts_present(scores: pd.DataFrame, facts) -> pd.DataFrame:
    """Per variant: facts present, facts total, and the facts missing (by name)."""
    fact_columns = [Checklist.fact_column(f.name) for f in facts]
    present = scores[fact_columns].to_numpy(dtype=bool)
    missing = ["; ".join(f.name for f, ok in zip(facts, row) if not ok) for row in present]
    return pd.DataFrame({
        "id": scores["id"].astype(object),
        "condition": _condition(scores),
        Checklist.present: scores[Checklist.present].to_numpy(),
        Checklist.total: scores[Checklist.total].to_numpy(),
        "missing": missing,
    })


def facts(nb: Session, scores: pd.DataFrame) -> pd.DataFrame:
    """Figure (c)'s data: facts present, total and missing per variant."""
    return facts_present(scores, nb.benchmark.facts)


def facts_figure(facts: pd.DataFrame):
    """Figure (c): facts present per variant, with the facts total."""
    return plots.facts_present_figure(facts)


# --- the paper's numbers ----------------------------------------------------------------------
def numbers(by_label: pd.DataFrame) -> dict[str, object]:
    """Each binary rule's passing facts-complete and facts-incomplete fixtures (``n/a`` when
    no row is labelled)."""
    quoted = {}
    for record in by_label.itertuples(index=False):
        tag = _tag(record.rule)
        quoted[f"FigureCompletePass{tag}"] = record.complete_pass
        quoted[f"FigureIncompletePass{tag}"] = record.incomplete_pass
    return quoted


def _tag(rule: str) -> str:
    return {m.name: m.tag for m in registry.measures()}[rule]
