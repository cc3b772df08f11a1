"""Whole-token and phrase matching on normalized text.

After normalization, tokens are separated by exactly one space and the text is trimmed, so a
term (itself normalized) occurs as whole consecutive tokens exactly when `` term `` is a
substring of `` text `` (both padded with a space). "west" is not found in "northwest".

>>> term_occurs("the copper token", "copper token")
True
>>> term_occurs("northwest drawer", "west")
False
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["term_occurs", "terms_occur", "pad"]


def pad(normalized: pa.Array) -> pa.Array:
    """Surround every normalized string with one space, for whole-token search."""
    return pc.binary_join_element_wise(" ", normalized, " ", "")


def term_occurs(normalized_text: str, normalized_term: str) -> bool:
    """Whether a normalized term occurs as whole consecutive tokens of a normalized text."""
    if not normalized_term:
        raise ValueError("a term that normalizes to nothing cannot be matched")
    return f" {normalized_term} " in f" {normalized_text} "


def terms_occur(padded: pa.Array, normalized_term: str) -> np.ndarray:
    """Vectorized :func:`term_occurs` over padded normalized strings (see :func:`pad`).

    >>> terms_occur(pad(pa.array(["a west b", "northwest"])), "west").tolist()
    [True, False]
    """
    if not normalized_term:
        raise ValueError("a term that normalizes to nothing cannot be matched")
    found = pc.match_substring(padded, f" {normalized_term} ")
    return found.to_numpy(zero_copy_only=False).astype(bool, copy=False)
