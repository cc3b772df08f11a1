"""Bootstrap intervals for mean scores, and the saturation test built on them.

Pure: no file is opened and nothing is drawn. Every interval is a percentile bootstrap of
the mean that resamples attempts with replacement. The randomness is explicit: a call
takes ``resamples`` and ``seed``, draws one index matrix of shape ``(resamples, n)`` from
``numpy.random.default_rng(seed)``, and averages every resample at once, so the same
values, seed and resample count give the same interval on every run.

Undefined cases are a policy, not an accident:

- ``n = 0``: the mean and both bounds are NaN (nothing to resample);
- ``n = 1``: every resample is the one value, so the interval is that value twice.

>>> bootstrap_signature(resamples=2000, seed=20260916)  # doctest: +ELLIPSIS
'bootstrap|ci:percentile-95|unit:attempt|n:2000|seed:20260916|version:...'

For a benchmark of many items, :func:`system_table` resamples *items* instead: each item's
mean over a system's attempts, then the mean over items, so an item answered ten times
weighs no more than one answered once. :func:`paired_comparison` compares two systems on
the items both answered (a paired bootstrap of the per-item differences, and McNemar's
exact test for a binary rule with one attempt per item and system, see
:func:`mcnemar_exact`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._version import __version__
from ..core import rules as registry
from ..core.errors import UsageError

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

SATURATION_THRESHOLD = 0.95
"""Both leading point estimates must reach this for a rule to count as saturated."""


def _check_options(resamples, seed, confidence=None) -> None:
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or resamples < 1:
        raise UsageError(f"'resamples' must be an int >= 1 (got {resamples!r})")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise UsageError(f"'seed' must be an int >= 0 (got {seed!r})")
    if confidence is not None and (isinstance(confidence, bool) or not isinstance(
            confidence, (int, float)) or not 0 < confidence < 1):
        raise UsageError(f"'confidence' must be a number strictly between 0 and 1 "
                         f"(got {confidence!r})")


def _as_matrix(values, name: str = "values") -> np.ndarray:
    """``values`` as a float matrix, one row per attempt and one column per measure."""
    matrix = np.asarray(values, dtype=float)
    if matrix.ndim == 1:
        matrix = matrix[:, None]
    if matrix.ndim != 2:
        raise UsageError(f"'{name}' must be one- or two-dimensional (got {matrix.ndim} dimensions)")
    if not np.isfinite(matrix).all():
        raise UsageError(f"'{name}' must be finite numbers (got NaN or infinity)")
    return matrix


def bootstrap_means(values, *, resamples: int, seed: int) -> np.ndarray:
    """The mean of each bootstrap resample: shape ``(resamples,)``, or
    ``(resamples, k)`` for a ``(n, k)`` matrix whose rows are resampled together.

    >>> bootstrap_means([1.0, 1.0, 1.0], resamples=4, seed=0).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    _check_options(resamples, seed)
    matrix = _as_matrix(values)
    n = matrix.shape[0]
    if n == 0:
        means = np.full((resamples, matrix.shape[1]), np.nan)
    else:
        index = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
        # column by column, so a column's means do not depend on its neighbours (rounding)
        means = np.stack([column[index].mean(axis=1) for column in matrix.T], axis=1)
    return means[:, 0] if np.ndim(values) == 1 else means


def _intervals(matrix: np.ndarray, resamples: int, seed: int, confidence: float):
    """(mean, low, high), each one value per column of ``matrix``."""
    if matrix.shape[0] == 0:
        nan = np.full(matrix.shape[1], np.nan)
        return nan, nan.copy(), nan.copy()
    means = bootstrap_means(matrix, resamples=resamples, seed=seed)
    alpha = 1 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0)
    return matrix.mean(axis=0), low, high


def bootstrap_ci(values: Sequence[float], *, resamples: int, seed: int,
                 confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (resampling the values).

    Parameters
    ----------
    values : sequence of float or bool
        One score per attempt.
    resamples : int
        How many resamples to draw (at least 1).
    seed : int
        The seed of ``numpy.random.default_rng``; record it (see :func:`bootstrap_signature`).
    confidence : float
        The interval's coverage, strictly between 0 and 1.

    Returns
    -------
    (low, high) : tuple of float
        The ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` percentiles (numpy's linear
        interpolation) of the resampled means. NaN twice for no values; the value twice for one.

    Examples
    --------
    >>> bootstrap_ci([0.5], resamples=100, seed=1)
    (0.5, 0.5)
    >>> low, high = bootstrap_ci([0, 1, 1, 1], resamples=1000, seed=1)
    >>> bool(0 <= low <= 0.75 <= high <= 1)
    True
    """
    _check_options(resamples, seed, confidence)
    _, low, high = _intervals(_as_matrix(values), resamples, seed, confidence)
    return float(low[0]), float(high[0])


def grouped_bootstrap_ci(frame: pd.DataFrame, *, by: str, columns: Sequence[str],
                         resamples: int, seed: int, confidence: float = 0.95) -> pd.DataFrame:
    """:func:`bootstrap_ci` of several columns within each group of ``frame``.

    Each group draws its own index matrix from a fresh ``default_rng(seed)`` and resamples
    its rows once for all the columns, so a group's intervals depend only on its own rows
    (adding or removing another group changes nothing) and equal :func:`bootstrap_ci` of
    each of its columns with the same seed.

    Returns
    -------
    DataFrame
        ``<by>, measure, n, mean, low, high``: groups in sorted order, then ``columns``
        in the order given.

    Examples
    --------
    >>> frame = pd.DataFrame({"system": ["b", "a", "a"], "ok": [1.0, 0.0, 1.0]})
    >>> grouped_bootstrap_ci(frame, by="system", columns=["ok"], resamples=10, seed=0)[
    ...     ["system", "measure", "n", "mean"]]
      system measure  n  mean
    0      a      ok  2   0.5
    1      b      ok  1   1.0
    """
    _check_options(resamples, seed, confidence)
    columns = list(columns)
    missing = [c for c in [by, *columns] if c not in frame.columns]
    if missing:
        raise UsageError(f"'frame' has no column {missing[0]!r} "
                         f"(columns: {', '.join(map(str, frame.columns))})")
    matrix = _as_matrix(frame[columns].to_numpy(dtype=float), "frame")
    codes, groups = pd.factorize(frame[by], sort=True)
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes, minlength=len(groups))
    parts = []
    for group, rows in zip(groups, np.split(order, np.cumsum(counts)[:-1])):
        mean, low, high = _intervals(matrix[rows], resamples, seed, confidence)
        parts.append(pd.DataFrame({by: group, "measure": columns, "n": len(rows),
                                   "mean": mean, "low": low, "high": high}))
    if not parts:
        return pd.DataFrame({by: [], "measure": [], "n": [], "mean": [], "low": [], "high": []})
    return pd.concat(parts, ignore_index=True)


def bootstrap_signature(*, resamples: int, seed: int, confidence: float = 0.95,
                        unit: str = "attempt") -> str:
    """Every setting that changes an interval, as ``bootstrap|key:value|…|version:X``.

    ``unit`` is what was resampled: ``attempt`` (the default, as :func:`bootstrap_ci`),
    ``item`` (:func:`system_table`), ``item-difference`` (:func:`paired_comparison`), or
    several joined by ``+`` when a table mixes them.

    >>> bootstrap_signature(resamples=500, seed=7, confidence=0.9)  # doctest: +ELLIPSIS
    'bootstrap|ci:percentile-90|unit:attempt|n:500|seed:7|version:...'
    >>> bootstrap_signature(resamples=500, seed=7, unit="item")  # doctest: +ELLIPSIS
    'bootstrap|ci:percentile-95|unit:item|n:500|seed:7|version:...'
    """
    _check_options(resamples, seed, confidence)
    if not isinstance(unit, str) or not unit or any(ch in unit for ch in "|: "):
        raise UsageError(f"'unit' must be a non-empty str without '|', ':' or spaces "
                         f"(got {unit!r})")
    level = format(round(100 * confidence, 10), "g")
    fields = [("ci", f"percentile-{level}"), ("unit", unit), ("n", resamples),
              ("seed", seed)]
    return "|".join(["bootstrap"] + [f"{k}:{v}" for k, v in fields] + [f"version:{__version__}"])


def saturated(table: pd.DataFrame, *, by: str = "measure", system: str = "system",
              threshold: float = SATURATION_THRESHOLD) -> pd.DataFrame:
    """Whether the two best systems can no longer be told apart near the ceiling.

    Within each ``by`` group (a rule), systems are ranked by ``mean`` (ties by name). The
    group is saturated when the best system's ``[low, high]`` interval overlaps the
    second best's and both means are at least ``threshold``. A group with one system has
    no second best: it is not saturated, and the second's fields are missing.

    Parameters
    ----------
    table : DataFrame
        ``<by>, <system>, mean, low, high``, as :func:`grouped_bootstrap_ci` returns (there
        the system column is the ``by`` argument and the rule column is ``measure``).

    Returns
    -------
    DataFrame
        ``<by>, best, best_mean, best_low, best_high, second, second_mean, second_low,
        second_high, overlap, saturated``, one row per group in order of first appearance.

    Examples
    --------
    >>> table = pd.DataFrame({"measure": ["f1"] * 3, "system": ["a", "b", "c"],
    ...                       "mean": [0.97, 0.99, 0.5], "low": [0.94, 0.96, 0.4],
    ...                       "high": [1.0, 1.0, 0.6]})
    >>> row = saturated(table).iloc[0]
    >>> row["best"], row["second"], bool(row["overlap"]), bool(row["saturated"])
    ('b', 'a', True, True)
    """
    ranked = table.sort_values([by, "mean", system], ascending=[True, False, True],
                               kind="stable")
    position = ranked.groupby(by, sort=False).cumcount()
    fields = [system, "mean", "low", "high"]
    best = ranked[position == 0].set_index(by)[fields]
    second = ranked[position == 1].set_index(by)[fields]
    groups = pd.Index(pd.unique(table[by]), name=by)
    best = best.reindex(groups).rename(columns=lambda c: "best" if c == system else f"best_{c}")
    second = second.reindex(groups).rename(
        columns=lambda c: "second" if c == system else f"second_{c}")
    out = pd.concat([best, second], axis=1).reset_index()
    has_second = out["second"].notna()
    overlap = has_second & (out["best_low"] <= out["second_high"]) & (
        out["second_low"] <= out["best_high"])
    out["overlap"] = overlap.astype(bool)
    out["saturated"] = (overlap & (out["best_mean"] >= threshold)
                        & (out["second_mean"] >= threshold)).astype(bool)
    return out


# --- per-system tables over items, and paired comparisons ---------------------------------
DEFAULT_SEED = 20260916
"""The bootstrap seed of notebook 05 and of ``recallscore summarize`` unless told otherwise."""
DEFAULT_RESAMPLES = 2000

_BLOCK_ENTRIES = 1 << 22  # indices drawn at once: 32 MiB; 2,000 resamples of 2,097 items


def resolve_rules(rules=None) -> list[str]:
    """Rule names checked against the registry's measures
    (:func:`recallscore_nb.core.rules.measure`), duplicates dropped; None: every measure of
    every rule, in output order.

    A table is summarized by measures: each rule's own verdict, and derived ones such as the
    checklist's partial credit (the share of the facts present). A binary measure is 0 or 1
    per attempt (McNemar's test applies to it); an optional one is undefined for an item
    without a checklist: its rows are missing there, and are excluded from it (and counted in
    ``excluded``), never scored 0.

    >>> f1, literal = registry.TokenF1.column, registry.LiteralMatch.column
    >>> resolve_rules([f1, f1, literal]) == [f1, literal]
    True
    """
    if rules is None:
        return [m.column for m in registry.measures()]
    names = list(dict.fromkeys([rules] if isinstance(rules, str) else rules))
    for name in names:
        registry.measure(name)
    if not names:
        raise UsageError("'rules' must name at least one rule (got none)")
    return names


def _require(frame: pd.DataFrame, columns) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise UsageError(f"'scored' has no column {missing[0]!r} "
                         f"(columns: {', '.join(map(str, frame.columns))})")


def _as_float(series: pd.Series, column: str) -> np.ndarray:
    """Booleans as 0/1 and numbers as floats; missing as NaN."""
    try:
        if series.dtype == object or isinstance(series.dtype, pd.api.extensions.ExtensionDtype):
            values = series.astype("Float64").to_numpy(dtype=float, na_value=np.nan)
        else:
            values = series.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise UsageError(f"column {column!r} must hold numbers or booleans "
                         f"(got {series.dtype})") from None
    if np.isinf(values).any():
        row = int(np.flatnonzero(np.isinf(values))[0])
        raise UsageError(f"column {column!r} must be finite "
                         f"(got {float(values[row])!r} at row {row})")
    return values


def rule_values(scored: pd.DataFrame, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """One measure's score per row as floats (booleans as 0/1), and whether the row counts.

    Only the optional measures may be missing (the checklist's, for an item without a
    checklist); a derived one is missing where it is undefined (partial credit where the
    checklist has no fact). A missing value of another measure, or a binary measure's value
    other than 0/1, raises :class:`UsageError`.

    Examples
    --------
    >>> checklist = registry.Checklist
    >>> frame = pd.DataFrame({checklist.present: pd.array([1, None], dtype="Int64"),
    ...                       checklist.total: pd.array([4, None], dtype="Int64")})
    >>> values, counts = rule_values(frame, checklist.measures[1].column)
    >>> values.tolist(), counts.tolist()
    ([0.25, nan], [True, False])
    """
    (name,) = resolve_rules([rule])
    measure = registry.measure(name)
    _require(scored, measure.inputs)
    if measure.derive is not None:
        values = measure.derive(*(_as_float(scored[c], c) for c in measure.reads))
    else:
        values = _as_float(scored[name], name)
    valid = ~np.isnan(values)
    if not measure.optional and not valid.all():
        row = int(np.flatnonzero(~valid)[0])
        raise UsageError(f"column {name!r} is missing at row {row} (only the checklist rules "
                         f"may be missing, for an item without a checklist)")
    if measure.binary:
        bad = valid & (values != 0) & (values != 1)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise UsageError(f"column {name!r} must hold booleans (got {float(values[row])!r} "
                             f"at row {row})")
    return values, valid


def _codes(series: pd.Series, column: str) -> tuple[np.ndarray, list]:
    """Integer codes of a key column, its values sorted; a missing key is an error."""
    codes, uniques = pd.factorize(series, sort=True)
    if (codes < 0).any():
        row = int(np.flatnonzero(codes < 0)[0])
        raise UsageError(f"column {column!r} is missing at row {row} (expected a name)")
    return codes, list(uniques)


def _item_codes(scored: pd.DataFrame, item: str) -> np.ndarray:
    """Each row's item code, in sorted order of the item ids; without an ``item`` column the
    table is one benchmark's attempts, all on one item."""
    if item in scored.columns:
        return _codes(scored[item], item)[0]
    return np.zeros(len(scored), dtype=np.intp)


def _resampled_means(sample: np.ndarray, resamples: int, rng) -> np.ndarray:
    """The mean of each of ``resamples`` resamples of ``sample`` with replacement: shape
    ``(resamples,)``, or ``(k, resamples)`` for a ``(k, n)`` sample whose columns are
    resampled together (several rules on the same items share one index matrix).

    The resamples are the rows of one ``(resamples, n)`` index matrix drawn from ``rng``, as
    in :func:`bootstrap_means`, generated in blocks of whole rows (about 2**22 values at a
    time) so memory stays bounded: numpy draws the same indices in blocks as at once (a test
    pins it), and each row's mean does not depend on its neighbours.
    """
    matrix = sample.reshape(-1, sample.shape[-1])
    k, n = matrix.shape
    step = max(1, _BLOCK_ENTRIES // n)
    out = np.empty((k, resamples))
    for start in range(0, resamples, step):  # one block for 2,000 resamples of 2,097 values
        stop = min(start + step, resamples)
        index = rng.integers(0, n, size=(stop - start, n))
        for row, column in zip(out, matrix):  # per rule: the draws are the costly part
            row[start:stop] = column[index].mean(axis=1)
    return out[0] if sample.ndim == 1 else out


def _bounds(means: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = 1 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(low), float(high)


def _item_means(values: np.ndarray, items: np.ndarray, size: int):
    """(sum, count) of ``values`` per item code, both of length ``size``."""
    counts = np.bincount(items, minlength=size)
    sums = np.bincount(items, weights=values, minlength=size)
    return sums, counts


def _summary(values: np.ndarray, items: np.ndarray, resamples, seed, confidence) -> list:
    """(items, mean, low, high, unit) for one system's rows under each of ``k`` rules that
    count the same rows: ``values`` is ``(k, rows)``; one index matrix serves them all."""
    if values.shape[1] == 0:
        return [(0, math.nan, math.nan, math.nan, "item")] * len(values)
    present, dense = np.unique(items, return_inverse=True)
    if len(present) == 1:
        sample, unit = values, "attempt"
    else:
        counts = np.bincount(dense, minlength=len(present))
        sample = np.stack([np.bincount(dense, weights=row, minlength=len(present))
                           for row in values]) / counts
        unit = "item"
    means = _resampled_means(sample, resamples, np.random.default_rng(seed))
    return [(len(present), float(row.mean()), *_bounds(boot, confidence), unit)
            for row, boot in zip(sample, means)]


def system_table(scored: pd.DataFrame, *, by: str = "system", rules=None,
                 resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                 confidence: float = 0.95, item: str = "item") -> pd.DataFrame:
    """Each system's mean score per rule over items, with a percentile bootstrap interval.

    For a system and a rule, each item's score is the mean over that system's attempts at
    it; the system's score is the mean over its items, and its interval resamples items
    (``resamples`` draws from a fresh ``default_rng(seed)``, percentile bounds as in
    :func:`bootstrap_ci`). So the interval equals ``bootstrap_ci`` of the per-item means,
    taken in sorted order of item id, with the same seed; it does not depend on the other
    systems, nor on the order of the rows (beyond rounding in summing an item's attempts).

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
    _check_options(resamples, seed, confidence)
    names = resolve_rules(rules)
    _require(scored, [by, *(c for r in names for c in registry.measure(r).inputs)])
    groups, systems = _codes(scored[by], by)
    items = _item_codes(scored, item)
    per_rule = {rule: rule_values(scored, rule) for rule in names}
    order = np.argsort(groups, kind="stable")
    split = np.cumsum(np.bincount(groups, minlength=len(systems)))[:-1]
    records = []
    for system, rows in zip(systems, np.split(order, split) if systems else []):
        kept = {rule: rows[per_rule[rule][1][rows]] for rule in names}
        sharing: dict[bytes, list[str]] = {}  # rules that count the same rows share draws
        for rule in names:
            sharing.setdefault(kept[rule].tobytes(), []).append(rule)
        results = {}
        for same in sharing.values():
            counted = kept[same[0]]
            values = np.stack([per_rule[rule][0][counted] for rule in same])
            results.update(zip(same, _summary(values, items[counted], resamples, seed,
                                              confidence)))
        for rule in names:
            n_items, mean, low, high, unit = results[rule]
            records.append((system, rule, n_items, len(kept[rule]),
                            len(rows) - len(kept[rule]), mean, low, high, unit))
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


def mcnemar_exact(b: int, c: int) -> float:
    """McNemar's exact test, two-sided: ``min(1, 2 * P(X <= min(b, c)))`` for
    ``X ~ Binomial(b + c, 1/2)``; 1 when ``b + c = 0``.

    ``b`` and ``c`` are the discordant pairs (items only the first system got right, and
    items only the second got right). Binomial(n, 1/2) is symmetric, so this equals the
    two-sided ``scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue`` (which sums the
    outcomes no more likely than the one observed); a test pins the two.

    Examples
    --------
    >>> mcnemar_exact(2, 0)  # 2 * (1/2)**2
    0.5
    >>> mcnemar_exact(1, 9)  # 2 * (1 + 10) / 2**10
    0.021484375
    >>> mcnemar_exact(0, 0), mcnemar_exact(3, 3)
    (1.0, 1.0)
    """
    for name, value in (("b", b), ("c", c)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise UsageError(f"'{name}' must be an int >= 0 (got {value!r})")
    n, k = int(b) + int(c), min(int(b), int(c))
    if 2 * k >= n:  # b == c, or no discordant pair: P(X <= n/2) >= 1/2
        return 1.0
    # P(X = k), exactly rounded (Python divides integers exactly), times
    # sum_{j <= k} P(X = j) / P(X = k) = 1 + the cumulative products of (j + 1) / (n - j)
    peak = math.comb(n, k) / (1 << n)
    j = np.arange(k - 1, -1, -1, dtype=float)
    tail = 1.0 + float(np.cumprod((j + 1) / (n - j)).sum())
    return min(1.0, 2.0 * peak * tail)


def mcnemar_signature() -> str:
    """The McNemar test's settings, to print beside its p-values.

    >>> mcnemar_signature()  # doctest: +ELLIPSIS
    'mcnemar|exact:binomial|sided:two|version:...'
    """
    return f"mcnemar|exact:binomial|sided:two|version:{__version__}"


def paired_comparison(scored: pd.DataFrame, a, b, *, by: str = "system", rule: str,
                      resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                      confidence: float = 0.95, item: str = "item") -> dict:
    """Compare systems ``a`` and ``b`` under one rule on the items both answered.

    Each system's score on an item is its mean over its attempts there (rows excluded as in
    :func:`system_table`); the difference ``a - b`` is the mean of the per-item differences.
    Its interval is a paired bootstrap: items are resampled (``default_rng(seed)``) and the
    differences averaged. ``share_le_zero`` is the share of resampled differences at most
    0 (differences within 1e-12 of 0 count as 0), a one-sided bootstrap p-value for
    "``a`` is better".

    Policies:

    - **one common item** (a single-item benchmark): attempts are not paired, so each
      system's attempts are resampled independently (``a``'s index matrix, then ``b``'s,
      from the same generator); ``unit`` is ``attempt``;
    - **no common item**: the estimates and interval are NaN;
    - **McNemar's exact test** (:func:`mcnemar_exact`) is computed for a binary rule when
      every common item has exactly one attempt per system; otherwise ``mcnemar_p`` and the
      discordant counts are None and ``mcnemar_note`` says why.

    Returns
    -------
    dict
        ``rule, a, b, items`` (common), ``items_only_a, items_only_b, attempts_a,
        attempts_b`` (on the common items), ``mean_a, mean_b, difference, low, high,
        share_le_zero, unit, a_only_correct, b_only_correct, mcnemar_p, mcnemar_note,
        resamples, seed, confidence, signature``.

    Examples
    --------
    >>> literal = registry.LiteralMatch.column
    >>> scored = pd.DataFrame({"system": ["x"] * 4 + ["y"] * 4, "item": list("pqrs") * 2,
    ...                        literal: [1, 1, 1, 0, 0, 0, 1, 0]})
    >>> out = paired_comparison(scored, "x", "y", rule=literal, resamples=100, seed=0)
    >>> out["difference"], out["a_only_correct"], out["b_only_correct"], out["mcnemar_p"]
    (0.5, 2, 0, 0.5)
    """
    _check_options(resamples, seed, confidence)
    (rule,) = resolve_rules([rule])
    _require(scored, [by, *registry.measure(rule).inputs])
    if str(a) == str(b):
        raise UsageError(f"'a' and 'b' must be two different systems (got {a!r} twice)")
    groups, systems = _codes(scored[by], by)
    lookup = {str(s): code for code, s in enumerate(systems)}
    for name in (a, b):
        if str(name) not in lookup:
            raise UsageError(f"no {by} {str(name)!r} in 'scored' "
                             f"({by}: {', '.join(map(str, systems))})")
    values, valid = rule_values(scored, rule)
    items = _item_codes(scored, item)
    size = int(items.max()) + 1 if len(items) else 0
    sides = []
    for name in (a, b):
        rows = np.flatnonzero((groups == lookup[str(name)]) & valid)
        sums, counts = _item_means(values[rows], items[rows], size)
        sides.append((rows, sums, counts))
    (rows_a, sums_a, counts_a), (rows_b, sums_b, counts_b) = sides
    common = (counts_a > 0) & (counts_b > 0)
    n = int(common.sum())
    mean_a = sums_a[common] / counts_a[common]
    mean_b = sums_b[common] / counts_b[common]
    rng = np.random.default_rng(seed)
    if n >= 2:
        unit = "item-difference"
        estimate = float((mean_a - mean_b).mean())
        boot = _resampled_means(mean_a - mean_b, resamples, rng)
    elif n == 1:
        unit = "attempt"
        (only,) = np.flatnonzero(common)
        on_a = values[rows_a[items[rows_a] == only]]
        on_b = values[rows_b[items[rows_b] == only]]
        estimate = float(on_a.mean() - on_b.mean())
        boot = _resampled_means(on_a, resamples, rng) - _resampled_means(on_b, resamples, rng)
    else:
        unit, estimate, boot = "item-difference", math.nan, None
    low, high = _bounds(boot, confidence) if boot is not None else (math.nan, math.nan)
    share = float(np.mean(boot <= 1e-12)) if boot is not None else math.nan
    note, discordant, p = "", (None, None), None
    if not registry.measure(rule).binary:
        note = "not a binary rule"
    elif n == 0:
        note = "no item answered by both"
    elif (counts_a[common] != 1).any() or (counts_b[common] != 1).any():
        note = "more than one attempt per item and system"
    else:
        discordant = (int(((mean_a == 1) & (mean_b == 0)).sum()),
                      int(((mean_a == 0) & (mean_b == 1)).sum()))
        p = mcnemar_exact(*discordant)
    return {
        "rule": rule, "a": str(a), "b": str(b), "items": n,
        "items_only_a": int(((counts_a > 0) & ~common).sum()),
        "items_only_b": int(((counts_b > 0) & ~common).sum()),
        "attempts_a": int(counts_a[common].sum()), "attempts_b": int(counts_b[common].sum()),
        "mean_a": float(mean_a.mean()) if n else math.nan,
        "mean_b": float(mean_b.mean()) if n else math.nan,
        "difference": estimate, "low": low, "high": high, "share_le_zero": share,
        "unit": "attempt" if unit == "attempt" else "item",
        "a_only_correct": discordant[0], "b_only_correct": discordant[1],
        "mcnemar_p": p, "mcnemar_note": note,
        "resamples": resamples, "seed": seed, "confidence": confidence,
        "signature": bootstrap_signature(resamples=resamples, seed=seed,
                                         confidence=confidence, unit=unit),
    }
