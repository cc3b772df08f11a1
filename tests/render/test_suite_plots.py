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


def test_06_colour_tells_the_kinds_of_flag_apart_and_names_stay_black(drawn):
    """Issue 21: every suite was red because every suite is flagged, so the colour said
    nothing, and red names were hard to read."""
    from matplotlib.colors import to_hex

    from recallscore_nb.render.suite_plots import flag_kind

    fig, _ = drawn["06 suites"]
    runs = next(ax for ax in fig.axes if ax.get_xlabel() == "runs")
    colours = [to_hex(bar.get_facecolor()) for bar in runs.patches]  # first suite first
    written = [t for t in runs.texts if t.xycoords != "data" and t.get_text() != "flags"]
    flags = [t.get_text() for t in sorted(written, key=lambda t: -t.xy[1])]
    assert len(flags) == len(colours) == 15
    by_kind = {}
    for text, colour in zip(flags, colours):
        by_kind.setdefault(flag_kind(text), set()).add(colour)
    assert all(len(c) == 1 for c in by_kind.values())  # one colour per kind of flag
    assert len(set().union(*by_kind.values())) == len(by_kind) > 1  # kinds differ
    for ax in fig.axes:
        assert {to_hex(t.get_color()) for t in ax.get_yticklabels() + ax.texts} == {"#000000"}
    legend = fig.legends[0]
    assert [t.get_text() for t in legend.get_texts()] == list(by_kind)
