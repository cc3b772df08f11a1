"""Tokens, and the one whole-token matcher every rule uses.

After normalization, tokens are separated by exactly one space: a normalized string is split
on spaces into tokens, and tokens are mapped to integer ids in a small vocabulary (-1: not in
it). A phrase (a term, a cue, a reference) occurs *as whole tokens* where its token ids
follow one another in one row: "west" is not found in "northwest". :func:`phrases_at` checks
candidate places for any number of phrases at once; the checklist, reference containment, fact
statuses and the ablation all find their phrases with it. :func:`term_occurs` is the same
test on two Python strings, for checks made while a file is loaded.

>>> term_occurs("the copper token", "copper token")
True
>>> term_occurs("northwest drawer", "west")
False
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["Tokens", "spans", "split_tokens", "token_layout", "token_ids", "tokens_of", "phrases_at",
           "phrase_starts", "phrase_rows", "term_occurs", "pad"]


@dataclass(frozen=True)
class Tokens:
    """Tokens of many rows, flat: each token's id in a vocabulary (-1: not in it), its row,
    and its position in the row; plus each row's token count."""

    ids: np.ndarray
    rows: np.ndarray
    positions: np.ndarray
    counts: np.ndarray

    @cached_property
    def firsts(self) -> np.ndarray:
        """Each row's first token's flat index (where it would be, for a row of none)."""
        return np.cumsum(self.counts) - self.counts

    def of_rows(self, rows: np.ndarray) -> np.ndarray:
        """The flat indices of the tokens of ``rows``, in order: the work is that of these
        rows' tokens, not of every row's.

        >>> Tokens(np.arange(4), np.array([0, 0, 2, 2]), np.array([0, 1, 0, 1]),
        ...        np.array([2, 0, 2])).of_rows(np.array([2, 1])).tolist()
        [2, 3]
        """
        return spans(self.firsts[rows], self.counts[rows])


def spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices ``starts[i]``, ``starts[i] + 1``, … (``lengths[i]`` of them) of every
    span, one span after another.

    >>> spans(np.array([5, 0, 2]), np.array([2, 0, 3])).tolist()
    [5, 6, 2, 3, 4]
    """
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    shift = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return np.arange(total, dtype=np.int64) + shift


def split_tokens(normalized: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """Split single-space-separated normalized strings: (flat tokens, list offsets); an empty
    string has no token."""
    lists = pc.split_pattern(pc.if_else(pc.equal(normalized, ""), None, normalized), " ")
    offsets = lists.offsets.to_numpy().astype(np.int64)
    offsets = offsets - offsets[0]
    return pc.list_flatten(lists), offsets


def token_layout(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row and in-row position of each token, and the count per row, from list offsets."""
    counts = np.diff(offsets)
    rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    positions = np.arange(offsets[-1], dtype=np.int64) - offsets[:-1][rows]
    return rows, positions, counts


def token_ids(flat: pa.Array, vocab: pa.Array) -> np.ndarray:
    """Each token's index in ``vocab`` (-1: not in it)."""
    if not len(vocab) or not len(flat):
        return np.full(len(flat), -1, dtype=np.int64)
    ids = pc.fill_null(pc.index_in(flat, value_set=vocab), -1)
    return ids.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)


def tokens_of(normalized: pa.Array, vocab: pa.Array) -> Tokens:
    """The tokens of normalized strings, with their ids in ``vocab``.

    >>> tokens_of(pa.array(["a b", "", "b"]), pa.array(["b"])).ids.tolist()
    [-1, 0, 0]
    """
    flat, offsets = split_tokens(normalized)
    return Tokens(token_ids(flat, vocab), *token_layout(offsets))


def phrases_at(tokens: Tokens, starts: np.ndarray, phrases: np.ndarray, table: np.ndarray,
               lengths: np.ndarray) -> np.ndarray:
    """Per candidate: does phrase ``phrases[i]`` occur at flat token ``starts[i]``, as whole
    consecutive tokens of that token's row? A phrase is a row of ``table`` (token ids, -1
    past its end), ``lengths[p]`` tokens long; a phrase of no token occurs nowhere. The
    candidates' first tokens are checked too, so any flat index may be a candidate.

    >>> tokens = Tokens(ids=np.array([0, 1, 0, 1]), rows=np.array([0, 0, 1, 2]),
    ...                 positions=np.array([0, 1, 0, 0]), counts=np.array([2, 1, 1]))
    >>> phrases_at(tokens, np.array([0, 2, 1]), np.array([0, 0, 1]), np.array([[0, 1], [1, -1]]),
    ...            np.array([2, 1])).tolist()
    [True, False, True]
    """
    length = lengths[phrases]
    room = tokens.counts[tokens.rows[starts]] - tokens.positions[starts]
    ok = (length > 0) & (length <= room)
    last = len(tokens.ids) - 1
    for k in range(table.shape[1]):
        need = ok & (length > k)
        if not need.any():
            break
        ok &= ~need | (tokens.ids[np.minimum(starts + k, last)] == table[phrases, k])
    return ok


def phrase_starts(tokens: Tokens, phrase: list[int]) -> np.ndarray:
    """Flat indices where the token ids ``phrase`` start, consecutively within one row.

    >>> tokens = Tokens(ids=np.array([0, 1, 0, 1]), rows=np.array([0, 0, 1, 2]),
    ...                 positions=np.array([0, 1, 0, 0]), counts=np.array([2, 1, 1]))
    >>> phrase_starts(tokens, [0, 1]).tolist()  # row 1 ends before row 2's 1
    [0]
    """
    if not phrase:
        return np.zeros(0, dtype=np.int64)
    at = np.flatnonzero(tokens.ids == phrase[0])
    found = phrases_at(tokens, at, np.zeros(len(at), dtype=np.int64),
                       np.array([phrase], dtype=np.int64), np.array([len(phrase)]))
    return at[found]


def phrase_rows(tokens: Tokens, phrase: list[int], n: int) -> np.ndarray:
    """Per row (``n`` rows): do the token ids ``phrase`` occur in it consecutively?"""
    present = np.zeros(n, dtype=bool)
    present[tokens.rows[phrase_starts(tokens, phrase)]] = True
    return present


def pad(normalized: pa.Array) -> pa.Array:
    """Surround every normalized string with one space (whole tokens are then the padded
    term as a substring of the padded text, as :func:`term_occurs` tests them)."""
    return pc.binary_join_element_wise(" ", normalized, " ", "")


def term_occurs(normalized_text: str, normalized_term: str) -> bool:
    """Whether a normalized term occurs as whole consecutive tokens of a normalized text: the
    matcher's test on two Python strings (`` term `` inside `` text ``)."""
    if not normalized_term:
        raise ValueError("a term that normalizes to nothing cannot be matched")
    return f" {normalized_term} " in f" {normalized_text} "
