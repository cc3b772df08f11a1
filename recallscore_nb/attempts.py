"""Reading attempts files (CSV, JSONL, Parquet) and writing scored tables, atomically.

An attempts file has an ``attempt`` column, an optional ``id`` (kept as a string; default the
0-based row number) and any other columns, which are carried through. CSV is read with no NA
guessing: an empty field is the empty attempt and "NA", "null" or "None" are literal
attempts. In JSONL and Parquet a null attempt is an error.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from .engine import STRING
from .errors import AttemptsFormatError, UsageError
from .files import atomic_write
from .tables import csv_ready

__all__ = ["read_attempts", "write_table", "FORMATS"]

FORMATS = (".csv", ".jsonl", ".parquet")


def _format_of(path: str, *, what: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"{path}: {what} must end in {', '.join(FORMATS)} (got {suffix or 'no extension'!r})")
    return suffix


def read_attempts(path: str) -> pd.DataFrame:
    """Read an attempts file into a DataFrame: ``id``, ``attempt``, then the carried columns.

    ``path`` "-" reads CSV from standard input.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "a.csv")
    >>> _ = open(p, "w").write("attempt,system\\nNA,x\\n,y\\n")
    >>> read_attempts(p)[["id", "attempt", "system"]].values.tolist()
    [['0', 'NA', 'x'], ['1', '', 'y']]
    """
    if path == "-":
        return _checked(_read_csv(sys.stdin.buffer.read(), "<stdin>"), "<stdin>")
    suffix = _format_of(path, what="an attempts file")
    if not os.path.isfile(path):
        raise AttemptsFormatError(path, message="no such file")
    if suffix == ".csv":
        with open(path, "rb") as fh:
            frame = _read_csv(fh.read(), path)
    elif suffix == ".jsonl":
        frame = _read_jsonl(path)
    else:
        frame = _read_parquet(path)
    return _checked(frame, path)


def _read_csv(data: bytes, name: str) -> pd.DataFrame:
    """Strict CSV: every field a string (no NA guessing), every line the header's width."""
    header = _csv_header(data, name)
    options = dict(
        parse_options=pa_csv.ParseOptions(newlines_in_values=True, ignore_empty_lines=False),
        convert_options=pa_csv.ConvertOptions(
            column_types={column: pa.string() for column in header},
            strings_can_be_null=False, quoted_strings_can_be_null=False, null_values=[]),
    )
    try:
        table = pa_csv.read_csv(io.BytesIO(data), **options)
    except pa.ArrowInvalid as exc:
        raise _csv_error(data, name, header, exc) from None
    return table.to_pandas(types_mapper={pa.string(): STRING}.get)


def _csv_header(data: bytes, name: str) -> list[str]:
    first = data.split(b"\n", 1)[0].rstrip(b"\r")
    try:
        header = next(csv.reader([first.decode("utf-8")]), [])
    except UnicodeDecodeError as exc:
        raise AttemptsFormatError(name, "line 1", message=f"not UTF-8 text (byte {exc.start})") from None
    if not header:
        raise AttemptsFormatError(name, message="empty file: expected a header line with an 'attempt' column")
    repeated = sorted({c for c in header if header.count(c) > 1})
    if repeated:
        raise AttemptsFormatError(name, "line 1", repeated[0], message="column named twice in the header")
    return header


def _csv_error(data: bytes, name: str, header: list[str], exc: Exception) -> AttemptsFormatError:
    """Locate what Arrow refused (it names no line): a bad byte or a line of the wrong width."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        return AttemptsFormatError(name, f"line {line}", message=f"not UTF-8 text (byte {bad.start})")
    for record in (reader := csv.reader(io.StringIO(text, newline=""))):
        if len(record) != len(header):
            return AttemptsFormatError(
                name, f"line {reader.line_num}",
                message=f"expected {len(header)} fields as in the header, got {len(record)}")
    return AttemptsFormatError(name, message=f"not valid CSV ({exc})")


def _reject_duplicate_keys(pairs):
    keys = [k for k, _ in pairs]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise _DuplicateKey(repeated[0])
    return dict(pairs)


class _DuplicateKey(ValueError):
    pass


def _read_jsonl(path: str) -> pd.DataFrame:
    records = []
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise AttemptsFormatError(path, f"line {number}", message=f"not UTF-8 text ({exc.reason})") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line, object_pairs_hook=_reject_duplicate_keys)
            except _DuplicateKey as exc:
                raise AttemptsFormatError(path, f"line {number}", str(exc), message="key repeated in one object") from None
            except json.JSONDecodeError as exc:
                raise AttemptsFormatError(path, f"line {number}", message=f"not valid JSON ({exc.msg} at column {exc.colno})") from None
            if not isinstance(record, dict):
                raise AttemptsFormatError(path, f"line {number}", expected="a JSON object", got=type(record).__name__)
            attempt = record.get("attempt", _MISSING)
            if attempt is not _MISSING and not isinstance(attempt, str):
                raise AttemptsFormatError(
                    path, f"line {number}", "attempt", row_id=_id_text(record.get("id")),
                    expected="a string", got=json.dumps(attempt),
                )
            if "id" in record:
                record["id"] = _id_text(record["id"])
            records.append(record)
    frame = pd.DataFrame.from_records(records) if records else pd.DataFrame({"attempt": []})
    frame.attrs["locations"] = "line"
    return frame


_MISSING = object()


def _id_text(value) -> str | None:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return str(value)


def _read_parquet(path: str) -> pd.DataFrame:
    try:
        table = pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise AttemptsFormatError(path, message=f"not a readable Parquet file ({exc})") from None
    if "attempt" in table.column_names:
        kind = table.schema.field("attempt").type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise AttemptsFormatError(path, "", "attempt", expected="a string column", got=str(kind))
    return table.to_pandas(types_mapper={pa.string(): STRING, pa.large_string(): STRING}.get)


def _checked(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Check the columns, nulls and ids; return ``id, attempt, carried...`` with string ids."""
    unit = frame.attrs.get("locations", "row")
    first_row = 1 if unit == "line" else 0
    if "attempt" not in frame.columns:
        found = ", ".join(map(str, frame.columns)) or "none"
        raise AttemptsFormatError(name, "", "attempt", message=f"missing column 'attempt' (columns: {found})")
    ids = frame["id"] if "id" in frame.columns else None
    for field in ("attempt", "id"):
        if field in frame.columns and frame[field].isna().any():
            row = int(np.flatnonzero(frame[field].isna().to_numpy())[0])
            row_id = None if ids is None or pd.isna(ids.iloc[row]) else _id_text(ids.iloc[row])
            raise AttemptsFormatError(name, f"{unit} {row + first_row}", field, row_id=row_id,
                                      expected="a string" if field == "attempt" else "an id", got="null")
    if ids is None:
        ids = pd.Series(np.arange(len(frame)).astype(str), index=frame.index)
    ids = ids.map(_id_text) if ids.dtype == object else ids.astype(str)
    frame = frame.drop(columns=["id"], errors="ignore")
    frame.insert(0, "id", pd.array(ids.to_numpy(dtype=object), dtype=STRING))
    frame["attempt"] = frame["attempt"].astype(STRING)
    repeated = frame["id"].duplicated(keep="first")
    if repeated.any():
        row = int(np.flatnonzero(repeated.to_numpy())[0])
        dup = frame["id"].iloc[row]
        first = int(np.flatnonzero((frame["id"] == dup).to_numpy())[0])
        raise AttemptsFormatError(name, f"{unit} {row + first_row}", "id", row_id=dup,
                                  message=f"duplicate id (first used at {unit} {first + first_row})")
    order = ["id", "attempt"] + [c for c in frame.columns if c not in ("id", "attempt")]
    frame = frame[order]
    frame.attrs.clear()
    return frame


# --- writing ----------------------------------------------------------------------------
def write_table(frame: pd.DataFrame, path: str | None, *, metadata: dict[str, str] | None = None) -> None:
    """Write a scored table as CSV, JSONL or Parquet (by extension), atomically; ``None``: CSV
    to standard output. Booleans are ``true``/``false``; floats keep full precision.
    ``metadata`` goes into Parquet's file metadata (key ``recallscore``, as JSON)."""
    if path is None:
        csv_ready(frame).to_csv(sys.stdout, index=False, lineterminator="\n")
        return
    suffix = _format_of(path, what="--out")
    if suffix == ".csv":
        atomic_write(path, lambda tmp: csv_ready(frame).to_csv(
            tmp, index=False, lineterminator="\n", encoding="utf-8"))
    elif suffix == ".jsonl":
        atomic_write(path, lambda tmp: _write_jsonl(frame, tmp))
    else:
        table = _arrow_table(frame, path)
        if metadata:
            extra = {b"recallscore": json.dumps(metadata, sort_keys=True).encode()}
            table = table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})
        atomic_write(path, lambda tmp: pq.write_table(table, tmp))


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


def _json_value(value):
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    return value.item() if isinstance(value, np.generic) else value


def _write_jsonl(frame: pd.DataFrame, tmp: str) -> None:
    columns = list(frame.columns)
    values = [frame[c].to_numpy(dtype=object) for c in columns]
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for row in zip(*values):
            record = {c: _json_value(v) for c, v in zip(columns, row)}
            fh.write(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")
