"""The converters on the real public data sets (read from ../shared/human-judgments)."""

from __future__ import annotations

import gzip
import json
import shutil

import pandas as pd
import pytest

from recallscore_nb.core.errors import InputFileError
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.converters import convert_evouna, convert_openqa_eval
from recallscore_nb.io.items import load_items
from recallscore_nb.io.judgments import load_judgments
from tests.human_judgments import EVOUNA, OPENQA_EVAL, needs_data


@pytest.fixture(scope="module")
def openqa(tmp_path_factory):
    out = tmp_path_factory.mktemp("openqa")
    lines = convert_openqa_eval(OPENQA_EVAL, out)
    return out, lines


@needs_data
def test_openqa_eval_converts_every_file(openqa):
    out, lines = openqa
    items = load_items(out / "items.jsonl")
    attempts = read_attempts(str(out / "attempts.parquet"))
    assert len(items) == 3610
    counts = attempts["system"].value_counts().to_dict()
    assert counts["DPR"] == counts["ANCE-plus_FiD"] == 3610
    assert counts["text-davinci-003_zeroshot"] == counts["text-davinci-003_fewshot-n64"] == 301
    assert len(counts) == 12
    judgments = pd.read_csv(out / "judgments.csv", keep_default_na=False)
    assert judgments["judge"].value_counts().to_dict() == {j: 1490 for j in (
        "human", "annotator1", "annotator2", "annotator3", "bem", "gpt-4", "instructgpt")}
    assert lines[0].startswith("kept 3610 items, 36702 attempts from 12 systems")
    j = load_judgments(out / "judgments.csv", items, attempts)
    assert j.empty()["gpt-4"] == 2  # the two GPT-4 rows without a label


@needs_data
def test_the_malformed_instructgpt_file_reads_as_the_repaired_copy(openqa, tmp_path):
    out, _ = openqa
    copy = tmp_path / "OpenQA-eval"
    shutil.copytree(OPENQA_EVAL, copy)
    target = copy / "data" / "NQ301_text-davinci-003.tsv"
    target.chmod(0o644)
    shutil.copyfile(OPENQA_EVAL / "data-extra" / "NQ301_text-davinci-003.repaired.tsv", target)
    convert_openqa_eval(copy, tmp_path / "repaired")
    ours = pd.read_csv(out / "judgments.csv", keep_default_na=False)
    repaired = pd.read_csv(tmp_path / "repaired" / "judgments.csv", keep_default_na=False)
    pd.testing.assert_frame_equal(ours, repaired)


@needs_data
@pytest.mark.parametrize(("name", "items", "attempts", "improper"), [
    ("NQ.json.gz", 3020, 15098, 590), ("TQ.json.gz", 1938, 9690, 62)])
def test_evouna_converts(tmp_path, name, items, attempts, improper):
    lines = convert_evouna(EVOUNA / name, tmp_path)
    assert len(load_items(tmp_path / "items.jsonl")) == items
    assert len(read_attempts(str(tmp_path / "attempts.parquet"))) == attempts
    assert f"left out: {improper} improper questions" in lines[1]


def test_evouna_plain_json_and_its_quirks(tmp_path):
    records = [
        {"question": "q?", "golden_answer": "Paris/ /Lutetia", "improper": False,
         "answer_fid": "Paris", "judge_fid": True, "answer_gpt35": None, "judge_gpt35": None,
         "answer_chatgpt": "x", "judge_chatgpt": "nan", "answer_gpt4": "y", "judge_gpt4": False,
         "answer_newbing": "z", "judge_newbing": None},
        {"question": "bad", "golden_answer": None, "improper": True},
    ]
    source = tmp_path / "XY.json"
    source.write_text(json.dumps(records))
    lines = convert_evouna(source, tmp_path / "out")
    items = (tmp_path / "out" / "items.jsonl").read_text().splitlines()
    assert json.loads(items[0])["referenceAnswer"] == ["Paris", "Lutetia"]
    assert json.loads(items[0])["item"] == "XY-0001"
    judgments = (tmp_path / "out" / "judgments.csv").read_text().splitlines()
    assert judgments == ["item,judge,system,verdict", "XY-0001,human,fid,true",
                         "XY-0001,human,chatgpt,", "XY-0001,human,gpt4,false",
                         "XY-0001,human,newbing,"]
    assert lines == ["kept 1 items, 4 attempts from 5 systems, 2 verdicts by human (2 attempts "
                     "without one)",
                     "left out: 1 improper questions, 0 without a golden answer, 1 null answers"]
    gz = tmp_path / "XY.json.gz"
    gz.write_bytes(gzip.compress(source.read_bytes()))
    assert convert_evouna(gz, tmp_path / "gz") == lines


def test_evouna_not_json(tmp_path):
    source = tmp_path / "NQ.json"
    source.write_text("[1,")
    with pytest.raises(InputFileError, match="NQ.json: not JSON"):
        convert_evouna(source, tmp_path / "out")
