"""Checking a stored report: recomputed from the inputs it names, compared value by value.

:func:`check_report` reads a report's inputs only inside the report's folder (or a folder the
caller allows), and only regular files, each still holding the bytes it was scored from. A
report laid out as :func:`~recallscore_nb.io.reports.text.write_report` writes it is first
compared byte for byte with a fresh rendering, read alongside it (a report may be gigabytes);
only when that fails is it parsed whole, and :func:`differences` names each value that
differs by its JSON path.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ...core.errors import InputChangedError, RecallScoreError, ReportFormatError, UpdateRefusedError
from ..data import DATA_DIR
from ..files import read_input, require_regular_file
from .build import Report, file_sha256, build_report
from .schema import header_problems, json_path
from .text import report_json, write_report

__all__ = ["read_report", "differences", "check_report"]

_ABSENT = object()
_RENDER_LIMIT = 80


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
    from ..jsondocs import load_json

    document = load_json(content, name, ReportFormatError)
    problems = header_problems(document)
    if problems:  # every problem, one error each
        raise ReportFormatError.first_of([
            ReportFormatError(name, where, message=f"not a recallscore report: {message}")
            for where, message in problems])
    return document


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
        yield (f"{json_path(parts)}: stored {_shown(stored)}, "
               f"recomputed {_shown(recomputed)}")


def _report_differences(stored: dict, fresh: Report) -> Iterator[str]:
    """:func:`differences` between a stored report and a fresh one, whose attempts are
    parsed a chunk at a time."""
    header = json.loads(report_json(fresh.document))
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
    from ..jsondocs import load_json

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
    return header if isinstance(header, dict) and not header_problems(header) else None


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
        actual = file_sha256(path)
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
