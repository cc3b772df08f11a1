"""Notebook 06's figure: the suite catalogue's cases and runs per suite, flagged suites in red.

:func:`plot_suite_points` draws on a log axis (cases span orders of magnitude, and a bar's
length means nothing there), :func:`plot_suite_bars` on a linear one from 0;
:func:`suites_figure` puts them side by side under the shipped style.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from .figures import FIGURE_WIDTH, figure, style

__all__ = ["FLAGGED_COLOR", "PLAIN_COLOR", "plot_suite_bars", "plot_suite_points",
           "suites_figure"]

FLAGGED_COLOR, PLAIN_COLOR = "C3", "C0"
"""The catalogue's suites: flagged ones in red."""


def _suite_axis(ax, table: pd.DataFrame, y, flagged, values, at=None) -> None:
    """Label each suite with its value (placed at ``at``, by default the value) and name it
    on the y axis, flagged in red."""
    for yi, value, x in zip(y, values, values if at is None else at):
        ax.annotate(f"{value:g}", (x, yi), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=7)
    ax.set_yticks(y, table["id"].tolist())
    for label, is_flagged in zip(ax.get_yticklabels(), flagged):
        label.set_color(FLAGGED_COLOR if is_flagged else "black")


def plot_suite_bars(ax, table: pd.DataFrame, column: str):
    """Horizontal bars of ``table[column]`` on a linear axis from 0, first suite on top,
    flagged suites in red.

    ``table`` has ``id``, ``flags`` and ``column``; each bar is labelled with its value, and
    the axis ends a little past the largest. Returns the bar container.
    """
    values = table[column].to_numpy(dtype=float)
    y = np.arange(len(table))[::-1]
    flagged = (table["flags"] != "").to_numpy()
    colors = np.where(flagged, FLAGGED_COLOR, PLAIN_COLOR).tolist()
    bars = ax.barh(y, values, color=colors, height=0.7)
    ax.set_xlim(0, max(values.max(), 1) * 1.2)
    _suite_axis(ax, table, y, flagged, values)
    return bars


def plot_suite_points(ax, table: pd.DataFrame, column: str):
    """``table[column]`` as points on a log axis (a bar's length means nothing there), first
    suite on top, flagged suites in red, a faint line along each suite's row.

    ``table`` has ``id``, ``flags`` and ``column``; each point is labelled with its value.
    A value of 0, which a log axis cannot place, sits hollow on the axis' left edge.
    Returns the points drawn.
    """
    values = table[column].to_numpy(dtype=float)
    y = np.arange(len(table))[::-1]
    flagged = (table["flags"] != "").to_numpy()
    colors = np.where(flagged, FLAGGED_COLOR, PLAIN_COLOR)
    positive = values[values > 0]
    low = positive.min() / 1.6 if len(positive) else 0.5
    high = positive.max() * 2.5 if len(positive) else 10.0
    shown = np.where(values > 0, values, low)
    zero = values <= 0
    points = ax.scatter(shown[~zero], y[~zero], c=colors[~zero].tolist(), s=18, zorder=3)
    if zero.any():
        ax.scatter(shown[zero], y[zero], facecolors="white", edgecolors=colors[zero].tolist(),
                   s=18, zorder=3, clip_on=False)
    ax.set_xscale("log")
    ax.set_xlim(low, high)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.grid(axis="y", color="0.9", linewidth=0.6)
    ax.tick_params(axis="y", length=0)
    _suite_axis(ax, table, y, flagged, values, at=shown)
    return points


def suites_figure(table: pd.DataFrame, generated: str):
    """Notebook 06's figure: cases (points on a log scale) and runs (bars) per suite; flagged
    suites in red, their flags named in a column right of the runs."""
    with style():
        fig, (left, right) = figure(1, 2, figsize=(FIGURE_WIDTH, 1.3 + 0.22 * len(table)),
                                    sharey=True, layout="constrained")
        plot_suite_points(left, table, "cases")
        plot_suite_bars(right, table, "runs")
        left.set_xlabel("cases (log scale)")
        right.set_xlabel("runs")
        y = np.arange(len(table))[::-1]
        flags = [(yi, text) for yi, text in zip(y, table["flags"]) if text]
        at = right.get_yaxis_transform()  # x: the axes' width, y: the suites' rows
        for yi, text in flags:
            right.annotate(text, (1.0, yi), xycoords=at, xytext=(8, 0),
                           textcoords="offset points", va="center", fontsize=7,
                           color=FLAGGED_COLOR)
        if flags:
            right.annotate("flags", (1.0, 1.0), xycoords="axes fraction", xytext=(8, 2),
                           textcoords="offset points", va="bottom", fontsize=7,
                           color=FLAGGED_COLOR)
        flagged = (table["flags"] != "").to_numpy()
        handles = [Patch(color=color, label=label) for color, label, drawn in
                   ((FLAGGED_COLOR, "flagged (flags named right)", flagged.any()),
                    (PLAIN_COLOR, "no flag", (~flagged).any())) if drawn]
        fig.legend(handles=handles, loc="outside lower center", ncols=len(handles))
        fig.suptitle(f"Suite catalogue generated {generated}: cases and runs per suite")
    return fig
