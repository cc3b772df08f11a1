"""The layout guards of ``equivalent`` (``alternatives``, ``denial``, ``scale``): what each
refuses and what it must let through, on answers written here (none from the shipped sets),
through both the vectorized and the per-row path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.engine import Attempts, References
from recallscore_nb.core.equivalence import (
    EquivalenceOptions,
    clear_caches,
    equivalence,
    equivalence_of,
    hedges,
)
from recallscore_nb.core.equivalence.forms import ANSWER
from recallscore_nb.core.equivalence.gates import scale_or_month
from recallscore_nb.core.equivalence.hedges import (
    denies_reference,
    offers_alternatives,
    scale_added,
    segments,
)
from recallscore_nb.core.equivalence.parts import NEGATION_GUARD_CUES, ReferenceForms
from recallscore_nb.core.schema import DEFAULT_NEGATION_CUES

GUARDED = EquivalenceOptions()  # version 2: hedges, lists, denials and scales refused
FIRST = EquivalenceOptions(cascade=1)  # the cascade before them


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
    assert both(answer, ["Lima"], FIRST) == (True, "contains")


@pytest.mark.parametrize("answer, references", [
    ("acid precipitation or acid rain", ["acid rain"]),      # one referent named twice
    ("Lima, the capital of Peru.", ["Lima"]),
    ("The festival was held in Lima, Cusco and Arequipa.", ["Lima"]),
    ("It was first performed in Lima, Peru, in 1821, or so the story goes.", ["Lima"]),
    ("Lima or Callao", ["Lima", "Callao"]),                    # every candidate a reference
    ("Lima; Callao", ["Lima", "Callao"]),
    ("Atlanta, Georgia", ["Georgia"]),                         # a place and its state
    ("West Palm Beach, Florida", ["West Palm Beach"]),
    ("July 4, 1960", ["1960"]), ("July 4 , 1960", ["1960"]),   # a date, not two candidates
    ("14 – 18", ["14"]), ("Gerald R. Ford", ["Gerald Ford", "Ford"]),
    ("Paris, the capital of France.", ["Paris"]), ("No, Lima.", ["Lima"]),
    ("Whisky, honey, oatmeal, egg: Atholl Brose.", ["Atholl Brose"]),
    ("Smith, John", ["Smith"]), ("enemy, stranger", ["enemy"]),  # two names, no hedge
    ("James Watt, a builder of steam engines, formed a partnership with Boulton.",
     ["James Watt"]),
    ("Betty Midler portrayed the lead, singer Mary Rose Foster, in the 1979 film The Rose.",
     ["Mary Rose Foster"]),
])
def test_what_is_not_a_hedge_is_accepted(answer, references):
    assert both(answer, references)[0] is True


@pytest.mark.parametrize("answer", [
    "Lima, Quito, Bogotá", "Quito; Lima", "Lima\nQuito\nCusco", "1. Quito 2. Lima 3. Cusco",
    "- Quito\n- Lima", "Quito; Lima; Cusco; Oslo; Riga", "It is Lima, Quito or Cusco.",
    "Lima, Quito, Cusco and Riga"])
def test_a_bare_list_of_candidates_is_refused(answer):
    assert both(answer, ["Lima"])[0] is False
    assert both(answer, ["Lima"], EquivalenceOptions(guards=("list",))) == (False, "list")
    assert both(answer, ["Lima"], FIRST) == (True, "contains")


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


@pytest.mark.parametrize(("answer", "references"), [
    ("The answer isn't a large roasted turkey.", ["a large roasted turkey", "turkey"]),
    ("It is not DJ Snake featuring Justin Bieber.", ["DJ Snake featuring Justin Bieber",
                                                      "Justin Bieber"]),
    ("Anything but hit points or health points.", ["hit points or health points"])])
def test_a_denial_reads_the_widest_reference_found(answer, references):
    assert both(answer, references) == (False, "denial")


def test_a_word_offering_an_alternative_inside_a_reference_does_not_cut_it():
    got = [(s.said, s.found) for s in segments("Maybe drama, or hit points or health points",
                                                forms("hit points or health points"))]
    assert got == [(("drama",), False), (("hit", "points", "or", "health", "points"), True)]
    assert both("Romantic drama, or perhaps hit points or health points",
                ["hit points or health points"])[0] is False


@pytest.mark.parametrize("answer", [
    " ".join(["Oslo Riga Baku Kyiv Bern Rome Nice Lyon"] * 2 + ["Lima"]),
    "Quito Riga Baku Kyiv Bern Rome Nice Lyon Lima Oslo Cusco Arequipa Callao Tacna Piura "
    "Ica Puno"])
def test_a_bag_of_words_around_the_reference_is_refused(answer):
    assert both(answer, ["Lima"]) == (False, "bag")
    assert both(answer, ["Lima"], FIRST) == (True, "contains")


def test_a_long_sentence_is_no_bag():
    answer = ("Lima is the capital and the largest city of Peru, located in the valleys of "
              "the Chillon, Rimac and Lurin rivers, on the desert coast of the country")
    assert both(answer, ["Lima"]) == (True, "contains")


def test_a_scale_word_after_a_reference_with_a_number_or_a_broken_date_is_refused():
    assert both("291 episodes billion", ["291 episodes", "291"]) == (False, "scale")
    assert both("1960 and 1980 thousand", ["1960", "1980"]) == (False, "scale")
    assert both("9 billion", ["9 billion", "9"]) == (True, "exact")
    assert both("July 140, 1976", ["July 14, 1976", "1976"]) == (False, "scale")
    assert both("July 14, 1976", ["1976"]) == (True, "contains")


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
    plain = both(answer, ["Lima"], FIRST)
    assert guarded[0] <= plain[0]
    if not guarded[0] and plain[0]:
        assert guarded[1] in ("alternatives", "list", "denial", "scale", "negation")


PIECES = st.sampled_from([
    "Lima", "Quito", "or", "o-r", "either", "maybe", "not", "anything", "but", "is", "wrong",
    "9", "billion", "may", "310", "2012", ",", ", ", ";", " / ", "/", "?", ".", " - ", "\t",
    "\n", "1.", "Zürich", "ή", "Ã¡", "and/or", "Lima,maybe", "U.S.", " "])
TEXTS = st.lists(PIECES, max_size=12).map(" ".join) | st.lists(PIECES, max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.sampled_from(["Lima", "Lima Quito", "9", "may 2012", "or"]))
def test_what_the_guards_read_first_is_necessary(raw, reference):
    """The shortcuts the guards take before reading segments never change a verdict: an
    answer of one segment has one at the most, whatever its references; the cut text
    normalized in one vectorized pass (``primed``) reads as the text normalized alone; and a
    row the ``scale`` guard's array test rules out is one it would not veto."""
    refs = forms(reference)
    alone = segments(raw, refs)
    if hedges._one_segment(raw):
        assert len(alone) <= 1
    hedges._cut_tokens.cache_clear()
    hedges._segments.cache_clear()
    with hedges.primed([raw, "Lima"]):
        assert segments(raw, refs) == alone
    hedges._cut_tokens.cache_clear()
    hedges._segments.cache_clear()
    attempts = Attempts([raw])
    a0 = attempts.normalized(ANSWER).to_pylist()[0].split()
    could = scale_or_month(attempts, np.array([0]), np.array([0]), np.array([0]))[0]
    if not could:
        assert not scale_added(a0, list(range(len(a0))), refs)


def test_clear_caches_empties_every_memo():
    segments("Lima, Quito", forms("Lima"))
    assert hedges._segments.cache_info().currsize >= 1
    assert clear_caches() >= 3
    assert hedges._segments.cache_info().currsize == 0


def test_the_negation_lists_each_keep_their_words():
    """The ``denial`` guard's words are the ``negation`` guard's cues and two more; a scoring
    schema's default cues are a list of their own (in its signature), four of them."""
    assert NEGATION_GUARD_CUES == {"not", "no", "never", "nor", "neither", "without", "isnt",
                                   "wasnt", "arent", "werent", "doesnt", "didnt", "dont",
                                   "cannot", "cant"}
    assert hedges.DENIALS == NEGATION_GUARD_CUES | {"except", "excluding"}
    assert DEFAULT_NEGATION_CUES == ("not", "no", "never", "without")
