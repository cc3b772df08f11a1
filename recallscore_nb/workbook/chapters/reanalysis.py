"""Notebook 05: several systems' attempts reanalysed, with bootstrap intervals per rule.

Every attempt is scored by every rule; each system's mean score gets a percentile bootstrap
interval (resampling its attempts, see :mod:`recallscore_nb.analysis.stats`); a rule is *saturated*
when its two best systems both reach 0.95 and their intervals overlap. Two negative
controls are scored beside the systems: ``control:empty`` (the empty attempt) and
``control:idk`` ("I don't know"), each repeated as many times as the smallest real system
has attempts (a constant attempt's mean does not depend on the count; the count keeps the
tables comparable). Every rule must give them zero; a control scoring above zero is a
vacuous pass and stops the notebook with :class:`VacuousControlError`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analysis.stats import (
    SATURATION_THRESHOLD,
    bootstrap_signature,
    grouped_bootstrap_ci,
    saturated as _saturated,
)
from ...core.errors import AttemptsFormatError, VacuousControlError
from ...core import rules as registry
from ...core.rules import rules_for
from ...core.scoring import score_benchmark
from ...io.attempts import read_attempts
from ...io.data import DEFAULT_ATTEMPTS
from ...render import plots
from ..session import Session, start as _start

__all__ = ["STEM", "start", "attempts", "systems", "scores", "controls", "intervals",
           "saturation", "intervals_figure", "numbers", "vacuous_passes", "CONTROLS", "measures"]

STEM = "05_reanalysis"
SQUAD_MODE = "v1.1"
CONFIDENCE = 0.95
CONTROLS = {"control:empty": "", "control:idk": "I don't know"}
"""The negative controls: pseudo-system name -> the attempt it repeats."""


def measures() -> dict[str, str]:
    """The per-attempt scores averaged per system (column -> label): every measure of the
    rule registry, in output order, the derived ones (partial credit) included."""
    return {m.column: m.label for m in registry.measures()}


def start(namespace: dict) -> Session:
    """Validate the parameters and read the benchmark; the session signs its outputs with the
    rules and the bootstrap."""
    nb = _start(STEM, namespace)  # every *_path parameter names a file (made absolute)
    nb.sign(*(rule.signature() for rule in rules_for(SQUAD_MODE)),
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


def _with_controls(attempts: pd.DataFrame) -> pd.DataFrame:
    """The attempts, then each control repeated as often as the smallest system has attempts."""
    copies = int(attempts["system"].value_counts().min())
    controls = pd.DataFrame({
        "id": [f"{name}-{i:02d}" for name in CONTROLS for i in range(1, copies + 1)],
        "system": np.repeat(list(CONTROLS), copies),
        "attempt": np.repeat(list(CONTROLS.values()), copies),
    }).astype(attempts.dtypes.to_dict())
    return pd.concat([attempts, controls], ignore_index=True)


def _system_order(systems) -> list[str]:
    """Real systems in sorted order, then the controls."""
    real = sorted(s for s in set(systems) if s not in CONTROLS)
    return real + list(CONTROLS)


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
    (partial credit)."""
    scores = score_benchmark(nb.benchmark, _with_controls(attempts), squad_mode=SQUAD_MODE)
    return registry.with_derived(scores)


def controls(scores: pd.DataFrame) -> pd.DataFrame:
    """The negative controls' mean score under every rule; raises if any is above zero."""
    rows = scores[scores["system"].isin(list(CONTROLS))]
    table = (rows.groupby("system", sort=False)
             .agg(attempt=("attempt", "first"), attempts=("attempt", "size"),
                  **{m: (m, "mean") for m in measures()})
             .reset_index().rename(columns={"system": "control"}))
    failures = vacuous_passes(table)
    if failures:
        raise VacuousControlError(failures)
    return table


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
    return _saturated(intervals[~intervals["system"].isin(list(CONTROLS))], by="rule")


def intervals_figure(nb: Session, intervals: pd.DataFrame, saturation: pd.DataFrame):
    """One panel per rule: each system's mean with its 95% interval; saturated rules shaded,
    their titles red; a legend below the panels says what the markers and the shading mean."""
    flags = saturation.set_index("rule")["saturated"]
    return plots.intervals_figure(
        intervals, {str(rule): bool(flag) for rule, flag in flags.items()}, measures(),
        controls=list(CONTROLS), confidence=CONFIDENCE, threshold=SATURATION_THRESHOLD,
        resamples=nb.params.resamples, seed=nb.params.seed)


def numbers(nb: Session, systems: pd.DataFrame, saturation: pd.DataFrame) -> dict[str, object]:
    """The systems, their attempts, the resamples, and how many rules are saturated."""
    return {"ReanalysisSystems": len(systems),
            "ReanalysisAttempts": int(systems["attempts"].sum()),
            "ReanalysisResamples": nb.params.resamples,
            "ReanalysisSaturatedRules": int(saturation["saturated"].sum())}
