"""Summaries of a scored file: each system's mean per rule with its bootstrap interval, the
saturation verdicts, a paired comparison of two systems, and the notes printed under them.

:func:`read_scored` reads what ``recallscore score`` wrote (through
:func:`recallscore_nb.io.scored.reading.read_scored`, asking for the columns the rules need);
:func:`summary_tables` builds the tables (see :mod:`recallscore_nb.analysis.system_tables`);
:func:`summary_footer` and :func:`paired_footer` are the notes under them. Without an ``item``
column the file is one benchmark's attempts, all on one item, so the intervals resample
attempts. ``recallscore summarize`` (:func:`recallscore_nb.cli.handlers.summarize_command`)
renders and writes them.

At most :data:`MAX_RESAMPLES` bootstrap resamples: every resample's mean is kept for the
percentile bounds, eight bytes per rule, and the table's bounds, shown to three decimals, no
longer move past a few hundred thousand.
"""

from __future__ import annotations

import pandas as pd

from ..core.errors import UsageError
from ..core.rules import measure
from ..io.scored import reading as scored_reading
from .bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED
from .paired_comparison import mcnemar_signature, paired_comparison
from .resample_budget import size_text
from .rule_values import resolve_rules
from .system_tables import saturation, system_table

__all__ = ["read_scored", "summary_tables", "summary_footer", "paired_footer", "paired_shown",
           "check_resamples", "PAIRED_COLUMNS", "MAX_RESAMPLES"]

MAX_RESAMPLES = 1_000_000
"""The most bootstrap resamples summarize draws: each system keeps ``resamples`` means per rule
(8 bytes each; 8 measures and a sorted copy for the bounds: about 130 MB at this limit, 130 GB
at a billion), and the bounds' Monte Carlo error is then far below the three decimals shown."""
PAIRED_COLUMNS = ["rule", "a", "b", "items", "mean_a", "mean_b", "difference", "low", "high",
                  "share_le_zero", "unit", "a_only_correct", "b_only_correct", "mcnemar_p"]
"""The paired comparison's table: one row per rule."""


def read_scored(path, *, by: str = "system", rules=None) -> pd.DataFrame:
    """A scored file read and checked for the columns ``by`` and ``rules`` need (measure names
    of the rule registry, :func:`~recallscore_nb.analysis.rule_values.resolve_rules`; default all);
    see :func:`recallscore_nb.io.scored.reading.read_scored`.
    """
    columns = [c for rule in resolve_rules(rules) for c in measure(rule).inputs]
    return scored_reading.read_scored(path, by=by, columns=columns)


# --- the tables -----------------------------------------------------------------------------
def summary_tables(scored: pd.DataFrame, *, by: str = "system", rules=None, paired=None,
                   resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                   confidence: float = 0.95):
    """(system table, saturation table, paired table or None); see
    :mod:`recallscore_nb.analysis.system_tables` and
    :mod:`recallscore_nb.analysis.paired_comparison`.

    The paired table has one row per rule, columns :data:`PAIRED_COLUMNS` plus
    ``items_only_a, items_only_b, mcnemar_note``; its ``attrs["signatures"]`` lists the
    bootstrap signatures used (and McNemar's when a p-value was computed).
    """
    check_resamples(resamples)
    names = resolve_rules(rules)
    table = system_table(scored, by=by, rules=names, resamples=resamples, seed=seed,
                         confidence=confidence)
    verdicts = saturation(table, by=by)
    if paired is None:
        return table, verdicts, None
    a, b = paired
    rows = [paired_comparison(scored, a, b, by=by, rule=rule, resamples=resamples, seed=seed,
                              confidence=confidence) for rule in names]
    kept = ["items_only_a", "items_only_b", "attempts_a", "attempts_b", "mcnemar_note"]
    pairs = pd.DataFrame(rows)[PAIRED_COLUMNS + kept]
    pairs = pairs.astype({"a_only_correct": "Int64", "b_only_correct": "Int64",
                          "mcnemar_p": float})
    signatures = list(dict.fromkeys(row["signature"] for row in rows))
    if pairs["mcnemar_p"].notna().any():
        signatures.append(mcnemar_signature())
    pairs.attrs["signatures"] = signatures
    return table, verdicts, pairs


def _saturation_line(verdicts: pd.DataFrame) -> str:
    hits = verdicts[verdicts["saturated"]]
    if hits.empty:
        return "saturated rules (two best >= 0.95, intervals overlap): none"
    named = ", ".join(f"{r.rule} ({r.best} {r.best_mean:.3f}, {r.second} {r.second_mean:.3f})"
                      for r in hits.itertuples())
    return f"saturated rules (two best >= 0.95, intervals overlap): {named}"


def summary_footer(path: str, sha256: str, rows: int, table: pd.DataFrame, verdicts) -> list[str]:
    """The notes under the system table: the file and its hash, the bootstrap signature, the
    rows left out, the saturation verdicts."""
    lines = [f"scored: {path} ({rows} rows, sha256 {sha256[:12]})", table.attrs["signature"]]
    excluded = table.groupby("rule", sort=False)["excluded"].sum()
    lines += [f"{rule}: {int(n)} row(s) without a checklist left out" for rule, n in
              excluded.items() if n > 0]
    return lines + [_saturation_line(verdicts)]


def paired_footer(pairs: pd.DataFrame) -> list[str]:
    """The notes under the paired table: signatures, what the difference is, what was left out."""
    first = pairs.iloc[0]
    lines = list(pairs.attrs["signatures"])
    if first["unit"] == "attempt":  # one common item: the attempts are the unit, unpaired
        lines.append(f"difference = {first['a']} - {first['b']} over their attempts "
                     f"({int(first['attempts_a'])} and {int(first['attempts_b'])}) at the one "
                     "item both answered: the unit is the attempt, each system's attempts "
                     "resampled on their own; share_le_zero: share of resampled differences <= 0")
    else:
        lines.append(f"difference = {first['a']} - {first['b']} on the items both answered "
                     f"(the unit is the item: {int(first['items'])} items, paired); "
                     "share_le_zero: share of resampled differences <= 0")
    if (pairs["items_only_a"] > 0).any() or (pairs["items_only_b"] > 0).any():
        lines.append(f"items answered by one system only, left out: {first['a']} "
                     f"{int(pairs['items_only_a'].max())}, {first['b']} "
                     f"{int(pairs['items_only_b'].max())}")
    for note, group in pairs[pairs["mcnemar_note"] != ""].groupby("mcnemar_note", sort=False):
        lines.append(f"no McNemar test for {', '.join(group['rule'])}: {note}")
    return lines


def paired_shown(pairs: pd.DataFrame) -> pd.DataFrame:
    """The paired table for Markdown and LaTeX: p-values with three significant digits."""
    shown = pairs[PAIRED_COLUMNS].copy()
    shown["mcnemar_p"] = [("" if pd.isna(p) else format(p, ".3g")) for p in shown["mcnemar_p"]]
    for column in ("a_only_correct", "b_only_correct"):  # nullable counts: missing as empty
        shown[column] = [("" if pd.isna(n) else str(n)) for n in shown[column]]
    return shown


def check_resamples(resamples) -> None:
    """Refuse more than :data:`MAX_RESAMPLES` resamples before any is drawn.

    >>> check_resamples(10**9)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: 'resamples' must be at most 1,000,000 (got 1,000,000,000): each rule keeps every resample's mean in memory (8 GB per rule and system here), and the bounds stop moving long before the limit
    """
    if isinstance(resamples, int) and not isinstance(resamples, bool) \
            and resamples > MAX_RESAMPLES:
        raise UsageError(f"'resamples' must be at most {MAX_RESAMPLES:,} (got {resamples:,}): "
                         f"each rule keeps every resample's mean in memory "
                         f"({size_text(8 * resamples)} per rule and system here), and the bounds "
                         f"stop moving long before the limit")
