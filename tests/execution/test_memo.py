"""ScoreMemo: scores carried from chunk to chunk equal scoring every chunk afresh."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.scoring import score_all
from recallscore_nb.execution.memo import ScoreMemo

FACTS = {"place": ["west", "drawer"], "thing": ["token"]}
REFERENCE = "The copper token goes in the west drawer."
WORDS = ["the", "The", "west", "drawer", "token", "copper", "east", "", " ", "\t", "é",
         "drawer.", "WEST", "tokens", "northwest", "’", "a"]


def _chunks(texts: list[str], size: int) -> list[list[str]]:
    return [texts[i:i + size] for i in range(0, len(texts), size)] or [[]]


attempts = st.lists(st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join), max_size=60)


@settings(max_examples=60, deadline=None)
@given(texts=attempts, size=st.integers(1, 25), limit=st.integers(0, 30))
def test_memo_gives_the_scores_of_each_chunk_scored_alone(texts, size, limit):
    memo = ScoreMemo(limit=limit)
    for chunk in _chunks(texts, size):
        expected = score_all(chunk, REFERENCE, facts=FACTS)
        got = score_all(chunk, REFERENCE, facts=FACTS, memo=memo)
        pd.testing.assert_frame_equal(got, expected)
    assert len(memo) <= limit


def test_memo_scores_each_distinct_attempt_once_while_there_is_room():
    memo = ScoreMemo()
    score_all(["west", "east", "west"], REFERENCE, facts=FACTS, memo=memo)
    table = score_all(["east", "north", "west", "north"], REFERENCE, facts=FACTS, memo=memo)
    assert (memo.scored, memo.found, len(memo)) == (3, 2, 3)
    assert table["facts_present"].tolist() == [0, 0, 0, 0]
    assert table["fact_place"].tolist() == [False, False, False, False]


def test_a_full_memo_keeps_its_rows_and_still_scores_the_others():
    memo = ScoreMemo(limit=2)
    score_all(["west drawer", "token", "east"], REFERENCE, facts=FACTS, memo=memo)
    assert len(memo) == 2 and memo.scored == 3
    table = score_all(["east", "token", "west drawer"], REFERENCE, facts=FACTS, memo=memo)
    assert (memo.scored, memo.found) == (4, 2)
    assert table["facts_present"].tolist() == [0, 1, 1]
    assert table["fact_thing"].tolist() == [False, True, False]


def test_memo_keeps_float_bits_and_dtypes():
    memo = ScoreMemo()
    first = score_all(["copper token west"], REFERENCE, facts=FACTS, memo=memo)
    again = score_all(["x", "copper token west"], REFERENCE, facts=FACTS, memo=memo)
    assert again["token_f1"].iloc[1] == first["token_f1"].iloc[0]
    assert again.dtypes.tolist() == first.dtypes.tolist()
    assert np.isfinite(first["token_f1"]).all()


def test_memo_needs_one_reference():
    with pytest.raises(ValueError, match="one reference"):
        score_all(["a"], ["a"], facts=FACTS, memo=ScoreMemo())


def test_without_pandas_hash_table_nothing_is_kept_and_everything_is_scored(monkeypatch):
    import pandas._libs.hashtable as hashtable

    monkeypatch.delattr(hashtable, "ObjectFactorizer")
    memo = ScoreMemo()
    for chunk in (["west", "east"], ["east", "west drawer"]):
        expected = score_all(chunk, REFERENCE, facts=FACTS)
        pd.testing.assert_frame_equal(score_all(chunk, REFERENCE, facts=FACTS, memo=memo),
                                      expected)
    assert (len(memo), memo.scored, memo.found) == (0, 4, 0)


def test_the_memo_keeps_attempts_within_its_budget_in_bytes():
    from recallscore_nb.execution.memo import ENTRY_BYTES

    texts = [f"attempt number {i}" for i in range(50)]  # 16 to 17 bytes each
    budget = 10 * (17 + ENTRY_BYTES)
    memo = ScoreMemo(budget=budget)
    for chunk in _chunks(texts, 7) + _chunks(texts[::-1], 9):
        pd.testing.assert_frame_equal(score_all(chunk, REFERENCE, facts=FACTS, memo=memo),
                                      score_all(chunk, REFERENCE, facts=FACTS))
    assert 10 <= len(memo) <= 11 and memo.used <= budget
    assert memo.found == len(memo)  # each kept attempt found once, in the second pass
