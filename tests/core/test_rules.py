"""The rules as objects: signatures pinned string for string, the registry, bad modes."""

from __future__ import annotations

import dataclasses

import pytest

from recallscore_nb import __version__
from recallscore_nb.core import scoring
from recallscore_nb.core.facts import Fact
from recallscore_nb.core.rules import (
    RULES,
    Checklist,
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
    ],
    ids=lambda x: x if isinstance(x, str) else type(x).__name__,
)
def test_signature(rule, signature):
    assert rule.signature() == signature.format(v=__version__)


def test_signature_ends_with_the_version():
    for rule in rules_for("v2.0"):
        assert rule.signature().split("|")[-1] == f"version:{__version__}"


def test_registry():
    assert list(RULES) == ["literal", "normalized", "squad_exact_match", "token_f1", "checklist"]
    assert RULES == {
        "literal": LiteralMatch,
        "normalized": NormalizedMatch,
        "squad_exact_match": SquadExactMatch,
        "token_f1": TokenF1,
        "checklist": Checklist,
    }
    assert {name: cls.name for name, cls in RULES.items()} == {n: n for n in RULES}


@pytest.mark.parametrize(
    ("rule", "column"),
    [
        (LiteralMatch, "literal_match"),
        (NormalizedMatch, "normalized_match"),
        (SquadExactMatch, "squad_exact_match"),
        (TokenF1, "token_f1"),
        (Checklist, "checklist_full_match"),
    ],
)
def test_columns(rule, column):
    assert rule.column == column


@pytest.mark.parametrize("mode", ["v1.1", "v2.0"])
def test_rules_for(mode):
    rules = rules_for(mode)
    assert [r.name for r in rules] == list(RULES)
    assert rules[2] == SquadExactMatch(mode=mode)
    assert rules[3] == TokenF1(mode=mode)


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
