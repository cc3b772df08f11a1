"""``recallscore convert efficientqa`` (issue 30): every line checked for shape and type and
every fault named by its line and field, all of them reported and nothing written; a text
rated in two lists of one question refused; "possibly correct" written as what it is, three
judges over the same attempts; and the real file converted whole.

Every test runs in ``tmp_path``: messages name the file as given (``eqa.jsonl``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.converters.efficientqa import EFFICIENTQA_JUDGES, EFFICIENTQA_SYSTEM
from recallscore_nb.io.converters import convert_efficientqa
from recallscore_nb.io.human_sets import read_judged_sets
from tests.conftest import run_cli
from tests.human_judgments import HUMAN_JUDGMENTS, needs_data

pytestmark = pytest.mark.usefixtures("in_tmp")

RECORD = {"question": "who sang it", "answer": ["Guy Henry", " actor Guy Henry's"],
          "def_correct_predictions": ["guy henry (actor)"],
          "poss_correct_predictions": ["Henry"],
          "def_incorrect_predictions": ["Peter Cushing", "ç\u00e9l\tine"],
          "answer_and_def_correct_predictions": ["Guy Henry", " actor Guy Henry's",
                                                 "guy henry (actor)"]}


def write(*records: dict, name: str = "eqa.jsonl") -> str:
    Path(name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return name


def faults(*records: dict) -> list[str]:
    """Every fault of converting ``records``; the conversion must write nothing."""
    with pytest.raises(InputFileError) as info:
        convert_efficientqa(write(*records), "out")
    assert not Path("out").exists()
    return [str(e) for e in info.value.errors]


def test_each_rated_prediction_is_one_attempt_with_a_verdict_of_each_reading():
    lines = convert_efficientqa(write(RECORD, {**RECORD, "def_correct_predictions": [],
                                               "poss_correct_predictions": [],
                                               "def_incorrect_predictions": []}), "out")
    assert lines == [
        f"kept 2 items, 4 attempts (one per rated prediction, system {EFFICIENTQA_SYSTEM}): "
        "1 def_correct_predictions, 1 poss_correct_predictions, 2 def_incorrect_predictions",
        "judges: human, human-strict, human-lenient (possibly correct: no verdict, false, true)",
        "left out: nothing; 1 items have no rated prediction"]
    items = [json.loads(line) for line in Path("out/items.jsonl").read_text().splitlines()]
    assert items[0] == {"item": "efficientqa-0001", "question": "who sang it",
                        "referenceAnswer": ["Guy Henry", "actor Guy Henry's"]}
    assert items[1]["item"] == "efficientqa-0002"
    attempts = pd.read_parquet("out/attempts.parquet")
    assert attempts["attempt"].tolist() == ["guy henry (actor)", "Henry", "Peter Cushing",
                                            "ç\u00e9l\tine"]
    assert set(attempts["system"]) == {EFFICIENTQA_SYSTEM}
    judgments = pd.read_csv("out/judgments.csv", dtype=str, keep_default_na=False)
    verdicts = judgments.pivot(index="attempt", columns="judge", values="verdict")
    assert verdicts.loc["Henry"].to_dict() == {"human": "", "human-strict": "false",
                                               "human-lenient": "true"}
    assert verdicts.loc["guy henry (actor)"].tolist() == ["true"] * 3
    assert verdicts.loc["Peter Cushing"].tolist() == ["false"] * 3
    assert list(judgments["judge"].unique()) == list(EFFICIENTQA_JUDGES)


def test_the_converted_folder_is_a_judged_set_with_three_readings():
    convert_efficientqa(write(RECORD), "out")
    (one,) = read_judged_sets("out")
    assert one.files.judgments.verdict_counts() == {"human": 3, "human-strict": 4,
                                                    "human-lenient": 4}


def test_a_repeat_in_one_list_is_one_attempt_and_two_lists_are_a_fault():
    convert_efficientqa(write({**RECORD, "def_incorrect_predictions": ["x", " x", "x"]}), "kept")
    assert len(pd.read_parquet("kept/attempts.parquet")) == 3
    assert faults({**RECORD, "def_incorrect_predictions": ["Henry "]}) == [
        "eqa.jsonl: line 1: def_incorrect_predictions: 'Henry' is rated both in "
        "poss_correct_predictions and in def_incorrect_predictions"]


@pytest.mark.parametrize(("change", "expected"), [
    ({"question": 3}, "question: expected a string, got 3"),
    ({"answer": "Guy Henry"}, 'answer: expected a list of strings, got "Guy Henry"'),
    ({"answer": [" ", ""]}, 'answer: expected at least one gold answer that is not blank, '
                            'got [" ", ""]'),
    ({"poss_correct_predictions": None}, "poss_correct_predictions: expected a list of "
                                         "strings, got null"),
    ({"def_correct_predictions": [1]}, "def_correct_predictions: expected a list of strings, "
                                       "got [1]"),
    ({"answer_and_def_correct_predictions": {}}, "answer_and_def_correct_predictions: "
                                                 "expected a list of strings, got {}"),
])
def test_a_bad_field_is_named_by_line_and_field(change, expected):
    assert faults(RECORD, {**RECORD, **change}) == [f"eqa.jsonl: line 2: {expected}"]


def test_a_missing_field_a_blank_prediction_and_a_bad_line_are_all_reported():
    missing = {k: v for k, v in RECORD.items() if k != "def_incorrect_predictions"}
    Path("eqa.jsonl").write_text(json.dumps(missing) + "\n[1]\n{\"question\": \n"
                                 + json.dumps({**RECORD, "def_correct_predictions": ["a", "\t"]})
                                 + "\n", encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        convert_efficientqa("eqa.jsonl", "out")
    found = [str(e) for e in info.value.errors]
    assert found[0] == ("eqa.jsonl: line 1: def_incorrect_predictions: expected a list of "
                        "strings, got nothing")
    assert found[1] == "eqa.jsonl: line 2: expected a JSON object, got [1]"
    assert found[2].startswith("eqa.jsonl: line 3:")
    assert found[3].startswith("eqa.jsonl: line 4, $.def_correct_predictions[1]: "
                               "expected a prediction that is not blank")
    assert len(found) == 4 and not Path("out").exists()


def test_no_rated_prediction_is_exit_2_not_an_empty_set(capsys):
    empty = {**RECORD, "def_correct_predictions": [], "poss_correct_predictions": [],
             "def_incorrect_predictions": []}
    Path("none.jsonl.gz").write_bytes(gzip.compress((json.dumps(empty) + "\n").encode()))
    code, out, err = run_cli(capsys, "convert", "efficientqa", "none.jsonl.gz", "--out-dir",
                             "out")
    assert (code, out) == (2, "")
    assert err == ("recallscore: error: no rated prediction in none.jsonl.gz (1 questions): "
                   "nothing to convert\n")
    assert not Path("out").exists()
    with pytest.raises(UsageError):
        convert_efficientqa("none.jsonl.gz", "out")


def test_the_command_prints_what_it_kept_and_wrote(capsys):
    code, out, err = run_cli(capsys, "convert", "efficientqa", write(RECORD), "--out-dir", "o")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "wrote o/items.jsonl, o/attempts.parquet, o/judgments.csv"


@needs_data
def test_the_real_file_converts_every_rated_prediction():
    lines = convert_efficientqa(
        HUMAN_JUDGMENTS / "EfficientQA" / "NQ-open.efficientqa.test.1.1.jsonl.gz", "out")
    assert lines[0] == (f"kept 1769 items, 5886 attempts (one per rated prediction, system "
                        f"{EFFICIENTQA_SYSTEM}): 753 def_correct_predictions, 984 "
                        "poss_correct_predictions, 4149 def_incorrect_predictions")
    assert lines[2] == "left out: nothing; 193 items have no rated prediction"
    (one,) = read_judged_sets("out")
    assert one.files.judgments.verdict_counts() == {"human": 4902, "human-strict": 5886,
                                                    "human-lenient": 5886}
