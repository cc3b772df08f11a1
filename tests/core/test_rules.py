"""The rules as objects: signatures pinned string for string, the registry, bad modes."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb import __version__
from recallscore_nb.core import scoring
from recallscore_nb.core.facts import Fact
from tests.oracles import reference_rules as rr
from recallscore_nb.core.rules import (
    RULES,
    Checklist,
    Contains,
    Equivalent,
    LiteralMatch,
    NormalizedMatch,
    SquadExactMatch,
    TokenF1,
    rules_for,
)


def test_version():
    assert __version__ == "0.1.0"


@pytest.mark.parametrize(
    ("rule", "signature"),
    [
        (LiteralMatch(), "literal|norm:none|version:{v}"),
        (NormalizedMatch(), "normalized|norm:seed|version:{v}"),
        (SquadExactMatch(), "squad_exact_match|mode:v1.1|norm:squad|version:{v}"),
        (SquadExactMatch(mode="v1.1"), "squad_exact_match|mode:v1.1|norm:squad|version:{v}"),
        (SquadExactMatch(mode="v2.0"), "squad_exact_match|mode:v2.0|norm:squad|version:{v}"),
        (TokenF1(), "token_f1|mode:v1.1|norm:squad|tok:ws|bag:multiset|empty:zero|version:{v}"),
        (
            TokenF1(mode="v2.0"),
            "token_f1|mode:v2.0|norm:squad|tok:ws|bag:multiset|empty:both-one|version:{v}",
        ),
        (Checklist(), "checklist|norm:seed|tok:ws|match:whole-token|full:all-facts|version:{v}"),
        (Contains(), "contains|norm:squad|tok:ws|match:whole-token|version:{v}"),
        (Equivalent(), "equivalent|norm:answer|cascade:3|steps:exact+contains+number+plural+"
                       "date+quantity+glue+spelling+order+name-part+part+overlap|"
                       "guards:negation+alternatives+list+bag+denial+scale|"
                       "tolerance:0.05|shortest:5|window:3|longest:4|share:2/3|least:2|"
                       "widest:4|version:{v}"),
        (Equivalent(cascade=2), "equivalent|norm:answer|cascade:2|steps:exact+contains+number+"
                                "plural+date+quantity+glue+spelling+order+name-part+part+"
                                "overlap|guards:negation+alternatives+list+bag+denial+scale|"
                                "tolerance:0.05|shortest:5|window:3|longest:4|share:2/3|"
                                "least:2|widest:4|version:{v}"),
        (Equivalent(cascade=1), "equivalent|norm:answer|cascade:1|steps:exact+contains+number+"
                                "plural+date+quantity+glue+spelling+order+name-part+part+"
                                "overlap|guards:negation|tolerance:0.05|shortest:5|window:3|"
                                "longest:4|share:2/3|least:2|widest:4|version:{v}"),
        (Equivalent(steps=("overlap", "exact"), guards=("longer-name", "negation"),
                    tolerance=0.1, share=Fraction(3, 4)),
         "equivalent|norm:answer|cascade:3|steps:exact+overlap|guards:negation+longer-name|"
         "tolerance:0.1|shortest:5|window:3|longest:4|share:3/4|least:2|widest:4|version:{v}"),
        (Equivalent(steps=(), guards=()),
         "equivalent|norm:answer|cascade:3|steps:none|guards:none|tolerance:0.05|shortest:5|"
         "window:3|"
         "longest:4|share:2/3|least:2|widest:4|version:{v}"),
    ],
    ids=lambda x: x if isinstance(x, str) else type(x).__name__,
)
def test_signature(rule, signature):
    assert rule.signature() == signature.format(v=__version__)


def test_signature_ends_with_the_version():
    for rule in rules_for("v2.0"):
        assert rule.signature().split("|")[-1] == f"version:{__version__}"


def test_registry():
    assert list(RULES) == ["literal", "normalized", "squad_exact_match", "token_f1", "contains",
                           "checklist", "equivalent"]
    assert RULES == {
        "literal": LiteralMatch,
        "normalized": NormalizedMatch,
        "squad_exact_match": SquadExactMatch,
        "token_f1": TokenF1,
        "contains": Contains,
        "checklist": Checklist,
        "equivalent": Equivalent,
    }
    assert {name: cls.name for name, cls in RULES.items()} == {n: n for n in RULES}


@pytest.mark.parametrize(
    ("rule", "column"),
    [
        (LiteralMatch, "literal_match"),
        (NormalizedMatch, "normalized_match"),
        (SquadExactMatch, "squad_exact_match"),
        (TokenF1, "token_f1"),
        (Contains, "contains"),
        (Checklist, "checklist_full_match"),
        (Equivalent, "equivalent"),
    ],
)
def test_columns(rule, column):
    assert rule.column == column


def test_the_equivalent_rule_names_its_step_and_its_normalizers():
    assert Equivalent().output_columns() == ["equivalent", "equivalent_step"]
    assert Equivalent().normalizers_used() == ("answer", "answer+numbers", "answer+stems")
    assert Contains().normalizers_used() == ("squad",) and LiteralMatch().normalizers_used() == ()
    table = scoring.score_all(["Not Paris, but Lyon", "It is Paris.", "Rome"], "Paris",
                              facts={"f": ["paris"]})
    assert table["equivalent"].tolist() == [False, True, False]
    assert table["equivalent_step"].tolist() == ["negation", "contains", "none"]


@pytest.mark.parametrize("mode", ["v1.1", "v2.0"])
def test_rules_for(mode):
    rules = rules_for(mode)
    assert [r.name for r in rules] == list(RULES)
    assert rules[2] == SquadExactMatch(mode=mode)
    assert rules[3] == TokenF1(mode=mode)
    assert rules[4] == Contains()


def test_rules_for_defaults_to_v11():
    assert rules_for()[3].signature() == TokenF1(mode="v1.1").signature()


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TokenF1().mode = "v2.0"


BAD_MODES = ["v3", "1.1", "V1.1", "", "squad"]


@pytest.mark.parametrize("mode", BAD_MODES)
@pytest.mark.parametrize("rule", [SquadExactMatch, TokenF1])
def test_invalid_mode_names_the_valid_modes(rule, mode):
    with pytest.raises(ValueError) as info:
        rule(mode=mode)
    message = str(info.value)
    assert "'mode'" in message
    assert "v1.1" in message and "v2.0" in message
    assert repr(mode) in message
    assert message == f"'mode' must be one of v1.1, v2.0 (got {mode!r})"


@pytest.mark.parametrize("mode", BAD_MODES)
def test_invalid_mode_through_the_public_functions(mode):
    for call in (
        lambda: scoring.squad_exact_match(["a"], "a", mode=mode),
        lambda: scoring.token_f1(["a"], "a", mode=mode),
        lambda: scoring.score_all(["a"], "a", facts={"f": ["a"]}, squad_mode=mode),
        lambda: rules_for(mode),
    ):
        with pytest.raises(ValueError, match="v1.1, v2.0"):
            call()


@pytest.mark.parametrize(
    ("terms", "normalized"),
    [
        (("west", "drawer"), ("west", "drawer")),
        (("West-Drawer",), ("westdrawer",)),
        (("  Copper   TOKEN. ",), ("copper token",)),
        (("Café",), ("café",)),
    ],
)
def test_fact_normalized_terms(terms, normalized):
    assert Fact("f", terms).normalized_terms == normalized


# --- contains: a reference as consecutive whole tokens, SQuAD normalization on both sides ----
@pytest.mark.parametrize(
    ("attempt", "references", "expected"),
    [
        ("It is Paris, France.", ["Paris"], True),  # inside a longer answer
        ("Parisian", ["Paris"], False),  # whole tokens only
        ("paris", ["Paris"], True),  # equal is contained
        ("Beatles", ["the Beatles"], True),  # articles removed on both sides
        ("x the beatles y", ["Beatles"], True),
        ("Wilhelm Röntgen", ["Wilhelm Conrad Röntgen"], False),  # consecutive, not a subset
        ("it was Wilhelm Conrad Röntgen.", ["W. C. Röntgen", "Wilhelm Conrad Röntgen"], True),
        ("conrad wilhelm röntgen", ["Wilhelm Conrad Röntgen"], False),  # order matters
        ("14 December 1972", ["December 1972", "1972-12-14"], True),
        ("the", ["a"], False),  # a reference that normalizes to nothing never matches
        ("", ["a", "!"], False),
        ("", ["Paris"], False),
        ("Paris Paris", ["Paris Paris Paris"], False),  # longer than the attempt
        ("west-drawer", ["west drawer"], False),  # punctuation deleted, not a space
        ("東京 tower", ["東京"], True),  # non-ASCII rows take the exact steps
    ],
)
def test_contains_cases(attempt, references, expected):
    assert scoring.score_all([attempt], [references], facts={"f": ["x"]})["contains"].tolist() \
        == [expected]
    assert rr.contains(attempt, references) is expected


def test_contains_rows_do_not_leak_into_each_other():
    # "paris" ends row 0 and "france" starts row 1: the phrase may not cross rows.
    table = scoring.score_all(["in paris", "france now", "paris france"], "Paris France",
                              facts={"f": ["x"]})
    assert table["contains"].tolist() == [False, False, True]


_WORDS = st.sampled_from(["the", "a", "paris", "Paris,", "france", "x", "é", "東京", "-", ""])
_TEXT = st.lists(_WORDS, max_size=6).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_TEXT, st.lists(_TEXT, min_size=1, max_size=3)), max_size=10))
def test_contains_equals_the_per_row_reference(pairs):
    attempts = [a for a, _ in pairs]
    references = [r for _, r in pairs]
    table = scoring.score_all(attempts, references, facts={"f": ["x"]})
    assert table["contains"].tolist() == [rr.contains(a, r) for a, r in pairs]


# --- issue 12: token F1 with the seed normalization (articles kept) ----------------------
def test_token_f1_seed_variant_reproduces_seed_003():
    """Seed 003: 'the quick brown fox' against 'the quick fox': P 3/4, R 3/3, F1 6/7."""
    assert scoring.token_f1(["the quick brown fox"], "the quick fox").tolist() == [0.8]
    assert scoring.token_f1(["the quick brown fox"], "the quick fox",
                            norm="seed").tolist() == [pytest.approx(6 / 7)]
    assert round(6 / 7, 3) == 0.857


@pytest.mark.parametrize(
    "attempt, reference, expected",
    [
        ("The Quick, fox!", "the quick fox", 1.0),          # case and punctuation still go
        ("a fox", "the fox", 2 * (1 / 2) * (1 / 2) / 1),    # articles are tokens
        ("fox fox", "fox", 2 * (1 / 2) * 1 / (1 / 2 + 1)),  # a bag: counted once
        ("", "the fox", 0.0),
        ("west-drawer", "west drawer", 0.0),                # deleted, not a space
    ],
)
def test_token_f1_seed_variant_cases(attempt, reference, expected):
    assert scoring.token_f1([attempt], reference, norm="seed").tolist() == [
        pytest.approx(expected)]


def test_token_f1_seed_variant_signature_and_default():
    assert TokenF1(norm="seed").signature() == (
        f"token_f1|mode:v1.1|norm:seed|tok:ws|bag:multiset|empty:zero|version:{__version__}")
    assert TokenF1().norm == "squad"
    with pytest.raises(ValueError, match="'norm' must be one of squad, seed"):
        TokenF1(norm="nfkc")
