"""Building a report from its inputs: the scorer, the inputs with their hashes, and either
the scores or every error found (:func:`build_report`).

Building is a computation on files that writes nothing: the header and totals at once (an
ok report's attempts are rendered when it is written, :mod:`recallscore_nb.io.reports.text`,
from the scores :mod:`~recallscore_nb.execution.reports.scores` gives a chunk at a time).
Every input is loaded even when another is invalid, so an error report lists the errors of
all of them; input paths are recorded relative to the report's folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..._version import __version__
from ...core.errors import AttemptsFormatError, InputFileError, UsageError
from ...io.data import DEFAULT_BENCHMARK
from ...io.files import file_sha256
from ...io.items import scorer_role
from ...io.reports import Report
from .scores import Scored

__all__ = ["build_report"]


def _relative(path: str | os.PathLike[str], base_dir: str | os.PathLike[str]) -> str:
    """``path`` relative to ``base_dir``, with POSIX separators (absolute if on another drive)."""
    absolute = os.path.abspath(os.fspath(path))
    try:
        relative = os.path.relpath(absolute, os.path.abspath(os.fspath(base_dir)))
    except ValueError:  # another drive on Windows: no relative path exists
        relative = absolute
    return Path(relative).as_posix()


def _error_entries(error: InputFileError, base_dir) -> list[dict]:
    entries = []
    for each in error.errors:
        entry = dict(each.as_dict())
        if entry["file"] and not entry["file"].startswith("<"):
            entry["file"] = _relative(entry["file"], base_dir)
        entries.append(entry)
    return entries


def _read_attempts_file(path: str) -> pd.DataFrame:
    from ...io.attempts import read_attempts

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
    from ...core.registry import signatures

    if attempts_path is not None and os.fspath(attempts_path) == "-":
        raise UsageError("--attempts -: a report needs an attempts file it can name and hash")
    signed = signatures(squad_mode)  # the rules', then their normalizers' (checks the mode)
    scorer_path = os.fspath(DEFAULT_BENCHMARK if benchmark_path is None else benchmark_path)
    role = scorer_role(scorer_path)
    if role == "items" and attempts_path is None:
        raise UsageError(f"a report of the items file {scorer_path} needs --attempts (with "
                         "'item' and 'attempt' columns)")
    paths = {role: scorer_path,
             "attempts": None if attempts_path is None else os.fspath(attempts_path),
             "schema": os.fspath(schema_path)}
    inputs = [{"role": role, "path": _relative(path, base_dir), "sha256": file_sha256(path)}
              for role, path in paths.items() if path is not None]
    scorer = {"version": __version__, "squad_mode": squad_mode,
              "signatures": signed}

    bench, attempts, schema, errors = _load(paths)
    if schema is not None:
        scorer["signatures"].append(schema.signature())
        scorer["disagreement_note"] = schema.disagreement_note
    if errors:
        first = InputFileError.first_of([e for error in errors for e in error.errors])
        document = {"status": "error", "scorer": scorer, "inputs": inputs,
                    "errors": _error_entries(first, base_dir)}
        return Report(document, first)
    scored = Scored.of(bench, attempts, schema, squad_mode)
    document = {"status": "ok", "scorer": scorer, "inputs": inputs, "totals": scored.totals()}
    return Report(document, attempts=scored.chunks)


def _load(paths: dict[str, str | None]):
    """Load every input that can be checked; collect the errors of all of them."""
    from ...io.benchmarks import load_benchmark
    from ...io.items import load_items
    from ...io.scoring_schemas import load_scoring_schema

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
