"""Normalization: named steps, the pipelines built from them, and a vectorized runner.

"Normalization is the scorer": every step that changes a score is named here and recorded
in the rules' signatures. The published protocol of the shipped benchmark is the ``seed``
pipeline: lowercase (``str.lower``), delete the characters of ``string.punctuation`` (ASCII
only, deleted, never replaced by a space), trim, and collapse whitespace as ``str.split()``
sees it. The ``squad`` pipeline adds the removal of the articles a/an/the as the official
SQuAD scripts do it. Further steps (Unicode punctuation, NFKC) exist only as named options.

>>> SEED("  The West-Drawer,\\tOPENS. ")
'the westdrawer opens'
>>> SQUAD("The answer is: a token!")
'answer is token'
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass, replace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "Normalizer",
    "NORMALIZERS",
    "SEED",
    "SQUAD",
    "lowercase",
    "delete_ascii_punctuation",
    "delete_unicode_punctuation",
    "remove_articles",
    "collapse_whitespace",
    "nfkc",
    "normalize_array",
]

_ASCII_PUNCT_TABLE = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


# --- the steps, each on one string -------------------------------------------------------
def lowercase(text: str) -> str:
    """Lowercase with ``str.lower`` (full Unicode case mapping).

    >>> lowercase("ÉCU Token")
    'écu token'
    """
    return text.lower()


def delete_ascii_punctuation(text: str) -> str:
    """Delete every character of ``string.punctuation``; other characters stay.

    >>> delete_ascii_punctuation("west-drawer’s “end”.")
    'westdrawer’s “end”'
    """
    return text.translate(_ASCII_PUNCT_TABLE)


def delete_unicode_punctuation(text: str) -> str:
    """Delete every character whose Unicode category is punctuation (P*) — an option.

    >>> delete_unicode_punctuation("west–drawer’s “end”")
    'westdrawers end'
    """
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))


def remove_articles(text: str) -> str:
    """Replace the words a/an/the by a space, with the SQuAD scripts' regex ``\\b(a|an|the)\\b``.

    >>> remove_articles("the token and a drawer")
    '  token and   drawer'
    """
    return _ARTICLES.sub(" ", text)


def collapse_whitespace(text: str) -> str:
    """Trim and collapse whitespace runs (as ``str.split()`` sees them) to one space.

    >>> collapse_whitespace("  a\\t\\u00a0 b\\n")
    'a b'
    """
    return " ".join(text.split())


def nfkc(text: str) -> str:
    """Unicode NFKC compatibility normalization — an option.

    >>> nfkc("ﬁve ２")
    'five 2'
    """
    return unicodedata.normalize("NFKC", text)


@dataclass(frozen=True)
class Normalizer:
    """A named pipeline of normalization steps, applied in a fixed order.

    The order is NFKC, lowercase, ASCII punctuation, Unicode punctuation, articles,
    whitespace. ``name`` is what signatures record; variants get new names.

    >>> Normalizer("custom", punctuation=False)("Hi, There")
    'hi, there'
    """

    name: str
    lowercase: bool = True
    punctuation: bool = True
    whitespace: bool = True
    articles: bool = False
    unicode_punctuation: bool = False
    nfkc: bool = False

    def __call__(self, text: str) -> str:
        if self.nfkc:
            text = nfkc(text)
        if self.lowercase:
            text = lowercase(text)
        if self.punctuation:
            text = delete_ascii_punctuation(text)
        if self.unicode_punctuation:
            text = delete_unicode_punctuation(text)
        if self.articles:
            text = remove_articles(text)
        if self.whitespace:
            text = collapse_whitespace(text)
        return text

    def with_steps(self, name: str, **steps: bool) -> Normalizer:
        """A variant of this pipeline under a new name, with some steps switched.

        >>> SEED.with_steps("seed-nocase", lowercase=False)("A  B")
        'A B'
        """
        return replace(self, name=name, **steps)

    @property
    def _fast_path(self) -> bool:
        return (
            self.lowercase
            and self.punctuation
            and self.whitespace
            and not self.unicode_punctuation
            and not self.nfkc
        )


SEED = Normalizer("seed")
SQUAD = Normalizer("squad", articles=True)
NORMALIZERS: dict[str, Normalizer] = {n.name: n for n in (SEED, SQUAD)}


# --- the vectorized runner ---------------------------------------------------------------
# Bytes a row may hold and still take the fast path: ASCII whitespace (as str.split() sees
# it: \t \n \v \f \r and \x1c-\x1f) and the printable range. Other control characters and
# non-ASCII text change what \b and str.split() do, so those rows take the exact path.
_FAST_BYTE = np.zeros(256, dtype=bool)
_FAST_BYTE[0x09:0x0E] = True
_FAST_BYTE[0x1C:0x7F] = True
_PUNCT_BYTE = np.zeros(256, dtype=bool)
_PUNCT_BYTE[np.frombuffer(string.punctuation.encode(), dtype=np.uint8)] = True
# Lowercase ASCII letters and map every ASCII whitespace byte to a space, in one lookup.
_FOLD_BYTE = np.arange(256, dtype=np.uint8)
_FOLD_BYTE[0x41:0x5B] += 0x20
_FOLD_BYTE[[0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F]] = 0x20
_SPACE = 0x20
_ARTICLE_RUN = r" (?:(?:a|an|the) )+"


def _string_buffers(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Offsets (int64, starting at 0) and value bytes of a string array without nulls."""
    if pa.types.is_large_string(arr.type):
        offsets = np.frombuffer(arr.buffers()[1], dtype=np.int64)
    else:
        offsets = np.frombuffer(arr.buffers()[1], dtype=np.int32)
    offsets = offsets[arr.offset : arr.offset + len(arr) + 1].astype(np.int64)
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
    return offsets - offsets[0], data


def _bytes_per_row(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """How many bytes of each row ``mask`` marks."""
    cs = np.zeros(len(mask) + 1, dtype=np.int64)
    np.cumsum(mask, out=cs[1:])
    return cs[offsets[1:]] - cs[offsets[:-1]]


def _seed_ascii(offsets: np.ndarray, data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The seed pipeline on ASCII bytes: new (offsets, data). Exact for fast-path rows."""
    keep = ~_PUNCT_BYTE[data]
    folded = _FOLD_BYTE[data[keep]]
    offsets = np.concatenate(([0], np.cumsum(_bytes_per_row(keep, offsets))))
    n = len(folded)
    is_space = folded == _SPACE
    # A space survives when the next byte of its row is not a space ...
    row_end = np.zeros(n + 1, dtype=bool)
    row_end[offsets[1:]] = True
    next_is_word = np.zeros(n, dtype=bool)
    next_is_word[:-1] = ~is_space[1:]
    keep_space = is_space & next_is_word & ~row_end[1:]
    # ... and a non-space comes before it in the row (drop the end of a leading run).
    starts, ends = offsets[:-1], offsets[1:]
    nonspace = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(~is_space, out=nonspace[1:])
    first_word = np.searchsorted(nonspace, nonspace[starts] + 1) - 1
    lead = (first_word > starts) & (first_word < ends)
    keep_space[first_word[lead] - 1] = False
    keep = ~is_space | keep_space
    offsets = np.concatenate(([0], np.cumsum(_bytes_per_row(keep, offsets))))
    return offsets, folded[keep]


def _from_buffers(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    kind = pa.large_string() if offsets[-1] >= 2**31 else pa.string()
    dtype = np.int64 if kind == pa.large_string() else np.int32
    return pa.Array.from_buffers(
        kind,
        len(offsets) - 1,
        [None, pa.py_buffer(offsets.astype(dtype)), pa.py_buffer(np.ascontiguousarray(data))],
    )


def _drop_article_tokens(normalized: pa.Array) -> pa.Array:
    """On seed-normalized ASCII text, dropping the tokens a/an/the is the articles regex."""
    padded = pc.binary_join_element_wise(" ", normalized, " ", "")
    return pc.utf8_trim(pc.replace_substring_regex(padded, _ARTICLE_RUN, " "), " ")


def normalize_array(values: pa.Array | pa.ChunkedArray, normalizer: Normalizer = SEED) -> pa.Array:
    """Apply ``normalizer`` to every string of ``values``; equal, row by row, to ``normalizer(s)``.

    Rows of ASCII text take a vectorized path over the Arrow value bytes; other rows are
    normalized once per distinct value with the exact Python steps.

    >>> normalize_array(pa.array(["A  b!", "Ça, VA"])).to_pylist()
    ['a b', 'ça va']
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if values.null_count:
        raise ValueError("normalize_array: values must not contain nulls")
    if not pa.types.is_string(values.type) and not pa.types.is_large_string(values.type):
        values = values.cast(pa.string())
    if len(values) == 0:
        return pa.array([], type=pa.string())
    if not normalizer._fast_path:
        return _normalize_exact(values, normalizer)
    offsets, data = _string_buffers(values)
    slow = _bytes_per_row(~_FAST_BYTE[data], offsets) > 0
    out = _from_buffers(*_seed_ascii(offsets, data))
    if normalizer.articles:
        out = _drop_article_tokens(out)
    if slow.any():
        rows = np.flatnonzero(slow)
        exact = _normalize_exact(values.take(pa.array(rows)), normalizer)
        out = _replace_rows(out, rows, exact)
    return out


def _normalize_exact(values: pa.Array, normalizer: Normalizer) -> pa.Array:
    """Python normalization, once per distinct value."""
    encoded = pc.dictionary_encode(values)
    distinct = [normalizer(s) for s in encoded.dictionary.to_pylist()]
    return pa.array(distinct, type=pa.string()).take(encoded.indices)


def _replace_rows(base: pa.Array, rows: np.ndarray, new: pa.Array) -> pa.Array:
    index = np.arange(len(base), dtype=np.int64)
    index[rows] = len(base) + np.arange(len(rows))
    return pa.concat_arrays([base.cast(pa.string()), new.cast(pa.string())]).take(pa.array(index))
