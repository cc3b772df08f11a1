"""The scoring schema's two measures beside the rules' own: the schema-aware checklist (every
fact present under the schema: equivalents count, contradictions and negations do not) and the
weighted score (:func:`recallscore_nb.core.status.fact_status`).

Notebooks 04 and 05 compare and average them with the registry's measures; the functions here
add them to a scored table and name them beside the rules.

>>> list(measures_with_schema())[-2:]
['schema_full_match', 'weighted_score']
"""

from __future__ import annotations

import pandas as pd

from ..core import rules as registry
from ..core.status import fact_status
from .agreement import binary_rules

__all__ = ["SCHEMA_MEASURES", "with_schema_measures", "measures_with_schema",
           "binary_measures_with_schema"]

SCHEMA_MEASURES = {"schema_full_match": "schema-aware checklist",
                   "weighted_score": "weighted score"}
"""The scoring schema's measures (column -> label): every fact present under the schema, and
the weighted score."""


def with_schema_measures(scores: pd.DataFrame, benchmark, schema) -> pd.DataFrame:
    """A scored table (``attempt`` column, rows in order) with the schema's two measures added
    at its end: ``schema_full_match`` and ``weighted_score``."""
    statuses = fact_status(scores["attempt"], benchmark, schema, basis=False)
    out = scores.copy()
    out["schema_full_match"] = (statuses.filter(like="status_") == "present").all(axis=1).to_numpy()
    out["weighted_score"] = statuses["weighted_score"].to_numpy()
    return out


def measures_with_schema() -> dict[str, str]:
    """The per-attempt scores averaged per system (column -> label): every measure of the rule
    registry, in output order, the derived ones (partial credit) included, then the scoring
    schema's (:data:`SCHEMA_MEASURES`)."""
    return {**{m.column: m.label for m in registry.measures()}, **SCHEMA_MEASURES}


def binary_measures_with_schema() -> dict[str, str]:
    """The binary measures compared with each other (score column -> name): the registry's
    binary rules, then the schema-aware checklist, named ``schema``."""
    return {**binary_rules(), "schema_full_match": "schema"}
