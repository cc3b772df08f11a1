"""A report as text, and writing it: sorted keys, two-space indent, floats as ``repr``.

:class:`Report` is a built report as a value: its document and, for an ok report, where its
attempts' text comes from. Everything here renders values it is given and computes no score
(building and scoring a report are :mod:`recallscore_nb.execution.reports`' job). The text is what ``json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False)``
writes, built without the JSON module's slow indenting encoder: an ok report's attempts are
made a chunk at a time from columns (:func:`attempt_texts`), each distinct fact basis
rendered once, and joined into the document by :func:`render_report`. :func:`write_report`
writes a report atomically, a piece at a time, its header checked against the report schema
first; an error report never replaces an existing file (:func:`error_path`).
"""

from __future__ import annotations

import itertools
import json
import json.encoder
import math
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...core.errors import InputFileError
from ..output_sets import file_set
from ..jsondocs import plain
from .schema import validate_report

__all__ = ["Report", "attempt_texts", "render_report", "report_json", "error_path",
           "write_report"]

_STRING = json.encoder.encode_basestring  # json.dumps(text, ensure_ascii=False)

_P4, _P6, _P8, _P10 = " " * 4, " " * 6, " " * 8, " " * 10


@dataclass(frozen=True)
class Report:
    """A built report (:func:`recallscore_nb.execution.reports.build_report`).

    ``document`` is the whole report but an ok report's ``attempts``, whose text comes from
    ``attempts`` (a function giving chunks of attempt texts, as :func:`attempt_texts` makes
    them) when the report is written or compared (:meth:`attempt_chunks`); ``error`` is, for
    an error report, the first error (carrying all of them in ``errors``) to show on the
    command line.

    >>> print(Report({"status": "ok"}, attempts=lambda: iter([['    "a"']])).text(), end="")
    {
      "attempts": [
        "a"
      ],
      "status": "ok"
    }
    """

    document: dict
    error: InputFileError | None = None
    attempts: Callable[[], Iterator[list[str]]] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def attempt_chunks(self) -> Iterator[list[str]]:
        """An ok report's attempts as JSON text, one string per attempt indented as in the
        report, a chunk of attempts at a time (nothing for an error report)."""
        if self.attempts is not None:
            yield from self.attempts()

    def pieces(self) -> Iterator[str]:
        """The report's text, piece by piece (:func:`render_report`)."""
        return render_report(self.document, self.attempt_chunks() if self.ok else None)

    def text(self) -> str:
        """The report's whole text (a large report is better written from :meth:`pieces`)."""
        return "".join(self.pieces())


def attempt_texts(scores: pd.DataFrame, statuses: pd.DataFrame, names: list[str]) -> list[str]:
    """Each attempt of ``scores`` as the report's JSON text (an element of its ``attempts``
    array), given its fact ``statuses`` (rows as ``scores``', from 0: each fact's
    ``status_<name>`` and ``basis_<name>``, and ``weighted_score``) and the fact ``names`` in
    order: the columns are turned into text one at a time, each fact's status and basis once
    per distinct basis, then joined row by row. With an items file, a row's facts are its
    item's, and a value that does not apply (no checklist) is null. Computes nothing: a value
    out of its range is a bug in the scorer, and raises."""
    from ...core.rules import measure

    scores = scores.reset_index(drop=True)
    n = len(scores)
    items_mode = "item" in scores.columns
    facts = [_fact_texts(name, statuses[f"basis_{name}"].to_numpy(dtype=object),
                         statuses[f"status_{name}"].to_numpy(dtype=object)) for name in names]
    closing = f"\n{_P6}}}"
    parts: list = [f"{_P4}{{\n{_P6}\"facts\": ",
                   ["{\n" + ",\n".join(row) + closing if row else "{}"
                    for row in ([t for t in texts if t is not None] for texts in zip(*facts))]
                   if facts else ["{}"] * n]
    parts.append(f",\n{_P6}\"id\": ")
    parts.append(list(map(_STRING, scores["id"].astype(str).tolist())))
    if items_mode:
        parts.append(f",\n{_P6}\"item\": ")
        parts.append(list(map(_STRING, scores["item"].astype(str).tolist())))
    parts.append(f",\n{_P6}\"rules\": {{\n")
    rules = sorted(c for c in scores.columns if c not in ("id", "item", "attempt"))
    for k, rule in enumerate(rules):
        key = (",\n" if k else "") + f"{_P8}{_STRING(rule)}: "
        missing = scores[rule].isna().to_numpy()
        if missing.any() and not items_mode:
            raise ValueError(f"a missing {measure(rule).label}: a bug in the scorer")
        if not measure(rule).binary:
            values = scores[rule].to_numpy(dtype=np.float64, na_value=0.0)
            if not ((values >= 0) & (values <= 1)).all():  # NaN fails too
                raise ValueError(f"a {measure(rule).label} outside [0, 1]: a bug in the scorer")
            texts = [key + float.__repr__(v) for v in values.tolist()]
        else:
            flags = scores[rule].to_numpy(dtype=bool, na_value=False).astype(np.intp)
            texts = np.array([key + "false", key + "true"], dtype=object)[flags].tolist()
        for row in np.flatnonzero(missing).tolist():
            texts[row] = key + "null"
        parts.append(texts)
    weighted = statuses["weighted_score"].to_numpy(dtype=np.float64)
    finite = np.isfinite(weighted)
    if not (finite | (np.isnan(weighted) & items_mode)).all():
        raise ValueError("a weighted score that is not finite: a bug in the scorer")
    parts.append(f"\n{_P6}}},\n{_P6}\"weighted_score\": ")
    parts.append([float.__repr__(v) if ok else "null"
                  for v, ok in zip(weighted.tolist(), finite.tolist())])
    parts.append(f"\n{_P4}}}")
    columns = [itertools.repeat(p, n) if isinstance(p, str) else p for p in parts]
    return list(map("".join, zip(*columns)))


def _fact_texts(name: str, bases: np.ndarray, statuses: np.ndarray) -> list[str]:
    """``"<name>": {"basis": …, "status": …}`` for each attempt, each distinct basis
    rendered once (attempts with the same text share one basis object)."""
    from ...core.status import STATUSES

    key = f"{_P8}{_STRING(name)}: {{\n{_P10}\"basis\": "
    rendered: dict[tuple[int, str], str] = {}
    out = []
    for basis, status in zip(bases.tolist(), statuses.tolist()):
        if status is None or status is pd.NA:  # a fact of another item
            out.append(None)
            continue
        text = rendered.get((id(basis), status))
        if text is None:
            if status not in STATUSES:
                raise ValueError(f"an unknown fact status {status!r}: a bug in the scorer")
            text = (f"{key}{_basis_text(basis, _P10)},\n{_P10}\"status\": {_STRING(status)}"
                    f"\n{_P8}}}")
            rendered[(id(basis), status)] = text
        out.append(text)
    return out


_BASIS_KEYS = frozenset({"conflict", "conversions", "cue", "matched", "note", "spans", "status",
                         "terms"})


def _basis_text(basis: Any, pad: str) -> str:
    """:func:`_pretty` for a basis as :func:`recallscore_nb.core.status.fact_status` builds it,
    filled into its layout (several times quicker); any other value goes to :func:`_pretty`.

    >>> basis = {"status": "negated", "matched": "required", "terms": ["west", "drawer"],
    ...          "spans": [[24, 28], [29, 35]], "cue": {"token": "not", "span": [16, 19]},
    ...          "conversions": [], "conflict": None, "note": None}
    >>> _basis_text(basis, "  ") == _pretty(basis, "  ")
    True
    """
    if type(basis) is not dict or basis.keys() != _BASIS_KEYS:
        return _pretty(basis, pad)
    p1 = pad + "  "
    p2 = p1 + "  "
    p3 = p2 + "  "
    spans = basis["spans"]
    if type(spans) is not list:
        return _pretty(basis, pad)
    pairs = []
    for span in spans:
        if type(span) is not list or len(span) != 2:
            return _pretty(basis, pad)
        a, b = span
        if type(a) is not int or type(b) is not int:
            return _pretty(basis, pad)
        pairs.append(f"{p2}[\n{p3}{a},\n{p3}{b}\n{p2}]")
    try:  # encode_basestring refuses anything but a string
        conversions, terms = (
            ("[\n" + ",\n".join([p2 + _STRING(x) for x in t]) + f"\n{p1}]" if t else "[]")
            if type(t) is list else _pretty(t, p1)
            for t in (basis["conversions"], basis["terms"]))
        matched, note = ("null" if v is None else _STRING(v)
                         for v in (basis["matched"], basis["note"]))
        status = _STRING(basis["status"])
    except TypeError:
        return _pretty(basis, pad)
    spans_text = "[\n" + ",\n".join(pairs) + f"\n{p1}]" if pairs else "[]"
    return (f"{{\n{p1}\"conflict\": {_pretty(basis['conflict'], p1)},"
            f"\n{p1}\"conversions\": {conversions},\n{p1}\"cue\": {_pretty(basis['cue'], p1)},"
            f"\n{p1}\"matched\": {matched},\n{p1}\"note\": {note},\n{p1}\"spans\": {spans_text},"
            f"\n{p1}\"status\": {status},\n{p1}\"terms\": {terms}\n{pad}}}")


def _pretty(value: Any, pad: str) -> str:
    """``value`` as ``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False,
    allow_nan=False)`` writes it where the line holding its start is indented by ``pad``
    (the JSON module's indenting encoder is pure Python, and slower than this).

    >>> value = {"b": [1, [2, 3]], "a": {"x": None, "y": 0.5, "z": "é"}, "c": [], "d": {}}
    >>> _pretty(value, "  ") == json.dumps(value, sort_keys=True, indent=2,
    ...                                    ensure_ascii=False).replace("\\n", "\\n  ")
    True
    """
    kind = type(value)
    if kind is str:
        return _STRING(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if not math.isfinite(value):
            raise ValueError(f"{value!r} in a report: a bug in the scorer")
        return float.__repr__(value)
    inner = pad + "  "
    if kind is dict and all(type(k) is str for k in value):
        if not value:
            return "{}"
        items = [f"{inner}{_STRING(k)}: {_pretty(v, inner)}" for k, v in sorted(value.items())]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + _pretty(v, inner) for v in value) + "\n" + pad + "]"
    # numpy scalars, pandas missing values, other mappings: as the JSON module writes them
    text = json.dumps(plain(value), sort_keys=True, indent=2, ensure_ascii=False,
                      allow_nan=False)
    return text.replace("\n", "\n" + pad)


def report_json(document: dict) -> str:
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)


def render_report(document: dict, attempts: Iterable[list[str]] | None = None) -> Iterator[str]:
    """The report's text, in pieces: sorted keys, indent 2, floats as ``repr``, a trailing
    newline. With ``attempts`` (chunks of attempt texts, as :meth:`Report.attempt_chunks`
    gives them), they are the document's ``attempts`` array.

    >>> print("".join(render_report({"status": "ok", "b": [0.1, 1.0]})), end="")
    {
      "b": [
        0.1,
        1.0
      ],
      "status": "ok"
    }
    >>> print("".join(render_report({"status": "ok"}, [['    "x"'], ['    "y"']])), end="")
    {
      "attempts": [
        "x",
        "y"
      ],
      "status": "ok"
    }
    """
    if attempts is None:
        yield report_json(document) + "\n"
        return
    text = report_json({**document, "attempts": []})
    # a raw line break never occurs inside a JSON string: this is the top-level key
    at = text.index('\n  "attempts": [') + len('\n  "attempts": [')
    yield text[:at]
    first = True
    for chunk in attempts:
        if chunk:
            yield ("\n" if first else ",\n") + ",\n".join(chunk)
            first = False
    if not first:
        yield "\n  "
    yield text[at:] + "\n"


def error_path(out: str | os.PathLike[str]) -> Path:
    """Where an error report goes when ``out`` exists: ``<stem>.error.json`` beside it.

    >>> error_path("reports/run.report.json").as_posix()
    'reports/run.report.error.json'
    """
    out = Path(out)
    return out.with_name(f"{out.stem}.error.json")


def write_report(report: Report, out: str | os.PathLike[str]) -> Path:
    """Write ``report`` atomically, a piece at a time; return the path written.

    The header (everything but the attempts) is checked against the report schema first;
    the attempts are valid by construction. An error report never replaces an existing
    file: it goes to :func:`error_path` instead.
    """
    validate_report({**report.document, "attempts": []} if report.ok else report.document)
    target = Path(out)
    if not report.ok and target.exists():
        target = error_path(target)

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as file:
            for piece in report.pieces():
                file.write(piece)

    with file_set(target) as outputs:  # locked, and published whole or not at all
        outputs.write(outputs.members[0], write)
    return target
