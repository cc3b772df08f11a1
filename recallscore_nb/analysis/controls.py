"""Negative controls: pseudo-systems whose attempts state no fact, scored beside the systems.

``control:empty`` (the empty attempt) and ``control:idk`` ("I don't know") state no fact, so
every rule must give them zero. ``control:stuffing`` lists every required term, equivalent and
contradiction of every fact (:func:`recallscore_nb.analysis.perturb_facts.stuffing_attempt`), the
oldest trick against keyword graders: the scoring schema's measures must give it zero too (with
a real schema; without one there is nothing to resist it with), while what the published rules
give it is a finding about them (:func:`stuffing_findings`), not a change to them. A control
above zero where it must be zero is a vacuous pass: :func:`control_means` raises
:class:`~recallscore_nb.core.errors.VacuousControlError`.

Each control is repeated as many times as the smallest system has attempts: a constant
attempt's mean does not depend on the count; the count keeps the tables comparable.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import exact
from ..core.errors import VacuousControlError
from ..io.attempts.systems import CONTROL_PREFIX
from .perturb_facts import stuffing_attempt
from .schema_measures import SCHEMA_MEASURES, measures_with_schema

__all__ = ["CONTROLS", "STUFFING", "CONTROL_SYSTEMS", "control_attempts", "with_controls",
           "control_means", "vacuous_passes", "stuffing_findings", "without_controls"]

CONTROLS = {f"{CONTROL_PREFIX}empty": "", f"{CONTROL_PREFIX}idk": "I don't know"}
"""The negative controls that state no fact: pseudo-system name -> the attempt it repeats."""
STUFFING = f"{CONTROL_PREFIX}stuffing"
"""The stuffing control's pseudo-system name (its attempt depends on the benchmark and the
schema)."""
CONTROL_SYSTEMS = (*CONTROLS, STUFFING)
"""Every control's pseudo-system name, in the order the tables list them."""


def control_attempts(benchmark, schema) -> dict[str, str]:
    """Every control: pseudo-system name -> its attempt (the stuffing one built from the
    benchmark's facts and the schema's equivalents and contradictions)."""
    rules = schema.facts
    text = stuffing_attempt(
        benchmark.facts,
        {n: [list(t) for t in r.equivalents] for n, r in rules.items()},
        {n: [list(t) for t in r.contradictions] for n, r in rules.items()})
    return {**CONTROLS, STUFFING: text}


def with_controls(attempts: pd.DataFrame, controls: dict[str, str]) -> pd.DataFrame:
    """``id, system, attempt``, then each control repeated as often as the smallest system has
    attempts (ids ``<control>-01``, …)."""
    copies = int(attempts["system"].value_counts().min())
    frame = pd.DataFrame({
        "id": [f"{name}-{i:02d}" for name in controls for i in range(1, copies + 1)],
        "system": np.repeat(list(controls), copies),
        "attempt": np.repeat(list(controls.values()), copies),
    }).astype(attempts.dtypes.to_dict())
    return pd.concat([attempts, frame], ignore_index=True)


def vacuous_passes(controls: pd.DataFrame) -> list[tuple[str, str, float]]:
    """``(control, rule, score)`` for every rule mean above zero in a controls table, worst first.

    >>> from recallscore_nb.core.rules import LiteralMatch, TokenF1
    >>> table = pd.DataFrame({"control": ["control:idk"], TokenF1.column: [0.25],
    ...                       LiteralMatch.column: [0.0]})
    >>> vacuous_passes(table) == [("control:idk", TokenF1.column, 0.25)]
    True
    """
    rules = [c for c in controls.columns if c in measures_with_schema()]
    long = controls.melt(id_vars="control", value_vars=rules, var_name="rule", value_name="score")
    bad = long[long["score"] > 0].sort_values(["score", "control", "rule"],
                                              ascending=[False, True, True], kind="stable")
    rows = bad[["control", "rule", "score"]].itertuples(index=False)
    return [(control, rule, float(score)) for control, rule, score in rows]


def control_means(scores: pd.DataFrame, *, schema) -> pd.DataFrame:
    """The controls' mean score under every rule and schema measure (``control, attempt,
    attempts``, then a column per measure); raises if the empty or "I don't know" control is
    above zero anywhere, or the stuffing control under a schema measure (with a schema that is
    not the default one)."""
    rows = scores[scores["system"].isin(CONTROL_SYSTEMS)]
    table = (rows.groupby("system", sort=False)
             .agg(attempt=("attempt", "first"), attempts=("attempt", "size"))
             .reset_index().rename(columns={"system": "control"}))
    codes, _ = pd.factorize(rows["system"], sort=False)  # the groups' order, as above
    for m in measures_with_schema():  # exact means: a constant's mean is the constant
        values = rows[m].to_numpy(dtype=float, na_value=np.nan)
        given = ~np.isnan(values)
        counts = np.bincount(codes[given], minlength=len(table))
        table[m] = exact.group_sums(np.where(given, values, 0.0), codes, len(table)).ratio(
            counts[:, None])[:, 0]
    stuffed = table["control"] == STUFFING
    failures = vacuous_passes(table[~stuffed])
    if not schema.is_default:
        failures += vacuous_passes(table.loc[stuffed, ["control", *SCHEMA_MEASURES]])
    if failures:
        raise VacuousControlError(failures)
    return table


def stuffing_findings(controls: pd.DataFrame) -> pd.DataFrame:
    """The stuffing control under every measure: its score, whether the measure must give it
    zero (the schema's) and the finding: a published rule above zero passes a stuffed answer
    (a finding about that rule, not a change to it)."""
    row = controls.set_index("control").loc[STUFFING]
    records = []
    for column, label in measures_with_schema().items():
        score = float(row[column])
        schema = column in SCHEMA_MEASURES
        if score > 0:
            finding = ("credits an answer that lists every candidate" if not schema
                       else "credits an answer that lists every candidate: the schema does "
                            "not resist it")
        else:
            finding = "gives it 0"
        records.append({"measure": label, "score": score,
                        "must be 0": "yes" if schema else "no (published rule)",
                        "finding": finding})
    return pd.DataFrame(records, columns=["measure", "score", "must be 0", "finding"])


def without_controls(table: pd.DataFrame, *, system: str = "system") -> pd.DataFrame:
    """The rows of ``table`` whose ``system`` is no control (the real systems only).

    >>> table = pd.DataFrame({"system": ["a", "control:idk"], "mean": [0.5, 0.0]})
    >>> without_controls(table)["system"].tolist()
    ['a']
    """
    return table[~table[system].isin(CONTROL_SYSTEMS)]
