"""Variants that lose, change, deny or restate one fact, or stuff every term, each kind alone,
on small references whose expected text can be read off."""

from __future__ import annotations

import random

import pytest

from recallscore_nb.analysis.perturb_facts import change_fact, omit_fact
from recallscore_nb.core.facts import Fact
from tests.perturb_fixtures import KITE, KITE_REFERENCE, SHIPPED


def test_contradiction_sharing_terms_replaces_only_the_others():
    """("after", "museum") against the terms (before, museum, opens): only "before" changes."""
    facts = SHIPPED.facts
    text = change_fact(SHIPPED.reference, facts, random.Random(0), fact="timing",
                       contradictions={"timing": [["after", "museum"]]})
    assert text == "The copper token goes in the west drawer after the museum opens."


def test_unusable_contradiction_falls_back_to_the_built_in_table():
    text = change_fact(SHIPPED.reference, SHIPPED.facts, random.Random(0), fact="location",
                       contradictions={"location": [["west", "drawer", "not"]]})
    assert text and " west drawer " not in text and " drawer " in text


@pytest.mark.parametrize(
    ("fact", "expected"),
    [
        ("bird", "Nests on the mill roof at dawn."),  # a subject gone takes its article along
        ("place", "The red kite nests at dawn."),  # "on the" left dangling go too
        ("time", "The red kite nests on the mill roof."),  # the full stop moves back
    ],
)
def test_omit_fact(fact, expected):
    assert omit_fact(KITE_REFERENCE, KITE, random.Random(0), fact=fact) == expected


def test_omit_fact_keeps_the_other_facts():
    facts = (Fact("a", ("red kite",)), Fact("b", ("kite",)))
    result = omit_fact("The red kite nests.", facts, random.Random(0), fact="b")
    assert result.reason == "removing its terms also removes fact(s) a"


def test_omit_and_change_choose_a_fact_with_the_rng():
    omitted = {omit_fact(KITE_REFERENCE, KITE, random.Random(seed)) for seed in range(20)}
    assert len(omitted) == 3
    changed = {change_fact(KITE_REFERENCE, KITE, random.Random(seed)) for seed in range(20)}
    assert all(text and text != KITE_REFERENCE for text in changed)


@pytest.mark.parametrize(
    ("reference", "fact", "allowed"),
    [
        (KITE_REFERENCE, "time", {"dusk", "noon", "midnight"}),
        ("Store 3 blue vials.", "count", {str(n) for n in range(4, 13)}),
        ("STORE THE VIALS FACING WEST.", "side", {"NORTH", "SOUTH", "EAST", "NORTHEAST",
                                                 "NORTHWEST", "SOUTHEAST", "SOUTHWEST"}),
    ],
)
def test_change_fact_uses_the_built_in_table(reference, fact, allowed):
    facts = {"time": KITE, "count": (Fact("count", ("3",)),),
             "side": (Fact("side", ("west",)),)}[fact]
    text = change_fact(reference, facts, random.Random(0), fact=fact)
    changed = set(text.rstrip(".").split()) - set(reference.rstrip(".").split())
    assert len(changed) == 1 and changed <= allowed


def test_negation_paraphrase_hedge_and_stuffing_alone():
    from recallscore_nb.analysis.perturb_facts import (
        hedge_fact,
        negate_fact,
        paraphrase_fact,
        stuffing_attempt,
    )

    assert negate_fact(KITE_REFERENCE, KITE, random.Random(0), fact="place") == (
        "The red kite nests not on the mill roof at dawn.")
    assert paraphrase_fact(KITE_REFERENCE, KITE, random.Random(0), fact="place",
                           equivalents={"place": [["barn"]]}) == (
        "The red kite nests on the barn at dawn.")
    assert not paraphrase_fact(KITE_REFERENCE, KITE, random.Random(0), fact="place")
    assert hedge_fact(KITE_REFERENCE, KITE, random.Random(0), fact="time",
                      contradictions={"time": [["dusk"]]}) == (
        "Either the red kite nests on the mill roof at dawn, or the red kite nests on the "
        "mill roof at dusk.")
    assert stuffing_attempt(KITE, {"place": [["barn"]]}, {"time": [["dusk"]]}) == (
        "red kite mill roof barn dawn dusk")
