"""Several systems' attempts at one benchmark: each system's mean score under every measure,
with a percentile bootstrap interval (resampling its attempts), the negative controls beside
the systems (:mod:`recallscore_nb.analysis.controls`).

A rule is *saturated* when its two best real systems both reach 0.95 and their intervals
overlap: :func:`recallscore_nb.analysis.bootstrap.saturated` on the intervals
:func:`~recallscore_nb.analysis.controls.without_controls`.
"""

from __future__ import annotations

import pandas as pd

from ..core import rules as registry
from ..core.scoring import score_benchmark
from .controls import CONTROL_SYSTEMS, control_attempts, with_controls
from .schema_measures import measures_with_schema, with_schema_measures
from .bootstrap import grouped_bootstrap_ci

__all__ = ["attempts_per_system", "score_with_controls", "bootstrap_intervals", "saturated_by_rule"]


def attempts_per_system(attempts: pd.DataFrame) -> pd.DataFrame:
    """The systems of an attempts table: how many attempts each made, how many distinct.

    >>> attempts_per_system(pd.DataFrame({"system": ["b", "a", "a"], "attempt": ["x", "y", "y"]}))
      system  attempts  distinct
    0      a         2         1
    1      b         1         1
    """
    return (attempts.groupby("system", sort=True)["attempt"]
            .agg(attempts="size", distinct="nunique").reset_index())


def score_with_controls(benchmark, attempts: pd.DataFrame, schema, *,
                        squad_mode: str = "v1.1") -> pd.DataFrame:
    """Every attempt, then every control (:func:`~recallscore_nb.analysis.controls.
    control_attempts`, repeated as often as the smallest system has attempts), scored by
    every rule, with the derived measures (partial credit) and the scoring schema's two."""
    frame = with_controls(attempts, control_attempts(benchmark, schema))
    scores = registry.with_derived(score_benchmark(benchmark, frame, squad_mode=squad_mode))
    return with_schema_measures(scores, benchmark, schema)


def _system_order(systems) -> list[str]:
    """Real systems in sorted order, then the controls."""
    return sorted(s for s in set(systems) if s not in CONTROL_SYSTEMS) + list(CONTROL_SYSTEMS)


def bootstrap_intervals(scores: pd.DataFrame, *, by: str = "system", resamples: int, seed: int,
                        confidence: float = 0.95, measures=None) -> pd.DataFrame:
    """Each system's mean under each measure, with its percentile bootstrap interval.

    The attempts of a system are resampled with replacement ``resamples`` times by a
    generator seeded with ``seed``
    (:func:`~recallscore_nb.analysis.bootstrap.grouped_bootstrap_ci`). ``measures``: the columns
    averaged (default: :func:`~recallscore_nb.analysis.schema_measures.measures_with_schema`).
    Returns ``<by>, rule, n, mean, low, high``, by rule (in ``measures`` order), then real
    systems in sorted order, then the controls.
    """
    measures = list(measures_with_schema() if measures is None else measures)
    table = grouped_bootstrap_ci(scores, by=by, columns=measures, resamples=resamples,
                                 seed=seed, confidence=confidence)
    table = table.rename(columns={"measure": "rule"})
    table[by] = pd.Categorical(table[by], _system_order(table[by]))
    table["rule"] = pd.Categorical(table["rule"], measures)
    table = table.sort_values(["rule", by], kind="stable").reset_index(drop=True)
    return table.astype({by: str, "rule": str})


def saturated_by_rule(saturation: pd.DataFrame) -> dict[str, bool]:
    """Rule -> whether it is saturated, from :func:`~recallscore_nb.analysis.bootstrap.saturated`'s
    table (``rule, …, saturated``).

    >>> saturated_by_rule(pd.DataFrame({"rule": ["f1", "em"], "saturated": [True, False]}))
    {'f1': True, 'em': False}
    """
    flags = saturation.set_index("rule")["saturated"]
    return {str(rule): bool(flag) for rule, flag in flags.items()}
