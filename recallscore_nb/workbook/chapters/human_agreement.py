"""Notebook 08: rules against human judges (the meta-evaluation of
:mod:`recallscore_nb.analysis.meta_evaluation`).

An items file, attempts from several systems and a judgments file: every attempt scored by
every rule, each system's accuracy under each rule and each judge with item-bootstrap
intervals, each rule's agreement with every judge, the systems' ranking under each measure,
the annotators' agreement with each other (the ceiling), and the disagreements by category.
By default it reads a small authored example shipped with the package
(``recallscore_nb/data/human_agreement/``); ``recallscore convert`` turns OpenQA-eval or
EVOUNA into the same three files.
"""

from __future__ import annotations

import pandas as pd

from ...analysis import meta_evaluation as meta
from ...core import rules as registry
from ...core.errors import AttemptsFormatError
from ...io.attempts import read_attempts
from ...io.data import DATA_DIR
from ...io.items import load_items
from ...io.judgments import load_judgments
from ...render import agreement_plots
from ..session import Session, start as _start

__all__ = ["STEM", "EXAMPLE", "start", "evaluation", "systems", "accuracy", "accuracy_figure",
           "agreement", "ranking", "ranking_figure", "annotators", "kappa_figure",
           "categories", "categories_figure", "examples", "numbers"]

STEM = "08_human_agreement"
SQUAD_MODE = "v1.1"
F1_THRESHOLD = 0.5
EXAMPLE = DATA_DIR / "human_agreement"
"""The shipped example: ``items.jsonl``, ``attempts.csv``, ``judgments.csv``."""


def _annotators(nb: Session, judges) -> list[str]:
    """The judges whose agreement with each other is measured: those ``annotators`` names, or,
    when it is empty, every judge but the reference judge (none when fewer than two)."""
    named = [a.strip() for a in nb.params.annotators.split(",") if a.strip()]
    if named:
        return named
    others = [j for j in judges if j != nb.params.reference_judge]
    return others if len(others) >= 2 else []


def start(namespace: dict) -> Session:
    """Validate the parameters; the session signs its outputs with the rules, the
    meta-evaluation's settings and the bootstrap."""
    nb = _start(STEM, namespace)
    nb.sign_rules(SQUAD_MODE)
    nb.sign(meta.agree_signature(protocol=nb.params.protocol,
                                 reference_judge=nb.params.reference_judge,
                                 f1_threshold=F1_THRESHOLD, resamples=nb.params.resamples,
                                 seed=nb.params.seed),
            meta.bootstrap_signature(resamples=nb.params.resamples, seed=nb.params.seed,
                                     unit="item"))
    return nb


def evaluation(nb: Session) -> meta.MetaEvaluation:
    """Read the three files the parameters name (recorded as inputs) and run the
    meta-evaluation; shows what was counted."""
    items = load_items(str(nb.read_input(nb.params.items_path or EXAMPLE / "items.jsonl")))
    attempts_path = str(nb.read_input(nb.params.attempts_path or EXAMPLE / "attempts.csv"))
    attempts = read_attempts(attempts_path)
    for column in ("item", "system"):
        if column not in attempts.columns:
            raise AttemptsFormatError(attempts_path, "", column, message="missing column "
                                      "(judged attempts name their item and system)")
    judgments = load_judgments(
        str(nb.read_input(nb.params.judgments_path or EXAMPLE / "judgments.csv")), items,
        attempts)
    return meta.meta_evaluate(items, attempts, judgments,
                              reference_judge=nb.params.reference_judge,
                              annotators=_annotators(nb, judgments.judges),
                              protocol=nb.params.protocol,
                              seed=nb.params.seed, resamples=nb.params.resamples,
                              f1_threshold=F1_THRESHOLD)


def _measures(evaluation: meta.MetaEvaluation) -> dict[str, str]:
    """The rules' measures present (column -> label), in the registry's order."""
    present = set(evaluation.agreement["rule"])
    return {m.column: m.label for m in registry.measures() if m.column in present}


def _judges(evaluation: meta.MetaEvaluation) -> list[str]:
    return [m for m in dict.fromkeys(evaluation.systems["measure"])
            if m not in _measures(evaluation)]


def systems(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """Every system's accuracy under every rule and judge (long: ``system, measure, n, mean,
    low, high``)."""
    return evaluation.systems


def accuracy(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """The same, wide: one row per system, one column per measure (the mean)."""
    table = evaluation.systems.pivot(index="system", columns="measure", values="mean")
    order = list(_measures(evaluation)) + _judges(evaluation)
    return table[order].reset_index()


def accuracy_figure(evaluation: meta.MetaEvaluation):
    """Each system's accuracy under each rule and each judge, with intervals."""
    return agreement_plots.accuracy_figure(evaluation.systems, _measures(evaluation),
                                           _judges(evaluation))


def agreement(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """Every rule against every judge: accuracy, kappa, precision, recall, with intervals."""
    return evaluation.agreement


def ranking(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """Kendall's tau-b of each measure's system ranking against the reference judge's."""
    return evaluation.ranking


def ranking_figure(evaluation: meta.MetaEvaluation):
    """The systems' rank under each measure."""
    short = {m.column: m.short for m in registry.measures() if m.column in _measures(evaluation)}
    labels = {**short, **{j: j for j in _judges(evaluation)}}
    return agreement_plots.ranking_figure(evaluation.systems, labels)


def annotators(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """The annotators' agreement with each other (empty when none were named)."""
    if evaluation.annotators is None:
        return pd.DataFrame({"judges": [], "n": [], "alpha": [], "kappa": [],
                             "percent_agreement": []})
    return evaluation.annotators


def kappa_figure(nb: Session, evaluation: meta.MetaEvaluation):
    """Each rule's kappa against the reference judge, the annotators' as the ceiling."""
    return agreement_plots.kappa_figure(evaluation.agreement, evaluation.annotators,
                                        _measures(evaluation), nb.params.reference_judge)


def categories(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """How many disagreements each rule has in each category."""
    counts = (evaluation.disagreements.groupby(["rule", "category"]).size()
              .unstack(fill_value=0)
              .reindex(index=list(_measures(evaluation)), columns=list(meta.CATEGORIES),
                       fill_value=0))
    return counts.rename_axis(columns=None).reset_index()


def categories_figure(evaluation: meta.MetaEvaluation):
    """The disagreements per rule, stacked by category."""
    return agreement_plots.categories_figure(evaluation.disagreements, _measures(evaluation),
                                             meta.CATEGORIES)


def examples(evaluation: meta.MetaEvaluation) -> pd.DataFrame:
    """Up to two examples of each category, from the contains rule and SQuAD exact match."""
    rows = evaluation.disagreements
    rows = rows[rows["rule"].isin([registry.Contains.column, registry.SquadExactMatch.column])]
    return (rows.groupby(["rule", "category"], sort=False).head(2)
            .sort_values(["rule", "category"], kind="stable").reset_index(drop=True))


def numbers(evaluation: meta.MetaEvaluation) -> dict[str, object]:
    """The systems, the attempts judged, and each rule's kappa against the reference judge
    (to three decimals)."""
    counts = evaluation.counts
    out: dict[str, object] = {
        "AgreeSystems": int(evaluation.systems["system"].nunique()),
        "AgreeJudgedAttempts": int(counts["judged"]),
    }
    reference = evaluation.signature.split("|reference:")[1].split("|")[0]
    kappas = evaluation.agreement[evaluation.agreement["judge"] == reference]
    tags = {m.column: m.tag for m in registry.measures()}
    for rule, kappa in zip(kappas["rule"], kappas["kappa"]):
        out[f"AgreeKappa{tags[rule]}"] = "n/a" if pd.isna(kappa) else f"{kappa:.3f}"
    return out
