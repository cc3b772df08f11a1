"""Reading attempts files (CSV, JSONL, Parquet): the package's strict readers of tabular files.

An attempts file has an ``attempt`` column, an optional ``id`` (kept as a string; default the
0-based row number) and any other columns, which are carried through. CSV is read with no NA
guessing: an empty field is the empty attempt and "NA", "null" or "None" are literal
attempts. In JSONL and Parquet a null attempt is an error.

The file is read by the package's strict readers (:mod:`recallscore_nb.io.strict_readers`),
its rows checked by :mod:`recallscore_nb.io.attempts.rows`; :mod:`recallscore_nb.io.attempts.chunks`
reads it a chunk at a time. Inputs must be regular files (a device or a pipe named as an input
is refused, not read without end); ``-`` is CSV on standard input.
"""

from __future__ import annotations

import io
import os
import stat
import sys

import pandas as pd
import pyarrow as pa

from ...core.engine import STRING
from ...core.errors import AttemptsFormatError
from .chunks import CHUNK_ROWS, AttemptChunks
from .rows import MAX_ROW_ERRORS, checked_rows
from ..files import read_input
from ..strict_readers import (FORMATS, file_format, read_jsonl_records, read_parquet_table,
                             read_strict_csv)

__all__ = ["read_attempts", "FORMATS", "file_format", "read_strict_csv", "read_jsonl_records",
           "read_parquet_table", "AttemptChunks", "CHUNK_ROWS", "MAX_ROW_ERRORS", "read_parquet"]


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
        return checked_rows(read_strict_csv(_stdin_bytes(), "<stdin>"), "<stdin>")
    suffix = file_format(path, what="an attempts file")
    if suffix == ".csv":
        frame = read_strict_csv(read_input(path, AttemptsFormatError), path)
    elif suffix == ".jsonl":
        frame = read_jsonl_records(read_input(path, AttemptsFormatError), path)
    else:
        frame = read_parquet(path)
    return checked_rows(frame, path)


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


def read_parquet(path: str) -> pd.DataFrame:
    table = read_parquet_table(path)
    if "attempt" in table.column_names:
        kind = table.schema.field("attempt").type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            raise AttemptsFormatError(path, "", "attempt", expected="a string column", got=str(kind))
    return table.to_pandas(types_mapper={pa.string(): STRING, pa.large_string(): STRING}.get)
