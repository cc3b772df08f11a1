"""The memo of a streaming run: the scores of distinct attempts already scored against one
reference, kept from chunk to chunk so that an attempt seen before is looked up, not scored
again. The memo's size is bounded in bytes (:data:`MEMO_BYTES`) and in attempts
(:data:`MEMO_ATTEMPTS`), whatever the input; figures in benchmarks/README.md.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["ScoreMemo", "MEMO_ATTEMPTS", "MEMO_BYTES", "ENTRY_BYTES"]

MEMO_ATTEMPTS = 1 << 20
"""Distinct attempts a :class:`ScoreMemo` keeps at most."""
MEMO_BYTES = 48 << 20
"""The bytes a :class:`ScoreMemo` keeps at most, counted as each attempt's UTF-8 length plus
:data:`ENTRY_BYTES`: the memory budget of the memo of each scoring process."""
ENTRY_BYTES = 112
"""What a kept attempt costs besides its text: its Python string's header and pointer, its
slot in the hash table and its score columns (an estimate on the high side)."""


class ScoreMemo:
    """The scores of distinct attempts already scored against one reference, kept from one
    call of :func:`~recallscore_nb.core.scoring.score_all` to the next (its ``memo=``). It
    keeps the first :data:`MEMO_ATTEMPTS` distinct attempts; later ones are still looked up,
    scored when not found. Attempts are found by pandas' own hash table of Python strings
    (the one ``pd.factorize`` uses, kept between calls: ``pandas._libs.hashtable``, not
    public API, covered by the tests), equal strings only: the quickest lookup measured.

    >>> from recallscore_nb.core.rules import LiteralMatch
    >>> from recallscore_nb.core.scoring import score_all
    >>> memo = ScoreMemo()
    >>> first = score_all(["west", "east"], "west", facts={"p": ["west"]}, memo=memo)
    >>> again = score_all(["east", "north"], "west", facts={"p": ["west"]}, memo=memo)
    >>> memo.scored, memo.found, again[LiteralMatch.column].tolist()
    (3, 1, [False, False])

    It keeps attempts while they fit in ``budget`` bytes (:data:`MEMO_BYTES`, each attempt
    counted as its UTF-8 length plus :data:`ENTRY_BYTES`) and ``limit`` attempts, whichever is
    reached first: its memory does not grow with the input's rows or distinct attempts.
    """

    def __init__(self, limit: int = MEMO_ATTEMPTS, budget: int = MEMO_BYTES) -> None:
        try:
            from pandas._libs.hashtable import ObjectFactorizer
        except ImportError:  # a pandas without it: nothing is kept, everything scored
            ObjectFactorizer, limit = None, 0
        self.limit = max(0, min(limit, budget // ENTRY_BYTES))
        self.budget, self.used = budget, 0
        self._table = ObjectFactorizer(self.limit) if ObjectFactorizer is not None else None
        self._columns: dict[str, np.ndarray] = {}
        self.scored = self.found = 0

    def __len__(self) -> int:
        return self._table.count if self._table is not None else 0

    def columns(self, values: pa.Array, score) -> dict[str, np.ndarray]:
        """The score columns of ``values`` (distinct texts): those in the memo taken from it,
        the others made by ``score(texts)`` (an Arrow array in, a dict of numpy columns out)
        and kept, as many as fit."""
        texts = values.to_numpy(zero_copy_only=False)
        start = len(self)
        rows = self._find(texts, start, self._room(values))
        new = np.flatnonzero(rows < 0)
        fresh = score(values.take(pa.array(new, type=pa.int64())))
        room = len(self) - start  # the new ones were given rows start, start + 1...
        for column, value in fresh.items():
            kept = self._columns.get(column)
            if kept is None:  # pages of an empty array are not resident until written
                kept = self._columns[column] = np.empty(self.limit, dtype=value.dtype)
            kept[start:start + room] = value[:room]
        self.scored += len(new)
        self.found += len(texts) - len(new)
        if len(new) == len(texts):
            return fresh
        found = np.flatnonzero(rows >= 0)
        out = {}
        for column, value in fresh.items():
            whole = np.empty(len(texts), dtype=value.dtype)
            whole[new], whole[found] = value, self._columns[column][rows[found]]
            out[column] = whole
        return out

    def _room(self, values: pa.Array) -> np.ndarray:
        """For each of ``values``, the bytes kept once it and those before it are kept."""
        lengths = pc.binary_length(values).to_numpy(zero_copy_only=False)
        return self.used + np.cumsum(lengths + ENTRY_BYTES, dtype=np.int64)

    def _find(self, texts: np.ndarray, start: int, bytes_after: np.ndarray) -> np.ndarray:
        """Each text's row in the memo, -1 when it was not there; those not there are given
        the next rows, in order, while there is room (``bytes_after``: :meth:`_room`, a
        bound of the bytes kept, as if every text were new)."""
        if not len(texts) or self._table is None:
            return np.full(len(texts), -1, dtype=np.int64)
        if start + len(texts) <= self.limit and bytes_after[-1] <= self.budget:
            rows = self._table.factorize(texts).astype(np.int64)  # one pass: found and new
            rows[rows >= start] = -1
            self.used += self._bytes(bytes_after, rows < 0)
            return rows
        rows = self._table.table.lookup(texts).astype(np.int64) if start \
            else np.full(len(texts), -1, dtype=np.int64)
        new = np.flatnonzero(rows < 0)
        cost = np.diff(bytes_after, prepend=self.used)[new]
        fits = np.searchsorted(self.used + np.cumsum(cost), self.budget, side="right")
        kept = min(int(fits), max(0, self.limit - start))
        if kept:
            self._table.factorize(texts[new[:kept]])
            self.used += int(cost[:kept].sum())
        return rows

    def _bytes(self, bytes_after: np.ndarray, new: np.ndarray) -> int:
        """The bytes the ``new`` texts (a mask) add, each one's cost read from
        ``bytes_after``."""
        return int(np.diff(bytes_after, prepend=self.used)[new].sum())
