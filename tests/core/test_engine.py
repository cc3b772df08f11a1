"""The vectorized engine the rules share, on small cases checked by hand (the rules' parity
with the official scripts is in test_scoring.py)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core import engine
from recallscore_nb.core.equivalence.forms import ANSWER_NUMBERS, ANSWER_STEMS
from recallscore_nb.core.facts import Fact


def test_as_string_array_takes_series_arrays_and_sequences():
    for attempts in (["a", "b"], pd.Series(["a", "b"], dtype=engine.STRING),
                     pa.chunked_array([["a"], ["b"]]), pa.array(["a", "b"], type=pa.large_string())):
        assert engine.as_string_array(attempts).to_pylist() == ["a", "b"]
    assert engine.as_string_array([]).type == pa.string()


@pytest.mark.parametrize(("attempts", "error", "message"), [
    ("one string", TypeError, "'attempts' must be a sequence of strings (got a single str)"),
    (pa.array([1, 2]), TypeError, "'attempts' must hold strings (got Arrow type int64)"),
    (["a", None], ValueError, "'attempts' must not contain nulls (row 1 is null)"),
])
def test_as_string_array_refuses(attempts, error, message):
    with pytest.raises(error) as caught:
        engine.as_string_array(attempts)
    assert str(caught.value) == message


def test_checklist_matrix_matches_whole_consecutive_tokens():
    facts = (Fact("place", ("west drawer",)), Fact("time", ("dawn",)))
    attempts = engine.Attempts(["The WEST drawer, at dawn.", "northwest drawer at dawn",
                                "drawer west"])
    assert engine.checklist_matrix(attempts, facts).tolist() == [
        [True, True], [False, True], [False, False]]


def test_token_f1_counts_a_bag_of_tokens():
    attempts = engine.Attempts(["token token", "the quick brown fox", ""])
    refs = engine.References.build("the quick fox token", 3)
    # "token token" vs "quick fox token": 1 common, precision 1/2, recall 1/3, F1 2/5
    f1 = engine.token_f1(attempts, refs, "v1.1")
    assert f1.tolist() == pytest.approx([2 / 5, 2 * (2 / 3) * (2 / 3) / (4 / 3), 0.0])


def _bags_by_hand(refs):
    """Each reference's token sequence and bag (token -> count), by the Python steps."""
    return [(r.split(), {t: r.split().count(t) for t in r.split()}) for r in refs]


_TOKEN_LISTS = st.lists(st.lists(st.sampled_from(["a", "b", "cc", "d", "é"]), max_size=9),
                        max_size=12)


@given(_TOKEN_LISTS)
@settings(max_examples=300, deadline=None)
def test_reference_bags_hold_each_references_tokens_whatever_the_references(token_lists):
    test_reference_bags_built_with_arrow_hold_each_references_tokens(
        [" ".join(tokens) for tokens in token_lists])


@pytest.mark.parametrize("refs", [["a b a", "", "b c"], ["x"], [], ["the the the", "q r s t u"]])
def test_reference_bags_built_with_arrow_hold_each_references_tokens(refs):
    bags = engine.ReferenceBags.build(refs)
    vocab = bags.vocab.to_pylist()
    for r, (tokens, bag) in enumerate(_bags_by_hand(refs)):
        assert bags.lengths[r] == len(tokens)
        assert [vocab[i] for i in bags.sequences[r] if i >= 0] == tokens
        size = max(len(vocab), 1)
        got = {}
        for key, column in zip(bags.keys, bags.columns):
            if key // size == r:
                got[vocab[key % size]] = int(bags.counts[r, column])
        assert got == bag
    assert list(bags.keys) == sorted(bags.keys)


# --- sequences and token maps -------------------------------------------------------------------
def test_sequence_match_reads_rows_as_long_as_a_reference_whatever_the_slots():
    attempts = engine.Attempts(["the west drawer", "west drawer", "drawer west", "", "west"])
    refs = engine.References.build([["West Drawer"], ["nothing", "west drawer"], ["west drawer"],
                                    [""], []], 5)
    assert engine.sequence_match(attempts, refs, engine.SEED).tolist() == [
        False, True, False, True, False]


word_lists = st.lists(st.lists(st.sampled_from(["seven", "boxes", "km", "21st", "the", "a",
                                                "  ", "Paris", "", "viii"]), max_size=6)
                      .map(" ".join), max_size=12)


@settings(max_examples=80, deadline=None)
@given(word_lists)
def test_token_map_normalizations_are_the_python_steps_row_by_row(texts):
    """``answer+numbers`` and ``answer+stems`` are joined from their root's tokens mapped once
    each, not normalized again: the same text as the steps give, empty rows included."""
    attempts = engine.Attempts(texts)
    for normalizer in (ANSWER_STEMS, ANSWER_NUMBERS):
        assert attempts.normalized(normalizer).to_pylist() == [normalizer(t) for t in texts]
