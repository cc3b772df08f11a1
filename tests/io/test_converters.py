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
def test_each_system_is_scored_against_its_own_files_gold_answers(openqa):
    """EviGen's file repairs 95 questions' gold answers (the others spell them with
    mojibake): its attempts carry them, and its EM on the 301 judged questions is the
    authors' 51.83 (against the first file's golds, 51.16)."""
    from recallscore_nb.core.scoring import score_items

    out, lines = openqa
    items = load_items(out / "items.jsonl")
    attempts = read_attempts(str(out / "attempts.parquet"))
    own = attempts[attempts["references"].notna()]
    assert own["system"].unique().tolist() == ["EviGen"] and len(own) == 95
    assert json.loads(own["references"].iloc[0]) == ["54\u00c2\xa0Mbit/s", "54\xa0Mbit/s"]
    assert lines[1].startswith("95 attempts carry their own file's gold answers")
    judged = set(pd.read_csv(out / "judgments.csv")["item"])
    evigen = attempts[(attempts["system"] == "EviGen") & attempts["item"].isin(judged)]
    assert len(evigen) == 301
    em = score_items(items, evigen)["squad_exact_match"].mean()
    shared = score_items(items, evigen.drop(columns="references"))["squad_exact_match"].mean()
    assert (round(100 * em, 2), round(100 * shared, 2)) == (51.83, 51.16)


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
    ("NQ.json.gz", 3020, 15099, 590), ("TQ.json.gz", 1938, 9690, 62)])
def test_evouna_converts(tmp_path, name, items, attempts, improper):
    lines = convert_evouna(EVOUNA / name, tmp_path)
    assert len(load_items(tmp_path / "items.jsonl")) == items
    assert len(read_attempts(str(tmp_path / "attempts.parquet"))) == attempts
    assert f"left out: {improper} improper questions" in lines[1]


@needs_data
def test_a_judged_null_answer_is_an_empty_attempt_counted(tmp_path):
    """FiD on NQ: 3,020 judged answers, one of them null (an empty attempt), not 3,019."""
    lines = convert_evouna(EVOUNA / "NQ.json.gz", tmp_path)
    attempts = read_attempts(str(tmp_path / "attempts.parquet"))
    judgments = pd.read_csv(tmp_path / "judgments.csv", keep_default_na=False)
    fid = judgments[(judgments["system"] == "fid") & (judgments["verdict"] != "")]
    assert len(fid) == 3020 == (attempts["system"] == "fid").sum()
    assert "1 null answers nobody judged; kept as empty attempts: 1 judged null answers" \
        in lines[1]


@needs_data
def test_units_fractions_and_dates_stay_whole_and_short_references_are_listed(tmp_path):
    lines = convert_evouna(EVOUNA / "NQ.json.gz", tmp_path)
    references = [r for line in (tmp_path / "items.jsonl").read_text().splitlines()
                  for r in json.loads(line)["referenceAnswer"]]
    assert "54\xa0Mbit/s" in references and "1.5\xa0Gbit/s" in references
    assert "1,228\xa0km/h" in references
    assert "1979/80" in references and "Since 1979/80" in references
    assert {"2014", "2016"} <= set(references) and "Olivia" in references
    assert lines[2].startswith("references of one or two characters a split produced: 40 "
                               "('A+', '6', 'Ed', '26', '66', '15', '18', '13'")


@pytest.mark.parametrize(("golden", "alternatives"), [
    ("Paris/Lutetia", ["Paris", "Lutetia"]),
    ("54 Mbit/s", ["54 Mbit/s"]), ("km/h / mph", ["km/h", "mph"]), ("AC/DC", ["AC/DC"]),
    ("1/2", ["1/2"]), ("24/7", ["24/7"]), ("25/12/2019", ["25/12/2019"]),
    ("15/18/13", ["15", "18", "13"]), ("60/12", ["60", "12"]), ("2017/18", ["2017/18"]),
    ("pituitary gland/the temporal lobes", ["pituitary gland", "the temporal lobes"]),
    ("jazz/pop ballad", ["jazz", "pop ballad"]), ("1977/in 1977", ["1977", "in 1977"]),
    ("100 km/h", ["100 km/h"]),
    ("1979/80", ["1979/80"]), ("2014/2016", ["2014", "2016"]), ("201/232", ["201", "232"]),
    ("a / /b/", ["a", "b"]), ("m/s", ["m/s"]), ("x/y", ["x", "y"]), ("Olivia/MFSK", ["Olivia", "MFSK"]),
])
def test_golden_answers_split_at_slashes_but_not_inside_one_answer(golden, alternatives):
    from recallscore_nb.io.converters import split_alternatives

    assert split_alternatives(golden) == alternatives


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
                     "left out: 1 improper questions, 0 without a golden answer, 1 null answers "
                     "nobody judged; kept as empty attempts: 0 judged null answers",
                     "references of one or two characters a split produced: 0"]
    gz = tmp_path / "XY.json.gz"
    gz.write_bytes(gzip.compress(source.read_bytes()))
    assert convert_evouna(gz, tmp_path / "gz") == lines


def test_evouna_not_json(tmp_path):
    source = tmp_path / "NQ.json"
    source.write_text("[1,")
    with pytest.raises(InputFileError, match="NQ.json: line 1 column 4: not valid JSON"):
        convert_evouna(source, tmp_path / "out")
