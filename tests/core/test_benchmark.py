"""A benchmark as a value: its facts, rows and labels, and its rows as a frame."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.core.benchmark import Benchmark, Row
from recallscore_nb.core.engine import STRING
from recallscore_nb.core.facts import Fact


def _benchmark() -> Benchmark:
    rows = (Row("R01", "The west drawer.", "copied", {"literalMatch": True}),
            Row("R02", "", None, {}, {"note": "empty"}))
    return Benchmark(path="b.json", sha256="0" * 64, title=None, reference="The west drawer.",
                     facts=(Fact("place", ("west", "drawer")), Fact("what", ("drawer",))),
                     rows=rows, summary={}, limitations=(), version_history=(), raw={})


def test_fact_names_in_checklist_order():
    assert _benchmark().fact_names == ("place", "what")


def test_rows_frame_is_text_with_null_conditions():
    frame = _benchmark().rows_frame()
    assert frame.columns.tolist() == ["id", "attempt", "condition"]
    assert (frame.dtypes == STRING).all() and isinstance(frame.index, pd.RangeIndex)
    assert frame["attempt"].tolist() == ["The west drawer.", ""]
    assert frame["condition"].isna().tolist() == [False, True]


def test_a_row_keeps_its_labels_and_other_fields():
    first, second = _benchmark().rows
    assert (first.expected, second.expected, second.extra) == (
        {"literalMatch": True}, {}, {"note": "empty"})
