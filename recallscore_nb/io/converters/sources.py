"""Reading the sources of ``recallscore convert`` strictly, as ``load_benchmark`` and the
attempts readers read theirs: every fault named by file, line (or JSON path) and field, and
every fault of a conversion collected (:class:`Faults`) before anything is written.

- The bytes: UTF-8 text (one leading byte-order mark dropped); UTF-16, NUL bytes, other
  encodings and gzip data in a file not named ``.gz`` refused, each saying so (EVOUNA files
  may be gzip data whatever their name, :func:`read_source`).
- JSON lines: each line read by :func:`recallscore_nb.io.jsondocs.load_json_line`, the
  package's one policy for JSON data (nesting, huge integers, lone surrogates, ``NaN``,
  repeated keys), and must be an object.
- TSV: Python's csv module, tab-separated, read as the converter always read these files
  (a quote opens a quoted field only at the start of a field); one row a line, so a quoted
  field that runs past its line is refused at the line where its quote opens (else it
  swallows the rows after it), as is a row of another width than the header's. A file
  written without CSV quoting (``verbatim``) is split at tabs alone: every field is its text,
  quotes included.
- Verdicts: Yes/No and True/False, any case, or empty for no judgment (:func:`verdict_word`);
  any other word is refused, never read as no judgment.
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...core.errors import InputFileError, SourceFormatError
from ..files import gunzip, read_input
from ..jsondocs import load_json_line, render
from ..strict_readers import TWICE, no_field_limit, unterminated_record

__all__ = ["Faults", "read_source", "source_text", "read_jsonl", "read_tsv", "verdict_word",
           "VERDICT_WORDS", "field_got"]

VERDICT_WORDS = "Yes, No, True or False (any case), or empty for no judgment"
_WORDS = {"yes": "true", "no": "false", "true": "true", "false": "false"}
_GZIP = b"\x1f\x8b"
_UTF16 = (b"\xff\xfe", b"\xfe\xff")
_END = "\ue000end of the file\ue000"
"""The sentinel line appended to a TSV before parsing: a quote left open at the end of the
file reads it into its field instead of ending the file quietly."""
_MISSING = object()


class Faults:
    """The faults of one conversion, collected so that all of them are reported at once."""

    def __init__(self) -> None:
        self.errors: list[InputFileError] = []

    def add(self, file: str | os.PathLike[str], location: str = "", field: str = "",
            **kwargs: str) -> None:
        self.errors.append(SourceFormatError(os.fspath(file), location, field, **kwargs))

    def raise_any(self) -> None:
        """Raise the first fault, carrying every one in ``errors``; nothing when there is none."""
        if self.errors:
            raise InputFileError.first_of(self.errors)


def verdict_word(value: Any) -> str | None:
    """``true``, ``false`` or ``""`` (no verdict) from a label: Yes/No or True/False in any
    case, a JSON boolean, an empty cell or null; None for anything else (refused).

    >>> [verdict_word(v) for v in ("Yes", " no ", "TRUE", False, "", None, "Maybe", 2)]
    ['true', 'false', 'true', 'false', '', '', None, None]
    """
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return ""
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    return _WORDS.get(text) if text else ""


def field_got(record: dict, key: str) -> str:
    """What a record holds at ``key``, for a message: its JSON, or ``nothing``."""
    value = record.get(key, _MISSING)
    return "nothing" if value is _MISSING else render(value)


def read_source(path: str | os.PathLike[str], *, gzip_data: bool = False) -> bytes:
    """The bytes of a source file (a name ending in ``.gz`` decompressed); gzip data under
    another name is decompressed with ``gzip_data``, else refused, saying so."""
    name = os.fspath(path)
    raw = read_input(name, SourceFormatError)
    if not raw.startswith(_GZIP):
        return raw
    if not gzip_data:
        raise SourceFormatError(name, message="gzip-compressed data, not text: decompress it "
                                              "first (gunzip)")
    return gunzip(raw, name, SourceFormatError)


def source_text(raw: bytes, name: str) -> str:
    """UTF-8 text from a source's bytes, one leading byte-order mark dropped.

    >>> source_text(b"a\\nb\\xe9", "x.tsv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.SourceFormatError: x.tsv: line 2: not UTF-8 text (byte 0xe9 ...
    """
    if raw.startswith(_UTF16):
        raise SourceFormatError(name, message="UTF-16 text (it starts with a UTF-16 byte-order "
                                              "mark); save it as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise SourceFormatError(name, f"line {line}", message=f"not UTF-8 text (byte "
                                f"0x{raw[err.start]:02x} at offset {err.start}); save it as "
                                "UTF-8") from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise SourceFormatError(name, f"line {line}", message="a NUL byte: not text (UTF-16 "
                                                              "text?); save it as UTF-8")
    return text.removeprefix("\ufeff")


def read_jsonl(path: Path, faults: Faults) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line of a JSON-lines source, in order; every
    faulty line goes to ``faults`` instead, when it is reached (so that a caller's own
    faults stay in line order; a file that cannot be read at all, one fault)."""
    name = str(path)
    try:
        text = source_text(read_source(path), name)
    except InputFileError as err:
        faults.errors += err.errors
        return
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = load_json_line(line, name, SourceFormatError, number)
        except InputFileError as err:
            faults.errors += err.errors
            continue
        if not isinstance(record, dict):
            faults.add(name, f"line {number}", expected="a JSON object", got=render(record))
            continue
        yield number, record


def read_tsv(path: Path, columns: tuple[str, ...], faults: Faults, *, lost_tab: bool = False,
             verbatim: bool = False) -> tuple[dict[str, int], list[tuple[int, list[str]]]]:
    """(each column of the header -> its index, [(line number, fields)] for each row) of a
    TSV source whose header names ``columns``; every row one line and the header's width (with
    ``lost_tab``, one field fewer is allowed too: a row whose tab was lost). With
    ``verbatim`` (a file written without CSV quoting) a quote is text like any other
    character (``csv.QUOTE_NONE``), so a field that starts with one keeps it:
    ``"Title" is ...`` stays ``"Title" is ...``, where the default reading makes it
    ``Title is ...``. Faults go to ``faults``; a file that cannot be read gives no columns and
    no rows."""
    name = str(path)
    try:
        text = source_text(read_source(path), name)
    except InputFileError as err:
        faults.errors += err.errors
        return {}, []
    if not text.strip():
        faults.add(name, message=f"empty file: expected a header line naming "
                                 f"{', '.join(columns)}")
        return {}, []
    records = _records(text, name, faults, verbatim=verbatim)
    if not records:
        return {}, []
    (start, end, header), rows = records[0], []
    at = _columns(header, columns, name, faults) if end == start else None
    if at is None:
        return {}, []
    widths = {len(header), len(header) - 1} if lost_tab else {len(header)}
    for start, end, fields in records[1:]:
        if end != start or not fields:
            continue  # a blank line, or a record already refused as unterminated
        if len(fields) not in widths:
            faults.add(name, f"line {start}", message=f"expected {len(header)} fields as in "
                                                      f"the header, got {len(fields)}")
        else:
            rows.append((start, fields))
    return at, rows


def _records(text: str, name: str, faults: Faults, *,
             verbatim: bool = False) -> list[tuple[int, int, list[str]]]:
    """(first line, last line, fields) of each record of ``text``; a record that spans
    lines (a quoted field not closed on its line) is a fault, named by the line its quote
    opens on (the fields before it hold no line break). With ``verbatim`` no quote is
    special, so every record is one line."""
    ending = "" if text.endswith(("\n", "\r")) else "\n"
    quoting = csv.QUOTE_NONE if verbatim else csv.QUOTE_MINIMAL
    reader = csv.reader(io.StringIO(text + ending + _END, newline=""), delimiter="\t",
                        quoting=quoting)
    records, end = [], 0
    try:
        with no_field_limit():
            for fields in reader:
                start, end = end + 1, reader.line_num
                records.append((start, end, fields))
    except csv.Error as exc:
        faults.add(name, f"line {reader.line_num}", message=f"not valid TSV ({exc})")
        return []
    if records[-1][2] == [_END]:
        records.pop()
    for start, end, fields in records:
        if end > start and fields[-1].endswith(_END):
            faults.errors.append(unterminated_record(name, start, fields, SourceFormatError))
        elif end > start:
            later = f"line {end}" if end == start + 1 else f"lines {start + 1}-{end}"
            faults.add(name, f"line {start}", message=f"unterminated quoted field: the quote "
                       f"opened here is not closed on its line, so {later} would be part of "
                       "this field (a row of this file is one line)")
    return records


def _columns(header: list[str], columns: tuple[str, ...], name: str,
             faults: Faults) -> dict[str, int] | None:
    """Each column of ``header`` -> its index; None (faults added) when one of ``columns``
    is missing or a name is given twice."""
    missing = [c for c in columns if c not in header]
    twice = sorted(c for c, n in Counter(header).items() if n > 1)
    for column in missing:
        faults.add(name, "line 1", column, message=f"missing column (the header names: "
                                                   f"{', '.join(map(repr, header))})")
    for column in twice:
        faults.add(name, "line 1", column, message=TWICE)
    return None if missing or twice else {c: i for i, c in enumerate(header)}
