"""Notebook 06's figure: no bars on a log axis, a zero placed on the log axis' left edge, the
runs' axis ending near the largest."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from recallscore_nb.render.figures import figure, style
from recallscore_nb.render.suite_plots import plot_suite_points
from tests.render.shipped import drawn_figures

drawn = drawn_figures(["06 suites"])


def test_06_no_log_axis_and_runs_axis_ends_near_the_maximum(drawn):
    fig, _ = drawn["06 suites"]
    assert all(ax.get_xscale() == "linear" or not ax.containers for ax in fig.axes)
    runs = next(ax for ax in fig.axes if ax.get_xlabel() == "runs")
    assert runs.get_xlim()[1] <= 38 * 1.25  # the most runs of a suite is 38


def test_06_points_place_a_zero_on_the_log_axis_left_edge():
    table = pd.DataFrame({"id": ["a", "b", "c"], "flags": ["", "void", ""],
                          "cases": [0, 50, 4]})
    with style():
        fig, ax = figure()
        points = plot_suite_points(ax, table, "cases")
    low, high = ax.get_xlim()
    plt.close(fig)
    assert ax.get_xscale() == "log" and not ax.containers
    assert points.get_offsets()[:, 0].tolist() == [50, 4]
    (hollow,) = [c for c in ax.collections if c is not points]
    assert hollow.get_offsets()[:, 0].tolist() == [low] and low == pytest.approx(4 / 1.6)
    assert high == pytest.approx(50 * 2.5)
    assert [t.get_text() for t in ax.texts] == ["0", "50", "4"]
