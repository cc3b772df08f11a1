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
whose type is right) into a :class:`~recallscore_nb.core.catalogue.Catalogue`; its frames
are :mod:`recallscore_nb.analysis.catalogue`'s.

>>> catalogue = load_catalogue()
>>> catalogue.generated, len(catalogue.suites)
('2026-09-09', 15)
"""

from __future__ import annotations

import os
from typing import Any

from ..core.catalogue import EVIDENCE_FIELDS, FLAGS, NAMES_A_SUITE, Catalogue, Flag, Suite
from ..core.errors import CatalogueFormatError, InputFileError
from .data import DEFAULT_CATALOGUE
from .files import sha256
from .jsondocs import parse_object, read_document, render, schema_problems, split_path, validator

__all__ = ["load_catalogue"]


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


