"""The ids' hashes of an attempts file read a chunk at a time, kept in a fixed budget: an id
used twice, in different chunks too, is found however long the file is.

:class:`IdHashes` holds up to :data:`HASH_BUDGET` hashes in memory; each time that fills up,
they are sorted, their repeats noted, and written to a temporary file as one sorted run. The
repeated hashes are then found by merging the runs a block of each at a time, so memory
stays at the budget whatever the number of rows (the disk holds 8 bytes a row meanwhile).
"""

from __future__ import annotations

import tempfile

import numpy as np

__all__ = ["IdHashes", "HASH_BUDGET"]

HASH_BUDGET = 1 << 21
"""Hashes held in memory at most (8 bytes each: 16 MiB), whatever the number of rows."""


class IdHashes:
    """64-bit hashes gathered chunk by chunk (:meth:`extend`) in a fixed budget of ``budget``
    values (default :data:`HASH_BUDGET`), and the values among them that occur more than once
    (:meth:`repeated`).

    >>> hashes = IdHashes(budget=4)
    >>> for chunk in ([5, 1, 9], [7, 5], [3, 8, 9, 2]):
    ...     hashes.extend(np.array(chunk, dtype=np.uint64))
    >>> hashes.repeated().tolist(), hashes.runs
    ([5, 9], 3)
    >>> hashes.close()
    """

    def __init__(self, *, budget: int | None = None) -> None:
        self.budget = max(2, int(HASH_BUDGET if budget is None else budget))
        self._buffer = np.empty(self.budget, dtype=np.uint64)  # resident as it is written
        self._size = self._count = 0
        self._file = None
        self._runs: list[tuple[int, int]] = []  # (offset in values, length) of each run
        self._repeats: list[np.ndarray] = []

    @property
    def runs(self) -> int:
        """The sorted runs written to disk so far."""
        return len(self._runs)

    def __len__(self) -> int:
        """The values added so far."""
        return self._count

    def extend(self, values: np.ndarray) -> None:
        """Add ``values`` (uint64)."""
        self._count += len(values)
        while len(values):
            take = min(len(values), self.budget - self._size)
            self._buffer[self._size:self._size + take] = values[:take]
            self._size += take
            values = values[take:]
            if self._size == self.budget:
                self._spill()

    def _spill(self) -> None:
        """The buffer sorted, its repeats noted, written once each as a run."""
        values = self._buffer[:self._size]
        values.sort()
        same = values[1:] == values[:-1]
        if same.any():
            self._repeats.append(np.unique(values[1:][same]))
            values = values[np.concatenate(([True], ~same))]
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="recallscore-ids-")
        offset = sum(length for _, length in self._runs)
        self._file.seek(offset * 8)
        self._file.write(values.tobytes())
        self._runs.append((offset, len(values)))
        self._size = 0

    def repeated(self) -> np.ndarray:
        """The sorted distinct values added more than once."""
        if not self._runs:
            values = np.sort(self._buffer[:self._size])
            return np.unique(values[1:][values[1:] == values[:-1]])
        if self._size:
            self._spill()
        self._buffer = np.empty(0, dtype=np.uint64)  # the merge's blocks take its place
        merged = self._merge()
        return np.unique(np.concatenate(self._repeats + [merged]))

    def _merge(self) -> np.ndarray:
        """The values found in more than one run (each run has distinct values), from a
        block of every run at a time: all the values up to the smallest last value of the
        blocks in hand are in hand, so each step settles them."""
        block = max(1024, self.budget // (2 * len(self._runs)))
        positions = [0] * len(self._runs)
        loaded = [self._read(i, 0, block) for i in range(len(self._runs))]
        found = []
        while any(len(values) for values in loaded):
            ends = [values[-1] for i, values in enumerate(loaded)
                    if len(values) and positions[i] + len(values) < self._runs[i][1]]
            bound = min(ends) if ends else None
            taken = []
            for i, values in enumerate(loaded):
                cut = len(values) if bound is None else int(
                    np.searchsorted(values, bound, side="right"))
                taken.append(values[:cut])
                positions[i] += cut
                rest = values[cut:]
                if not len(rest):
                    rest = self._read(i, positions[i], block)
                loaded[i] = rest
            values = np.sort(np.concatenate(taken))
            found.append(values[1:][values[1:] == values[:-1]])
        return np.concatenate(found) if found else np.empty(0, dtype=np.uint64)

    def _read(self, run: int, position: int, count: int) -> np.ndarray:
        """Up to ``count`` values of run ``run`` from its ``position``-th value."""
        offset, length = self._runs[run]
        count = max(0, min(count, length - position))
        if not count:
            return np.empty(0, dtype=np.uint64)
        self._file.seek((offset + position) * 8)
        return np.frombuffer(self._file.read(count * 8), dtype=np.uint64)

    def close(self) -> None:
        """Let the temporary file go (it goes with the object too)."""
        if self._file is not None:
            self._file.close()
            self._file = None
