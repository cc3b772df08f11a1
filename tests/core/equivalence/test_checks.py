"""The ``equivalent`` rule's read steps and guards, each check of one answer against one
reference with examples it accepts and examples it refuses, worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from recallscore_nb.core.equivalence.checks import (
    candidate_list,
    date_matches,
    glue_matches,
    in_longer_name,
    name_part_matches,
    negation_cue,
    order_matches,
    overlap_matches,
    part_matches,
    quantity_matches,
    spelling_matches,
    units_differ,
    within_precision,
)
from recallscore_nb.core.equivalence.forms import ANSWER
from recallscore_nb.core.equivalence.parts import AnswerForms, ReferenceForms


def check(step, answer: str, reference: str, *options) -> bool:
    return step(AnswerForms.of(answer), ReferenceForms.of(reference), *options)


# --- dates -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("July 4, 1776", "4 July 1776", True),  # month day year against day month year
    ("4th of July, 1776", "July 4, 1776", True),  # an ordinal day, "of" a stop word
    ("15 Sept 1996", "September 15, 1996", True),
    ("It came out in 1996.", "September 15, 1996", True),  # the year, no month to differ
    ("September 1996", "September 15, 1996", True),  # the month, no day to differ
    ("1776", "July 4, 1776", True),
    ("in 1996 and 2001", "2001", True),  # any of the answer's dates
    ("October 3, 1996", "September 15, 1996", False),  # another month
    ("5 July 1776", "4 July 1776", False),  # another day
    ("1997", "1996", False),
    ("the 1990s", "1996", False),  # a decade is no year
    ("1996", "Paris", False),  # a reference without a date
])
def test_date_matches(answer, reference, expected):
    assert check(date_matches, answer, reference) is expected


# --- quantities ------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("twelve", "12", True),  # a number word
    ("12 km", "12 kilometres", True),  # a unit in either spelling
    ("about 2.5 million", "2,500,000", True),  # a scale word
    ("3 lakh", "300,000", True),
    ("$5 million", "5 million dollars", True),
    ("70 million", "50 to 90 million", True),  # inside a range
    ("95 million", "50 to 90 million", False),  # outside it
    ("2.4 billion", "about 2.5 billion", True),  # 4% off an approximate scaled figure
    ("2.3 billion", "about 2.5 billion", False),  # 8% off: over the tolerance
    ("2.4 billion", "2.5 billion", False),  # an exact figure: no tolerance
    ("1227.986", "1,228", True),  # more precise, rounding to the reference
    ("120", "12", False),  # a number inside another is another number
    ("5", "5 million", False),  # the scale word counts
    ("54 Mbps", "54 Mbit", False),  # "mbit" is no unit word: the reference is not quantities
    ("12", "Apollo 12", False),
])
def test_quantity_matches(answer, reference, expected):
    assert check(quantity_matches, answer, reference, 0.05) is expected


def test_quantity_tolerance_is_an_option():
    assert check(quantity_matches, "2.3 billion", "about 2.5 billion", 0.1)  # 8% < 10%
    assert not check(quantity_matches, "2.4 billion", "about 2.5 billion", 0.0)


# --- glued words -----------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("born inparis", "Paris", True),  # a short word glued before, all lowercase
    ("Parisin 1990", "Paris", True),  # after
    ("born Nelsonin", "Nelson", True),
    ("theBeatles", "The Beatles", True),
    ("Parisian", "Paris", False),  # "ian" is no short word
    ("xParis", "Paris", False),
    ("NewYork", "New York", False),  # a reference of two words stays two tokens
    ("in ox", "ox", False),  # words of three letters or more only
])
def test_glue_matches(answer, reference, expected):
    assert check(glue_matches, answer, reference) is expected


# --- spelling --------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("Narsingh Yadav", "Narsing Yadav", True),  # one insertion
    ("Londen", "London", True),  # one substitution
    ("Beethovan", "Beethoven", True),
    ("Pariss", "Paris", True),  # five letters: long enough
    ("Rome", "Roma", False),  # four letters: too short for an edit
    ("Lndn", "London", False),  # two edits
    ("Narsingh", "Narsing Yadav", False),  # the whole reference, in order
    ("Yadav Narsingh", "Narsing Yadav", False),
    ("12345", "12346", False),  # never a number
    ("1997", "1996", False),
])
def test_spelling_matches(answer, reference, expected):
    assert check(spelling_matches, answer, reference, 5) is expected


def test_spelling_shortest_word_is_an_option():
    assert check(spelling_matches, "Rome", "Roma", 4)
    assert not check(spelling_matches, "Pariss", "Paris", 6)


# --- word order ------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("Smith John", "John Smith", True),
    ("drawer west the", "the west drawer", True),
    ("the cross of St George", "St George's cross", True),  # the possessive dropped
    ("John", "John Smith", False),  # every content word
    ("Paris", "Paris", False),  # a reference of one content word: nothing to reorder
    ("September 1996", "1996 September", False),  # dates are the date step's
])
def test_order_matches(answer, reference, expected):
    assert check(order_matches, answer, reference) is expected


# --- name parts ------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("Karen Gillan", "Karen Sheila Gillan", True),  # one given name before the last
    ("Sheila Gillan", "Karen Sheila Gillan", True),
    ("K. Gillan", "Karen Gillan", True),  # an initial
    ("Dave Grohl", "David Grohl", True),  # a short form: the first three letters
    ("Rock Johnson", 'Dwayne "The Rock" Johnson', True),  # a nickname
    ("Da Grohl", "David Grohl", False),  # two letters: no short form
    ("Mary Todd Lincoln", "Abraham Lincoln", False),  # another given name
    ("Lincoln", "Abraham Lincoln", False),  # a last name alone is the part step's
    ("Abraham and his cousin Lincoln", "Abraham Lincoln", False),  # over three words before
    ("Karen Gillan", "Gillan, Karen", False),  # a comma: not read as a person's name
    ("Paris", "Paris", False),
])
def test_name_part_matches(answer, reference, expected):
    assert check(name_part_matches, answer, reference, 3) is expected


def test_name_part_window_is_an_option():
    assert check(name_part_matches, "Abraham and his cousin Lincoln", "Abraham Lincoln", 4)


# --- part of a reference ---------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("Dhaka", "Dhaka, Bangladesh", True),  # a component
    ("Los Angeles", "Dodger Stadium, Los Angeles, California", True),
    ("Lincoln", "Abraham Lincoln", True),  # a person's last name
    ("prophase I", "prophase I of meiosis", True),  # the end of a segment
    ("the Commons", "the House of Commons", True),
    ("Abraham", "Abraham Lincoln", False),  # a given name alone
    ("Bangladesh Dhaka", "Dhaka, Bangladesh", False),  # not a part as written
    ("a very long answer of many words", "a very long answer of many words too", False),  # > 4
])
def test_part_matches(answer, reference, expected):
    assert check(part_matches, answer, reference, 4) is expected


# --- overlap ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("Apollo 11 landed on moon", "Apollo 11 landed on the moon", True),  # 4 of 4 content words
    ("the red kite", "red kite", True),
    ("Apollo 12 landed on the moon", "Apollo 11 landed on the moon", False),  # a number missing
    ("copper token", "The copper token goes in the west drawer", False),  # 2 of 5
    ("house", "house", False),  # one content word: under ``least``
    ("born in 1996 in Paris France", "Paris, France, 1996", False),  # a date: the date step's
])
def test_overlap_matches(answer, reference, expected):
    assert check(overlap_matches, answer, reference, Fraction(2, 3), 2, 4) is expected


def test_overlap_share_is_an_option():
    # "copper token west drawer": 4 of the 5 content words (copper token go west drawer)
    reference = "The copper token goes in the west drawer"
    assert check(overlap_matches, "copper token west drawer", reference, Fraction(3, 4), 2, 4)
    assert not check(overlap_matches, "copper token west drawer", reference, Fraction(5, 6), 2,
                     4)


SENTENCE = "The copper token goes in the west drawer before the museum opens."


@pytest.mark.parametrize(("answer", "expected"), [
    ("Copper token: west drawer before museum opens.", True),  # "goes" left out
    ("The token goes in the west drawer before the museum opens.", True),  # "copper" left out
    ("The copper token goes in the east drawer before the museum opens.", False),  # replaced
    ("The copper token goes in the west drawer after the museum opens.", False),
    ("The silver token goes in the west drawer before the museum opens.", False),  # at the start
])
def test_a_sentence_may_lose_words_but_not_change_them(answer, expected):
    # 8 content words (copper token go west drawer before museum open): more than ``widest``
    assert check(overlap_matches, answer, SENTENCE, Fraction(2, 3), 2, 4) is expected
    # within ``widest``, a missing word is not checked for a replacement
    assert check(overlap_matches, answer, SENTENCE, Fraction(2, 3), 2, 8) is True


# --- guards ----------------------------------------------------------------------------------
def _negated(answer: str, reference: str) -> list[bool]:
    """The negation cue's verdict at each place the reference occurs in the answer."""
    tokens, phrase = ANSWER(answer).split(), ANSWER(reference).split()
    starts = [i for i in range(len(tokens)) if tokens[i:i + len(phrase)] == phrase]
    return [negation_cue(answer, tokens, i) for i in starts]


@pytest.mark.parametrize(("answer", "expected"), [
    ("Not Paris, but Lyon", [True]),  # the cue opens the answer
    ("It is not Paris", [True]),
    ("It wasn't Paris", [True]),  # "wasnt" once the apostrophe is gone
    ("never Paris", [True]),
    ("without Paris", [True]),
    ("No, Paris", [False]),  # the cue ends its own clause
    ("Paris, not Lyon", [False]),  # the cue is after the reference
    ("The film Not Paris", [False]),  # a title's capital "Not"
    ("He said no. Paris is right", [False]),
    ("Paris", [False]),
])
def test_negation_cue(answer, expected):
    assert _negated(answer, "Paris") == expected


@pytest.mark.parametrize(("answer", "reference", "expected"), [
    ("Mary Todd Lincoln", "Lincoln", True),  # a capitalized word before it
    ("Monty Python", "Python", True),
    ("the Lincoln Memorial", "Lincoln", True),  # after it
    ("Lincoln", "Lincoln", False),
    ("He met Lincoln", "Lincoln", False),  # "met" is lowercase
    ("President Lincoln", "Lincoln", False),  # a title
    ("Mount Everest", "Everest", False),
    ("In Lincoln", "Lincoln", False),  # a stop word
    ("Python, Monty", "Python", False),  # a comma between
    ("Lincoln. Then", "Lincoln", False),  # a new sentence
    ("Monty Python and Python", "Python", False),  # found once on its own
])
def test_in_longer_name(answer, reference, expected):
    assert in_longer_name(answer, ReferenceForms.of(reference)) is expected


@pytest.mark.parametrize(("answer", "references", "expected"), [
    ("Paris, Lyon or Marseille", ["Paris"], True),
    ("Paris or Lyon", ["Paris"], True),
    ("Paris, Lyon", ["Paris"], False),  # one comma and no "or": one place ("Paris, France")
    ("Paris, Lyon, Marseille", ["Paris"], True),  # three items
    ("Paris or Lutetia", ["Paris", "Lutetia"], False),  # every item a reference
    ("Paris or the city of Paris", ["Paris"], False),
    ("Paris and Lyon", ["Paris"], False),  # no "or", no comma: not a list of alternatives
    ("Tom and Jerry", ["Tom and Jerry"], False),
    ("Paris", ["Paris"], False),
    ("either Paris or Lyon or Nice or Lille or Metz or Caen or Pau", ["Paris"], False),  # > 8
])
def test_candidate_list(answer, references, expected):
    assert candidate_list(answer, [ReferenceForms.of(r) for r in references]) is expected


# --- cascade 2: numbers, dates and units are compared, not dropped ------------------------------
@pytest.mark.parametrize(("answer", "reference", "first", "second"), [
    ("May 310, 2012", "May 31, 2012", True, False),       # a day times ten
    ("80 September 2010", "8 September 2010", True, False),
    ("17800–1830", "1780–1830", True, False),             # one year of two
    ("He was born on 4 July 1776.", "July 4, 1776", True, True),
    ("1780 to 1830", "1780–1830", True, True),
])
def test_strict_dates(answer, reference, first, second):
    a, r = AnswerForms.of(answer), ReferenceForms.of(reference)
    assert date_matches(a, r) is first and date_matches(a, r, strict=True) is second


@pytest.mark.parametrize(("answer", "reference", "first", "second"), [
    ("8,850 miles", "8,850 km", True, False), ("100 °F", "100 °C", True, False),
    ("8,850 kilometres", "8,850 km", True, True), ("8,850", "8,850 km", True, True),
    ("8,850 metres or 29,032 ft", "8,850 metres", True, True),  # one unit the same
])
def test_strict_quantities_compare_units(answer, reference, first, second):
    a, r = AnswerForms.of(answer), ReferenceForms.of(reference)
    assert quantity_matches(a, r, 0.05) is first
    assert quantity_matches(a, r, 0.05, strict=True) is second
    assert units_differ(a, r) is (first and not second)


@pytest.mark.parametrize(("answer", "reference", "first", "second"), [
    ("the 18400s", "the 1840s", True, False), ("3.5 billion", "3.5 million", True, False),
    ("Narsingh", "Narsing", True, True)])
def test_strict_spelling_edits_no_number_or_scale(answer, reference, first, second):
    a, r = AnswerForms.of(answer), ReferenceForms.of(reference)
    assert spelling_matches(a, r, 5) is first
    assert spelling_matches(a, r, 5, strict=True) is second


def test_strict_overlap_refuses_another_unit():
    a, r = AnswerForms.of("approximately 5 gallons"), ReferenceForms.of("approximately 5 liters")
    assert overlap_matches(a, r, Fraction(2, 3), 2, 4) is True
    assert overlap_matches(a, r, Fraction(2, 3), 2, 4, strict=True) is False


def test_strict_overlap_refuses_alternatives_offered_for_a_word_of_a_sentence():
    ref = ReferenceForms.of("The copper token goes in the west drawer before the museum opens.")
    stuffed = AnswerForms.of("copper silver gold token coin west drawer east drawer north drawer "
                             "before museum opens after museum opens")
    honest = AnswerForms.of("The copper token is put in the west drawer before the museum opens")
    assert overlap_matches(stuffed, ref, Fraction(2, 3), 2, 4) is True
    assert overlap_matches(stuffed, ref, Fraction(2, 3), 2, 4, strict=True) is False
    assert overlap_matches(honest, ref, Fraction(2, 3), 2, 4, strict=True) is True


# --- cascade 3: more forms of the same answer (issue 30) ------------------------------------
@pytest.mark.parametrize(("answer", "reference", "third"), [
    ("62.3", "62", True), ("4.01", "4.0129", True), ("$2.19 billion", "$2.187 billion",
                                                            True),
    ("approximately 760 torr", "759.9625", True), ("62.5", "62", False),  # an exact half
    ("2.4", "2", False),                      # one significant digit: too coarse to round to
    ("63", "62", False), ("5.0129", "4.0129", False),  # a changed number, at any precision
    ("13.6 billion", "14 billion", False),    # finer than a reference with a scale word
    ("12.5", "12", False), ("1227.986", "1,228", True),  # the rounding rule kept
])
def test_precise_quantities_round_to_the_coarser(answer, reference, third):
    a, r = AnswerForms.of(answer), ReferenceForms.of(reference)
    assert quantity_matches(a, r, 0.05, strict=True, precise=True) is third
    if third and reference != "1,228":
        assert quantity_matches(a, r, 0.05, strict=True) is False  # cascade 2 refused it


def test_within_precision_is_symmetric_and_never_equal_precision():
    one, other = (Fraction("4.01"), Fraction(1, 100)), (Fraction("4.0129"), Fraction(1, 10**4))
    assert within_precision(one, other) and within_precision(other, one)
    assert not within_precision((Fraction(7), Fraction(1)), (Fraction(7), Fraction(1)))


@pytest.mark.parametrize(("answer", "reference", "third"), [
    ("Robert Adamson", "Robert Gillespie Adamson IV", True),    # middle name and suffix out
    ("Alan Autry", "Carlos Alan Autry Jr.", True),
    ("Jimmy Flynn", "James P. Flynn", True), ("Bob Smith", "Robert Smith", True),
    ("Katherine Kiernull Maria Mulgrew", '"Kate" Mulgrew', True),  # the quoted given name
    ("Harry Potter", "Harry Potter III", False),    # a numeral after two words: no suffix
    ("Bob Jones", "Robert Smith", False), ("Jimmy Flynn", "John Flynn", False),
])
def test_name_forms_read_short_given_names_and_suffixes(answer, reference, third):
    a, r = AnswerForms.of(answer), ReferenceForms.of(reference)
    assert name_part_matches(a, r, 3, forms=True) is third
    if third:
        assert name_part_matches(a, r, 3) is False


@pytest.mark.parametrize(("answer", "reference", "third"), [
    ("the states", "the states or the people", True), ("physical layer",
                                                      "physical layer or layer 1", True),
    ("Lagos", "Lagos State", True), ("Caucasus", "The Caucasus Mountains", True),
    ("the city of Oslo", "Oslo, Norway", True),
    ("Korea", "North Korea", False),          # a part of a name, no designator left out
    ("Indiana", "Indiana University", False),  # an institution is no kind of place
])
def test_parts_read_sides_of_or_and_places_without_their_kind(answer, reference, third):
    a, r = AnswerForms.of(answer), ReferenceForms.of(reference)
    assert part_matches(a, r, 4, forms=True) is third
    if third:
        assert part_matches(a, r, 4) is False

