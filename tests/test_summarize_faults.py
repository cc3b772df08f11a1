"""Faults in ``recallscore summarize`` found by issues 8 and 9: scored CSV read by the one
strict reader (a byte-order mark, bare-CR line ends, an unterminated quote), regular files only,
JSONL and Parquet that repeat a name, a resample count that cannot fit in memory, an output
that is the input, and an attempts file given where a scored file belongs."""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.analysis.summary import MAX_RESAMPLES, read_scored
from recallscore_nb.cli.handlers import summarize_command

SCORED = [
    "system,id,literal_match,token_f1",
    "01,r1,true,1.0",
    "1,r2,false,0.5",
    "01,r3,true,0.25",
]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def write(name: str, content: bytes | str) -> str:
    with open(name, "wb") as fh:
        fh.write(content.encode("utf-8") if isinstance(content, str) else content)
    return name


def read_error(name: str, **kwargs) -> InputFileError:
    with pytest.raises(InputFileError) as caught:
        read_scored(name, **kwargs)
    return caught.value


RULES = ["literal_match", "token_f1"]


# --- the strict CSV reader of attempts.py --------------------------------------------------
def test_bom_keeps_every_column_text():
    frame = read_scored(write("s.csv", b"\xef\xbb\xbf" + "\n".join(SCORED).encode() + b"\n"),
                        rules=RULES)
    assert frame["system"].tolist() == ["01", "1", "01"]
    assert frame["id"].tolist() == ["r1", "r2", "r3"]


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_line_ends_cr_and_crlf(end):
    frame = read_scored(write("s.csv", end.join(SCORED) + end), rules=RULES)
    assert frame["literal_match"].tolist() == [True, False, True]
    assert frame["token_f1"].tolist() == [1.0, 0.5, 0.25]


def test_unterminated_quote_is_refused():
    err = read_error(write("s.csv", "\n".join(SCORED[:2] + ['"01,r3,true,0.25']) + "\n"),
                     rules=RULES)
    assert err.location == "line 3" and "unterminated quoted field" in str(err)


def test_repeated_csv_column_is_refused():
    err = read_error(write("s.csv", "system,token_f1,token_f1\na,1,1\n"), rules=["token_f1"])
    assert str(err) == "s.csv: line 1: token_f1: column named twice in the header"


# --- regular files only ------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_device_is_refused(suffix):
    os.symlink("/dev/zero", f"zero{suffix}")
    err = read_error(f"zero{suffix}")
    assert str(err) == f"zero{suffix}: not a regular file (a character device); give a file"


# --- JSONL and Parquet -------------------------------------------------------------------------
def test_jsonl_repeated_key_is_refused():
    err = read_error(write("s.jsonl", '{"system": "a", "token_f1": 1.0, "token_f1": 0.0}\n'),
                     rules=["token_f1"])
    assert (err.location, err.field) == ("line 1", "token_f1")


def test_jsonl_nested_deeply_is_one_line():
    line = '{"system": "a", "token_f1": 1.0, "x": ' + "[" * 10_000 + "]" * 10_000 + "}\n"
    err = read_error(write("s.jsonl", line), rules=["token_f1"])
    assert err.location.startswith("line 1 ") and "nested more than 512 levels" in str(err)


def test_jsonl_reads_typed_values():
    text = ('{"system": "a", "literal_match": true, "token_f1": 1}\n\n'
            '{"system": "b", "literal_match": false, "token_f1": 0.5}\n')
    frame = read_scored(write("s.jsonl", text), rules=RULES)
    assert frame["literal_match"].tolist() == [True, False]
    assert frame["token_f1"].tolist() == [1.0, 0.5]


def test_jsonl_nan_is_not_json():
    err = read_error(write("s.jsonl", '{"system": "a", "token_f1": 1.0}\n'
                                      '{"system": "a", "token_f1": NaN}\n'), rules=["token_f1"])
    assert str(err) == "s.jsonl: line 2: token_f1: expected a finite number, got NaN"


def test_jsonl_nan_inside_text_is_text():
    frame = read_scored(write("s.jsonl", '{"system": "NaN", "token_f1": 1.0}\n'), rules=["token_f1"])
    assert frame["system"].tolist() == ["NaN"]


def test_jsonl_column_of_mixed_types_is_read_value_by_value():
    text = ('{"system": "a", "literal_match": true, "token_f1": 1}\n'
            '{"system": 2, "literal_match": "false", "token_f1": "0.5"}\n')
    frame = read_scored(write("s.jsonl", text), rules=RULES)
    assert frame["system"].tolist() == ["a", "2"]
    assert frame["literal_match"].tolist() == [True, False]
    assert frame["token_f1"].tolist() == [1.0, 0.5]


def test_jsonl_empty_file():
    assert str(read_error(write("s.jsonl", "\n"))) == "s.jsonl: empty file: no scored rows to summarize"


def test_parquet_repeated_column_is_one_line():
    table = pa.Table.from_arrays([pa.array(["a"]), pa.array([1.0]), pa.array([0.5])],
                                 names=["system", "token_f1", "token_f1"])
    pq.write_table(table, "s.parquet")
    err = read_error("s.parquet", rules=["token_f1"])
    assert str(err) == "s.parquet: token_f1: column named twice in the file"


# --- the command -------------------------------------------------------------------------------
def test_too_many_resamples_is_a_usage_error_naming_the_limit():
    path = write("s.csv", "\n".join(SCORED) + "\n")
    with pytest.raises(UsageError) as caught:
        summarize_command(path, rules=RULES, resamples=1_000_000_000)
    assert str(caught.value).startswith(
        f"'resamples' must be at most {MAX_RESAMPLES:,} (got 1,000,000,000): ")
    assert MAX_RESAMPLES == 1_000_000


def test_too_many_resamples_on_the_command_line(capsys):
    path = write("s.csv", "\n".join(SCORED) + "\n")
    assert main(["summarize", path, "--resamples", "1000000000"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("recallscore: error: 'resamples' must be at most 1,000,000 ")
    assert len(err.splitlines()) == 1


def test_out_that_is_the_input_is_refused_and_left_alone():
    text = "\n".join(SCORED) + "\n"
    path = write("s.csv", text)
    with pytest.raises(UsageError, match="--out ./s.csv is the scored input s.csv"):
        summarize_command(path, rules=RULES, out="./s.csv", resamples=10)
    assert open(path).read() == text


def test_paired_out_that_is_the_input_is_refused():
    path = write("s.paired.csv", "\n".join(SCORED) + "\n")
    with pytest.raises(UsageError, match="s.paired.csv"):
        summarize_command(path, rules=RULES, out="s.csv", paired=("01", "1"), resamples=10)
    assert not os.path.exists("s.csv")


def test_an_attempts_file_says_to_score_it_first():
    path = write("attempts.csv", "id,system,attempt\nr1,a,Paris\n")
    err = read_error(path)
    assert str(err) == ("attempts.csv: not a scored file (no rule column such as "
                        "'literal_match'; columns: id, system, attempt): run 'recallscore "
                        "score' first")


def test_a_scored_file_without_one_rule_still_names_the_column():
    err = read_error(write("s.csv", "system,literal_match\na,true\n"), rules=RULES)
    assert str(err).startswith("s.csv: token_f1: missing column 'token_f1' (columns: ")
