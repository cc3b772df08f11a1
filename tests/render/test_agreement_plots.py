"""Notebook 08's figures from small hand-made tables: what each draws and says."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.render import agreement_plots

SYSTEMS = pd.DataFrame({
    "system": ["a", "a", "b", "b"], "measure": ["contains", "human"] * 2, "n": [4] * 4,
    "mean": [0.5, 0.75, 0.25, 1.0], "low": [0.25, 0.5, 0.0, 1.0], "high": [0.75, 1.0, 0.5, 1.0]})


def texts(fig):
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def test_accuracy_figure_one_panel_per_system():
    fig = agreement_plots.accuracy_figure(SYSTEMS, {"contains": "contains a reference"},
                                          ["human"])
    assert [ax.get_title() for ax in fig.axes] == ["a", "b"]
    assert "contains a reference" in texts(fig) and "judge" in texts(fig)


def test_ranking_figure_ranks_best_first():
    fig = agreement_plots.ranking_figure(SYSTEMS, {"contains": "contains", "human": "human"})
    ax = fig.axes[0]
    lines = {line.get_label(): line.get_ydata().tolist() for line in ax.lines}
    assert lines == {"a": [1.0, 2.0], "b": [2.0, 1.0]}


def test_kappa_figure_draws_the_ceiling():
    agreement = pd.DataFrame({"rule": ["contains"], "judge": ["human"], "kappa": [0.5],
                              "kappa_low": [0.25], "kappa_high": [0.75]})
    annotators = pd.DataFrame({"judges": ["x,y,z", "x,y"], "kappa": [float("nan"), 0.8]})
    fig = agreement_plots.kappa_figure(agreement, annotators, {"contains": "contains"}, "human")
    assert "annotators x & y" in texts(fig)
    assert [line.get_xdata()[0] for line in fig.axes[0].lines if line.get_linestyle() == "--"] \
        == [0.8]


def test_categories_figure_stacks_the_counts():
    rows = pd.DataFrame({"rule": ["contains", "contains", "literal_match"],
                         "category": ["number-or-date", "partial-overlap", "number-or-date"]})
    fig = agreement_plots.categories_figure(rows, {"literal_match": "literal",
                                                   "contains": "contains"},
                                            ["number-or-date", "partial-overlap"])
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == [1.0, 1.0, 0.0, 1.0]  # number-or-date (literal, contains), then partial
