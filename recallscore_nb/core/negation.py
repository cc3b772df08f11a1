"""Negation scopes: the clauses of an attempt, and which tokens a negation cue's scope covers.

A clause ends at ``, ; : . ! ?`` between two tokens (punctuation inside a token, as in "3.5",
does not end one) and before the word "but" (English heuristics). A cue's scope covers the 1
to ``window`` tokens after its last token, within its clause.

>>> import pyarrow as pa
>>> from recallscore_nb.core.engine import Attempts
>>> from recallscore_nb.core.normalize import SEED
>>> values = pa.array(["not west, but east"])
>>> tokens = Attempts(values).tokens(SEED, pa.array(["but"]))
>>> clauses(values, tokens, 0).tolist()
[1, 1, 2, 2]
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .tokens import Tokens

__all__ = ["CONTRAST", "CLAUSE_ENDS", "WHITESPACE", "clauses", "scopes", "Scope"]

# A clause ends at , ; : . ! or ? between two tokens (punctuation inside a token, as in
# "3.5", does not end one) and before the token "but". Tokens are found in the original text
# as :class:`~recallscore_nb.core.status_basis.TokenSpans` finds them, with RE2 over every row at once.
CONTRAST = "but"
CLAUSE_ENDS = ",;:.!?"
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
               + "\u2028\u2029\u202f\u205f\u3000")  # what str.split() splits on


def _re2_class(chars: str) -> str:
    return "".join(f"\\x{{{ord(c):x}}}" for c in chars)


_RE2_TOKEN = (f"[^{_re2_class(WHITESPACE + string.punctuation)}]"
              f"(?:[^{_re2_class(WHITESPACE)}]*[^{_re2_class(WHITESPACE + string.punctuation)}])?")
_RE2_KEEP = f"[^T{_re2_class(CLAUSE_ENDS)}]+"


def clauses(values: pa.Array, tokens: Tokens, contrast: int) -> np.ndarray:
    """A clause number for each token (flat, as ``tokens``): equal within a clause of a row.

    Rows whose tokens the normalizer splits otherwise than the seed pipeline does (an
    ablation's variant that keeps punctuation, say) are one clause up to each "but".
    """
    marks = pc.replace_substring_regex(pc.replace_substring_regex(values, _RE2_TOKEN, "T"),
                                       _RE2_KEEP, "")
    marks = pa.concat_arrays([marks]) if isinstance(marks, pa.ChunkedArray) else marks
    width = np.int64 if pa.types.is_large_string(marks.type) else np.int32
    offsets = np.frombuffer(marks.buffers()[1], dtype=width)[
        marks.offset:marks.offset + len(marks) + 1].astype(np.int64)
    chars = np.frombuffer(marks.buffers()[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
    is_token = chars == ord("T")
    ends_before = np.cumsum(~is_token)[is_token]
    mark_rows = np.repeat(np.arange(len(values), dtype=np.int64), np.diff(offsets))[is_token]
    same = np.bincount(mark_rows, minlength=len(values)) == tokens.counts
    punct = np.zeros(len(tokens.ids), dtype=np.int64)
    punct[same[tokens.rows]] = ends_before[same[mark_rows]]
    starts = np.ones(len(tokens.ids), dtype=bool)
    starts[1:] = (punct[1:] != punct[:-1]) | (tokens.rows[1:] != tokens.rows[:-1])
    return np.cumsum(starts | (tokens.ids == contrast))


def scopes(cue_ends: np.ndarray, tokens: Tokens, clause: np.ndarray,
            window: int) -> np.ndarray:
    """Whether each token (flat) lies in a cue's scope: after the cue's last token (flat
    indices ``cue_ends``), in its clause, at most ``window`` tokens on."""
    inside = np.zeros(len(tokens.ids), dtype=bool)
    for d in range(1, window + 1):
        at = cue_ends + d
        at = at[at < len(tokens.ids)]
        ok = clause[at] == clause[at - d]
        inside[at[ok]] = True
    return inside


@dataclass(frozen=True)
class Scope:
    """Whether the token at (row, position) is in a cue's scope."""

    inside: np.ndarray
    row_start: np.ndarray
    counts: np.ndarray

    def __call__(self, row: int, position: int) -> bool:
        if position < 0 or position >= self.counts[row]:
            return False
        return bool(self.inside[self.row_start[row] + position])
