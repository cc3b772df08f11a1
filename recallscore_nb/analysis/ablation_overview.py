"""The normalization ablation seen whole (notebook 03): the pipelines compared, with what each
changes and its signature, and the heatmap's panels, one per verdict.

Built on :mod:`recallscore_nb.analysis.ablation` (its pipelines, signatures and panels);
:func:`recallscore_nb.render.plots.ablation_figure` draws the panels.

>>> ablation_pipelines()["pipeline"].tolist()[:2]
['seed', 'seed-nocase']
"""

from __future__ import annotations

import pandas as pd

from .ablation import ABLATIONS, BASELINE, CHANGES, VERDICTS, heatmap_panel, pipeline_signature

__all__ = ["ablation_pipelines", "pipeline_signatures", "heatmap_panels"]


def pipeline_signatures(pipelines=None) -> list[str]:
    """Each pipeline's signature (default: :data:`~recallscore_nb.analysis.ablation.ABLATIONS`),
    in order."""
    pipelines = ABLATIONS if pipelines is None else pipelines
    return [pipeline_signature(normalizer) for normalizer in pipelines.values()]


def ablation_pipelines(pipelines=None) -> pd.DataFrame:
    """The pipelines compared: name, what changes relative to seed, signature."""
    pipelines = ABLATIONS if pipelines is None else pipelines
    return pd.DataFrame({
        "pipeline": list(pipelines),
        "change": [CHANGES.get(name, "") for name in pipelines],
        "signature": pipeline_signatures(pipelines),
    })


def heatmap_panels(verdicts: pd.DataFrame, *, baseline: str = BASELINE) -> list:
    """The heatmap of every verdict of :data:`~recallscore_nb.analysis.ablation.VERDICTS`, in
    order: pass or fail of every row under every pipeline, flips relative to ``baseline``."""
    return [heatmap_panel(verdicts, verdict, baseline=baseline) for verdict in VERDICTS]
