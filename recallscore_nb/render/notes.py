"""The sentences an executed notebook shows under each result, composed from its values.

After each table or figure a notebook saves, its session shows what the result says, in one
sentence computed from the values (never typed into the notebook, so it cannot drift from
them); its last cell closes with a short "what this notebook found", composed from the
numbers the paper quotes. :data:`NOTES` maps ``"<stem>/<what>"`` (a figure:
``"<stem>/figure:<what>"``) to a function of the tables the notebook saved so far (by name),
:data:`FOUND` maps a stem to a function of its quoted numbers (name -> value); a notebook
adopts both by adding its entries (the composers live in ``notes_*`` modules, one per group of
notebooks). A figure without an entry of its own says what the table of its name says. A
table registered with its note elsewhere (notebook 08's, in
:data:`~recallscore_nb.analysis.meta_tables.META_TABLES`) has no entry here: the workbook
passes its note to :func:`note_for` (``notes``), since render does not import analysis.

>>> import pandas as pd
>>> summary = pd.DataFrame({"field": ["variantCount"], "published": [12], "recomputed": [12]})
>>> note_for("01_reproduce_benchmark", "summary", {"summary": summary}).text
'Every published count is recomputed exactly (1 of 1 field).'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from . import notes_agreement as agreement
from . import notes_benchmark as benchmark
from . import notes_systems as systems
from .shown import Note

__all__ = ["NOTES", "FOUND", "note_for", "found_for", "FOUND_HEADING"]

FOUND_HEADING = "What this notebook found"

NOTES: dict[str, Callable[[dict], str]] = {
    "01_reproduce_benchmark/scores": lambda t: benchmark.passes(t["scores"]),
    "01_reproduce_benchmark/labels": lambda t: benchmark.labels(t["labels"]),
    "01_reproduce_benchmark/summary": lambda t: benchmark.summary(t["summary"]),
    "02_rule_figures/matrix": lambda t: benchmark.passes(t["matrix"]),
    "02_rule_figures/by_label": lambda t: benchmark.by_label(t["by_label"]),
    "02_rule_figures/facts": lambda t: benchmark.facts(t["facts"]),
    "03_normalization_ablation/pipelines": lambda t: benchmark.pipelines(t["pipelines"]),
    "03_normalization_ablation/verdicts": lambda t: benchmark.verdicts(t["verdicts"]),
    "03_normalization_ablation/matrix": lambda t: benchmark.changed_cells(t["matrix"]),
    "03_normalization_ablation/flips": lambda t: benchmark.flips(t["flips"]),
    "03_normalization_ablation/figure:heatmap": lambda t: benchmark.flips(t["flips"]),
    "04_rule_agreement/scores": lambda t: benchmark.complete(t["scores"]),
    "04_rule_agreement/agreement": lambda t: benchmark.agreement(t["agreement"]),
    "04_rule_agreement/precision_recall": lambda t: benchmark.precision_recall(t["precision_recall"]),
    "04_rule_agreement/disagreements": lambda t: benchmark.disagreements(t["disagreements"]),
    "05_reanalysis/systems": lambda t: systems.systems(t["systems"]),
    "05_reanalysis/scores": lambda t: systems.scored(t["scores"]),
    "05_reanalysis/controls": lambda t: systems.controls(t["controls"]),
    "05_reanalysis/stuffing": lambda t: systems.stuffing(t["stuffing"]),
    "05_reanalysis/intervals": lambda t: systems.intervals(t["intervals"]),
    "05_reanalysis/saturation": lambda t: systems.saturation(t["saturation"]),
    "05_reanalysis/figure:intervals": lambda t: systems.saturation(t["saturation"]),
    "06_suite_catalogue/source": lambda t: systems.source(t["source"]),
    "06_suite_catalogue/suites": lambda t: systems.suites(t["suites"]),
    "06_suite_catalogue/flags": lambda t: systems.flags(t["flags"]),
    "06_suite_catalogue/fixes": lambda t: systems.fixes(t["fixes"]),
    "06_suite_catalogue/figure:suites": lambda t: systems.suite_flags(t["suites"]),
    "07_fact_status/schema": lambda t: systems.schema(t["schema"]),
    "07_fact_status/settings": lambda t: systems.settings(t["settings"]),
    "07_fact_status/matrix": lambda t: systems.statuses(t["matrix"]),
    "07_fact_status/counts": lambda t: systems.counts(t["counts"]),
    "07_fact_status/explanations": lambda t: systems.explanations(t["explanations"]),
    **{f"08_human_agreement/{what}": (lambda t, w=what: getattr(agreement, w)(t[w]))
       for what in ("systems", "accuracy", "accuracy_judges", "agreement", "ranking", "ranks",
                    "annotators", "like_with_like", "step_ablation", "guards_left_out",
                    "gaming", "gaming_examples", "categories", "examples")},
    "08_human_agreement/figure:kappa": lambda t: agreement.like_with_like(t["like_with_like"]),
}
"""What each result says: ``"<stem>/<what>"`` -> a function of the saved tables."""

FOUND: dict[str, Callable[[dict], list[str]]] = {
    "01_reproduce_benchmark": benchmark.found_reproduction,
    "02_rule_figures": benchmark.found_rule_figures,
    "03_normalization_ablation": benchmark.found_ablation,
    "04_rule_agreement": benchmark.found_agreement,
    "05_reanalysis": systems.found_reanalysis,
    "06_suite_catalogue": systems.found_catalogue,
    "07_fact_status": systems.found_fact_status,
    "08_human_agreement": agreement.found_human_agreement,
}
"""What each notebook found: stem -> a function of its quoted numbers, giving short lines."""


def note_for(stem: str, what: str, tables: dict, *, figure: bool = False,
             notes: Mapping[str, Callable[[dict], str]] | None = None) -> Note | None:
    """The sentence under result ``what`` of notebook ``stem`` (None when it has none), from
    the tables saved so far; ``notes`` are entries besides :data:`NOTES`, keyed as it is.

    >>> more = {"99_other/x": lambda tables: f"x is {tables['x']}."}
    >>> note_for("99_other", "x", {"x": 2}, notes=more).text
    'x is 2.'
    """
    entries = {**NOTES, **(notes or {})}
    key = f"{stem}/figure:{what}" if figure else f"{stem}/{what}"
    compose = entries.get(key) or (entries.get(f"{stem}/{what}") if figure else None)
    return None if compose is None else Note(compose(tables))


def found_for(stem: str, numbers: dict) -> Note | None:
    """The closing "what this notebook found" of ``stem`` (None when it has none)."""
    compose = FOUND.get(stem)
    return None if compose is None else Note(FOUND_HEADING, tuple(compose(numbers)))
