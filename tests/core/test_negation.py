"""Negation scopes: clauses end where the seed tokens say, whitespace is what str.split()
splits on."""

from __future__ import annotations

import sys

import pyarrow as pa
import pytest

from recallscore_nb.core.engine import Attempts
from recallscore_nb.core.negation import WHITESPACE, clauses
from recallscore_nb.core.normalize import SEED


def test_clause_whitespace_is_what_str_split_splits_on():
    assert set(WHITESPACE) == {c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()}


@pytest.mark.parametrize(
    "text, expected",
    [("", []), ("a-b c", [0, 0]), ("West-Drawer, tab\there", [0, 1, 1]), ("x\x1cy", [0, 0]),
     ("...Hi!!! there...", [0, 1]), ("1,000.5 km", [0, 0]), ("no,\u3000the west", [0, 1, 1]),
     ("a\u00a0b; c: d. e but f", [0, 0, 1, 2, 3, 4, 4]), ("İΣ ς’ “é”", [0, 0, 0])],
)
def test_clauses_follow_the_seed_tokens(text, expected):
    values = pa.array(["x", text])
    tokens = Attempts(values).tokens(SEED, pa.array(["but"]))
    got = clauses(values, tokens, 0)[tokens.rows == 1]
    assert (got - got.min()).tolist() == expected if expected else got.tolist() == []
