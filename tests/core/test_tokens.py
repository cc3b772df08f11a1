"""Whole-token and phrase matching on normalized text.

Texts and terms here are already seed-normalized (lowercase, one space between tokens,
trimmed), as the checklist hands them over.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.normalize import SEED, Normalizer
from recallscore_nb.core.engine import Attempts
from recallscore_nb.core.tokens import Tokens, pad, phrase_rows, phrase_starts, term_occurs

HYPOTHESIS = settings(max_examples=200, deadline=None)
_AS_IS = Normalizer("as-is", ())
"""No step: the texts are already normalized."""

CASES = [
    # (normalized text, normalized term, occurs?)
    ("the copper token", "copper token", True),  # multi-word term as consecutive tokens
    ("copper token", "copper token", True),
    ("token copper", "copper token", False),  # order matters
    ("copper big token", "copper token", False),  # consecutive, not merely both present
    ("token copper token", "copper token", True),  # found at its second start
    ("west drawer", "west", True),
    ("northwest drawer", "west", False),  # "west" is not a whole token of "northwest"
    ("westward", "west", False),
    ("ferns", "fern", False),
    ("fern", "fern", True),
    ("a fern", "fern", True),  # at the end
    ("fern a", "fern", True),  # at the start
    ("west", "west drawer", False),  # the term is longer than the text
    ("westdrawer", "west drawer", False),
    ("café crème", "café", True),
    ("café", "caf", False),  # non-ASCII letters are part of the token
    ("i\u0307stanbul", "i\u0307stanbul", True),
    ("東京 タワー", "タワー", True),
    ("東京タワー", "タワー", False),
    ("", "west", False),
]


@pytest.mark.parametrize(("text", "term", "expected"), CASES)
def test_term_occurs(text, term, expected):
    assert term_occurs(text, term) is expected


def test_an_empty_term_raises():
    with pytest.raises(ValueError, match="normalizes to nothing"):
        term_occurs("west", "")


def terms_occur(texts, term: str) -> np.ndarray:
    """The vectorized matcher's answer for one normalized term in normalized texts (split on
    spaces, as the rules split them)."""
    vocab = list(dict.fromkeys(term.split(" ")))
    tokens = Attempts(texts).tokens(_AS_IS, pa.array(vocab))
    return phrase_rows(tokens, [vocab.index(t) for t in term.split(" ")], len(texts))


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["a", ""], [" a ", "  "]),
        (["west drawer"], [" west drawer "]),
        ([], []),
    ],
)
def test_pad(values, expected):
    assert pad(pa.array(values, type=pa.string())).to_pylist() == expected


@pytest.mark.parametrize("term", sorted({term for _, term, _ in CASES}))
def test_the_vectorized_matcher_agrees_with_term_occurs(term):
    texts = [text for text, _, _ in CASES]
    got = terms_occur(texts, term)
    assert got.dtype == bool
    assert got.tolist() == [term_occurs(text, term) for text in texts]


def test_the_vectorized_matcher_on_a_sliced_array():
    texts = pa.array(["west", "northwest", "a west b", "x"]).slice(1, 2)
    assert terms_occur(texts, "west").tolist() == [False, True]


def test_phrase_starts_stay_within_a_row():
    tokens = Tokens(ids=np.array([0, 1, 0, 1]), rows=np.array([0, 0, 1, 2]),
                    positions=np.array([0, 1, 0, 0]), counts=np.array([2, 1, 1]))
    assert phrase_starts(tokens, [0, 1]).tolist() == [0]  # row 1 ends before row 2's 1




WORDS = st.sampled_from(["west", "drawer", "northwest", "a", "the", "é", "west–drawer", "x"])


@HYPOTHESIS
@given(st.lists(WORDS, max_size=8), st.lists(WORDS, min_size=1, max_size=3))
def test_term_occurs_is_consecutive_token_match(text_tokens, term_tokens):
    text, term = " ".join(text_tokens), " ".join(term_tokens)
    k = len(term_tokens)
    expected = any(
        text_tokens[i : i + k] == term_tokens for i in range(len(text_tokens) - k + 1)
    )
    assert term_occurs(text, term) is expected
    assert terms_occur([text], term).tolist() == [expected]


@HYPOTHESIS
@given(st.text(max_size=30))
def test_every_token_run_of_a_text_occurs_in_it(text):
    tokens = SEED(text).split()
    for i in range(len(tokens)):
        for j in range(i + 1, min(i + 3, len(tokens)) + 1):
            assert term_occurs(SEED(text), " ".join(tokens[i:j]))
