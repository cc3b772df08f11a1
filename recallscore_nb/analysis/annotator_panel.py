"""Rules and judges beside the annotators, like with like: each rater against each annotator,
and against the majority of the annotators *other than* one, as each annotator is.

A rule compared with the majority of all annotators meets a majority that includes every
annotator it is compared with, which no annotator ever does: its agreement then looks higher
than any annotator's. Here an annotator ``a`` is compared with the majority of the others
(``A - a``), and a rule or judge with the same majorities, one per annotator left out, their
kappas averaged: both sides face the same targets. That majority is the verdict more than
half of the others' verdicts give (at least one; a tie gives none, and the row is not
counted).

:func:`panel_tables` gives two tables over the attempts (each judged attempt a unit):
``panel_pairs`` (``rater, kind, against, n, accuracy, kappa``: every pair compared) and
``panel`` (one row per rater: ``kind``, the mean kappa with single annotators, the mean kappa
with the leave-one-out majorities, and Krippendorff's alpha (nominal, the ``krippendorff``
package) of the annotators with the rater among them; the annotators' own row gives the
annotators' alpha).

>>> judges = pd.DataFrame({"a1": [True, True, False, False], "a2": [True, False, False, False],
...                        "a3": [True, True, False, True]}, dtype="boolean")
>>> panel, _ = panel_tables(judges, {"rule": np.array([True, True, False, False])},
...                         ["a1", "a2", "a3"])
>>> panel[["rater", "kind", "kappa_annotators"]].round(3).values.tolist()
[['a1', 'annotator', 0.5], ['a2', 'annotator', 0.35], ['a3', 'annotator', 0.35], ['rule', 'rule', 0.667]]
"""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pandas as pd

from .agreement import cohen_kappa

__all__ = ["PANEL_COLUMNS", "PAIR_COLUMNS", "majority", "panel_tables"]

PANEL_COLUMNS = ["rater", "kind", "n", "kappa_annotators", "kappa_majority_of_others",
                 "alpha_with_annotators"]
PAIR_COLUMNS = ["rater", "kind", "against", "n", "accuracy", "kappa"]


def majority(verdicts: pd.DataFrame) -> pd.Series:
    """Per row: the verdict more than half of the given verdicts give (NA: a tie, or none).

    >>> majority(pd.DataFrame({"a": [True, True, None], "b": [False, True, None]},
    ...                       dtype="boolean")).tolist()
    [<NA>, True, <NA>]
    """
    yes = verdicts.fillna(False).astype(bool).sum(axis=1).to_numpy()
    given = verdicts.notna().sum(axis=1).to_numpy()
    out = pd.Series(pd.NA, index=verdicts.index, dtype="boolean")
    out[2 * yes > given] = True
    out[(2 * (given - yes) > given)] = False
    return out


def _compare(rater: np.ndarray, rated: np.ndarray, truth: pd.Series) -> dict:
    """n, accuracy and kappa of a rater (bool values, ``rated``: where it gave one) against
    a nullable boolean ``truth``, over the rows both have."""
    rows = rated & truth.notna().to_numpy()
    r, t = rater[rows], truth.fillna(False).to_numpy(dtype=bool)[rows]
    return {"n": int(rows.sum()), "accuracy": float((r == t).mean()) if rows.any() else math.nan,
            "kappa": cohen_kappa(r, t)}


def _alpha(columns: list[pd.Series]) -> float:
    data = np.stack([c.astype("Float64").to_numpy(dtype=float, na_value=np.nan)
                     for c in columns])
    data = data[:, (~np.isnan(data)).sum(axis=0) >= 2]
    if data.shape[1] == 0 or len(np.unique(data[~np.isnan(data)])) < 2:
        return math.nan
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def panel_tables(judges: pd.DataFrame, rules: dict[str, np.ndarray], annotators,
                 others=()) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(``panel``, ``panel_pairs``) of the ``annotators`` (columns of ``judges``: nullable
    booleans per attempt), every rule (``rules``: name -> verdicts on every attempt) and the
    judges named in ``others``; both empty with fewer than two annotators."""
    annotators = list(annotators)
    if len(annotators) < 2:
        return pd.DataFrame(columns=PANEL_COLUMNS), pd.DataFrame(columns=PAIR_COLUMNS)
    raters = [(a, "annotator", judges[a]) for a in annotators]
    raters += [(name, "rule", pd.Series(v, index=judges.index, dtype="boolean"))
               for name, v in rules.items()]
    raters += [(j, "judge", judges[j]) for j in others if j not in annotators]
    leave_out = {a: majority(judges[[b for b in annotators if b != a]]) for a in annotators}
    pairs, summary = [], []
    for name, kind, verdicts in raters:
        values = verdicts.fillna(False).to_numpy(dtype=bool)
        rated = verdicts.notna().to_numpy()
        single = [a for a in annotators if a != name]
        loo = [name] if kind == "annotator" else annotators
        rows = [{"against": a, **_compare(values, rated, judges[a])} for a in single]
        rows += [{"against": f"majority without {a}", **_compare(values, rated, leave_out[a])}
                 for a in loo]
        pairs += [{"rater": name, "kind": kind, **row} for row in rows]
        own = [judges[a] for a in annotators] + ([] if kind == "annotator" else [verdicts])
        summary.append({
            "rater": name, "kind": kind, "n": int(rated.sum()),
            "kappa_annotators": float(np.nanmean([r["kappa"] for r in rows[:len(single)]])),
            "kappa_majority_of_others": float(np.nanmean([r["kappa"]
                                                          for r in rows[len(single):]])),
            "alpha_with_annotators": _alpha(own)})
    return pd.DataFrame(summary, columns=PANEL_COLUMNS), pd.DataFrame(pairs, columns=PAIR_COLUMNS)
