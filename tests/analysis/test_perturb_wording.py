"""Variants that change only the wording, each kind alone, on small references whose expected
text can be read off."""

from __future__ import annotations

import random

import pytest

from recallscore_nb.analysis.perturb_text import Unavailable
from recallscore_nb.analysis.perturb_wording import (
    add_leading_context,
    change_spacing,
    copy_exact,
    drop_articles_and_verb,
    remove_punctuation,
    reorder_clauses,
    telegraphic,
    uppercase,
)
from recallscore_nb.core.facts import Fact
from tests.perturb_fixtures import KITE, KITE_REFERENCE


@pytest.mark.parametrize(
    ("function", "reference", "expected"),
    [
        (copy_exact, KITE_REFERENCE, KITE_REFERENCE),
        (uppercase, KITE_REFERENCE, "THE RED KITE NESTS ON THE MILL ROOF AT DAWN."),
        (remove_punctuation, "The mill-roof, at dawn.", "The millroof at dawn"),
        (remove_punctuation, "Dawn - at the mill.", "Dawn at the mill"),
        (remove_punctuation, "It costs $1,000.50, or 12%.", "It costs $1,000.50 or 12%"),
        (reorder_clauses, "The red kite nests on the mill roof until dawn breaks.",
         "Until dawn breaks, the red kite nests on the mill roof."),
        (reorder_clauses, "At dawn, the red kite nests on the mill roof.",
         "The red kite nests on the mill roof, at dawn."),
        (telegraphic, KITE_REFERENCE, "Red kite: mill roof dawn."),
        (telegraphic, "The red kite is on the mill roof at dawn.", "Red kite: mill roof dawn."),
        (drop_articles_and_verb, KITE_REFERENCE, "Red kite on mill roof at dawn."),
        (drop_articles_and_verb, "The red kite was seen on a mill roof at dawn.",
         "Red kite seen on mill roof at dawn."),
    ],
)
def test_kind_on_the_kite_reference(function, reference, expected):
    assert function(reference, KITE, random.Random(0)) == expected


@pytest.mark.parametrize(
    ("function", "reference", "reason"),
    [
        (uppercase, "RED KITE, MILL ROOF, DAWN", "the reference has no lowercase letter"),
        (uppercase, "Red kite, mill roof, dawn, straße", "uppercasing changes the reference "
                                                     "beyond case (e.g. 'ß' to 'SS')"),
        (remove_punctuation, "red kite mill roof dawn",
         "the reference has no ASCII punctuation outside its numbers"),
        (reorder_clauses, KITE_REFERENCE, "no subordinating conjunction or comma to split a "
                                          "clause at"),
        (telegraphic, "Red kite mill roof dawn", "no article, auxiliary, light preposition or "
                                                 "verb outside the fact terms"),
        (drop_articles_and_verb, "The red kite, the mill roof, dawn",
         "no verb-like word outside the fact terms"),
    ],
)
def test_kind_unavailable(function, reference, reason):
    result = function(reference, KITE, random.Random(0))
    assert isinstance(result, Unavailable) and not result
    assert result.reason == reason


def test_reorder_never_splits_a_term():
    facts = (Fact("cue", ("roof when",)),)
    reference = "The kite nests on the roof when dawn breaks."
    result = reorder_clauses(reference, facts, random.Random(0))
    assert result.reason == "every clause boundary splits a fact's term"


def test_spacing_keeps_the_words_and_widens_one_gap():
    text = change_spacing(KITE_REFERENCE, KITE, random.Random(0))
    assert text.startswith("  The") and text.endswith("dawn.  ")
    assert text.split() == KITE_REFERENCE.split()
    assert text.count("   ") == 1


def test_leading_context_lowercases_the_first_word_unless_it_is_a_term():
    facts = (Fact("city", ("Paris",)),)
    assert add_leading_context("Paris it is.", facts, random.Random(0)).endswith(" Paris it is.")
    assert add_leading_context("The city is Paris.", facts, random.Random(0)).endswith(
        " the city is Paris.")
