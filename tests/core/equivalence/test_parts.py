"""What the ``equivalent`` rule's read steps see of an answer and of a reference: dates in the
common orders, quantities with scale words and ranges, glued words, a person's name, the
parts of a reference, each with positive and negative examples checked by hand."""

from __future__ import annotations

import pytest

from recallscore_nb.core.equivalence.parts import (
    AnswerForms,
    ReferenceForms,
    bad_day,
    contains,
    content,
    dates,
    glued_to,
    NICKNAMES,
    quantities,
    stated,
    surface,
    units,
    value,
)


# --- tokens ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("tokens", "phrase", "expected"), [
    ("a b c", "b c", True),
    ("a b c", "a b c", True),
    ("a b c", "a c", False),  # consecutive only
    ("a b", "a b c", False),  # longer than the tokens
    ("a b c", "", False),  # the empty phrase is never found
    ("", "a", False),
])
def test_contains(tokens, phrase, expected):
    assert contains(tokens.split(), phrase.split()) is expected


def test_content_drops_the_stop_words():
    assert content("the house of the rising sun".split()) == ["house", "rising", "sun"]
    assert content("of the".split()) == [] and content([]) == []


def test_surface_keeps_case_and_punctuation():
    assert surface("DÃ¡in, Thorin!") == "Dain, Thorin!"  # mojibake repaired, accents folded
    assert surface("Röntgen\tRAY") == "Rontgen\tRAY"
    assert surface("") == ""


@pytest.mark.parametrize(("token", "expected"), [
    ("12", 12.0), ("12.5", 12.5), ("0", 0.0),
    ("1st", None), ("1.2.3", None), ("abc", None), ("", None), (".5", None),
])
def test_value(token, expected):
    assert value(token) == expected


@pytest.mark.parametrize(("token", "word", "expected"), [
    ("inparis", "paris", True),  # a short word before
    ("parisin", "paris", True),  # after
    ("theparisin", "paris", True),  # both
    ("paris", "paris", True),  # the word itself
    ("parisian", "paris", False),  # "ian" is no short word
    ("xparis", "paris", False),
    ("cellaornaos", "cella", False),
])
def test_glued_to(token, word, expected):
    assert glued_to(token, word) is expected


# --- dates -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("september 15 1996", [(1996, 9, 15)]),  # month day year
    ("15 september 1996", [(1996, 9, 15)]),  # day month year
    ("15 sep 1996", [(1996, 9, 15)]),  # a month's three letters
    ("sept 1996", [(1996, 9, None)]),
    ("july 4 1776", [(1776, 7, 4)]),
    ("1996", [(1996, None, None)]),
    ("born 15 sep 1996 and in march 2001", [(1996, 9, 15), (2001, 3, None)]),
    ("99 may 2000", [(2000, 5, None)]),  # 99 is no day
    ("may 32 2000", [(2000, None, None)]),  # nor is 32: the year alone
    ("15 09 1996", [(1996, None, None)]),  # a month as a number is not read
    ("12345 and 999", []),  # no year of four digits from 1000 to 2099
    ("", []),
])
def test_dates(text, expected):
    assert dates(text.split()) == expected


# --- quantities ------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    # (low, high, approximate, scaled)
    ("12", [(12.0, 12.0, False, False)]),
    ("12.5", [(12.5, 12.5, False, True)]),  # a decimal counts as scaled (a rounded figure)
    ("about 2.45 billion", [(2.45e9, 2.45e9, True, True)]),
    ("approximately 3 lakh", [(3e5, 3e5, True, True)]),
    ("50 to 90 million", [(5e7, 9e7, False, True)]),  # the scale word applies to both ends
    ("5 million to 7 million", [(5e6, 7e6, False, True)]),
    ("1 to 2", [(1.0, 2.0, False, False)]),
    ("12 and 120", [(12.0, 12.0, False, False), (120.0, 120.0, False, False)]),
    ("no number", []),
    ("", []),
])
def test_quantities(text, expected):
    assert quantities(text.split()) == expected


@pytest.mark.parametrize(("reference", "only"), [
    ("about 2.5 million", True),
    ("50 to 90 million dollars", True),  # a unit word
    ("12 km", True),
    ("5 years", True),
    ("about 5 years old", False),  # "old" says more than a quantity
    ("Apollo 11", False),
    ("seven", True),  # a number word, as digits
    ("Paris", False),  # no quantity at all
])
def test_a_reference_of_quantities_only(reference, only):
    assert ReferenceForms.of(reference).only_quantities is only


# --- an answer -------------------------------------------------------------------------------
def test_an_answers_forms_and_what_is_read_of_them():
    forms = AnswerForms.of("Three seasons, about 2 million and 10 to 12 years; born 4 July 1776")
    assert forms.a0[:3] == ["three", "seasons", "about"]
    assert forms.a1[:2] == ["3", "seasons"] and forms.a2[:2] == ["3", "season"]
    assert forms.dates == [(1776, 7, 4)]
    assert forms.numbers == [3.0, 2e6, 4.0, 1776.0]  # the range 10 to 12 is not a single number
    assert "about" not in forms.content2 and "season" in forms.content2
    assert sorted(forms.words_by_length[4]) == ["born", "july", "year"]  # no number among them
    empty = AnswerForms.of("")
    assert (empty.a0, empty.dates, empty.numbers, empty.content2) == ([], [], [], [])


# --- a reference -----------------------------------------------------------------------------
@pytest.mark.parametrize(("reference", "person"), [
    ("Karen Sheila Gillan", (("karen", "sheila"), "gillan")),
    ("Abraham Lincoln", (("abraham",), "lincoln")),
    ("Sir Elton John", (("elton",), "john")),  # an honorific dropped
    ("J. R. R. Tolkien", (("j", "r", "r"), "tolkien")),  # initials
    ("Ludwig van Beethoven", (("ludwig", "van"), "beethoven")),  # a particle
    ('Dwayne "The Rock" Johnson', (("dwayne", "rock"), "johnson")),  # a nickname, as a given name
    ("Paris", None),  # one word
    ("Gillan, Karen", None),  # a comma
    ("Apollo 11", None),  # a digit
    ("the house of commons", None),  # not capitalized
    ("Queen Victoria", (("queen",), "victoria")),  # a royal title kept: King is a surname too
    ("North Korea", None), ("New York", None), ("Dodger Stadium", None),  # places
    ("Elizabeth II", None),  # one name once the regnal number is dropped
])
def test_a_reference_as_a_persons_name(reference, person):
    assert ReferenceForms.of(reference).person == person


def test_a_surname_that_is_also_a_title():
    assert ReferenceForms.of("Martin Luther King Jr.").person == (("martin", "luther"), "king")


def test_the_parts_of_a_reference():
    place = ReferenceForms.of("Dodger Stadium, Los Angeles")
    assert place.components == ["Dodger Stadium", " Los Angeles"]
    # every run of components but the whole, as content tokens in the singular
    assert place.component_runs == [["dodger", "stadium"], ["los", "angele"]]
    assert place.capital_runs[0] == (["dodger", "stadium"], ["dodger", "stadium"])
    stage = ReferenceForms.of("prophase I of meiosis")
    assert stage.components == ["prophase I of meiosis"] and stage.component_runs == []
    assert stage.segments == [["prophase", "i"], ["meiosis"]]  # cut before "of"
    assert stage.capital_runs == [(["i"], ["prophase", "i", "meiosis"])]
    house = ReferenceForms.of("The House of Commons (UK)")
    assert house.components == ["The House of Commons ", "UK"]
    assert house.capital_runs[0] == (["house", "common"], ["house", "common"])  # "The" dropped


def test_a_references_numbers_and_dates():
    ref = ReferenceForms.of("50 to 90 million dollars, September 15, 1996")
    assert ref.numbers2 == ["50", "90", "15", "1996"]
    assert ref.dates == [(1996, 9, 15)]
    assert ReferenceForms.of("").numbers2 == [] and ReferenceForms.of("").dates == []


# --- units and broken dates (cascade 2) --------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("8,850 km", {"km"}), ("8,850 kilometres", {"km"}), ("5,499 miles", {"mile"}),
    ("100 °C", {"degree c"}), ("100 degrees Celsius", {"degree c"}), ("212 °F", {"degree f"}),
    ("$5", {"dollar"}), ("5 euros", {"euro"}), ("10 years and 2 months", {"year", "month"}),
    ("Paris", set()), ("", set()), ("45%", {"percent"})])
def test_units_name_what_the_number_counts(text, expected):
    assert units(AnswerForms.of(text).a2) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("May 310, 2012", True), ("80 September 2010", True), ("32 December 1600", True),
    ("May 31, 2012", False), ("31 December 1600", False), ("May 2012", False),
    ("May 1999 2012", False), ("", False), ("in 310 BC", False)])
def test_a_month_beside_a_number_that_is_no_day_is_a_broken_date(text, expected):
    assert bad_day(AnswerForms.of(text).a1) is expected


# --- what cascade 3 reads (issue 30) ----------------------------------------------------------
def test_stated_numbers_carry_the_place_of_their_last_digit_exactly():
    from fractions import Fraction as F

    assert stated("0.1 and 2.187 billion and 1e5 and seven".split()) == [
        (F(1, 10), F(1, 10)), (F(2187000000), F(1000000)), ]
    assert stated([]) == [] and stated(["12", "thousand"]) == [(F(12000), F(1000))]


def test_a_name_given_only_in_quotes_is_read_as_a_name():
    assert ReferenceForms.of('"Kate" Mulgrew').person is None
    assert ReferenceForms.of('"Kate" Mulgrew').named == (("kate",), "mulgrew")
    assert ReferenceForms.of("James P. Flynn").named == ReferenceForms.of("James P. Flynn").person
    assert ReferenceForms.of("Paris").named is None


def test_the_sides_of_a_reference_of_alternatives():
    assert ReferenceForms.of("physical layer or layer 1").sides == [["physical", "layer"],
                                                                   ["layer", "1"]]
    assert ReferenceForms.of("Oregon").sides == [] and ReferenceForms.of("Orlando").sides == []


def test_short_forms_name_the_formal_names_they_may_be():
    assert NICKNAMES["jimmy"] == NICKNAMES["james"] == {"james"}
    assert NICKNAMES["chris"] == {"christopher", "christine"}
    assert NICKNAMES["ted"] == {"edward", "theodore"}
    assert all(k == k.lower() and all(v == v.lower() for v in vs) for k, vs in NICKNAMES.items())
