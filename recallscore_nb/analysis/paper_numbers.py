"""The numbers the paper quotes, named as its LaTeX macros (``\\rs<Name>``), one function per
notebook: each takes the tables that notebook computed and returns ``name -> value``, which
the notebook's session records (``nb.quote(numbers)``) into ``paper/numbers.tex``.

A name is letters only, built from the registry's tags of the rules (``Literal``,
``Checklist``, …) and what was counted; an undefined value reads ``n/a``.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from ..core import rules as registry
from ..core.rules import Checklist
from ..core.status import STATUSES
from ..core.macros import macro_tag
from .ablation import BASELINE, SCHEMA
from .agreement import NA_TEXT
from .meta_tables import reference_judge_of

__all__ = ["reproduction_numbers", "rule_figure_numbers", "ablation_numbers",
           "agreement_numbers", "reanalysis_numbers", "catalogue_numbers",
           "fact_status_numbers", "human_agreement_numbers"]

SCHEMA_TAGS = {"schema": "Schema", "weighted_score": "WeightedScore"}
"""The paper-macro tags of the scoring schema's two measures (the rules' tags are the
registry's)."""


def _shown(value, digits: int) -> str:
    """A number as the paper quotes it; NaN, None or ``n/a`` as ``n/a``.

    >>> _shown(0.30769, 3), _shown(float("nan"), 1), _shown(NA_TEXT, 3)
    ('0.308', 'n/a', 'n/a')
    """
    if value is None or isinstance(value, str) or math.isnan(value):
        return NA_TEXT
    return f"{value:.{digits}f}"


def _tag(name: str) -> str:
    """A name as letters for a paper number: ``west_drawer`` gives ``WestDrawer``."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z]+", name))


def reproduction_numbers(labels: pd.DataFrame, summary: pd.DataFrame) -> dict[str, object]:
    """Notebook 01: rows agreeing, variants, and every recomputed summary count.

    >>> reproduction_numbers(pd.DataFrame({"agrees": [True, None, False]}),
    ...         pd.DataFrame({"field": ["literalFullMatches"], "recomputed": [1]}))
    {'RowsAgreeing': 1, 'VariantCount': 3, 'LiteralFullMatches': 1}
    """
    quoted = {"RowsAgreeing": int((labels["agrees"] == True).sum()),  # noqa: E712 (None: unchecked)
              "VariantCount": len(labels)}
    for record in summary.itertuples(index=False):
        if record.recomputed is not None:
            quoted[record.field[0].upper() + record.field[1:]] = record.recomputed
    return quoted


def rule_figure_numbers(by_label: pd.DataFrame) -> dict[str, object]:
    """Notebook 02: each binary rule's passing facts-complete and facts-incomplete fixtures
    (``n/a`` when no row is labelled)."""
    tags = {m.name: m.tag for m in registry.measures()}
    quoted = {}
    for record in by_label.itertuples(index=False):
        quoted[f"FigureCompletePass{tags[record.rule]}"] = record.complete_pass
        quoted[f"FigureIncompletePass{tags[record.rule]}"] = record.incomplete_pass
    return quoted


def ablation_numbers(flips: pd.DataFrame, *, baseline: str = BASELINE) -> dict[str, object]:
    """Notebook 03: each pipeline's flips per verdict, and how many pipelines flip anything."""
    tags = {**{m.column: m.tag for m in registry.measures()}, SCHEMA: "Schema"}
    quoted = {}
    for record in flips.itertuples(index=False):
        if record.pipeline != baseline:
            quoted[f"Ablation{tags[record.rule]}Flips{macro_tag(record.pipeline)}"] = record.flips
    quoted["AblationPipelinesFlipping"] = flips[flips["flips"] > 0]["pipeline"].nunique()
    return quoted


def agreement_numbers(agreement: pd.DataFrame, precision_recall: pd.DataFrame,
                      disagreements: pd.DataFrame) -> dict[str, object]:
    """Notebook 04: kappa and percent agreement per pair, precision and recall (or the graded
    means) per rule, the unlabelled rows and the disagreeing rows."""
    tags = {**{m.name: m.tag for m in registry.measures()}, **SCHEMA_TAGS}
    quoted = {}
    for record in agreement.itertuples(index=False):
        pair = tags[record.rule_a] + tags[record.rule_b]
        quoted[f"AgreementKappa{pair}"] = _shown(record.kappa, 3)
        quoted[f"AgreementPercent{pair}"] = _shown(record.agreement_pct, 1)
    for record in precision_recall.itertuples(index=False):
        tag = tags[record.rule]
        if record.kind == "binary":
            quoted[f"AgreementPrecision{tag}"] = _shown(record.precision, 3)
            quoted[f"AgreementRecall{tag}"] = _shown(record.recall, 3)
        else:
            quoted[f"AgreementMean{tag}Complete"] = _shown(record.mean_complete, 3)
            quoted[f"AgreementMean{tag}Incomplete"] = _shown(record.mean_incomplete, 3)
    quoted["AgreementUnlabelledRows"] = int(precision_recall["unlabelled"].iloc[0])
    quoted["AgreementDisagreeingRows"] = len(disagreements)
    return quoted


def reanalysis_numbers(systems: pd.DataFrame, saturation: pd.DataFrame, stuffing: pd.DataFrame,
                       *, resamples: int) -> dict[str, object]:
    """Notebook 05: the systems, their attempts, the resamples, how many rules are saturated,
    and how many published measures pass the stuffing control."""
    published = stuffing["must be 0"] != "yes"
    return {"ReanalysisSystems": len(systems),
            "ReanalysisAttempts": int(systems["attempts"].sum()),
            "ReanalysisResamples": resamples,
            "ReanalysisSaturatedRules": int(saturation["saturated"].sum()),
            "ReanalysisStuffingPassedMeasures": int((stuffing["score"][published] > 0).sum())}


def catalogue_numbers(source: pd.DataFrame) -> dict[str, object]:
    """Notebook 06: the catalogue's date, its suites and how many are flagged.

    >>> catalogue_numbers(pd.DataFrame({"generated": ["2026-01-02"], "suites": [3],
    ...                                 "flagged": [1]}))
    {'CatalogueGenerated': '2026-01-02', 'CatalogueSuites': 3, 'CatalogueFlagged': 1}
    """
    row = source.iloc[0]
    return {"CatalogueGenerated": str(row["generated"]), "CatalogueSuites": int(row["suites"]),
            "CatalogueFlagged": int(row["flagged"])}


def fact_status_numbers(matrix: pd.DataFrame, counts: pd.DataFrame, explained: pd.DataFrame,
                        *, facts) -> dict[str, object]:
    """Notebook 07: the variants, how many have every fact present, the checklist's full
    matches, the mean and full weighted scores, each status's count per fact (a fact whose
    name gives no letters of its own left to the table) and in total, the facts explained."""
    weighted = matrix["weighted_score"].tolist()
    mean = math.fsum(weighted) / len(weighted) if weighted else float("nan")
    all_present = (matrix[[f"status_{f.name}" for f in facts]] == "present").all(axis=1)
    quoted = {
        "FactStatusVariantCount": len(matrix),
        "FactStatusAllPresent": int(all_present.sum()),
        "FactStatusChecklistFullMatches": int(matrix[Checklist.column].sum()),
        "FactStatusMeanWeightedScore": "n/a" if math.isnan(mean) else f"{mean:.3f}",
        "FactStatusFullWeightedScores": int((matrix["weighted_score"] == 1.0).sum()),
    }
    tags = [_tag(name) for name in counts["fact"][:-1]]
    for record in counts.itertuples(index=False):
        tag = "" if record.fact == "total" else _tag(record.fact)
        if record.fact != "total" and (not tag or tags.count(tag) > 1):
            continue  # a fact name that gives no letters of its own: its row is in the table
        for status in STATUSES:
            quoted[f"FactStatus{status.capitalize()}{tag}"] = getattr(record, status)
    quoted["FactStatusExplainedFacts"] = len(explained)
    return quoted


def human_agreement_numbers(evaluation) -> dict[str, object]:
    """Notebook 08: per judged set (its tag after ``Agree``; none for a single
    evaluation), the systems, the attempts judged, the share of them the reference judge
    accepted (``AcceptedPercent``), and each rule's accuracy, Cohen's kappa, precision, recall
    (three decimals) and Kendall's tau-b of the system ranking (two) against the reference
    judge; kappa, recall and the share accepted also against each reading of the reference
    judge (:func:`_agree_numbers`)."""
    evaluations = getattr(evaluation, "evaluations", None)
    if evaluations is None:
        return _agree_numbers(evaluation, "")
    out: dict[str, object] = {}
    for name, one in evaluations.items():
        out.update(_agree_numbers(one, evaluation.tags[name]))
    return out


def _text(value, digits=3) -> str:
    return "n/a" if pd.isna(value) else f"{value:.{digits}f}"


def _accepted_percent(systems: pd.DataFrame, judge: str) -> str:
    """The share of the attempts ``judge`` judged that it accepted, pooled over the systems,
    in percent with one decimal (each system's count is its ``n`` times its mean)."""
    rows = systems[systems["measure"] == judge]
    accepted = sum(round(n * mean) for n, mean in zip(rows["n"], rows["mean"]))
    return f"{100 * accepted / rows['n'].sum():.1f}" if rows["n"].sum() else "n/a"


def _agree_numbers(evaluation, tag: str) -> dict[str, object]:
    """The macros of one set (see :func:`human_agreement_numbers`): against the reference
    judge, and against each of its readings, a judge named after it with a suffix
    (``human-lenient``: ``Agree<set>LenientKappa<rule>``, its kappa, recall and the share it
    accepted)."""
    out: dict[str, object] = {
        f"Agree{tag}Systems": int(evaluation.systems["system"].nunique()),
        f"Agree{tag}JudgedAttempts": int(evaluation.counts["judged"]),
    }
    reference = reference_judge_of(evaluation)
    taus = dict(zip(evaluation.ranking["measure"], evaluation.ranking["tau"]))
    tags = {m.column: m.tag for m in registry.measures()}
    readings = [j for j in pd.unique(evaluation.agreement["judge"])
                if j.startswith(f"{reference}-")]
    for judge in [reference, *readings]:
        key = f"Agree{tag}{macro_tag(judge.removeprefix(reference))}"
        rows = evaluation.agreement[evaluation.agreement["judge"] == judge]
        out[f"{key}AcceptedPercent"] = _accepted_percent(evaluation.systems, judge)
        for rule, accuracy, kappa, precision, recall in zip(
                rows["rule"], rows["accuracy"], rows["kappa"], rows["precision"],
                rows["recall"]):
            out[f"{key}Kappa{tags[rule]}"] = _text(kappa)
            out[f"{key}Recall{tags[rule]}"] = _text(recall)
            if judge == reference:
                out[f"{key}Accuracy{tags[rule]}"] = _text(accuracy)
                out[f"{key}Precision{tags[rule]}"] = _text(precision)
                out[f"{key}Tau{tags[rule]}"] = _text(taus.get(rule), 2)
    return out
