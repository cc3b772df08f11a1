"""The suite catalogue: evaluation suites and the flags a curator attached to them.

A catalogue file (``data/catalogue/suites.json`` ships one) holds ``generated`` (a date)
and ``suites``, each with ``id, title, version, question, method, grading, caveat, cases,
runs`` and ``flags``: a list, empty when the suite has none, of
``{"flag": ..., "evidence": ..., "suite": ...}``. A flag is a reader's judgement recorded as
data, never inferred from prose when the notebook runs; its ``evidence`` is a verbatim
substring of the suite's own ``caveat`` or ``method``, which the loader checks. The flags:

``saturated``
    The top of the field can no longer be told apart (scores at the ceiling).
``superseded``
    Another suite, named in ``suite``, now does this suite's job.
``paired``
    To be read together with another suite, named in ``suite``.
``void``
    Some results are invalid under a condition the suite's text states (a server, a date,
    a vacuous pass); the evidence says which.

:func:`load_catalogue` reads and checks a file (bytes, JSON Schema
``data/schemas/catalogue.schema.json`` and, beside it, what a schema cannot say, on every part
whose type is right); the frame builders after it are pure.

>>> catalogue = load_catalogue()
>>> catalogue.generated, len(catalogue.suites)
('2026-09-09', 15)
>>> flags_frame(catalogue).loc[0, ["suite", "flag"]].tolist()
['screening', 'saturated']
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .._version import __version__
from ..core.errors import CatalogueFormatError, InputFileError
from .jsondocs import parse_object, read_document, render, schema_problems, split_path, validator
from .data import DEFAULT_CATALOGUE
from .files import sha256

__all__ = [
    "FLAGS",
    "Flag",
    "Suite",
    "Catalogue",
    "load_catalogue",
    "suites_frame",
    "flags_frame",
    "catalogue_signature",
]

FLAGS: dict[str, str] = {
    "saturated": "the top of the field can no longer be told apart",
    "superseded": "another suite now does this suite's job",
    "paired": "to be read together with another suite",
    "void": "some results are invalid under a stated condition",
}
"""The allowed flags and what each means (see the module docstring)."""
NAMES_A_SUITE = ("paired", "superseded")
"""The flags that name another suite in ``suite``; the others must not."""
_EVIDENCE_FIELDS = ("caveat", "method")


@dataclass(frozen=True)
class Flag:
    """One curated flag: its name, the verbatim evidence, and the other suite it names."""

    flag: str
    evidence: str
    suite: str | None = None


@dataclass(frozen=True)
class Suite:
    """One suite of the catalogue; ``extra`` keeps the fields this module does not use."""

    id: str
    title: str
    version: str
    question: str
    method: str
    grading: str
    caveat: str
    cases: int
    runs: int
    flags: tuple[Flag, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Catalogue:
    """A validated catalogue: ``path`` as the caller named it, ``sha256`` of its bytes."""

    path: str
    sha256: str
    generated: str
    suites: tuple[Suite, ...]


def catalogue_signature() -> str:
    """The flag vocabulary and evidence rule the catalogue's flags were checked against.

    >>> catalogue_signature().split("|")  # doctest: +ELLIPSIS
    ['catalogue', 'flags:saturated+superseded+paired+void',
     'evidence:verbatim-caveat-or-method', 'version:...']
    """
    fields = [("flags", "+".join(FLAGS)), ("evidence", "verbatim-" + "-or-".join(_EVIDENCE_FIELDS))]
    return "|".join(["catalogue"] + [f"{k}:{v}" for k, v in fields] + [f"version:{__version__}"])


def load_catalogue(path: str | os.PathLike[str] | None = None) -> Catalogue:
    """Read and check a catalogue file.

    Parameters
    ----------
    path : str or path-like, optional
        The file to read; the shipped catalogue when omitted.

    Returns
    -------
    Catalogue

    Raises
    ------
    CatalogueFormatError
        The first problem found (``errors`` holds all of them), naming the file, the JSON
        path, the suite id and the field. A problem with the bytes (not UTF-8 JSON data, see
        :mod:`recallscore_nb.io.jsondocs`) stops the checks; the others are all collected.

    Examples
    --------
    >>> [f.flag for f in load_catalogue().suites[1].flags]
    ['saturated']
    """
    name = os.fspath(DEFAULT_CATALOGUE if path is None else path)
    content = read_document(name, CatalogueFormatError)
    data = parse_object(name, content, CatalogueFormatError, _suite_id)
    errors = _schema_errors(name, data) + _id_errors(name, data) + _flag_errors(name, data)
    if errors:
        raise InputFileError.first_of(errors)
    return Catalogue(name, sha256(content), data["generated"],
                     tuple(_suite(s) for s in data["suites"]))


# --- the frames ----------------------------------------------------------------------------
def _flag_text(flag: Flag) -> str:
    if flag.flag == "paired":
        return f"paired with {flag.suite}"
    if flag.flag == "superseded":
        return f"superseded by {flag.suite}"
    return flag.flag


def suites_frame(catalogue: Catalogue) -> pd.DataFrame:
    """One row per suite: ``id, version, question, grading, cases, runs, caveat, flags,
    read_with`` (``flags`` the suite's own, ``read_with`` its pairings from either side).

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
    """One row per flag: ``suite, flag, other, evidence`` (``other`` empty unless the flag
    names a suite), in catalogue order.

    >>> frame = flags_frame(load_catalogue())
    >>> frame.query("flag == 'superseded'")[["suite", "other"]].values.tolist()
    [['tools', 'toolscale']]
    """
    rows = [(s.id, f.flag, f.suite or "", f.evidence) for s in catalogue.suites for f in s.flags]
    return pd.DataFrame(rows, columns=["suite", "flag", "other", "evidence"]).astype(object)


# --- stages 1 and 2: bytes, JSON, the JSON Schema ------------------------------------------
def _schema_errors(name: str, data: dict[str, Any]) -> list[InputFileError]:
    return [
        CatalogueFormatError(name, *split_path(parts), expected=expected, got=got,
                             row_id=_suite_id(data, parts))
        for parts, expected, got in schema_problems(validator("catalogue.schema.json"), data)
    ]


# --- stage 3: what the schema cannot say -----------------------------------------------------
# Each check reads only the parts whose type is right; the JSON Schema names the others.
def _suites(data: dict[str, Any]) -> list[tuple[int, dict[str, Any], str | None]]:
    """(index, suite, its id when a non-empty string) of every suite that is an object."""
    suites = data.get("suites")
    return [(i, suite, _suite_id(data, ("suites", i)))
            for i, suite in enumerate(suites if isinstance(suites, list) else ())
            if isinstance(suite, dict)]


def _id_errors(name: str, data: dict[str, Any]) -> list[InputFileError]:
    first_use: dict[str, str] = {}
    errors = []
    for i, suite, sid in _suites(data):
        where = f"$.suites[{i}]"
        if sid is not None and sid in first_use:
            errors.append(CatalogueFormatError(
                name, where, "id", expected="a unique id", row_id=sid,
                got=f"{render(sid)}, a duplicate (already the id of {first_use[sid]})"))
        if sid is not None:
            first_use.setdefault(sid, where)
    return errors


def _flag_errors(name: str, data: dict[str, Any]) -> list[InputFileError]:
    suites = _suites(data)
    ids = {sid for _, _, sid in suites if sid is not None}
    errors = []
    for i, suite, sid in suites:
        seen = set()
        flags = suite.get("flags")
        for k, flag in enumerate(flags if isinstance(flags, list) else ()):
            where = f"$.suites[{i}].flags[{k}]"
            if not (isinstance(flag, dict) and flag.get("flag") in FLAGS
                    and isinstance(flag.get("evidence"), str)):
                continue

            def error(field_name, expected, got):
                errors.append(CatalogueFormatError(name, where, field_name, expected=expected,
                                                   got=got, row_id=sid))

            if flag["flag"] in seen:
                error("flag", "a flag not already given to this suite", render(flag["flag"]))
            seen.add(flag["flag"])
            texts = [suite.get(f) for f in _EVIDENCE_FIELDS]
            if all(isinstance(text, str) for text in texts) and \
                    not any(flag["evidence"] in text for text in texts):
                error("evidence", "a verbatim substring of the suite's caveat or method",
                      render(flag["evidence"]))
            other = flag.get("suite")
            if flag["flag"] in NAMES_A_SUITE:
                if other is None:
                    error("suite", f"the id of the other suite (a {flag['flag']} flag names one)",
                          "nothing")
                elif isinstance(other, str) and (other not in ids or other == sid):
                    error("suite", "the id of another suite in the catalogue", render(other))
            elif other is not None:
                error("suite", f"nothing (only {' and '.join(NAMES_A_SUITE)} flags name a suite)",
                      render(other))
    return errors


# --- building and locations ------------------------------------------------------------------
_SUITE_FIELDS = ("id", "title", "version", "question", "method", "grading", "caveat", "cases",
                 "runs", "flags")


def _suite(data: dict[str, Any]) -> Suite:
    flags = tuple(Flag(f["flag"], f["evidence"], f.get("suite")) for f in data["flags"])
    fields = {key: data[key] for key in _SUITE_FIELDS if key != "flags"}
    return Suite(**fields, flags=flags,
                 extra={k: v for k, v in data.items() if k not in _SUITE_FIELDS})


def _suite_id(data: Any, parts) -> str | None:
    """The id of the suite a path lies in, when it has a non-empty string id."""
    if len(parts) < 2 or parts[0] != "suites" or not isinstance(parts[1], int):
        return None
    suites = data.get("suites") if isinstance(data, dict) else None
    suite = suites[parts[1]] if isinstance(suites, list) and parts[1] < len(suites) else None
    sid = suite.get("id") if isinstance(suite, dict) else None
    return sid if isinstance(sid, str) and sid else None


