"""Items files (JSONL): loaded, validated, every bad line named by line, item and field."""

from __future__ import annotations

import json

import pytest

from recallscore_nb.core.errors import ItemsFormatError
from recallscore_nb.core.facts import Fact
from recallscore_nb.core.items import Item, Items
from recallscore_nb.io.items import load_items
from tests.conftest import KITE, CAPITAL, write_items


def test_load_items_reads_references_and_checklists(tmp_path):
    items = load_items(write_items(tmp_path, [KITE, CAPITAL]))
    assert items.ids == ("kite", "capital")
    assert items.items[0].facts == (Fact("bird", ("red kite",)), Fact("place", ("river",)))
    assert items.items[1] == Item("capital", ("Paris", "Lutetia"), None)
    assert len(items.sha256) == 64


@pytest.mark.parametrize(("line", "message"), [
    ('{"item": "x"', "items.jsonl: line 2: not valid JSON (Expecting ',' delimiter at column 13)"),
    ({"item": "", "referenceAnswer": "a", "factChecklist": [{"fact": "f", "requiredTerms": ["a"]}]},
     'items.jsonl: line 2: item: expected a non-empty string, got ""'),
    ({"item": "q", "referenceAnswer": "a b"},
     "items.jsonl: line 2 (id q): factChecklist: expected a checklist (it may be omitted only "
     "when referenceAnswer is a list), got nothing"),
    ({"item": "q", "referenceAnswer": [], "factChecklist": []},
     "items.jsonl: line 2 (id q): referenceAnswer: expected a non-empty string or a non-empty "
     "list of non-empty strings, got []"),
    ({"item": "q", "referenceAnswer": "west door", "factChecklist": [{"fact": "2d", "requiredTerms": ["west"]}]},
     'items.jsonl: line 2 (id q): factChecklist[0].fact: expected an identifier matching '
     '^[A-Za-z][A-Za-z0-9_]*$, got "2d"'),
    ({"item": "q", "referenceAnswer": "west door", "factChecklist": [{"fact": "f", "requiredTerms": ["east"]}]},
     'items.jsonl: line 2 (id q): referenceAnswer: expected the term "east" of fact f, got "west door"'),
    ({"item": "kite", "referenceAnswer": ["x"]},
     "items.jsonl: line 2 (id kite): item: duplicate item id (first at line 1)"),
    ({"item": "q", "referenceAnswer": 1.5, "factChecklist": [{"fact": "f", "requiredTerms": ["a"]}]},
     "items.jsonl: line 2 (id q): referenceAnswer: expected a non-empty string or a non-empty "
     "list of non-empty strings, got 1.5"),
    ({"item": "q", "referenceAnswer": True},
     "items.jsonl: line 2 (id q): referenceAnswer: expected a non-empty string or a non-empty "
     "list of non-empty strings, got true"),
])
def test_a_bad_line_is_named_by_line_item_and_field(tmp_path, monkeypatch, line, message):
    monkeypatch.chdir(tmp_path)
    write_items(tmp_path, [KITE, line])
    with pytest.raises(ItemsFormatError) as caught:
        load_items("items.jsonl")
    assert str(caught.value) == message


def test_every_bad_line_is_collected(tmp_path):
    with pytest.raises(ItemsFormatError) as caught:
        load_items(write_items(tmp_path, [{"item": 1}, KITE, '[]']))
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("line 1", "item"), ("line 1", "referenceAnswer"), ("line 3", "")]


def test_lines_read_a_block_at_a_time_give_the_same_items_and_errors(tmp_path, monkeypatch):
    """Blocks of 2 lines: a repeated id and bad terms in other blocks are all still found, in
    line order, and the items are those of one pass."""
    from recallscore_nb.io import items as items_io

    lines = [KITE, CAPITAL, dict(KITE, item="kite2"), "", "{oops", dict(CAPITAL),
             dict(KITE, item="bad", factChecklist=[{"fact": "f", "requiredTerms": ["!!"]}])]
    whole = pytest.raises(ItemsFormatError)
    with whole as caught_whole:
        load_items(write_items(tmp_path, lines))
    monkeypatch.setattr(items_io, "_BLOCK_LINES", 2)
    with pytest.raises(ItemsFormatError) as caught:
        load_items(write_items(tmp_path, lines))
    assert [str(e) for e in caught.value.errors] == [str(e) for e in caught_whole.value.errors]
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("line 5", ""), ("line 6", "item"), ("line 7", "factChecklist[0].requiredTerms[0]")]
    good = load_items(write_items(tmp_path, [KITE, CAPITAL, dict(KITE, item="k3")]))
    assert [i.id for i in good.items] == ["kite", "capital", "k3"]
