"""The memo of a streaming run: the scores of distinct attempts already scored against one
reference, kept from chunk to chunk so that an attempt seen before is looked up, not scored
again. The memo's size is bounded (:data:`MEMO_ATTEMPTS`); figures in benchmarks/README.md.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

__all__ = ["ScoreMemo", "MEMO_ATTEMPTS"]

MEMO_ATTEMPTS = 1 << 20
"""Distinct attempts a :class:`ScoreMemo` keeps at most (about 214 MiB full, for attempts of
69 bytes)."""


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
    """

    def __init__(self, limit: int = MEMO_ATTEMPTS) -> None:
        try:
            from pandas._libs.hashtable import ObjectFactorizer
        except ImportError:  # a pandas without it: nothing is kept, everything scored
            ObjectFactorizer, limit = None, 0
        self.limit = limit
        self._table = ObjectFactorizer(limit) if ObjectFactorizer is not None else None
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
        rows = self._find(texts, start)
        new = np.flatnonzero(rows < 0)
        fresh = score(values.take(pa.array(new, type=pa.int64())))
        room = min(len(new), self.limit - start)  # the new ones given rows start, start + 1...
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

    def _find(self, texts: np.ndarray, start: int) -> np.ndarray:
        """Each text's row in the memo, -1 when it was not there; those not there are given
        the next rows, in order, while there is room."""
        if start + len(texts) <= self.limit:  # one pass: found ones and new ones
            rows = self._table.factorize(texts).astype(np.int64)
            rows[rows >= start] = -1
            return rows
        rows = self._table.table.lookup(texts).astype(np.int64) if start \
            else np.full(len(texts), -1, dtype=np.int64)
        room = max(0, self.limit - start)
        if room:
            self._table.factorize(texts[np.flatnonzero(rows < 0)[:room]])
        return rows
