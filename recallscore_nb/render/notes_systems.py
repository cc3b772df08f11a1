"""What the results of notebooks 05 to 07 say (several systems, the suite catalogue, fact
statuses), one sentence each, composed from the tables; and what each of those notebooks
found, from the numbers it quotes. See :mod:`~recallscore_nb.render.notes`.

>>> import pandas as pd
>>> systems(pd.DataFrame({"system": ["a", "b"], "attempts": [3, 2], "distinct": [1, 2]}))
'2 systems made 5 attempts: a 3 (1 distinct) and b 2 (2 distinct).'
"""

from __future__ import annotations

import pandas as pd

from .notes_benchmark import listed, plural, shown

__all__ = ["systems", "scored", "controls", "stuffing", "intervals", "saturation", "source",
           "suites", "flags", "suite_flags", "fixes", "schema", "settings", "statuses", "counts",
           "explanations", "found_reanalysis", "found_catalogue", "found_fact_status"]

CONTROL_PREFIX = "control:"


def systems(frame: pd.DataFrame) -> str:
    """The systems, their attempts and how many differ."""
    each = [f"{r.system} {r.attempts} ({r.distinct} distinct)" for r in frame.itertuples(index=False)]
    return (f"{plural(len(frame), 'system')} made {int(frame['attempts'].sum())} attempts: "
            f"{listed(each)}.")


def scored(frame: pd.DataFrame) -> str:
    """How many rows were scored, the systems' and the controls'."""
    control = frame["system"].astype(str).str.startswith(CONTROL_PREFIX)
    return (f"{plural(len(frame), 'scored row')}: {int((~control).sum())} attempts of "
            f"{plural(frame.loc[~control, 'system'].nunique(), 'system')} and "
            f"{plural(int(control.sum()), 'control attempt')}.")


def controls(frame: pd.DataFrame) -> str:
    """Which controls score above zero, under which measures."""
    measures = [c for c in frame.columns if c not in ("control", "attempt", "attempts")]
    above = []
    for record in frame.itertuples(index=False):
        values = record._asdict()
        positive = [f"{m} {shown(values[m])}" for m in measures
                    if pd.notna(values[m]) and float(values[m]) > 0]
        if positive:
            above.append(f"{record.control} scores {listed(positive)}")
    zero = [r.control for r in frame.itertuples(index=False)
            if not any(a.startswith(r.control + " ") for a in above)]
    text = f"{listed(zero)} score 0 under every measure" if zero else "No control scores 0 everywhere"
    return text + (f"; {'; '.join(above)}." if above else ".")


def stuffing(frame: pd.DataFrame) -> str:
    """The measures the stuffing control passes, and those that give it zero."""
    score = pd.to_numeric(frame["score"], errors="coerce")
    passed = frame.loc[score > 0, "measure"].tolist()
    return (f"The stuffing control scores above 0 under {plural(len(passed), 'measure')} "
            f"({listed(passed)}) and 0 under the other {len(frame) - len(passed)}.")


def intervals(frame: pd.DataFrame) -> str:
    """The leading system under each measure, controls aside, and the widest interval."""
    systems_only = frame[~frame["system"].astype(str).str.startswith(CONTROL_PREFIX)]
    if systems_only.empty:
        return f"{plural(len(frame), 'interval')}, every one a control's."
    leaders = systems_only.loc[systems_only.groupby("rule", sort=False)["mean"].idxmax()]
    most = leaders["system"].value_counts()
    width = systems_only["high"] - systems_only["low"]
    widest = systems_only.loc[width.idxmax()]
    return (f"{plural(len(frame), 'interval')}; {most.index[0]} has the highest mean under "
            f"{most.iloc[0]} of {plural(len(leaders), 'measure')}, and the widest interval is "
            f"{widest.system}'s under {widest.rule} ({shown(widest.low)} to {shown(widest.high)}).")


def saturation(frame: pd.DataFrame) -> str:
    """The saturated rules: those whose two best systems cannot be told apart."""
    saturated = frame.loc[frame["saturated"] == True, "rule"].tolist()  # noqa: E712
    return (f"{len(saturated)} of {plural(len(frame), 'rule')} are saturated"
            + (f": {listed(saturated)}." if saturated else "."))


def source(frame: pd.DataFrame) -> str:
    """The catalogue read: its date, its suites and flags."""
    r = frame.iloc[0]
    return (f"The catalogue of {r.generated} lists {plural(int(r.suites), 'suite')}, "
            f"{r.flagged} of them flagged, with {r.cases} cases over {r.runs} runs.")


def suites(frame: pd.DataFrame) -> str:
    """The suites, the largest by cases."""
    cases = pd.to_numeric(frame["cases"], errors="coerce")
    largest = frame.loc[cases.idxmax()] if cases.notna().any() else None
    text = f"{plural(len(frame), 'suite')}"
    return text + (f"; the largest is {largest.id} with {int(largest.cases)} cases." if largest
                   is not None else ".")


def flags(frame: pd.DataFrame) -> str:
    """The flags by kind."""
    kinds = frame["flag"].value_counts(sort=False)
    return (f"{plural(len(frame), 'flag')} on {plural(frame['suite'].nunique(), 'suite')}: "
            f"{listed(f'{kind} {n}' for kind, n in kinds.items())}.")


def suite_flags(frame: pd.DataFrame) -> str:
    """The suites flagged, by kind of flag (a suite's ``flags``: ``kind …; kind …``)."""
    kinds = [item.split()[0] for text in frame["flags"].astype(str) for item in text.split("; ")
             if item.strip()]
    flagged = int((frame["flags"].astype(str).str.strip() != "").sum())
    counted = pd.Series(kinds, dtype=object).value_counts(sort=False)
    return (f"{flagged} of {plural(len(frame), 'suite')} carry a flag: "
            f"{listed(f'{kind} {n}' for kind, n in counted.items())}.")


def fixes(frame: pd.DataFrame) -> str:
    """The grader fixes, and the results they exclude."""
    if frame.empty:
        return "No grader-bug fix is dated."
    fixed = [f"{r.suite} on {r.fixed}" for r in frame.itertuples(index=False)]
    excluded = pd.to_numeric(frame["excluded"], errors="coerce").fillna(0).sum()
    tail = (f"{int(excluded)} results dated before a fix are excluded" if excluded
            else "no result is excluded")
    return f"{plural(len(frame), 'grader-bug fix')}: {listed(fixed)}; {tail}."


def schema(frame: pd.DataFrame) -> str:
    """The facts the schema weighs, with their weights."""
    weights = [f"{r.fact} {r.weight}" for r in frame.itertuples(index=False)]
    return f"{plural(len(frame), 'fact')}, weighted {listed(weights)}."


def settings(frame: pd.DataFrame) -> str:
    """How many settings the schema states."""
    named = [s for s in frame["setting"].astype(str).tolist() if s]
    return f"{plural(len(named), 'setting')} of the scoring schema: {listed(named)}."


def statuses(frame: pd.DataFrame) -> str:
    """How many variants have every fact present, and the range of weighted scores."""
    status = frame.filter(like="status_")
    full = int((status == "present").all(axis=1).sum())
    score = pd.to_numeric(frame["weighted_score"], errors="coerce")
    low = frame.loc[score.idxmin()]
    return (f"{full} of {plural(len(frame), 'variant')} have every fact present; weighted "
            f"scores range from {shown(score.min())} ({low.id}) to {shown(score.max())}.")


def counts(frame: pd.DataFrame) -> str:
    """Every status counted over every variant and fact."""
    total = frame[frame["fact"] == "total"]
    row = (total.iloc[0] if len(total) else frame.drop(columns="fact").sum()).drop("fact", errors="ignore")
    return f"Over every variant and fact: {listed(f'{n} {status}' for status, n in row.items())}."


def explanations(frame: pd.DataFrame) -> str:
    """The statuses other than present, each explained by the words that decided it."""
    named = [f"{r.id} {r.fact} {r.status}" for r in frame.itertuples(index=False)]
    return (f"{plural(len(frame), 'fact status')} other than present, each with the words that "
            f"decided it: {listed(named)}.")


# --- what each notebook found, from its quoted numbers ----------------------------------------
def found_reanalysis(numbers: dict) -> list[str]:
    return [f"{numbers['ReanalysisSystems']} systems, {numbers['ReanalysisAttempts']} attempts, "
            f"intervals from {numbers['ReanalysisResamples']} resamples.",
            f"{numbers['ReanalysisSaturatedRules']} rules cannot tell the two best systems apart.",
            f"{numbers['ReanalysisStuffingPassedMeasures']} published measures pass the stuffing "
            "control."]


def found_catalogue(numbers: dict) -> list[str]:
    return [f"{numbers['CatalogueFlagged']} of {numbers['CatalogueSuites']} suites carry a flag "
            f"(catalogue of {numbers['CatalogueGenerated']})."]


def found_fact_status(numbers: dict) -> list[str]:
    kinds = [kind for kind in ("Present", "Missing", "Contradicted", "Negated", "Conflicting")
             if "FactStatus" + kind in numbers]
    counted = listed(f"{numbers['FactStatus' + kind]} {kind.lower()}" for kind in kinds)
    return [f"Fact statuses over every variant and fact: {counted}.",
            f"{numbers.get('FactStatusAllPresent', 'n/a')} of "
            f"{numbers.get('FactStatusVariantCount', 'n/a')} variants have every fact present; "
            f"the mean weighted score is {numbers.get('FactStatusMeanWeightedScore', 'n/a')}."]
