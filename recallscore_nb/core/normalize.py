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
# The fast path works on ASCII bytes: punctuation is deleted, letters lowercased, and the
# bytes str.split() treats as whitespace (\t \n \v \f \r \x1c-\x1f and space) folded to a
# space. Rows it cannot do exactly (see exact_rows) take the Python steps.
_PUNCT_BYTE = np.zeros(256, dtype=bool)
_PUNCT_BYTE[np.frombuffer(string.punctuation.encode(), dtype=np.uint8)] = True
# Lowercase ASCII letters and map every ASCII whitespace byte to a space, in one lookup.
_FOLD_BYTE = np.arange(256, dtype=np.uint8)
_FOLD_BYTE[0x41:0x5B] += 0x20
_FOLD_BYTE[[0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F]] = 0x20
_SPACE = 0x20


def _string_buffers(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Offsets (int64, starting at 0) and value bytes of a string array without nulls."""
    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(arr.buffers()[1], dtype=width)
    offsets = offsets[arr.offset : arr.offset + len(arr) + 1].astype(np.int64)
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
    return offsets - offsets[0], data


def _rows_of(positions: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The row each byte position belongs to."""
    return np.searchsorted(offsets, positions, side="right") - 1


def _delete(offsets: np.ndarray, data: np.ndarray, drop: np.ndarray):
    """Delete the bytes ``drop`` marks; offsets shrink by the deletions before them."""
    removed = np.bincount(_rows_of(np.flatnonzero(drop), offsets), minlength=len(offsets) - 1)
    shrink = np.zeros(len(offsets), dtype=np.int64)
    np.cumsum(removed, out=shrink[1:])
    return offsets - shrink, data[~drop]


def _seed_ascii(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    """The seed pipeline on ASCII bytes (exact for fast-path rows; other rows are garbage)."""
    offsets, data = _delete(offsets, data, _PUNCT_BYTE[data])
    data = _FOLD_BYTE[data]
    # Collapse each run of spaces to its last space (never across a row boundary) ...
    space = data == _SPACE
    doubled = np.zeros(len(data), dtype=bool)
    np.logical_and(space[:-1], space[1:], out=doubled[:-1])
    last = offsets[1:][offsets[1:] > offsets[:-1]] - 1
    doubled[last] = False
    offsets, data = _delete(offsets, data, doubled)
    # ... then trim the single space that may remain at either end.
    return pc.ascii_trim(_from_buffers(offsets, data), " ")


def exact_rows(values: pa.Array, *, articles: bool) -> np.ndarray:
    """Rows the vectorized path cannot normalize exactly: non-ASCII text, and, when articles
    are removed, ASCII control characters other than whitespace (they change what the
    articles regex's ``\\b`` sees, but not what ``str.split()`` does)."""
    ascii_only = pc.string_is_ascii(values).to_numpy(zero_copy_only=False)
    if not articles:
        return np.flatnonzero(~ascii_only)
    suspect = np.flatnonzero(~pc.ascii_is_printable(values).to_numpy(zero_copy_only=False))
    if len(suspect):
        subset = values.take(pa.array(suspect))
        odd = pc.or_(pc.invert(pc.string_is_ascii(subset)),
                     pc.match_substring_regex(subset, r"[\x00-\x08\x0e-\x1b\x7f]"))
        suspect = suspect[odd.to_numpy(zero_copy_only=False)]
    return suspect


def _from_buffers(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    large = offsets[-1] >= 2**31
    return pa.Array.from_buffers(
        pa.large_string() if large else pa.string(),
        len(offsets) - 1,
        [None, pa.py_buffer(offsets.astype(np.int64 if large else np.int32)),
         pa.py_buffer(np.ascontiguousarray(data))],
    )


def _drop_article_tokens(seed: pa.Array) -> pa.Array:
    """On seed-normalized ASCII text, the articles regex is dropping the tokens a/an/the."""
    lists = pc.split_pattern(seed, " ")
    flat = pc.list_flatten(lists)
    keep = pc.invert(pc.is_in(flat, value_set=_ARTICLE_TOKENS))
    counts = np.bincount(
        pc.list_parent_indices(lists).to_numpy()[keep.to_numpy(zero_copy_only=False)],
        minlength=len(seed),
    )
    offsets = np.zeros(len(seed) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    kept = pa.ListArray.from_arrays(pa.array(offsets), pc.filter(flat, keep))
    return pc.binary_join(kept, " ")


_ARTICLE_TOKENS = pa.array(["a", "an", "the"])


def normalize_array(
    values: pa.Array | pa.ChunkedArray, normalizer: Normalizer = SEED, *, seed: pa.Array | None = None
) -> pa.Array:
    """Apply ``normalizer`` to every string of ``values``; equal, row by row, to ``normalizer(s)``.

    Rows of ASCII text take a vectorized path over the Arrow value bytes; other rows are
    normalized once per distinct value with the exact Python steps. ``seed``, the seed
    normalization of ``values`` when already computed, saves work for the squad pipeline.

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
    out = _seed_ascii(*_string_buffers(values)) if seed is None else seed
    if normalizer.articles:
        out = _drop_article_tokens(out)
    rows = exact_rows(values, articles=normalizer.articles)
    if len(rows):
        exact = _normalize_exact(values.take(pa.array(rows)), normalizer)
        out = _replace_rows(out, rows, exact)
    return out.cast(pa.string())


def _normalize_exact(values: pa.Array, normalizer: Normalizer) -> pa.Array:
    """Python normalization, once per distinct value."""
    encoded = pc.dictionary_encode(values)
    step = _seed_text if normalizer == SEED.with_steps(normalizer.name) else normalizer
    distinct = [step(s) for s in encoded.dictionary.to_pylist()]
    return pa.array(distinct, type=pa.string()).take(encoded.indices)


def _seed_text(text: str) -> str:
    """The seed pipeline in one expression (the exact path's hot loop)."""
    return " ".join(text.lower().translate(_ASCII_PUNCT_TABLE).split())


def _replace_rows(base: pa.Array, rows: np.ndarray, new: pa.Array) -> pa.Array:
    index = np.arange(len(base), dtype=np.int64)
    index[rows] = len(base) + np.arange(len(rows))
    return pa.concat_arrays([base.cast(pa.string()), new.cast(pa.string())]).take(pa.array(index))
