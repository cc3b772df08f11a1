"""The items' flat tables, built without a Python step per item: equal to building them by
hand."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from recallscore_nb.core.facts import Fact
from recallscore_nb.core.item_tables import ItemChecklists, ItemReferences


def test_item_checklists_keep_a_term_repeated_within_a_fact_once():
    lists = ItemChecklists.build([
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
    lists = ItemChecklists.build(item_facts)
    for name, expected in _checklists_by_hand(item_facts).items():
        got = getattr(lists, name)
        got = got.to_pylist() if name == "terms" else list(got)
        assert [x.item() if hasattr(x, "item") else x for x in got] == expected, name


@settings(max_examples=100, deadline=None)
@given(alternatives=st.lists(st.lists(_TERM, min_size=1, max_size=3), min_size=1, max_size=6),
       as_tuples=st.booleans())
def test_item_references_take_tuples_and_lists_alike(alternatives, as_tuples):
    refs = ItemReferences.build([tuple(a) if as_tuples else a for a in alternatives])
    values = refs.references.values
    assert [[values[j] for j in row if j >= 0] for row in refs.table.tolist()] == alternatives
    assert list(values) == list(dict.fromkeys(t for a in alternatives for t in a))
