"""Numbers: the tokenizer, term parsing, conversions and comparison, on hand-checkable cases."""

from __future__ import annotations

from decimal import Decimal

import pytest

from recallscore_nb.core.numeric import (
    FoundNumber,
    NumberTerm,
    NumericPolicy,
    find_numbers,
    numbers_equal,
    parse_number_term,
)

UNITS = NumericPolicy(units={"km": ("m", 1000), "g": ("kg", 0.001)})
PCT = NumericPolicy(percent_as_fraction=True)


@pytest.mark.parametrize(
    "term, value, unit",
    [
        ("1000", 1000, ""),
        ("1,000", 1000, ""),
        ("1,000.50", 1000.5, ""),
        ("one thousand", 1000, ""),
        ("One Thousand", 1000, ""),
        ("3.5", 3.5, ""),
        ("3.50", 3.5, ""),
        (".5", 0.5, ""),
        ("-5", -5, ""),
        ("\u22125", -5, ""),  # the Unicode minus sign
        ("zero", 0, ""),
        ("twenty", 20, ""),
        ("twenty-one", 21, ""),
        ("hundred", 100, ""),
        ("five hundred", 500, ""),
        ("one hundred and five", 105, ""),
        ("three thousand two hundred", 3200, ""),
        ("two million", 2_000_000, ""),
        ("1.5 million", 1_500_000, ""),
        ("12%", 12, "%"),
        ("12 percent", 12, "%"),
    ],
)
def test_parse_number_term(term, value, unit):
    number = parse_number_term(term, None)
    assert isinstance(number, NumberTerm)
    assert (number.exact, number.unit, number.text) == (Decimal(value), unit, term)
    assert number.value == float(value)


@pytest.mark.parametrize(
    "term",
    ["west", "5th", "r2d2", "1,00", "1,0000", "3.5.2", "one two", "5 km", "five apples",
     "someone", ""],
)
def test_terms_that_are_not_one_number(term):
    assert parse_number_term(term, None) is None


@pytest.mark.parametrize(
    "term, value, unit",
    [("5 km", 5000, "m"), ("5km", 5000, "m"), ("5000 m", 5000, "m"), ("1.1 km", 1100, "m"),
     ("250 g", Decimal("0.25"), "kg"), ("2 KG", 2, "kg")],
)
def test_units_convert_to_their_base(term, value, unit):
    number = parse_number_term(term, UNITS)
    assert (number.exact, number.unit) == (Decimal(value), unit)


@pytest.mark.parametrize(
    "a, b, policy, equal",
    [
        ("1,000", "1000", None, True),
        ("1,000", "one thousand", None, True),
        ("1000", "one thousand", None, True),
        ("1000.00", "1000", None, True),   # trailing zeros
        ("1,000", "100", None, False),
        ("-5", "5", None, False),
        ("5 km", "5000 m", UNITS, True),
        ("1.1 km", "1100 m", UNITS, True),  # exact decimals: no 1100.0000000000002
        ("5 km", "5000", UNITS, False),     # a number with a unit never equals one without
        ("5 km", "5 m", UNITS, False),
        ("12%", "0.12", PCT, True),
        ("12 percent", "0.12", PCT, True),
        ("12%", "0.12", None, False),       # percentages stay percentages unless declared
        ("12%", "12", None, False),
        ("12%", "12 %", None, True),
    ],
)
def test_numbers_equal(a, b, policy, equal):
    x, y = parse_number_term(a, policy), parse_number_term(b, policy)
    assert numbers_equal(x, y, policy) is equal
    assert numbers_equal(y, x, policy) is equal


@pytest.mark.parametrize(
    "a, b, policy, equal",
    [
        (10, 10.5, NumericPolicy(abs_tol=0.5), True),    # the bound itself is inside
        (10, 10.51, NumericPolicy(abs_tol=0.5), False),
        (10, 9.5, NumericPolicy(abs_tol=0.5), True),
        (90, 100, NumericPolicy(rel_tol=0.1), True),     # 10 <= 0.1 * max(90, 100)
        (89, 100, NumericPolicy(rel_tol=0.1), False),    # 11 > 10
        (100, 110, NumericPolicy(rel_tol=0.1), True),    # 10 <= 0.1 * 110
        (0, 0.2, NumericPolicy(abs_tol=0.25, rel_tol=0.1), True),  # the larger bound wins
        (1000, 1000.4, NumericPolicy(), False),          # no tolerance by default
    ],
)
def test_tolerance_edges(a, b, policy, equal):
    assert numbers_equal(a, b, policy) is equal


def test_numbers_equal_refuses_text():
    with pytest.raises(TypeError, match="expected a NumberTerm"):
        numbers_equal("5", 5, None)


def test_find_numbers_reads_the_original_text_before_punctuation_goes():
    text = "Pay 1,000 coins, -5 points and 3.5 km by Friday."
    found = find_numbers(text, UNITS)
    assert [(n.text, n.span, n.exact, n.unit) for n in found] == [
        ("1,000", (4, 9), Decimal(1000), ""),
        ("-5", (17, 19), Decimal(-5), ""),
        ("3.5 km", (31, 37), Decimal(3500), "m"),
    ]
    assert all(isinstance(n, FoundNumber) and text[n.span[0]:n.span[1]] == n.text for n in found)


@pytest.mark.parametrize(
    "text, values",
    [
        ("one two", [1, 2]),
        ("ten-5", [10, 5]),            # a hyphen after a digit is not a minus sign
        ("5th of 3.5.2", []),
        ("someone often", []),
        ("twenty one and one hundred", [21, 100]),
        ("1, 2, 3", [1, 2, 3]),
        ("5 minutes", [5]),            # "m" is not a unit without a table
    ],
)
def test_find_numbers_values(text, values):
    assert [n.exact for n in find_numbers(text, None)] == [Decimal(v) for v in values]


def test_spans_survive_lowercasing_that_changes_length():
    text = "İstanbul: 3 km"  # "İ".lower() is two characters
    [number] = find_numbers(text, UNITS)
    assert number.span == (10, 14) and number.text == "3 km"


@pytest.mark.parametrize(
    "term, policy, conversions",
    [
        ("1,000", None, ("thousands separators: 1,000 = 1000",)),
        ("one thousand", None, ("number words: one thousand = 1000",)),
        ("5 km", UNITS, ("unit: 5 km = 5000 m (1 km = 1000 m)",)),
        ("12%", PCT, ("percent as fraction: 12% = 0.12",)),
        ("1.5 million", None, ("scale word: 1.5 million = 1500000",)),
        ("1000", None, ()),
    ],
)
def test_each_conversion_is_recorded(term, policy, conversions):
    assert parse_number_term(term, policy).conversions == conversions


def test_policy_fields_for_signatures():
    assert NumericPolicy().fields() == "abs0,rel0,pct-no"
    assert NumericPolicy(abs_tol=0.5, rel_tol=0.01, percent_as_fraction=True).fields() == (
        "abs0.5,rel0.01,pct-yes"
    )
