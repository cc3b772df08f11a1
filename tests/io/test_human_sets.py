"""The shipped human-judged sets, and sets read from folders or files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.human_sets import SHIPPED_SETS, judged_set, read_judged_sets
from tests.human_judgments import HUMAN_JUDGMENTS, needs_data

ROOT = SHIPPED_SETS["example"].parents[2]


def test_the_shipped_sets_read_with_their_roles_and_annotators():
    sets = {s.name: s for s in read_judged_sets("evouna-nq, evouna-tq, openqa-nq301, "
                                                "efficientqa")}
    assert {n: s.role for n, s in sets.items()} == {
        "evouna-nq": "development", "evouna-tq": "held-out", "openqa-nq301": "held-out",
        "efficientqa": "held-out"}
    assert sets["openqa-nq301"].annotators == ("annotator1", "annotator2")
    assert len(sets["evouna-nq"].files.attempts) == 15099  # the judged null answer kept
    assert len(sets["evouna-tq"].files.attempts) == 9690
    assert len(sets["openqa-nq301"].files.items) == 301
    assert len(sets["efficientqa"].files.items) == 1576  # the 193 unrated questions left out
    assert len(sets["efficientqa"].files.attempts) == 5886
    assert sets["efficientqa"].files.judgments.judges == ("human", "human-strict",
                                                          "human-lenient")
    assert [s.tag for s in sets.values()] == ["EvounaNq", "EvounaTq", "OpenqaNq", "Efficientqa"]
    for name in ("evouna-nq", "evouna-tq", "openqa-nq301", "efficientqa"):
        folder = SHIPPED_SETS[name]
        assert (folder / "LICENSE").is_file()
        assert sorted(p.name for p in folder.iterdir()) == [
            "LICENSE", "attempts.parquet", "items.jsonl.gz", "judgments.parquet", "set.json"]


def test_the_licences_and_sources_are_in_the_notice():
    notice = (ROOT / "NOTICE.md").read_text(encoding="utf-8")
    for text in ("EVOUNA", "Apache", "OpenQA-eval", "MIT", "human_judgments/evouna-nq",
                 "human_judgments/openqa-nq301", "EfficientQA", "CC BY-SA 3.0",
                 "human_judgments/efficientqa"):
        assert text in notice


def test_a_folder_is_a_set_named_after_it(tmp_path):
    shutil.copytree(SHIPPED_SETS["example"], tmp_path / "mine")
    (tmp_path / "mine" / "set.json").unlink()
    (only,) = read_judged_sets(str(tmp_path / "mine"))
    assert (only.name, only.role, only.annotators) == ("mine", "", None)
    assert len(only.files.attempts) == 24


def test_three_files_are_one_set(tmp_path):
    example = SHIPPED_SETS["example"]
    seen = []
    (only,) = read_judged_sets("ignored", items_path=str(example / "items.jsonl"),
                               attempts_path=str(example / "attempts.csv"),
                               judgments_path=str(example / "judgments.csv"),
                               read=lambda p: seen.append(p.name) or p)
    assert only.name == "human_agreement" and seen == ["items.jsonl", "attempts.csv",
                                                       "judgments.csv"]


@pytest.mark.parametrize(("given", "said"), [
    (("judgments_path",), "'judgments_path' was given without 'items_path' and 'attempts_path'"),
    (("attempts_path",), "'attempts_path' was given without 'items_path' and 'judgments_path'"),
    (("items_path",), "'items_path' was given without 'attempts_path' and 'judgments_path'"),
    (("attempts_path", "judgments_path"),
     "'attempts_path' and 'judgments_path' were given without 'items_path'"),
    (("items_path", "judgments_path"),
     "'items_path' and 'judgments_path' were given without 'attempts_path'"),
])
def test_some_of_the_three_files_without_the_others_is_refused_naming_the_missing(given, said):
    """Issue 28: judgments_path without items_path used to evaluate the default sets, the
    file given silently ignored."""
    example = SHIPPED_SETS["example"]
    files = {"items_path": example / "items.jsonl", "attempts_path": example / "attempts.csv",
             "judgments_path": example / "judgments.csv"}
    read = []
    with pytest.raises(UsageError) as caught:
        read_judged_sets("example", **{name: str(files[name]) for name in given},
                         read=read.append)
    assert str(caught.value) == (f"{said}: a set of your own names all three of items_path, "
                                 "attempts_path and judgments_path; give all three, or none "
                                 "to read the sets named in 'sets'")
    assert read == []  # refused before any file is read


def test_notebook_08_given_judgments_alone_exits_2_naming_what_is_missing(tmp_path):
    """``recallscore run 08 -p judgments_path X``, as a user types it: exit 2, one line, no
    traceback, nothing written (it used to run the default sets, exit 0)."""
    shutil.copy(SHIPPED_SETS["example"] / "judgments.csv", tmp_path / "mine.csv")
    run = subprocess.run([sys.executable, "-m", "recallscore_nb", "run", "08", "-p",
                          "judgments_path", "mine.csv", "--output-dir", "out"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("recallscore: error: notebook 08_human_agreement failed at "
                                 "cell ") and len(run.stderr.splitlines()) == 1
    assert run.stderr.endswith(": UsageError: 'judgments_path' was given without 'items_path' "
                               "and 'attempts_path': a set of your own names all three of "
                               "items_path, attempts_path and judgments_path; give all three, "
                               "or none to read the sets named in 'sets'\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.csv"]


@pytest.mark.parametrize(("edit", "message"), [
    ({"role": "tuning"}, r"set.json: \$.role: expected one of development, held-out, example"),
    ({"annotators": "a1"}, r"set.json: \$.annotators: expected a list of judge names"),
    ({"annotators": ["nobody"]}, r"set.json: \$.annotators: expected judges of the judgments "
                                 r"file, got 'nobody'"),
])
def test_a_bad_set_json_names_its_field(tmp_path, edit, message):
    shutil.copytree(SHIPPED_SETS["example"], tmp_path / "s")
    meta = json.loads((tmp_path / "s" / "set.json").read_text()) | edit
    (tmp_path / "s" / "set.json").write_text(json.dumps(meta))
    with pytest.raises(InputFileError, match=message):
        judged_set(str(tmp_path / "s"))


@pytest.mark.parametrize(("text", "message"), [
    ('{"title": "a", "title": "b"}', r"set.json: \$: title: duplicate key"),
    ('{"title": "a", "score": NaN}', r"set.json: \$: score: "),
])
def test_a_set_json_with_a_repeated_key_or_nan_is_refused(tmp_path, text, message):
    """json.loads took the last of two keys and NaN as a number, silently."""
    shutil.copytree(SHIPPED_SETS["example"], tmp_path / "s")
    (tmp_path / "s" / "set.json").write_text(text)
    with pytest.raises(InputFileError, match=message):
        judged_set(str(tmp_path / "s"))


def test_unknown_sets_and_missing_files_are_named(tmp_path):
    with pytest.raises(UsageError, match="nope: no such judged set .shipped: evouna-nq"):
        read_judged_sets("nope")
    with pytest.raises(UsageError, match="name at least one judged set"):
        read_judged_sets(" , ")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="holds one items file .* found none"):
        judged_set(str(tmp_path / "empty"))


@needs_data
def test_the_shipped_sets_are_a_fresh_conversion(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "ship_human_judgments.py"),
                    str(HUMAN_JUDGMENTS), str(tmp_path)], check=True, capture_output=True,
                   cwd=ROOT)
    for name in ("evouna-nq", "evouna-tq", "openqa-nq301", "efficientqa"):
        shipped, fresh = SHIPPED_SETS[name], tmp_path / name
        assert (shipped / "items.jsonl.gz").read_bytes() == (fresh / "items.jsonl.gz").read_bytes()
        for table in ("attempts.parquet", "judgments.parquet"):
            pd.testing.assert_frame_equal(pd.read_parquet(shipped / table),
                                          pd.read_parquet(fresh / table))
