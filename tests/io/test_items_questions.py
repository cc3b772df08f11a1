"""An items file's questions, read beside its items (the gaming audit's echo family)."""

from __future__ import annotations

import gzip

import pytest

from recallscore_nb.core.errors import ItemsFormatError
from recallscore_nb.io.data import DATA_DIR
from recallscore_nb.io.items import load_items, load_questions


def test_the_questions_by_item_those_without_one_left_out(tmp_path):
    path = tmp_path / "items.jsonl.gz"
    path.write_bytes(gzip.compress(
        b'{"item": "q1", "question": "Capital of France?", "referenceAnswer": ["Paris"]}\n\n'
        b'{"item": "q2", "referenceAnswer": ["7"]}\n'))
    assert load_questions(path) == {"q1": "Capital of France?"}
    assert load_items(path).ids == ("q1", "q2")


def test_a_question_that_is_not_text_is_named_by_line_and_field(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text('{"item": "q1", "referenceAnswer": ["Paris"]}\n'
                    '{"item": "q2", "question": 7, "referenceAnswer": ["7"]}\n')
    with pytest.raises(ItemsFormatError, match=r"items.jsonl: line 2 \(id q2\): question: "
                                               r"expected a string, got 7"):
        load_questions(path)


def test_a_missing_file_is_named():
    with pytest.raises(ItemsFormatError, match="no/such/items.jsonl: no such file"):
        load_questions("no/such/items.jsonl")


def test_every_shipped_judged_set_has_a_question_for_every_item():
    for name in ("evouna-nq", "evouna-tq", "openqa-nq301"):
        path = DATA_DIR / "human_judgments" / name / "items.jsonl.gz"
        assert set(load_questions(path)) == set(load_items(path).ids)
