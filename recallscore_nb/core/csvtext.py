"""The package's CSV dialect, as text: a header, booleans ``true``/``false`` (a missing one
empty), floats in full, ``"\\n"`` line ends, quoting only where needed, no index; the same
bytes on every run and platform. Scored tables (:mod:`recallscore_nb.io.scored`) and the
paper's tables (:mod:`recallscore_nb.render.tables`) are both written in it.

>>> import pandas as pd
>>> print(csv_text(pd.DataFrame({"id": ["R01"], "ok": [True], "n": [None]})), end="")
id,ok,n
R01,true,
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyarrow as pa

__all__ = ["csv_ready", "csv_text", "write_csv_text", "per_value"]


_CHUNK_CELLS = 2_000_000
"""About how many cells a writer converts at a time: a wide table (one column per fact) is
written a few rows at a time, so its text never sits in memory whole."""
_TRUE_FALSE_EMPTY = np.array(["false", "true", ""], dtype=object)


def _cell(value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return value


def _per_value(dtype) -> bool:
    """Whether pandas writes each cell of a column of ``dtype`` on its own (numbers, text,
    booleans); dates and durations are formatted column-wide, so they are not cut into chunks.
    """
    if isinstance(dtype, np.dtype):
        return dtype.kind in "biufOUS"
    if isinstance(dtype, pd.ArrowDtype):
        kind = dtype.pyarrow_dtype
        return (pa.types.is_string(kind) or pa.types.is_large_string(kind)
                or pa.types.is_integer(kind) or pa.types.is_floating(kind)
                or pa.types.is_boolean(kind))
    return isinstance(dtype, pd.StringDtype) or (
        pd.api.types.is_extension_array_dtype(dtype) and dtype.kind in "biuf"
        and not isinstance(dtype, (pd.SparseDtype, pd.ArrowDtype)))


def csv_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy with booleans spelled ``true``/``false`` (a missing one empty), also inside
    columns of mixed values; every other cell as it was.

    The boolean columns (a scored table has one per fact) become one block of text, taken
    from two strings, so a table thousands of columns wide stays quick to write.
    """
    dtypes = list(frame.dtypes)
    plain = [i for i, t in enumerate(dtypes) if isinstance(t, np.dtype) and t.kind == "b"]
    parts: dict[int, object] = {}
    skip = set(plain)
    if plain:
        cells = _TRUE_FALSE_EMPTY[frame.iloc[:, plain].to_numpy(dtype=bool).astype(np.intp)]
        block = pd.DataFrame(cells, columns=plain, index=frame.index, dtype=object)
    for i, dtype in enumerate(dtypes):
        if i in skip:
            continue
        column = frame.iloc[:, i]
        if pd.api.types.is_bool_dtype(dtype):  # nullable booleans: a missing one stays empty
            codes = column.fillna(False).to_numpy(dtype=bool).astype(np.intp)
            codes[column.isna().to_numpy()] = 2
            parts[i] = _TRUE_FALSE_EMPTY[codes]
        elif dtype == object:  # mixed cells: keep ints as ints, None as empty
            parts[i] = np.array([_cell(v) for v in column], dtype=object)
        else:
            parts[i] = column
    rest = pd.DataFrame({i: (v if isinstance(v, pd.Series) else pd.Series(v, index=frame.index, dtype=object))
                         for i, v in parts.items()}, index=frame.index)
    out = pd.concat([block, rest], axis=1) if plain else rest
    out = out[list(range(len(dtypes)))] if len(dtypes) else frame.copy()
    out.columns = frame.columns
    return out


def write_csv_text(frame: pd.DataFrame, file, *, header: bool = True) -> None:
    """Write ``frame`` as CSV to the open text ``file``: a header, booleans as
    ``true``/``false``, floats in full, ``"\n"`` line ends, quoting only where needed, and
    no index (pandas' ``to_csv`` on :func:`csv_ready`), a chunk of rows at a time;
    ``header=False`` leaves out the header (a table written in pieces).

    >>> import io
    >>> buffer = io.StringIO()
    >>> write_csv_text(pd.DataFrame({"id": ["a,b"], "ok": [True], "f1": [2 / 3]}), buffer)
    >>> print(buffer.getvalue(), end="")
    id,ok,f1
    "a,b",true,0.6666666666666666
    """
    rows = max(1, _CHUNK_CELLS // max(1, frame.shape[1]))
    if len(frame) <= rows or not all(_per_value(t) for t in frame.dtypes):
        rows = max(1, len(frame))
    for start in range(0, max(1, len(frame)), rows):
        chunk = csv_ready(frame.iloc[start:start + rows])
        chunk.to_csv(file, index=False, header=header and start == 0, lineterminator="\n",
                     chunksize=max(1, len(chunk)))


def per_value(frame: pd.DataFrame) -> bool:
    """Whether each cell of ``frame`` is written on its own (no column of dates or durations,
    which pandas formats column-wide), so that pieces written one after the other give the
    bytes of the whole."""
    return all(_per_value(t) for t in frame.dtypes)


def csv_text(frame: pd.DataFrame) -> str:
    """The frame as CSV text, the same bytes on every run and platform.

    >>> print(csv_text(pd.DataFrame({"id": ["R01"], "ok": [True], "n": [None]})), end="")
    id,ok,n
    R01,true,
    """
    buffer = io.StringIO()
    write_csv_text(frame, buffer)
    return buffer.getvalue()
