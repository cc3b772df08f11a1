"""The package's CSV dialect, as text: what scored tables and the paper's tables are written in."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from recallscore_nb.core.csvtext import csv_ready, csv_text, write_csv_text


def test_booleans_floats_missing_values_and_quotes():
    frame = pd.DataFrame({"id": ["a,b", 'say "x"'], "ok": [True, False],
                          "maybe": pd.array([True, None], dtype="boolean"),
                          "f1": [2 / 3, 0.1], "n": [1, None]})
    assert csv_text(frame) == ('id,ok,maybe,f1,n\n"a,b",true,true,0.6666666666666666,1.0\n'
                               '"say ""x""",false,,0.1,\n')


def test_mixed_cells_keep_ints_and_spell_booleans():
    frame = pd.DataFrame({"mixed": np.array([True, 3, None, "x"], dtype=object)})
    assert csv_ready(frame)["mixed"].tolist() == ["true", 3, None, "x"]
    assert csv_text(frame) == 'mixed\ntrue\n3\n""\nx\n'  # an empty line would be no row


@pytest.mark.parametrize("cells", [4, 50, 2_000_000])
def test_the_text_is_the_same_whatever_the_chunk(monkeypatch, cells):
    from recallscore_nb.core import csvtext

    frame = pd.DataFrame({"a": range(7), "b": [True, False] * 3 + [True], "c": list("abcdefg")})
    expected = csv_text(frame)
    monkeypatch.setattr(csvtext, "_CHUNK_CELLS", cells)
    buffer = io.StringIO()
    write_csv_text(frame, buffer)
    assert buffer.getvalue() == expected and expected.count("\n") == 8
