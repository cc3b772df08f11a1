"""What the results of notebooks 01 to 04 say (the shipped benchmark under every rule), one
sentence each, composed from the tables; and what each of those notebooks found, from the
numbers it quotes. See :mod:`~recallscore_nb.render.notes`.

>>> import pandas as pd
>>> frame = pd.DataFrame({"id": ["R1", "R9"], Checklist.present: [4, 3], Checklist.total: [4, 4],
...                       "missing": ["", "material"]})
>>> facts(frame)
'1 of 2 variants state every fact; R9 (material) misses some.'
"""

from __future__ import annotations

import pandas as pd

from ..core.exact import exact_mean
from ..core import rules as registry
from ..core.rules import Checklist, NormalizedMatch

__all__ = ["passes", "labels", "summary", "by_label", "facts", "pipelines", "verdicts",
           "changed_cells", "flips", "verb", "complete", "agreement", "precision_recall",
           "disagreements", "found_reproduction", "found_rule_figures", "found_ablation",
           "found_agreement", "plural", "listed", "shown"]

SCHEMA_VERDICT = "schema_full_match"
"""The scoring schema's verdict column (the schema-aware checklist)."""


def plural(n: int, noun: str) -> str:
    """``1 variant``, ``2 variants``.

    >>> plural(1, "row"), plural(0, "row")
    ('1 row', '0 rows')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def verb(n: int, singular: str, many: str) -> str:
    """The verb that agrees with a count: ``verb(1, "is", "are")`` is ``is``."""
    return singular if n == 1 else many


def listed(items) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``;`` between items holding commas); ``none``.

    >>> listed(["a", "b", "c"]), listed(["x, y", "z"]), listed([])
    ('a, b and c', 'x, y; and z', 'none')
    """
    items = [str(i) for i in items]
    if len(items) < 2:
        return items[0] if items else "none"
    between = "; " if any("," in item for item in items) else ", "
    return between.join(items[:-1]) + (";" if between == "; " else "") + " and " + items[-1]


def shown(value) -> str:
    """A number as the tables show it: three decimals."""
    return f"{float(value):.3f}"


def _passing(frame: pd.DataFrame, column: str) -> int:
    return int((frame[column] == True).sum())  # noqa: E712 (a missing verdict is not a pass)


def passes(frame: pd.DataFrame) -> str:
    """How many variants each binary rule passes."""
    rules = [m.column for m in registry.binary_measures() if m.column in frame.columns]
    counts = [f"{rule} passes {_passing(frame, rule)}" if i == 0 else f"{rule} {_passing(frame, rule)}"
              for i, rule in enumerate(rules)]
    return f"Of {plural(len(frame), 'variant')}, {listed(counts)}."


def labels(frame: pd.DataFrame) -> str:
    """How many rows agree with their published labels, and which do not."""
    agree = frame["agrees"] == True  # noqa: E712 (None: no published label to check)
    unchecked = int(frame["agrees"].isna().sum())
    text = f"{int(agree.sum())} of {plural(len(frame), 'row')} agree with their published labels"
    wrong = frame.loc[frame["agrees"] == False, "id"].tolist()  # noqa: E712
    if wrong:
        text += f"; {listed(wrong)} {verb(len(wrong), 'disagrees', 'disagree')}"
    if unchecked:
        text += f"; {plural(unchecked, 'row')} {verb(unchecked, 'carries', 'carry')} no published label"
    return text + "."


def summary(frame: pd.DataFrame) -> str:
    """Whether every published count is recomputed exactly."""
    compared = frame[frame["published"].notna()]
    differ = compared[compared["published"].astype(str) != compared["recomputed"].astype(str)]
    if differ.empty:
        return (f"Every published count is recomputed exactly ({len(compared)} of "
                f"{plural(len(frame), 'field')}).")
    found = [f"{r.field} (published {r.published}, recomputed {r.recomputed})"
             for r in differ.itertuples(index=False)]
    verb = "differs" if len(differ) == 1 else "differ"
    return f"{plural(len(differ), 'published count')} {verb}: {listed(found)}."


def by_label(frame: pd.DataFrame) -> str:
    """What each rule passes among the facts-complete variants and the incomplete ones."""
    complete = int(frame["complete_total"].max()) if len(frame) else 0
    incomplete = int(frame["incomplete_total"].max()) if len(frame) else 0
    passing = [f"{r.rule} {r.complete_pass}" for r in frame.itertuples(index=False)]
    wrong = [f"{r.rule} {r.incomplete_pass}" for r in frame.itertuples(index=False)
             if r.incomplete_pass]
    tail = (f"no rule passes any of the {incomplete} incomplete ones" if not wrong
            else f"of the {incomplete} incomplete ones, {listed(wrong)}")
    return f"Of {plural(complete, 'facts-complete variant')}, {listed(passing)} pass; {tail}."


def facts(frame: pd.DataFrame) -> str:
    """How many variants state every fact, and which fact each other one misses."""
    full = frame[Checklist.present] == frame[Checklist.total]
    short = [f"{r.id} ({r.missing})" for r in frame[~full].itertuples(index=False)]
    return (f"{int(full.sum())} of {plural(len(frame), 'variant')} state every fact"
            + (f"; {listed(short)} {verb(len(short), 'misses', 'miss')} some." if short else "."))


def pipelines(frame: pd.DataFrame) -> str:
    """The pipelines compared, each a step changed from the published one."""
    others = frame["pipeline"].tolist()[1:]
    return (f"{plural(len(frame), 'pipeline')}: {frame['pipeline'].iloc[0]}, the published one, "
            f"and {len(others)} that change one step each ({listed(others)}).")


def verdicts(frame: pd.DataFrame) -> str:
    """The range of passes of each verdict over the pipelines."""
    parts = []
    for column in (NormalizedMatch.column, Checklist.column, SCHEMA_VERDICT):
        if column in frame.columns:
            counts = (frame[column] == True).groupby(frame["pipeline"], sort=False).sum()  # noqa: E712
            parts.append(f"{column} from {counts.min()} to {counts.max()}")
    return f"Over {plural(frame['pipeline'].nunique(), 'pipeline')}, the passes range: {listed(parts)}."


def changed_cells(frame: pd.DataFrame) -> str:
    """How many verdicts (marked ``*``) differ from the published pipeline's."""
    cells = frame.drop(columns=["rule", "id", "condition"], errors="ignore")
    changed = int(cells.map(lambda v: str(v).endswith("*")).to_numpy().sum())
    return f"{plural(changed, 'verdict')} (marked *) differ from the published pipeline's."


def flips(frame: pd.DataFrame) -> str:
    """Which pipelines flip which verdicts, and how many."""
    flipping = frame[frame["flips"] > 0]
    if flipping.empty:
        return "No pipeline flips any verdict of the published one."
    named = [f"{r.pipeline} flips {plural(int(r.flips), r.rule + ' verdict')}"
             for r in flipping.itertuples(index=False)]
    n = flipping["pipeline"].nunique()
    return (f"{plural(n, 'pipeline')} {verb(n, 'changes', 'change')} the published verdicts: "
            f"{listed(named)}.")


def _partial_credit() -> str:
    return next(m.column for m in registry.measures() if m.tag == "PartialCredit")


def complete(frame: pd.DataFrame) -> str:
    """How many variants are facts-complete, and their mean partial credit."""
    full = int((frame["facts_complete"] == True).sum())  # noqa: E712
    return (f"{full} of {plural(len(frame), 'variant')} are facts-complete; the mean partial "
            f"credit is {shown(exact_mean(frame[_partial_credit()].dropna()))}.")


def agreement(frame: pd.DataFrame) -> str:
    """The least and the most agreeing pairs of rules, by Cohen's kappa."""
    rated = frame[pd.to_numeric(frame["kappa"], errors="coerce").notna()]
    if rated.empty:
        return f"{plural(len(frame), 'pair')} of rules; no kappa is defined."
    kappa = pd.to_numeric(rated["kappa"])
    low, high = rated.loc[kappa.idxmin()], rated.loc[kappa.idxmax()]
    return (f"Over {plural(len(frame), 'pair')} of rules, Cohen's kappa ranges from "
            f"{shown(low.kappa)} ({low.rule_a} and {low.rule_b}) to {shown(high.kappa)} "
            f"({high.rule_a} and {high.rule_b}).")


def precision_recall(frame: pd.DataFrame) -> str:
    """Each binary rule's precision and recall against the facts-complete label, at a glance."""
    binary = frame[frame["kind"] == "binary"]
    recall = pd.to_numeric(binary["recall"], errors="coerce")
    precision = pd.to_numeric(binary["precision"], errors="coerce")
    if recall.isna().all():
        return "No labelled row: precision and recall are undefined."
    low, high = binary.loc[recall.idxmin()], binary.loc[recall.idxmax()]
    return (f"Precision of the binary rules ranges from {shown(precision.min())} to "
            f"{shown(precision.max())}; recall from {shown(low.recall)} ({low.rule}) to "
            f"{shown(high.recall)} ({high.rule}).")


def disagreements(frame: pd.DataFrame) -> str:
    """The variants the rules disagree on."""
    if frame.empty:
        return "The rules agree on every variant."
    rows = [f"{r.id} ({r.condition})" for r in frame.itertuples(index=False)]
    return f"The rules disagree on {plural(len(frame), 'variant')}: {listed(rows)}."


# --- what each notebook found, from its quoted numbers ----------------------------------------
def found_reproduction(numbers: dict) -> list[str]:
    return [f"{numbers['RowsAgreeing']} of {numbers['VariantCount']} rows reproduce their "
            "published labels.",
            f"Full matches recomputed: literal {numbers.get('LiteralFullMatches', 'n/a')}, "
            f"normalized {numbers.get('NormalizedFullMatches', 'n/a')}, checklist "
            f"{numbers.get('ChecklistFullMatches', 'n/a')}."]


def _tagged(numbers: dict, prefix: str) -> list[tuple[str, str]]:
    return [(name[len(prefix):], value) for name, value in numbers.items()
            if name.startswith(prefix)]


def found_rule_figures(numbers: dict) -> list[str]:
    complete = _tagged(numbers, "FigureCompletePass")
    incomplete = sum(float(v) for _, v in _tagged(numbers, "FigureIncompletePass"))
    return [f"Facts-complete variants passed: {listed(f'{t} {v}' for t, v in complete)}.",
            f"Incomplete variants passed, over every rule: {incomplete:g}."]


def found_ablation(numbers: dict) -> list[str]:
    flips = [(name, float(value)) for name, value in numbers.items()
             if "FlipsSeed" in name and float(value) > 0]
    named = [f"{name.removeprefix('Ablation')} {value:g}" for name, value in flips]
    return [f"{numbers.get('AblationPipelinesFlipping', 0)} pipelines change a verdict of the "
            "published one.", f"Flips: {listed(named)}."]


def found_agreement(numbers: dict) -> list[str]:
    recall = _tagged(numbers, "AgreementRecall")
    return [f"The rules disagree on {numbers.get('AgreementDisagreeingRows', 'n/a')} rows.",
            f"Recall against the facts-complete label: {listed(f'{t} {v}' for t, v in recall)}."]
