"""Each system's mean score per rule over items, with a bootstrap interval, and which rules
are saturated (:func:`system_table`, :func:`saturation`).

For a benchmark of many items the interval resamples *items*: each item's mean over a system's
attempts, then the mean over items, so an item answered ten times weighs no more than one
answered once; a system that answered one item resamples its attempts.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core import exact
from ..core import rules as registry
from .bootstrap import (DEFAULT_RESAMPLES, DEFAULT_SEED, SATURATION_THRESHOLD, percentile_bounds,
                        check_options, resampled_means, bootstrap_signature, saturated)
from .rule_values import key_codes, item_codes, require, resolve_rules, rule_values

__all__ = ["system_table", "saturation"]

def _summary(values: np.ndarray, items: np.ndarray, resamples, seed, confidence) -> list:
    """(items, mean, low, high, unit) for one system's rows under each of ``k`` rules that
    count the same rows: ``values`` is ``(k, rows)``; one index matrix serves them all."""
    if values.shape[1] == 0:
        return [(0, math.nan, math.nan, math.nan, "item")] * len(values)
    present, dense = np.unique(items, return_inverse=True)
    if len(present) == 1:
        sample, unit = values, "attempt"
    else:
        counts = np.bincount(dense, minlength=len(present))  # each item's mean, exact
        sample = exact.group_sums(values.T, dense, len(present)).ratio(counts[:, None]).T
        unit = "item"
    means = resampled_means(sample, resamples, np.random.default_rng(seed))
    return [(len(present), mean, *percentile_bounds(boot, confidence), unit)
            for mean, boot in zip(exact.exact_means(sample, axis=1).tolist(), means)]


def system_table(scored: pd.DataFrame, *, by: str = "system", rules=None,
                 resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                 confidence: float = 0.95, item: str = "item") -> pd.DataFrame:
    """Each system's mean score per rule over items, with a percentile bootstrap interval.

    For a system and a rule, each item's score is the mean over that system's attempts at
    it; the system's score is the mean over its items, and its interval resamples items
    (``resamples`` draws from a fresh ``default_rng(seed)``, percentile bounds as in
    :func:`bootstrap_ci`). So the interval equals ``bootstrap_ci`` of the per-item means,
    taken in sorted order of item id, with the same seed; it does not depend on the other
    systems, nor on the order of the rows: every mean is an exact sum rounded once.

    Policies:

    - a system that answered **one item** (a single-item benchmark, or a table without an
      ``item`` column) resamples its attempts instead: ``unit`` is ``attempt``;
    - rows whose checklist is empty (an item without one: its checklist columns missing)
      are left out of the checklist's measures and counted in ``excluded``;
    - a system with no counted row gets NaN for ``mean``, ``low`` and ``high``.

    Parameters
    ----------
    scored : DataFrame
        What :func:`recallscore_nb.core.scoring.score_items` or ``score_benchmark`` returns (or
        ``recallscore score`` wrote), with a ``by`` column.
    by : str
        The column naming the system of each attempt.
    rules : sequence of str, optional
        Measure names (:func:`resolve_rules`), in the order wanted; default all of them.
    resamples, seed, confidence
        As for :func:`bootstrap_ci`.
    item : str
        The column naming the item of each attempt; when absent, all rows are one item.

    Returns
    -------
    DataFrame
        ``<by>, rule, items, attempts, excluded, mean, low, high, unit``: systems in sorted
        order, then rules in the order given. ``attrs["signature"]`` holds the
        :func:`bootstrap_signature` with the units used.

    Examples
    --------
    >>> literal = registry.LiteralMatch.column
    >>> scored = pd.DataFrame({"system": ["a", "a", "a", "b", "b"],
    ...                        "item": ["q1", "q1", "q2", "q1", "q2"],
    ...                        literal: [True, False, True, False, False]})
    >>> table = system_table(scored, rules=[literal], resamples=100, seed=0)
    >>> table[["system", "items", "attempts", "mean", "unit"]].values.tolist()
    [['a', 2, 3, 0.75, 'item'], ['b', 2, 2, 0.0, 'item']]
    """
    check_options(resamples, seed, confidence)
    names = resolve_rules(rules)
    require(scored, [by, *(c for r in names for c in registry.measure(r).inputs)])
    groups, systems = key_codes(scored[by], by)
    items = item_codes(scored, item)
    per_rule = {rule: rule_values(scored, rule) for rule in names}
    order = np.argsort(groups, kind="stable")
    split = np.cumsum(np.bincount(groups, minlength=len(systems)))[:-1]
    records = []
    for system, rows in zip(systems, np.split(order, split) if systems else []):
        records += _system_records(system, rows, per_rule, items, resamples, seed, confidence)
    return _system_frame(records, by, resamples=resamples, seed=seed, confidence=confidence)


def _system_records(system, rows: np.ndarray, per_rule: dict, items: np.ndarray,
                    resamples: int, seed: int, confidence: float) -> list[tuple]:
    """One record per rule (in ``per_rule``'s order) of a system's ``rows``: ``system, rule,
    items, attempts, excluded, mean, low, high, unit``. Rules that count the same rows share
    one index matrix (:func:`_summary`)."""
    kept = {rule: rows[valid[rows]] for rule, (_, valid) in per_rule.items()}
    sharing: dict[bytes, list[str]] = {}  # rules that count the same rows share draws
    for rule in per_rule:
        sharing.setdefault(kept[rule].tobytes(), []).append(rule)
    results = {}
    for same in sharing.values():
        counted = kept[same[0]]
        values = np.stack([per_rule[rule][0][counted] for rule in same])
        results.update(zip(same, _summary(values, items[counted], resamples, seed,
                                          confidence)))
    records = []
    for rule in per_rule:
        n_items, mean, low, high, unit = results[rule]
        records.append((system, rule, n_items, len(kept[rule]),
                        len(rows) - len(kept[rule]), mean, low, high, unit))
    return records


def _system_frame(records: list[tuple], by: str, *, resamples: int, seed: int,
                  confidence: float) -> pd.DataFrame:
    """The records of :func:`_system_records` as :func:`system_table`'s frame, typed, with the
    bootstrap's signature (the units used) in ``attrs["signature"]``."""
    table = pd.DataFrame.from_records(records, columns=[
        by, "rule", "items", "attempts", "excluded", "mean", "low", "high", "unit"])
    table = table.astype({"items": "int64", "attempts": "int64", "excluded": "int64",
                          "mean": float, "low": float, "high": float})
    used = sorted(set(table.loc[table["attempts"] > 0, "unit"])) or ["item"]
    table.attrs["signature"] = bootstrap_signature(resamples=resamples, seed=seed,
                                                   confidence=confidence, unit="+".join(used))
    return table


def saturation(table: pd.DataFrame, *, by: str = "system",
               threshold: float = SATURATION_THRESHOLD) -> pd.DataFrame:
    """:func:`saturated` for a :func:`system_table`: per rule, whether the best system's
    interval overlaps the second best's with both means at least ``threshold``, the same
    rule as notebook 05. Leave negative controls out of ``table`` first.

    >>> table = pd.DataFrame({"system": ["a", "b"], "rule": ["f1"] * 2,
    ...                       "mean": [0.97, 0.99], "low": [0.94, 0.97], "high": [1.0, 1.0]})
    >>> saturation(table)[["rule", "best", "second", "saturated"]].values.tolist()
    [['f1', 'b', 'a', True]]
    """
    return saturated(table, by="rule", system=by, threshold=threshold)
