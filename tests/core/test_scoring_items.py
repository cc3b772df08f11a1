"""score_items: many items, each attempt scored against its own item's references and checklist."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.facts import Fact
from recallscore_nb.core.items import Item, Items
from recallscore_nb.core.scoring import score_all, score_items
from recallscore_nb.io.items import load_items
from tests.conftest import KITE, CAPITAL, write_items


def test_score_items_columns_and_values_by_hand(tmp_path):
    items = load_items(write_items(tmp_path, [KITE, CAPITAL]))
    attempts = pd.DataFrame({
        "item": ["kite", "kite", "capital", "capital"],
        "attempt": ["a red kite nests by the river", "A kite by the river", "lutetia!", ""],
        "system": ["s1", "s2", "s1", "s2"],
    })
    table = score_items(items, attempts)
    assert table.columns.tolist() == [
        "id", "item", "attempt", "system", "literal_match", "normalized_match",
        "squad_exact_match", "token_f1", "contains", "facts_present", "facts_total",
        "checklist_full_match", "facts_missing", "equivalent", "equivalent_step"]
    assert table["contains"].tolist() == [True, False, True, False]
    # "A kite by the river": 2 of the reference's 4 content words (red kite nest river), not
    # the 2/3 the overlap step needs; the empty attempt says nothing
    assert table["equivalent_step"].tolist() == ["exact", "none", "exact", "none"]
    assert table["equivalent"].tolist() == [True, False, True, False]
    assert table["id"].tolist() == ["0", "1", "2", "3"]
    assert table["normalized_match"].tolist() == [True, False, True, False]
    # "A kite by the river" against "A red kite nests by the river.": SQuAD tokens
    # [kite, by, river] vs [red, kite, nests, by, river]: p = 3/3, r = 3/5, F1 = 2 * 3/5 / (8/5)
    assert table["token_f1"].tolist()[1] == pytest.approx(2 * (3 / 5) / (1 + 3 / 5))
    assert table["facts_present"].tolist()[:2] == [2, 1]
    assert table["facts_missing"].tolist()[:2] == ["", "bird"]
    assert table["facts_total"].isna().tolist() == [False, False, True, True]
    assert table["checklist_full_match"].tolist()[:2] == [True, False]


def test_score_items_scores_values_and_reads_no_file(tmp_path):
    """The core scores an Items value; reading the file is the caller's (io.items.load_items)."""
    path = write_items(tmp_path, [KITE])
    attempts = pd.DataFrame({"item": ["kite"], "attempt": ["a red kite by the river"]})
    with pytest.raises(UsageError, match=r"'items' must be an Items \(got a PosixPath\); read an "
                                         r"items file with recallscore_nb.io.items.load_items"):
        score_items(path, attempts)
    assert score_items(load_items(path), attempts)["checklist_full_match"].tolist() == [True]


def test_unknown_items_are_listed(tmp_path):
    items = load_items(write_items(tmp_path, [KITE]))
    attempts = pd.DataFrame({"item": ["kite", "nope", "gone", "nope"], "attempt": ["x"] * 4})
    with pytest.raises(UsageError, match=r"2 unknown item id\(s\) in the attempts, e.g. 'nope', 'gone'"):
        score_items(items, attempts)


def _random_items(rng: random.Random, n: int) -> Items:
    words = ("red kite oak river west drawer copper token museum opens before after the a an "
             "north south east naïve café").split()
    out = []
    for i in range(n):
        tokens = [rng.choice(words) for _ in range(rng.randint(3, 9))]
        reference = " ".join(tokens) + "."
        if i % 7:
            facts = (Fact("first", (tokens[0],)), Fact("pair", (" ".join(tokens[1:3]),)))
            out.append(Item(f"q{i}", (reference,), facts))
        else:
            out.append(Item(f"q{i}", (reference, "also " + reference), None))
    return Items("generated", "", tuple(out))


def test_score_items_equals_scoring_each_item_on_its_own():
    """10,000 attempts over 100 items, against one score_all call per item."""
    rng = random.Random(11)
    items = _random_items(rng, 100)
    rows = []
    for _ in range(10_000):
        item = rng.choice(items.items)
        base = item.references[0].split()
        attempt = " ".join(rng.choice(base + ["the", "tokens", "northwest"])
                           for _ in range(rng.randint(0, 8)))
        rows.append((item.id, item.references[0].upper() if rng.random() < 0.2 else attempt))
    attempts = pd.DataFrame(rows, columns=["item", "attempt"])
    table = score_items(items, attempts)
    for item in items.items:
        mine = attempts.index[attempts["item"] == item.id]
        got = table.loc[mine]
        refs = [list(item.references)] * len(mine) if len(item.references) > 1 else item.references[0]
        facts = item.facts or {"unused": ["zzz"]}
        expected = score_all(attempts.loc[mine, "attempt"].tolist(), refs, facts=facts)
        for column in ("literal_match", "normalized_match", "squad_exact_match", "token_f1"):
            assert got[column].tolist() == expected[column].tolist(), (item.id, column)
        if item.facts is None:
            assert got["facts_present"].isna().all() and got["facts_missing"].isna().all()
            continue
        for column in ("facts_present", "facts_total", "checklist_full_match"):
            assert got[column].tolist() == expected[column].tolist(), (item.id, column)
        missing = [";".join(f.name for f in item.facts if not row[f"fact_{f.name}"])
                   for _, row in expected.iterrows()]
        assert got["facts_missing"].tolist() == missing


def test_each_distinct_item_attempt_pair_is_scored_once_and_spread_back():
    items = Items("x", "", (Item("a", ("same text",), (Fact("f", ("same",)),)),
                            Item("b", ("other text",), (Fact("f", ("other",)),))))
    attempts = pd.DataFrame({"item": ["a", "b", "a", "b"], "attempt": ["same text"] * 4})
    table = score_items(items, attempts)
    assert table["normalized_match"].tolist() == [True, False, True, False]
    assert np.array_equal(table["facts_present"].to_numpy(dtype=int), [1, 0, 1, 0])
    assert table["facts_missing"].tolist() == ["", "f", "", "f"]


def test_a_rows_own_references_replace_its_items_and_are_scored_apart():
    from recallscore_nb.core.items import Item, Items
    from recallscore_nb.core.scoring import score_items

    items = Items("d", "", (Item("q1", ("Paris", "Lutetia"), None), Item("q2", ("Rome",), None)))
    frame = pd.DataFrame({"item": ["q1", "q1", "q1", "q2", "q2"],
                          "attempt": ["Paris", "Paris", "Lyon", "Roma", "Roma"],
                          "references": [None, '["Lyon"]', '["Lyon", "Paris"]', '["Roma"]', ""]})
    table = score_items(items, frame)
    assert table["literal_match"].tolist() == [True, False, True, True, False]
    assert table["references"].tolist()[1:4] == ['["Lyon"]', '["Lyon", "Paris"]', '["Roma"]']


@pytest.mark.parametrize("value", ['"Paris"', "[]", "[1]", '[""]', "not json"])
def test_references_that_are_not_a_list_of_strings_are_refused(value):
    from recallscore_nb.core.errors import UsageError
    from recallscore_nb.core.items import Item, Items
    from recallscore_nb.core.scoring import score_items

    items = Items("d", "", (Item("q1", ("Paris",), None),))
    frame = pd.DataFrame({"item": ["q1", "q1"], "attempt": ["a", "b"],
                          "references": ['["Paris"]', value]})
    with pytest.raises(UsageError, match="'references' row 1: expected a JSON list of strings"):
        score_items(items, frame)
