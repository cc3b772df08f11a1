"""The suite catalogue: evaluation suites and the flags a curator attached to them.

A catalogue file (``data/catalogue/suites.json`` ships one) holds ``generated`` (a date)
and ``suites``, each with ``id, title, version, question, method, grading, caveat, cases,
runs`` and ``flags``: a list, empty when the suite has none, of
``{"flag": ..., "evidence": ..., "suite": ..., "fixed": ...}``. A flag is a reader's judgement recorded as
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
``floor``
    Every model scores at the bottom of the suite, or of one of its arms: it separates none.
``ceiling``
    A model can clear the whole suite; one that does says the suite ran out of room.
``small-n``
    Too few cases for a single run to be more than indicative.
``confound``
    The score moves with something other than what the suite asks (a runtime, a syntax).
``unchecked-gold``
    The gold answers have not been checked by a person.
``grader-bug``
    The grader was wrong until the date in ``fixed`` (``YYYY-MM-DD``, a date the suite's
    caveat or method states): results dated before it can be excluded
    (:func:`recallscore_nb.analysis.catalogue.exclude_before_fix`). Only this flag has
    ``fixed``.

A results file (:func:`load_results`) is CSV with a ``suite`` and a ``date`` column (ISO
``YYYY-MM-DD``) and any others, kept as text.

:func:`load_catalogue` reads and checks a file (bytes, JSON Schema
``data/schemas/catalogue.schema.json`` and, beside it, what a schema cannot say, on every part
whose type is right) into a :class:`~recallscore_nb.core.catalogue.Catalogue`; its frames
are :mod:`recallscore_nb.analysis.catalogue`'s.

>>> catalogue = load_catalogue()
>>> catalogue.generated, len(catalogue.suites)
('2026-09-09', 15)
"""

from __future__ import annotations

import os
from typing import Any

import datetime as dt
import io

import pandas as pd

from ..core.catalogue import (
    DATED_FLAGS,
    EVIDENCE_FIELDS,
    FLAGS,
    NAMES_A_SUITE,
    Catalogue,
    Flag,
    Suite,
)
from ..core.errors import CatalogueFormatError, InputFileError
from .data import DEFAULT_CATALOGUE
from .files import read_input, sha256
from .jsondocs import parse_object, read_document, render, schema_problems, split_path, validator

__all__ = ["load_catalogue", "load_results"]


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
            texts = [suite.get(f) for f in EVIDENCE_FIELDS]
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
            fixed = flag.get("fixed")
            if flag["flag"] in DATED_FLAGS:
                if fixed is None:
                    error("fixed", f"the date the bug was fixed, YYYY-MM-DD (a {flag['flag']} "
                          "flag carries one)", "nothing")
                elif isinstance(fixed, str) and _is_date(fixed):
                    if all(isinstance(text, str) for text in texts) and \
                            not any(fixed in text for text in texts):
                        error("fixed", "a date the suite's caveat or method states",
                              render(fixed))
            elif fixed is not None:
                error("fixed", f"nothing (only {' and '.join(DATED_FLAGS)} flags carry a date)",
                      render(fixed))
    return errors


def _is_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


# --- building and locations ------------------------------------------------------------------
_SUITE_FIELDS = ("id", "title", "version", "question", "method", "grading", "caveat", "cases",
                 "runs", "flags")


def _suite(data: dict[str, Any]) -> Suite:
    flags = tuple(Flag(f["flag"], f["evidence"], f.get("suite"), f.get("fixed"))
                  for f in data["flags"])
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




# --- results, to be read against the catalogue's fix dates ----------------------------------
def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results file: CSV with ``suite`` and ``date`` (``YYYY-MM-DD``) columns and any
    others, every value as text, rows in file order.

    Raises
    ------
    InputFileError
        Not a regular UTF-8 CSV file, a missing column, or a date that is not ``YYYY-MM-DD``
        (every such row named, by line).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "results.csv"
    >>> _ = p.write_text("suite,date,score\\ncontract,2026-09-01,0.5\\n")
    >>> load_results(p).values.tolist()
    [['contract', '2026-09-01', '0.5']]
    """
    name = os.fspath(path)
    content = read_input(name)
    try:
        frame = pd.read_csv(io.BytesIO(content), dtype=str, keep_default_na=False,
                            encoding="utf-8")
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as err:
        raise InputFileError(name, message=f"not a CSV results file ({err})") from None
    missing = [c for c in ("suite", "date") if c not in frame.columns]
    if missing:
        found = ", ".join(map(str, frame.columns)) or "none"
        raise InputFileError(name, "", missing[0],
                             message=f"missing column {missing[0]!r} (columns: {found})")
    bad = [i for i, text in enumerate(frame["date"].tolist()) if not _is_date(text)]
    if bad:
        raise InputFileError.first_of([
            InputFileError(name, f"line {i + 2}", "date", row_id=frame["suite"].iloc[i] or None,
                           expected="a date YYYY-MM-DD", got=repr(frame["date"].iloc[i]))
            for i in bad])
    return frame
