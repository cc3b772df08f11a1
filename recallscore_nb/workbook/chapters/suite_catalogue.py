"""Notebook 06: the suite catalogue, its size per suite, and the flags a curator attached.

The flags are read from the catalogue file, each with the verbatim words of the suite's own
caveat or method that support it (checked when the file loads, see
:mod:`recallscore_nb.io.catalogue`); nothing is inferred from prose here.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.catalogue import catalogue_signature, flags_frame, suites_frame
from ...io.catalogue import load_catalogue
from ...io.data import DEFAULT_CATALOGUE
from ...render import plots
from ..session import Session, relative_to_repo, start as _start

__all__ = ["STEM", "start", "source_table", "suites_table", "suites_figure", "flags_table"]

STEM = "06_suite_catalogue"


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


def suites_figure(nb: Session):
    """Cases (points on a log scale) and runs (bars) per suite; flagged suites in red, their
    flags named in a column right of the runs."""
    return nb.figure("suites", plots.suites_figure(_suites(nb), _catalogue(nb).generated))
