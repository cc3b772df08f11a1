"""The package's strict readers of tabular files: CSV, JSON lines and Parquet.

Attempts files (:mod:`recallscore_nb.io.attempts`), scored files and human judgments are all
read through them. CSV is read with every field as text and no NA guessing (an empty field is
the empty string), every line the header's width and no column named twice; JSON lines follow
the package's one policy for JSON data (:func:`recallscore_nb.io.jsondocs.load_json_line`);
a Parquet file must be readable and name no column twice. Every fault names the file and the
line (or field), raised as the error type the caller gives.

>>> read_strict_csv(b"attempt,system\\nNA,x\\n", "a.csv").values.tolist()
[['NA', 'x']]
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from ..core.engine import STRING
from ..core.errors import AttemptsFormatError, InputFileError, UsageError
from .files import require_regular_file
from .jsondocs import load_json_line

__all__ = ["FORMATS", "file_format", "read_strict_csv", "read_jsonl_records", "read_parquet_table",
           "END", "TWICE", "header_width", "id_text", "jsonl_frame", "no_field_limit",
           "refuse_repeats", "unterminated_record"]

FORMATS = (".csv", ".jsonl", ".parquet")


def file_format(path: str, *, what: str) -> str:
    """The extension of ``path``, lowercased, when it is one of :data:`FORMATS`; else a
    :class:`UsageError` saying what ``what`` must end in."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"{path}: {what} must end in {', '.join(FORMATS)} (got {suffix or 'no extension'!r})")
    return suffix


def read_strict_csv(data: bytes, name: str, *,
                    error: type[InputFileError] = AttemptsFormatError) -> pd.DataFrame:
    """Strict CSV, every field text: a DataFrame of the file's columns as ``STRING``.

    No NA guessing (an empty field is the empty string), every line the header's width, no
    column named twice, one leading UTF-8 byte-order mark dropped, line ends ``\\n``,
    ``\\r\\n`` or ``\\r`` alone (as Python's csv and Excel read them), line breaks inside
    quoted fields kept, fields of any size. A quote that is never closed is refused, naming
    the line where it opened (Arrow would read every later line into that field). Errors
    name ``name`` and the line, as ``error``.

    Arrow parses the header as a row like the others (numbered columns, every one typed as
    text), so the header's spelling (a byte-order mark, a quoted line break, a number) cannot
    change how a column is read; Python's csv module only counts the header's fields first.

    >>> read_strict_csv(b"\\xef\\xbb\\xbfid,attempt\\r007,1.50\\r", "a.csv").values.tolist()
    [['007', '1.50']]
    >>> read_strict_csv(b'id,attempt\\n1,"oops\\n2,b\\n', "a.csv")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.AttemptsFormatError: a.csv: line 2: unterminated quoted field: the quote opened here is never closed, so every later line would be part of this field
    """
    width = header_width(data, name, error)
    table = _parse_csv(data, width, name, error)
    names = [str(column[0]) for column in table.slice(0, 1).to_pydict().values()]
    refuse_repeats(names, name, "line 1", TWICE, error)
    body = table.slice(1, table.num_rows - 2).rename_columns(names)
    return body.to_pandas(types_mapper={pa.string(): STRING}.get)


_BOM = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BLOCK = pa_csv.ReadOptions().block_size
END = b"x"
"""The field of the sentinel row appended to the data before parsing: when the data ends inside
an open quote, the sentinel is read into that field instead of forming the last row."""


@contextlib.contextmanager
def no_field_limit():
    """Python's csv module refuses fields above 131,072 characters by default; lift that
    while the header is counted or a fault located, and restore it after."""
    old = csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        yield
    finally:
        csv.field_size_limit(old)


TWICE = "column named twice in the header"


def header_width(data: bytes | io.BufferedIOBase, name: str, error) -> int:
    """The number of fields of the header record (which may span lines inside quotes); a
    name given twice is refused here already, before Arrow parses the whole file. ``data``:
    the file's bytes, or the file open for reading (only the header is read from it)."""
    source = io.BytesIO(data) if isinstance(data, bytes) else data
    start = source.read(len(_BOM) + 1)
    source.seek(0)
    if not start.removeprefix(_BOM):
        raise error(name, message="empty file: expected a header line with an 'attempt' column")
    text = io.TextIOWrapper(source, encoding="utf-8-sig", errors="replace", newline="")
    with no_field_limit():
        header = next(csv.reader(text), [])
    text.detach()  # leave the file open: the caller reads on
    if not header:
        raise error(name, "line 1", message="empty line: expected a header line with an "
                                            "'attempt' column")
    if not any("\ufffd" in column for column in header):  # else Arrow finds the bad byte
        refuse_repeats(header, name, "line 1", TWICE, error)
    return len(header)


def _parse_csv(data: bytes, width: int, name: str, error) -> pa.Table:
    """Arrow's parse of ``data`` plus a sentinel row of ``width`` fields: every column text,
    the header as row 0, the sentinel as the last row (checked: else a quote was left open)."""
    ending = b"" if data.endswith((b"\n", b"\r")) else b"\n"
    source = b"".join([data, ending, b",".join([END] * width)])
    types = {f"f{i}": pa.string() for i in range(width)}
    parse = pa_csv.ParseOptions(newlines_in_values=True, ignore_empty_lines=False)
    convert = pa_csv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                    quoted_strings_can_be_null=False, null_values=[])
    read = pa_csv.ReadOptions(autogenerate_column_names=True)  # blocks of 1 MiB, in parallel
    while True:
        try:
            table = pa_csv.read_csv(pa.py_buffer(source), read_options=read,
                                    parse_options=parse, convert_options=convert)
        except pa.ArrowInvalid as exc:
            if len(source) > read.block_size == _BLOCK:
                # a row longer than a block is refused ("straddling object", "empty block"):
                # read again as one block before calling anything a fault
                read = pa_csv.ReadOptions(autogenerate_column_names=True,
                                          block_size=min(len(source) + 1, 2**31 - 1))
                continue
            raise _csv_error(data, width, name, error, exc) from None
        break
    last = table.column(table.num_columns - 1)
    if table.num_columns != width or table.num_rows < 2 or last[-1].as_py() != END.decode():
        raise _csv_error(data, width, name, error, None)
    return table


def _csv_error(data: bytes, width: int, name: str, error, exc) -> InputFileError:
    """Locate what Arrow refused (it names no line), or the quote it let run to the end: a
    bad byte, a line of the wrong width, or a quoted field still open at the end."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = len(_LINE_BREAK.findall(data[:bad.start].decode("utf-8"))) + 1
        return error(name, f"line {line}", message=f"not UTF-8 text (byte {bad.start})")
    text = text.removeprefix("\ufeff")
    with no_field_limit():
        reader = csv.reader(io.StringIO(text, newline=""))
        start, last = 1, None
        try:
            for record in reader:
                if record and len(record) != width:  # Arrow reads a blank line as empty fields
                    if _open_to_the_end(text, start):
                        return unterminated_record(name, start, record, error)
                    return error(name, f"line {start}", message=f"expected {width} fields as "
                                                               f"in the header, got {len(record)}")
                last, start = (start, record), reader.line_num + 1
        except csv.Error as bad:
            return error(name, f"line {reader.line_num}", message=f"not valid CSV ({bad})")
        if last is not None and _open_to_the_end(text, last[0]):
            return unterminated_record(name, *last, error)
    return error(name, message=f"not valid CSV ({exc})" if exc else "not valid CSV")


def _open_to_the_end(text: str, line: int) -> bool:
    """Whether the record that starts on ``line`` ends inside a quote at the end of ``text``
    (Python's csv, like Arrow, closes such a field silently; its strict mode says so)."""
    offset = 0
    if line > 1:
        breaks = _LINE_BREAK.finditer(text)
        offset = next(itertools.islice(breaks, line - 2, None)).end()
    try:
        next(csv.reader(io.StringIO(text[offset:], newline=""), strict=True), None)
    except csv.Error as bad:
        return "unexpected end of data" in str(bad)
    return False


def unterminated_record(name: str, start: int, record: list[str], error) -> InputFileError:
    """The record from line ``start`` whose last field's quote is never closed: the quote is
    on ``start`` plus the line breaks inside the fields before it."""
    line = start + sum(len(_LINE_BREAK.findall(field)) for field in record[:-1])
    return error(name, f"line {line}", message="unterminated quoted field: the quote opened "
                 "here is never closed, so every later line would be part of this field")


def refuse_repeats(names, name: str, location: str, message: str, error) -> None:
    """Raise ``error`` naming the first name that repeats an earlier one (a linear pass)."""
    if len(set(names)) == len(names):
        return
    seen = set()
    for column in names:
        if column in seen:
            raise error(name, location, str(column), message=message)
        seen.add(column)


def read_jsonl_records(data: bytes, name: str, *,
                       error: type[InputFileError] = AttemptsFormatError) -> pd.DataFrame:
    """One JSON object per line (blank lines skipped), as a DataFrame of their keys.

    Each line is read by :func:`recallscore_nb.io.jsondocs.load_json_line`, the package's one
    policy for JSON data: a fault is named by its line (counted from 1) and the field within
    it, as ``error`` (not UTF-8, not valid JSON, nested past the limit, a key repeated in one
    object, ``NaN`` or ``Infinity``, an integer outside 64 bits, a lone surrogate escape such
    as ``"\\ud800"``); then each line must be an object whose ``attempt``, when present, is a
    string. An ``id`` is kept as text (``1.0`` stays ``"1.0"``, ``1`` is ``"1"``). The frame's
    ``attrs`` hold ``locations`` (``"line"``) and each row's line number (``lines``).

    >>> read_jsonl_records(b'{"id": 7, "attempt": "a"}\\n\\n{"id": 8.0, "attempt": "b"}\\n', "a.jsonl").values.tolist()
    [['7', 'a'], ['8.0', 'b']]
    >>> read_jsonl_records(b'{"attempt": "a", "n": NaN}\\n', "a.jsonl")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.AttemptsFormatError: a.jsonl: line 1: n: expected a finite number, got NaN
    """
    return jsonl_frame(enumerate(data.split(b"\n"), start=1), name, error)


def jsonl_frame(numbered, name: str, error) -> pd.DataFrame:
    """The frame of :func:`read_jsonl_records` from (line number, line without its end).
    Every faulty line is reported (at most
    :data:`~recallscore_nb.io.attempts.rows.MAX_ROW_ERRORS`, then a count)."""
    records, lines, faults = [], [], []
    for number, raw in numbered:
        if not raw.strip():
            continue
        try:
            record = load_json_line(raw, name, error, number, _record_id)
        except InputFileError as err:
            faults += err.errors
            continue
        if not isinstance(record, dict):
            faults.append(error(name, f"line {number}", expected="a JSON object",
                                got=type(record).__name__))
            continue
        attempt = record.get("attempt", _MISSING)
        # a null attempt is a fault of the row, reported with every other (see _check_rows)
        if attempt is not _MISSING and attempt is not None and not isinstance(attempt, str):
            faults.append(error(name, f"line {number}", "attempt", row_id=_record_id(record),
                                expected="a string", got=json.dumps(attempt)))
            continue
        if faults:
            continue  # the frame is not needed: only the faults are
        if "id" in record:
            record["id"] = id_text(record["id"])
        records.append(record)
        lines.append(number)
    if faults:
        from .attempts.rows import capped  # here: the attempts package reads through this one

        raise error.first_of(capped(faults, name, ""))
    frame = pd.DataFrame.from_records(records) if records else pd.DataFrame({"attempt": []})
    frame.attrs.update(locations="line", lines=np.array(lines, dtype=np.int64))
    return frame


_MISSING = object()


def _record_id(record) -> str | None:
    return id_text(record.get("id")) if isinstance(record, dict) else None


def id_text(value) -> str | None:
    """An id as text: None for a missing one, ``1.0`` for a whole float (as written).

    >>> id_text(None), id_text(float("nan")), id_text(3.0), id_text(7)
    (None, None, '3.0', '7')
    """
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)


def read_parquet_table(path: str, *, error: type[InputFileError] = AttemptsFormatError) -> pa.Table:
    """A Parquet file as an Arrow table: a regular file, readable, no column named twice."""
    require_regular_file(path, error)
    try:
        names = pq.read_schema(path).names
        refuse_repeats(names, path, "", "column named twice in the file", error)
        return pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        reason = " ".join(str(exc).split())  # Arrow's messages can run over lines
        raise error(path, message=f"not a readable Parquet file ({reason})") from None
