"""Items as values: their ids in file order, and the Items a caller builds in code."""

from __future__ import annotations

from recallscore_nb.core.facts import Fact
from recallscore_nb.core.items import Item, Items


def test_items_keep_file_order_and_their_checklists():
    items = Items("demo.jsonl", "", (Item("q2", ("Paris", "Lutetia"), None),
                                     Item("q1", ("west",), (Fact("place", ("west",)),))))
    assert (len(items), items.ids) == (2, ("q2", "q1"))
    assert items.items[0].facts is None and items.items[1].facts[0].name == "place"
