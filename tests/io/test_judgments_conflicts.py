"""One judge, one attempt, keyed once by its system and once by its answer text: two different
verdicts are refused naming both rows and how each keyed it; the same verdict twice is one
judgment."""

from __future__ import annotations

import pandas as pd
import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import JudgmentsFormatError
from recallscore_nb.core.items import Item, Items
from recallscore_nb.io.data import JUDGED_EXAMPLE as EXAMPLE
from recallscore_nb.io.judgments import load_judgments

ITEMS = Items("items.jsonl", "", (Item("q1", ("Paris",), None), Item("q2", ("4",), None)))
ATTEMPTS = pd.DataFrame({"item": ["q1", "q1", "q1", "q2"], "system": ["a", "b", "c", "a"],
                         "attempt": ["Paris", " It is Paris.", "Paris ", "four"]})
HEADER = "item,judge,system,attempt,verdict\n"


def refusal(tmp_path, rows: str) -> str:
    path = tmp_path / "j.csv"
    path.write_text(HEADER + rows)
    with pytest.raises(JudgmentsFormatError) as caught:
        load_judgments(path, ITEMS, ATTEMPTS)
    return str(caught.value).removeprefix(f"{path}: ")


def test_a_system_verdict_then_a_different_text_verdict_is_refused(tmp_path):
    assert refusal(tmp_path, "q1,h,a,,yes\nq1,h,,Paris,no\n") == (
        "line 3 (item q1): verdict: judge 'h' already gave this attempt a different verdict "
        "(line 2, keyed by its system; this row keys it by its answer text)")


def test_a_text_verdict_then_a_different_system_verdict_is_refused(tmp_path):
    # the text matches the attempts of systems a and c (once stripped); c's clashes
    assert refusal(tmp_path, "q2,h,a,,no\nq1,h,,Paris,yes\nq1,h,b,,no\nq1,h,c,,no\n") == (
        "line 5 (item q1): verdict: judge 'h' already gave this attempt a different verdict "
        "(line 3, keyed by its answer text; this row keys it by its system)")


def test_lines_are_the_editors_when_a_field_spans_lines(tmp_path):
    rows = 'q1,h,,"Lyon\nor Marseille",no\nq1,h,,Paris,no\nq1,h,c,,yes\n'
    assert refusal(tmp_path, rows) == (
        "line 5 (item q1): verdict: judge 'h' already gave this attempt a different verdict "
        "(line 4, keyed by its answer text; this row keys it by its system)")


def test_a_clash_of_one_key_still_names_that_key(tmp_path):
    assert refusal(tmp_path, "q1,h,a,,yes\nq1,h,,Paris,yes\nq1,h,,Paris,no\n") == (
        "line 4 (item q1): verdict: judge 'h' already gave this answer a different verdict "
        "(line 3)")


def test_the_same_verdict_keyed_two_ways_is_one_judgment(tmp_path):
    path = tmp_path / "j.csv"
    path.write_text(HEADER + "q1,h,a,,yes\nq1,h,,Paris,yes\nq1,h,c,,yes\nq1,h,b,,no\n"
                             "q1,g,a,,no\nq1,h,,Paris,\n")
    j = load_judgments(path, ITEMS, ATTEMPTS)
    assert j.on_attempts.values.tolist() == [
        [0, "g", False], [0, "h", True], [1, "h", False], [2, "h", True]]
    assert j.verdict_counts() == {"h": 4, "g": 1} and j.empty() == {"h": 1, "g": 0}


def test_agree_refuses_the_clash_with_exit_2_and_writes_nothing(capsys, tmp_path):
    judgments = tmp_path / "j.csv"
    judgments.write_text("item,judge,system,attempt,verdict\nboiling,human,span,,yes\n"
                         "boiling,human,,100,no\n")
    out_dir = tmp_path / "out"
    code = main(["agree", str(EXAMPLE / "items.jsonl"), "--attempts",
                 str(EXAMPLE / "attempts.csv"), "--judgments", str(judgments), "--out-dir",
                 str(out_dir), "--resamples", "50"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == (f"recallscore: error: {judgments}: line 3 (item boiling): verdict: judge "
                   f"'human' already gave this attempt a different verdict (line 2, keyed by "
                   f"its system; this row keys it by its answer text)\n")
    assert not out_dir.exists()
