"""Scored tables on disk: writing what ``recallscore score`` produces (CSV, JSONL, Parquet).

:func:`write_scored` writes a table atomically by the extension of its path (or CSV to standard
output); :func:`write_scored_chunks` writes the same bytes from consecutive pieces, one piece
in memory at a time. JSON lines are spelled by :mod:`recallscore_nb.io.scored.jsonl`. Reading a
scored file back strictly (``recallscore summarize``) is :mod:`recallscore_nb.io.scored.reading`;
the schema-aware columns of ``score --schema`` are :mod:`recallscore_nb.io.scored.statuses`.
This module gives their public names too.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ...core.csvtext import per_value, write_csv_text
from ...core.errors import UsageError
from ...core.errors import Unstreamable
from ..files import atomic_write
from .jsonl import jsonl_lines, write_jsonl
from .reading import SCORED_FORMATS, read_scored
from .statuses import item_status_frame, status_frame
from ..strict_readers import file_format

__all__ = ["write_scored", "write_scored_chunks", "read_scored", "status_frame",
           "item_status_frame", "SCORED_FORMATS", "ROW_GROUP_ROWS"]

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
        atomic_write(path, lambda tmp: write_jsonl(frame, tmp, path))
    else:
        table = _with_metadata(_arrow_table(frame, path), metadata)
        atomic_write(path, lambda tmp: pq.write_table(table, tmp, row_group_size=ROW_GROUP_ROWS))


ROW_GROUP_ROWS = 1 << 18
"""Rows per Parquet row group, the same whether a table is written whole or in pieces (the
same row groups, the same bytes): a streamed table holds one row group's rows before writing
them, so this bounds what the writer keeps (a quarter of Arrow's default: docs/scale.md)."""


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
    table. :class:`~recallscore_nb.core.errors.Unstreamable` when a piece's types differ
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
        raise Unstreamable("a piece's columns or types differ from the first piece's")
    return chunk if first is None else first


def _stream_csv(chunks, tmp: str) -> None:
    first = None
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        for chunk in chunks:
            if first is None and not per_value(chunk):
                raise Unstreamable("a column is formatted column-wide (dates or durations)")
            write_csv_text(chunk, fh, header=first is None)
            first = _same_types(first, chunk)


def _stream_jsonl(chunks, tmp: str, path: str) -> None:
    first, rows = None, 0
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for chunk in chunks:
            first = _same_types(first, chunk)
            jsonl_lines(chunk, fh, path, rows)
            rows += len(chunk)


def _stream_parquet(chunks, tmp: str, path: str, metadata) -> None:
    """Row groups of :data:`ROW_GROUP_ROWS` rows, each written from one contiguous table, as
    ``pq.write_table`` cuts the whole table (the same bytes: a row group written from a table
    in several chunks can cut its pages elsewhere, see ``benchmarks/README.md``, "Row groups
    written from contiguous tables"). The rows waiting for
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
                raise Unstreamable("a piece's Arrow types differ from the first piece's")
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
