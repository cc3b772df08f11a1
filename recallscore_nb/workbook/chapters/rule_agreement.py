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
from ...analysis.agreement import NA_TEXT, binary_rules, facts_complete_labels, na_as_text
from ...core import rules as registry
from ...core.scoring import score_benchmark
from ...core.status import fact_status
from ..session import Session, start as _start

__all__ = ["STEM", "start", "scored", "scores", "agreement", "precision_recall",
           "disagreements", "numbers"]

STEM = "04_rule_agreement"
SCHEMA_TAGS = {"schema": "Schema", "weighted_score": "WeightedScore"}
"""The paper-macro tags of the scoring schema's two measures (the rules' tags are the
registry's)."""


def compared() -> dict[str, str]:
    """The binary measures compared here (score column -> name): the registry's binary
    rules, then the schema-aware checklist (every fact present under the scoring schema:
    equivalents count, contradictions and negations do not)."""
    return {**binary_rules(), "schema_full_match": "schema"}


def _tags() -> dict[str, str]:
    """Measure name -> paper-macro tag, the registry's measures and the schema's."""
    return {**{m.name: m.tag for m in registry.measures()}, **SCHEMA_TAGS}


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark and the scoring schema; the session signs
    its outputs with every rule and the scoring schema."""
    nb = _start(STEM, namespace)
    nb.sign_rules(nb.params.squad_mode)
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
    return na_as_text(_agreement.agreement_table(scored, compared()))


def precision_recall(nb: Session, scored: pd.DataFrame) -> pd.DataFrame:
    """Each binary rule against the facts-complete label; the graded measures as means."""
    table = _agreement.precision_recall_table(scored, facts_complete_labels(nb.benchmark),
                                              rules=compared(), extra_graded=("weighted_score",))
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
    tags = _tags()
    quoted = {}
    for record in agreement.itertuples(index=False):
        pair = tags[record.rule_a] + tags[record.rule_b]
        quoted[f"AgreementKappa{pair}"] = _shown(record.kappa, 3)
        quoted[f"AgreementPercent{pair}"] = _shown(record.agreement_pct, 1)
    for record in precision_recall.itertuples(index=False):
        tag = tags[record.rule]
        if record.kind == "binary":
            quoted[f"AgreementPrecision{tag}"] = _shown(record.precision, 3)
            quoted[f"AgreementRecall{tag}"] = _shown(record.recall, 3)
        else:
            quoted[f"AgreementMean{tag}Complete"] = _shown(record.mean_complete, 3)
            quoted[f"AgreementMean{tag}Incomplete"] = _shown(record.mean_incomplete, 3)
    quoted["AgreementUnlabelledRows"] = int(precision_recall["unlabelled"].iloc[0])
    quoted["AgreementDisagreeingRows"] = len(disagreements)
    return quoted
