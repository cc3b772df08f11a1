"""A macro's name from any text: letters only, each run capitalized, so any set, pipeline or
family name gives a name TeX accepts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from recallscore_nb.core.macros import macro_tag


@pytest.mark.parametrize(("text", "tag"), [
    ("seed+nfkc", "SeedNfkc"), ("seed-nocase", "SeedNocase"), ("openqa-nq301", "OpenqaNq"),
    ("efficientqa", "Efficientqa"), ("changed quantity", "ChangedQuantity"), ("a\tb", "AB"),
    ("", ""), ("123", ""), ("ünïcode", "NCode"),
])
def test_macro_tag(text, tag):
    assert macro_tag(text) == tag


@given(st.text())
def test_a_tag_is_letters_only_and_depends_only_on_the_runs_of_letters(text):
    tag = macro_tag(text)
    assert re.fullmatch(r"[A-Za-z]*", tag)
    assert macro_tag(re.sub(r"[^A-Za-z]+", " 9 ", text)) == tag
    assert macro_tag(text.lower()) == tag
