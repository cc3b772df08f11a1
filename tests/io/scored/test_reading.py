"""Reading scored files back (CSV, JSONL, Parquet): typed, checked, every fault named by file, row,
id and column."""

from __future__ import annotations

import os

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb import load_benchmark, score_benchmark
from recallscore_nb.analysis.system_tables import system_table
from recallscore_nb.analysis.summary import read_scored
from recallscore_nb.core.equivalence import LABELS
from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.data import DATA_DIR
from recallscore_nb.io.scored import write_scored
from tests.scored_fixtures import RULES, SCORED, read_error, write


SYSTEMS = DATA_DIR / "attempts" / "four_fact_systems.csv"


@pytest.fixture(scope="module")
def scored() -> pd.DataFrame:
    """The shipped systems' attempts scored against the shipped benchmark (one item)."""
    return score_benchmark(load_benchmark(), read_attempts(str(SYSTEMS)))


# A scored items file by hand: q3 has no checklist (its checklist fields are empty).
ITEMS_CSV = """\
id,item,system,attempt,literal_match,normalized_match,squad_exact_match,token_f1,facts_present,facts_total,checklist_full_match,facts_missing,contains,equivalent,equivalent_step
r1,q1,a,x,true,true,true,1.0,2,2,true,,true,true,exact
r2,q2,a,x,false,true,true,0.5,1,2,false,place,true,true,exact
r3,q3,a,x,TRUE,True,true,1,,,,,true,true,exact
r4,q1,b,x,false,false,false,0.25,1,2,false,time,false,false,none
r5,q2,b,x,false,false,true,0.5,2,2,true,,true,true,contains
r6,q3,b,x,false,false,false,0,,,,,false,false,negation
"""


STEP_NAMES = ", ".join(LABELS)
"""The names an ``equivalent_step`` value may be: exact, contains, …, negation, …, none."""


def _write(tmp_path, text: str, name: str = "scored.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- reading ---------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_every_format_reads_back_to_the_same_table(tmp_path, scored, suffix):
    path = tmp_path / f"scored{suffix}"
    write_scored(scored, str(path))
    frame = read_scored(path)
    assert frame["literal_match"].dtype == "boolean"
    assert frame["facts_total"].dtype == "Int64"
    assert frame["equivalent_step"].tolist() == scored["equivalent_step"].tolist()
    expected = system_table(scored, resamples=200, seed=1)
    assert system_table(frame, resamples=200, seed=1).equals(expected)


def test_csv_true_false_and_empty_checklists(tmp_path):
    frame = read_scored(_write(tmp_path, ITEMS_CSV))
    assert frame["literal_match"].tolist() == [True, False, True, False, False, False]
    assert frame["checklist_full_match"].isna().tolist() == [False, False, True, False, False, True]
    assert frame["facts_total"].tolist()[:3] == [2, 2, pd.NA]
    assert frame["token_f1"].tolist() == [1.0, 0.5, 1.0, 0.25, 0.5, 0.0]
    assert frame["equivalent_step"].tolist() == ["exact", "exact", "exact", "none",
                                                 "contains", "negation"]
    table = system_table(frame, resamples=100, seed=0).set_index(["system", "rule"])
    # a, partial credit: q1 = 2/2, q2 = 1/2; q3 has no checklist -> 3/4, one row excluded
    assert table.loc[("a", "partial_credit"), ["mean", "items", "excluded"]].tolist() == [
        0.75, 2, 1]
    assert table.loc[("b", "token_f1"), "mean"] == pytest.approx((0.25 + 0.5 + 0) / 3)


@pytest.mark.parametrize(
    ("edit", "kwargs", "message"),
    [
        (("system", "system_name"), {},
         "scored.csv: system: missing column 'system' (columns: id, item, "),
        (("token_f1,", "f1,"), {}, "scored.csv: token_f1: missing column 'token_f1'"),
        (("r2,q2,a,x,false", "r2,q2,a,x,maybe"), {},
         "scored.csv: row 1 (id r2): literal_match: expected true or false, got 'maybe'"),
        (("r4,q1,b,x,false", "r4,q1,b,x,"), {},
         "scored.csv: row 3 (id r4): literal_match: expected true or false, got empty"),
        (("0.5,1,2", "1.5,1,2"), {},
         "scored.csv: row 1 (id r2): token_f1: expected a number from 0 to 1, got '1.5'"),
        (("0.25,1,2", "0.25,3,2"), {},
         "scored.csv: row 3 (id r4): facts_present: expected at most facts_total, got 3"),
        (("r5,q2,b", "r5,q2,"), {},
         "scored.csv: row 4 (id r5): system: expected a name, got empty"),
        (("true,contains", "true,Contains"), {},
         f"scored.csv: row 4 (id r5): equivalent_step: expected one of {STEP_NAMES}, "
         "got 'Contains'"),
        (("false,none", "false,"), {},
         f"scored.csv: row 3 (id r4): equivalent_step: expected one of {STEP_NAMES}, got empty"),
        (("", ""), {"by": "model"}, "scored.csv: model: missing column 'model'"),
    ],
)
def test_bad_scored_files_say_where(tmp_path, edit, kwargs, message):
    old, new = edit
    path = _write(tmp_path, ITEMS_CSV.replace(old, new, 1) if old else ITEMS_CSV)
    with pytest.raises(InputFileError) as info:
        read_scored(path, **kwargs)
    assert str(info.value).startswith(str(tmp_path / message.split(":")[0]))
    assert message in str(info.value)


def test_a_rule_not_asked_for_need_not_be_present(tmp_path):
    path = _write(tmp_path, "system,token_f1\na,0.5\n")
    assert read_scored(path, rules=["token_f1"])["token_f1"].tolist() == [0.5]


def test_jsonl_missing_column_and_null_value(tmp_path):
    path = _write(tmp_path, '{"system": "a", "token_f1": null}\n', "s.jsonl")
    with pytest.raises(InputFileError) as info:
        read_scored(path, rules=["token_f1"])
    assert info.value.location == "row 0" and info.value.field == "token_f1"
    assert info.value.got == "null"


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [("scored.txt", UsageError, "a scored file must end in .csv, .jsonl, .parquet (got '.txt')"),
     ("absent.csv", InputFileError, "absent.csv: no such file")],
)
def test_unreadable_paths(tmp_path, name, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_scored(tmp_path / name)


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


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


def test_jsonl_label_column_is_text_of_its_names():
    text = ('{"system": "a", "equivalent": true, "equivalent_step": "number"}\n'
            '{"system": "b", "equivalent": false, "equivalent_step": "none"}\n')
    frame = read_scored(write("s.jsonl", text), rules=["equivalent"])
    assert frame["equivalent_step"].tolist() == ["number", "none"]
    err = read_error(write("t.jsonl", text.replace('"none"', "3")), rules=["equivalent"])
    assert (err.location, err.field, err.got) == ("row 1", "equivalent_step", "3")


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
