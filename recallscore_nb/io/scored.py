"""Scored tables on disk: writing what ``recallscore score`` produces (CSV, JSONL, Parquet),
reading it back strictly (``recallscore summarize``), and the schema-aware columns with each
basis as compact JSON text.

:func:`write_scored` writes a table atomically by the extension of its path (or CSV to standard
output); :func:`read_scored` reads a scored file through the strict readers of
:mod:`recallscore_nb.io.attempts` and types and checks its known columns, naming the file,
row, id and column of a fault. In a scored CSV every field is text: the rule columns are parsed
here as the rule registry declares them (:func:`recallscore_nb.core.rules.column_of`: binary
ones ``true``/``false`` in any case, graded ones numbers from 0 to 1, counts integers), and an
empty field is missing, which only a rule's optional columns may be (the checklist's, for an
item without a checklist).
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import json.encoder
import math
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.json as pa_json
import pyarrow.parquet as pq

from ..core.csvtext import per_value, write_csv_text
from ..core.engine import STRING
from ..core.errors import InputFileError, UsageError
from ..core.rules import BINARY, COUNT, GRADED, column_of, stored_columns
from ..core.status import fact_status
from .attempts import (
    FORMATS,
    _Unstreamable,
    file_format,
    read_jsonl_records,
    read_parquet_table,
    read_strict_csv,
)
from .files import atomic_write, read_input
from .jsondocs import plain

__all__ = ["write_scored", "write_scored_chunks", "read_scored", "status_frame",
           "item_status_frame", "SCORED_FORMATS", "ROW_GROUP_ROWS"]

SCORED_FORMATS = FORMATS
"""The formats of a scored file, by extension."""
_EXPECTED = {BINARY: "true or false", GRADED: "a number from 0 to 1", COUNT: "an integer >= 0"}
"""What a rule column must hold, by its kind, as an error says it."""
_TYPES = {pa.string(): STRING, pa.large_string(): STRING, pa.bool_(): pd.BooleanDtype(),
          pa.int64(): pd.Int64Dtype()}


# --- writing ----------------------------------------------------------------------------
def write_scored(frame: pd.DataFrame, path: str | None, *,
                 metadata: dict[str, str] | None = None) -> None:
    """Write a scored table as CSV, JSONL or Parquet (by extension), atomically; ``None``: CSV
    to standard output. Booleans are ``true``/``false``; floats keep full precision.
    ``metadata`` goes into Parquet's file metadata (key ``recallscore``, as JSON).

    JSONL has no type for some values a carried column may hold; they are written as:
    a missing value (None, NaN, NaT, NA) as ``null``; dates, times and timestamps as ISO 8601
    text (``"2026-01-02T03:04:05"``, with the offset when zoned); durations as ISO 8601
    durations (``"P0DT0H0M1S"``); decimals as JSON numbers with their own digits (``1.50``,
    read back exactly with ``json.loads(..., parse_float=decimal.Decimal)``); arrays and
    structs as lists and objects. Infinity, which JSON cannot hold, is refused (one line
    naming the row and column; write CSV or Parquet), as are bytes (write Parquet)."""
    if path is None:
        write_csv_text(frame, sys.stdout)
        return
    suffix = file_format(path, what="--out")
    if suffix == ".csv":
        atomic_write(path, lambda tmp: _write_csv(frame, tmp))
    elif suffix == ".jsonl":
        atomic_write(path, lambda tmp: _write_jsonl(frame, tmp, path))
    else:
        table = _with_metadata(_arrow_table(frame, path), metadata)
        atomic_write(path, lambda tmp: pq.write_table(table, tmp, row_group_size=ROW_GROUP_ROWS))


ROW_GROUP_ROWS = 1024 * 1024
"""Rows per Parquet row group (Arrow's default, given explicitly so that a table written in
pieces is cut into the same row groups as when written whole)."""


def _with_metadata(table: pa.Table, metadata) -> pa.Table:
    if not metadata:
        return table
    extra = {b"recallscore": json.dumps(metadata, sort_keys=True).encode()}
    return table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})


def write_scored_chunks(chunks, path: str | None, *,
                        metadata: dict[str, str] | None = None) -> None:
    """Write a scored table given as consecutive pieces (DataFrames with the same columns and
    types, at least one), with the bytes :func:`write_scored` writes for their concatenation,
    one piece in memory at a time (Parquet: up to a row group's rows).

    Atomic as :func:`write_scored`: the pieces go to a temporary file beside ``path``,
    renamed at the end; whatever stops the pieces (a fault in the last one, a full disk,
    Ctrl-C) leaves ``path`` as it was. ``None`` is CSV to standard output, copied there once
    the whole table is written. A fault of ``path`` itself (its extension, a folder) is
    raised once the pieces have all been made, as :func:`write_scored` raises it after the
    table. :class:`~recallscore_nb.io.attempts._Unstreamable` when a piece's types differ
    from the first's, or a CSV column is written column-wide (dates): write the table whole.
    """
    chunks = iter(chunks)
    if path is None:
        with tempfile.TemporaryDirectory(prefix="recallscore-") as folder:
            tmp = os.path.join(folder, "scored.csv")
            _stream_csv(chunks, tmp)
            with open(tmp, encoding="utf-8", newline="") as fh:
                shutil.copyfileobj(fh, sys.stdout)
        return
    started = []

    def write(tmp: str) -> None:
        started.append(True)
        if suffix == ".csv":
            _stream_csv(chunks, tmp)
        elif suffix == ".jsonl":
            _stream_jsonl(chunks, tmp, path)
        else:
            _stream_parquet(chunks, tmp, path, metadata)

    try:
        suffix = file_format(path, what="--out")
        atomic_write(path, write)
    except UsageError:
        if started:
            raise
        for _ in chunks:  # the input's faults come first, as when the table is made whole
            pass
        raise


def _same_types(first: pd.DataFrame | None, chunk: pd.DataFrame) -> pd.DataFrame:
    if first is not None and (list(first.columns) != list(chunk.columns)
                              or list(first.dtypes) != list(chunk.dtypes)):
        raise _Unstreamable("a piece's columns or types differ from the first piece's")
    return chunk if first is None else first


def _stream_csv(chunks, tmp: str) -> None:
    first = None
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        for chunk in chunks:
            if first is None and not per_value(chunk):
                raise _Unstreamable("a column is formatted column-wide (dates or durations)")
            write_csv_text(chunk, fh, header=first is None)
            first = _same_types(first, chunk)


def _stream_jsonl(chunks, tmp: str, path: str) -> None:
    first, rows = None, 0
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for chunk in chunks:
            first = _same_types(first, chunk)
            _jsonl_lines(chunk, fh, path, rows)
            rows += len(chunk)


def _stream_parquet(chunks, tmp: str, path: str, metadata) -> None:
    """Row groups of :data:`ROW_GROUP_ROWS` rows, each written from one contiguous table, as
    ``pq.write_table`` cuts the whole table (the same bytes: a row group written from a table
    in several chunks cuts its pages elsewhere, measured on 10^6 rows). The rows waiting for
    a row group are held column by column, and a row group's table is made one column at a
    time, each column's pieces let go as it is made (so the rows are not held twice)."""
    writer, schema, pending, held, written = None, None, [], 0, 0

    def flush(rows: int) -> None:
        nonlocal pending, held
        columns = []
        for j in range(len(pending)):
            whole = pa.chunked_array(pending[j], type=schema.field(j).type)
            columns.append(whole.slice(0, rows).combine_chunks())
            rest = whole.slice(rows)
            pending[j] = rest.chunks
            del whole, rest
        writer.write_table(pa.Table.from_arrays(columns, schema=schema))
        held -= rows

    try:
        for chunk in chunks:
            table = _with_metadata(_arrow_table(chunk, path), metadata)
            if writer is None:
                schema = table.schema
                writer = pq.ParquetWriter(tmp, schema)
                pending = [[] for _ in schema]
            elif not table.schema.equals(schema, check_metadata=True):
                raise _Unstreamable("a piece's Arrow types differ from the first piece's")
            for j, column in enumerate(table.columns):
                pending[j].extend(column.chunks)
            held += table.num_rows
            del table
            while held >= ROW_GROUP_ROWS:
                flush(ROW_GROUP_ROWS)
                written += ROW_GROUP_ROWS
        if writer is not None and (held or not written):
            flush(held)
    finally:
        if writer is not None:
            writer.close()


def _write_csv(frame: pd.DataFrame, tmp: str) -> None:
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        write_csv_text(frame, fh)


def _arrow_table(frame: pd.DataFrame, path: str) -> pa.Table:
    try:
        return pa.Table.from_pandas(frame, preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        for column in frame.columns:
            try:
                pa.array(frame[column], from_pandas=True)
            except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
                raise UsageError(f"{path}: column {column!r} cannot be written to Parquet: it "
                                 f"mixes types ({exc}); write CSV or JSONL instead") from None
        raise


_CHUNK_CELLS = 2_000_000
"""About how many cells the JSONL writer turns into text at a time (bounds its memory)."""


class _Unwritable(ValueError):
    """A value JSON cannot hold: ``what`` says why, ``advice`` what to write instead."""

    def __init__(self, value, what: str, advice: str = "write CSV or Parquet instead") -> None:
        super().__init__(what)
        self.value, self.what, self.advice = value, what, advice


def _json_value(value):
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    return value.item() if isinstance(value, np.generic) else value


def _is_missing(value) -> bool:
    try:
        return value is None or bool(pd.isna(value))
    except (TypeError, ValueError):  # a list, an array, a dict: not a missing scalar
        return False


def _json_text(value) -> str:
    """One value as JSON text, as ``json.dumps`` writes it (``ensure_ascii=False``), with the
    values JSON has no type for written as documented in :func:`write_scored`.

    >>> _json_text({"a": [1, None, 2.5]}), _json_text(decimal.Decimal("1.50"))
    ('{"a": [1, null, 2.5]}', '1.50')
    >>> _json_text(pd.Timestamp("2026-01-02 03:04:05"))
    '"2026-01-02T03:04:05"'
    """
    plain = _json_value(value)
    try:
        return json.dumps(plain, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return _converted_text(plain)


def _converted_text(value) -> str:
    """JSON text for what ``json.dumps`` refuses: dates and times, decimals, arrays, NaN in a
    list, numpy scalars inside containers; :class:`_Unwritable` for what JSON cannot hold."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (str, bool, int)) or value is None:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        if math.isinf(value):
            raise _Unwritable(value, "cannot be written to JSON (it has no Infinity)")
        return "null" if math.isnan(value) else float.__repr__(value)
    if isinstance(value, decimal.Decimal):
        if value.is_nan():
            return "null"
        if value.is_infinite():
            raise _Unwritable(value, "cannot be written to JSON (it has no Infinity)")
        return str(value)
    if isinstance(value, (dict, list, tuple, np.ndarray)):
        try:
            if isinstance(value, dict):
                items = [f"{_key_text(k)}: {_converted_text(v)}" for k, v in value.items()]
                return "{" + ", ".join(items) + "}"
            return "[" + ", ".join(_converted_text(v) for v in value) + "]"
        except _Unwritable as inner:  # name the whole cell, not the part
            raise _Unwritable(value, inner.what, inner.advice) from None
    if _is_missing(value):  # NaT, a Decimal NaN and the like
        return "null"
    if isinstance(value, pd.Timedelta):
        return json.dumps(value.isoformat())
    if isinstance(value, dt.timedelta):
        return json.dumps(pd.Timedelta(value).isoformat())
    if isinstance(value, (dt.date, dt.time)):  # datetimes and pandas Timestamps too
        return json.dumps(value.isoformat())
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise _Unwritable(value, f"(type {type(value).__name__}) cannot be written to JSON",
                       "write Parquet instead")
    raise _Unwritable(value, f"(type {type(value).__name__}) cannot be written to JSON")


def _key_text(key) -> str:
    """A dict key as ``json.dumps`` writes it (a string, or a number or constant as text)."""
    return json.dumps({key: None}, ensure_ascii=False)[1:-len(": null}")]


def _fragments(column: pd.Series, prefix: str) -> np.ndarray:
    """``prefix`` followed by each cell's JSON text: booleans and numbers by column, text and
    mixed cells one by one (:func:`_json_text`)."""
    dtype = column.dtype
    n = len(column)
    missing = column.isna().to_numpy()
    if pd.api.types.is_bool_dtype(dtype):
        codes = column.fillna(False).to_numpy(dtype=bool).astype(np.intp)
        codes[missing] = 2
        return np.array([prefix + "false", prefix + "true", prefix + "null"], dtype=object)[codes]
    out = np.empty(n, dtype=object)
    if pd.api.types.is_integer_dtype(dtype):
        present = column[~missing].to_numpy(dtype=object)
        out[~missing] = [prefix + str(int(v)) for v in present]
    elif pd.api.types.is_float_dtype(dtype):
        values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        infinite = np.isinf(values)
        if infinite.any():
            row = int(np.flatnonzero(infinite)[0])
            raise _CellError(row, _Unwritable(float(values[row]),
                                           "cannot be written to JSON (it has no Infinity)"))
        missing = np.isnan(values)
        out[~missing] = [prefix + float.__repr__(v) for v in values[~missing].tolist()]
    elif pd.api.types.is_string_dtype(dtype) and dtype != object:
        text = column.to_numpy(dtype=object, na_value=None)
        out[~missing] = [prefix + _STRING(v) for v in text[~missing]]
    else:
        for row, value in enumerate(column.to_numpy(dtype=object)):
            try:
                out[row] = prefix + _json_text(value)
            except _Unwritable as error:
                raise _CellError(row, error) from None
        return out
    out[missing] = prefix + "null"
    return out


_STRING = json.encoder.encode_basestring  # what json.dumps uses with ensure_ascii=False


class _CellError(Exception):
    def __init__(self, row: int, error: _Unwritable) -> None:
        self.row, self.error = row, error


def _write_jsonl(frame: pd.DataFrame, tmp: str, path: str) -> None:
    """One JSON object a line, keys in column order, as ``json.dumps`` writes them, built a
    column and a chunk of rows at a time."""
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        _jsonl_lines(frame, fh, path, 0)


def _jsonl_lines(frame: pd.DataFrame, fh, path: str, first_row: int) -> None:
    """Write the lines of :func:`_write_jsonl` to the open ``fh``; ``frame`` holds rows
    ``first_row`` onwards of the table (as a refusal names them)."""
    prefixes = [_key_text(str(c) if not isinstance(c, (str, int, float, bool)) else c) + ": "
                for c in frame.columns]
    # plain boolean columns (one per fact in a scored table) as one block: each cell is one
    # of its column's two texts, picked by the values
    flags = [j for j, t in enumerate(frame.dtypes) if isinstance(t, np.dtype) and t.kind == "b"]
    flagged = set(flags)
    others = [j for j in range(frame.shape[1]) if j not in flagged]
    texts = np.array([[prefixes[j] + "false", prefixes[j] + "true"] for j in flags],
                     dtype=object).reshape(len(flags), 2)
    rows = max(1, _CHUNK_CELLS // max(1, frame.shape[1]))
    for start in range(0, len(frame), rows):
        chunk = frame.iloc[start:start + rows]
        cells = np.empty(chunk.shape, dtype=object)
        if flags:
            values = chunk.iloc[:, flags].to_numpy(dtype=bool).astype(np.intp)
            cells[:, flags] = texts[np.arange(len(flags)), values]
        for j in others:
            try:
                cells[:, j] = _fragments(chunk.iloc[:, j], prefixes[j])
            except _CellError as bad:
                raise _json_refusal(frame, path, j, start + bad.row, bad.error,
                                    first_row) from None
        fh.write("".join(["{" + ", ".join(line) + "}\n" for line in cells.tolist()]))


def _json_refusal(frame: pd.DataFrame, path: str, column: int, row: int,
                  error: _Unwritable, first_row: int = 0) -> UsageError:
    name = frame.columns[column]
    row_id = None
    if "id" in frame.columns and name != "id":
        value = frame["id"].iloc[row]
        row_id = None if _is_missing(value) else str(value)
    where = f"row {first_row + row}" + (f" (id {row_id})" if row_id is not None else "")
    shown = repr(error.value)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return UsageError(f"{path}: {where}: {name}: {shown} {error.what}; {error.advice}")


# --- reading ------------------------------------------------------------------------------
def read_scored(path, *, by: str = "system", columns: Sequence[str] = ()) -> pd.DataFrame:
    """Read a scored file and check that ``by`` and ``columns`` are there.

    Parameters
    ----------
    path : str or Path
        A CSV, JSONL or Parquet file written by ``recallscore score`` (or holding the
        columns of :func:`recallscore_nb.core.scoring.score_items`).
    by : str
        The column naming each attempt's system; every row needs a value.
    columns : sequence of str
        Scored columns that must be present (the summary's rules need them).

    Returns
    -------
    DataFrame
        The file's columns, with every rule's columns typed by their kind (binary ones as
        nullable booleans, graded ones as floats, counts as nullable integers), and ``by``
        and ``item`` (when present) as strings.

    Raises
    ------
    InputFileError
        Naming the file, and the row (0-based), id and column at fault: a file that is not
        a scored file (no rule column: run ``recallscore score`` first), a missing column, a
        value that is not true/false or not a number in range, or a missing value where only
        the checklist columns may be missing. The file itself is read by the strict readers
        of :mod:`recallscore_nb.io.attempts` (a regular file; CSV all text, one header, no
        unterminated quote; strict JSON lines; Parquet without a repeated column), whose
        errors name the line.

    Examples
    --------
    >>> import tempfile, os
    >>> from recallscore_nb.core.rules import LiteralMatch, TokenF1
    >>> literal, f1 = LiteralMatch.column, TokenF1.column
    >>> p = os.path.join(tempfile.mkdtemp(), "s.csv")
    >>> _ = open(p, "w").write(f"id,system,{literal}\\nr1,x,true\\nr2,x,False\\n")
    >>> read_scored(p, columns=[literal])[literal].tolist()
    [True, False]
    >>> read_scored(p, columns=[f1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: ...s.csv: ...: missing column ... (columns: id, system, ...)
    """
    name = str(path)
    suffix = Path(name).suffix.lower()
    if suffix not in SCORED_FORMATS:
        raise UsageError(f"{name}: a scored file must end in {', '.join(SCORED_FORMATS)} "
                         f"(got {suffix or 'no extension'!r})")
    frame = {".csv": _read_csv, ".jsonl": _read_jsonl, ".parquet": _read_parquet}[suffix](name)
    found = ", ".join(map(str, frame.columns)) or "none"
    known = [c.name for c in stored_columns()]
    if not any(column in frame.columns for column in known):
        raise InputFileError(name, message=f"not a scored file (no rule column such as "
                                           f"{known[0]!r}; columns: {found}): "
                                           f"run 'recallscore score' first")
    for column in dict.fromkeys([by, *columns]):
        if column not in frame.columns:
            raise InputFileError(name, "", column,
                                 message=f"missing column {column!r} (columns: {found})")
    return _typed(frame, name, by)


def _read_csv(name: str) -> pd.DataFrame:
    """Every field as text: no NA guessing, so an empty field is the empty string."""
    return read_strict_csv(read_input(name, InputFileError), name, error=InputFileError)


def _read_jsonl(name: str) -> pd.DataFrame:
    """Arrow reads plain JSON lines, fast; anything it refuses (a repeated key, a lone
    surrogate, a column of mixed types) or might mishandle (``NaN`` or ``Infinity``, which it
    takes for numbers; nesting deep enough to overflow its parser's stack) is read by the strict
    line reader of :mod:`recallscore_nb.io.attempts`, which names the line at fault."""
    data = read_input(name, InputFileError)
    if not data.strip():
        raise InputFileError(name, message="empty file: no scored rows to summarize")
    if _arrow_can_read(data):
        try:
            table = pa_json.read_json(pa.BufferReader(data))
        except pa.ArrowInvalid:
            pass
        else:
            return table.to_pandas(types_mapper=_TYPES.get)
    return read_jsonl_records(data, name, error=InputFileError)


_ARROW_SAFE_DEPTH = 100
"""Lines with more opening brackets than this go to Python's parser: Arrow's recursive JSON
parser overflows its stack (a segmentation fault) somewhere past 10,000 levels."""
_NOT_OPENING = bytes(b for b in range(256) if b not in b"[{\n")
_NON_FINITE = re.compile(rb"[:\[,]\s*-?(?:NaN|Infinity)")


def _arrow_can_read(data: bytes) -> bool:
    """Whether Arrow may parse ``data``: no line opens more than :data:`_ARROW_SAFE_DEPTH`
    brackets, and no ``NaN`` or ``Infinity`` stands where a value would (either may be inside a
    string: such files only take the slower, strict path).

    >>> _arrow_can_read(b'{"a": [1]}\\n{"a": "NaN"}\\n'), _arrow_can_read(b'{"a": NaN}\\n')
    (True, False)
    """
    if (b"NaN" in data or b"Infinity" in data) and _NON_FINITE.search(data):
        return False
    openings = data.translate(None, _NOT_OPENING)
    return max(map(len, openings.split(b"\n"))) <= _ARROW_SAFE_DEPTH


def _read_parquet(name: str) -> pd.DataFrame:
    return read_parquet_table(name, error=InputFileError).to_pandas(types_mapper=_TYPES.get)


def _typed(frame: pd.DataFrame, name: str, by: str) -> pd.DataFrame:
    """Parse and check the known columns, vectorized; the first bad row raises."""
    frame = frame.copy()
    ids = frame["id"].astype(str).to_numpy() if "id" in frame.columns else None

    def fail(bad: np.ndarray, column: str, expected: str, raw: pd.Series) -> None:
        row = int(np.flatnonzero(bad)[0])
        value = raw.iloc[row]
        if pd.isna(value):
            got = "null"
        elif isinstance(value, str):
            got = repr(value) if value.strip() else "empty"
        else:
            got = str(value.item() if isinstance(value, np.generic) else value)
        raise InputFileError(name, f"row {row}", column, expected=expected, got=got,
                             row_id=None if ids is None else ids[row])

    for column in [by, "item"]:
        if column in frame.columns:
            raw = frame[column]
            _, missing = _text(raw)
            if missing.any():
                fail(missing, column, "a name", raw)
            frame[column] = raw.astype(str).astype(STRING)
    kinds = {c: column_of(c) for c in frame.columns}
    booleans = [c for c, kind in kinds.items() if kind is not None and kind.kind == BINARY]
    for column in booleans:
        raw = frame[column]
        values, missing, bad = _parse_booleans(raw)
        if bad.any():
            fail(bad, column, _EXPECTED[BINARY], raw)
        if missing.any() and not kinds[column].optional:
            fail(missing, column, _EXPECTED[BINARY], raw)
        out = pd.array(values, dtype="boolean")
        out[missing] = pd.NA
        frame[column] = out
    numbers = [c for c in stored_columns() if c.kind != BINARY and c.name in frame.columns]
    for kind in numbers:
        column, expected = kind.name, _EXPECTED[kind.kind]
        raw = frame[column]
        values, missing, bad = _parse_numbers(raw)
        if kind.kind == GRADED:
            bad |= ~missing & ~bad & ((values < 0) | (values > 1))
        else:
            bad |= ~missing & ~bad & ((values < 0) | (values != np.floor(values)))
        if bad.any():
            fail(bad, column, expected, raw)
        if missing.any() and not kind.optional:
            fail(missing, column, expected, raw)
        if kind.kind == GRADED:
            frame[column] = values
        else:
            out = pd.array(np.where(missing, 0, values).astype(np.int64), dtype="Int64")
            out[missing] = pd.NA
            frame[column] = out
    for kind in numbers:
        if kind.at_most is not None and kind.at_most in frame.columns:
            over = (frame[kind.name] > frame[kind.at_most]).fillna(False).to_numpy(bool)
            if over.any():
                fail(over, kind.name, f"at most {kind.at_most}", frame[kind.name])
    return frame


def _text(raw: pd.Series):
    """(stripped text, missing) for a text column: missing is null or empty."""
    text = raw.astype("string").str.strip()
    missing = text.isna().to_numpy() | (text == "").fillna(False).to_numpy(bool)
    return text, missing


def _parse_booleans(raw: pd.Series):
    """(values, missing, bad) as numpy booleans: booleans, 0/1 numbers, or true/false text."""
    if pd.api.types.is_bool_dtype(raw.dtype):
        missing = raw.isna().to_numpy()
        return raw.fillna(False).to_numpy(bool), missing, np.zeros(len(raw), bool)
    if pd.api.types.is_numeric_dtype(raw.dtype):
        numbers = raw.astype("Float64")
        missing = numbers.isna().to_numpy()
        values = numbers.to_numpy(float, na_value=0.0)
        return values == 1, missing, ~missing & (values != 0) & (values != 1)
    text, missing = _text(raw)
    lower = text.str.lower()
    is_true = (lower == "true").fillna(False).to_numpy(bool)
    is_false = (lower == "false").fillna(False).to_numpy(bool)
    return is_true, missing, ~(missing | is_true | is_false)


def _parse_numbers(raw: pd.Series):
    """(values, missing, bad): floats (NaN where missing or bad), numbers or numeric text."""
    if pd.api.types.is_bool_dtype(raw.dtype):
        missing = raw.isna().to_numpy()
        return np.full(len(raw), np.nan), missing, ~missing
    if pd.api.types.is_numeric_dtype(raw.dtype):
        values = raw.astype("Float64").to_numpy(float, na_value=np.nan)
        missing = np.isnan(values)
        return values, missing, ~missing & ~np.isfinite(values)
    text, missing = _text(raw)
    values = pd.to_numeric(text.where(~missing), errors="coerce").astype("Float64").to_numpy(
        float, na_value=np.nan)
    return values, missing, ~missing & ~np.isfinite(values)


# --- the schema-aware columns of `recallscore score --schema` --------------------------------
def status_frame(attempts, benchmark, schema) -> pd.DataFrame:
    """Each attempt's fact statuses and weighted score, as ``recallscore score --schema``
    writes them: the columns of :func:`recallscore_nb.core.status.status_columns`, each basis as
    compact JSON text. Aligned with ``attempts`` (a Series or sequence of strings), indexed
    from 0.
    """
    statuses = fact_status(attempts, benchmark, schema).reset_index(drop=True)
    columns: dict[str, Any] = {}
    for name in benchmark.fact_names:
        columns[f"status_{name}"] = pd.array(statuses[f"status_{name}"].to_numpy(dtype=object),
                                             dtype=STRING)
    columns["weighted_score"] = statuses["weighted_score"].astype("float64").to_numpy()
    for name in benchmark.fact_names:
        columns[f"basis_{name}"] = pd.array(
            _compact_each(statuses[f"basis_{name}"].to_numpy(dtype=object)), dtype=STRING)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(statuses)))


def _compact_each(bases: np.ndarray) -> list[str]:
    """:func:`_compact` of each basis, once per distinct basis object (attempts with the same
    text share one)."""
    texts: dict[int, str] = {}
    out = []
    for basis in bases.tolist():
        text = texts.get(id(basis))
        if text is None:
            text = texts[id(basis)] = _compact(basis)
        out.append(text)
    return out


def _compact(value) -> str:
    return json.dumps(plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def item_status_frame(attempts, item_ids, items, schema) -> pd.DataFrame:
    """:func:`status_frame` for an items file: each attempt against its own item
    (:func:`recallscore_nb.core.status.item_fact_status`), over the union of the items' facts;
    a fact the row's item does not have is empty (its status and basis missing), as is the
    weighted score of an item with no checklist. A pure function of the chunk it is given:
    the streaming ``score`` calls it once per chunk."""
    from ..core.status import item_fact_names, item_fact_status

    statuses = item_fact_status(attempts, item_ids, items, schema).reset_index(drop=True)
    names = item_fact_names(items)
    columns: dict[str, Any] = {}
    for name in names:
        columns[f"status_{name}"] = pd.array(statuses[f"status_{name}"].to_numpy(dtype=object),
                                             dtype=STRING)
    columns["weighted_score"] = statuses["weighted_score"].astype("float64").to_numpy()
    for name in names:
        bases = statuses[f"basis_{name}"].to_numpy(dtype=object)
        texts = np.full(len(bases), None, dtype=object)
        has = np.flatnonzero(pd.notna(bases))
        texts[has] = _compact_each(bases[has])
        columns[f"basis_{name}"] = pd.array(texts.tolist(), dtype=STRING)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(statuses)))
