"""Notebook 08's figures from small hand-made tables: what each draws and says."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.analysis.meta_evaluation import rank_table
from recallscore_nb.render import agreement_plots

SYSTEMS = pd.DataFrame({
    "system": ["a", "a", "b", "b"], "measure": ["contains", "human"] * 2, "n": [4] * 4,
    "mean": [0.5, 0.75, 0.25, 1.0], "low": [0.25, 0.5, 0.0, 1.0], "high": [0.75, 1.0, 0.5, 1.0]})


def texts(fig):
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def test_accuracy_figure_one_row_per_system_one_panel_per_set():
    fig = agreement_plots.accuracy_figure(SYSTEMS, {"contains": "contains a reference"},
                                          ["human"])
    assert len(fig.axes) == 1 and [t.get_text() for t in fig.axes[0].get_yticklabels()] == \
        ["a", "b"]
    assert "contains a reference" in texts(fig) and "human" in texts(fig)
    assert {".50", ".75", ".25", "1.00"} <= set(texts(fig))  # each cell's accuracy written
    two = pd.concat([SYSTEMS.assign(set="x"), SYSTEMS.assign(set="y")])
    fig = agreement_plots.accuracy_figure(two, {"contains": "contains"}, ["human"])
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["x", "y"]


def test_ranking_figure_ranks_best_first_and_draws_ties_open():
    fig = agreement_plots.ranking_figure(rank_table(SYSTEMS),
                                         {"contains": "contains", "human": "human"})
    ax = fig.axes[0]
    lines = {line.get_label(): line.get_ydata().tolist() for line in ax.lines
             if not line.get_label().startswith("_")}
    assert lines == {"a": [1.0, 2.0], "b": [2.0, 1.0]}
    tied = SYSTEMS.assign(mean=[0.5, 0.75, 0.5 + 1e-15, 1.0])  # equal but for float noise
    fig = agreement_plots.ranking_figure(rank_table(tied), {"contains": "c", "human": "h"})
    open_markers = [line for line in fig.axes[0].lines if line.get_markerfacecolor() == "white"
                    and len(line.get_xdata())]
    assert sorted(line.get_ydata()[0] for line in open_markers) == [1.0, 1.0]
    assert "open markers" in fig.get_suptitle()


def test_kappa_figure_like_with_like_and_its_ceiling():
    agreement = pd.DataFrame({"set": ["s", "t"], "rule": ["contains"] * 2,
                              "judge": ["human"] * 2, "kappa": [0.5, 0.6],
                              "kappa_low": [0.25, 0.5], "kappa_high": [0.75, 0.7]})
    panel = pd.DataFrame({"set": ["s"] * 3, "rater": ["x", "y", "contains"],
                          "kind": ["annotator", "annotator", "rule"],
                          "kappa_majority_of_others": [0.8, 0.6, 0.5]})
    fig = agreement_plots.kappa_figure(agreement, panel, {"contains": "contains"}, "human")
    first, second = (ax.get_title(loc="left") for ax in fig.axes)
    assert "the other annotators' majority" in first and "the ceiling" in first
    assert "no ceiling" in second
    ceiling = [line.get_xdata()[0] for line in fig.axes[0].lines if line.get_linestyle() == "--"]
    assert ceiling == [0.7]  # the annotators' mean


def test_categories_figure_stacks_the_counts():
    rows = pd.DataFrame({"rule": ["contains", "contains", "literal_match"],
                         "category": ["number-or-date", "partial-overlap", "number-or-date"]})
    fig = agreement_plots.categories_figure(rows, {"literal_match": "literal",
                                                   "contains": "contains"},
                                            ["number-or-date", "partial-overlap"])
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == [1.0, 1.0, 0.0, 1.0]  # number-or-date (literal, contains), then partial


def test_a_set_of_one_system_has_no_ranking_panel_and_many_sets_two_columns():
    """Issue 30: EfficientQA has one system (nothing to rank), and four sets of categories
    stacked in one column stood taller than a page."""
    one = SYSTEMS[SYSTEMS["system"] == "a"].assign(set="one")
    fig = agreement_plots.ranking_figure(rank_table(pd.concat([SYSTEMS.assign(set="two"), one])),
                                         {"contains": "c", "human": "h"})
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["two"]
    rows = pd.DataFrame({"rule": ["contains"] * 3, "category": ["number-or-date"] * 3,
                         "set": ["w", "x", "y"]})
    fig = agreement_plots.categories_figure(rows, {"contains": "contains"}, ["number-or-date"])
    shown = [ax for ax in fig.axes if ax.axison]
    assert [ax.get_title(loc="left") for ax in shown] == ["w", "x", "y"]
    assert len(fig.axes) == 4 and fig.get_size_inches()[1] < 2 * 3 * 0.25 + 2 * 0.9 + 0.01


def test_step_ablation_figure_fixed_right_broken_left():
    ablation = pd.DataFrame({"set": ["s"] * 3, "change": ["none", "without date",
                                                          "with longer-name"],
                             "element": ["", "date", "longer-name"],
                             "kind": ["", "step", "guard"], "default": ["", "on", "off"],
                             "fixed": [0, 5, 1], "broken": [0, 2, 9]})
    fig = agreement_plots.step_ablation_figure(ablation)
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert widths == [5, 1, -2, -9]
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["date", "longer-name (guard, off)"]


def test_gaming_figure_a_cell_per_rule_and_family_in_percent():
    shares = pd.DataFrame({"set": ["x", "x", "x", "x", "y", "y", "y", "y"],
                           "rule": ["contains", "contains", "equivalent", "equivalent"] * 2,
                           "family": ["list", "refusal"] * 4,
                           "share": [1.0, 0.0, 0.005, 0.25, 0.5, 0.0, 0.0, 0.125]})
    fig = agreement_plots.gaming_figure(shares)
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["x", "y"]
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["contains", "equivalent"]
    assert [t.get_text() for t in fig.axes[1].get_xticklabels()] == ["list", "refusal"]
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["", ""]  # names once
    cells = [t.get_text() for t in fig.axes[0].texts]
    assert cells == ["100", "0", "0.5", "25"]  # row by row, one decimal under 10 %
