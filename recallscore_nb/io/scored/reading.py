"""Reading a scored file back strictly (``recallscore summarize``): :func:`read_scored`.

The file is read through the package's strict readers
(:mod:`recallscore_nb.io.strict_readers`), then its known columns are typed and checked,
naming the file, row, id and column of a fault. In a scored CSV every field is text: the rule
columns are parsed here as the rule registry declares them
(:func:`recallscore_nb.core.rules.column_of`: binary ones ``true``/``false`` in any case,
graded ones numbers from 0 to 1, counts integers, labels one of the names the column
declares), and an empty field is missing, which only a
rule's optional columns may be (the checklist's, for an item without a checklist).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.json as pa_json

from ...core.engine import STRING
from ...core.errors import InputFileError, UsageError
from ...core.rules import BINARY, COUNT, GRADED, LABEL, Column, column_of, stored_columns
from ..files import read_input
from ..strict_readers import FORMATS, read_jsonl_records, read_parquet_table, read_strict_csv

__all__ = ["read_scored", "SCORED_FORMATS"]

SCORED_FORMATS = FORMATS
"""The formats of a scored file, by extension."""
_EXPECTED = {BINARY: "true or false", GRADED: "a number from 0 to 1", COUNT: "an integer >= 0"}
"""What a rule column must hold, by its kind, as an error says it."""
_TYPES = {pa.string(): STRING, pa.large_string(): STRING, pa.bool_(): pd.BooleanDtype(),
          pa.int64(): pd.Int64Dtype()}


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
        nullable booleans, graded ones as floats, counts as nullable integers, labels as
        strings), and ``by`` and ``item`` (when present) as strings.

    Raises
    ------
    InputFileError
        Naming the file, and the row (0-based), id and column at fault: a file that is not
        a scored file (no rule column: run ``recallscore score`` first), a missing column, a
        value that is not true/false, not a number in range or not one of a label column's
        names, or a missing value where only the checklist columns may be missing. The file
        itself is read by the strict readers of :mod:`recallscore_nb.io.attempts` (a
        regular file; CSV all text, one header, no unterminated quote; strict JSON lines;
        Parquet without a repeated column), whose errors name the line.

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
    kinds = [column_of(c) for c in frame.columns]
    booleans = [kind for kind in kinds if kind is not None and kind.kind == BINARY]
    others = [c for c in stored_columns() if c.kind != BINARY and c.name in frame.columns]
    for kind in booleans + others:
        frame[kind.name] = _PARSERS[kind.kind](frame[kind.name], kind, fail)
    for kind in others:
        if kind.at_most is not None and kind.at_most in frame.columns:
            over = (frame[kind.name] > frame[kind.at_most]).fillna(False).to_numpy(bool)
            if over.any():
                fail(over, kind.name, f"at most {kind.at_most}", frame[kind.name])
    return frame


def _expected(kind: Column) -> str:
    """What a rule column must hold, as an error says it."""
    if kind.kind == LABEL:
        return f"one of {', '.join(kind.labels)}"
    return _EXPECTED[kind.kind]


def _checked(kind: Column, raw: pd.Series, missing: np.ndarray, bad: np.ndarray,
             fail) -> None:
    """Fail on the first bad value, or the first missing one of a column that may not miss."""
    if bad.any():
        fail(bad, kind.name, _expected(kind), raw)
    if missing.any() and not kind.optional:
        fail(missing, kind.name, _expected(kind), raw)


def _boolean_column(raw: pd.Series, kind: Column, fail):
    values, missing, bad = _parse_booleans(raw)
    _checked(kind, raw, missing, bad, fail)
    out = pd.array(values, dtype="boolean")
    out[missing] = pd.NA
    return out


def _number_column(raw: pd.Series, kind: Column, fail):
    """A graded column as floats, a count as nullable integers."""
    values, missing, bad = _parse_numbers(raw)
    if kind.kind == GRADED:
        bad |= ~missing & ~bad & ((values < 0) | (values > 1))
    else:
        bad |= ~missing & ~bad & ((values < 0) | (values != np.floor(values)))
    _checked(kind, raw, missing, bad, fail)
    if kind.kind == GRADED:
        return values
    out = pd.array(np.where(missing, 0, values).astype(np.int64), dtype="Int64")
    out[missing] = pd.NA
    return out


def _label_column(raw: pd.Series, kind: Column, fail):
    """A label column as text, each value one of the column's labels (as written: labels
    are names, their case is theirs)."""
    if pd.api.types.is_bool_dtype(raw.dtype) or pd.api.types.is_numeric_dtype(raw.dtype):
        missing = raw.isna().to_numpy()
        _checked(kind, raw, missing, ~missing, fail)
    text, missing = _text(raw)
    bad = ~missing & ~text.isin(kind.labels).fillna(False).to_numpy(bool)
    _checked(kind, raw, missing, bad, fail)
    return text.where(~missing).astype(STRING)


_PARSERS = {BINARY: _boolean_column, GRADED: _number_column, COUNT: _number_column,
            LABEL: _label_column}
"""How a rule column is parsed and checked, by its kind."""


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
