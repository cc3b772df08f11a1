"""A scored table as JSON lines: one object a line, keys in column order, as ``json.dumps``
writes them (``ensure_ascii=False``), built a column and a chunk of rows at a time.

JSON has no type for some values a carried column may hold; they are written as documented in
:func:`recallscore_nb.io.scored.write_scored` (missing values as ``null``, dates and durations
as ISO 8601 text, decimals with their own digits), and what JSON cannot hold (Infinity, bytes)
is refused in one line naming the row and column.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import json.encoder
import math

import numpy as np
import pandas as pd

from ...core.errors import UsageError

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


def write_jsonl(frame: pd.DataFrame, tmp: str, path: str) -> None:
    """One JSON object a line, keys in column order, as ``json.dumps`` writes them, built a
    column and a chunk of rows at a time."""
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        jsonl_lines(frame, fh, path, 0)


def jsonl_lines(frame: pd.DataFrame, fh, path: str, first_row: int) -> None:
    """Write the lines of :func:`write_jsonl` to the open ``fh``; ``frame`` holds rows
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
