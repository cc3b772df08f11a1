"""Hand-checkable case tables for the per-row reference rules (tests/oracles/reference_rules.py).

Each expected value can be worked out on paper from the official SQuAD scripts and the
benchmark protocol; the comments show the working. Floats are compared with ``==``: the
reference must reproduce the official arithmetic bit for bit, since the package is held to
exact equality against it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.oracles import reference_rules as rr

BENCHMARK = (
    Path(__file__).resolve().parents[2]
    / "recallscore_nb"
    / "data"
    / "benchmarks"
    / "four_fact_recall.json"
)

FOUR_FACTS = [
    ("material", ["copper"]),
    ("object", ["token"]),
    ("location", ["west", "drawer"]),
    ("timing", ["before", "museum", "opens"]),
]


def official_f1(num_same: int, len_pred: int, len_gold: int) -> float:
    """The official formula, written out, to state expected floats bit for bit."""
    precision = 1.0 * num_same / len_pred
    recall = 1.0 * num_same / len_gold
    return (2 * precision * recall) / (precision + recall)


# --- squad_normalize ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The quick brown fox", "quick brown fox"),
        ("a", ""),  # an article alone normalizes to nothing
        ("A", ""),  # lowercased first, then removed
        ("THE", ""),
        ("An apple a day", "apple day"),
        ("theater another anthem", "theater another anthem"),  # \b: whole words only
        ("west-drawer", "westdrawer"),  # punctuation deleted, not replaced by a space
        ("a-the token", "athe token"),  # punctuation goes before articles: "athe" is no article
        ("the.end", "theend"),
        ("the_token", "thetoken"),  # "_" is in string.punctuation
        ("A. B. C.", "b c"),  # "a b c" -> the article "a" goes
        ("don't", "dont"),
        ("don’t", "don’t"),  # U+2019 is not ASCII punctuation: kept
        ("the’s token", "’s token"),  # \b between "e" and "’": the article goes
        ("the\u00a0token", "token"),  # NBSP is no word character and str.split() splits on it
        ("théâtre", "théâtre"),  # "é" is a word character: no boundary after "th"
        ("the铜 token", "the铜 token"),  # CJK letters are word characters too
        ("ﬁle", "ﬁle"),  # no NFKC: the ligature stays
        ("ÉCU", "écu"),
        ("  tabs\tand\nnewlines\r\n ", "tabs and newlines"),
        ("x\x1fy", "x y"),  # str.split() treats U+001F as whitespace
        ("", ""),
        ("!!!", ""),
    ],
)
def test_squad_normalize(text, expected):
    assert rr.squad_normalize(text) == expected


# --- seed_normalize ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  The West-Drawer,\tOPENS. ", "the westdrawer opens"),
        ("a", "a"),  # the seed pipeline keeps articles
        ("The copper token", "the copper token"),
        ("it’s", "it’s"),
        ("it's", "its"),
        ("x\u00a0y", "x y"),
        ("x\x1fy", "x y"),
        ("a – b", "a – b"),  # the en dash is not ASCII punctuation
        ("Ça", "ça"),
        ("", ""),
        ("!!!", ""),
    ],
)
def test_seed_normalize(text, expected):
    assert rr.seed_normalize(text) == expected


# --- SQuAD v1.1 --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("prediction", "ground_truths", "em", "f1"),
    [
        # articles removed: pred [quick, brown, fox], gold [quick, fox]: p=2/3, r=1 -> 0.8
        ("the quick brown fox", ["the quick fox"], False, 0.8),
        # a bag of tokens: pred [token, token], gold [token]: common 1, p=1/2, r=1 -> 2/3
        ("token token", ["token"], False, 2 / 3),
        ("token", ["token token"], False, 2 / 3),
        # both empty after normalization: EM True, but num_same == 0 gives F1 0.0
        ("", [""], True, 0.0),
        ("the", ["a"], True, 0.0),
        ("!!", [""], True, 0.0),
        ("fox", ["dog"], False, 0.0),
        ("", ["fox"], False, 0.0),
        ("Fox!", ["the fox"], True, 1.0),
        # several ground truths: the maximum of each score
        ("Fox!", ["dog", "the fox"], True, 1.0),
        ("copper", ["silver", "copper token"], False, 2 / 3),
        # the official formula, not 2*common/(len_pred+len_gold): 1 of 1 vs 1 of 5 tokens
        ("token", ["one two three four token"], False, official_f1(1, 1, 5)),
        # one token against the benchmark reference's nine: 0.19999999999999998, not 0.2
        (
            "Copper.",
            ["The copper token goes in the west drawer before the museum opens."],
            False,
            official_f1(1, 1, 9),
        ),
    ],
)
def test_v11(prediction, ground_truths, em, f1):
    got_em = rr.em_v11(prediction, ground_truths)
    got_f1 = rr.f1_v11(prediction, ground_truths)
    assert type(got_em) is bool and got_em == em
    assert type(got_f1) is float and got_f1 == f1


def test_official_formula_is_not_the_simplified_one():
    # These pins matter for parity: a vectorized 2*c/(p+g) would differ in the last bit.
    assert official_f1(1, 1, 5) == 0.33333333333333337 != 1 / 3
    assert official_f1(1, 1, 9) == 0.19999999999999998 != 0.2
    assert rr.f1_v11("token", ["one two three four token"]) == 0.33333333333333337


@pytest.mark.parametrize("rule", [rr.em_v11, rr.f1_v11])
def test_v11_no_ground_truth_raises(rule):
    with pytest.raises(ValueError):
        rule("anything", [])


# --- SQuAD v2.0 --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("prediction", "ground_truths", "em", "f1"),
    [
        # both empty: "no answer" agrees with "no answer": EM True and F1 1.0
        ("", [""], True, 1.0),
        ("", [], True, 1.0),  # no gold at all: unanswerable, gold = [""]
        # golds that normalize to nothing are dropped; none left -> unanswerable
        ("anything", ["", "!!"], False, 0.0),
        ("the", ["", "!!"], True, 1.0),  # "the" has no tokens: [] == [] -> 1.0
        ("!!", ["the"], True, 1.0),
        ("a", ["an"], True, 1.0),  # v1.1 gives F1 0.0 here
        # an empty gold next to a real one is dropped, the real one scores
        ("copper", ["", "copper token"], False, 2 / 3),
        ("", ["", "copper"], False, 0.0),
        ("", ["copper"], False, 0.0),  # empty prediction, answerable question
        ("a", ["copper"], False, 0.0),
        ("token token", ["token"], False, 2 / 3),
        ("the quick brown fox", ["the quick fox"], False, 0.8),
        ("fox", ["dog"], False, 0.0),
        ("Fox!", ["dog", "the fox"], True, 1.0),
        ("token", ["one two three four token"], False, official_f1(1, 1, 5)),
    ],
)
def test_v20(prediction, ground_truths, em, f1):
    got_em = rr.em_v20(prediction, ground_truths)
    got_f1 = rr.f1_v20(prediction, ground_truths)
    assert type(got_em) is bool and got_em == em
    assert type(got_f1) is float and got_f1 == f1


# --- literal and normalized --------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "reference", "is_literal", "is_normalized"),
    [
        ("The token.", "The token.", True, True),
        ("the token.", "The token.", False, True),
        ("The token. ", "The token.", False, True),
        ("THE  TOKEN", "The token.", False, True),
        ("token", "The token.", False, False),  # seed keeps articles
        ("west-drawer", "west drawer", False, False),  # "westdrawer" is one token
        ("it’s", "its", False, False),
        ("it's", "its", False, True),
        ("x\u00a0y", "x y", False, True),
    ],
)
def test_literal_and_normalized(attempt, reference, is_literal, is_normalized):
    assert rr.literal(attempt, reference) is is_literal
    assert rr.normalized(attempt, reference) is is_normalized


# --- checklist ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "terms", "present"),
    [
        ("west drawer", ["west", "drawer"], True),
        ("northwest drawer", ["west", "drawer"], False),  # whole tokens only
        ("west-drawer", ["west", "drawer"], False),  # "westdrawer"
        ("WEST,\tdrawer", ["west", "drawer"], True),
        ("west\u00a0drawer", ["west", "drawer"], True),
        ("west’s drawer", ["west", "drawer"], False),  # "west’s" is one token
        ("west's drawer", ["west", "drawer"], False),  # "wests"
        ("drawer then west", ["west", "drawer"], True),  # terms in any order
        ("ferns", ["fern"], False),
        ("Fern!", ["fern"], True),
        ("a fern", ["Fern!"], True),  # the term is normalized too
        ("the copper token", ["copper token"], True),  # a term of two tokens
        ("token copper", ["copper token"], False),  # ... must be consecutive
        ("copper, token", ["copper token"], True),
        ("copper-token", ["copper token"], False),
        ("copper tokens", ["copper token"], False),
        ("", ["fern"], False),
    ],
)
def test_checklist_one_fact(attempt, terms, present):
    result = rr.checklist(attempt, [("f", terms)])
    assert result == {
        "facts_present": int(present),
        "facts_total": 1,
        "checklist_full_match": present,
        "fact_f": present,
    }


def test_checklist_four_facts():
    result = rr.checklist("The token goes in the west drawer before the museum opens.", FOUR_FACTS)
    assert list(result) == [
        "facts_present",
        "facts_total",
        "checklist_full_match",
        "fact_material",
        "fact_object",
        "fact_location",
        "fact_timing",
    ]
    assert result["facts_present"] == 3
    assert result["facts_total"] == 4
    assert result["checklist_full_match"] is False
    assert result["fact_material"] is False
    assert result["fact_timing"] is True


def test_checklist_term_normalizing_to_nothing_raises():
    with pytest.raises(ValueError):
        rr.checklist("anything", [("f", ["!!"])])


# --- score_row ---------------------------------------------------------------------------
REFERENCE = "The copper token goes in the west drawer before the museum opens."


def test_score_row_keys_and_types():
    row = rr.score_row(REFERENCE, [REFERENCE], FOUR_FACTS)
    assert list(row) == [
        "literal_match",
        "normalized_match",
        "squad_exact_match",
        "token_f1",
        "contains",
        "facts_present",
        "facts_total",
        "checklist_full_match",
        "fact_material",
        "fact_object",
        "fact_location",
        "fact_timing",
    ]
    assert row["literal_match"] is True
    assert row["normalized_match"] is True
    assert row["squad_exact_match"] is True
    assert type(row["token_f1"]) is float and row["token_f1"] == 1.0
    assert (row["facts_present"], row["facts_total"]) == (4, 4)
    assert row["checklist_full_match"] is True


def test_score_row_several_references_take_the_best():
    row = rr.score_row("Copper token.", ["silver", "Copper token.", "copper"], FOUR_FACTS[:2])
    assert row["literal_match"] is True
    assert row["normalized_match"] is True
    assert row["squad_exact_match"] is True
    assert row["token_f1"] == 1.0
    row = rr.score_row("the copper", ["silver", "copper token"], FOUR_FACTS[:2])
    assert row["literal_match"] is False
    assert row["normalized_match"] is False
    assert row["squad_exact_match"] is False
    assert row["token_f1"] == 2 / 3  # [copper] vs [copper, token]: p=1, r=1/2
    assert row["facts_present"] == 1


def test_score_row_modes_differ_on_empty_answers():
    v11 = rr.score_row("", [""], FOUR_FACTS, mode="v1.1")
    v20 = rr.score_row("", [""], FOUR_FACTS, mode="v2.0")
    assert v11["squad_exact_match"] is True and v11["token_f1"] == 0.0
    assert v20["squad_exact_match"] is True and v20["token_f1"] == 1.0
    assert v11["facts_present"] == v20["facts_present"] == 0


def test_score_row_v11_without_references_raises():
    with pytest.raises(ValueError):
        rr.score_row("anything", [], FOUR_FACTS, mode="v1.1")


def test_score_row_unknown_mode_raises():
    with pytest.raises(ValueError):
        rr.score_row("anything", [REFERENCE], FOUR_FACTS, mode="v3")


def test_shipped_benchmark_rows():
    """The reference reproduces every published label of the shipped benchmark."""
    bench = json.loads(BENCHMARK.read_text(encoding="utf-8"))
    facts = [(f["fact"], f["requiredTerms"]) for f in bench["protocol"]["factChecklist"]]
    assert facts == FOUR_FACTS
    reference = bench["referenceAnswer"]
    assert reference == REFERENCE
    for row in bench["rows"]:
        got = rr.score_row(row["attempt"], [reference], facts)
        assert got["literal_match"] is row["literalMatch"], row["id"]
        assert got["normalized_match"] is row["normalizedMatch"], row["id"]
        assert got["facts_present"] == row["factsPresent"], row["id"]
        assert got["checklist_full_match"] is row["checklistFullMatch"], row["id"]
