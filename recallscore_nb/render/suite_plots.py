"""Notebook 06's figure: the suite catalogue's cases and runs per suite, coloured by the kind
of the suite's flag.

Colour carries the one distinction the figure draws: the kind of flag (``void``,
``saturated``, …; a suite with several is coloured by its first), one colour per kind that
occurs, grey for a suite without a flag; the suites' names and the flags written beside them
stay black, so they read as text. :func:`plot_suite_points` draws on a log axis (cases span
orders of magnitude, and a bar's length means nothing there), :func:`plot_suite_bars` on a
linear one from 0; :func:`suites_figure` puts them side by side under the shipped style, with
a legend of the kinds drawn.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.colors import to_hex
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from .figures import FIGURE_WIDTH, figure, style

__all__ = ["PLAIN_COLOR", "KIND_COLORS", "flag_kind", "kind_colors", "plot_suite_bars",
           "plot_suite_points", "suites_figure"]

PLAIN_COLOR = "0.6"
"""A suite without a flag."""
_TAB20 = [to_hex(c) for c in matplotlib.colormaps["tab20"].colors]
KIND_COLORS = tuple(_TAB20[0:14:2] + _TAB20[16::2] + _TAB20[1:14:2] + _TAB20[17::2])
"""The colours of the kinds of flag, in the order the kinds first occur: matplotlib's ten
colours less its grey, then their light tints (18 kinds told apart; a suite without a flag
is grey)."""


def flag_kind(flags: str) -> str:
    """The kind of a suite's (first) flag, '' for none.

    >>> flag_kind("grader-bug (fixed 2026-09-09); void"), flag_kind("paired with tagger")
    ('grader-bug', 'paired')
    """
    first = str(flags).split(";")[0].strip()
    return first.split()[0] if first else ""


def kind_colors(table: pd.DataFrame) -> dict[str, str]:
    """Each kind of flag in ``table`` (in order of first occurrence) -> its colour; more kinds
    than colours reuse them."""
    kinds = list(dict.fromkeys(k for k in map(flag_kind, table["flags"]) if k))
    return {kind: KIND_COLORS[i % len(KIND_COLORS)] for i, kind in enumerate(kinds)}


def _colors(table: pd.DataFrame) -> np.ndarray:
    colors = kind_colors(table)
    return np.array([colors.get(flag_kind(f), PLAIN_COLOR) for f in table["flags"]], dtype=object)


def _suite_axis(ax, table: pd.DataFrame, y, values, at=None) -> None:
    """Label each suite with its value (placed at ``at``, by default the value) and name it
    on the y axis, in black."""
    for yi, value, x in zip(y, values, values if at is None else at):
        ax.annotate(f"{value:g}", (x, yi), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=7)
    ax.set_yticks(y, table["id"].tolist())


def plot_suite_bars(ax, table: pd.DataFrame, column: str):
    """Horizontal bars of ``table[column]`` on a linear axis from 0, first suite on top,
    coloured by the kind of the suite's flag.

    ``table`` has ``id``, ``flags`` and ``column``; each bar is labelled with its value, and
    the axis ends a little past the largest. Returns the bar container.
    """
    values = table[column].to_numpy(dtype=float)
    y = np.arange(len(table))[::-1]
    bars = ax.barh(y, values, color=_colors(table).tolist(), height=0.7)
    ax.set_xlim(0, max(values.max(), 1) * 1.2)
    _suite_axis(ax, table, y, values)
    return bars


def plot_suite_points(ax, table: pd.DataFrame, column: str):
    """``table[column]`` as points on a log axis (a bar's length means nothing there), first
    suite on top, coloured by the kind of the suite's flag, a faint line along each row.

    ``table`` has ``id``, ``flags`` and ``column``; each point is labelled with its value.
    A value of 0, which a log axis cannot place, sits hollow on the axis' left edge.
    Returns the points drawn.
    """
    values = table[column].to_numpy(dtype=float)
    y = np.arange(len(table))[::-1]
    colors = _colors(table)
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
    _suite_axis(ax, table, y, values, at=shown)
    return points


def suites_figure(table: pd.DataFrame, generated: str):
    """Notebook 06's figure: cases (points on a log scale) and runs (bars) per suite, coloured
    by the kind of the suite's flag, the flags named in a column right of the runs; the
    legend names the kinds drawn."""
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
                           textcoords="offset points", va="center", fontsize=7)
        if flags:
            right.annotate("flags", (1.0, 1.0), xycoords="axes fraction", xytext=(8, 2),
                           textcoords="offset points", va="bottom", fontsize=7)
        colors = kind_colors(table)
        handles = [Patch(color=color, label=kind) for kind, color in colors.items()]
        if any(flag_kind(f) == "" for f in table["flags"]):
            handles.append(Patch(color=PLAIN_COLOR, label="no flag"))
        if handles:
            fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 5),
                       title="kind of flag (a suite with several: its first)")
        fig.suptitle(f"Suite catalogue generated {generated}: cases and runs per suite")
    return fig
