"""Notebook 04: how far the rules agree, and how each tracks the facts-complete label.

The scores side by side; pairwise percent agreement and Cohen's kappa of the binary rules;
each binary rule's precision and recall against ``fixtureFactsComplete`` with the graded
scores' means beside them; and the rows where the rules disagree, with the reason.
Undefined values (see :mod:`recallscore_nb.analysis.agreement`) read ``n/a``.
"""

from __future__ import annotations

import math

import pandas as pd

from ...analysis.agreement import (
    BINARY_RULES,
    NA_TEXT,
    agreement_table,
    disagreements,
    facts_complete_labels,
    na_as_text,
    precision_recall_table,
    side_by_side,
)
from ...core.rules import rules_for
from ...core.scoring import score_benchmark
from ...core.status import fact_status
from ..session import Session, start as _start
from .shared import scoring_schema

__all__ = ["STEM", "start", "scores_table", "agreement", "precision_recall",
           "disagreement_table"]

STEM = "04_rule_agreement"
_TAGS = {"literal": "Literal", "normalized": "Normalized", "squad_exact_match": "Squad",
         "checklist": "Checklist", "schema": "Schema", "token_f1": "TokenF",
         "partial_credit": "PartialCredit", "weighted_score": "WeightedScore"}
RULES = {**BINARY_RULES, "schema_full_match": "schema"}
"""The binary rules compared here: the five rules' and the schema-aware checklist (every fact
present under the scoring schema: equivalents count, contradictions and negations do not)."""


def start(namespace: dict) -> Session:
    """Validate the parameters; the session signs its outputs with the five rules and the
    scoring schema."""
    nb = _start(STEM, namespace)
    nb.sign(*(rule.signature() for rule in rules_for(str(nb.parameters["squad_mode"]))))
    nb.sign(scoring_schema(nb).signature())
    return nb


def _scores(nb: Session) -> pd.DataFrame:
    def compute() -> pd.DataFrame:
        scores = score_benchmark(nb.benchmark, squad_mode=str(nb.parameters["squad_mode"]))
        statuses = fact_status(scores["attempt"], nb.benchmark, scoring_schema(nb))
        scores["schema_full_match"] = (statuses.filter(like="status_") == "present").all(axis=1)
        scores["weighted_score"] = statuses["weighted_score"].to_numpy()
        return scores

    return nb.memo("scores", compute)


def _shown(value: float, digits: int) -> str:
    """A number as the paper quotes it; NaN as ``n/a``."""
    return NA_TEXT if value is None or math.isnan(value) else f"{value:.{digits}f}"


def scores_table(nb: Session):
    """Every row under every rule, side by side, with partial credit and the label."""
    table = side_by_side(_scores(nb), facts_complete_labels(nb.benchmark))
    return nb.table("scores", table)


def agreement(nb: Session):
    """Pairwise agreement of the binary rules: 2×2 counts, percent agreement, Cohen's kappa."""
    table = agreement_table(_scores(nb), RULES)
    for record in table.itertuples(index=False):
        pair = _TAGS[record.rule_a] + _TAGS[record.rule_b]
        nb.number(f"AgreementKappa{pair}", _shown(record.kappa, 3))
        nb.number(f"AgreementPercent{pair}", _shown(record.agreement_pct, 1))
    return nb.table("agreement", na_as_text(table))


def precision_recall(nb: Session):
    """Each binary rule against the facts-complete label; token F1 and partial credit as means."""
    table = precision_recall_table(_scores(nb), facts_complete_labels(nb.benchmark),
                                   rules=RULES, extra_graded=("weighted_score",))
    for record in table.itertuples(index=False):
        tag = _TAGS[record.rule]
        if record.kind == "binary":
            nb.number(f"AgreementPrecision{tag}", _shown(record.precision, 3))
            nb.number(f"AgreementRecall{tag}", _shown(record.recall, 3))
        else:
            nb.number(f"AgreementMean{tag}Complete", _shown(record.mean_complete, 3))
            nb.number(f"AgreementMean{tag}Incomplete", _shown(record.mean_incomplete, 3))
    nb.number("AgreementUnlabelledRows", int(table["unlabelled"].iloc[0]))
    return nb.table("precision_recall", na_as_text(table))


def disagreement_table(nb: Session):
    """The rows on which the binary rules disagree: which pass, which fail, and why."""
    table = disagreements(nb.benchmark, _scores(nb))
    nb.number("AgreementDisagreeingRows", len(table))
    return nb.table("disagreements", table)
