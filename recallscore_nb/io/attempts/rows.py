"""Checking an attempts file's rows: an ``attempt`` column, no null attempt or id, no id
used twice; ids as text, in front.

Every faulty row is reported, kind after kind (:data:`FAULT_ORDER`), at most
:data:`MAX_ROW_ERRORS` of each, then one line counting the others. Repeated ids are found by
a vectorized 64-bit hash of the ids' bytes (:func:`string_hashes`), the ids themselves
compared only when two hashes are equal; the same hashes let a file read in chunks
(:mod:`recallscore_nb.io.attempts.chunks`) find repeats across chunks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from ...core.engine import STRING, row_ids
from ...core.errors import AttemptsFormatError
from ..strict_readers import id_text

__all__ = ["MAX_ROW_ERRORS", "FAULT_ORDER", "all_faults", "capped", "check_rows", "checked_rows",
           "string_hashes"]

def checked_rows(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Check the columns, nulls and ids; return ``id, attempt, carried...`` with string ids.
    Every faulty row is reported (:func:`all_faults`)."""
    checked, faults = check_rows(frame, name, 0)
    if faults:
        raise all_faults(faults)
    checked.attrs.clear()
    return checked


FAULT_ORDER = ("column", "attempt", "id", "duplicate")
"""The faults of :func:`check_rows` in the order they are reported: a missing ``attempt``
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


def all_faults(faults: dict[str, AttemptsFormatError]) -> AttemptsFormatError:
    """One error carrying every fault, kind after kind (:data:`FAULT_ORDER`)."""
    return AttemptsFormatError.first_of(
        [e for kind in FAULT_ORDER if kind in faults for e in faults[kind].errors])


def check_rows(frame: pd.DataFrame, name: str, first_row: int):
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
                row_id = None if ids is None or pd.isna(ids.iloc[row]) else id_text(ids.iloc[row])
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
        ids = ids.map(id_text) if ids.dtype == object else ids.astype(str)
        text = ids.to_numpy(dtype=object)
    frame = frame.drop(columns=["id"], errors="ignore")
    frame.insert(0, "id", pd.array(text, dtype=STRING))
    frame["attempt"] = frame["attempt"].astype(STRING)
    hashes = string_hashes(frame["id"].array)
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


def capped(errors: list[AttemptsFormatError], name: str,
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


def string_hashes(values) -> np.ndarray:
    """A 64-bit hash of each string of an Arrow string array, vectorized: a polynomial over
    its bytes (modulo 2**64, brought to one origin with the inverse powers), mixed with its
    length. Equal strings, equal hashes; a repeated hash is to be checked on the strings.

    >>> import pyarrow as pa
    >>> h = string_hashes(pa.array(["abc", "x", "abc", ""]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1]), bool(h[0] == string_hashes(pa.array(["q", "abc"]))[1])
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
