"""Every figure of the workbook, made from the shipped data by its chapter's steps as its
notebook makes it (the same steps, the same arguments), without a kernel."""

from __future__ import annotations

from recallscore_nb.workbook.chapters import (
    fact_status as ch07,
    human_agreement as ch08,
    normalization_ablation as ch03,
    reanalysis as ch05,
    rule_figures as ch02,
    suite_catalogue as ch06,
)
from tests.workbook.chapters.sessions import session


def _intervals(nb):
    intervals = ch05.intervals(nb, ch05.scores(nb, ch05.attempts(nb)))
    return ch05.intervals_figure(nb, intervals, ch05.saturation(intervals))


def _status(nb):
    return ch07.status_figure(nb, ch07.status_table(nb, ch07.scored(nb)))


FIGURES = {
    "02 matrix": (ch02, lambda nb: ch02.matrix_figure(ch02.rule_matrix(ch02.scores(nb)))),
    "02 by_label": (ch02, lambda nb: ch02.by_label_figure(nb, ch02.scores(nb))),
    "02 facts": (ch02, lambda nb: ch02.facts_figure(ch02.facts(nb, ch02.scores(nb)))),
    "03 heatmap": (ch03, lambda nb: ch03.heatmap(ch03.verdicts(nb))),
    "05 intervals": (ch05, _intervals),
    "06 suites": (ch06, lambda nb: ch06.suites_figure(nb, ch06.suites(nb))),
    "07 matrix": (ch07, _status),
    "08 accuracy": (ch08, lambda nb: ch08.accuracy_figure(ch08.evaluation(nb))),
    "08 ranking": (ch08, lambda nb: ch08.ranking_figure(ch08.evaluation(nb))),
    "08 kappa": (ch08, lambda nb: ch08.kappa_figure(nb, ch08.evaluation(nb))),
    "08 categories": (ch08, lambda nb: ch08.categories_figure(ch08.evaluation(nb))),
}
"""Each figure's name (notebook and what) -> its chapter and how its notebook makes it."""


def draw(name: str, tmp_path):
    """The figure ``name``, made from the shipped data with the notebook's default parameters."""
    chapter, make = FIGURES[name]
    return make(session(chapter, tmp_path))
