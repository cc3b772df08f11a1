"""Notebook 03: normalization is the scorer — each step of the seed pipeline switched in turn.

Every pipeline of :data:`~recallscore_nb.analysis.ablation.ABLATIONS` gives each benchmark row a
normalized-match verdict and a checklist full match (terms normalized the same way); the
rows whose verdicts differ from the published ``seed`` result are the flips.
"""

from __future__ import annotations

import pandas as pd

from ...analysis import ablation
from ...analysis.ablation import ABLATIONS, BASELINE, CHANGES, SCHEMA, VERDICTS, pipeline_signature
from ...core import rules as registry
from ...render import plots
from ..session import Session, start as _start

__all__ = ["STEM", "start", "pipelines", "verdicts", "matrix", "flips", "heatmap", "numbers"]

STEM = "03_normalization_ablation"


def _tags() -> dict[str, str]:
    """Verdict column -> paper-macro tag: the registry's measures', and the schema's."""
    return {**{m.column: m.tag for m in registry.measures()}, SCHEMA: "Schema"}


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark and the scoring schema; the session signs
    its outputs with the ablation's choices, every pipeline's signature and the schema's."""
    nb = _start(STEM, namespace)
    nb.sign(ablation.ablation_signature(), *(pipeline_signature(n) for n in ABLATIONS.values()))
    nb.sign(nb.schema.signature())
    return nb


def pipelines() -> pd.DataFrame:
    """The pipelines compared: name, what changes relative to seed, signature."""
    return pd.DataFrame({
        "pipeline": list(ABLATIONS),
        "change": [CHANGES.get(name, "") for name in ABLATIONS],
        "signature": [pipeline_signature(n) for n in ABLATIONS.values()],
    })


def verdicts(nb: Session) -> pd.DataFrame:
    """Every row's verdicts under every pipeline (one row per pipeline and benchmark row)."""
    return ablation.ablation_table(nb.benchmark, ABLATIONS, nb.schema)


def matrix(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The paper's table: rows × pipelines, ``*`` marking a flip, a flips count per block."""
    return ablation.matrix_table(verdicts, baseline=BASELINE)


def flips(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per pipeline and verdict: passes, flips, and the rows lost and gained relative to seed."""
    return ablation.flips(verdicts, baseline=BASELINE)


def heatmap(verdicts: pd.DataFrame):
    """The heatmap: pass/fail of every row under every pipeline, flips outlined; one panel
    per verdict, side by side, the legend below them."""
    panels = [ablation.heatmap_panel(verdicts, verdict, baseline=BASELINE) for verdict in VERDICTS]
    return plots.ablation_figure(panels, baseline=BASELINE)


def numbers(flips: pd.DataFrame) -> dict[str, object]:
    """Each pipeline's flips per verdict, and how many pipelines flip anything."""
    tags, quoted = _tags(), {}
    for record in flips.itertuples(index=False):
        if record.pipeline != BASELINE:
            tag = f"Ablation{tags[record.rule]}Flips{ablation.macro_tag(record.pipeline)}"
            quoted[tag] = record.flips
    quoted["AblationPipelinesFlipping"] = flips[flips["flips"] > 0]["pipeline"].nunique()
    return quoted
