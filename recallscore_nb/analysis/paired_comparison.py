"""Two systems compared under one rule on the items both answered: a paired bootstrap of the
per-item differences (:func:`paired_comparison`), and McNemar's exact test for a binary rule
with one attempt per item and system (:func:`mcnemar_exact`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._version import __version__
from ..core import exact
from ..core import rules as registry
from ..core.errors import UsageError
from .bootstrap import (DEFAULT_RESAMPLES, DEFAULT_SEED, percentile_bounds, check_options,
                        resampled_means, bootstrap_signature)
from .rule_values import key_codes, item_codes, require, resolve_rules, rule_values

__all__ = ["paired_comparison", "mcnemar_exact", "mcnemar_signature"]

def _item_means(values: np.ndarray, items: np.ndarray, size: int):
    """(sum, count) of ``values`` per item code, both of length ``size``."""
    counts = np.bincount(items, minlength=size)
    sums = exact.group_sums(values, items, size).ratio(1)[:, 0]  # exact: any row order
    return sums, counts


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
    check_options(resamples, seed, confidence)
    (rule,) = resolve_rules([rule])
    require(scored, [by, *registry.measure(rule).inputs])
    if str(a) == str(b):
        raise UsageError(f"'a' and 'b' must be two different systems (got {a!r} twice)")
    values, items, sides = _paired_sides(scored, a, b, by=by, rule=rule, item=item)
    (rows_a, sums_a, counts_a), (rows_b, sums_b, counts_b) = sides
    common = (counts_a > 0) & (counts_b > 0)
    n = int(common.sum())
    mean_a = sums_a[common] / counts_a[common]
    mean_b = sums_b[common] / counts_b[common]
    unit, estimate, boot = _paired_draws(values, items, (rows_a, rows_b), common,
                                         mean_a - mean_b, resamples, seed)
    low, high = percentile_bounds(boot, confidence) if boot is not None else (math.nan, math.nan)
    share = float(np.mean(boot <= 1e-12)) if boot is not None else math.nan
    note, discordant, p = _mcnemar(rule, counts_a[common], counts_b[common], mean_a, mean_b)
    return {
        "rule": rule, "a": str(a), "b": str(b), "items": n,
        "items_only_a": int(((counts_a > 0) & ~common).sum()),
        "items_only_b": int(((counts_b > 0) & ~common).sum()),
        "attempts_a": int(counts_a[common].sum()), "attempts_b": int(counts_b[common].sum()),
        "mean_a": exact.exact_mean(mean_a), "mean_b": exact.exact_mean(mean_b),
        "difference": estimate, "low": low, "high": high, "share_le_zero": share,
        "unit": "attempt" if unit == "attempt" else "item",
        "a_only_correct": discordant[0], "b_only_correct": discordant[1],
        "mcnemar_p": p, "mcnemar_note": note,
        "resamples": resamples, "seed": seed, "confidence": confidence,
        "signature": bootstrap_signature(resamples=resamples, seed=seed,
                                         confidence=confidence, unit=unit),
    }


def _paired_sides(scored: pd.DataFrame, a, b, *, by: str, rule: str, item: str):
    """(each row's value, each row's item code, and for ``a`` then ``b``: its counted rows,
    and the sum and count of its values per item code)."""
    groups, systems = key_codes(scored[by], by)
    lookup = {str(s): code for code, s in enumerate(systems)}
    for name in (a, b):
        if str(name) not in lookup:
            raise UsageError(f"no {by} {str(name)!r} in 'scored' "
                             f"({by}: {', '.join(map(str, systems))})")
    values, valid = rule_values(scored, rule)
    items = item_codes(scored, item)
    size = int(items.max()) + 1 if len(items) else 0
    sides = []
    for name in (a, b):
        rows = np.flatnonzero((groups == lookup[str(name)]) & valid)
        sums, counts = _item_means(values[rows], items[rows], size)
        sides.append((rows, sums, counts))
    return values, items, sides


def _paired_draws(values: np.ndarray, items: np.ndarray, rows: tuple, common: np.ndarray,
                  differences: np.ndarray, resamples: int, seed: int):
    """(unit, the difference of the means, the resampled differences or None): the per-item
    ``differences`` resampled when two items or more are common; on one common item, each
    system's attempts there resampled independently (``a``'s draws first); none on none."""
    rng = np.random.default_rng(seed)
    if len(differences) >= 2:
        return ("item-difference", exact.exact_mean(differences),
                resampled_means(differences, resamples, rng))
    if len(differences) == 1:
        (only,) = np.flatnonzero(common)
        on_a, on_b = (values[side[items[side] == only]] for side in rows)
        boot = resampled_means(on_a, resamples, rng) - resampled_means(on_b, resamples, rng)
        return "attempt", exact.exact_mean(on_a) - exact.exact_mean(on_b), boot
    return "item-difference", math.nan, None


def _mcnemar(rule: str, counts_a: np.ndarray, counts_b: np.ndarray, mean_a: np.ndarray,
             mean_b: np.ndarray) -> tuple[str, tuple, float | None]:
    """(why there is no test, or "", the discordant counts, McNemar's p-value) on the common
    items, given each system's attempt count and mean there."""
    if not registry.measure(rule).binary:
        return "not a binary rule", (None, None), None
    if len(counts_a) == 0:
        return "no item answered by both", (None, None), None
    if (counts_a != 1).any() or (counts_b != 1).any():
        return "more than one attempt per item and system", (None, None), None
    discordant = (int(((mean_a == 1) & (mean_b == 0)).sum()),
                  int(((mean_a == 0) & (mean_b == 1)).sum()))
    return "", discordant, mcnemar_exact(*discordant)
