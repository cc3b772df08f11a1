"""The layout guards of ``equivalent`` (``alternatives``, ``denial``, ``scale``): what each
refuses and what it must let through, on answers written here (none from the shipped sets),
through both the vectorized and the per-row path."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.engine import Attempts, References
from recallscore_nb.core.equivalence import EquivalenceOptions, equivalence, equivalence_of
from recallscore_nb.core.equivalence.hedges import (
    denies_reference,
    offers_alternatives,
    scale_added,
    segments,
)
from recallscore_nb.core.equivalence.parts import ReferenceForms

GUARDED = EquivalenceOptions(guards=("negation", "alternatives", "denial", "scale"))


def both(answer: str, references: list[str], options: EquivalenceOptions = GUARDED):
    one = equivalence_of(answer, references, options)
    verdict, step = equivalence(Attempts([answer]), References.build([references], 1), options)
    assert (bool(verdict[0]), str(step[0])) == one
    return one


def forms(*refs: str) -> list[ReferenceForms]:
    return [ReferenceForms.of(r) for r in refs]


@pytest.mark.parametrize("answer", [
    "Either Quito or Lima.", "Lima? Or was it Quito?", "Maybe Quito, maybe Lima.",
    "It could be Lima, Quito, or perhaps Bogotá; I am not sure which.",
    "Probably Quito, but it might be Lima.", "Quito / Lima", "Quito and/or Lima",
    "I'm not sure — Lima or Quito?", "Possibly Lima; possibly Quito."])
def test_a_hedge_between_candidates_is_refused(answer):
    assert both(answer, ["Lima"]) == (False, "alternatives")
    assert both(answer, ["Lima"], EquivalenceOptions()) == (True, "contains")


@pytest.mark.parametrize("answer, references", [
    ("acid precipitation or acid rain", ["acid rain"]),      # one referent named twice
    ("Lima, the capital of Peru.", ["Lima"]),
    ("The festival was held in Lima, Cusco and Arequipa.", ["Lima"]),
    ("It was first performed in Lima, Peru, in 1821, or so the story goes.", ["Lima"]),
    ("Lima, Quito, Bogotá", ["Lima"]),                        # a plain list: not refused
    ("Lima or Callao", ["Lima", "Callao"]),                    # every candidate a reference
])
def test_what_is_not_a_hedge_is_accepted(answer, references):
    assert both(answer, references)[0] is True


@pytest.mark.parametrize("answer", [
    "Anything but Lima.", "Definitely not Lima.", "Lima is wrong; it is Quito.",
    "It's Quito, not Lima.", "The answer isn't Lima.", "Lima is incorrect."])
def test_a_denied_reference_is_refused(answer):
    assert both(answer, ["Lima"])[0] is False


@pytest.mark.parametrize("answer", [
    "Not Quito but Lima.", "No, it is Lima.", "The song \"Don't Stop\" was sung by Lima.",
    "Lima, not Quito."])
def test_a_denial_of_something_else_is_no_veto(answer):
    assert both(answer, ["Lima"]) == (True, "contains")


def test_a_scale_word_added_to_a_number_is_refused():
    assert both("It sold 9 billion copies.", ["9"]) == (False, "scale")
    assert both("9 million", ["9 million"]) == (True, "exact")
    assert both("9 points", ["9"]) == (True, "contains")
    assert scale_added("9 m".split(), [0], forms("9")) is True
    assert scale_added("paris million".split(), [0], forms("paris")) is False


def test_segments_keep_a_reference_whole_and_read_past_the_lead_in():
    got = [(s.said, s.found) for s in segments("It could be Vancouver, British Columbia, or "
                                                "maybe Quito", forms("Vancouver, British Columbia"))]
    assert got == [(("vancouver", "british", "columbia"), True), (("quito",), False)]
    assert segments("", forms("x")) == []
    assert [s.said for s in segments("Lima\tQuito\n- Cusco", forms("Lima"))] == [
        ("lima",), ("quito",), ("cusco",)]


def test_unicode_and_edge_cases():
    # the Greek "ή" is no mark: both segments hold the reference
    assert offers_alternatives("Ηράκλειο ή Αθήνα; Maybe Αθήνα.", forms("Αθήνα")) is False
    assert offers_alternatives("Either Zürich or Genève", forms("Geneve")) is True
    assert denies_reference("", forms("x")) is False
    assert offers_alternatives("Lima", forms("Lima")) is False
    long = "Lima or " + " or ".join(f"City{i}" for i in range(2000))
    assert offers_alternatives(long, forms("Lima")) is True


WORDS = st.sampled_from(["Lima", "Quito", "Cusco", "Bogota", "Oslo", "Riga"])


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=4, unique=True), st.sampled_from(
    [", ", " or ", "; ", " / ", "\n"]))
def test_the_guards_only_ever_refuse(candidates, joint):
    """Switching the guards on never accepts an answer the default refuses, and the two
    paths agree."""
    answer = joint.join(candidates)
    guarded = both(answer, ["Lima"])
    plain = both(answer, ["Lima"], EquivalenceOptions())
    assert guarded[0] <= plain[0]
    if not guarded[0] and plain[0]:
        assert guarded[1] in ("alternatives", "denial", "scale", "negation")
