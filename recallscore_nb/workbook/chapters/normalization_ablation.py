"""Notebook 03: normalization is the scorer — each step of the seed pipeline switched in turn.

Every pipeline of :data:`~recallscore_nb.analysis.ablation.ABLATIONS` gives each benchmark row a
normalized-match verdict and a checklist full match (terms normalized the same way); the
rows whose verdicts differ from the published ``seed`` result are the flips.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.ablation import (
    ABLATIONS,
    BASELINE,
    CHANGES,
    VERDICTS,
    ablation_signature,
    ablation_table,
    flips,
    heatmap_panel,
    macro_tag,
    matrix_table,
    pipeline_signature,
)
from ...render.plots import ablation_figure as draw_ablation
from ..session import Session, start as _start
from .shared import scoring_schema

__all__ = ["STEM", "start", "pipelines_table", "verdicts_table", "ablation_matrix",
           "flips_table", "ablation_figure"]

STEM = "03_normalization_ablation"
_RULE_TAGS = {"normalized_match": "Normalized", "checklist_full_match": "Checklist",
              "schema_full_match": "Schema"}


def start(namespace: dict) -> Session:
    """Validate the parameters; the session signs its outputs with the ablation's choices and
    every pipeline's signature."""
    nb = _start(STEM, namespace)
    nb.sign(ablation_signature(), *(pipeline_signature(n) for n in ABLATIONS.values()))
    nb.sign(scoring_schema(nb).signature())
    return nb


def _table(nb: Session) -> pd.DataFrame:
    return nb.memo("ablation", lambda: ablation_table(nb.benchmark, ABLATIONS,
                                                      scoring_schema(nb)))


def pipelines_table(nb: Session):
    """The pipelines compared: name, what changes relative to seed, signature."""
    frame = pd.DataFrame({
        "pipeline": list(ABLATIONS),
        "change": [CHANGES.get(name, "") for name in ABLATIONS],
        "signature": [pipeline_signature(n) for n in ABLATIONS.values()],
    })
    return nb.table("pipelines", frame)


def verdicts_table(nb: Session):
    """Every row's verdicts under every pipeline (one row per pipeline and benchmark row)."""
    return nb.table("verdicts", _table(nb))


def ablation_matrix(nb: Session):
    """The paper's table: rows × pipelines, ``*`` marking a flip, a flips count per block."""
    return nb.table("matrix", matrix_table(_table(nb), baseline=BASELINE))


def flips_table(nb: Session):
    """Per pipeline and verdict: passes, flips, and the rows lost and gained relative to seed."""
    table = flips(_table(nb), baseline=BASELINE)
    for record in table.itertuples(index=False):
        if record.pipeline != BASELINE:
            nb.number(f"Ablation{_RULE_TAGS[record.rule]}Flips{macro_tag(record.pipeline)}",
                      record.flips)
    moved = table[table["flips"] > 0]["pipeline"].nunique()
    nb.number("AblationPipelinesFlipping", moved)
    return nb.table("flips", table)


def ablation_figure(nb: Session):
    """The heatmap: pass/fail of every row under every pipeline, flips outlined; one panel
    per verdict, side by side, the legend below them."""
    table = _table(nb)
    panels = [heatmap_panel(table, verdict, baseline=BASELINE) for verdict in VERDICTS]
    return nb.figure("heatmap", draw_ablation(panels, baseline=BASELINE))
