"""Bootstrap intervals for mean scores, and the saturation test built on them.

Pure: no file is opened and nothing is drawn. Every interval is a percentile bootstrap of
the mean that resamples attempts with replacement. The randomness is explicit: a call
takes ``resamples`` and ``seed``, draws one index matrix of shape ``(resamples, n)`` from
``numpy.random.default_rng(seed)``, and averages every resample at once, so the same
values, seed and resample count give the same interval on every run. Every mean, of the
values and of each resample, is an exact sum rounded once (:mod:`~recallscore_nb.core.exact`):
the same bits on every machine, whatever the CPU, its BLAS kernel or its threads.

Undefined cases are a policy, not an accident:

- ``n = 0``: the mean and both bounds are NaN (nothing to resample);
- ``n = 1``: every resample is the one value, so the interval is that value twice.

>>> bootstrap_signature(resamples=2000, seed=20260916)  # doctest: +ELLIPSIS
'bootstrap|ci:percentile-95|unit:attempt|n:2000|seed:20260916|version:...'

For a benchmark of many items, :func:`~recallscore_nb.analysis.system_tables.system_table`
resamples items instead, and :func:`~recallscore_nb.analysis.paired_comparison.paired_comparison`
the per-item differences of two systems; both draw through :func:`resampled_means`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._version import __version__
from ..core import exact
from ..core.errors import UsageError
from .resample_budget import check_resamples_fit

__all__ = ["bootstrap_ci", "bootstrap_means", "grouped_bootstrap_ci", "bootstrap_signature",
           "saturated", "SATURATION_THRESHOLD", "DEFAULT_SEED", "DEFAULT_RESAMPLES",
           "check_options", "percentile_bounds", "resampled_means"]

SATURATION_THRESHOLD = 0.95
"""Both leading point estimates must reach this for a rule to count as saturated."""


def check_options(resamples, seed, confidence=None) -> None:
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
    ``(resamples, k)`` for a ``(n, k)`` matrix whose rows are resampled together. A count
    whose matrices would not fit in memory is refused first
    (:mod:`~recallscore_nb.analysis.resample_budget`).

    >>> bootstrap_means([1.0, 1.0, 1.0], resamples=4, seed=0).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    check_options(resamples, seed)
    matrix = _as_matrix(values)
    n = matrix.shape[0]
    if n == 0:
        means = np.full((resamples, matrix.shape[1]), np.nan)
    else:  # the index matrix and the values it picks: 16 bytes a value and resample
        k = matrix.shape[1]
        check_resamples_fit(resamples, 16 * (n + k), f"{n:,} values" + (
            f" of {k:,} columns" if k > 1 else ""))
        means = resampled_means(matrix.T, resamples, np.random.default_rng(seed)).T
    return means[:, 0] if np.ndim(values) == 1 else means


def _intervals(matrix: np.ndarray, resamples: int, seed: int, confidence: float):
    """(mean, low, high), each one value per column of ``matrix``."""
    if matrix.shape[0] == 0:
        nan = np.full(matrix.shape[1], np.nan)
        return nan, nan.copy(), nan.copy()
    means = bootstrap_means(matrix, resamples=resamples, seed=seed)
    alpha = 1 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0)
    return exact.exact_means(matrix), low, high


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
    check_options(resamples, seed, confidence)
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
    check_options(resamples, seed, confidence)
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
    check_options(resamples, seed, confidence)
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


DEFAULT_SEED = 20260916
"""The bootstrap seed of notebook 05 and of ``recallscore summarize`` unless told otherwise."""
DEFAULT_RESAMPLES = 2000

_BLOCK_ENTRIES = 1 << 22  # indices drawn at once: 32 MiB; 2,000 resamples of 2,097 items


def resampled_means(sample: np.ndarray, resamples: int, rng) -> np.ndarray:
    """The mean of each of ``resamples`` resamples of ``sample`` with replacement: shape
    ``(resamples,)``, or ``(k, resamples)`` for a ``(k, n)`` sample whose columns are
    resampled together (several rules on the same items share one index matrix).

    The resamples are the rows of one ``(resamples, n)`` index matrix drawn from ``rng``, as
    in :func:`bootstrap_means`, generated in blocks of whole rows (about 2**22 values at a
    time) so memory stays bounded: numpy draws the same indices in blocks as at once (a test
    pins it). A resample's mean is the exact sum of its draws (how often each value was drawn
    times the value) divided by ``n`` and rounded once, so it depends neither on the machine
    nor on the other rules or resamples.
    """
    matrix = sample.reshape(-1, sample.shape[-1])
    k, n = matrix.shape
    step = max(1, _BLOCK_ENTRIES // n)
    out = np.empty((k, resamples))
    for start in range(0, resamples, step):  # one block for 2,000 resamples of 2,097 values
        rows = min(step, resamples - start)
        index = rng.integers(0, n, size=(rows, n))
        index += np.arange(rows)[:, None] * n  # each resample's draws, counted
        counts = np.bincount(index.ravel(), minlength=rows * n).reshape(rows, n)
        out[:, start:start + rows] = exact.weighted_sums(counts, matrix.T).ratio(n).T
    return out[0] if sample.ndim == 1 else out


def percentile_bounds(means: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = 1 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(low), float(high)
