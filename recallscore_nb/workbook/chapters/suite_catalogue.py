"""Notebook 06: the suite catalogue, its size per suite, and the flags a curator attached.

The flags are read from the catalogue file, each with the verbatim words of the suite's own
caveat or method that support it (checked when the file loads, see
:mod:`recallscore_nb.io.catalogue`); nothing is inferred from prose here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from ...io.catalogue import load_catalogue
from ...analysis.catalogue import catalogue_signature, flags_frame, suites_frame
from ...io.data import DEFAULT_CATALOGUE
from ..session import Session, relative_to_repo
from ..session import start as _start

__all__ = ["STEM", "start", "source_table", "suites_table", "suites_figure", "flags_table",
           "plot_suite_bars", "plot_suite_points"]

STEM = "06_suite_catalogue"
FLAGGED_COLOR, PLAIN_COLOR = "C3", "C0"


def start(namespace: dict) -> Session:
    """Validate the parameters and the catalogue (so every output lists it); the session signs
    its outputs with the flag vocabulary."""
    nb = _start(STEM, namespace)  # every *_path parameter names a file (made absolute)
    nb.sign(catalogue_signature())
    _catalogue(nb)
    return nb


def _catalogue(nb: Session):
    path = nb.parameters.get("catalogue_path") or DEFAULT_CATALOGUE
    return nb.memo("catalogue", lambda: load_catalogue(nb.read_input(path)))


def _suites(nb: Session) -> pd.DataFrame:
    return nb.memo("suites", lambda: suites_frame(_catalogue(nb)))


def source_table(nb: Session):
    """Where the catalogue comes from: the file, its ``generated`` date, and its totals."""
    catalogue, suites = _catalogue(nb), _suites(nb)
    flagged = int((suites["flags"] != "").sum())
    nb.number("CatalogueGenerated", catalogue.generated)
    nb.number("CatalogueSuites", len(suites))
    nb.number("CatalogueFlagged", flagged)
    table = pd.DataFrame({
        "catalogue": [relative_to_repo(catalogue.path)],
        "generated": [catalogue.generated],
        "suites": [len(suites)],
        "flagged": [flagged],
        "cases": [int(suites["cases"].sum())],
        "runs": [int(suites["runs"].sum())],
    })
    return nb.table("source", table)


def suites_table(nb: Session):
    """Every suite: what it asks, how it is graded, its size, its caveat and its flags."""
    return nb.table("suites", _suites(nb))


def flags_table(nb: Session):
    """Every flag with the verbatim evidence from the suite's caveat or method."""
    return nb.table("flags", flags_frame(_catalogue(nb)))


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


def suites_figure(nb: Session):
    """Cases (points on a log scale) and runs (bars) per suite; flagged suites in red, their
    flags named in a column right of the runs."""
    from matplotlib.patches import Patch

    from ...render.figures import FIGURE_WIDTH, figure

    catalogue, table = _catalogue(nb), _suites(nb)
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
    fig.suptitle(f"Suite catalogue generated {catalogue.generated}: cases and runs per suite")
    return nb.figure("suites", fig)
