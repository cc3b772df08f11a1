"""Notebook 06: the suite catalogue, its size per suite, and the flags a curator attached.

The flags are read from the catalogue file, each with the verbatim words of the suite's own
caveat or method that support it (checked when the file loads, see
:mod:`recallscore_nb.catalogue`); nothing is inferred from prose here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..catalogue import (
    DEFAULT_CATALOGUE,
    catalogue_signature,
    flags_frame,
    load_catalogue,
    suites_frame,
)
from ..errors import UsageError
from ..session import Session, relative_to_repo
from ..session import start as _start

__all__ = ["STEM", "start", "source_table", "suites_table", "suites_figure", "flags_table",
           "plot_suite_bars"]

STEM = "06_suite_catalogue"
FLAGGED_COLOR, PLAIN_COLOR = "C3", "C0"


def start(namespace: dict) -> Session:
    """Validate the parameters and the catalogue (so every output lists it); the session signs
    its outputs with the flag vocabulary."""
    nb = _start(STEM, namespace)
    if nb.parameters["catalogue_path"] and not Path(str(nb.parameters["catalogue_path"])).is_file():
        raise UsageError(f"catalogue_path: no such file: {nb.parameters['catalogue_path']}")
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


def plot_suite_bars(ax, table: pd.DataFrame, column: str, *, log: bool = False):
    """Horizontal bars of ``table[column]``, first suite on top, flagged suites in red.

    ``table`` has ``id``, ``flags`` and ``column``; each bar is labelled with its value.
    Returns the bar container.
    """
    values = table[column].to_numpy(dtype=float)
    y = np.arange(len(table))[::-1]
    flagged = (table["flags"] != "").to_numpy()
    colors = np.where(flagged, FLAGGED_COLOR, PLAIN_COLOR).tolist()
    bars = ax.barh(y, values, color=colors, height=0.7)
    if log:
        ax.set_xscale("log")
        ax.set_xlim(0.8, values.max() * 3)
    else:
        ax.set_xlim(0, values.max() * 1.25)
    for yi, value in zip(y, values):
        ax.annotate(f"{value:g}", (value, yi), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=7)
    ax.set_yticks(y, table["id"].tolist())
    for label, is_flagged in zip(ax.get_yticklabels(), flagged):
        label.set_color(FLAGGED_COLOR if is_flagged else "black")
    return bars


def suites_figure(nb: Session):
    """Cases (log scale) and runs per suite; flagged suites in red, their flags named."""
    from matplotlib.patches import Patch

    from ..figures import figure

    catalogue, table = _catalogue(nb), _suites(nb)
    fig, (left, right) = figure(1, 2, figsize=(8.0, 5.0), sharey=True, layout="constrained")
    plot_suite_bars(left, table, "cases", log=True)
    plot_suite_bars(right, table, "runs")
    left.set_xlabel("cases (log scale)")
    right.set_xlabel("runs")
    y = np.arange(len(table))[::-1]
    column = float(table["runs"].max()) * 1.2  # the flags, aligned right of the longest bar
    for yi, text in zip(y, table["flags"]):
        if text:
            right.text(column, yi, text, va="center", fontsize=7, color=FLAGGED_COLOR)
    right.set_xlim(0, column * 1.9)
    left.legend(handles=[Patch(color=FLAGGED_COLOR, label="flagged"),
                         Patch(color=PLAIN_COLOR, label="no flag")], loc="lower right")
    fig.suptitle(f"Suite catalogue generated {catalogue.generated}: cases and runs per suite")
    return nb.figure("suites", fig)
