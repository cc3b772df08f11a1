"""One measure's value per row of a scored table, as the statistics read it.

A table is summarized by measures (:func:`resolve_rules`): each rule's own verdict, and
derived ones such as the checklist's partial credit. :func:`rule_values` gives a measure's
value per row as a float (booleans as 0/1) with whether the row counts: only an optional
measure may be missing (the checklist's, for an item without a checklist), and such rows are
left out, never scored 0. Systems and items are coded as integers in sorted order of their
names (:func:`key_codes`, :func:`item_codes`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import rules as registry
from ..core.errors import UsageError

__all__ = ["resolve_rules", "rule_values", "item_codes", "key_codes", "require"]

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


def require(frame: pd.DataFrame, columns) -> None:
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
    require(scored, measure.inputs)
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


def key_codes(series: pd.Series, column: str) -> tuple[np.ndarray, list]:
    """Integer codes of a key column, its values sorted; a missing key is an error."""
    codes, uniques = pd.factorize(series, sort=True)
    if (codes < 0).any():
        row = int(np.flatnonzero(codes < 0)[0])
        raise UsageError(f"column {column!r} is missing at row {row} (expected a name)")
    return codes, list(uniques)


def item_codes(scored: pd.DataFrame, item: str) -> np.ndarray:
    """Each row's item code, in sorted order of the item ids; without an ``item`` column the
    table is one benchmark's attempts, all on one item."""
    if item in scored.columns:
        return key_codes(scored[item], item)[0]
    return np.zeros(len(scored), dtype=np.intp)
