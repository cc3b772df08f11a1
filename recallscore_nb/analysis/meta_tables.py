"""What notebook 08 shows of a meta-evaluation (:func:`~recallscore_nb.analysis.
meta_evaluation.meta_evaluate`): the annotators compared, the rules' measures and the judges
present with their labels, each system's accuracy as one wide table, the annotators'
agreement (empty when none were compared), and the disagreements counted by category, with
examples.

Pure: each function takes a :class:`~recallscore_nb.analysis.meta_evaluation.MetaEvaluation`
(or parameters) and returns a table or labels; :mod:`recallscore_nb.render.agreement_plots`
draws the figures from them.

:data:`META_TABLES` registers the tables notebook 08 saves from its evaluation, each by the
name it is saved under, with the options its cell gives and, for a new one, the sentence shown
under it; ``rs.meta_table(name, evaluation)`` builds one. A new table is one function and its
:func:`register_meta_table` call, here, and one cell of the notebook.

>>> from recallscore_nb.io.human_sets import read_judged_sets
>>> from recallscore_nb.analysis.meta_sets import meta_evaluate_sets
>>> evaluation = meta_evaluate_sets(read_judged_sets("example"), resamples=20, seed=1)
>>> meta_table("accuracy_judges", evaluation).columns.tolist()
['set', 'system', 'annotator1', 'annotator2', 'annotator3', 'human']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

import pandas as pd

from ..core import rules as registry
from ..core.errors import UsageError
from ..core.rules import Contains, Equivalent
from .annotator_panel import PANEL_COLUMNS
from .meta_evaluation import CATEGORIES, MetaEvaluation, rank_table

__all__ = ["DISAGREEMENT_CATEGORIES", "compared_annotators", "measures_present", "judges_of",
           "reference_judge_of", "ranking_labels", "accuracy_table", "ACCURACY_COLUMNS",
           "annotator_agreement", "like_with_like", "disagreement_counts",
           "disagreement_examples", "MetaTable", "META_TABLES", "register_meta_table",
           "meta_table"]

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


# --- the registry of notebook 08's tables ------------------------------------------------------
@dataclass(frozen=True)
class MetaTable:
    """One table notebook 08 saves from its meta-evaluation: its ``name`` (its cell's
    ``nb.save(name, …)``, written as ``tables/08_human_agreement__<name>.csv``), ``build``
    (the evaluation and keyword options -> the table), the ``options`` the notebook builds it
    with, and its ``note``: the saved table -> the one sentence shown under it (None: the
    sentence is :data:`recallscore_nb.render.notes.NOTES`' entry, as for the tables before
    this registry).

    >>> META_TABLES["accuracy_judges"].options, META_TABLES["annotators"].build.__name__
    ({'columns': 'judges'}, 'annotator_agreement')
    """

    name: str
    build: Callable[..., pd.DataFrame]
    note: Callable[[pd.DataFrame], str] | None = None
    options: Mapping[str, object] = field(default_factory=dict)


META_TABLES: dict[str, MetaTable] = {}
"""Notebook 08's tables by name, in the order registered: a new one is one
:func:`register_meta_table` call beside its function."""


def register_meta_table(table: MetaTable) -> MetaTable:
    """Add a table to :data:`META_TABLES` (a name once only); return it."""
    if table.name in META_TABLES:
        raise ValueError(f"a table of notebook 08 named {table.name!r} is registered already")
    META_TABLES[table.name] = table
    return table


def meta_table(name: str, evaluation: MetaEvaluation, **options) -> pd.DataFrame:
    """Notebook 08's table ``name`` (:data:`META_TABLES`) of ``evaluation``, built with the
    options the notebook gives it, ``options`` replacing them."""
    table = META_TABLES.get(name)
    if table is None:
        raise UsageError(f"unknown table {name!r} of notebook 08 "
                         f"(known: {', '.join(META_TABLES)})")
    return table.build(evaluation, **{**table.options, **options})


def _ranks(evaluation: MetaEvaluation) -> pd.DataFrame:
    """Each system's rank under each measure (:func:`~recallscore_nb.analysis.
    meta_evaluation.rank_table`)."""
    return rank_table(evaluation.systems)


register_meta_table(MetaTable("systems", attrgetter("systems")))
register_meta_table(MetaTable("accuracy", accuracy_table, options={"columns": "rules"}))
register_meta_table(MetaTable("accuracy_judges", accuracy_table, options={"columns": "judges"}))
register_meta_table(MetaTable("agreement", attrgetter("agreement")))
register_meta_table(MetaTable("ranking", attrgetter("ranking")))
register_meta_table(MetaTable("ranks", _ranks))
register_meta_table(MetaTable("annotators", annotator_agreement))
register_meta_table(MetaTable("like_with_like", like_with_like))
register_meta_table(MetaTable("categories", disagreement_counts))
register_meta_table(MetaTable("examples", disagreement_examples, options={
    "rules": (Contains.column, Equivalent.column), "per_category": 2}))
