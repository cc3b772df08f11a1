"""The ``answer`` normalizers of the ``equivalent`` rule: each registered step alone, the token
maps, the three pipelines on text people write (Unicode, tabs, empty), and the vectorized
kernel held to the Python steps row by row.

Every expected string can be worked out from the step's definition; the comments show the
working where it is not obvious.
"""

from __future__ import annotations

import re
import string

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.equivalence.forms import (  # the kernel's tables: one test of them
    _AFTER_LOWER,
    _PATTERNS,
    ANSWER,
    ANSWER_NUMBERS,
    ANSWER_STEMS,
    ascii_typography,
    drop_footnotes,
    drop_possessives,
    drop_superscripts,
    fold_accents,
    number_token,
    number_words,
    plain_numerals,
    punctuation_spaces,
    repair_mojibake,
    separate_glued_words,
    singular,
    singular_token,
    spell_symbols,
)
from recallscore_nb.core.normalize import NORMALIZERS, STEPS, normalize_array

HYPOTHESIS = settings(max_examples=300, deadline=None)


# --- the registry ----------------------------------------------------------------------------
def test_the_steps_and_normalizers_are_registered_in_order():
    assert ANSWER.steps == (
        "mojibake", "superscripts", "nfkc", "accents", "typography", "symbols", "footnotes",
        "glued_words", "lowercase", "possessives", "numerals", "punctuation_spaces", "articles",
        "whitespace")
    assert ANSWER_NUMBERS.steps == ANSWER.steps + ("number_words",)
    assert ANSWER_STEMS.steps == ANSWER_NUMBERS.steps + ("singular",)
    assert [NORMALIZERS[n] for n in ("answer", "answer+numbers", "answer+stems")] == [
        ANSWER, ANSWER_NUMBERS, ANSWER_STEMS]
    for name, step in [("mojibake", repair_mojibake), ("superscripts", drop_superscripts),
                       ("accents", fold_accents), ("typography", ascii_typography),
                       ("footnotes", drop_footnotes), ("glued_words", separate_glued_words),
                       ("possessives", drop_possessives), ("symbols", spell_symbols),
                       ("numerals", plain_numerals), ("punctuation_spaces", punctuation_spaces),
                       ("number_words", number_words), ("singular", singular)]:
        assert STEPS[name].apply is step and STEPS[name].description


# --- each step alone ---------------------------------------------------------------------------
STEP_CASES = {
    repair_mojibake: [
        ("DÃ¡in", "Dáin"),  # UTF-8 read as cp1252, read again
        ("CafÃ©", "Café"),
        ("10â€“12", "10–12"),  # the en dash's three bytes
        ("itâ€™s", "it’s"),
        ("\tÃ©\t", "\té\t"),  # tabs kept
        ("Dáin", "Dáin"),  # already right: unchanged
        ("naïve Ã", "naïve Ã"),  # "Ã" alone is no mojibake pair
        ("plain text", "plain text"),
        ("", ""),
    ],
    drop_superscripts: [
        ("Gaga⁶", "Gaga"),
        ("Gaga⁶⁷.", "Gaga."),  # a run of markers
        ("Ré¹²³", "Ré"),  # after an accented letter too
        ("km²", "km"),  # an exponent alike
        ("x ²", "x ²"),  # after a space: kept
        ("a\t¹", "a\t¹"),  # after a tab: kept
        ("²alone", "²alone"),  # opening the text: kept
        ("", ""),
    ],
    fold_accents: [
        ("Röntgen", "Rontgen"),
        ("Dáin, Ça", "Dain, Ca"),
        ("e\u0301", "e"),  # a decomposed accent
        ("ñ\tÖ", "n\tO"),
        ("東京", "東京"),  # no marks to drop
        ("ﬁ", "ﬁ"),  # a ligature is NFKC's business, not this step's
        ("", ""),
    ],
    ascii_typography: [
        ("“It’s”", "\"It's\""),
        ("10–12 and a—b", "10-12 and a-b"),  # en and em dashes
        ("\u2212 5", "- 5"),  # the minus sign
        ("x\u00a0y\u202fz\u2009w", "x y z w"),  # no-break, narrow and thin spaces
        ("«oui»", "\"oui\""),
        ("a\u2032", "a'"),  # the prime
        ("\t’\t", "\t'\t"),
        ("", ""),
    ],
    drop_footnotes: [
        ("Gillan1.", "Gillan."),
        ("Gillan1", "Gillan"),  # at the end of the text
        ("Gillan12 and Asia123", "Gillan and Asia"),  # markers that count up from where they start
        ("Gillan21", "Gillan21"),  # 21 does not count up: kept
        ("Gillan5", "Gillan5"),  # only markers 1 to 4
        ("in 20171, born 1990", "in 2017, born 1990"),  # a year with its marker; a year alone kept
        ("$75,0001.", "$75,000."),  # a number with a thousands separator
        ('"Hey"2 x and Elvis)3 x', '"Hey" x and Elvis) x'),  # after a quote or a parenthesis
        ("abc1\tdef", "abc\tdef"),  # before a tab
        ("1998,", "1998,"),
        ("", ""),
    ],
    separate_glued_words: [
        ("byWaylon", "by Waylon"),
        ("TheHouston", "The Houston"),
        ("in1813", "in 1813"),
        ("6ft", "6 ft"),
        ("10am", "10 am"),
        ("about24", "about 24"),
        ("2013after", "2013 after"),
        ("in1996inAtlanta", "in 1996 in Atlanta"),
        ("20th, 1990s", "20th, 1990s"),  # ordinals and decades stay
        ("iPhone, McDonald, onTV", "iPhone, McDonald, onTV"),  # no short word, then a word
        ("in\t1813", "in\t1813"),
        ("", ""),
    ],
    drop_possessives: [
        ("children's", "children"),
        ("st james's park", "st james park"),
        ("boss's\tdog", "boss\tdog"),
        ("it's", "it"),
        ("'s", ""),
        ("", ""),
    ],
    spell_symbols: [
        ("r&b", "r and b"),
        ("50%", "50 percent "),
        ("$5", " dollar 5"),
        ("€10 £3", " euro 10  pound 3"),
        ("₹¥", " rupee  yen "),
        ("30°", "30 degree "),
        ("a\tb", "a\tb"),
        ("", ""),
    ],
    plain_numerals: [
        ("1,250,000", "1250000"),  # two separators
        ("2,000\t3-4", "2000\t3 to 4"),
        ("10-12", "10 to 12"),
        ("10 - 12", "10 to 12"),
        ("3,5 and 1,25", "3,5 and 1,25"),  # not three digits after the comma: no separator
        ("a-b", "a-b"),  # no digits: no range
        ("", ""),
    ],
    punctuation_spaces: [
        ("west-drawer", "west drawer"),
        ("o'neill", "oneill"),  # an apostrophe joins
        ("12.5", "12.5"),  # a decimal point between digits stays
        ("3. .5 a.b", "3   5 a b"),
        ("(c.)", " c  "),
        ("x\ty", "x\ty"),
        ("", ""),
    ],
    number_token: [
        ("seven", "7"), ("twenty", "20"), ("seventy", "70"), ("third", "3"), ("21st", "21"),
        ("1st", "1"), ("ii", "2"), ("viii", "8"), ("x", "10"),
        ("i", "i"),  # Roman numerals from II: "i" is a word
        ("hundred", "hundred"), ("yrs", "year"), ("dollars", "dollar"), ("west", "west"), ("", ""),
    ],
    singular_token: [
        ("boundaries", "boundary"), ("ties", "tie"), ("boxes", "box"), ("buzzes", "buzz"),
        ("terms", "term"), ("glass", "glass"), ("dress", "dress"), ("bus", "bus"),
        ("analysis", "analysis"), ("its", "its"), ("gas", "gas"), ("", ""),
    ],
}
"""Each registered step (and token map) with the strings it is given and what it returns."""


@pytest.mark.parametrize(
    ("step", "text", "expected"),
    [(step, text, expected) for step, cases in STEP_CASES.items() for text, expected in cases],
    ids=lambda value: value.__name__ if callable(value) else None)
def test_each_step_alone(step, text, expected):
    assert step(text) == expected


def test_the_token_steps_map_each_space_separated_token():
    assert number_words("seven wonders of viii") == "7 wonders of 8"
    assert number_words("one  two") == "1  2"  # an empty token between two spaces stays empty
    assert singular("red boxes and stories") == "red box and story"
    assert number_words("") == singular("") == ""


# --- the pipelines -----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "answer", "numbers", "stems"), [
    ("The band’s “hit” was written byWaylon Jennings1.",
     "band hit was written by waylon jennings", "band hit was written by waylon jennings",
     "band hit was written by waylon jenning"),
    ("Three seasons, 1,250 km", "three seasons 1250 km", "3 seasons 1250 kilometer",
     "3 season 1250 kilometer"),
    ("Beyoncé’s 2nd album", "beyonce 2nd album", "beyonce 2 album", "beyonce 2 album"),
    ("DÃ¡in II", "dain ii", "dain 2", "dain 2"),
    ("\tÉcole\u00a0Normale\t", "ecole normale", "ecole normale", "ecole normale"),
    ("50% of $3 million & more", "50 percent of dollar 3 million and more",
     "50 percent of dollar 3 million and more", "50 percent of dollar 3 million and more"),
    ("Gaga⁶ in1813", "gaga in 1813", "gaga in 1813", "gaga in 1813"),
    ("10–12 years", "10 to 12 years", "10 to 12 year", "10 to 12 year"),
    ("It’s 6ft", "it 6 ft", "it 6 foot", "it 6 foot"),
    ("TheHouston Rockets", "houston rockets", "houston rockets", "houston rocket"),
    ("ﬁsh, 東京 Tower", "fish 東京 tower", "fish 東京 tower", "fish 東京 tower"),  # NFKC
    ("the the", "", "", ""),
    ("", "", "", ""),
])
def test_the_three_pipelines(text, answer, numbers, stems):
    assert (ANSWER(text), ANSWER_NUMBERS(text), ANSWER_STEMS(text)) == (answer, numbers, stems)


# --- the kernel --------------------------------------------------------------------------------
PIECES = [
    "“", "”", "‘", "’", "«", "»", "–", "—", "‐", "−", "¹", "²", "³", "⁴", "⁵", "⁶", "°", "€", "£",
    "&", "%", "$", "0", "1", "2", "7", "12", "1998", "20171", ",", ".", "'", "-", "(", ")", '"',
    ":", "!", "/", "é", "ñ", "Ö", "Ã©", "â€™", "Ã", "ﬁ", "…", "東京", "\t", "\n", "\u00a0",
    "\u202f", "\u2003", " ", "  ", "byWaylon", "in1813", "6ft", "TheHouston", "10am", "about24",
    "the", "The", "a", "an", "seven", "third", "viii", "21st", "boxes", "stories", "'s",
    "James's", "Gillan", "x", "km", "yrs", "million", "in", "to", "of", "B",
    "İ", "ĳ", "ſ", "ø", "ß", "Č", "ǅ", "ḗ", "ō", "´", "¨", "ª", "‼", "\u0301", "\u0308",
    "\u2002", "\u200b", "¼", "×",
]
texts = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
SUPERSCRIPTS = "¹²³⁴⁵⁶"


@HYPOTHESIS
@given(st.lists(texts, max_size=8))
def test_the_kernels_equal_the_python_steps_row_by_row(values):
    for normalizer in (ANSWER, ANSWER_NUMBERS, ANSWER_STEMS):
        got = normalize_array(pa.array(values, type=pa.string()), normalizer).to_pylist()
        assert got == [normalizer(v) for v in values], normalizer.name


@pytest.mark.parametrize("text", ["Café²", "Beyoncé¹ and Jay-Z", "Ö¹ x", "…²"])
def test_a_footnote_marker_after_a_non_ascii_letter(text):
    assert normalize_array(pa.array([text]), ANSWER).to_pylist() == [ANSWER(text)]


def test_the_kernels_on_unicode_tabs_and_empty_rows():
    values = ["", "\t", "Dáin\tII", "CafÃ©", "“6ft”", "Karen Gillan1.", "東京"]
    for normalizer in (ANSWER, ANSWER_NUMBERS, ANSWER_STEMS):
        assert normalize_array(pa.array(values), normalizer).to_pylist() == [
            normalizer(v) for v in values]
    assert normalize_array(pa.array(values), ANSWER_NUMBERS).to_pylist() == [
        "", "", "dain 2", "cafe", "6 foot", "karen gillan", "東京"]


@HYPOTHESIS
@given(st.text(alphabet=string.ascii_letters + string.punctuation + " \t", max_size=40))
def test_the_patterns_said_to_need_a_digit_never_match_without_one(text):
    """The kernel runs these only on rows with a digit (no step writes one)."""
    for pattern, _, needs_digit in _PATTERNS + _AFTER_LOWER:
        if needs_digit:
            assert re.search(pattern, text) is None and re.search(pattern, text.lower()) is None
