"""The basis's Python path: the seed tokens found as character spans of the original text."""

from __future__ import annotations

import pytest

from recallscore_nb.core.normalize import SEED
from recallscore_nb.core.status_basis import token_spans


@pytest.mark.parametrize(
    "text",
    ["", "  ", "--", "a-b c", "--a--b-- c.", "West-Drawer, tab\there", "x\x1cy", "İΣ ς’ “é”",
     "...Hi!!! there...", "a - b", "1,000.5 km"],
)
def test_token_spans_cover_exactly_the_seed_tokens(text):
    spans = token_spans(text)
    assert [SEED(text[s:e]) for s, e in spans] == SEED(text).split()
