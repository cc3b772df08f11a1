"""The words of a reference: offsets, normalized words, words removed with their marks."""

from __future__ import annotations

import random

import pytest

from recallscore_nb.analysis.perturb_facts import omit_fact
from recallscore_nb.analysis.perturb_text import fact_words, term_occurrences, words_without, split_words
from recallscore_nb.core.errors import UsageError
from tests.perturb_fixtures import KITE, KITE_REFERENCE


def test_unknown_fact_name():
    with pytest.raises(UsageError, match="'fact' must be one of bird, place, time"):
        omit_fact(KITE_REFERENCE, KITE, random.Random(0), fact="colour")


def test_words_keep_their_offsets_and_marks():
    words = split_words("The  red-kite, at dawn.")
    assert [(w.text, w.start, w.norm, w.trail) for w in words] == [
        ("The", 0, "the", ""), ("red-kite,", 5, "redkite", ","), ("at", 15, "at", ""),
        ("dawn.", 18, "dawn", ".")]
    assert words[1].core_span == (5, 13)


def test_terms_are_found_as_whole_words():
    words = split_words(KITE_REFERENCE)
    assert term_occurrences(words, "mill roof") == [(6, 7)]
    assert term_occurrences(words, "roo") == []
    assert fact_words(words, KITE) == {1, 2, 6, 7, 9}


@pytest.mark.parametrize(
    ("drop", "expected"),
    [
        ({8, 9}, "The red kite nests on the mill roof."),  # the full stop moves back
        ({0}, "Red kite nests on the mill roof at dawn."),  # the capital passes on
        (set(range(10)), ""),
    ],
)
def test_words_removed_pass_on_their_marks(drop, expected):
    assert words_without(split_words(KITE_REFERENCE), drop) == expected
