"""The rules' verdicts on a benchmark, as the tables its figures draw (notebook 02): every
variant's verdict under every rule, each binary rule's passes by the fixtures' facts-complete
label, and the facts present in each variant.

Pure: each function takes a scored table (and the benchmark's facts or labels) and returns a
DataFrame; :mod:`recallscore_nb.render.plots` draws them.
"""

from __future__ import annotations

import pandas as pd

from ..core import rules as registry
from ..core.rules import Checklist
from .agreement import NA_TEXT, label_counts

__all__ = ["rule_matrix", "passes_by_label", "facts_present"]


def _condition(scores: pd.DataFrame):
    return scores["condition"].astype(object).fillna("") if "condition" in scores else ""


def rule_matrix(scores: pd.DataFrame) -> pd.DataFrame:
    """``id, condition``, each rule's verdict (its own value, in the registry's order), and
    the counts the counted verdicts read (the checklist's facts present and total)."""
    out = pd.DataFrame({"id": scores["id"].astype(object), "condition": _condition(scores)})
    counts = [c.name for c in registry.stored_columns() if c.kind == registry.COUNT]
    for column in [*registry.verdict_columns(), *counts]:
        out[column] = scores[column].to_numpy()
    return out


def passes_by_label(scores: pd.DataFrame, labels) -> pd.DataFrame:
    """Per binary rule, how many facts-complete and facts-incomplete fixtures it passes
    (:func:`~recallscore_nb.analysis.agreement.label_counts`); with no labelled row at all,
    the passing counts read ``n/a`` (a count of nothing would read as a rule that fails).
    """
    counts = label_counts(scores, labels)
    if not bool((counts["complete_total"] + counts["incomplete_total"]).gt(0).any()):
        counts = counts.astype({"complete_pass": object, "incomplete_pass": object})
        counts[["complete_pass", "incomplete_pass"]] = NA_TEXT
    return counts


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
