"""Reading a stored report and comparing it with a fresh one, value by value or byte for byte.

:func:`read_report` parses a stored report whole and checks its header; :func:`laid_out_header`
reads only the header of a report laid out as :func:`~recallscore_nb.io.reports.text.
render_report` writes it, from the end of the file (a report may be gigabytes), and
:func:`same_bytes` compares the file with a fresh rendering, read alongside it.
:func:`differences` and :func:`report_differences` name each value that differs by its JSON
path. Recomputing the fresh report from the stored one's inputs is
:func:`recallscore_nb.execution.reports.check_report`'s job.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ...core.errors import ReportFormatError
from ..files import read_input, require_regular_file
from .schema import header_problems, json_path
from .text import Report, report_json

__all__ = ["read_report", "differences", "report_differences", "same_bytes", "opened",
           "laid_out_header"]

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


def report_differences(stored: dict, fresh: Report) -> Iterator[str]:
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


def same_bytes(file, pieces: Iterable[str]) -> bool:
    """Whether the pieces joined, in UTF-8, are the whole of the open binary ``file``, read
    alongside them and no further than the first piece that differs."""
    file.seek(0)
    for piece in pieces:
        data = piece.encode("utf-8")
        if file.read(len(data)) != data:
            return False
    return file.read(1) == b""


@contextlib.contextmanager
def opened(name: str):
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


def laid_out_header(file, name: str) -> dict | None:
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
