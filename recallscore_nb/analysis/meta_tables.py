"""What notebook 08 shows of a meta-evaluation (:func:`~recallscore_nb.analysis.
meta_evaluation.meta_evaluate`): the annotators compared, the rules' measures and the judges
present with their labels, each system's accuracy as one wide table, the annotators'
agreement (empty when none were compared), and the disagreements counted by category, with
examples.

Pure: each function takes a :class:`~recallscore_nb.analysis.meta_evaluation.MetaEvaluation`
(or parameters) and returns a table or labels; :mod:`recallscore_nb.render.agreement_plots`
draws the figures from them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..core import rules as registry
from ..core.errors import UsageError
from .annotator_panel import PANEL_COLUMNS
from .meta_evaluation import CATEGORIES, MetaEvaluation

__all__ = ["DISAGREEMENT_CATEGORIES", "compared_annotators", "measures_present", "judges_of",
           "reference_judge_of", "ranking_labels", "accuracy_table", "ACCURACY_COLUMNS",
           "annotator_agreement", "like_with_like", "disagreement_counts",
           "disagreement_examples"]

DISAGREEMENT_CATEGORIES = CATEGORIES
"""The mechanical categories of a disagreement between a rule and the reference judge, in the
order the tables and figures list them."""


def compared_annotators(named: str, judges: Sequence[str], *,
                        reference_judge: str) -> list[str]:
    """The judges whose agreement with each other is measured: those ``named`` (comma-
    separated), or, when it is empty, every judge but the reference judge (none when fewer
    than two).

    >>> compared_annotators("", ["human", "a1", "a2"], reference_judge="human")
    ['a1', 'a2']
    >>> compared_annotators("", ["human", "a1"], reference_judge="human")
    []
    >>> compared_annotators("a1, human", ["human", "a1"], reference_judge="human")
    ['a1', 'human']
    """
    listed = [a.strip() for a in named.split(",") if a.strip()]
    if listed:
        return listed
    others = [j for j in judges if j != reference_judge]
    return others if len(others) >= 2 else []


def measures_present(evaluation: MetaEvaluation) -> dict[str, str]:
    """The rules' measures the evaluation compared (column -> label), in the registry's order."""
    present = set(evaluation.agreement["rule"])
    return {m.column: m.label for m in registry.measures() if m.column in present}


def judges_of(evaluation: MetaEvaluation) -> list[str]:
    """The judges the evaluation measured the systems by, in order of first appearance."""
    measures = measures_present(evaluation)
    return [m for m in dict.fromkeys(evaluation.systems["measure"]) if m not in measures]


def reference_judge_of(evaluation) -> str:
    """The judge the rules were compared with, as the evaluation's signature records it."""
    return evaluation.signature.split("|reference:")[1].split("|")[0]


def ranking_labels(evaluation: MetaEvaluation) -> dict[str, str]:
    """Each measure of the ranking (column -> short label), the rules' then the judges'."""
    measures = measures_present(evaluation)
    short = {m.column: m.short for m in registry.measures() if m.column in measures}
    return {**short, **{j: j for j in judges_of(evaluation)}}


def _sets(table: pd.DataFrame) -> list[str]:
    """``["set"]`` when the table stacks several sets, else nothing."""
    return ["set"] if "set" in table.columns else []


ACCURACY_COLUMNS = ("all", "rules", "judges")
"""What :func:`accuracy_table` may hold: every measure, the rules (and the reference judge,
to read them against), the judges."""


def accuracy_table(evaluation: MetaEvaluation, columns: str = "all") -> pd.DataFrame:
    """Each system's accuracy, wide: one row per system (per set), one column per measure
    (the mean), the rules' first, then the judges'; ``columns`` (:data:`ACCURACY_COLUMNS`)
    keeps the rules and the reference judge, or the judges only: a paper prints the two
    halves as two tables, each wide enough to read."""
    if columns not in ACCURACY_COLUMNS:
        raise UsageError(f"columns={columns!r}: one of {', '.join(ACCURACY_COLUMNS)}")
    systems = evaluation.systems
    index = [*_sets(systems), "system"]
    table = systems.pivot_table(index=index, columns="measure", values="mean", sort=False)
    rules, judges = list(measures_present(evaluation)), judges_of(evaluation)
    order = {"all": rules + judges, "rules": rules + [reference_judge_of(evaluation)],
             "judges": judges}[columns]
    return table[[c for c in order if c in table.columns]].rename_axis(
        columns=None).reset_index()


def annotator_agreement(evaluation: MetaEvaluation) -> pd.DataFrame:
    """The annotators' agreement with each other (empty when none were compared)."""
    if evaluation.annotators is None:
        return pd.DataFrame({"judges": [], "n": [], "alpha": [], "kappa": [],
                             "percent_agreement": []})
    return evaluation.annotators


def like_with_like(evaluation: MetaEvaluation) -> pd.DataFrame:
    """Each rule and judge beside the annotators (:mod:`~recallscore_nb.analysis.
    annotator_panel`; empty when no set compared two annotators)."""
    if evaluation.panel is None:
        return pd.DataFrame(columns=PANEL_COLUMNS)
    return evaluation.panel


def disagreement_counts(evaluation: MetaEvaluation) -> pd.DataFrame:
    """How many disagreements each rule has in each category (zeros included), per set."""
    rows = evaluation.disagreements
    sets = list(pd.unique(rows["set"])) if _sets(rows) else [None]
    parts = []
    for name in sets:
        mine = rows if name is None else rows[rows["set"] == name]
        counts = (mine.groupby(["rule", "category"]).size().unstack(fill_value=0)
                  .reindex(index=list(measures_present(evaluation)),
                           columns=list(DISAGREEMENT_CATEGORIES), fill_value=0)
                  .rename_axis(columns=None).reset_index())
        parts.append(counts if name is None else counts.assign(set=name))
    out = pd.concat(parts, ignore_index=True)
    return out[[*_sets(out), *[c for c in out.columns if c != "set"]]]


def disagreement_examples(evaluation: MetaEvaluation, *, rules: Sequence[str],
                          per_category: int = 2) -> pd.DataFrame:
    """Up to ``per_category`` disagreements of each category, from each of ``rules`` (in
    each set), sorted by set, rule and category."""
    rows = evaluation.disagreements
    rows = rows[rows["rule"].isin(list(rules))]
    keys = [*_sets(rows), "rule", "category"]
    return (rows.groupby(keys, sort=False).head(per_category)
            .sort_values(keys, kind="stable").reset_index(drop=True))
