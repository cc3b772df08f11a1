"""The vectorized engine the rules share, on small cases checked by hand (the rules' parity
with the official scripts is in test_scoring.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core import engine
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


def test_phrase_starts_stay_within_a_row():
    tokens = engine.Tokens(ids=np.array([0, 1, 0, 1]), rows=np.array([0, 0, 1, 2]),
                           positions=np.array([0, 1, 0, 0]), counts=np.array([2, 1, 1]))
    assert engine.phrase_starts(tokens, [0, 1]).tolist() == [0]  # row 1 ends before row 2's 1


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


def test_item_checklists_keep_a_term_repeated_within_a_fact_once():
    lists = engine.ItemChecklists.build([
        (Fact("a", ("West", "west.", "drawer")), Fact("b", ("west",))), None,
        (Fact("c", ("x y",)),)])
    assert lists.terms.to_pylist() == ["west", "drawer", "west", "x y"]
    assert lists.term_fact.tolist() == [0, 0, 1, 2]
    assert lists.fact_terms.tolist() == [2, 1, 1]
    assert lists.fact_item.tolist() == [0, 0, 2]
    assert lists.item_fact_start.tolist() == [0, 2, 2]
    assert lists.item_has_checklist.tolist() == [True, False, True]


# --- items' tables, built without a Python step per item: equal to building them by hand ---
def _checklists_by_hand(item_facts):
    """ItemChecklists' fields, one item and one fact at a time."""
    from recallscore_nb.core.normalize import SEED

    fields = {k: [] for k in ("fact_item", "fact_names", "fact_terms", "item_fact_start",
                              "item_fact_count", "item_has_checklist", "term_fact", "terms")}
    for i, facts in enumerate(item_facts):
        fields["item_fact_start"].append(len(fields["fact_names"]))
        fields["item_fact_count"].append(len(facts or ()))
        fields["item_has_checklist"].append(facts is not None)
        for fact in facts or ():
            kept = list(dict.fromkeys(SEED(t) for t in fact.terms))
            fields["fact_item"].append(i)
            fields["fact_names"].append(fact.name)
            fields["fact_terms"].append(len(kept))
            fields["term_fact"] += [len(fields["fact_names"]) - 1] * len(kept)
            fields["terms"] += kept
    return fields


_TERM = st.sampled_from(["west", "West!", "x y", "café", "CAFÉ", "Straße", "a-b", "the"])
_FACTS = st.one_of(st.none(), st.lists(st.builds(
    lambda name, terms: Fact(name, tuple(terms)), st.sampled_from(["a", "b", "c"]),
    st.lists(_TERM, min_size=1, max_size=4)), max_size=3).map(tuple))


@settings(max_examples=100, deadline=None)
@given(item_facts=st.lists(_FACTS, max_size=6))
def test_item_checklists_equal_the_tables_built_by_hand(item_facts):
    lists = engine.ItemChecklists.build(item_facts)
    for name, expected in _checklists_by_hand(item_facts).items():
        got = getattr(lists, name)
        got = got.to_pylist() if name == "terms" else list(got)
        assert [x.item() if hasattr(x, "item") else x for x in got] == expected, name


@settings(max_examples=100, deadline=None)
@given(alternatives=st.lists(st.lists(_TERM, min_size=1, max_size=3), min_size=1, max_size=6),
       as_tuples=st.booleans())
def test_item_references_take_tuples_and_lists_alike(alternatives, as_tuples):
    refs = engine.ItemReferences.build([tuple(a) if as_tuples else a for a in alternatives])
    values = refs.references.values
    assert [[values[j] for j in row if j >= 0] for row in refs.table.tolist()] == alternatives
    assert list(values) == list(dict.fromkeys(t for a in alternatives for t in a))
