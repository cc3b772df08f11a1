"""Notebook 06: the suite catalogue, its size per suite, and the flags a curator attached.

The flags are read from the catalogue file, each with the verbatim words of the suite's own
caveat or method that support it (checked when the file loads, see
:mod:`recallscore_nb.io.catalogue`); nothing is inferred from prose here. A grader bug's fix
date is a field of its flag: given a results file (``results_path``), the results of a suite
dated before its fix are excluded, and counted.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.catalogue import (
    catalogue_signature,
    exclude_before_fix,
    fixes_frame,
    flags_frame,
    suites_frame,
)
from ...render import plots
from ..session import Session, relative_to_repo, start as _start

__all__ = ["STEM", "start", "source", "suites", "suites_figure", "flags", "fixes", "numbers"]

STEM = "06_suite_catalogue"


def start(namespace: dict) -> Session:
    """Validate the parameters and read the catalogue (so every output lists it); the session
    signs its outputs with the flag vocabulary."""
    nb = _start(STEM, namespace)  # every *_path parameter names a file (made absolute)
    nb.sign(catalogue_signature())
    nb.catalogue  # read and checked now: the session lists it before any output
    return nb


def source(nb: Session) -> pd.DataFrame:
    """Where the catalogue comes from: the file, its ``generated`` date, and its totals."""
    table = suites_frame(nb.catalogue)
    return pd.DataFrame({
        "catalogue": [relative_to_repo(nb.catalogue.path)],
        "generated": [nb.catalogue.generated],
        "suites": [len(table)],
        "flagged": [int((table["flags"] != "").sum())],
        "cases": [int(table["cases"].sum())],
        "runs": [int(table["runs"].sum())],
    })


def suites(nb: Session) -> pd.DataFrame:
    """Every suite: what it asks, how it is graded, its size, its caveat and its flags."""
    return suites_frame(nb.catalogue)


def suites_figure(nb: Session, suites: pd.DataFrame):
    """Cases (points on a log scale) and runs (bars) per suite; flagged suites in red, their
    flags named in a column right of the runs."""
    return plots.suites_figure(suites, nb.catalogue.generated)


def flags(nb: Session) -> pd.DataFrame:
    """Every flag with the verbatim evidence from the suite's caveat or method."""
    return flags_frame(nb.catalogue)


def fixes(nb: Session) -> pd.DataFrame:
    """Every grader bug with the date it was fixed (``fixed``, ISO ``YYYY-MM-DD``) and, when
    ``results_path`` names a results file, how many of that suite's results it holds and how
    many are excluded for being dated before the fix (empty without one)."""
    table = fixes_frame(nb.catalogue)
    path = nb.params.results_path
    if not path:
        return table.assign(results="", excluded="")
    from ...io.catalogue import load_results

    results = load_results(nb.read_input(path))
    _, excluded = exclude_before_fix(results, nb.catalogue)
    counts = results["suite"].value_counts()
    dropped = excluded["suite"].value_counts()
    return table.assign(
        results=[int(counts.get(suite, 0)) for suite in table["suite"]],
        excluded=[int(dropped.get(suite, 0)) for suite in table["suite"]])


def numbers(source: pd.DataFrame) -> dict[str, object]:
    """The catalogue's date, its suites and how many are flagged, from its source table.

    >>> numbers(pd.DataFrame({"generated": ["2026-01-02"], "suites": [3], "flagged": [1]}))
    {'CatalogueGenerated': '2026-01-02', 'CatalogueSuites': 3, 'CatalogueFlagged': 1}
    """
    row = source.iloc[0]
    return {"CatalogueGenerated": str(row["generated"]), "CatalogueSuites": int(row["suites"]),
            "CatalogueFlagged": int(row["flagged"])}
