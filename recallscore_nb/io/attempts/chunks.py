"""Reading an attempts file a chunk at a time, with the faults of reading it whole.

:class:`AttemptChunks` cuts the frame :func:`~recallscore_nb.io.attempts.read_attempts` would
give into consecutive pieces, so that memory stays flat however long the file is: CSV through
Arrow's streaming reader, JSON lines a block of lines at a time, Parquet a batch at a time.
:class:`Unstreamable` says when the chunks would not add up to the whole (their columns or
types differ): the caller then reads the file whole.
"""

from __future__ import annotations

import io
import itertools
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from ...core.engine import STRING
from ...core.errors import AttemptsFormatError, Unstreamable
from .rows import all_faults, capped, check_rows, string_hashes
from ..files import read_input, require_regular_file
from ..id_hashes import IdHashes
from ..strict_readers import (END, TWICE, header_width, jsonl_frame, refuse_repeats,
                             file_format, read_strict_csv)

__all__ = ["CHUNK_ROWS", "AttemptChunks"]

CHUNK_ROWS = 131_072
"""Rows per chunk of :class:`AttemptChunks`: an eighth of a Parquet row group, as quick as
larger chunks with a lower peak (the figures: ``benchmarks/README.md``, "Streaming")."""


class AttemptChunks:
    """An attempts file read a chunk at a time: the frame of :func:`read_attempts`, cut into
    consecutive pieces of about ``rows`` rows (default ids and locations count from the file's
    start), so that memory stays flat however long the file is.

    Faults are the ones :func:`read_attempts` reports, in the same order: a fault of the
    file's text (CSV, JSON, Parquet) when it is reached; a fault of its rows (no ``attempt``
    column, a null attempt or id, an id used twice, in different chunks too) once the file
    has been read to its end, as it is found in the whole file. No chunk is given after a
    fault of the rows is found. :class:`Unstreamable` when the chunks disagree in columns or
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
        hashes = IdHashes()
        first_dtypes = None
        start = 0
        for raw, last in _with_last(self._raw_chunks()):
            if last:
                self.total_rows = start + len(raw)
            dtypes = (list(raw.columns), list(raw.dtypes))
            if first_dtypes is None:
                first_dtypes = dtypes
            elif dtypes != first_dtypes:
                raise Unstreamable(f"{name}: columns or types differ from row {start} on")
            stopped = "column" in faults
            if not stopped:
                frame, found = check_rows(raw, name, start)
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
        if len(hashes) and "id" not in faults and "column" not in faults:
            repeats = self._repeated_ids(hashes.repeated())
            if repeats:
                faults["duplicate"] = AttemptsFormatError.first_of(repeats)
        hashes.close()
        if faults:
            for kind in ("attempt", "id"):
                if kind in faults:  # chunks each kept their own first rows: cap the whole
                    faults[kind].errors = capped(faults[kind].errors, name, kind)
            raise all_faults(faults)

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
            # until the file is closed: memory would grow with the file (the figures:
            # benchmarks/README.md, "Parquet read without pre-buffering"); read through a
            # 1 MiB buffer instead
            file = pq.ParquetFile(name, pre_buffer=False, buffer_size=1 << 20)
            schema = file.schema_arrow
            refuse_repeats(schema.names, name, "", "column named twice in the file",
                            AttemptsFormatError)
            self.total_rows = file.metadata.num_rows
        except (pa.ArrowInvalid, OSError) as exc:
            reason = " ".join(str(exc).split())
            raise AttemptsFormatError(name, message=f"not a readable Parquet file ({reason})") \
                from None
        if any(pa.types.is_dictionary(f.type) for f in schema):
            raise Unstreamable(f"{name}: dictionary columns (categories) are read whole")
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
                        raise AttemptsFormatError.first_of(capped(faults, name, ""))
                    if rows_before == 0:
                        yield jsonl_frame([], name, AttemptsFormatError)
                    return
                try:
                    frame = jsonl_frame(block, name, AttemptsFormatError)
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
            width = header_width(fh, name, error)
            fh.seek(0)
            source = _WithSentinel(fh, b",".join([END] * width))
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
                        refuse_repeats(names, name, "line 1", TWICE, error)
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
            if ending is None or ending.column(width - 1)[0].as_py() != END.decode():
                # Arrow refused something, or a quote was left open: the whole-file reader
                # names the fault as it always has (and reads the file whole if there is none)
                read_strict_csv(read_input(name, error), name, error=error)
                raise Unstreamable(f"{name}: read whole")
            if rows_before == 0 or held > 1:
                yield _csv_frame(table.slice(0, held - 1), names)

    def _repeated_ids(self, repeated: np.ndarray) -> list[AttemptsFormatError]:
        """The repeated ids among all rows, from the hashes found more than once
        (:class:`~recallscore_nb.io.id_hashes.IdHashes`, in a fixed budget of memory); a
        repeated hash sends the file through once more to compare the ids of its rows, and
        every repeat is reported as :func:`~recallscore_nb.io.attempts.rows.checked_rows` reports
        it (within :data:`~recallscore_nb.io.attempts.rows.MAX_ROW_ERRORS`)."""
        if not len(repeated):
            return []
        ids: dict[int, str] = {}
        lines: dict[int, int] = {}
        start = 0
        for raw in self._raw_chunks():
            frame, _ = check_rows(raw, self.path, start)
            rows = np.flatnonzero(np.isin(string_hashes(frame["id"].array), repeated))
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
        return capped(errors, self.path, "id")


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
    :func:`~recallscore_nb.io.strict_readers._parse_csv`), as one stream; ``consumed`` counts
    the file's bytes read."""

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
