"""Faults in reading tabular files found by issue 9: a byte-order mark or a quoted header
that lost the string typing, an unterminated quote that swallowed every later row, huge
fields, bare-CR line ends, quadratic duplicate-name checks, Parquet files that repeat a column
name, JSONL that is not plain JSON.

Every test runs in ``tmp_path``, so messages name the file as given ("a.csv").
"""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.io.attempts import read_attempts
from tests.attempts_fixtures import read_error, write_bytes

BOM = b"\xef\xbb\xbf"

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_bom_before_the_attempt_column_keeps_attempts_as_written():
    frame = read_attempts(write_bytes("a.csv", BOM + b"attempt\n007\n1.50\n"))
    assert frame.columns.tolist() == ["id", "attempt"]
    assert frame["attempt"].tolist() == ["007", "1.50"]


def test_bom_before_the_id_column_keeps_ids_as_written():
    frame = read_attempts(write_bytes("a.csv", BOM + b"id,attempt\n007,a\n0010,b\n7,c\n10,d\n"))
    assert frame["id"].tolist() == ["007", "0010", "7", "10"]


def test_only_one_bom_is_stripped():
    frame = read_attempts(write_bytes("a.csv", BOM + BOM + b"x,attempt\n1,a\n"))
    assert frame.columns.tolist() == ["id", "attempt", "\ufeffx"]


def test_quoted_header_with_a_line_break_keeps_every_column_text():
    frame = read_attempts(write_bytes("a.csv", '"my\nnote",attempt,id\n007,1.50,0010\n'))
    assert frame.columns.tolist() == ["id", "attempt", "my\nnote"]
    assert frame.astype(object).values.tolist() == [["0010", "1.50", "007"]]


def test_numbers_as_column_names_keep_values_text():
    frame = read_attempts(write_bytes("a.csv", "attempt,1,2.5\n007,08,1e3\n"))
    assert frame.columns.tolist() == ["id", "attempt", "1", "2.5"]
    assert frame.astype(object).values.tolist() == [["0", "007", "08", "1e3"]]


def test_closed_quotes_at_the_end_are_fine():
    frame = read_attempts(write_bytes("a.csv", 'attempt,note\n"a ""b""","c\nd"'))
    assert frame.astype(object).values.tolist() == [["0", 'a "b"', "c\nd"]]


def test_unterminated_quote_in_the_header():
    err = read_error(write_bytes("a.csv", 'attempt,"note\nx,y\n'))
    assert err.location == "line 1"


def test_unterminated_quote_is_refused_naming_the_line_it_opened():
    err = read_error(write_bytes("a.csv", 'id,attempt\n1,"oops\n2,b\n3,c\n'))
    assert str(err) == ("a.csv: line 2: unterminated quoted field: the quote opened here is "
                        "never closed, so every later line would be part of this field")
    assert err.location == "line 2"


def test_unterminated_quote_without_a_final_line_break():
    err = read_error(write_bytes("a.csv", 'attempt\na\n"b'))
    assert err.location == "line 3"


def test_unterminated_quote_after_a_closed_multi_line_field_in_the_same_row():
    content = 'note,attempt\n"x\ny",ok\n"multi\nline","open\nrest\n'
    err = read_error(write_bytes("a.csv", content))
    assert err.location == "line 5"


def test_unterminated_quote_ending_in_an_escaped_quote():
    err = read_error(write_bytes("a.csv", 'attempt\nfine\n"say ""hi""'))
    assert err.location == "line 3"


def test_a_10_mb_field_is_read():
    big = "word " * 2_000_000
    frame = read_attempts(write_bytes("a.csv", f'attempt,system\n"{big}",x\nb,y\n'))
    assert [len(a) for a in frame["attempt"]] == [len(big), 1]


def test_a_bad_line_after_a_10_mb_field_is_located():
    big = "word " * 2_000_000
    err = read_error(write_bytes("a.csv", f'attempt,system\n"{big}",x\nb,y,z\n'))
    assert str(err) == "a.csv: line 3: expected 2 fields as in the header, got 3"


@pytest.mark.parametrize("end", [b"\r", b"\n", b"\r\n"])
def test_every_line_end_reads_the_same(end):
    content = end.join([b"id,attempt", b"1,a", b'2,"b' + end + b'c"', b"3,d", b""])
    frame = read_attempts(write_bytes("a.csv", content))
    assert frame["id"].tolist() == ["1", "2", "3"]
    assert frame["attempt"].tolist() == ["a", "b" + end.decode() + "c", "d"]


def test_a_bad_line_in_a_bare_cr_file_is_located():
    err = read_error(write_bytes("a.csv", b"id,attempt\r1,a\r2,b,c\r"))
    assert str(err) == "a.csv: line 3: expected 2 fields as in the header, got 3"


def test_wide_header_with_a_repeated_name_is_refused_quickly():
    names = ["attempt"] + [f"c{i}" for i in range(200_000)] + ["c7"]
    err = read_error(write_bytes("a.csv", ",".join(names) + "\n"))
    # no timed assertion: a quadratic check took 38 s on 50,000 names, minutes on these
    assert (err.location, err.field) == ("line 1", "c7")
    assert str(err) == "a.csv: line 1: c7: column named twice in the header"


def test_header_names_differing_only_in_bad_bytes_are_a_bad_byte_not_a_repeat():
    err = read_error(write_bytes("a.csv", b"attempt,a\xff,a\xfe\nx,y,z\n"))
    assert str(err) == "a.csv: line 1: not UTF-8 text (byte 9)"


def test_wide_header_without_repeats_is_read():
    names = ["attempt"] + [f"c{i}" for i in range(50_000)]
    frame = read_attempts(write_bytes("a.csv", ",".join(names) + "\n" + ",".join(["7"] * len(names)) + "\n"))
    assert frame.shape == (1, len(names) + 1)
    assert frame["c49999"].tolist() == ["7"]


def test_jsonl_line_with_many_keys_and_a_repeat_is_refused_quickly():
    keys = "".join(f', "k{i}": {i}' for i in range(100_000))
    err = read_error(write_bytes("a.jsonl", '{"attempt": "x"' + keys + ', "k5": 0}\n'))
    # no timed assertion: a quadratic check took 3.9 s on 20,000 keys, minutes on these
    assert (err.location, err.field) == ("line 1", "k5")


def test_parquet_repeated_column_is_one_line_naming_it():
    table = pa.Table.from_arrays([pa.array(["a"]), pa.array(["x"]), pa.array([1])],
                                 names=["attempt", "system", "system"])
    pq.write_table(table, "a.parquet")
    err = read_error("a.parquet")
    assert str(err) == "a.parquet: system: column named twice in the file"
    assert "\n" not in str(err)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_jsonl_non_finite_number_is_refused(token):
    err = read_error(write_bytes("a.jsonl", '{"attempt": "x"}\n{"attempt": "y", "score": %s}\n' % token))
    assert (err.location, err.field) == ("line 2", "score")
    assert str(err).endswith(f"expected a finite number, got {token}")


def test_jsonl_nested_too_deeply_is_one_line():
    err = read_error(write_bytes("a.jsonl", '{"attempt": "x"}\n{"attempt": "x", "n": ' + "[" * 100_000 + "]" * 100_000 + "}\n"))
    assert err.location.startswith("line 2 ")
    assert "nested more than 512 levels deep" in str(err)


def test_jsonl_huge_integer_is_one_line():
    err = read_error(write_bytes("a.jsonl", '{"attempt": "x", "n": ' + "9" * 5000 + "}\n"))
    assert err.location == "line 1"
    assert "digits" in str(err)


def test_jsonl_lone_surrogate_is_refused_naming_the_field():
    err = read_error(write_bytes("a.jsonl", '{"attempt": "ok \\ud83d\\ude00"}\n{"attempt": "bad \\ud800"}\n'))
    assert (err.location, err.field) == ("line 2", "attempt")
    assert "lone surrogate" in str(err)


def test_jsonl_surrogate_pair_is_one_character():
    frame = read_attempts(write_bytes("a.jsonl", '{"attempt": "\\ud83d\\ude00", "n": {"k": "\\uD83D\\uDE00"}}\n'))
    assert frame["attempt"].tolist() == ["\U0001F600"]
    assert json.dumps(frame["n"][0], ensure_ascii=False) == '{"k": "\U0001F600"}'
