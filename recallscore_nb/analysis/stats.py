"""The statistics of scored tables, by the names they have always had here.

Each job has its module: :mod:`~recallscore_nb.analysis.bootstrap` (percentile bootstrap
intervals of a mean, their signature, and the saturation test),
:mod:`~recallscore_nb.analysis.rule_values` (a measure's value per row, and which rows count),
:mod:`~recallscore_nb.analysis.system_tables` (each system's mean per rule over items) and
:mod:`~recallscore_nb.analysis.paired_comparison` (two systems on their common items, with
McNemar's exact test). This module gathers their public names.

>>> bootstrap_signature(resamples=2000, seed=20260916)  # doctest: +ELLIPSIS
'bootstrap|ci:percentile-95|unit:attempt|n:2000|seed:20260916|version:...'
"""

from __future__ import annotations

from .bootstrap import (DEFAULT_RESAMPLES, DEFAULT_SEED, SATURATION_THRESHOLD, bootstrap_ci,
                        bootstrap_means, bootstrap_signature, grouped_bootstrap_ci, saturated)
from .paired_comparison import mcnemar_exact, mcnemar_signature, paired_comparison
from .rule_values import resolve_rules, rule_values
from .system_tables import saturation, system_table

__all__ = [
    "bootstrap_ci",
    "bootstrap_means",
    "grouped_bootstrap_ci",
    "bootstrap_signature",
    "saturated",
    "SATURATION_THRESHOLD",
    "system_table",
    "saturation",
    "paired_comparison",
    "mcnemar_exact",
    "mcnemar_signature",
    "rule_values",
    "resolve_rules",
    "DEFAULT_SEED",
    "DEFAULT_RESAMPLES",
]
