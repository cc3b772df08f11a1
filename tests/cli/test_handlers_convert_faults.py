"""``recallscore convert`` on bad input from the command line (issue 22): exit 2, one line
per fault naming file, line and field, the first five then a count; never exit 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.convert_fixtures import EVOUNA_RECORD, RECORDS, jsonl, openqa_checkout

pytestmark = pytest.mark.usefixtures("in_tmp")


def test_every_fault_is_counted_after_the_first_five(capsys):
    bad = "".join(f"[{n}]\n" for n in range(7))
    openqa_checkout(Path("OpenQA-eval"), outputs={"NQ301_B.jsonl": jsonl(RECORDS) + bad})
    code, out, err = run_cli(capsys, "convert", "openqa-eval", "OpenQA-eval", "--out-dir", "out")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"recallscore: error: OpenQA-eval/data/model_outputs/NQ301_B.jsonl: line {n + 3}: "
        f"expected a JSON object, got [{n}]" for n in range(5)] + ["recallscore: (2 more errors)"]
    assert not Path("out").exists()


def test_an_out_dir_under_a_file_is_a_usage_error(capsys):
    Path("NQ.json").write_text(json.dumps([EVOUNA_RECORD]))
    Path("afile").write_text("")
    code, out, err = run_cli(capsys, "convert", "evouna", "NQ.json", "--out-dir", "afile/out")
    assert (code, out) == (2, "")
    assert err == ("recallscore: error: --out-dir afile/out: cannot write here (Not a "
                   "directory)\n")


def test_an_answer_that_is_a_string_is_exit_2_not_split_into_characters(capsys):
    record = {"question": "q one", "answer": "December", "prediction": "p"}
    openqa_checkout(Path("OpenQA-eval"), outputs={"NQ_A.jsonl": jsonl([record] + RECORDS[1:])})
    code, _, err = run_cli(capsys, "convert", "openqa-eval", "OpenQA-eval", "--out-dir", "out")
    assert code == 2
    assert err == ("recallscore: error: OpenQA-eval/data/model_outputs/NQ_A.jsonl: line 1: "
                   'answer: expected a list of strings, one not blank, got "December"\n')
