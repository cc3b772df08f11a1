"""The number words, read once (:mod:`recallscore_nb.core.numeric`) for both their readers:
the number tokenizer (``find_numbers``, ``parse_number_term``) and the ``answer+numbers``
normalizer (``number_token``, ``ANSWER_NUMBERS``). Each reader's results are held to what
they were when each kept its own table of words."""

from __future__ import annotations

from decimal import Decimal

import pyarrow as pa
import pytest

from recallscore_nb.core.equivalence.forms import (
    ANSWER_NUMBERS,
    NUMBER_WORDS,
    number_token,
    number_words,
)
from recallscore_nb.core.normalize import normalize_array
from recallscore_nb.core.numeric import (
    CARDINALS,
    SCALES,
    TENS,
    find_numbers,
    number_word_values,
    parse_number_term,
)

# the tables each reader had of its own, as they were written
OLD_CARDINALS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                 "fourteen fifteen sixteen seventeen eighteen nineteen twenty").split()
OLD_TENS = {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70",
            "eighty": "80", "ninety": "90"}
OLD_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}

# text: (the tokenizer's numbers as (text, exact value, unit, span), parse_number_term's exact
# value), (number_token, number_words, ANSWER_NUMBERS), as each reader gave them before
CASES = {
    "": (([], None), ("", "", "")),
    "a hundred": (([("hundred", "100", "", (2, 9))], None), ("a hundred", "a hundred", "hundred")),
    "one hundred": (([("one hundred", "100", "", (0, 11))], "100"),
                    ("one hundred", "1 hundred", "1 hundred")),
    "hundred": (([("hundred", "100", "", (0, 7))], "100"), ("hundred", "hundred", "hundred")),
    "twenty-one": (([("twenty-one", "21", "", (0, 10))], "21"),
                   ("twenty-one", "twenty-one", "20 1")),
    "twenty one": (([("twenty one", "21", "", (0, 10))], "21"), ("twenty one", "20 1", "20 1")),
    "twenty": (([("twenty", "20", "", (0, 6))], "20"), ("20", "20", "20")),
    "twentieth": (([], None), ("20", "20", "20")),
    "one million": (([("one million", "1000000", "", (0, 11))], "1000000"),
                    ("one million", "1 million", "1 million")),
    "a million": (([("million", "1000000", "", (2, 9))], None),
                  ("a million", "a million", "million")),
    "1.5 million": (([("1.5 million", "1500000.0", "", (0, 11))], "1500000.0"),
                    ("1.5 million", "1.5 million", "1.5 million")),
    "one thousand and five": (([("one thousand and five", "1005", "", (0, 21))], "1005"),
                              ("one thousand and five", "1 thousand and 5", "1 thousand and 5")),
    "one hundred and five": (([("one hundred and five", "105", "", (0, 20))], "105"),
                             ("one hundred and five", "1 hundred and 5", "1 hundred and 5")),
    "three hundred thousand": (([("three hundred thousand", "300000", "", (0, 22))], "300000"),
                               ("three hundred thousand", "3 hundred thousand",
                                "3 hundred thousand")),
    "one two": (([("one", "1", "", (0, 3)), ("two", "2", "", (4, 7))], None),
                ("one two", "1 2", "1 2")),
    "zero": (([("zero", "0", "", (0, 4))], "0"), ("0", "0", "0")),
    "zero one": (([("zero", "0", "", (0, 4)), ("one", "1", "", (5, 8))], None),
                 ("zero one", "0 1", "0 1")),
    "thirty": (([], None), ("30", "30", "30")),
    "thirty-one": (([("one", "1", "", (7, 10))], None), ("thirty-one", "thirty-one", "30 1")),
    "ninety": (([], None), ("90", "90", "90")),
    "seven": (([("seven", "7", "", (0, 5))], "7"), ("7", "7", "7")),
    "third": (([], None), ("3", "3", "3")),
    "21st": (([], None), ("21", "21", "21")),
    "viii": (([], None), ("8", "8", "8")),
    "xx": (([], None), ("20", "20", "20")),
    "xxi": (([], None), ("xxi", "xxi", "xxi")),
    "i": (([], None), ("i", "i", "i")),
    "v": (([], None), ("5", "5", "5")),
    "\u0663": (([], None), ("\u0663", "\u0663", "\u0663")),  # Arabic-Indic three
    "\uff13": (([], None), ("\uff13", "\uff13", "3")),  # fullwidth three
    "\u0663\u0660 km": (([], None), ("\u0663\u0660 km", "\u0663\u0660 kilometer",
                                     "\u0663\u0660 kilometer")),
    "\uff11\uff12": (([], None), ("\uff11\uff12", "\uff11\uff12", "12")),
    "\u00b2": (([], None), ("\u00b2", "\u00b2", "2")),
    "and": (([], None), ("and", "and", "and")),
    "one and": (([("one", "1", "", (0, 3))], None), ("one and", "1 and", "1 and")),
    "twenty-zero": (([("twenty", "20", "", (0, 6)), ("zero", "0", "", (7, 11))], None),
                    ("twenty-zero", "twenty-zero", "20 0")),
    "twelve hundred": (([("twelve hundred", "1200", "", (0, 14))], "1200"),
                       ("twelve hundred", "12 hundred", "12 hundred")),
    "hundred thousand": (([("hundred thousand", "100000", "", (0, 16))], "100000"),
                         ("hundred thousand", "hundred thousand", "hundred thousand")),
    "million million": (([("million", "1000000", "", (0, 7)),
                          ("million", "1000000", "", (8, 15))], None),
                        ("million million", "million million", "million million")),
    "Seven Seas": (([("Seven", "7", "", (0, 5))], None), ("Seven Seas", "Seven Seas", "7 seas")),
    "ONE": (([("ONE", "1", "", (0, 3))], "1"), ("ONE", "ONE", "1")),
    "eleven": (([("eleven", "11", "", (0, 6))], "11"), ("11", "11", "11")),
    "yrs": (([], None), ("year", "year", "year")),
    "West": (([], None), ("West", "West", "west")),
}


def _tokenizer(text: str):
    term = parse_number_term(text)
    return ([(n.text, str(n.exact), n.unit, n.span) for n in find_numbers(text)],
            None if term is None else str(term.exact))


@pytest.mark.parametrize("text", list(CASES))
def test_the_tokenizer_reads_number_words_as_it_did(text):
    assert _tokenizer(text) == CASES[text][0]


@pytest.mark.parametrize("text", list(CASES))
def test_answer_numbers_reads_number_words_as_it_did(text):
    assert (number_token(text), number_words(text), ANSWER_NUMBERS(text)) == CASES[text][1]


def test_the_vectorized_answer_numbers_agrees_on_the_cases():
    values = list(CASES)
    assert normalize_array(pa.array(values), ANSWER_NUMBERS).to_pylist() == [
        CASES[v][1][2] for v in values]


def test_the_words_are_the_ones_each_reader_had():
    assert list(CARDINALS) == OLD_CARDINALS and list(CARDINALS.values()) == list(range(21))
    assert {w: str(v) for w, v in TENS.items()} == OLD_TENS and SCALES == OLD_SCALES
    assert number_word_values(scales=True) == {**dict(zip(OLD_CARDINALS, range(21))),
                                               **OLD_SCALES}
    assert number_word_values(tens=True).keys() == set(OLD_CARDINALS) | set(OLD_TENS)


def test_each_reader_reads_its_words_and_not_the_others():
    for value, word in enumerate(OLD_CARDINALS):  # both read zero to twenty
        assert number_token(word) == str(value) and word in NUMBER_WORDS
        assert parse_number_term(word).exact == Decimal(value)
    for word, digits in OLD_TENS.items():  # the tens: answer+numbers only
        assert number_token(word) == digits and word in NUMBER_WORDS
        assert find_numbers(word) == []
    for word, value in OLD_SCALES.items():  # the scales: the tokenizer only
        assert number_token(word) == word and word not in NUMBER_WORDS
        assert parse_number_term(word).exact == Decimal(value)
    assert len(NUMBER_WORDS) == 21 + 21 + 19 + 7  # cardinals, ordinals, Roman numerals, tens
