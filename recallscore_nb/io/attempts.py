"""Reading attempts files (CSV, JSONL, Parquet): the package's strict readers of tabular files.

An attempts file has an ``attempt`` column, an optional ``id`` (kept as a string; default the
0-based row number) and any other columns, which are carried through. CSV is read with no NA
guessing: an empty field is the empty attempt and "NA", "null" or "None" are literal
attempts. In JSONL and Parquet a null attempt is an error.

The readers here are the package's strict readers of tabular files (the one strict CSV reader
among them): scored files are read through :func:`read_strict_csv`, :func:`read_jsonl_records`
and :func:`read_parquet_table` too (:mod:`recallscore_nb.io.scored`). Inputs must be regular
files (a device or a pipe named as an input is refused, not read without end); ``-`` is CSV on
standard input.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import os
import re
import stat
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from ..core.engine import STRING, row_ids
from ..core.errors import AttemptsFormatError, InputFileError, UsageError
from .files import read_input, require_regular_file
from .jsondocs import load_json_line

__all__ = ["read_attempts", "FORMATS", "file_format", "read_strict_csv", "read_jsonl_records",
           "read_parquet_table"]

FORMATS = (".csv", ".jsonl", ".parquet")


def file_format(path: str, *, what: str) -> str:
    """The extension of ``path``, lowercased, when it is one of :data:`FORMATS`; else a
    :class:`UsageError` saying what ``what`` must end in."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"{path}: {what} must end in {', '.join(FORMATS)} (got {suffix or 'no extension'!r})")
    return suffix


def read_attempts(path: str) -> pd.DataFrame:
    """Read an attempts file into a DataFrame: ``id``, ``attempt``, then the carried columns.

    ``path`` "-" reads CSV from standard input; any other path must be a regular file.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "a.csv")
    >>> _ = open(p, "w").write("attempt,system\\nNA,x\\n,y\\n")
    >>> read_attempts(p)[["id", "attempt", "system"]].values.tolist()
    [['0', 'NA', 'x'], ['1', '', 'y']]
    """
    if path == "-":
        return _checked(read_strict_csv(_stdin_bytes(), "<stdin>"), "<stdin>")
    suffix = file_format(path, what="an attempts file")
    if suffix == ".csv":
        frame = read_strict_csv(read_input(path, AttemptsFormatError), path)
    elif suffix == ".jsonl":
        frame = read_jsonl_records(read_input(path, AttemptsFormatError), path)
    else:
        frame = _read_parquet(path)
    return _checked(frame, path)


def _stdin_bytes() -> bytes:
    """Standard input to its end, unless it is a device other than a terminal (``<
    /dev/zero`` would be read without end): a file or a pipe is read, as is what is typed."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, io.UnsupportedOperation):  # replaced by an in-memory stream
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISFIFO(mode) \
            and not stat.S_ISSOCK(mode) and not sys.stdin.isatty():
        kind = "a character device" if stat.S_ISCHR(mode) else "a block device" \
            if stat.S_ISBLK(mode) else "not a file"
        raise AttemptsFormatError("<stdin>", message=f"not a file or a pipe ({kind}); give a "
                                                     f"file or pipe one in")
    return sys.stdin.buffer.read()


# --- CSV ----------------------------------------------------------------------------------
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
    width = _header_width(data, name, error)
    table = _parse_csv(data, width, name, error)
    names = [str(column[0]) for column in table.slice(0, 1).to_pydict().values()]
    _refuse_repeats(names, name, "line 1", _TWICE, error)
    body = table.slice(1, table.num_rows - 2).rename_columns(names)
    return body.to_pandas(types_mapper={pa.string(): STRING}.get)


_BOM = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BLOCK = pa_csv.ReadOptions().block_size
_END = b"x"
"""The field of the sentinel row appended to the data before parsing: when the data ends inside
an open quote, the sentinel is read into that field instead of forming the last row."""


@contextlib.contextmanager
def _no_field_limit():
    """Python's csv module refuses fields above 131,072 characters by default; lift that
    while the header is counted or a fault located, and restore it after."""
    old = csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        yield
    finally:
        csv.field_size_limit(old)


_TWICE = "column named twice in the header"


def _header_width(data: bytes | io.BufferedIOBase, name: str, error) -> int:
    """The number of fields of the header record (which may span lines inside quotes); a
    name given twice is refused here already, before Arrow parses the whole file. ``data``:
    the file's bytes, or the file open for reading (only the header is read from it)."""
    source = io.BytesIO(data) if isinstance(data, bytes) else data
    start = source.read(len(_BOM) + 1)
    source.seek(0)
    if not start.removeprefix(_BOM):
        raise error(name, message="empty file: expected a header line with an 'attempt' column")
    text = io.TextIOWrapper(source, encoding="utf-8-sig", errors="replace", newline="")
    with _no_field_limit():
        header = next(csv.reader(text), [])
    text.detach()  # leave the file open: the caller reads on
    if not header:
        raise error(name, "line 1", message="empty line: expected a header line with an "
                                            "'attempt' column")
    if not any("\ufffd" in column for column in header):  # else Arrow finds the bad byte
        _refuse_repeats(header, name, "line 1", _TWICE, error)
    return len(header)


def _parse_csv(data: bytes, width: int, name: str, error) -> pa.Table:
    """Arrow's parse of ``data`` plus a sentinel row of ``width`` fields: every column text,
    the header as row 0, the sentinel as the last row (checked: else a quote was left open)."""
    ending = b"" if data.endswith((b"\n", b"\r")) else b"\n"
    source = b"".join([data, ending, b",".join([_END] * width)])
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
    if table.num_columns != width or table.num_rows < 2 or last[-1].as_py() != _END.decode():
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
    with _no_field_limit():
        reader = csv.reader(io.StringIO(text, newline=""))
        start, last = 1, None
        try:
            for record in reader:
                if record and len(record) != width:  # Arrow reads a blank line as empty fields
                    if _open_to_the_end(text, start):
                        return _unterminated(name, start, record, error)
                    return error(name, f"line {start}", message=f"expected {width} fields as "
                                                               f"in the header, got {len(record)}")
                last, start = (start, record), reader.line_num + 1
        except csv.Error as bad:
            return error(name, f"line {reader.line_num}", message=f"not valid CSV ({bad})")
        if last is not None and _open_to_the_end(text, last[0]):
            return _unterminated(name, *last, error)
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


def _unterminated(name: str, start: int, record: list[str], error) -> InputFileError:
    """The record from line ``start`` whose last field's quote is never closed: the quote is
    on ``start`` plus the line breaks inside the fields before it."""
    line = start + sum(len(_LINE_BREAK.findall(field)) for field in record[:-1])
    return error(name, f"line {line}", message="unterminated quoted field: the quote opened "
                 "here is never closed, so every later line would be part of this field")


def _refuse_repeats(names, name: str, location: str, message: str, error) -> None:
    """Raise ``error`` naming the first name that repeats an earlier one (a linear pass)."""
    if len(set(names)) == len(names):
        return
    seen = set()
    for column in names:
        if column in seen:
            raise error(name, location, str(column), message=message)
        seen.add(column)


# --- JSONL --------------------------------------------------------------------------------
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
    return _jsonl_frame(enumerate(data.split(b"\n"), start=1), name, error)


def _jsonl_frame(numbered, name: str, error) -> pd.DataFrame:
    """The frame of :func:`read_jsonl_records` from (line number, line without its end).
    Every faulty line is reported (at most :data:`MAX_ROW_ERRORS`, then a count)."""
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
            record["id"] = _id_text(record["id"])
        records.append(record)
        lines.append(number)
    if faults:
        raise error.first_of(_capped(faults, name, ""))
    frame = pd.DataFrame.from_records(records) if records else pd.DataFrame({"attempt": []})
    frame.attrs.update(locations="line", lines=np.array(lines, dtype=np.int64))
    return frame


_MISSING = object()


def _record_id(record) -> str | None:
    return _id_text(record.get("id")) if isinstance(record, dict) else None


def _id_text(value) -> str | None:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)


# --- Parquet ------------------------------------------------------------------------------
def read_parquet_table(path: str, *, error: type[InputFileError] = AttemptsFormatError) -> pa.Table:
    """A Parquet file as an Arrow table: a regular file, readable, no column named twice."""
    require_regular_file(path, error)
    try:
        names = pq.read_schema(path).names
        _refuse_repeats(names, path, "", "column named twice in the file", error)
        return pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        reason = " ".join(str(exc).split())  # Arrow's messages can run over lines
        raise error(path, message=f"not a readable Parquet file ({reason})") from None


def _read_parquet(path: str) -> pd.DataFrame:
    table = read_parquet_table(path)
    if "attempt" in table.column_names:
        kind = table.schema.field("attempt").type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise AttemptsFormatError(path, "", "attempt", expected="a string column", got=str(kind))
    return table.to_pandas(types_mapper={pa.string(): STRING, pa.large_string(): STRING}.get)


def _checked(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Check the columns, nulls and ids; return ``id, attempt, carried...`` with string ids.
    Every faulty row is reported (:func:`_all_faults`)."""
    checked, faults = _check_rows(frame, name, 0)
    if faults:
        raise _all_faults(faults)
    checked.attrs.clear()
    return checked


_FAULT_ORDER = ("column", "attempt", "id", "duplicate")
"""The faults of :func:`_check_rows` in the order they are reported: a missing ``attempt``
column, null attempts, null ids, repeated ids (each kind's rows in file order)."""

MAX_ROW_ERRORS = 1000
"""Rows reported per kind of fault; past them one line says how many more there are."""


def _row_errors(rows: np.ndarray, make, name: str, field: str) -> list[AttemptsFormatError]:
    """An error for each row (``make(row)``), at most :data:`MAX_ROW_ERRORS`, then one that
    counts the others."""
    errors = [make(int(row)) for row in rows[:MAX_ROW_ERRORS]]
    if len(rows) > MAX_ROW_ERRORS:
        errors.append(AttemptsFormatError(
            name, "", field, message=f"{len(rows) - MAX_ROW_ERRORS} more rows like these"))
    return errors


def _all_faults(faults: dict[str, AttemptsFormatError]) -> AttemptsFormatError:
    """One error carrying every fault, kind after kind (:data:`_FAULT_ORDER`)."""
    return AttemptsFormatError.first_of(
        [e for kind in _FAULT_ORDER if kind in faults for e in faults[kind].errors])


def _check_rows(frame: pd.DataFrame, name: str, first_row: int):
    """(``id, attempt, carried...`` with string ids, or None; the faults found, by kind).

    ``frame`` holds rows ``first_row`` onwards of a file: default ids and the rows that
    faults name count from there. The checked frame is None when a fault stops it.
    """
    unit = frame.attrs.get("locations", "row")
    lines = frame.attrs.get("lines")

    def where(row: int) -> str:  # "row 3" (from 0), or the line of a JSONL record
        return f"{unit} {first_row + row if lines is None else int(lines[row])}"

    faults: dict[str, AttemptsFormatError] = {}
    if "attempt" not in frame.columns:
        found = ", ".join(map(str, frame.columns)) or "none"
        faults["column"] = AttemptsFormatError(
            name, "", "attempt", message=f"missing column 'attempt' (columns: {found})")
        return None, faults
    ids = frame["id"] if "id" in frame.columns else None
    for field in ("attempt", "id"):
        if field in frame.columns and frame[field].isna().any():
            def null(row: int, field=field) -> AttemptsFormatError:
                row_id = None if ids is None or pd.isna(ids.iloc[row]) else _id_text(ids.iloc[row])
                return AttemptsFormatError(
                    name, where(row), field, row_id=row_id,
                    expected="a string" if field == "attempt" else "an id", got="null")

            rows = np.flatnonzero(frame[field].isna().to_numpy())
            faults[field] = AttemptsFormatError.first_of(_row_errors(rows, null, name, field))
    if "id" in faults:  # the ids cannot be compared: the repeats are not looked for
        return None, faults
    if ids is None:
        text = row_ids(first_row, len(frame))
    elif isinstance(ids.dtype, pd.ArrowDtype) and pa.types.is_string(ids.dtype.pyarrow_dtype):
        text = ids.array
    else:
        ids = ids.map(_id_text) if ids.dtype == object else ids.astype(str)
        text = ids.to_numpy(dtype=object)
    frame = frame.drop(columns=["id"], errors="ignore")
    frame.insert(0, "id", pd.array(text, dtype=STRING))
    frame["attempt"] = frame["attempt"].astype(STRING)
    hashes = _string_hashes(frame["id"].array)
    ranked = np.sort(hashes)
    # pandas compares the ids themselves only when two of their hashes are equal
    repeated = frame["id"].duplicated(keep="first") if (ranked[1:] == ranked[:-1]).any() \
        else None
    if repeated is not None and repeated.any():
        unique = ~repeated.to_numpy()
        first_at = dict(zip(frame["id"].to_numpy()[unique].tolist(),
                            np.flatnonzero(unique).tolist()))

        def duplicate(row: int) -> AttemptsFormatError:
            dup = frame["id"].iloc[row]
            return AttemptsFormatError(
                name, where(row), "id", row_id=dup,
                message=f"duplicate id (first used at {where(first_at[dup])})")

        rows = np.flatnonzero(repeated.to_numpy())
        faults["duplicate"] = AttemptsFormatError.first_of(
            _row_errors(rows, duplicate, name, "id"))
    order = ["id", "attempt"] + [c for c in frame.columns if c not in ("id", "attempt")]
    frame = frame[order]
    frame.attrs.clear()
    frame.attrs["id_hashes"] = hashes  # for AttemptChunks (read_attempts drops it)
    return frame, faults


def _capped(errors: list[AttemptsFormatError], name: str,
            field: str) -> list[AttemptsFormatError]:
    """The first :data:`MAX_ROW_ERRORS` row errors and one line counting the others (a
    counting line already there is folded in)."""
    rows = [e for e in errors if e.location]
    more = sum(int(e.message.split(" ", 1)[0]) for e in errors if not e.location)
    more += max(0, len(rows) - MAX_ROW_ERRORS)
    kept = rows[:MAX_ROW_ERRORS]
    if more:
        kept.append(AttemptsFormatError(name, "", field, message=f"{more} more rows like these"))
    return kept


# --- in chunks ----------------------------------------------------------------------------
CHUNK_ROWS = 131_072
"""Rows per chunk of :class:`AttemptChunks` (an eighth of a Parquet row group; measured on 10^6
attempts: the same speed as 4 times more, 160 MiB less at the peak)."""


class _Unstreamable(Exception):
    """Reading in chunks would not give what reading whole gives (the chunks' columns or
    types differ: pandas infers a column's type from its values); read the file whole."""


class AttemptChunks:
    """An attempts file read a chunk at a time: the frame of :func:`read_attempts`, cut into
    consecutive pieces of about ``rows`` rows (default ids and locations count from the file's
    start), so that memory stays flat however long the file is.

    Faults are the ones :func:`read_attempts` reports, in the same order: a fault of the
    file's text (CSV, JSON, Parquet) when it is reached; a fault of its rows (no ``attempt``
    column, a null attempt or id, an id used twice, in different chunks too) once the file
    has been read to its end, as it is found in the whole file. No chunk is given after a
    fault of the rows is found. :class:`_Unstreamable` when the chunks disagree in columns or
    types (a JSONL key in some records only, an integer column with nulls in some chunks).

    ``rows`` defaults to :data:`CHUNK_ROWS`. ``rows_read`` counts the rows given so far; ``total_rows`` is the file's row count (exact
    for Parquet, else estimated from the bytes read, exact at the end).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.csv")
    >>> _ = open(p, "w").write("attempt\\na\\nb\\nc\\n")
    >>> [chunk["id"].tolist() for chunk in AttemptChunks(p, rows=2)]
    [['0', '1'], ['2']]
    """

    def __init__(self, path: str, *, rows: int | None = None) -> None:
        self.path, self.rows = path, max(1, int(CHUNK_ROWS if rows is None else rows))
        self.suffix = file_format(path, what="an attempts file")
        require_regular_file(path, AttemptsFormatError)
        self.rows_read, self.total_rows = 0, None
        self._size = max(1, os.path.getsize(path))

    def __iter__(self):
        name = self.path
        faults: dict[str, AttemptsFormatError] = {}
        hashes = _Growing(self._guess_rows())
        first_dtypes = None
        start = 0
        for raw, last in _with_last(self._raw_chunks()):
            if last:
                self.total_rows = start + len(raw)
            dtypes = (list(raw.columns), list(raw.dtypes))
            if first_dtypes is None:
                first_dtypes = dtypes
            elif dtypes != first_dtypes:
                raise _Unstreamable(f"{name}: columns or types differ from row {start} on")
            stopped = "column" in faults
            if not stopped:
                frame, found = _check_rows(raw, name, start)
                for kind, fault in found.items():
                    if kind == "duplicate":
                        continue  # the hashes find every repeat, across chunks too
                    if kind in faults:  # every row is reported (within the cap)
                        faults[kind].errors.extend(fault.errors)
                    else:
                        faults[kind] = fault
                id_hashes = frame.attrs.pop("id_hashes") if frame is not None else None
                if frame is not None and "id" in raw.columns:
                    hashes.extend(id_hashes)
                if frame is not None and not faults:
                    self.rows_read = start + len(frame)
                    yield frame
            start += len(raw)
        self.total_rows = start
        if len(hashes.values) and "id" not in faults and "column" not in faults:
            repeats = self._repeated_ids(hashes.values)
            if repeats:
                faults["duplicate"] = AttemptsFormatError.first_of(repeats)
        if faults:
            for kind in ("attempt", "id"):
                if kind in faults:  # chunks each kept their own first rows: cap the whole
                    faults[kind].errors = _capped(faults[kind].errors, name, kind)
            raise _all_faults(faults)

    def _guess_rows(self) -> int:
        """At least the file's rows, as far as can be told before reading it: Parquet's
        footer, else one row per 16 bytes (untouched memory costs nothing resident)."""
        if self.suffix == ".parquet":
            try:
                return pq.ParquetFile(self.path).metadata.num_rows
            except (pa.ArrowInvalid, OSError):
                return 0
        return self._size // 16

    def _progress(self, rows: int, done_bytes: int | None) -> None:
        if self.suffix != ".parquet" and done_bytes:
            self.total_rows = max(rows, round(rows * self._size / done_bytes))

    # -- the file's rows, chunk by chunk, unchecked ------------------------------------------
    def _raw_chunks(self):
        if self.suffix == ".csv":
            return self._csv_chunks()
        if self.suffix == ".jsonl":
            return self._jsonl_chunks()
        return self._parquet_chunks()

    def _parquet_chunks(self):
        name = self.path
        try:
            # pre_buffer (Arrow's default) keeps every row group's column chunks read so far
            # until the file is closed: memory would grow with the file (measured: +25 MiB a
            # row group of 10^6 attempts); read through a 1 MiB buffer instead
            file = pq.ParquetFile(name, pre_buffer=False, buffer_size=1 << 20)
            schema = file.schema_arrow
            _refuse_repeats(schema.names, name, "", "column named twice in the file",
                            AttemptsFormatError)
            self.total_rows = file.metadata.num_rows
        except (pa.ArrowInvalid, OSError) as exc:
            reason = " ".join(str(exc).split())
            raise AttemptsFormatError(name, message=f"not a readable Parquet file ({reason})") \
                from None
        if any(pa.types.is_dictionary(f.type) for f in schema):
            raise _Unstreamable(f"{name}: dictionary columns (categories) are read whole")
        if "attempt" in schema.names:
            kind = schema.field("attempt").type
            if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
                raise AttemptsFormatError(name, "", "attempt", expected="a string column",
                                          got=str(kind))
        mapper = {pa.string(): STRING, pa.large_string(): STRING}.get
        batches = file.iter_batches(batch_size=self.rows, use_pandas_metadata=True)
        while True:
            try:
                batch = next(batches, None)
            except (pa.ArrowInvalid, OSError) as exc:
                reason = " ".join(str(exc).split())
                raise AttemptsFormatError(name, message=f"not a readable Parquet file "
                                                        f"({reason})") from None
            if batch is None:
                if self.total_rows == 0:
                    yield schema.empty_table().to_pandas(types_mapper=mapper)
                return
            yield pa.Table.from_batches([batch]).to_pandas(types_mapper=mapper)

    def _jsonl_chunks(self):
        name = self.path

        def numbered(fh):
            for number, raw in enumerate(fh, start=1):
                yield number, raw[:-1] if raw.endswith(b"\n") else raw

        with open(name, "rb") as fh:
            lines = numbered(fh)
            rows_before = 0
            faults: list[AttemptsFormatError] = []
            while True:
                block = list(itertools.islice(lines, self.rows))
                if not block:
                    if faults:  # every faulty line of the file, as read whole
                        raise AttemptsFormatError.first_of(_capped(faults, name, ""))
                    if rows_before == 0:
                        yield _jsonl_frame([], name, AttemptsFormatError)
                    return
                try:
                    frame = _jsonl_frame(block, name, AttemptsFormatError)
                except AttemptsFormatError as err:
                    faults += err.errors
                    continue
                if faults:
                    continue  # read on for the other faulty lines; nothing more is scored
                rows_before += len(frame)
                self._progress(rows_before, fh.tell())
                if len(frame) or rows_before == 0:
                    yield frame

    def _csv_chunks(self):
        name, error = self.path, AttemptsFormatError
        with open(name, "rb") as fh:
            width = _header_width(fh, name, error)
            fh.seek(0)
            source = _WithSentinel(fh, b",".join([_END] * width))
            types = {f"f{i}": pa.string() for i in range(width)}
            parse = pa_csv.ParseOptions(newlines_in_values=True, ignore_empty_lines=False)
            convert = pa_csv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                            quoted_strings_can_be_null=False, null_values=[])
            read = pa_csv.ReadOptions(autogenerate_column_names=True, use_threads=False)
            names, pending, held, rows_before = None, [], 0, 0
            try:
                reader = pa_csv.open_csv(source, read_options=read, parse_options=parse,
                                         convert_options=convert)
                for batch in reader:
                    if batch.num_columns != width:
                        raise pa.ArrowInvalid("columns")
                    if names is None and batch.num_rows:
                        names = [str(v[0].as_py()) for v in batch.columns]
                        _refuse_repeats(names, name, "line 1", _TWICE, error)
                        batch = batch.slice(1)
                    pending.append(batch)
                    held += batch.num_rows
                    while held > self.rows:  # one row always held back: the sentinel
                        table = pa.Table.from_batches(pending)
                        rows_before += self.rows
                        self._progress(rows_before, source.consumed)
                        yield _csv_frame(table.slice(0, self.rows), names)
                        rest = table.slice(self.rows)
                        pending, held = rest.to_batches(), rest.num_rows
            except pa.ArrowInvalid:
                pending = None
            if pending is None or names is None or not held or not source.finished:
                ending = None
            else:
                table = pa.Table.from_batches(pending)
                ending = table.slice(held - 1)
            if ending is None or ending.column(width - 1)[0].as_py() != _END.decode():
                # Arrow refused something, or a quote was left open: the whole-file reader
                # names the fault as it always has (and reads the file whole if there is none)
                read_strict_csv(read_input(name, error), name, error=error)
                raise _Unstreamable(f"{name}: read whole")
            if rows_before == 0 or held > 1:
                yield _csv_frame(table.slice(0, held - 1), names)

    def _repeated_ids(self, hashes: np.ndarray) -> list[AttemptsFormatError]:
        """Find the repeated ids among all rows from their hashes (sorted in place: the rows'
        order is not kept, so memory stays at 8 bytes a row); a repeated hash sends the file
        through once more to compare the ids of its rows, and every repeat is reported as
        :func:`_checked` reports it (within :data:`MAX_ROW_ERRORS`)."""
        hashes.sort()
        repeated = hashes[1:][hashes[1:] == hashes[:-1]]
        if not len(repeated):
            return []
        ids: dict[int, str] = {}
        lines: dict[int, int] = {}
        start = 0
        for raw in self._raw_chunks():
            frame, _ = _check_rows(raw, self.path, start)
            rows = np.flatnonzero(np.isin(_string_hashes(frame["id"].array), repeated))
            ids.update(zip((start + rows).tolist(), frame["id"].iloc[rows].tolist()))
            if "lines" in raw.attrs:
                lines.update(zip((start + rows).tolist(), raw.attrs["lines"][rows].tolist()))
            start += len(raw)
        first_at: dict[str, int] = {}

        def where(r: int) -> str:
            return f"line {lines[r]}" if lines else f"row {r}"

        errors = []
        for row in sorted(ids):
            if ids[row] in first_at:
                errors.append(AttemptsFormatError(
                    self.path, where(row), "id", row_id=ids[row],
                    message=f"duplicate id (first used at {where(first_at[ids[row]])})"))
            else:
                first_at[ids[row]] = row
        return _capped(errors, self.path, "id")


class _Growing:
    """An array of uint64 grown in place (by half again when full), from a first guess of its
    length: no list of pieces to concatenate at the end (which would hold it twice)."""

    def __init__(self, guess: int | None) -> None:
        self._buffer = np.empty(max(int(guess or 0), 1024), dtype=np.uint64)
        self._size = 0

    def extend(self, values: np.ndarray) -> None:
        end = self._size + len(values)
        if end > len(self._buffer):
            self._buffer.resize(max(end, len(self._buffer) * 3 // 2), refcheck=False)
        self._buffer[self._size:end] = values
        self._size = end

    @property
    def values(self) -> np.ndarray:
        return self._buffer[:self._size]


def _with_last(iterable):
    """(item, whether it is the last) for each item: one item read ahead."""
    iterator = iter(iterable)
    try:
        current = next(iterator)
    except StopIteration:
        return
    for following in iterator:
        yield current, False
        current = following
    yield current, True


def _csv_frame(table: pa.Table, names: list[str]) -> pd.DataFrame:
    return table.rename_columns(names).to_pandas(types_mapper={pa.string(): STRING}.get)


class _WithSentinel(io.RawIOBase):
    """A file's bytes, then a line end if it has none, then ``tail`` (the sentinel row of
    :func:`_parse_csv`), as one stream; ``consumed`` counts the file's bytes read."""

    def __init__(self, fh, tail: bytes) -> None:
        self.fh, self.tail, self.consumed, self.finished = fh, tail, 0, False
        self.last = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.finished:
            n = self.fh.readinto(buffer)
            if n:
                self.consumed += n
                self.last = bytes(buffer[n - 1:n])
                return n
            self.finished = True
            self.tail = (b"" if self.last in (b"\n", b"\r") else b"\n") + self.tail
        n = min(len(buffer), len(self.tail))
        buffer[:n] = self.tail[:n]
        self.tail = self.tail[n:]
        return n


_PRIME = 0x100000001B3
_INVERSE = pow(_PRIME, -1, 2**64)


_POWERS: dict[int, np.ndarray] = {}


def _powers(base: int, n: int) -> np.ndarray:
    """``base ** k`` modulo 2**64 for k in 0..n-1 (kept for the next call)."""
    table = _POWERS.get(base)
    if table is None or len(table) < n:
        table = np.full(max(n, 1 << 16, 2 * len(table) if table is not None else 0), base,
                        dtype=np.uint64)
        table[:1] = 1
        with np.errstate(over="ignore"):
            np.cumprod(table, out=table)
        _POWERS[base] = table
    return table[:n]


def _string_hashes(values) -> np.ndarray:
    """A 64-bit hash of each string of an Arrow string array, vectorized: a polynomial over
    its bytes (modulo 2**64, brought to one origin with the inverse powers), mixed with its
    length. Equal strings, equal hashes; a repeated hash is to be checked on the strings.

    >>> import pyarrow as pa
    >>> h = _string_hashes(pa.array(["abc", "x", "abc", ""]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1]), bool(h[0] == _string_hashes(pa.array(["q", "abc"]))[1])
    (True, False, True)
    """
    arr = values.__arrow_array__() if hasattr(values, "__arrow_array__") else values
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks else pa.array([], pa.string())
    if pa.types.is_large_string(arr.type):
        arr = arr.cast(pa.string())
    if not len(arr):
        return np.zeros(0, dtype=np.uint64)
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int32, count=len(arr) + 1,
                            offset=arr.offset * 4).astype(np.int64)
    buffer = arr.buffers()[2]
    data = np.frombuffer(buffer, dtype=np.uint8)[offsets[0]:offsets[-1]] if buffer is not None \
        else np.zeros(0, dtype=np.uint8)
    offsets = offsets - offsets[0]
    with np.errstate(over="ignore"):
        prefix = np.zeros(len(data) + 1, dtype=np.uint64)
        np.cumsum((data.astype(np.uint64) + np.uint64(1)) * _powers(_PRIME, len(data)),
                  out=prefix[1:])
        h = (prefix[offsets[1:]] - prefix[offsets[:-1]]) * _powers(_INVERSE, len(data) + 1)[
            offsets[:-1]]
        h ^= np.diff(offsets).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h
