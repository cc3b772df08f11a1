"""Scored reports: every attempt's rule values and fact statuses, with the hash of every input,
and the check that a stored report still matches the scorer.

A report is one JSON document, described by ``data/schemas/report.schema.json``:

``status``
    ``"ok"``, or ``"error"`` when an input (benchmark, attempts or scoring schema) is invalid.
``scorer``
    ``version`` (the package's), ``squad_mode``, and ``signatures``: the five rules', then the
    scoring schema's when it was read.
``inputs``
    ``{role, path, sha256}`` for the benchmark, the attempts (when given) and the scoring
    schema, in that order. Each ``path`` is relative to the report's folder (POSIX
    separators, as :func:`os.path.relpath` gives it), so a report moves with its inputs;
    ``sha256`` is null for a file that could not be read.
``attempts`` (ok only)
    For each attempt, in input order: ``id``; ``rules``, the five rule values;
    ``facts``, each fact's ``status`` and ``basis`` (see :func:`recallscore_nb.status.fact_status`);
    ``weighted_score``.
``totals`` (ok only)
    ``count``, ``mean_weighted_score`` (null for no attempts) and ``status_counts``: per fact,
    how many attempts have each status (zeros included).
``errors`` (error only)
    Every problem found, each ``{file, location, rowId, field, message}``: ``location`` is a
    JSON path (``$.rows[2]``) or a line; ``file`` is relative to the report's folder.
    An error report holds no score.

The text is deterministic: keys sorted, two-space indent, a trailing newline, floats as
Python's ``repr``, non-ASCII text as UTF-8. Reports are written atomically; an error report
never replaces an existing file (it goes beside it as ``<stem>.error.json``).

Building a report (:func:`build_report`) is a computation on files that writes nothing;
:func:`write_report` writes one; :func:`check_report` recomputes a stored report from the
inputs it names and lists each value that differs, by JSON path.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._jsonschema import Draft202012Validator
from ._version import __version__
from .engine import STRING
from .errors import AttemptsFormatError, InputFileError, RecallScoreError, UsageError
from .files import atomic_write
from .paths import DATA_DIR, DEFAULT_BENCHMARK, SCHEMAS_DIR

__all__ = [
    "Report",
    "ReportFormatError",
    "InputChangedError",
    "ROLES",
    "RULE_VALUES",
    "SHIPPED_REPORT",
    "REPORT_SCHEMA",
    "status_frame",
    "build_report",
    "render_report",
    "validate_report",
    "write_report",
    "read_report",
    "differences",
    "check_report",
]

ROLES = ("benchmark", "attempts", "schema")
"""The inputs a report names, in the order it lists them."""
RULE_VALUES = ("literal_match", "normalized_match", "squad_exact_match", "token_f1",
               "checklist_full_match")
"""The value each of the five rules gives an attempt, as the report's ``rules`` keys them."""
REPORT_SCHEMA = SCHEMAS_DIR / "report.schema.json"
SHIPPED_REPORT = DATA_DIR / "reports" / "four_fact_recall.report.json"
"""The stored scored report of the shipped benchmark under the shipped scoring schema."""

_ABSENT = object()
_RENDER_LIMIT = 80


class ReportFormatError(InputFileError):
    """A stored report that cannot be checked: unreadable, not JSON, or not a report."""


class InputChangedError(RecallScoreError):
    """An input a stored report names no longer has the hash the report recorded.

    ``report`` is the report as the caller named it, ``role`` and ``path`` the input as the
    report names it, ``stored`` and ``actual`` the two SHA-256 hashes (``actual`` None when
    the file is gone).
    """

    def __init__(self, report: str, role: str, path: str, stored: str | None,
                 actual: str | None) -> None:
        self.report, self.role, self.path = report, role, path
        self.stored, self.actual = stored, actual
        now = actual or "no readable file"
        super().__init__(
            f"{report}: input {role} {path} changed since the report was written "
            f"(sha256 stored {stored or 'none (unreadable)'}, now {now}); "
            f"score it again with `recallscore report`")


# --- the schema-aware columns of `recallscore score` ------------------------------------
def status_frame(attempts, benchmark, schema) -> pd.DataFrame:
    """Each attempt's fact statuses and weighted score, as ``recallscore score --schema``
    writes them: the columns of :func:`recallscore_nb.status.status_columns`, each basis as
    compact JSON text. Aligned with ``attempts`` (a Series or sequence of strings), indexed
    from 0.
    """
    from .status import fact_status

    statuses = fact_status(attempts, benchmark, schema).reset_index(drop=True)
    columns: dict[str, Any] = {}
    for name in benchmark.fact_names:
        columns[f"status_{name}"] = pd.array(
            [str(s) for s in statuses[f"status_{name}"]], dtype=STRING)
    columns["weighted_score"] = statuses["weighted_score"].astype("float64").to_numpy()
    for name in benchmark.fact_names:
        columns[f"basis_{name}"] = pd.array(
            [_compact(b) for b in statuses[f"basis_{name}"]], dtype=STRING)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(statuses)))


def _compact(value) -> str:
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _plain(value):
    """``value`` with numpy scalars, tuples and pandas missing values made plain JSON values."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is pd.NA:
        return None
    return value


# --- building a report ---------------------------------------------------------------------
@dataclass(frozen=True)
class Report:
    """A report built from its inputs: the JSON ``document`` and, for an error report, the
    first error (carrying all of them in ``errors``) to show on the command line."""

    document: dict
    error: InputFileError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _relative(path: str | os.PathLike[str], base_dir: str | os.PathLike[str]) -> str:
    """``path`` relative to ``base_dir``, with POSIX separators (absolute if on another drive)."""
    absolute = os.path.abspath(os.fspath(path))
    try:
        relative = os.path.relpath(absolute, os.path.abspath(os.fspath(base_dir)))
    except ValueError:  # another drive on Windows: no relative path exists
        relative = absolute
    return Path(relative).as_posix()


def _file_sha256(path: str | os.PathLike[str]) -> str | None:
    try:
        with open(path, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
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
        invalid input; ``Report.error`` holds it). Writes nothing.
    """
    from .rules import rules_for

    if attempts_path is not None and os.fspath(attempts_path) == "-":
        raise UsageError("--attempts -: a report needs an attempts file it can name and hash")
    rules = rules_for(squad_mode)  # checks the mode
    paths = {"benchmark": os.fspath(DEFAULT_BENCHMARK if benchmark_path is None else benchmark_path),
             "attempts": None if attempts_path is None else os.fspath(attempts_path),
             "schema": os.fspath(schema_path)}
    inputs = [{"role": role, "path": _relative(path, base_dir), "sha256": _file_sha256(path)}
              for role, path in paths.items() if path is not None]
    scorer = {"version": __version__, "squad_mode": squad_mode,
              "signatures": [rule.signature() for rule in rules]}

    bench, attempts, schema, errors = _load(paths)
    if schema is not None:
        scorer["signatures"].append(schema.signature())
    if errors:
        first = InputFileError.first_of([e for error in errors for e in error.errors])
        document = {"status": "error", "scorer": scorer, "inputs": inputs,
                    "errors": _error_entries(first, base_dir)}
        return Report(document, first)
    document = {"status": "ok", "scorer": scorer, "inputs": inputs,
                **_scored(bench, attempts, schema, squad_mode)}
    return Report(document)


def _load(paths: dict[str, str | None]):
    """Load every input that can be checked; collect the errors of all of them."""
    from .benchmarks import load_benchmark
    from .schema import load_scoring_schema

    errors: list[InputFileError] = []
    bench = attempts = schema = None
    try:
        bench = load_benchmark(paths["benchmark"])
    except InputFileError as err:
        errors.append(err)
    if paths["attempts"] is not None:
        try:
            attempts = _read_attempts_file(paths["attempts"])
        except InputFileError as err:
            errors.append(err)
    if bench is not None:  # a scoring schema is checked against the benchmark's facts
        try:
            schema = load_scoring_schema(paths["schema"], bench)
        except InputFileError as err:
            errors.append(err)
    return bench, attempts, schema, errors


def _scored(bench, attempts, schema, squad_mode: str) -> dict:
    """The ``attempts`` and ``totals`` of an ok report."""
    from .scoring import score_benchmark
    from .status import STATUSES, fact_status

    frame = None if attempts is None else attempts[["id", "attempt"]]
    scores = score_benchmark(bench, frame, squad_mode=squad_mode)
    statuses = fact_status(scores["attempt"], bench, schema).reset_index(drop=True)
    names = bench.fact_names
    records = []
    for i, row_id in enumerate(scores["id"]):
        rules = {}
        for column in RULE_VALUES:
            value = scores[column].iat[i]
            rules[column] = float(value) if column == "token_f1" else bool(value)
        facts = {name: {"status": str(statuses[f"status_{name}"].iat[i]),
                        "basis": _plain(statuses[f"basis_{name}"].iat[i])} for name in names}
        records.append({"id": str(row_id), "rules": rules, "facts": facts,
                        "weighted_score": float(statuses["weighted_score"].iat[i])})
    weighted = [r["weighted_score"] for r in records]
    counts = {name: {status: 0 for status in STATUSES} for name in names}
    for record in records:
        for name, fact in record["facts"].items():
            counts[name][fact["status"]] += 1
    totals = {"count": len(records),
              "mean_weighted_score": math.fsum(weighted) / len(weighted) if weighted else None,
              "status_counts": counts}
    return {"attempts": records, "totals": totals}


# --- writing and reading -------------------------------------------------------------------
def render_report(document: dict) -> str:
    """The report's text: sorted keys, indent 2, trailing newline, floats as ``repr``.

    >>> print(render_report({"status": "ok", "b": [0.1, 1.0]}), end="")
    {
      "b": [
        0.1,
        1.0
      ],
      "status": "ok"
    }
    """
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"


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
    """Validate and write ``report`` atomically; return the path written.

    An error report never replaces an existing file: it goes to :func:`error_path` instead.
    """
    validate_report(report.document)
    target = Path(out)
    if not report.ok and target.exists():
        target = error_path(target)
    text = render_report(report.document)
    atomic_write(target, lambda tmp: Path(tmp).write_text(text, encoding="utf-8", newline=""))
    return target


def read_report(path: str | os.PathLike[str]) -> dict:
    """Read a stored report to check.

    Only what the check needs is required (``scorer.squad_mode`` and ``inputs``, with one
    benchmark and one schema); the comparison names any other departure.

    Raises
    ------
    ReportFormatError
        Unreadable, not UTF-8 JSON, or not a report (the JSON path of the first problem).
    """
    name = os.fspath(path)
    try:
        content = Path(name).read_bytes()
    except FileNotFoundError:
        raise ReportFormatError(name, message="no such file") from None
    except OSError as err:
        raise ReportFormatError(name, message=f"cannot be read: {err.strerror}") from None
    try:
        document = json.loads(content.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise ReportFormatError(name, f"byte {err.start}", message="not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise ReportFormatError(name, f"line {err.lineno} column {err.colno}",
                                message=f"not valid JSON: {err.msg}") from None
    problems = _header_problems(document)
    if problems:
        where, message = problems[0]
        raise ReportFormatError(name, where, message=f"not a recallscore report: {message}")
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
        for role in ("benchmark", "schema"):
            if role not in roles:
                problems.append(("$.inputs", f"no input has the role {role!r}"))
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


def _checked_inputs(name: str, stored: dict, base_dir: Path) -> dict[str, Path]:
    """The stored report's inputs as paths, each still holding the bytes it was scored from."""
    paths = {}
    for entry in stored["inputs"]:
        path = base_dir / entry["path"]
        actual = _file_sha256(path)
        if actual != entry["sha256"]:
            raise InputChangedError(name, entry["role"], entry["path"], entry["sha256"], actual)
        paths[entry["role"]] = path
    return paths


def check_report(path: str | os.PathLike[str], *, update: bool = False) -> list[str]:
    """Recompute a stored report from the inputs it names and compare the parsed JSON.

    Input paths are read relative to the report's folder. Returns one line per differing
    value (empty: identical). With ``update`` the report is rewritten from the recomputation
    (differences are still returned).

    Raises
    ------
    ReportFormatError
        The stored report cannot be read or is not a report.
    InputChangedError
        An input's SHA-256 no longer matches the one the report recorded.
    """
    name = os.fspath(path)
    stored = read_report(name)
    base_dir = Path(name).parent
    paths = _checked_inputs(name, stored, base_dir)
    fresh = build_report(paths.get("benchmark"), paths.get("attempts"),
                         schema_path=paths["schema"], base_dir=base_dir,
                         squad_mode=stored["scorer"]["squad_mode"])
    validate_report(fresh.document)
    recomputed = json.loads(render_report(fresh.document))
    found = list(differences(stored, recomputed))
    if update:
        text = render_report(fresh.document)
        atomic_write(name, lambda tmp: Path(tmp).write_text(text, encoding="utf-8", newline=""))
    return found
