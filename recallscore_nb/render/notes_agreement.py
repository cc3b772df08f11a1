"""What the results of notebook 08 (rules against human judges) say, one sentence each,
composed from its tables, one clause per judged set; and what it found, from the numbers it
quotes. See :mod:`~recallscore_nb.render.notes`. The reference judge is ``human`` when the
tables have it (every shipped set does), else the first judge listed.

>>> import pandas as pd
>>> agreement(pd.DataFrame({"set": ["s", "s"], "rule": ["contains", "equivalent"],
...                         "judge": ["human", "human"], "accuracy": [0.8, 0.9],
...                         "kappa": [0.6, 0.75]}))
'Closest to human, by kappa: s equivalent (accuracy 0.900, kappa 0.750).'
"""

from __future__ import annotations

import re

import pandas as pd

from ..core.exact import exact_mean
from ..core.rules import Equivalent
from .notes_benchmark import listed, plural, shown

__all__ = ["systems", "accuracy", "accuracy_judges", "agreement", "ranking", "ranks",
           "annotators", "like_with_like", "step_ablation", "guards_left_out", "gaming",
           "gaming_examples", "categories", "examples", "found_human_agreement"]

REFERENCE = "human"


def _sets(frame: pd.DataFrame):
    if "set" not in frame.columns:
        return [("", frame)]
    return [(name, frame[frame["set"] == name]) for name in pd.unique(frame["set"])]


def _reference(judges) -> str:
    judges = list(judges)
    return REFERENCE if REFERENCE in judges or not judges else judges[0]


def systems(frame: pd.DataFrame) -> str:
    """Per set, the systems and the best of them under the reference judge."""
    parts = []
    for name, table in _sets(frame):
        rules = set(table["measure"]) - {REFERENCE}
        judge = REFERENCE if REFERENCE in set(table["measure"]) else sorted(rules)[0]
        mine = table[table["measure"] == judge]
        best = mine.sort_values("mean", ascending=False, kind="stable").iloc[0]
        parts.append(f"{name} {plural(table['system'].nunique(), 'system')}, best under "
                     f"{judge} {best['system']} ({shown(best['mean'])})")
    return f"Each system's accuracy, with its interval: {listed(parts)}."


def accuracy(frame: pd.DataFrame) -> str:
    """Per set, the rule whose accuracies are closest to the reference judge's."""
    parts = []
    for name, table in _sets(frame):
        if REFERENCE not in table.columns:
            continue
        rules = [c for c in table.columns if c not in ("set", "system", REFERENCE)
                 and table[c].notna().all()]
        gaps = {r: exact_mean((table[r] - table[REFERENCE]).abs().dropna()) for r in rules}
        if not gaps:
            continue
        rule = min(gaps, key=gaps.get)
        parts.append(f"{name} {rule} (mean gap {shown(gaps[rule])})")
    return f"The measure closest to {REFERENCE}'s accuracies, system by system: {listed(parts)}."


def accuracy_judges(frame: pd.DataFrame) -> str:
    """Per set that has judges besides the reference judge, the one whose accuracies are
    closest to it."""
    judges = [c for c in frame.columns if c not in ("set", "system")]
    if REFERENCE not in judges or len(judges) < 2:
        return f"The judges' accuracies, system by system: {listed(judges)}."
    return accuracy(frame).replace("The measure closest", "The judge closest")


def agreement(frame: pd.DataFrame) -> str:
    """Per set, the rule with the highest kappa against the reference judge."""
    parts = []
    for name, table in _sets(frame):
        judge = _reference(pd.unique(table["judge"]))
        mine = table[table["judge"] == judge]
        mine = mine.sort_values("kappa", ascending=False, kind="stable").iloc[0]
        parts.append(f"{name} {mine['rule']} (accuracy {shown(mine['accuracy'])}, kappa "
                     f"{shown(mine['kappa'])})".strip())
    return f"Closest to {REFERENCE}, by kappa: {listed(parts)}."


def ranking(frame: pd.DataFrame) -> str:
    """Per set, the measures that rank the systems as the reference judge does."""
    parts = []
    for name, table in _sets(frame):
        rules = table[table["measure"] != REFERENCE]
        same = rules.loc[rules["discordant"] == 0, "measure"].tolist()
        parts.append(f"{name} {listed(same) if same else 'none'}")
    return f"Ranking the systems exactly as {REFERENCE} does (no pair the other way): " \
           f"{listed(parts)}."


def ranks(frame: pd.DataFrame) -> str:
    """How many ranks are shared by tied systems."""
    tied = frame[frame["tied"]]
    keys = [k for k in ("set", "measure", "rank") if k in tied.columns]
    return (f"{plural(len(tied.groupby(keys)), 'tie')} among the systems' ranks "
            f"({len(tied)} ranks shared); a tie shares the best rank of its systems.")


def annotators(frame: pd.DataFrame) -> str:
    """The annotators' alpha in each set that has two or more."""
    if frame.empty:
        return "No set has two annotators to compare with each other."
    rows = frame[frame["kappa"].isna()]
    parts = [f"{r['set'] + ' ' if 'set' in rows else ''}{r['judges']} alpha {shown(r['alpha'])}"
             for _, r in rows.iterrows()]
    return f"The annotators together (Krippendorff's alpha): {listed(parts)}."


def like_with_like(frame: pd.DataFrame) -> str:
    """Per set, the annotators' ceiling beside the closest rule and judge."""
    if frame.empty:
        return "No set has two annotators: no ceiling to put the rules beside."
    parts = []
    for name, table in _sets(frame):
        column = "kappa_majority_of_others"
        ceiling = exact_mean(table.loc[table["kind"] == "annotator", column].dropna())
        best = {kind: table[table["kind"] == kind].sort_values(column, kind="stable").iloc[-1]
                for kind in ("rule", "judge") if (table["kind"] == kind).any()}
        closest = [f"{kind} {row['rater']} {shown(row[column])}" for kind, row in best.items()]
        parts.append(f"{name} ceiling {shown(ceiling)}, closest {listed(closest)}")
    return f"Against the other annotators' majority: {listed(parts)}."


def step_ablation(frame: pd.DataFrame) -> str:
    """Per set, the step of the equivalent rule that fixes most verdicts, net."""
    parts = []
    for name, table in _sets(frame):
        steps = table[table["kind"] == "step"].sort_values("net", ascending=False, kind="stable")
        top = steps.iloc[0]
        parts.append(f"{name} {top['element']} (fixes {int(top['fixed'])}, breaks "
                     f"{int(top['broken'])})")
    return f"The step that matters most to people's verdicts: {listed(parts)}."


def guards_left_out(frame: pd.DataFrame) -> str:
    """What each guard left out would do on the development set."""
    if frame.empty:
        return "No guard is off by default, or no development set was evaluated."
    parts = [f"{r['element']} would fix {int(r['fixed'])} and break {int(r['broken'])} "
             f"verdicts on {r['set']}" for _, r in frame.iterrows()]
    return f"Left out, each costing more than it saves: {listed(parts)}."


def _equivalent_rows(frame: pd.DataFrame):
    """(set, the equivalent rule's rows) of each set that has any."""
    for name, table in _sets(frame):
        rows = table[table["rule"] == Equivalent.column]
        if not rows.empty:
            yield name, rows


def gaming(frame: pd.DataFrame) -> str:
    """Per set, how many gaming families the equivalent rule accepts more than 1 % of, and
    the one it accepts most.

    >>> gaming(pd.DataFrame({"set": ["s", "s"], "rule": ["equivalent"] * 2,
    ...                      "family": ["list", "refusal"], "share": [0.5, 0.0]}))
    'Gaming families the equivalent rule accepts above 1 %: s 1 of 2, most list (50.0 %).'
    """
    parts = []
    for name, rows in _equivalent_rows(frame):
        top = rows.sort_values("share", ascending=False, kind="stable").iloc[0]
        above = int((rows["share"] > 0.01).sum())
        parts.append(f"{name} {above} of {len(rows)}, most {top['family']} "
                     f"({top['share'] * 100:.1f} %)")
    return f"Gaming families the equivalent rule accepts above 1 %: {listed(parts)}."


def gaming_examples(frame: pd.DataFrame) -> str:
    """How many gaming answers are shown, and how many of them were accepted."""
    return (f"{plural(len(frame), 'gaming answer')} shown, "
            f"{int(frame['accepted'].sum())} of them accepted.")


def categories(frame: pd.DataFrame) -> str:
    """Per set, the equivalent rule's disagreements and their largest category."""
    parts = []
    for name, row in _equivalent_rows(frame):
        counts = row.drop(columns=[c for c in ("set", "rule") if c in row.columns]).iloc[0]
        parts.append(f"{name} {int(counts.sum())}, most {counts.idxmax()} "
                     f"({int(counts.max())})")
    return f"The equivalent rule's disagreements with the reference judge: {listed(parts)}."


def examples(frame: pd.DataFrame) -> str:
    """How many examples are shown."""
    return (f"{plural(len(frame), 'example')} of disagreement, from "
            f"{listed(pd.unique(frame['rule']))}.")


def found_human_agreement(numbers: dict) -> list[str]:
    """Per set, the equivalent rule against contains, as the paper quotes them."""
    tags = [m.group(1) for key in numbers
            if (m := re.fullmatch(r"Agree(\w*?)AccuracyEquivalent", key))]
    lines = []
    for tag in tags:
        def get(what: str, rule: str = "") -> str:
            return str(numbers.get(f"Agree{tag}{what}{rule}", "n/a"))
        lines.append(f"{tag or 'The set'}: equivalent accuracy {get('Accuracy', 'Equivalent')}, "
                     f"kappa {get('Kappa', 'Equivalent')} (contains "
                     f"{get('Accuracy', 'Contains')}, {get('Kappa', 'Contains')}), over "
                     f"{get('JudgedAttempts')} judged attempts.")
    return lines
