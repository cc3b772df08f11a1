"""Scored reports: every attempt's rule values and fact statuses, with the hash of every input,
and the check that a stored report still matches the scorer.

A report is one JSON document, described by ``data/schemas/report.schema.json``:

``status``
    ``"ok"``, or ``"error"`` when an input (benchmark, attempts or scoring schema) is invalid.
``scorer``
    ``version`` (the package's), ``squad_mode``, ``signatures``: every rule's, then the
    scoring schema's when it was read; and ``disagreement_note``, the scoring schema's
    ``disagreementNote`` verbatim (why its key is one defensible reading), when it was read.
``inputs``
    ``{role, path, sha256}`` for the benchmark (or the items file, role ``items``), the
    attempts (when given; required with an items file) and the scoring schema, in that order. Each ``path`` is relative to the report's folder (POSIX
    separators, as :func:`os.path.relpath` gives it), so a report moves with its inputs;
    ``sha256`` is null for a file that could not be read.
``attempts`` (ok only)
    For each attempt, in input order: ``id``; ``rules``, every rule's own value (by column,
    :func:`recallscore_nb.core.rules.verdict_columns`);
    ``facts``, each fact's ``status`` and ``basis`` (see
    :func:`recallscore_nb.core.status.fact_status`); ``weighted_score``. For an items file,
    also ``item``; ``facts`` are the item's own (none, and a null weighted score and
    checklist values, for an item without a checklist).
``totals`` (ok only)
    ``count``, ``mean_weighted_score`` (null for no attempts) and ``status_counts``: per fact,
    how many attempts have each status (zeros included).
``errors`` (error only)
    Every problem found, each ``{file, location, rowId, field, message}``: ``location`` is a
    JSON path (``$.rows[2]``) or a line; ``file`` is relative to the report's folder.
    An error report holds no score.

The text is deterministic: keys sorted, two-space indent, a trailing newline, floats as
Python's ``repr``, non-ASCII text as UTF-8 — what ``json.dumps(report, sort_keys=True,
indent=2, ensure_ascii=False)`` writes. Reports are written atomically; an error report
never replaces an existing file (it goes beside it as ``<stem>.error.json``).

Building a report (:func:`build_report`) is a computation on files that writes nothing: the
header and totals at once, the attempts' text when it is written, a chunk of attempts at a
time, so a report of millions of attempts never sits in memory whole. Its parts are valid
by construction; what is checked against the report schema on every run is the header
(the tests check whole reports against it). :func:`write_report` writes one;
:func:`check_report` recomputes a stored report from the inputs it names and lists each
value that differs, by JSON path. It reads a report's inputs only inside the report's folder
(or a folder the caller allows), and only regular files.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import json.encoder
import math
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._version import __version__
from ..core.errors import (
    AttemptsFormatError,
    InputChangedError,
    InputFileError,
    RecallScoreError,
    ReportFormatError,
    UpdateRefusedError,
    UsageError,
)
from ._jsonschema import Draft202012Validator
from .data import DATA_DIR, DEFAULT_BENCHMARK, SCHEMAS_DIR
from .files import atomic_write, read_input, require_regular_file, sha256
from .jsondocs import plain

__all__ = [
    "Report",
    "ROLES",
    "REPORT_SCHEMA",
    "build_report",
    "render_report",
    "validate_report",
    "write_report",
    "read_report",
    "differences",
    "check_report",
]

ROLES = ("benchmark", "items", "attempts", "schema")
"""The inputs a report names, in the order it lists them."""
REPORT_SCHEMA = SCHEMAS_DIR / "report.schema.json"

_ABSENT = object()
_RENDER_LIMIT = 80
_CHUNK_ROWS = 20_000
"""Attempts whose statuses, bases and text are built at a time."""
_STRING = json.encoder.encode_basestring  # json.dumps(text, ensure_ascii=False)


# --- building a report ---------------------------------------------------------------------
@dataclass(frozen=True)
class Report:
    """A report built from its inputs.

    ``document`` is the whole report but an ok report's ``attempts``, which are rendered from
    ``scored`` when the report is written or compared (:meth:`attempt_chunks`); ``error`` is,
    for an error report, the first error (carrying all of them in ``errors``) to show on the
    command line.
    """

    document: dict
    error: InputFileError | None = None
    scored: _Scored | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def attempt_chunks(self) -> Iterator[list[str]]:
        """An ok report's attempts as JSON text, one string per attempt indented as in the
        report, a chunk of attempts at a time (nothing for an error report)."""
        if self.scored is not None:
            yield from self.scored.chunks()

    def pieces(self) -> Iterator[str]:
        """The report's text, piece by piece (:func:`render_report`)."""
        return render_report(self.document, self.attempt_chunks() if self.ok else None)

    def text(self) -> str:
        """The report's whole text (a large report is better written from :meth:`pieces`)."""
        return "".join(self.pieces())


def _relative(path: str | os.PathLike[str], base_dir: str | os.PathLike[str]) -> str:
    """``path`` relative to ``base_dir``, with POSIX separators (absolute if on another drive)."""
    absolute = os.path.abspath(os.fspath(path))
    try:
        relative = os.path.relpath(absolute, os.path.abspath(os.fspath(base_dir)))
    except ValueError:  # another drive on Windows: no relative path exists
        relative = absolute
    return Path(relative).as_posix()


def _file_sha256(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 of a regular file; None when there is none to read (missing, unreadable,
    or not a regular file: a pipe or a device is never opened)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        return sha256(path)
    except OSError:
        return None


def _error_entries(error: InputFileError, base_dir) -> list[dict]:
    entries = []
    for each in error.errors:
        entry = dict(each.as_dict())
        if entry["file"] and not entry["file"].startswith("<"):
            entry["file"] = _relative(entry["file"], base_dir)
        entries.append(entry)
    return entries


def _read_attempts_file(path: str) -> pd.DataFrame:
    from .attempts import read_attempts

    try:
        return read_attempts(path)
    except UsageError as err:  # a file of no known format is an invalid input here
        message = str(err).removeprefix(f"{path}: ")
        raise AttemptsFormatError(path, message=message) from None


def build_report(benchmark_path=None, attempts_path=None, *, schema_path, base_dir,
                 squad_mode: str = "v1.1") -> Report:
    """Score a benchmark's rows (or an attempts file) with the rules and a scoring schema.

    Parameters
    ----------
    benchmark_path : str or path-like, optional
        The benchmark; the shipped one when None.
    attempts_path : str or path-like, optional
        A CSV, JSONL or Parquet attempts file; None scores the benchmark's own rows.
    schema_path : str or path-like
        The scoring schema (required: a report names every input it was scored with).
    base_dir : str or path-like
        The report's folder: input paths are recorded relative to it.
    squad_mode : {"v1.1", "v2.0"}
        Which official SQuAD script exact match and token F1 follow.

    Returns
    -------
    Report
        An ok report, or an error report when an input is invalid (nothing is raised for
        invalid input; ``Report.error`` holds it). Writes nothing; an ok report's rules,
        statuses and totals are computed here, its attempts' text when it is rendered.
    """
    from ..core.rules import rules_for

    if attempts_path is not None and os.fspath(attempts_path) == "-":
        raise UsageError("--attempts -: a report needs an attempts file it can name and hash")
    rules = rules_for(squad_mode)  # checks the mode
    scorer_path = os.fspath(DEFAULT_BENCHMARK if benchmark_path is None else benchmark_path)
    role = "items" if scorer_path.endswith(".jsonl") else "benchmark"
    if role == "items" and attempts_path is None:
        raise UsageError(f"a report of the items file {scorer_path} needs --attempts (with "
                         "'item' and 'attempt' columns)")
    paths = {role: scorer_path,
             "attempts": None if attempts_path is None else os.fspath(attempts_path),
             "schema": os.fspath(schema_path)}
    inputs = [{"role": role, "path": _relative(path, base_dir), "sha256": _file_sha256(path)}
              for role, path in paths.items() if path is not None]
    scorer = {"version": __version__, "squad_mode": squad_mode,
              "signatures": [rule.signature() for rule in rules]}

    bench, attempts, schema, errors = _load(paths)
    if schema is not None:
        scorer["signatures"].append(schema.signature())
        scorer["disagreement_note"] = schema.disagreement_note
    if errors:
        first = InputFileError.first_of([e for error in errors for e in error.errors])
        document = {"status": "error", "scorer": scorer, "inputs": inputs,
                    "errors": _error_entries(first, base_dir)}
        return Report(document, first)
    scored = _Scored.of(bench, attempts, schema, squad_mode)
    document = {"status": "ok", "scorer": scorer, "inputs": inputs, "totals": scored.totals()}
    return Report(document, scored=scored)


def _load(paths: dict[str, str | None]):
    """Load every input that can be checked; collect the errors of all of them."""
    from .benchmarks import load_benchmark
    from .items import load_items
    from .scoring_schemas import load_scoring_schema

    errors: list[InputFileError] = []
    bench = attempts = schema = None
    try:
        bench = load_items(paths["items"]) if "items" in paths else load_benchmark(
            paths["benchmark"])
    except InputFileError as err:
        errors.append(err)
    if paths["attempts"] is not None:
        try:
            attempts = _read_attempts_file(paths["attempts"])
            if "items" in paths:
                _check_item_column(paths["attempts"], attempts, bench)
        except InputFileError as err:
            errors.append(err)
    if bench is not None:  # a scoring schema is checked against the benchmark's facts
        try:
            schema = load_scoring_schema(paths["schema"], bench)
        except InputFileError as err:
            errors.append(err)
    return bench, attempts, schema, errors


def _check_item_column(path: str, attempts: pd.DataFrame, items) -> None:
    """An items file's attempts need an ``item`` column naming its items."""
    if "item" not in attempts.columns:
        raise AttemptsFormatError(path, "", "item",
                                  message="missing column 'item' (scoring against an items file)")
    if items is not None:
        known = pd.Index(items.ids)
        unknown = list(dict.fromkeys(attempts["item"][~attempts["item"].isin(known)].tolist()))
        if unknown:
            raise AttemptsFormatError(path, "", "item", message=(
                f"{len(unknown)} unknown item id(s) in the attempts, e.g. "
                f"{', '.join(map(repr, unknown[:5]))}"))


@dataclass(frozen=True)
class _Scored:
    """An ok report's scores: the rule values of every attempt (``scores``: ``id``,
    ``attempt`` and each rule's own value, :func:`recallscore_nb.core.rules.verdict_columns`),
    and what the statuses need."""

    scores: pd.DataFrame
    bench: Any
    schema: Any

    @classmethod
    def of(cls, bench, attempts, schema, squad_mode: str) -> _Scored:
        from ..core.items import Items
        from ..core.rules import verdict_columns
        from ..core.scoring import score_benchmark, score_items

        if isinstance(bench, Items):
            scores = score_items(bench, attempts[["id", "item", "attempt"]],
                                 squad_mode=squad_mode)
            keep = ["id", "item", "attempt", *verdict_columns()]
        else:
            frame = None if attempts is None else attempts[["id", "attempt"]]
            scores = score_benchmark(bench, frame, squad_mode=squad_mode)
            keep = ["id", "attempt", *verdict_columns()]
        return cls(scores[keep].reset_index(drop=True), bench, schema)

    def statuses(self, scores: pd.DataFrame, basis: bool = True) -> tuple[pd.DataFrame, list]:
        """The statuses of ``scores``' attempts (rows from 0) and the fact names, sorted."""
        from ..core.items import Items
        from ..core.status import fact_status, item_fact_names, item_fact_status

        if isinstance(self.bench, Items):
            table = item_fact_status(scores["attempt"], scores["item"], self.bench, self.schema,
                                     basis=basis)
            names = item_fact_names(self.bench)
        else:
            table = fact_status(scores["attempt"], self.bench, self.schema, basis=basis)
            names = list(self.bench.fact_names)
        return table.reset_index(drop=True), sorted(names)

    def totals(self) -> dict:
        """``count``, ``mean_weighted_score`` (exactly summed; None for no attempts) and
        ``status_counts`` (per fact, every status, zeros included)."""
        from ..core.status import STATUSES

        statuses, names = self.statuses(self.scores, basis=False)
        weighted = statuses["weighted_score"].to_numpy(dtype=np.float64)
        counts = {}
        for name in names:
            found = statuses[f"status_{name}"].value_counts()
            counts[name] = {status: int(found.get(status, 0)) for status in STATUSES}
        count = len(weighted)
        scored = weighted[~np.isnan(weighted)]  # an item without a checklist has none
        return {"count": count,
                "mean_weighted_score": math.fsum(scored.tolist()) / len(scored) if len(scored)
                else None,
                "status_counts": counts}

    def chunks(self) -> Iterator[list[str]]:
        for start in range(0, len(self.scores), _CHUNK_ROWS):
            yield _attempt_texts(self.scores.iloc[start:start + _CHUNK_ROWS], self)


_P4, _P6, _P8, _P10 = " " * 4, " " * 6, " " * 8, " " * 10


def _attempt_texts(scores: pd.DataFrame, scored: _Scored) -> list[str]:
    """Each attempt of ``scores`` as the report's JSON text (an element of its ``attempts``
    array): the columns are turned into text one at a time, each fact's status and basis
    once per distinct basis, then joined row by row. With an items file, a row's facts are
    its item's, and a value that does not apply (no checklist) is null."""
    from ..core.rules import measure

    scores = scores.reset_index(drop=True)
    statuses, names = scored.statuses(scores)
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
    from ..core.status import STATUSES

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


# --- writing and reading -------------------------------------------------------------------
def _dumps(document: dict) -> str:
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
        yield _dumps(document) + "\n"
        return
    text = _dumps({**document, "attempts": []})
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


@cache
def _validator(kind: str | None) -> Draft202012Validator:
    """The report schema; for a known ``status``, only its branch (for plainer messages)."""
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    if kind is not None:
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"],
                  "$ref": f"#/$defs/{kind}Report"}
    return Draft202012Validator(schema)


def _schema_problems(document: Any) -> list[tuple[str, str]]:
    """(JSON path, message) of every way ``document`` departs from the report schema."""
    status = document.get("status") if isinstance(document, dict) else None
    validator = _validator(status if status in ("ok", "error") else None)
    problems = sorted(validator.iter_errors(document),
                      key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    return [(_json_path(tuple(e.absolute_path)), e.message) for e in problems]


def validate_report(document: Any) -> None:
    """Raise ValueError when ``document`` does not follow the shipped report schema (a bug in
    the scorer, never the user's input)."""
    problems = _schema_problems(document)
    if problems:
        where, message = problems[0]
        raise ValueError(f"a report that does not follow {REPORT_SCHEMA.name}: {where}: {message}")


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

    atomic_write(target, write)
    return target


def read_report(path: str | os.PathLike[str]) -> dict:
    """Read a stored report to check.

    Only what the check needs is required (``scorer.squad_mode`` and ``inputs``, with one
    benchmark and one schema); the comparison names any other departure.

    Raises
    ------
    ReportFormatError
        Missing, not a regular file, not UTF-8 JSON data, or not a report (the JSON path of
        the first problem).
    """
    name = os.fspath(path)
    return _parsed_report(read_input(name, ReportFormatError), name)


def _parsed_report(content: bytes, name: str) -> dict:
    from .jsondocs import load_json

    document = load_json(content, name, ReportFormatError)
    problems = _header_problems(document)
    if problems:  # every problem, one error each
        raise ReportFormatError.first_of([
            ReportFormatError(name, where, message=f"not a recallscore report: {message}")
            for where, message in problems])
    return document


@cache
def _header_validator() -> Draft202012Validator:
    """What a stored report needs for its check: the SQuAD mode and the inputs. Any other
    departure from the report schema is left to the comparison, which names it."""
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    return Draft202012Validator({
        "$schema": schema["$schema"], "$defs": schema["$defs"], "type": "object",
        "required": ["scorer", "inputs"],
        "properties": {
            "scorer": {"type": "object", "required": ["squad_mode"],
                       "properties": {"squad_mode": schema["$defs"]["scorer"]["properties"]["squad_mode"]}},
            "inputs": {"$ref": "#/$defs/inputs"},
        },
    })


def _header_problems(document: Any) -> list[tuple[str, str]]:
    errors = sorted(_header_validator().iter_errors(document),
                    key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    problems = [(_json_path(tuple(e.absolute_path)), e.message) for e in errors]
    if not problems:
        roles = [entry["role"] for entry in document["inputs"]]
        for role in ROLES:
            if roles.count(role) > 1:
                problems.append(("$.inputs", f"the role {role!r} is named {roles.count(role)} times"))
        if "benchmark" in roles and "items" in roles:
            problems.append(("$.inputs", "both a benchmark and an items file"))
        elif "benchmark" not in roles and "items" not in roles:
            problems.append(("$.inputs", "no input has the role 'benchmark' (or 'items')"))
        if "schema" not in roles:
            problems.append(("$.inputs", "no input has the role 'schema'"))
    return problems


# --- checking a stored report --------------------------------------------------------------
def _json_path(parts: tuple[str | int, ...]) -> str:
    """``("attempts", 3, "facts")`` as ``$.attempts[3].facts``.

    >>> _json_path(("attempts", 3, "facts", "location", "status"))
    '$.attempts[3].facts.location.status'
    >>> _json_path(("status_counts", "a b"))
    '$.status_counts["a b"]'
    """
    steps = []
    for part in parts:
        if isinstance(part, int):
            steps.append(f"[{part}]")
        elif part.isidentifier():
            steps.append(f".{part}")
        else:
            steps.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "$" + "".join(steps)


def _shown(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= _RENDER_LIMIT else text[: _RENDER_LIMIT - 3] + "..."


def differences(stored: Any, recomputed: Any, parts: tuple = ()) -> Iterator[str]:
    """One line per value that differs between two parsed JSON documents, by JSON path.

    >>> list(differences({"a": [1, {"s": "x"}]}, {"a": [1, {"s": "y"}], "b": True}))
    ['$.a[1].s: stored "x", recomputed "y"', '$.b: stored absent, recomputed true']
    """
    if isinstance(stored, dict) and isinstance(recomputed, dict):
        for key in sorted(set(stored) | set(recomputed)):
            yield from differences(stored.get(key, _ABSENT), recomputed.get(key, _ABSENT),
                                   (*parts, key))
    elif isinstance(stored, list) and isinstance(recomputed, list):
        for i in range(max(len(stored), len(recomputed))):
            yield from differences(stored[i] if i < len(stored) else _ABSENT,
                                   recomputed[i] if i < len(recomputed) else _ABSENT,
                                   (*parts, i))
    elif type(stored) is not type(recomputed) or stored != recomputed:
        yield (f"{_json_path(parts)}: stored {_shown(stored)}, "
               f"recomputed {_shown(recomputed)}")


def _report_differences(stored: dict, fresh: Report) -> Iterator[str]:
    """:func:`differences` between a stored report and a fresh one, whose attempts are
    parsed a chunk at a time."""
    header = json.loads(_dumps(fresh.document))
    keys = set(stored) | set(header) | ({"attempts"} if fresh.ok else set())
    for key in sorted(keys):
        if key == "attempts" and fresh.ok:
            yield from _attempt_differences(stored.get(key, _ABSENT), fresh)
        else:
            yield from differences(stored.get(key, _ABSENT), header.get(key, _ABSENT), (key,))


def _parsed(chunk: list[str]) -> list:
    return json.loads("[" + ",".join(chunk) + "]")


def _attempt_differences(stored: Any, fresh: Report) -> Iterator[str]:
    if not isinstance(stored, list):
        recomputed = [item for chunk in fresh.attempt_chunks() for item in _parsed(chunk)]
        yield from differences(stored, recomputed, ("attempts",))
        return
    i = 0
    for chunk in fresh.attempt_chunks():
        for item in _parsed(chunk):
            yield from differences(stored[i] if i < len(stored) else _ABSENT, item,
                                   ("attempts", i))
            i += 1
    for j in range(i, len(stored)):
        yield from differences(stored[j], _ABSENT, ("attempts", j))


def _same_bytes(file, pieces: Iterable[str]) -> bool:
    """Whether the pieces joined, in UTF-8, are the whole of the open binary ``file``, read
    alongside them and no further than the first piece that differs."""
    file.seek(0)
    for piece in pieces:
        data = piece.encode("utf-8")
        if file.read(len(data)) != data:
            return False
    return file.read(1) == b""


@contextlib.contextmanager
def _opened(name: str):
    """A regular file, open for reading in binary."""
    require_regular_file(name, ReportFormatError)
    try:
        file = open(name, "rb")
    except OSError as err:
        raise ReportFormatError(name, message=f"cannot be read: {err.strerror or err}") from None
    with file:
        yield file


_OPEN = b'{\n  "attempts": ['
_CLOSE = b"\n  ],"
_TAIL = 1 << 20


def _laid_out_header(file, name: str) -> dict | None:
    """The header of a report laid out as :func:`render_report` writes it (all that follows
    its ``attempts``), read from the end of the open ``file`` without the attempts, or None
    when the text is laid out otherwise or that is not a report's header.

    In that layout the attempts end at the line ``  ],`` followed by the ``inputs`` key (a
    raw line break never occurs inside a JSON string). A text laid out otherwise either
    yields no header here or fails the byte for byte comparison that follows, and is then
    parsed whole.
    """
    from .jsondocs import load_json

    file.seek(0)
    start = file.read(len(_OPEN) + 2)
    if start == _OPEN + b"],":
        rest = file.read()  # no attempts: all that follows is the header
    elif start[:len(_OPEN)] == _OPEN:
        size = os.fstat(file.fileno()).st_size
        block = _TAIL
        while True:  # the header is at the end; read more of the end until it is found
            begin = max(0, size - block)
            file.seek(begin)
            tail = file.read()
            at = tail.rfind(_CLOSE + b'\n  "inputs": [')
            if at != -1:
                rest = tail[at + len(_CLOSE):]
                break
            if begin == 0:
                return None
            block *= 8
    else:
        return None
    try:
        header = load_json(b"{" + rest, name, ReportFormatError)
    except ReportFormatError:
        return None
    return header if isinstance(header, dict) and not _header_problems(header) else None


def _input_path(name: str, index: int, recorded: str, base_dir: Path,
                inputs_within: str | os.PathLike[str] | None) -> Path:
    """Where the report's ``index``-th input is read: its recorded path, from the report's
    folder, if it stays inside that folder (or inside ``inputs_within``), links resolved. The
    package's own data (the shipped benchmark and its scoring schema) may always be read: a
    report of the shipped benchmark names it, and it is no file of the user's."""
    root = base_dir if inputs_within is None else Path(inputs_within)
    where = (f"the report's folder {base_dir}" if inputs_within is None
             else f"--inputs-within {os.fspath(inputs_within)}")
    path = base_dir / recorded
    real, top = os.path.realpath(path), os.path.realpath(root)
    shipped = os.path.realpath(DATA_DIR)
    absolute = os.path.isabs(recorded) and inputs_within is None
    if os.path.commonpath([real, shipped]) == shipped:
        return path
    if absolute or os.path.commonpath([real, top]) != top:
        raise ReportFormatError(
            name, f"$.inputs[{index}]", "path",
            message=f"{recorded} is outside {where}: check-report reads a report's inputs only "
                    "there (pass --inputs-within DIR to allow a folder that holds them)")
    return path


def _checked_inputs(name: str, stored: dict, base_dir: Path,
                    inputs_within: str | os.PathLike[str] | None = None) -> dict[str, Path]:
    """The stored report's inputs as paths, each inside the folder it may be read from and
    still holding the bytes it was scored from."""
    scored = stored.get("status") != "error"
    paths = {}
    for index, entry in enumerate(stored["inputs"]):
        role, recorded, digest = entry["role"], entry["path"], entry["sha256"]
        if digest is None and scored:
            raise ReportFormatError(
                name, f"$.inputs[{index}]", "sha256",
                message=f"null for the {role} input {recorded}, but a scored report records "
                        "the hash of every input it read: the report was edited; score it "
                        "again with `recallscore report`")
        path = _input_path(name, index, recorded, base_dir, inputs_within)
        actual = _file_sha256(path)
        if actual != digest:
            raise InputChangedError(name, role, recorded, digest, actual)
        paths[role] = path
    return paths


def check_report(path: str | os.PathLike[str], *, update: bool = False,
                 inputs_within: str | os.PathLike[str] | None = None) -> list[str]:
    """Recompute a stored report from the inputs it names and compare the parsed JSON.

    Input paths are read relative to the report's folder, and must stay inside it (links
    resolved) or inside ``inputs_within`` when given; an absolute path needs
    ``inputs_within``. Only regular files are read. Returns one line per differing value
    (empty: identical). With ``update`` the report is rewritten from the recomputation
    (differences are still returned), never with an error report.

    A report as :func:`write_report` lays it out is first compared byte for byte with a fresh
    rendering, its attempts unparsed; only when that fails is it parsed whole and compared
    value by value.

    Raises
    ------
    ReportFormatError
        The stored report cannot be read, is not a report, names an input outside the
        folder it may be read from, or records no hash for an input of a scored report.
    InputChangedError
        An input's SHA-256 no longer matches the one the report recorded.
    UpdateRefusedError
        ``update`` and the inputs now give an error report.
    """
    name = os.fspath(path)
    with _opened(name) as file:  # read alongside the rendering: a report may be gigabytes
        header = _laid_out_header(file, name)
        if header is not None:
            try:
                fresh = _recomputed(name, header, inputs_within)
            except RecallScoreError:  # said again, from the whole document, below
                pass
            else:
                if update and not fresh.ok:
                    raise UpdateRefusedError(name, fresh.error)
                if _same_bytes(file, fresh.pieces()):
                    return []
    stored = read_report(name)
    fresh = _recomputed(name, stored, inputs_within)
    if update and not fresh.ok:
        raise UpdateRefusedError(name, fresh.error)
    found = list(_report_differences(stored, fresh))
    if update:
        write_report(fresh, name)
    return found


def _recomputed(name: str, stored: dict, inputs_within) -> Report:
    """A fresh report from the inputs ``stored`` names, checked first (:func:`_checked_inputs`)."""
    base_dir = Path(name).parent
    paths = _checked_inputs(name, stored, base_dir, inputs_within)
    return build_report(paths.get("benchmark", paths.get("items")), paths.get("attempts"),
                        schema_path=paths["schema"], base_dir=base_dir,
                        squad_mode=stored["scorer"]["squad_mode"])
