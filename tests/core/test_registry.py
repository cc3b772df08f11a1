"""The registries listed: every rule and normalizer with its name and signature, the rules'
normalizers signed beside them, and a rule or normalizer registered later listed too."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

import recallscore_nb as rs
from recallscore_nb._version import __version__
from recallscore_nb.core import normalize, rules as rule_registry
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.registry import signatures
from recallscore_nb.core.rules import BINARY, Contains, Measure


def test_the_public_lists_name_and_sign_every_rule_and_normalizer():
    assert [(e.name, e.normalizer) for e in rs.rules()] == [
        ("literal", "none"), ("normalized", "seed"), ("squad_exact_match", "squad"),
        ("token_f1", "squad"), ("contains", "squad"), ("checklist", "seed"),
        ("equivalent", "answer")]
    assert [e.signature for e in rs.rules("v2.0")] == [
        r.signature() for r in rule_registry.rules_for("v2.0")]
    assert rs.rules()[0].summary == "The attempt equals a reference character for character."
    seed, squad, answer, numbers, stems = rs.normalizers()
    assert (numbers.steps, stems.steps) == (answer.steps + ("number_words",),
                                            answer.steps + ("number_words", "singular"))
    assert (seed.name, seed.steps) == ("seed", ("lowercase", "punctuation", "whitespace"))
    assert squad.signature == ("normalizer|name:squad|steps:lowercase,punctuation,articles,"
                               f"whitespace|version:{__version__}")
    assert "string.punctuation" in seed.summary


def test_signatures_are_the_rules_then_the_normalizers_they_name():
    assert signatures() == [e.signature for e in rs.rules()] + [
        e.signature for e in rs.normalizers()]


@pytest.fixture
def registered(monkeypatch):
    """A step, a normalizer and a rule registered for one test, then forgotten."""
    monkeypatch.setattr(normalize, "STEPS", dict(normalize.STEPS))
    monkeypatch.setattr(normalize, "NORMALIZERS", dict(normalize.NORMALIZERS))
    monkeypatch.setattr(rule_registry, "RULES", dict(rule_registry.RULES))
    from recallscore_nb.core import registry
    monkeypatch.setattr(registry, "STEPS", normalize.STEPS)
    monkeypatch.setattr(registry, "NORMALIZERS", normalize.NORMALIZERS)


def test_a_registered_rule_and_normalizer_are_listed(registered):
    normalize.register_step("digits_only", "keep digits and spaces")(
        lambda text: "".join(c for c in text if c.isdigit() or c == " "))
    normalize.register_normalizer(normalize.Normalizer("digits", ("digits_only", "whitespace")))

    @rule_registry.register_rule
    @dataclasses.dataclass(frozen=True)
    class ContainsDigits(Contains):
        """A reference's digits occur in the attempt's, as whole tokens."""

        name: ClassVar[str] = "contains_digits"
        normalizer: ClassVar[str] = "digits"
        measures: ClassVar[tuple] = (Measure("contains_digits", BINARY, "digits", "digits",
                                             "Digits"),)

    assert rs.rules()[-1].name == "contains_digits"
    assert rs.rules()[-1].signature == (
        f"contains_digits|norm:digits|tok:ws|match:whole-token|version:{__version__}")
    assert [e.name for e in rs.normalizers()] == ["seed", "squad", "answer", "answer+numbers",
                                                  "answer+stems", "digits"]
    assert signatures()[-1].startswith("normalizer|name:digits|steps:digits_only,whitespace|")
    from recallscore_nb.core.scoring import score_all

    table = score_all(["born 1776, died 1826", "1776", "17 76", "x"], "in 1776",
                      facts={"year": ["1776"]})
    assert table["contains_digits"].tolist() == [True, True, False, False]
    assert table.columns[-4:].tolist() == ["fact_year", "equivalent", "equivalent_step",
                                           "contains_digits"]  # after the others


def test_names_are_registered_once_and_must_exist(registered):
    with pytest.raises(UsageError, match="a rule named 'contains' is already registered"):
        rule_registry.register_rule(Contains)
    with pytest.raises(UsageError, match="normalizer 'x': unknown step 'nope'"):
        normalize.Normalizer("x", ("nope",))
    with pytest.raises(UsageError, match="a normalizer named 'seed' is already registered"):
        normalize.register_normalizer(normalize.SEED)
    with pytest.raises(UsageError, match="unknown normalizer 'nope' \\(normalizers: seed, squad"):
        normalize.normalizer_named("nope")
