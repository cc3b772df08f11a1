"""Notebook 04: how far the rules agree, and how each tracks the facts-complete label.

The scores side by side; pairwise percent agreement and Cohen's kappa of the binary rules;
each binary rule's precision and recall against ``fixtureFactsComplete`` with the graded
scores' means beside them; and the rows where the rules disagree, with the reason.
Undefined values (see :mod:`recallscore_nb.analysis.agreement`) read ``n/a``.
"""

from __future__ import annotations

import math

import pandas as pd

from ...analysis import agreement as _agreement
from ...analysis.agreement import BINARY_RULES, NA_TEXT, facts_complete_labels, na_as_text
from ...core.rules import rules_for
from ...core.scoring import score_benchmark
from ...core.status import fact_status
from ..session import Session, start as _start

__all__ = ["STEM", "start", "scored", "scores", "agreement", "precision_recall",
           "disagreements", "numbers"]

STEM = "04_rule_agreement"
_TAGS = {"literal": "Literal", "normalized": "Normalized", "squad_exact_match": "Squad",
         "checklist": "Checklist", "schema": "Schema", "token_f1": "TokenF",
         "partial_credit": "PartialCredit", "weighted_score": "WeightedScore"}
RULES = {**BINARY_RULES, "schema_full_match": "schema"}
"""The binary rules compared here: the five rules' and the schema-aware checklist (every fact
present under the scoring schema: equivalents count, contradictions and negations do not)."""


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark and the scoring schema; the session signs
    its outputs with the five rules and the scoring schema."""
    nb = _start(STEM, namespace)
    nb.sign(*(rule.signature() for rule in rules_for(nb.params.squad_mode)))
    nb.sign(nb.schema.signature())
    return nb


def scored(nb: Session) -> pd.DataFrame:
    """Every row scored by every rule, with the schema-aware checklist (``schema_full_match``)
    and the weighted score."""
    scores = score_benchmark(nb.benchmark, squad_mode=nb.params.squad_mode)
    statuses = fact_status(scores["attempt"], nb.benchmark, nb.schema)
    scores["schema_full_match"] = (statuses.filter(like="status_") == "present").all(axis=1)
    scores["weighted_score"] = statuses["weighted_score"].to_numpy()
    return scores


def scores(nb: Session, scored: pd.DataFrame) -> pd.DataFrame:
    """Every row under every rule, side by side, with partial credit and the label."""
    return _agreement.side_by_side(scored, facts_complete_labels(nb.benchmark))


def agreement(scored: pd.DataFrame) -> pd.DataFrame:
    """Pairwise agreement of the binary rules: 2×2 counts, percent agreement, Cohen's kappa."""
    return na_as_text(_agreement.agreement_table(scored, RULES))


def precision_recall(nb: Session, scored: pd.DataFrame) -> pd.DataFrame:
    """Each binary rule against the facts-complete label; token F1 and partial credit as means."""
    table = _agreement.precision_recall_table(scored, facts_complete_labels(nb.benchmark),
                                              rules=RULES, extra_graded=("weighted_score",))
    return na_as_text(table)


def disagreements(nb: Session, scored: pd.DataFrame) -> pd.DataFrame:
    """The rows on which the binary rules disagree: which pass, which fail, and why."""
    return _agreement.disagreements(nb.benchmark, scored)


def _shown(value, digits: int) -> str:
    """A number as the paper quotes it; NaN, None or ``n/a`` as ``n/a``.

    >>> _shown(0.30769, 3), _shown(float("nan"), 1), _shown(NA_TEXT, 3)
    ('0.308', 'n/a', 'n/a')
    """
    if value is None or isinstance(value, str) or math.isnan(value):
        return NA_TEXT
    return f"{value:.{digits}f}"


def numbers(agreement: pd.DataFrame, precision_recall: pd.DataFrame,
            disagreements: pd.DataFrame) -> dict[str, object]:
    """Kappa and percent agreement per pair, precision and recall (or the graded means) per
    rule, the unlabelled rows and the disagreeing rows."""
    quoted = {}
    for record in agreement.itertuples(index=False):
        pair = _TAGS[record.rule_a] + _TAGS[record.rule_b]
        quoted[f"AgreementKappa{pair}"] = _shown(record.kappa, 3)
        quoted[f"AgreementPercent{pair}"] = _shown(record.agreement_pct, 1)
    for record in precision_recall.itertuples(index=False):
        tag = _TAGS[record.rule]
        if record.kind == "binary":
            quoted[f"AgreementPrecision{tag}"] = _shown(record.precision, 3)
            quoted[f"AgreementRecall{tag}"] = _shown(record.recall, 3)
        else:
            quoted[f"AgreementMean{tag}Complete"] = _shown(record.mean_complete, 3)
            quoted[f"AgreementMean{tag}Incomplete"] = _shown(record.mean_incomplete, 3)
    quoted["AgreementUnlabelledRows"] = int(precision_recall["unlabelled"].iloc[0])
    quoted["AgreementDisagreeingRows"] = len(disagreements)
    return quoted
