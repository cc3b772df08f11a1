"""Issue 12, "every error, every stage", for attempts files: every faulty row is reported,
null attempts and repeated ids together; ids null, or colliding once read as text."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.errors import AttemptsFormatError
from recallscore_nb.io.attempts import rows as attempt_rows
from recallscore_nb.io.attempts import read_attempts
from tests.attempts_fixtures import (
    BAD_EXPECTED,
    BAD_LINES,
    EXPECTED,
    JSONL,
    _faults,
    read_error,
    write_bytes,
)

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_null_attempts_and_repeated_ids_are_all_reported(tmp_path):
    assert _faults(tmp_path, JSONL) == EXPECTED


def test_csv_rows_and_the_command_line_count(tmp_path, capsys):
    from recallscore_nb.cli.main import main

    path = tmp_path / "a.csv"
    path.write_text("id,attempt\n" + "".join(f"r{i % 4},x\n" for i in range(10)),
                    encoding="utf-8")
    with pytest.raises(AttemptsFormatError) as info:
        read_attempts(str(path))
    assert len(info.value.errors) == 6  # rows 4..9 repeat r0..r3
    assert main(["score", "--attempts", str(path), "--out", str(tmp_path / "o.csv")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"recallscore: error: {path}: row 4 (id r0): id: duplicate id (first used at row 0)"
    assert err[-1] == "recallscore: (1 more error)"


def test_a_flood_of_faults_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(attempt_rows, "MAX_ROW_ERRORS", 3)
    lines = _faults(tmp_path, '{"attempt": null}\n' * 10)
    assert lines[:3] == [f"line {i}: attempt: expected a string, got null" for i in (1, 2, 3)]
    assert lines[3:] == ["attempt: 7 more rows like these"]


def test_every_faulty_jsonl_line_is_reported(tmp_path):
    assert _faults(tmp_path, BAD_LINES) == BAD_EXPECTED


def test_jsonl_explicit_null_id():
    err = read_error(write_bytes("a.jsonl", '{"id": "a", "attempt": "x"}\n{"id": null, "attempt": "y"}\n'))
    assert str(err) == "a.jsonl: line 2: id: expected an id, got null"


def test_jsonl_ids_equal_as_text_are_duplicates():
    err = read_error(write_bytes("a.jsonl", '{"id": 1.0, "attempt": "x"}\n{"id": "1.0", "attempt": "y"}\n'))
    assert str(err) == "a.jsonl: line 2 (id 1.0): id: duplicate id (first used at line 1)"


def test_jsonl_locations_count_blank_lines():
    content = '{"id": "a", "attempt": "x"}\n\n  \n{"attempt": "y"}\n'
    assert str(read_error(write_bytes("a.jsonl", content))) == "a.jsonl: line 4: id: expected an id, got null"
    content = '{"id": "a", "attempt": "x"}\n\n\n{"id": "a", "attempt": "y"}\n'
    assert str(read_error(write_bytes("b.jsonl", content))) == (
        "b.jsonl: line 4 (id a): id: duplicate id (first used at line 1)")


@pytest.mark.parametrize("ids", [["a", None], [1, None]])
def test_parquet_null_id(ids):
    pq.write_table(pa.table({"id": ids, "attempt": ["x", "y"]}), "a.parquet")
    assert str(read_error("a.parquet")) == "a.parquet: row 1: id: expected an id, got null"
