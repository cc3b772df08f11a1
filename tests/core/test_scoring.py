"""The public scoring functions: hand-checked case tables, input handling, properties, and
parity with the per-row reference port of the official scripts (``tests/oracles/reference_rules.py``).

F1 working: tokens after SQuAD normalization, ``common`` = size of the bag intersection,
P = common / len(attempt tokens), R = common / len(reference tokens), F1 = 2PR / (P + R).
Hand-table floats are written as fractions; parity tests compare floats with ``==``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import assume, given, settings, strategies as st

from recallscore_nb import load_benchmark
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.facts import Fact, as_facts
from recallscore_nb.core.scoring import (
    checklist,
    literal_match,
    normalized_match,
    score_all,
    score_benchmark,
    score_items,
    squad_exact_match,
    token_f1,
)
from recallscore_nb.core.equivalence import equivalence_of
from tests.oracles import reference_rules as rr

RULE_COLUMNS = ["literal_match", "normalized_match", "squad_exact_match", "token_f1", "contains",
                "facts_present", "facts_total", "checklist_full_match"]
"""The rules' columns, pinned: every scored table holds them in this order (then the facts'
columns, then :data:`EQUIVALENT_COLUMNS`)."""
EQUIVALENT_COLUMNS = ["equivalent", "equivalent_step"]
"""The ``equivalent`` rule's columns: its verdict and the step that decided it."""

# Each example below is one vectorized call over a list of up to 12 rows (about 10 ms of
# fixed cost), so these properties take 100 examples to keep the file near 20 s.
SCORING_HYPOTHESIS = settings(max_examples=100, deadline=None)
MODES = ["v1.1", "v2.0"]


def approx(x):
    return pytest.approx(x, rel=1e-12, abs=0)


# --- literal -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "references", "expected"),
    [
        ("Paris", "Paris", True),
        ("paris", "Paris", False),  # case counts
        ("Paris ", "Paris", False),  # so does a trailing space
        ("Paris.", "Paris", False),
        ("", "", True),
        ("café", "cafe\u0301", False),  # composed vs decomposed: different characters
        ("Lutetia", ["Paris", "Lutetia"], True),  # any alternative
        ("Rome", ["Paris", "Lutetia"], False),
        ("Paris", [], False),  # no alternative: nothing to equal
    ],
)
def test_literal_match(attempt, references, expected):
    refs = references if isinstance(references, str) else [references]
    assert literal_match([attempt], refs).tolist() == [expected]


# --- normalized (seed) -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "reference", "expected"),
    [
        ("  WEST-drawer. ", "westdrawer", True),  # "-" deleted, not replaced by a space
        ("west drawer", "westdrawer", False),
        ("west drawer", "west-drawer", False),
        ("West–Drawer", "west-drawer", False),  # the en dash is kept: "west–drawer"
        ("Don’t", "dont", False),  # U+2019 is kept
        ("Don't", "dont", True),
        ("a\tb\u00a0c\u3000d\x1ce", "A B C D E", True),  # every whitespace kind collapses
        ("a\u200bb", "a b", False),  # zero-width space is not whitespace
        ("the token", "token", False),  # articles stay under the seed protocol
        ("", "!!!", True),  # both normalize to nothing
        ("ÉTÉ", "été", True),
        ("İ", "i", False),  # "İ" lowercases to "i" + U+0307
    ],
)
def test_normalized_match(attempt, reference, expected):
    assert normalized_match([attempt], reference).tolist() == [expected]


# --- SQuAD exact match -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "references", "v11", "v20"),
    [
        ("The Paris!", "Paris", True, True),
        ("an apple", "apple", True, True),
        ("Paris", "Paris France", False, False),
        ("the-end", "end", False, False),  # "theend" is no article
        ("A–B", "b", False, False),  # "a" is removed before the en dash: "–b"
        ("A–B", "–b", True, True),
        ("x y", "y x", False, False),  # order counts for EM
        # both normalize to empty: v1.1 compares "" == "", v2.0 sees an unanswerable question
        ("", "", True, True),
        ("", "the", True, True),
        ("a", "The.", True, True),
        # the reference normalizes to empty, the attempt does not
        ("Paris", "", False, False),
        ("Paris", "the", False, False),
        # several references: v2.0 drops the empty ones first
        ("", ["", "Paris"], True, False),
        ("Paris", ["", "Paris"], True, True),
        ("Lutetia", ["Paris", "lutetia."], True, True),
        ("", ["the", "a"], True, True),  # nothing left in v2.0: unanswerable
    ],
)
def test_squad_exact_match(attempt, references, v11, v20):
    refs = references if isinstance(references, str) else [references]
    assert squad_exact_match([attempt], refs).tolist() == [v11]  # v1.1 is the default
    assert squad_exact_match([attempt], refs, mode="v1.1").tolist() == [v11]
    assert squad_exact_match([attempt], refs, mode="v2.0").tolist() == [v20]


# --- token F1 ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "references", "v11", "v20"),
    [
        # quick brown fox | quick fox: common 2, P 2/3, R 1 -> F1 4/5
        ("the quick brown fox", "the quick fox", 4 / 5, 4 / 5),
        # token token | token: common min(2, 1) = 1, P 1/2, R 1 -> 2/3 (repeats counted)
        ("token token", "token", 2 / 3, 2 / 3),
        # paris paris london | paris london london: common 1 + 1, P 2/3, R 2/3 -> 2/3
        ("paris paris london", "paris london london", 2 / 3, 2 / 3),
        ("x y", "y x", 1, 1),  # a bag: order does not count
        ("Paris", "Paris", 1, 1),
        ("Paris", "London", 0, 0),
        # "a" is an article: b c d | b c: common 2, P 2/3, R 1 -> 4/5
        ("a b c d", "b c", 4 / 5, 4 / 5),
        # "-" deleted: westdrawer | west drawer share nothing
        ("west-drawer", "west drawer", 0, 0),
        # empty sides: v1.1 gives 0 whenever either side is empty, v2.0 1 when both are
        ("", "token", 0, 0),
        ("token", "", 0, 0),
        ("token", "the", 0, 0),
        ("", "", 0, 1),
        ("the", "a", 0, 1),
        ("!!!", "An.", 0, 1),
        # several references: the max; paris | paris france: P 1, R 1/2 -> 2/3
        ("Paris", ["London", "Paris France"], 2 / 3, 2 / 3),
        ("Paris", ["", "Paris France"], 2 / 3, 2 / 3),  # v2.0 drops "" first
        ("", ["", "Paris France"], 0, 0),  # v2.0: "" dropped, the attempt answers nothing
        ("", ["the", ""], 0, 1),  # v2.0: nothing left, unanswerable
    ],
)
def test_token_f1(attempt, references, v11, v20):
    refs = references if isinstance(references, str) else [references]
    assert token_f1([attempt], refs).tolist() == [approx(v11)]
    assert token_f1([attempt], refs, mode="v1.1").tolist() == [approx(v11)]
    assert token_f1([attempt], refs, mode="v2.0").tolist() == [approx(v20)]


@pytest.mark.parametrize("rule", [squad_exact_match, token_f1])
@pytest.mark.parametrize("references", [[[]], [["a"], []]])
def test_v11_without_references_raises(rule, references):
    attempts = ["a"] * len(references)
    with pytest.raises(ValueError, match="at least one reference"):
        rule(attempts, references, mode="v1.1")


# v2.0: a row whose list of references is empty is an unanswerable question.
@pytest.mark.parametrize(
    ("attempts", "references", "em", "f1"),
    [
        (["", "x"], [[], ["x"]], [True, True], [1.0, 1.0]),  # passes: another row has one
        (["x", ""], [["x"], []], [True, True], [1.0, 1.0]),
    ],
)
def test_v20_empty_reference_list_beside_others(attempts, references, em, f1):
    assert squad_exact_match(attempts, references, mode="v2.0").tolist() == em
    assert token_f1(attempts, references, mode="v2.0").tolist() == f1


@pytest.mark.parametrize(
    ("attempts", "references", "em", "f1"),
    [
        ([""], [[]], [True], [1.0]),
        (["", "x", "!"], [[], [], []], [True, False, True], [1.0, 0.0, 1.0]),
    ],
)
def test_v20_empty_reference_list_on_every_row(attempts, references, em, f1):
    assert squad_exact_match(attempts, references, mode="v2.0").tolist() == em
    assert token_f1(attempts, references, mode="v2.0").tolist() == f1


def test_v20_empty_reference_list_through_score_all():
    table = score_all([""], [[]], facts={"f": ["x"]}, squad_mode="v2.0")
    assert table["squad_exact_match"].tolist() == [True]
    assert table["token_f1"].tolist() == [1.0]


# --- checklist ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "terms", "present"),
    [
        ("west drawer", ["west", "drawer"], True),
        ("WEST, drawer!", ["west", "drawer"], True),
        ("northwest drawer", ["west", "drawer"], False),  # "west" is not in "northwest"
        ("a fern", ["fern"], True),
        ("ferns", ["fern"], False),  # nor "fern" in "ferns"
        ("the copper token", ["copper token"], True),  # multi-word term: consecutive
        ("copper, token", ["copper token"], True),  # punctuation deleted first
        ("token copper", ["copper token"], False),
        ("copper old token", ["copper token"], False),
        ("copper-token", ["copper token"], False),  # "coppertoken"
        ("west-drawer", ["westdrawer"], True),
        ("west–drawer", ["west"], False),  # the en dash stays: one token "west–drawer"
        ("Café CRÈME", ["café"], True),
        ("cafe", ["café"], False),
        ("", ["west"], False),
        ("drawer west", ["west", "drawer"], True),  # separate terms: any order
        ("the west drawer", ["West\u00a0Drawer"], True),  # the term is normalized too
    ],
)
def test_checklist_one_fact(attempt, terms, present):
    table = checklist([attempt], {"place": terms})
    assert table.iloc[0].tolist() == [int(present), 1, present, present]


def test_checklist_columns_and_counts():
    facts = {"material": ["copper"], "location": ["west", "drawer"], "when": ["before noon"]}
    table = checklist(
        ["copper in the west drawer before noon", "copper, west", "before noon", ""], facts
    )
    assert table.columns.tolist() == [
        "facts_present",
        "facts_total",
        "checklist_full_match",
        "fact_material",
        "fact_location",
        "fact_when",
    ]
    assert table["facts_present"].tolist() == [3, 1, 1, 0]
    assert table["facts_total"].tolist() == [3, 3, 3, 3]
    assert table["checklist_full_match"].tolist() == [True, False, False, False]
    assert table["fact_material"].tolist() == [True, True, False, False]
    assert table["fact_location"].tolist() == [True, False, False, False]
    assert table["fact_when"].tolist() == [True, False, True, False]
    assert table["facts_present"].dtype == np.int64
    assert table["checklist_full_match"].dtype == bool


@pytest.mark.parametrize(
    "facts",
    [
        {"place": ["west", "drawer"]},
        [Fact("place", ("west", "drawer"))],
        [{"fact": "place", "requiredTerms": ["west", "drawer"]}],
        [("place", ["west", "drawer"])],
    ],
    ids=["mapping", "Fact", "dict", "tuple"],
)
def test_checklist_accepts_every_fact_form(facts):
    assert as_facts(facts) == (Fact("place", ("west", "drawer")),)
    table = checklist(["west drawer", "west"], facts)
    assert table["fact_place"].tolist() == [True, False]


@pytest.mark.parametrize("terms", [["..."], [" "], ["west", "!"], []])
def test_checklist_term_that_normalizes_to_nothing_raises(terms):
    with pytest.raises(ValueError, match="normalize to at least one token"):
        checklist(["west"], {"place": terms})


@pytest.mark.parametrize(
    ("attempts", "term"),
    [
        (["west drawer"], "before the museum opens"),  # T = 2, k = 4
        (["No idea."], "one two three four"),  # T = 2, k = 4
        (["a b c"], "a b c d e"),  # T = 3, k = 5: the attempt is the start of the term
        (["a", "b c"], "a b c d e"),  # T counts the tokens of every row together
    ],
)
def test_term_longer_than_all_attempt_tokens(attempts, term):
    table = checklist(attempts, {"f": [term]})
    assert table["fact_f"].tolist() == [False] * len(attempts)


def test_term_longer_than_all_attempt_tokens_through_score_all():
    table = score_all(["No idea.", "No idea."], "x", facts={"f": ["one two three four"]})
    assert table["facts_present"].tolist() == [0, 0]


def test_checklist_bare_string_terms_are_not_split_into_characters():
    try:
        table = checklist(["west", "w e s t"], {"place": "west"})
    except (TypeError, ValueError):
        return  # rejected: fine
    assert table["fact_place"].tolist() == [True, False]


def test_checklist_duplicate_fact_names_raise():
    with pytest.raises(ValueError, match="'f'"):
        checklist(["x"], [("f", ["x"]), ("f", ["y"])])


# --- references: several, per row --------------------------------------------------------
def test_references_per_row_with_alternatives():
    attempts = ["Paris", "the Lutetia", "Rome", "paris"]
    references = ["Paris", ["Paris", "Lutetia"], ("Roma", "Rome"), ["PARIS."]]
    assert literal_match(attempts, references).tolist() == [True, False, True, False]
    assert normalized_match(attempts, references).tolist() == [True, False, True, True]
    assert squad_exact_match(attempts, references).tolist() == [True, True, True, True]
    assert token_f1(attempts, references).tolist() == [1.0, 1.0, 1.0, 1.0]


def test_references_as_a_series_are_positional():
    attempts = pd.Series(["a", "b"], index=[7, 3])
    references = pd.Series(["a", "b"], index=[3, 7])
    assert literal_match(attempts, references).tolist() == [True, True]


def test_one_reference_string_for_every_attempt():
    assert token_f1(["paris", "paris paris", "x"], "Paris").tolist() == [1.0, approx(2 / 3), 0.0]


# --- index alignment and input handling --------------------------------------------------
SIMPLE = [
    (literal_match, {}),
    (normalized_match, {}),
    (squad_exact_match, {"mode": "v1.1"}),
    (squad_exact_match, {"mode": "v2.0"}),
    (token_f1, {"mode": "v1.1"}),
    (token_f1, {"mode": "v2.0"}),
]
SIMPLE_IDS = ["literal", "normalized", "em-v1.1", "em-v2.0", "f1-v1.1", "f1-v2.0"]


@pytest.mark.parametrize(("rule", "options"), SIMPLE, ids=SIMPLE_IDS)
def test_series_input_keeps_its_index(rule, options):
    index = pd.Index(["r9", "r1", "r5"], name="row")
    attempts = pd.Series(["Paris", "paris!", "Rome"], index=index)
    out = rule(attempts, "Paris", **options)
    assert out.index.equals(index)
    assert out.loc["r9"] == 1  # the first attempt is the reference itself
    assert out.loc["r5"] == 0
    plain = rule(["Paris", "paris!", "Rome"], "Paris", **options)
    assert plain.index.equals(pd.RangeIndex(3))
    assert plain.tolist() == out.tolist()


def test_series_input_keeps_its_index_for_checklist_and_score_all():
    index = pd.Index([10, 20, 5])
    attempts = pd.Series(["west drawer", "x", "west"], index=index)
    table = checklist(attempts, {"place": ["west", "drawer"]})
    assert table.index.equals(index)
    assert table.loc[20, "facts_present"] == 0
    assert table.loc[10, "checklist_full_match"]
    scores = score_all(attempts, ["west drawer", "x", "x"], facts={"place": ["west"]})
    assert scores.index.equals(index)
    assert scores["literal_match"].tolist() == [True, True, False]
    assert scores.loc[5, "fact_place"]
    repeated = pd.Series(["west", "x", "west"], index=["c", "a", "b"])
    deduped = score_all(repeated, "west", facts={"place": ["west"]})  # scores "west" once
    assert deduped.index.tolist() == ["c", "a", "b"]
    assert deduped["literal_match"].tolist() == [True, False, True]


@pytest.mark.parametrize(
    "attempts",
    [
        pd.Series(["Paris", "x"], dtype=pd.ArrowDtype(pa.string())),
        pd.Series(["Paris", "x"], dtype=pd.StringDtype("pyarrow")),
        pd.Series(["Paris", "x"], dtype=object),
        pa.array(["Paris", "x"]),
        pa.chunked_array([["Paris"], ["x"]]),
        pa.array(["zz", "Paris", "x"]).slice(1),
        np.array(["Paris", "x"]),
        ("Paris", "x"),
    ],
    ids=["arrow-dtype", "string-dtype", "object", "arrow", "chunked", "sliced", "numpy", "tuple"],
)
def test_attempt_containers(attempts):
    assert literal_match(attempts, "Paris").tolist() == [True, False]
    assert token_f1(attempts, "Paris").tolist() == [1.0, 0.0]


@pytest.mark.parametrize(("rule", "options"), SIMPLE, ids=SIMPLE_IDS)
def test_result_dtypes(rule, options):
    out = rule(["a", "b"], "a", **options)
    expected = np.float64 if rule is token_f1 else bool
    assert out.dtype == expected


@pytest.mark.parametrize(("rule", "options"), SIMPLE, ids=SIMPLE_IDS)
@pytest.mark.parametrize("references", ["Paris", []])
def test_empty_attempts(rule, options, references):
    out = rule([], references, **options)
    assert len(out) == 0
    assert out.dtype == (np.float64 if rule is token_f1 else bool)


@pytest.mark.parametrize("references", ["Paris", []])
def test_empty_attempts_score_all_and_checklist(references):
    table = score_all([], references, facts={"place": ["west"]})
    assert table.columns.tolist() == [*RULE_COLUMNS, "fact_place", *EQUIVALENT_COLUMNS]
    assert len(table) == 0
    assert len(checklist([], {"place": ["west"]})) == 0


@pytest.mark.parametrize(
    "attempts",
    [["a", None], pd.Series(["a", None]), pd.Series(["a", pd.NA], dtype="string[pyarrow]")],
    ids=["list", "series", "string-series"],
)
def test_null_attempt_raises(attempts):
    for rule, options in SIMPLE:
        with pytest.raises(ValueError, match=r"row 1 is null"):
            rule(attempts, "a", **options)
    with pytest.raises(ValueError, match=r"row 1 is null"):
        checklist(attempts, {"f": ["a"]})
    with pytest.raises(ValueError, match=r"row 1 is null"):
        score_all(attempts, "a", facts={"f": ["a"]})


@pytest.mark.parametrize(("rule", "options"), SIMPLE, ids=SIMPLE_IDS)
@pytest.mark.parametrize("references", [["a"], ["a", "b", "c"], [["a"]], []])
def test_length_mismatch_raises(rule, options, references):
    with pytest.raises(ValueError, match=rf"got {len(references)} references for 2 attempts"):
        rule(["a", "b"], references, **options)


@pytest.mark.parametrize("references", [["a"], ["a", "b", "c"]])
def test_length_mismatch_raises_in_score_all(references):
    with pytest.raises(ValueError, match=rf"got {len(references)} references for 2 attempts"):
        score_all(["a", "b"], references, facts={"f": ["a"]})


def test_single_string_attempts_raise():
    with pytest.raises(TypeError, match="single str"):
        literal_match("Paris", "Paris")


@pytest.mark.parametrize("references", [[None], [["a", None]], [3]])
def test_bad_reference_items_raise(references):
    with pytest.raises(TypeError, match="'references' item 0"):
        literal_match(["a"], references)


# --- score_all ---------------------------------------------------------------------------
def test_score_all_one_row_by_hand():
    table = score_all(["The west drawer."], "the west drawer", facts={"place": ["west"]})
    assert table.columns.tolist() == [*RULE_COLUMNS, "fact_place", *EQUIVALENT_COLUMNS]
    # literal no (case, "."); seed equal; squad "west drawer" both; F1 1; contained; one fact;
    # equivalent: "west drawer" under the answer normalizer both, the step exact
    assert table.iloc[0].tolist() == [False, True, True, 1.0, True, 1, 1, True, True,
                                      True, "exact"]


@pytest.mark.parametrize("mode", MODES)
def test_score_all_columns_equal_the_single_functions(mode):
    attempts = ["The Paris!", "", "paris london", "Lutetia", "the", "x"]
    references = ["Paris", "", ["London", "Paris"], ["Paris", "Lutetia."], "a", ["", "x"]]
    facts = {"city": ["paris"]}
    table = score_all(attempts, references, facts=facts, squad_mode=mode)
    assert table["literal_match"].tolist() == literal_match(attempts, references).tolist()
    assert table["normalized_match"].tolist() == normalized_match(attempts, references).tolist()
    em = squad_exact_match(attempts, references, mode=mode)
    assert table["squad_exact_match"].tolist() == em.tolist()
    assert table["token_f1"].tolist() == token_f1(attempts, references, mode=mode).tolist()
    ticks = checklist(attempts, facts)
    for column in ticks.columns:
        assert table[column].tolist() == ticks[column].tolist()


# --- properties --------------------------------------------------------------------------
PIECES = [
    "the", "The", "a", "A", "an", "west", "drawer", "West", "token", "Paris", "paris",
    " ", "  ", "\t", "\n", "\x0b", "\x1c", "\u00a0", "\u3000", ".", ",", "-", "'", "!",
    "’", "–", "é", "İ", "ﬁ", "東京", "\x00", "\x7f",
]
biased_text = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
answers = st.one_of(st.text(max_size=20), biased_text)
TERM_WORDS = [
    "west", "drawer", "west drawer", "the", "a", "token", "paris", "é", "–", "東京",
    "the west drawer", "paris paris", "before the museum opens",
]
terms = st.one_of(
    st.sampled_from(TERM_WORDS), answers.filter(lambda t: rr.seed_normalize(t) != "")
)
facts_strategy = st.lists(st.lists(terms, min_size=1, max_size=3), min_size=1, max_size=3).map(
    lambda fs: [(f"f{i}", tuple(ts)) for i, ts in enumerate(fs)]
)
alternatives = st.lists(answers, min_size=1, max_size=3)


def assert_rows_match_reference(table, attempts, reference_lists, facts, mode):
    """Every column of every row equal to ``reference_rules.score_row`` (floats with ==), and
    the ``equivalent`` rule's to its per-row Python path (:func:`equivalence_of`)."""
    assert len(table) == len(attempts)
    for i, (attempt, refs) in enumerate(zip(attempts, reference_lists, strict=True)):
        expected = rr.score_row(attempt, refs, facts, mode)
        expected["equivalent"], expected["equivalent_step"] = equivalence_of(attempt, refs)
        row = table.iloc[i]
        assert list(table.columns) == list(expected), (attempt, refs)
        got = {c: row[c].item() if hasattr(row[c], "item") else row[c] for c in table.columns}
        assert got == expected, (attempt, refs, mode)
        assert type(got["token_f1"]) is float


@SCORING_HYPOTHESIS
@given(st.lists(answers, max_size=12), answers, facts_strategy, st.sampled_from(MODES))
def test_parity_with_reference_one_reference(attempts, reference, facts, mode):
    table = score_all(attempts, reference, facts=facts, squad_mode=mode)
    assert_rows_match_reference(table, attempts, [[reference]] * len(attempts), facts, mode)


@SCORING_HYPOTHESIS
@given(
    st.lists(st.tuples(answers, st.one_of(answers, alternatives)), max_size=12),
    facts_strategy,
    st.sampled_from(MODES),
)
def test_parity_with_reference_several_references(pairs, facts, mode):
    attempts = [a for a, _ in pairs]
    references = [r for _, r in pairs]
    table = score_all(attempts, references, facts=facts, squad_mode=mode)
    lists = [[r] if isinstance(r, str) else r for r in references]
    assert_rows_match_reference(table, attempts, lists, facts, mode)


@SCORING_HYPOTHESIS
@given(st.lists(st.tuples(answers, answers), max_size=12))
def test_literal_implies_normalized_implies_squad_exact(pairs):
    attempts = [a for a, _ in pairs]
    references = [r for _, r in pairs]
    table = score_all(attempts, references, facts={"f": ["x"]})
    literal, normalized = table["literal_match"], table["normalized_match"]
    assert not (literal & ~normalized).any()
    # seed-equal texts are squad-equal: squad is the seed text less its articles
    assert not (normalized & ~table["squad_exact_match"]).any()


@SCORING_HYPOTHESIS
@given(answers, st.data())
def test_a_reference_passes_its_own_checklist(reference, data):
    tokens = rr.seed_normalize(reference).split()
    assume(tokens)
    facts = {}
    for k in range(data.draw(st.integers(1, 3))):
        runs = []
        for _ in range(data.draw(st.integers(1, 3))):
            start = data.draw(st.integers(0, len(tokens) - 1))
            stop = data.draw(st.integers(start + 1, min(start + 3, len(tokens))))
            runs.append(" ".join(tokens[start:stop]))
        facts[f"f{k}"] = runs
    table = checklist([reference], facts)
    assert table["checklist_full_match"].tolist() == [True]
    assert table["facts_present"].tolist() == [len(facts)]


@SCORING_HYPOTHESIS
@given(st.lists(st.tuples(answers, st.one_of(answers, alternatives)), max_size=10),
       st.sampled_from(MODES))
def test_token_f1_is_in_the_unit_interval(pairs, mode):
    f1 = token_f1([a for a, _ in pairs], [r for _, r in pairs], mode=mode)
    assert ((f1 >= 0) & (f1 <= 1)).all()


@SCORING_HYPOTHESIS
@given(st.lists(answers, max_size=10), st.sampled_from(MODES))
def test_equal_answers_score_one(texts, mode):
    texts = [t for t in texts if rr.squad_normalize(t) != ""]
    assert token_f1(texts, texts, mode=mode).tolist() == [1.0] * len(texts)
    assert squad_exact_match(texts, texts, mode=mode).tolist() == [True] * len(texts)


@pytest.mark.parametrize("mode", MODES)
def test_parity_on_sliced_arrow_input(mode):
    texts = ["x", "The Paris!", "the", "", "a\x00the", "İ paris", "paris paris", "Rome"]
    arr = pa.array(texts).slice(1, 6)
    facts = [("city", ("paris",))]
    table = score_all(arr, "Paris", facts=facts, squad_mode=mode)
    assert_rows_match_reference(table, texts[1:7], [["Paris"]] * 6, facts, mode)


# --- a large input -----------------------------------------------------------------------
def test_large_input():
    """300,000 attempts: the shipped benchmark's 12 attempts, 25,000 times each; every
    second round of 12 gets a unique extra token " note<i>", so half are perturbed."""
    bench = load_benchmark()
    base = [row.attempt for row in bench.rows]
    n = 300_000
    attempts = [
        base[i % 12] + (f" note{i}" if (i // 12) % 2 else "") for i in range(n)
    ]
    facts = bench.facts
    one = score_all(attempts, bench.reference, facts=facts)  # each distinct attempt once
    per_row = score_all(attempts, [bench.reference] * n, facts=facts)  # 2 chunks of rows
    pd.testing.assert_frame_equal(one, per_row)
    # By hand: literal only R01 unperturbed (12,500); normalized R01-R04 unperturbed
    # (4 x 12,500); the extra token touches no fact: 8 complete rows x 25,000, and
    # (8 x 4 + 4 x 3) x 25,000 facts present.
    assert int(one["literal_match"].sum()) == 12_500
    assert int(one["normalized_match"].sum()) == 50_000
    assert int(one["checklist_full_match"].sum()) == 200_000
    assert int(one["facts_present"].sum()) == 1_100_000
    assert int(one["facts_total"].sum()) == 4 * n
    # R01 unperturbed has F1 1; with the extra token: 9 of 10 tokens shared, P 9/10, R 1
    # -> F1 2 * 9/10 / (19/10) = 18/19.
    assert one["token_f1"].iloc[0] == 1.0
    assert one["token_f1"].iloc[12] == approx(18 / 19)
    sample = sorted(random.Random(20260916).sample(range(n), 1500)) + [0, 199_999, 200_000, n - 1]
    reference_facts = [(f.name, f.terms) for f in facts]
    assert_rows_match_reference(
        one.iloc[sample], [attempts[i] for i in sample], [[bench.reference]] * len(sample),
        reference_facts, "v1.1",
    )


# --- benchmarks --------------------------------------------------------------------------
def test_shipped_benchmark_reproduces_its_labels():
    bench = load_benchmark()
    table = score_benchmark(bench)
    assert table["id"].tolist() == [row.id for row in bench.rows]
    assert table["attempt"].tolist() == [row.attempt for row in bench.rows]
    for i, row in enumerate(bench.rows):
        got = table.iloc[i]
        assert bool(got["literal_match"]) is row.expected["literalMatch"], row.id
        assert bool(got["normalized_match"]) is row.expected["normalizedMatch"], row.id
        assert int(got["facts_present"]) == row.expected["factsPresent"], row.id
        assert bool(got["checklist_full_match"]) is row.expected["checklistFullMatch"], row.id
    assert int(table["literal_match"].sum()) == 1
    assert int(table["normalized_match"].sum()) == 4
    assert int(table["checklist_full_match"].sum()) == 8
    assert bench.summary["literalFullMatches"] == 1
    assert bench.summary["normalizedFullMatches"] == 4
    assert bench.summary["checklistFullMatches"] == 8


@pytest.mark.parametrize("mode", MODES)
def test_shipped_benchmark_columns_and_parity(mode):
    bench = load_benchmark()
    table = score_benchmark(bench, squad_mode=mode)
    assert table.columns.tolist() == [
        "id", "attempt", "condition", *RULE_COLUMNS,
        "fact_material", "fact_object", "fact_location", "fact_timing", *EQUIVALENT_COLUMNS,
    ]
    scores = table[[*RULE_COLUMNS, "fact_material", "fact_object", "fact_location", "fact_timing",
                    *EQUIVALENT_COLUMNS]]
    facts = [(f.name, f.terms) for f in bench.facts]
    attempts = [row.attempt for row in bench.rows]
    assert_rows_match_reference(scores, attempts, [[bench.reference]] * 12, facts, mode)


OWN_REFERENCE = "Dr. Lena Ortiz hides the brass key under the red mat at noon."
OWN_ROWS = [
    # (id, attempt, literal, normalized, facts present, full)
    ("B01", OWN_REFERENCE, True, True, 3, True),
    ("B02", "dr lena ortiz hides the brass key under the red mat at noon", False, True, 3, True),
    ("B03", "Ortiz, Lena hides the brass key under the red mat.", False, False, 2, False),
    ("B04", "The key (brass) is under the red mat.", False, False, 2, False),
    ("B05", "Lena Ortiz hid a brass key beneath the red-mat.", False, False, 2, False),
    ("B06", "", False, False, 0, False),
    ("B07", "LENA ORTIZ: brass key, under red mat", False, False, 3, True),
    ("B08", "Lena Ortizes hides the brass keys under the red mats", False, False, 0, False),
    ("B09", "  DR. LENA ORTIZ hides the brass key under the red mat at noon!  ",
     False, True, 3, True),
    ("B10", OWN_REFERENCE.rstrip("."), False, True, 3, True),
]


def own_benchmark_file(tmp_path) -> Path:
    data = {
        "schemaVersion": 1,
        "title": "Three-fact test benchmark",
        "referenceAnswer": OWN_REFERENCE,
        "protocol": {
            "factChecklist": [
                {"fact": "person", "requiredTerms": ["Lena Ortiz"]},  # a multi-word term
                {"fact": "item", "requiredTerms": ["brass", "key"]},
                {"fact": "place", "requiredTerms": ["under", "red mat"]},
            ]
        },
        "rows": [
            {"id": i, "attempt": a, "literalMatch": lit, "normalizedMatch": norm,
             "factsPresent": present, "checklistFullMatch": full}
            for i, a, lit, norm, present, full in OWN_ROWS
        ],
    }
    path = tmp_path / "own.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_own_benchmark(tmp_path):
    bench = load_benchmark(own_benchmark_file(tmp_path))
    table = score_benchmark(bench)
    assert table.columns.tolist() == [
        "id", "attempt", *RULE_COLUMNS, "fact_person", "fact_item", "fact_place",
        *EQUIVALENT_COLUMNS,
    ]
    assert table["id"].tolist() == [r[0] for r in OWN_ROWS]
    assert table["literal_match"].tolist() == [r[2] for r in OWN_ROWS]
    assert table["normalized_match"].tolist() == [r[3] for r in OWN_ROWS]
    assert table["facts_present"].tolist() == [r[4] for r in OWN_ROWS]
    assert table["checklist_full_match"].tolist() == [r[5] for r in OWN_ROWS]
    assert table["facts_total"].tolist() == [3] * len(OWN_ROWS)
    per_fact = table.set_index("id")[["fact_person", "fact_item", "fact_place"]]
    # B03: "ortiz lena" is not the consecutive phrase "lena ortiz"
    assert per_fact.loc["B03"].tolist() == [False, True, True]
    # B05: "red-mat" becomes "redmat" ("-" is deleted), and "under" is missing
    assert per_fact.loc["B05"].tolist() == [True, True, False]
    # By hand: literal 1 (B01), normalized 4 (B01, B02, B09, B10), full 5 (those and B07)
    totals = table[["literal_match", "normalized_match", "checklist_full_match"]].sum()
    assert totals.tolist() == [1, 4, 5]
    # equivalent: the same words under the answer normalizer (B01, B02, B09, B10: exact), or
    # at least 2/3 of the reference's 10 content words (dr lena ortiz hide brass key under red
    # mat noon): B03 and B08 8 of them ("Ortizes" and "keys" singular), B07 7; B04 5, B05 6.
    assert table["equivalent_step"].tolist() == [
        "exact", "exact", "overlap", "none", "none", "none", "overlap", "overlap", "exact",
        "exact"]
    assert table["equivalent"].tolist() == [True, True, True, False, False, False, True, True,
                                            True, True]
    # The labels written in the file agree with the rules row by row.
    for i, row in enumerate(bench.rows):
        assert bool(table["literal_match"].iloc[i]) is row.expected["literalMatch"]
        assert bool(table["normalized_match"].iloc[i]) is row.expected["normalizedMatch"]
        assert int(table["facts_present"].iloc[i]) == row.expected["factsPresent"]
        assert bool(table["checklist_full_match"].iloc[i]) is row.expected["checklistFullMatch"]


def test_own_benchmark_other_attempts(tmp_path):
    bench = load_benchmark(own_benchmark_file(tmp_path))
    frame = pd.DataFrame(
        {"id": ["x1", "x2"], "attempt": ["Lena Ortiz, brass key, under the red mat", "no"],
         "rater": ["A", "B"]}
    )
    table = score_benchmark(bench, frame)
    assert table.columns.tolist()[:3] == ["id", "attempt", "rater"]
    assert table["rater"].tolist() == ["A", "B"]
    assert table["checklist_full_match"].tolist() == [True, False]
    listed = score_benchmark(bench, ["Lena Ortiz, brass key, under the red mat", "no"])
    assert listed["id"].tolist() == ["0", "1"]
    assert listed["checklist_full_match"].tolist() == [True, False]


def test_score_benchmark_rejects_bad_attempts():
    bench = load_benchmark()
    with pytest.raises(ValueError, match="'attempt' column"):
        score_benchmark(bench, pd.DataFrame({"text": ["a"]}))
    with pytest.raises(ValueError, match="id 'a' repeats"):
        score_benchmark(bench, pd.DataFrame({"id": ["a", "a"], "attempt": ["x", "y"]}))
    with pytest.raises(ValueError, match="collide"):
        score_benchmark(bench, pd.DataFrame({"attempt": ["x"], "token_f1": [1.0]}))


# --- rules= (issue 31): a user who needs some rules pays only for them --------------------------
@pytest.mark.parametrize("chosen", ["literal", "contains,equivalent", ["equivalent", "literal"],
                                    "checklist"])
def test_rules_keep_exactly_their_columns_with_the_same_values(chosen):
    from recallscore_nb.core.rules import output_columns, rule_names

    bench = load_benchmark()
    every = score_benchmark(bench)
    some = score_benchmark(bench, rules=chosen)
    wanted = output_columns(bench.facts, chosen)
    assert some.columns.tolist() == ["id", "attempt", "condition"] + wanted
    pd.testing.assert_frame_equal(some, every[some.columns.tolist()])
    assert rule_names(chosen) == tuple(r for r in rule_names() if r in rule_names(chosen))


def test_rules_of_items_keep_their_columns_and_values():
    from recallscore_nb.core.items import Item, Items

    items = Items("d", "", (Item("q1", ("Paris",), None), Item("q2", ("Lyon",), None)))
    frame = pd.DataFrame({"item": ["q1", "q2", "q1"], "attempt": ["paris", "Not Lyon", "x"]})
    every = score_items(items, frame)
    some = score_items(items, frame, rules="equivalent")
    assert some.columns.tolist() == ["id", "item", "attempt", "equivalent", "equivalent_step"]
    pd.testing.assert_frame_equal(some, every[some.columns.tolist()])


@pytest.mark.parametrize("chosen", ["nope", "", [], "literal,,nope"])
def test_an_unknown_or_empty_choice_of_rules_names_the_known_ones(chosen):
    with pytest.raises(UsageError, match=r"\(known: literal, normalized, squad_exact_match, "
                                         r"token_f1, contains, checklist, equivalent\)"):
        score_benchmark(load_benchmark(), rules=chosen)


def test_every_rule_has_its_top_level_function():
    """Each rule of the registry is one call of the package, named after it (``literal`` is
    ``literal_match``), scoring like the rule itself."""
    import recallscore_nb as rs
    from recallscore_nb.core.rules import rule_names

    for name in rule_names():
        function = getattr(rs, name, None) or getattr(rs, f"{name}_match")
        assert callable(function) and function.__module__ == "recallscore_nb.core.scoring"
    assert rs.contains(["It was Lima.", "Limassol"], "Lima").tolist() == [True, False]
