"""Reading attempts files (CSV, JSONL, Parquet) and writing scored tables.

Every test writes its own small file into ``tmp_path`` and runs from there, so the error
messages name the file exactly as given ("a.csv"), as the command line would."""

from __future__ import annotations

import io
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from recallscore_nb.core.engine import STRING
from recallscore_nb.core.errors import RecallScoreError, UsageError
from recallscore_nb.io.attempts import read_attempts
from tests.attempts_fixtures import read_error, write_bytes, write_jsonl, write_parquet


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def values(frame: pd.DataFrame) -> list[list]:
    return frame.astype(object).values.tolist()


# --- CSV ---------------------------------------------------------------------------------
def test_csv_without_id_numbers_rows_from_zero():
    frame = read_attempts(write_bytes("a.csv", "attempt\nfirst\nsecond\n"))
    assert frame.columns.tolist() == ["id", "attempt"]
    assert values(frame) == [["0", "first"], ["1", "second"]]
    assert frame["id"].dtype == STRING
    assert frame["attempt"].dtype == STRING


def test_csv_id_is_kept_as_written():
    frame = read_attempts(write_bytes("a.csv", "id,attempt\n007,a\n7,b\n1e3,c\n0x1,d\n"))
    assert frame["id"].tolist() == ["007", "7", "1e3", "0x1"]


def test_csv_reads_no_missing_values():
    frame = read_attempts(write_bytes("a.csv", "id,attempt\nA,\nB,NA\nC,null\nD,None\nE,NaN\nF,n/a\n"))
    assert frame["attempt"].tolist() == ["", "NA", "null", "None", "NaN", "n/a"]
    assert not frame["attempt"].isna().any()


def test_csv_empty_id_is_a_string_not_null():
    frame = read_attempts(write_bytes("a.csv", "id,attempt\n,a\nNA,b\n"))
    assert frame["id"].tolist() == ["", "NA"]


def test_csv_carried_columns_follow_id_and_attempt_as_strings():
    frame = read_attempts(write_bytes("a.csv", "system,attempt,seed,id\ngpt,a,01,x\nhuman,b,2,y\n"))
    assert frame.columns.tolist() == ["id", "attempt", "system", "seed"]
    assert values(frame) == [["x", "a", "gpt", "01"], ["y", "b", "human", "2"]]
    assert frame["seed"].dtype == STRING


def test_csv_keeps_spaces_tabs_quotes_and_line_breaks():
    content = 'attempt\n"  café ☕  "\ntab\there\n"say ""hi"", ok"\n"line1\nline2"\n'
    frame = read_attempts(write_bytes("a.csv", content))
    assert frame["attempt"].tolist() == ["  café ☕  ", "tab\there", 'say "hi", ok', "line1\nline2"]


def test_csv_with_crlf_line_ends_and_a_byte_order_mark():
    frame = read_attempts(write_bytes("a.csv", b"\xef\xbb\xbfid,attempt\r\n1,a\r\n2,b\r\n"))
    assert frame.columns.tolist() == ["id", "attempt"]
    assert values(frame) == [["1", "a"], ["2", "b"]]


def test_csv_header_only_is_an_empty_table():
    frame = read_attempts(write_bytes("a.csv", "id,attempt,system\n"))
    assert frame.columns.tolist() == ["id", "attempt", "system"]
    assert len(frame) == 0


def test_csv_missing_attempt_column():
    err = read_error(write_bytes("a.csv", "id,answer\n1,x\n"))
    assert str(err) == "a.csv: attempt: missing column 'attempt' (columns: id, answer)"
    assert (err.file, err.location, err.field) == ("a.csv", "", "attempt")


def test_csv_duplicate_id_names_both_rows():
    err = read_error(write_bytes("a.csv", "id,attempt\nA,a\nB,b\nA,c\n"))
    assert str(err) == "a.csv: row 2 (id A): id: duplicate id (first used at row 0)"
    assert (err.location, err.field, err.row_id) == ("row 2", "id", "A")


def test_csv_ids_differing_only_by_leading_zeros_are_distinct():
    frame = read_attempts(write_bytes("a.csv", "id,attempt\n7,a\n07,b\n007,c\n"))
    assert frame["id"].tolist() == ["7", "07", "007"]


def test_csv_empty_file():
    err = read_error(write_bytes("a.csv", b""))
    assert str(err) == "a.csv: empty file: expected a header line with an 'attempt' column"


def test_csv_not_utf8():
    err = read_error(write_bytes("a.csv", b"attempt\n\xff\xfe\n"))
    assert str(err) == "a.csv: line 2: not UTF-8 text (byte 8)"
    assert isinstance(err, RecallScoreError)


def test_csv_not_utf8_names_where():
    content = b"attempt\n" + b"ok\n" * 300 + b"\xff\n"  # the bad byte is at offset 908
    err = read_error(write_bytes("a.csv", content))
    assert "byte 0)" not in str(err)
    assert any(place in str(err) for place in ("byte 908", "row 300", "line 302"))


def test_csv_row_with_too_many_fields_is_an_error():
    # what happens instead: the attempt is read as "gpt" and "the answer" is dropped
    err = read_error(write_bytes("a.csv", "attempt,system\nthe answer,gpt,extra\n"))
    assert err.file == "a.csv"


def test_csv_repeated_column_is_an_error():
    err = read_error(write_bytes("a.csv", "attempt,attempt\na,b\n"))
    assert err.field == "attempt"


def test_csv_blank_line_in_one_column_file_is_the_empty_attempt():
    frame = read_attempts(write_bytes("a.csv", "attempt\na\n\nb\n"))
    assert values(frame) == [["0", "a"], ["1", ""], ["2", "b"]]


def test_csv_from_stdin(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO("id,attempt,who\n007,NA,Zoë\n008,,x\n".encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    frame = read_attempts("-")
    assert values(frame) == [["007", "NA", "Zoë"], ["008", "", "x"]]


def test_csv_from_stdin_errors_name_stdin(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(b"answer\nx\n"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    err = read_error("-")
    assert str(err) == "<stdin>: attempt: missing column 'attempt' (columns: answer)"


# --- JSONL -------------------------------------------------------------------------------
def test_jsonl_ids_strings_integers_and_defaults():
    frame = read_attempts(write_jsonl("a.jsonl", [{"id": "007", "attempt": "a"}, {"id": "x", "attempt": "b"}]))
    assert values(frame) == [["007", "a"], ["x", "b"]]
    frame = read_attempts(write_jsonl("b.jsonl", [{"id": 7, "attempt": "a"}, {"id": 8, "attempt": "b"}]))
    assert frame["id"].tolist() == ["7", "8"]
    assert frame["id"].dtype == STRING
    frame = read_attempts(write_jsonl("c.jsonl", [{"attempt": "a"}, {"attempt": "b"}]))
    assert frame["id"].tolist() == ["0", "1"]


def test_jsonl_integer_id_stays_an_integer_beside_a_float_id():
    frame = read_attempts(write_jsonl("a.jsonl", [{"id": 1, "attempt": "a"}, {"id": 2.5, "attempt": "b"}]))
    assert frame["id"].tolist() == ["1", "2.5"]


def test_jsonl_carried_columns_keep_their_json_types():
    records = [{"attempt": "a", "rater": "A", "score": 2, "ok": True},
               {"score": 3, "attempt": "b", "rater": "B", "ok": False}]
    frame = read_attempts(write_jsonl("a.jsonl", records))
    assert frame.columns.tolist() == ["id", "attempt", "rater", "score", "ok"]
    assert frame["score"].tolist() == [2, 3]
    assert frame["ok"].tolist() == [True, False]


def test_jsonl_blank_lines_are_skipped_and_lines_count_from_one():
    path = write_bytes("a.jsonl", '{"attempt": "a"}\n\n   \n{"attempt": null}\n')
    err = read_error(path)
    assert str(err) == "a.jsonl: line 4: attempt: expected a string, got null"
    assert (err.location, err.field) == ("line 4", "attempt")


def test_jsonl_null_attempt_names_the_id():
    err = read_error(write_jsonl("a.jsonl", [{"id": "A", "attempt": "x"}, {"id": "B", "attempt": None}]))
    assert str(err) == "a.jsonl: line 2 (id B): attempt: expected a string, got null"
    assert err.row_id == "B"


def test_jsonl_attempt_missing_on_one_line():
    err = read_error(write_jsonl("a.jsonl", [{"attempt": "x"}, {"id": "B"}]))
    assert str(err) == "a.jsonl: line 2 (id B): attempt: expected a string, got null"


@pytest.mark.parametrize("value, shown", [(5, "5"), (True, "true"), (["a"], '["a"]'), ({"t": "a"}, '{"t": "a"}')])
def test_jsonl_attempt_that_is_not_a_string(value, shown):
    err = read_error(write_jsonl("a.jsonl", [{"attempt": "x"}, {"attempt": value}]))
    assert str(err) == f"a.jsonl: line 2: attempt: expected a string, got {shown}"


def test_jsonl_missing_attempt_column():
    err = read_error(write_jsonl("a.jsonl", [{"id": "A", "text": "x"}]))
    assert str(err) == "a.jsonl: attempt: missing column 'attempt' (columns: id, text)"


def test_jsonl_null_id():
    err = read_error(write_jsonl("a.jsonl", [{"id": 1, "attempt": "x"}, {"attempt": "y"}]))
    assert str(err) == "a.jsonl: line 2: id: expected an id, got null"


def test_jsonl_duplicate_id_across_types():
    err = read_error(write_jsonl("a.jsonl", [{"id": 1, "attempt": "x"}, {"id": "1", "attempt": "y"}]))
    assert str(err) == "a.jsonl: line 2 (id 1): id: duplicate id (first used at line 1)"


def test_jsonl_invalid_json():
    err = read_error(write_bytes("a.jsonl", '{"attempt": "a"}\n{"attempt": "b"\n'))
    assert str(err).startswith("a.jsonl: line 2: not valid JSON (")
    assert err.location == "line 2"


def test_jsonl_line_that_is_not_an_object():
    err = read_error(write_bytes("a.jsonl", '{"attempt": "a"}\n["b"]\n'))
    assert str(err) == "a.jsonl: line 2: expected a JSON object, got list"


def test_jsonl_not_utf8():
    err = read_error(write_bytes("a.jsonl", b'{"attempt": "a"}\n{"attempt": "\xff"}\n'))
    assert str(err).startswith("a.jsonl: line 2: not UTF-8 text")


def test_jsonl_empty_file_is_an_empty_table():
    frame = read_attempts(write_bytes("a.jsonl", b""))
    assert frame.columns.tolist() == ["id", "attempt"]
    assert len(frame) == 0


def test_jsonl_repeated_key_is_an_error():
    err = read_error(write_bytes("a.jsonl", '{"attempt": "first", "attempt": "second"}\n'))
    assert (err.location, err.field) == ("line 1", "attempt")


# --- Parquet -----------------------------------------------------------------------------
def test_parquet_strings_ids_and_carried_columns():
    path = write_parquet("a.parquet", {"attempt": ["a", ""], "id": ["007", "008"], "n": [1, 2]})
    frame = read_attempts(path)
    assert frame.columns.tolist() == ["id", "attempt", "n"]
    assert values(frame) == [["007", "a", 1], ["008", "", 2]]
    assert frame["attempt"].dtype == STRING
    assert frame["n"].dtype == np.int64


def test_parquet_integer_ids_become_strings():
    frame = read_attempts(write_parquet("a.parquet", {"id": [7, 8], "attempt": ["a", "b"]}))
    assert frame["id"].tolist() == ["7", "8"]
    assert frame["id"].dtype == STRING


def test_parquet_large_string_attempts():
    frame = read_attempts(write_parquet("a.parquet", {"attempt": pa.array(["a", "b"], pa.large_string())}))
    assert values(frame) == [["0", "a"], ["1", "b"]]


def test_parquet_null_attempt_names_the_row():
    err = read_error(write_parquet("a.parquet", {"id": ["A", "B"], "attempt": ["x", None]}))
    assert str(err) == "a.parquet: row 1 (id B): attempt: expected a string, got null"


def test_parquet_attempt_column_that_is_not_text():
    err = read_error(write_parquet("a.parquet", {"attempt": [1, 2]}))
    assert str(err) == "a.parquet: attempt: expected a string column, got int64"


def test_parquet_duplicate_id():
    err = read_error(write_parquet("a.parquet", {"id": ["A", "A"], "attempt": ["x", "y"]}))
    assert str(err) == "a.parquet: row 1 (id A): id: duplicate id (first used at row 0)"


def test_parquet_missing_attempt_column():
    err = read_error(write_parquet("a.parquet", {"text": ["x"]}))
    assert str(err) == "a.parquet: attempt: missing column 'attempt' (columns: text)"


def test_file_that_is_not_parquet():
    err = read_error(write_bytes("a.parquet", "attempt\nx\n"))
    assert str(err).startswith("a.parquet: not a readable Parquet file (")


# --- files and extensions ----------------------------------------------------------------
def test_missing_file():
    err = read_error("nope.csv")
    assert str(err) == "nope.csv: no such file"


@pytest.mark.parametrize("name", ["a.txt", "a.json", "a"])
def test_unknown_extension(name):
    write_bytes(name, "attempt\nx\n")
    with pytest.raises(UsageError) as caught:
        read_attempts(name)
    assert str(caught.value).startswith(f"{name}: an attempts file must end in .csv, .jsonl, .parquet")


def test_extension_case_is_ignored():
    frame = read_attempts(write_bytes("A.CSV", "attempt\nx\n"))
    assert frame["attempt"].tolist() == ["x"]
