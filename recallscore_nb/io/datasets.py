"""Partitioned attempts datasets: many Parquet files taken as one attempts table.

The files are taken in sorted order and checked from their footers alone (one schema, a string
``attempt`` column, row counts); each file (or some of its row groups) is read with the checks of
:func:`recallscore_nb.io.attempts.read_attempts`, with the global row numbers across the files
as default ids. :func:`read_attempt_files` reads a whole dataset in one process (what the
pandas engine scores); the Dask engine (:mod:`recallscore_nb.execution.dask_engine`) reads the
same pieces on its workers.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..core.engine import STRING
from ..core.errors import AttemptsFormatError, UsageError
from .attempts.rows import FAULT_ORDER, check_rows, checked_rows
from .attempts import read_parquet
from .files import require_regular_file
from .strict_readers import refuse_repeats

__all__ = ["AttemptFiles", "attempt_files", "read_attempt_files", "read_part", "empty_part",
           "check_unique_ids"]

_TO_PANDAS = {pa.string(): STRING, pa.large_string(): STRING}.get


# --- the files: found, checked and measured (footers only) --------------------------------
@dataclass(frozen=True)
class AttemptFiles:
    """Parquet attempts files in sorted order, with each file's row count and first global row.

    >>> AttemptFiles(("a.parquet", "b.parquet"), (3, 2)).offsets
    (0, 3)
    """

    files: tuple[str, ...]
    lengths: tuple[int, ...]
    columns: tuple[str, ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()
    """Each file's row groups' row counts (empty: a file read whole, one piece)."""

    @property
    def offsets(self) -> tuple[int, ...]:
        """Each file's first global row number (the default id of its first row)."""
        return tuple(int(x) for x in np.concatenate([[0], np.cumsum(self.lengths)[:-1]]))

    def locate(self, row: int) -> tuple[str, int]:
        """The file and the row within it of a global row number.

        >>> AttemptFiles(("a.parquet", "b.parquet"), (3, 2)).locate(4)
        ('b.parquet', 1)
        """
        k = int(np.searchsorted(np.cumsum(self.lengths), row, side="right"))
        return self.files[k], row - self.offsets[k]

    def pieces(self) -> list[tuple[str, tuple[int, ...], int, int, int]]:
        """The pieces a partition is made of, in order: (file, its row groups, the piece's
        first row in the file, its first global row, its rows); a file without row groups
        listed is one piece."""
        out = []
        for k, (path, offset) in enumerate(zip(self.files, self.offsets)):
            sizes = self.groups[k] if k < len(self.groups) and self.groups[k] else None
            if sizes is None:
                out.append((path, (), 0, offset, self.lengths[k]))
                continue
            local = 0
            for g, size in enumerate(sizes):
                out.append((path, (g,), local, offset + local, size))
                local += size
        return out

    def partitions(self, count: int, *, max_rows: int) -> list[tuple[tuple, ...]]:
        """Consecutive pieces (a file's row groups: :meth:`pieces`) grouped into about
        ``count`` partitions of similar row counts, none above ``max_rows`` unless a single
        row group is; each partition as a tuple of pieces. A piece goes to the partition its
        middle row falls in; consecutive row groups of one file are joined into one piece.

        >>> [[p[0] for p in part] for part in AttemptFiles(("a", "b", "c", "d"),
        ...                                                (5, 5, 5, 5)).partitions(2, max_rows=100)]
        [['a', 'b'], ['c', 'd']]
        >>> files = AttemptFiles(("a",), (9,), groups=((3, 3, 3),))
        >>> files.partitions(3, max_rows=100)
        [(('a', (0,), 0, 0, 3),), (('a', (1,), 3, 3, 3),), (('a', (2,), 6, 6, 3),)]
        >>> files.partitions(1, max_rows=6)
        [(('a', (0, 1), 0, 0, 6),), (('a', (2,), 6, 6, 3),)]
        """
        total = sum(self.lengths)
        target = max(1, min(-(-total // max(count, 1)), max_rows))
        groups: dict[int, list] = {}
        for piece in self.pieces():
            first, rows = piece[3], piece[4]
            groups.setdefault((first + rows // 2) // target, []).append(piece)
        return [tuple(_joined(part)) for part in groups.values()]


def _joined(pieces: list) -> list:
    """Consecutive row groups of one file, in one partition, read as one piece."""
    out: list = []
    for piece in pieces:
        if out and out[-1][0] == piece[0] and out[-1][1] and piece[1] \
                and out[-1][1][-1] + 1 == piece[1][0]:
            path, groups, local, first, rows = out[-1]
            out[-1] = (path, groups + piece[1], local, first, rows + piece[4])
        else:
            out.append(piece)
    return out


def attempt_files(pattern: str | os.PathLike[str]) -> AttemptFiles:
    """The Parquet files a glob pattern (or a directory: its ``*.parquet``) names, sorted by
    name, checked to share one schema with a string ``attempt`` column, with their row counts.

    Sorting is by character, so number parts zero-padded (``part-0002``) keep numeric order.
    """
    pattern = os.fspath(pattern)
    if os.path.isdir(pattern):
        pattern = os.path.join(pattern, "*.parquet")
    files = sorted(glob.glob(pattern))
    if not files:
        raise UsageError(f"--attempts {pattern!r} matches no file")
    others = [f for f in files if not f.lower().endswith(".parquet")]
    if others:
        raise UsageError(f"{others[0]}: a partitioned attempts dataset must be Parquet files "
                         f"(got {len(others)} other path(s) from {pattern!r})")
    lengths, first, groups = [], None, []
    for path in files:
        require_regular_file(path, AttemptsFormatError)
        try:
            meta = pq.ParquetFile(path).metadata
            schema = meta.schema.to_arrow_schema()
        except (pa.ArrowInvalid, OSError) as exc:
            reason = " ".join(str(exc).split())
            raise AttemptsFormatError(path, message=f"not a readable Parquet file ({reason})") \
                from None
        refuse_repeats(schema.names, path, "", "column named twice in the file",
                        AttemptsFormatError)
        columns = _column_types(schema)
        if first is None:
            first = (path, columns)
            _check_attempt_column(path, columns)
        elif columns != first[1]:
            raise AttemptsFormatError(path, "", _first_difference(columns, first[1]),
                                      message=f"columns differ from those of {first[0]} "
                                              f"({_describe(columns)} vs {_describe(first[1])})")
        lengths.append(meta.num_rows)
        groups.append(tuple(meta.row_group(g).num_rows for g in range(meta.num_row_groups)))
    return AttemptFiles(tuple(files), tuple(lengths), tuple(first[1]), tuple(groups))


def _column_types(schema: pa.Schema) -> dict[str, pa.DataType]:
    """Column name to type; large strings count as strings (both are read as one dtype)."""
    return {f.name: pa.string() if pa.types.is_large_string(f.type) else f.type for f in schema}


def _check_attempt_column(path: str, columns: dict[str, pa.DataType]) -> None:
    if "attempt" not in columns:
        found = ", ".join(columns) or "none"
        raise AttemptsFormatError(path, "", "attempt",
                                  message=f"missing column 'attempt' (columns: {found})")
    kind = columns["attempt"]
    kind = kind.value_type if pa.types.is_dictionary(kind) else kind
    if not pa.types.is_string(kind):
        raise AttemptsFormatError(path, "", "attempt", expected="a string column", got=str(kind))


def _first_difference(columns: dict, reference: dict) -> str:
    names = list(dict.fromkeys([*reference, *columns]))
    return next((n for n in names if columns.get(n) != reference.get(n)), "")


def _describe(columns: dict) -> str:
    return ", ".join(f"{name}: {kind}" for name, kind in columns.items())


def _read_file(path: str, offset: int, groups: tuple[int, ...] = (),
               local: int = 0) -> pd.DataFrame:
    """One file, or some of its row groups (the first at row ``local`` of the file), as
    ``read_attempts`` gives it, but with global default ids; a fault names its row in the
    file."""
    if groups:
        frame = _read_row_groups(path, groups)
    else:
        frame = read_parquet(path)
    if "id" not in frame.columns:
        frame.insert(0, "id", np.arange(offset, offset + len(frame)).astype(str))
    checked, faults = check_rows(frame, path, local)
    for kind in FAULT_ORDER:
        if kind in faults:
            raise faults[kind]
    checked.attrs.clear()
    return checked


def _read_row_groups(path: str, groups: tuple[int, ...]) -> pd.DataFrame:
    """Row groups of a Parquet file as :func:`~recallscore_nb.io.attempts.read_parquet`
    reads the whole file."""
    require_regular_file(path, AttemptsFormatError)
    try:
        table = pq.ParquetFile(path).read_row_groups(list(groups), use_pandas_metadata=True)
    except (pa.ArrowInvalid, OSError) as exc:
        reason = " ".join(str(exc).split())
        raise AttemptsFormatError(path, message=f"not a readable Parquet file ({reason})") \
            from None
    return table.to_pandas(types_mapper=_TO_PANDAS)


def read_part(pieces) -> pd.DataFrame:
    """One partition: consecutive pieces (file, row groups, first row in the file, first
    global row, rows: :meth:`AttemptFiles.pieces`), each read and checked on its own."""
    frames = [_read_file(path, first, groups, local) for path, groups, local, first, _ in pieces]
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def empty_part(files: AttemptFiles) -> pd.DataFrame:
    """A partition with no rows and the dtypes of a read one (Dask's ``meta``), footers only."""
    path = files.files[0]
    frame = pq.read_schema(path).empty_table().to_pandas(types_mapper=_TO_PANDAS)
    if "id" not in frame.columns:
        frame.insert(0, "id", np.array([], dtype=str))
    return checked_rows(frame, path)


def check_unique_ids(ids: pd.Series, files: AttemptFiles) -> None:
    """Ids are unique across the files; a repeat is named by its file and row there."""
    repeated = ids.duplicated(keep="first").to_numpy()
    if repeated.any():
        row = int(np.flatnonzero(repeated)[0])
        dup = ids.iloc[row]
        first = int(np.flatnonzero((ids == dup).to_numpy())[0])
        path, local = files.locate(row)
        first_path, first_local = files.locate(first)
        raise AttemptsFormatError(
            path, f"row {local}", "id", row_id=dup,
            message=f"duplicate id (first used at {first_path} row {first_local})")


def read_attempt_files(files: AttemptFiles) -> pd.DataFrame:
    """Every file read in one process, concatenated: what the pandas engine scores, with the
    same ids, dtypes and checks as the Dask engine."""
    frame = read_part([(path, (), 0, offset, rows) for path, offset, rows
                        in zip(files.files, files.offsets, files.lengths)])
    if "id" in files.columns:
        check_unique_ids(frame["id"], files)
    return frame
