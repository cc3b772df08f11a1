"""Notebook 05: several systems' attempts reanalysed, with bootstrap intervals per rule.

Every attempt is scored by every rule; each system's mean score gets a percentile bootstrap
interval (resampling its attempts, see :mod:`recallscore_nb.analysis.stats`); a rule is *saturated*
when its two best systems both reach 0.95 and their intervals overlap. Two negative
controls are scored beside the systems: ``control:empty`` (the empty attempt) and
``control:idk`` ("I don't know"), each repeated as many times as the smallest real system
has attempts (a constant attempt's mean does not depend on the count; the count keeps the
tables comparable). Every rule must give them zero; a control scoring above zero is a
vacuous pass and stops the notebook with :class:`VacuousControlError`.

A third control, ``control:stuffing``, lists every required term, equivalent and
contradiction of every fact (:func:`recallscore_nb.analysis.perturb.stuffing_attempt`): the
oldest trick against keyword graders. The scoring schema's two measures (the schema-aware
checklist and the weighted score, :data:`SCHEMA_MEASURES`) must give it zero, as they must the
other controls (with a real schema; without one there is nothing to resist it with). The
published rules are not asked to: what they give it is a finding about those rules
(:func:`stuffing`), not a change to them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analysis.perturb import stuffing_attempt
from ...analysis.stats import (
    SATURATION_THRESHOLD,
    bootstrap_signature,
    grouped_bootstrap_ci,
    saturated as _saturated,
)
from ...core.errors import AttemptsFormatError, VacuousControlError
from ...core import rules as registry
from ...core.scoring import score_benchmark
from ...core.status import fact_status
from ...io.attempts import read_attempts
from ...io.data import DEFAULT_ATTEMPTS
from ...render import plots
from ..session import Session, start as _start

__all__ = ["STEM", "start", "attempts", "systems", "scores", "controls", "stuffing",
           "intervals", "saturation", "intervals_figure", "numbers", "vacuous_passes",
           "CONTROLS", "STUFFING", "SCHEMA_MEASURES", "measures"]

STEM = "05_reanalysis"
SQUAD_MODE = "v1.1"
CONFIDENCE = 0.95
CONTROLS = {"control:empty": "", "control:idk": "I don't know"}
"""The negative controls: pseudo-system name -> the attempt it repeats."""
STUFFING = "control:stuffing"
"""The stuffing control's pseudo-system name (its attempt depends on the benchmark and the
schema)."""
SCHEMA_MEASURES = {"schema_full_match": "schema-aware checklist",
                   "weighted_score": "weighted score"}
"""The scoring schema's measures (column -> label): every fact present under the schema, and
the weighted score."""


def measures() -> dict[str, str]:
    """The per-attempt scores averaged per system (column -> label): every measure of the
    rule registry, in output order, the derived ones (partial credit) included, then the
    scoring schema's (:data:`SCHEMA_MEASURES`)."""
    return {**{m.column: m.label for m in registry.measures()}, **SCHEMA_MEASURES}


def _controls(nb: Session) -> dict[str, str]:
    """Every control: pseudo-system name -> its attempt."""
    rules = nb.schema.facts
    text = stuffing_attempt(
        nb.benchmark.facts,
        {n: [list(t) for t in r.equivalents] for n, r in rules.items()},
        {n: [list(t) for t in r.contradictions] for n, r in rules.items()})
    return {**CONTROLS, STUFFING: text}


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark; the session signs its outputs with the
    rules and the bootstrap."""
    nb = _start(STEM, namespace)  # every *_path parameter names a file (made absolute)
    nb.sign_rules(SQUAD_MODE)
    nb.sign(nb.schema.signature(),
            bootstrap_signature(resamples=nb.params.resamples, seed=nb.params.seed,
                                confidence=CONFIDENCE))
    nb.benchmark  # read now: the session lists it before any output
    return nb


def attempts(nb: Session) -> pd.DataFrame:
    """The attempts file ``attempts_path`` names (recorded as an input): ``id, system,
    attempt``, every row with a system name of its own (``control:`` is reserved)."""
    path = nb.params.attempts_path or str(DEFAULT_ATTEMPTS)
    frame = read_attempts(str(nb.read_input(path)))
    if "system" not in frame.columns:
        raise AttemptsFormatError(path, "", "system", message="missing column 'system' "
                                  "(which system made each attempt)")
    if frame.empty:
        raise AttemptsFormatError(path, message="no attempts to reanalyse")
    missing = frame["system"].isna().to_numpy()
    reserved = ~missing & frame["system"].astype(str).str.startswith("control:").to_numpy()
    for bad, expected in ((missing, "a system name"),
                          (reserved, "a system name not starting with 'control:' "
                                     "(reserved for the negative controls)")):
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            got = "null" if missing[row] else repr(frame["system"].iloc[row])
            raise AttemptsFormatError(path, f"row {row}", "system", expected=expected,
                                      got=got, row_id=frame["id"].iloc[row])
    return frame[["id", "system", "attempt"]].astype({"system": frame["attempt"].dtype})


def _with_controls(attempts: pd.DataFrame, controls: dict[str, str]) -> pd.DataFrame:
    """The attempts, then each control repeated as often as the smallest system has attempts."""
    copies = int(attempts["system"].value_counts().min())
    frame = pd.DataFrame({
        "id": [f"{name}-{i:02d}" for name in controls for i in range(1, copies + 1)],
        "system": np.repeat(list(controls), copies),
        "attempt": np.repeat(list(controls.values()), copies),
    }).astype(attempts.dtypes.to_dict())
    return pd.concat([attempts, frame], ignore_index=True)


_ALL_CONTROLS = [*CONTROLS, STUFFING]


def _system_order(systems) -> list[str]:
    """Real systems in sorted order, then the controls."""
    real = sorted(s for s in set(systems) if s not in _ALL_CONTROLS)
    return real + _ALL_CONTROLS


def vacuous_passes(controls: pd.DataFrame) -> list[tuple[str, str, float]]:
    """``(control, rule, score)`` for every rule mean above zero in a controls table, worst first.

    >>> from recallscore_nb.core.rules import LiteralMatch, TokenF1
    >>> table = pd.DataFrame({"control": ["control:idk"], TokenF1.column: [0.25],
    ...                       LiteralMatch.column: [0.0]})
    >>> vacuous_passes(table) == [("control:idk", TokenF1.column, 0.25)]
    True
    """
    rules = [c for c in controls.columns if c in measures()]
    long = controls.melt(id_vars="control", value_vars=rules, var_name="rule", value_name="score")
    bad = long[long["score"] > 0].sort_values(["score", "control", "rule"],
                                              ascending=[False, True, True], kind="stable")
    rows = bad[["control", "rule", "score"]].itertuples(index=False)
    return [(control, rule, float(score)) for control, rule, score in rows]


# --- the steps ---------------------------------------------------------------------------
def systems(attempts: pd.DataFrame) -> pd.DataFrame:
    """The systems in the attempts file: how many attempts each made, how many distinct."""
    return (attempts.groupby("system", sort=True)["attempt"]
            .agg(attempts="size", distinct="nunique").reset_index())


def scores(nb: Session, attempts: pd.DataFrame) -> pd.DataFrame:
    """Every attempt, the controls' included, scored by every rule, with the derived measures
    (partial credit) and the scoring schema's two (:data:`SCHEMA_MEASURES`)."""
    scores = score_benchmark(nb.benchmark, _with_controls(attempts, _controls(nb)),
                             squad_mode=SQUAD_MODE)
    scores = registry.with_derived(scores)
    statuses = fact_status(scores["attempt"], nb.benchmark, nb.schema, basis=False)
    scores["schema_full_match"] = (
        (statuses.filter(like="status_") == "present").all(axis=1).to_numpy())
    scores["weighted_score"] = statuses["weighted_score"].to_numpy()
    return scores


def controls(nb: Session, scores: pd.DataFrame) -> pd.DataFrame:
    """The controls' mean score under every rule and schema measure; raises if the empty or
    "I don't know" control is above zero anywhere, or the stuffing control under a schema
    measure (with a real scoring schema)."""
    rows = scores[scores["system"].isin(_ALL_CONTROLS)]
    table = (rows.groupby("system", sort=False)
             .agg(attempt=("attempt", "first"), attempts=("attempt", "size"),
                  **{m: (m, "mean") for m in measures()})
             .reset_index().rename(columns={"system": "control"}))
    stuffed = table["control"] == STUFFING
    failures = vacuous_passes(table[~stuffed])
    if not nb.schema.is_default:
        failures += vacuous_passes(table.loc[stuffed, ["control", *SCHEMA_MEASURES]])
    if failures:
        raise VacuousControlError(failures)
    return table


def stuffing(controls: pd.DataFrame) -> pd.DataFrame:
    """The stuffing control under every measure: its score, whether the measure must give it
    zero (the schema's) and the finding: a published rule above zero passes a stuffed answer
    (a finding about that rule, not a change to it)."""
    row = controls.set_index("control").loc[STUFFING]
    records = []
    for column, label in measures().items():
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


def intervals(nb: Session, scores: pd.DataFrame) -> pd.DataFrame:
    """Each system's mean score under each rule, with its bootstrap interval."""
    table = grouped_bootstrap_ci(scores, by="system", columns=list(measures()),
                                 resamples=nb.params.resamples, seed=nb.params.seed,
                                 confidence=CONFIDENCE)
    table = table.rename(columns={"measure": "rule"})
    table["system"] = pd.Categorical(table["system"], _system_order(table["system"]))
    table["rule"] = pd.Categorical(table["rule"], list(measures()))
    table = table.sort_values(["rule", "system"], kind="stable").reset_index(drop=True)
    return table.astype({"system": str, "rule": str})


def saturation(intervals: pd.DataFrame) -> pd.DataFrame:
    """Per rule, the two best systems (controls excluded), their intervals, and the verdict."""
    return _saturated(intervals[~intervals["system"].isin(_ALL_CONTROLS)], by="rule")


def intervals_figure(nb: Session, intervals: pd.DataFrame, saturation: pd.DataFrame):
    """One panel per rule: each system's mean with its 95% interval; saturated rules shaded,
    their titles red; a legend below the panels says what the markers and the shading mean."""
    flags = saturation.set_index("rule")["saturated"]
    return plots.intervals_figure(
        intervals, {str(rule): bool(flag) for rule, flag in flags.items()}, measures(),
        controls=_ALL_CONTROLS, confidence=CONFIDENCE, threshold=SATURATION_THRESHOLD,
        resamples=nb.params.resamples, seed=nb.params.seed)


def numbers(nb: Session, systems: pd.DataFrame, saturation: pd.DataFrame,
            stuffing: pd.DataFrame) -> dict[str, object]:
    """The systems, their attempts, the resamples, how many rules are saturated, and how
    many published measures pass the stuffing control."""
    published = stuffing["must be 0"] != "yes"
    return {"ReanalysisSystems": len(systems),
            "ReanalysisAttempts": int(systems["attempts"].sum()),
            "ReanalysisResamples": nb.params.resamples,
            "ReanalysisSaturatedRules": int(saturation["saturated"].sum()),
            "ReanalysisStuffingPassedMeasures": int((stuffing["score"][published] > 0).sum())}
