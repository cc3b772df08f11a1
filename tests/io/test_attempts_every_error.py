"""Issue 12, "every error, every stage", for attempts files: every faulty row is reported,
null attempts and repeated ids together, read whole or in chunks alike."""

from __future__ import annotations

import pytest

from recallscore_nb.core.errors import AttemptsFormatError
from recallscore_nb.io import attempts as attempts_io
from recallscore_nb.io.attempts import AttemptChunks, read_attempts

JSONL = ('{"id": "a", "attempt": null}\n{"id": "b", "attempt": "x"}\n{"id": "a", "attempt": "y"}\n'
         '{"id": "c", "attempt": null}\n{"id": "b", "attempt": "z"}\n')
EXPECTED = [
    "line 1 (id a): attempt: expected a string, got null",
    "line 4 (id c): attempt: expected a string, got null",
    "line 3 (id a): id: duplicate id (first used at line 1)",
    "line 5 (id b): id: duplicate id (first used at line 2)",
]


def _lines(err: AttemptsFormatError, path) -> list[str]:
    return [str(e).removeprefix(f"{path}: ") for e in err.errors]


def _faults(tmp_path, text: str, rows: int | None = None) -> list[str]:
    """The errors of a JSONL attempts file holding ``text``, read whole or (``rows``) in
    chunks, without the file's name."""
    path = tmp_path / "a.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AttemptsFormatError) as info:
        read_attempts(str(path)) if rows is None else list(AttemptChunks(str(path), rows=rows))
    return _lines(info.value, path)


def test_null_attempts_and_repeated_ids_are_all_reported(tmp_path):
    assert _faults(tmp_path, JSONL) == EXPECTED


@pytest.mark.parametrize("rows", [2, 3, 100])  # one row a chunk: types differ, read whole
def test_in_chunks_the_same_errors(tmp_path, rows):
    assert _faults(tmp_path, JSONL, rows) == EXPECTED


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
    monkeypatch.setattr(attempts_io, "MAX_ROW_ERRORS", 3)
    lines = _faults(tmp_path, '{"attempt": null}\n' * 10)
    assert lines[:3] == [f"line {i}: attempt: expected a string, got null" for i in (1, 2, 3)]
    assert lines[3:] == ["attempt: 7 more rows like these"]


BAD_LINES = ('{"id": "a", "attempt": "x"}\nnot json\n{"id": "b", "attempt": 3}\n[1]\n'
             '{"id": "c", "attempt": "y"}\n{"id": "d", "attempt": NaN}\n')
BAD_EXPECTED = [
    "line 2: not valid JSON (Expecting value at column 1)",
    "line 3 (id b): attempt: expected a string, got 3",
    "line 4: expected a JSON object, got list",
    "line 6 (id d): attempt: expected a finite number, got NaN",
]


def test_every_faulty_jsonl_line_is_reported(tmp_path):
    assert _faults(tmp_path, BAD_LINES) == BAD_EXPECTED


@pytest.mark.parametrize("rows", [1, 2, 4, 100])
def test_every_faulty_jsonl_line_in_chunks_too(tmp_path, rows):
    assert _faults(tmp_path, BAD_LINES, rows) == BAD_EXPECTED
