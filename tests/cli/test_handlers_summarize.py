"""recallscore summarize, end to end: Markdown on stdout with its notes, files by extension, the
paired table, and what is refused."""

from __future__ import annotations

import hashlib
import os

import pandas as pd
import pytest

from recallscore_nb import __version__, load_benchmark, score_benchmark
from recallscore_nb.analysis.summary import PAIRED_COLUMNS
from recallscore_nb.cli.handlers import summarize_command
from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.data import DATA_DIR
from recallscore_nb.io.scored import write_scored
from tests.scored_fixtures import RULES, SCORED, read_error, write


V = __version__


SYSTEMS = DATA_DIR / "attempts" / "four_fact_systems.csv"


@pytest.fixture(scope="module")
def scored() -> pd.DataFrame:
    """The shipped systems' attempts scored against the shipped benchmark (one item)."""
    return score_benchmark(load_benchmark(), read_attempts(str(SYSTEMS)))


# A scored items file by hand: q3 has no checklist (its checklist fields are empty).
ITEMS_CSV = """\
id,item,system,attempt,literal_match,normalized_match,squad_exact_match,token_f1,contains,facts_present,facts_total,checklist_full_match,facts_missing,equivalent,equivalent_step
r1,q1,a,x,true,true,true,1.0,true,2,2,true,,true,exact
r2,q2,a,x,false,true,true,0.5,true,1,2,false,place,true,exact
r3,q3,a,x,TRUE,True,true,1,true,,,,,true,exact
r4,q1,b,x,false,false,false,0.25,false,1,2,false,time,false,none
r5,q2,b,x,false,false,true,0.5,true,2,2,true,,true,contains
r6,q3,b,x,false,false,false,0,false,,,,,false,negation
"""


def _write(tmp_path, text: str, name: str = "scored.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


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
    assert len([line for line in lines if line.startswith("| sys-")]) == 5 * 8


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
    assert lines[:2] == [f"wrote {out} (16 rows)", f"wrote {paired} (8 rows)"]  # 8 measures
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


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


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
