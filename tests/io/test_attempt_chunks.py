"""An attempts file read in chunks: the same faults, in the same order, as read whole."""

from __future__ import annotations

import pytest

from tests.attempts_fixtures import BAD_EXPECTED, BAD_LINES, EXPECTED, JSONL, _faults


@pytest.mark.parametrize("rows", [2, 3, 100])  # one row a chunk: types differ, read whole
def test_in_chunks_the_same_errors(tmp_path, rows):
    assert _faults(tmp_path, JSONL, rows) == EXPECTED


@pytest.mark.parametrize("rows", [1, 2, 4, 100])
def test_every_faulty_jsonl_line_in_chunks_too(tmp_path, rows):
    assert _faults(tmp_path, BAD_LINES, rows) == BAD_EXPECTED
