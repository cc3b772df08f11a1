"""The suite catalogue's frames: one row per suite, one row per flag, and the signature of the
flag vocabulary they were checked against. Pure: takes a
:class:`~recallscore_nb.core.catalogue.Catalogue` (read by
:func:`recallscore_nb.io.catalogue.load_catalogue`), returns DataFrames.

>>> from recallscore_nb.io.catalogue import load_catalogue
>>> flags_frame(load_catalogue()).loc[0, ["suite", "flag"]].tolist()
['synthesis', 'floor']
"""

from __future__ import annotations

import pandas as pd

from .._version import __version__
from ..core.catalogue import EVIDENCE_FIELDS, FLAGS, Catalogue, Flag

__all__ = ["suites_frame", "flags_frame", "fixes_frame", "exclude_before_fix",
           "catalogue_signature", "catalogue_source", "grader_fixes"]


def catalogue_signature() -> str:
    """The flag vocabulary and evidence rule the catalogue's flags were checked against.

    >>> catalogue_signature().split("|")  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    ['catalogue', 'flags:saturated+superseded+paired+void+floor+ceiling+small-n+confound+unchecked-gold+grader-bug',
     'evidence:verbatim-caveat-or-method', 'version:...']
    """
    fields = [("flags", "+".join(FLAGS)), ("evidence", "verbatim-" + "-or-".join(EVIDENCE_FIELDS))]
    return "|".join(["catalogue"] + [f"{k}:{v}" for k, v in fields] + [f"version:{__version__}"])


def _flag_text(flag: Flag) -> str:
    if flag.flag == "paired":
        return f"paired with {flag.suite}"
    if flag.flag == "superseded":
        return f"superseded by {flag.suite}"
    if flag.fixed:
        return f"{flag.flag} (fixed {flag.fixed})"
    return flag.flag


def suites_frame(catalogue: Catalogue) -> pd.DataFrame:
    """One row per suite: ``id, version, question, grading, cases, runs, caveat, flags,
    read_with`` (``flags`` the suite's own, ``read_with`` its pairings from either side).

    >>> from recallscore_nb.io.catalogue import load_catalogue
    >>> frame = suites_frame(load_catalogue()).set_index("id")
    >>> frame.loc["tagger_nullable", "flags"], frame.loc["tagger", "read_with"]
    ('paired with tagger', 'tagger_nullable')
    """
    suites = catalogue.suites
    partners = {s.id: [] for s in suites}
    for s in suites:
        for f in s.flags:
            if f.flag == "paired":
                partners[s.id].append(f.suite)
                partners[f.suite].append(s.id)
    return pd.DataFrame({
        "id": [s.id for s in suites],
        "version": [s.version for s in suites],
        "question": [s.question for s in suites],
        "grading": [s.grading for s in suites],
        "cases": pd.array([s.cases for s in suites], dtype="int64"),
        "runs": pd.array([s.runs for s in suites], dtype="int64"),
        "caveat": [s.caveat for s in suites],
        "flags": ["; ".join(_flag_text(f) for f in s.flags) for s in suites],
        "read_with": [", ".join(sorted(set(partners[s.id]))) for s in suites],
    })


def flags_frame(catalogue: Catalogue) -> pd.DataFrame:
    """One row per flag: ``suite, flag, other, fixed, evidence`` (``other`` empty unless the
    flag names a suite, ``fixed`` the ISO date a grader bug was fixed, else empty), in
    catalogue order.

    >>> from recallscore_nb.io.catalogue import load_catalogue
    >>> frame = flags_frame(load_catalogue())
    >>> frame.query("flag == 'superseded'")[["suite", "other"]].values.tolist()
    [['tools', 'toolscale']]
    """
    rows = [(s.id, f.flag, f.suite or "", f.fixed or "", f.evidence)
            for s in catalogue.suites for f in s.flags]
    return pd.DataFrame(rows, columns=["suite", "flag", "other", "fixed", "evidence"]
                        ).astype(object)


def fixes_frame(catalogue: Catalogue) -> pd.DataFrame:
    """One row per dated flag (a grader bug): ``suite, flag, fixed`` (ISO ``YYYY-MM-DD``).

    >>> from recallscore_nb.io.catalogue import load_catalogue
    >>> fixes_frame(load_catalogue()).values.tolist()
    [['contract', 'grader-bug', '2026-09-09']]
    """
    rows = [(s.id, f.flag, f.fixed) for s in catalogue.suites for f in s.flags if f.fixed]
    return pd.DataFrame(rows, columns=["suite", "flag", "fixed"]).astype(object)


def exclude_before_fix(results: pd.DataFrame, catalogue: Catalogue
                       ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split results (``suite`` and ISO ``date`` columns) into those kept and those dated
    before their suite's grader-bug fix (the latest, when several), which gain a ``fixed``
    column. A result on the fix date is kept; a suite with no fix keeps every result.

    >>> from recallscore_nb.io.catalogue import load_catalogue
    >>> results = pd.DataFrame({"suite": ["contract", "contract"],
    ...                         "date": ["2026-09-01", "2026-09-09"]})
    >>> [len(part) for part in exclude_before_fix(results, load_catalogue())]
    [1, 1]
    """
    fixes = fixes_frame(catalogue).groupby("suite")["fixed"].max()
    fixed = results["suite"].map(fixes)
    before = (fixed.notna() & (results["date"] < fixed.fillna(""))).to_numpy(dtype=bool)
    excluded = results[before].assign(fixed=fixed[before])
    return results[~before], excluded


def catalogue_source(catalogue: Catalogue, *, path: str) -> pd.DataFrame:
    """Where the catalogue comes from: the file (``path``, as the caller shows it), the date
    its authors generated it, and its totals (suites, flagged suites, cases, runs).

    >>> from recallscore_nb.io.catalogue import load_catalogue
    >>> catalogue_source(load_catalogue(), path="suites.json").iloc[0].astype(str).tolist()
    ['suites.json', '2026-09-09', '15', '15', '1317', '184']
    """
    table = suites_frame(catalogue)
    return pd.DataFrame({
        "catalogue": [path],
        "generated": [catalogue.generated],
        "suites": [len(table)],
        "flagged": [int((table["flags"] != "").sum())],
        "cases": [int(table["cases"].sum())],
        "runs": [int(table["runs"].sum())],
    })


def grader_fixes(catalogue: Catalogue, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every grader bug with the date it was fixed (:func:`fixes_frame`) and, given results
    (``suite`` and ``date`` columns), how many of that suite's results they hold and how many
    are excluded for being dated before the fix (both empty without results)."""
    table = fixes_frame(catalogue)
    if results is None:
        return table.assign(results="", excluded="")
    _, excluded = exclude_before_fix(results, catalogue)
    counts = results["suite"].value_counts()
    dropped = excluded["suite"].value_counts()
    return table.assign(
        results=[int(counts.get(suite, 0)) for suite in table["suite"]],
        excluded=[int(dropped.get(suite, 0)) for suite in table["suite"]])
