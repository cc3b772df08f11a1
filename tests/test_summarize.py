"""``recallscore summarize``'s logic: reading scored files (CSV, JSONL, Parquet) with errors
that say where, and the tables it prints or writes (CSV, Markdown, LaTeX)."""

from __future__ import annotations

import hashlib

import pandas as pd
import pytest

from recallscore_nb import __version__, load_benchmark, score_benchmark
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.scored import write_scored
from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.data import DATA_DIR
from recallscore_nb.analysis.stats import system_table
from recallscore_nb.analysis.summary import PAIRED_COLUMNS, read_scored
from recallscore_nb.cli.handlers import summarize_command

V = __version__
SYSTEMS = DATA_DIR / "attempts" / "four_fact_systems.csv"


@pytest.fixture(scope="module")
def scored() -> pd.DataFrame:
    """The shipped systems' attempts scored against the shipped benchmark (one item)."""
    return score_benchmark(load_benchmark(), read_attempts(str(SYSTEMS)))


# A scored items file by hand: q3 has no checklist (its checklist fields are empty).
ITEMS_CSV = """\
id,item,system,attempt,literal_match,normalized_match,squad_exact_match,token_f1,facts_present,facts_total,checklist_full_match,facts_missing
r1,q1,a,x,true,true,true,1.0,2,2,true,
r2,q2,a,x,false,true,true,0.5,1,2,false,place
r3,q3,a,x,TRUE,True,true,1,,,,
r4,q1,b,x,false,false,false,0.25,1,2,false,time
r5,q2,b,x,false,false,true,0.5,2,2,true,
r6,q3,b,x,false,false,false,0,,,,
"""


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
    expected = system_table(scored, resamples=200, seed=1)
    assert system_table(frame, resamples=200, seed=1).equals(expected)


def test_csv_true_false_and_empty_checklists(tmp_path):
    frame = read_scored(_write(tmp_path, ITEMS_CSV))
    assert frame["literal_match"].tolist() == [True, False, True, False, False, False]
    assert frame["checklist_full_match"].isna().tolist() == [False, False, True, False, False, True]
    assert frame["facts_total"].tolist()[:3] == [2, 2, pd.NA]
    assert frame["token_f1"].tolist() == [1.0, 0.5, 1.0, 0.25, 0.5, 0.0]
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


# --- the command ------------------------------------------------------------------------------
def test_stdout_markdown_with_notes(tmp_path, scored):
    path = tmp_path / "scored.csv"
    write_scored(scored, str(path))
    lines = summarize_command(path, resamples=500, seed=7)
    text = "\n".join(lines)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    assert lines[0] == "system means per rule, 95% percentile bootstrap interval"
    assert "| system   | rule" in text
    assert f"scored: {path} (120 rows, sha256 {sha})" in text
    assert f"bootstrap|ci:percentile-95|unit:attempt|n:500|seed:7|version:{V}" in text
    assert "saturated rules (two best >= 0.95, intervals overlap): " in text
    assert len([line for line in lines if line.startswith("| sys-")]) == 5 * 6


def test_stdout_paired_with_mcnemar(tmp_path):
    path = _write(tmp_path, ITEMS_CSV)
    text = "\n".join(summarize_command(path, rules=["literal_match", "token_f1"],
                                       paired=["a", "b"], resamples=300, seed=1))
    assert "paired comparison of a and b" in text
    # literal: a right on q1, q3; b right on none -> b = 2, c = 0, p = 2 * (1/2)**2
    assert "| literal_match | a   | b   | 3       | 0.667    | 0.000    | 0.667" in text
    assert "| 2                | 0                | 0.5" in text
    assert f"mcnemar|exact:binomial|sided:two|version:{V}" in text
    assert "no McNemar test for token_f1: not a binary rule" in text
    assert f"bootstrap|ci:percentile-95|unit:item-difference|n:300|seed:1|version:{V}" in text


@pytest.mark.parametrize("suffix", [".csv", ".md", ".tex"])
def test_out_writes_by_extension_and_the_paired_table_beside_it(tmp_path, suffix):
    path = _write(tmp_path, ITEMS_CSV)
    out = tmp_path / "out" / f"summary{suffix}"
    lines = summarize_command(path, paired=("a", "b"), out=out, resamples=200, seed=3)
    paired = tmp_path / "out" / f"summary.paired{suffix}"
    assert lines[:2] == [f"wrote {out} (12 rows)", f"wrote {paired} (6 rows)"]
    signature = f"bootstrap|ci:percentile-95|unit:item|n:200|seed:3|version:{V}"
    assert signature in lines
    text, paired_text = out.read_text(), paired.read_text()
    if suffix == ".csv":
        table = pd.read_csv(out)
        assert table.columns.tolist() == ["system", "rule", "items", "attempts", "excluded",
                                          "mean", "low", "high", "unit"]
        assert pd.read_csv(paired).columns.tolist() == PAIRED_COLUMNS
        assert "bootstrap|" not in text
    elif suffix == ".md":
        assert text.startswith("| system ") and signature in text
        assert paired_text.startswith("| rule ")
    else:
        assert "\\toprule" in text and f"% {signature}" in text
        assert "checklist\\_full\\_match" in text


def test_same_seed_same_output(tmp_path):
    path = _write(tmp_path, ITEMS_CSV)
    first = summarize_command(path, paired=("a", "b"), resamples=100, seed=5)
    assert summarize_command(path, paired=("a", "b"), resamples=100, seed=5) == first


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"out": "summary.json"}, UsageError, "--out must end in .csv, .md, .tex (got '.json')"),
        ({"paired": ("a", "c")}, UsageError, "--paired: no system 'c' in "),
        ({"rules": ["f1"]}, UsageError, "unknown rule 'f1'"),
        ({"seed": -1}, UsageError, "'seed' must be an int >= 0 (got -1)"),
    ],
)
def test_command_usage_errors(tmp_path, kwargs, error, message):
    with pytest.raises(error) as info:
        summarize_command(_write(tmp_path, ITEMS_CSV), **kwargs)
    assert message in str(info.value)


def test_no_rows_is_an_input_error(tmp_path):
    path = _write(tmp_path, ITEMS_CSV.split("\n")[0] + "\n")
    with pytest.raises(InputFileError, match="no scored rows to summarize"):
        summarize_command(path)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_score_items_output_reads_back_with_its_empty_checklists(tmp_path, suffix):
    from recallscore_nb.core.items import Item, Items
    from recallscore_nb.core.facts import Fact
    from recallscore_nb.core.scoring import score_items

    items = Items("demo", "", (Item("q1", ("The west drawer.",), (Fact("place", ("west",)),)),
                               Item("q2", ("Paris", "Lutetia"), None)))
    attempts = pd.DataFrame({"system": ["a", "a", "b", "b"], "item": ["q1", "q2"] * 2,
                             "attempt": ["west drawer", "Paris", "east drawer", "Rome"]})
    scored = score_items(items, attempts)
    path = tmp_path / f"scored{suffix}"
    write_scored(scored, str(path))
    table = system_table(read_scored(path), resamples=100, seed=0).set_index(["system", "rule"])
    assert table.equals(system_table(scored, resamples=100, seed=0).set_index(["system", "rule"]))
    assert table.loc[("a", "checklist_full_match"), ["items", "excluded", "mean"]].tolist() == [
        1, 1, 1.0]
    assert table.loc[("b", "normalized_match"), ["items", "mean"]].tolist() == [2, 0.0]
