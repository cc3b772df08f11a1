"""Judgments files: verdict spellings, how text keys compare, and every fault named by file,
row and field."""

from __future__ import annotations

import pandas as pd
import pytest

from recallscore_nb.core.errors import JudgmentsFormatError
from recallscore_nb.core.items import Item, Items
from recallscore_nb.io.judgments import load_judgments, parse_verdicts

ITEMS = Items("items.jsonl", "", (Item("q1", ("Paris",), None), Item("q2", ("4",), None)))
ATTEMPTS = pd.DataFrame({"item": ["q1", "q1", "q2", "q2"], "system": ["a", "b", "a", "b"],
                         "attempt": ["Paris", " It is Paris.", "four", "Paris"]})


def write(tmp_path, text, name="j.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(("raw", "expected"), [
    ("true", True), ("TRUE", True), ("Yes", True), (" yes ", True), ("1", True),
    ("false", False), ("No", False), ("0", False), ("", None),
])
def test_verdict_spellings(raw, expected):
    got, bad = parse_verdicts(pd.Series([raw]))
    assert (None if pd.isna(got.iloc[0]) else bool(got.iloc[0])) is expected
    assert bad.tolist() == []


def test_system_keys_match_the_systems_attempt(tmp_path):
    path = write(tmp_path, "item,judge,system,verdict\nq1,h,a,yes\nq1,h,b,no\nq2,h,a,\n")
    j = load_judgments(path, ITEMS, ATTEMPTS)
    assert j.on_attempts.values.tolist() == [[0, "h", True], [1, "h", False]]
    assert j.empty() == {"h": 1} and j.verdict_counts() == {"h": 2}
    assert j.keyed_by == "system"


def test_text_keys_compare_stripped_and_case_sensitive(tmp_path):
    # " It is Paris." is attempt 1 once stripped; "paris" (lowercase) is no attempt's text.
    path = write(tmp_path, "item,judge,attempt,verdict\nq1,h,It is Paris.  ,yes\n"
                           "q1,h,paris,no\nq2,h,Paris,yes\n")
    j = load_judgments(path, ITEMS, ATTEMPTS)
    assert j.on_attempts.values.tolist() == [[1, "h", True], [3, "h", True]]
    assert j.unmatched == {"h": 1}


def test_one_text_judges_every_system_that_gave_it(tmp_path):
    attempts = pd.DataFrame({"item": ["q1", "q1"], "system": ["a", "b"],
                             "attempt": ["Paris", "Paris "]})
    j = load_judgments(write(tmp_path, "item,judge,attempt,verdict\nq1,h,Paris,1\n"), ITEMS,
                       attempts)
    assert j.on_attempts["attempt"].tolist() == [0, 1]


def test_jsonl_and_parquet(tmp_path):
    jsonl = write(tmp_path, '{"item": "q1", "judge": "h", "system": "a", "verdict": true}\n',
                  "j.jsonl")
    assert load_judgments(jsonl, ITEMS, ATTEMPTS).on_attempts["verdict"].tolist() == [True]
    parquet = tmp_path / "j.parquet"
    pd.DataFrame({"item": ["q1"], "judge": ["h"], "system": ["b"], "verdict": [0]}).to_parquet(
        parquet)
    assert load_judgments(parquet, ITEMS, ATTEMPTS).on_attempts.values.tolist() == [
        [1, "h", False]]


def test_a_file_may_key_some_rows_by_system_and_others_by_text(tmp_path):
    path = write(tmp_path, "item,judge,system,attempt,verdict\nq1,h,a,,yes\n"
                           "q1,h,,It is Paris.,no\nq2,h,b,,yes\nq2,g,,four,yes\n")
    j = load_judgments(path, ITEMS, ATTEMPTS)
    assert j.keyed_by == "mixed"
    assert j.on_attempts.values.tolist() == [[0, "h", True], [1, "h", False], [2, "g", True],
                                             [3, "h", True]]


def test_jsonl_numbers_and_missing_verdicts(tmp_path):
    items = Items("i", "", (Item("1", ("Paris",), None),))
    attempts = pd.DataFrame({"item": ["1", "1"], "system": ["a", "b"], "attempt": ["x", "y"]})
    path = write(tmp_path, '{"item": 1, "judge": "h", "system": "a", "verdict": 1.0}\n'
                           '{"item": 1, "judge": "h", "system": "b"}\n'
                           '{"item": 1, "judge": "g", "system": "b", "verdict": "No"}\n',
                 "j.jsonl")
    j = load_judgments(path, items, attempts)
    assert j.on_attempts.values.tolist() == [[0, "h", True], [1, "g", False]]
    assert j.empty() == {"h": 1, "g": 0}


@pytest.mark.parametrize(("text", "message"), [
    ("item,judge,system,verdict\nq9,h,a,yes\n",
     "j.csv: line 2: item: unknown item 'q9' (not in items.jsonl)"),
    ("item,judge,system,verdict\nq1,h,a,yes\nq1,h,zz,yes\n",
     "j.csv: line 3 (item q1): system: unknown system 'zz' (not in the attempts)"),
    ("item,judge,system,verdict\nq1,h,a,maybe\n",
     "j.csv: line 2 (item q1): verdict: expected true/false, yes/no or 1/0 (any case) or nothing, "
     "got 'maybe'"),
    ("item,judge,system,verdict\nq1,h,a,yes\nq1,h,a,no\n",
     "j.csv: line 3 (item q1): verdict: judge 'h' already gave this system a different verdict "
     "(line 2)"),
    ("item,judge,attempt,verdict\nq1,h,Lyon,yes\nq1,h, Lyon,no\n",
     "j.csv: line 3 (item q1): verdict: judge 'h' already gave this answer a different verdict "
     "(line 2)"),
    ("item,judge,verdict\nq1,h,yes\n",
     "j.csv: system: missing column: a judgments file has system (a verdict on a system's "
     "attempt) or attempt (a verdict on an answer text), or both, one a row"),
    ("item,judge,system,attempt,verdict\nq1,h,a,Paris,yes\n",
     "j.csv: line 2 (item q1): attempt: a row judges a system's attempt or an answer text, not "
     "both (got system 'a')"),
    ("item,judge,system,attempt,verdict\nq1,h,,,yes\n",
     "j.csv: line 2 (item q1): system: expected a system or an answer text, got nothing"),
    ("item,system,verdict\nq1,a,yes\n",
     "j.csv: judge: missing column (a judgments file has item, judge, verdict, and system or "
     "attempt)"),
    ("item,judge,system,verdict\nq1,,a,yes\n", "j.csv: line 2: judge: expected a non-empty "
     "string, got nothing"),
])
def test_faults_name_file_row_and_field(tmp_path, text, message):
    with pytest.raises(JudgmentsFormatError) as info:
        load_judgments(write(tmp_path, text), ITEMS, ATTEMPTS)
    assert str(info.value).replace(str(tmp_path) + "/", "") == message


def test_a_system_judgment_that_matches_no_attempt(tmp_path):
    attempts = ATTEMPTS[ATTEMPTS["system"] != "b"].tail(1).pipe(
        lambda a: pd.concat([a, pd.DataFrame({"item": ["q1"], "system": ["b"],
                                              "attempt": ["x"]})]))
    path = write(tmp_path, "item,judge,system,verdict\nq1,h,b,yes\nq1,h,a,no\n")
    with pytest.raises(JudgmentsFormatError) as info:
        load_judgments(path, ITEMS, attempts)
    assert str(info.value).endswith("line 3 (item q1): system: matches no attempt: system 'a' "
                                    "has no attempt at item 'q1'")


def test_systems_named_in_another_case_are_counted_with_a_suggestion(tmp_path):
    rows = "".join(f"q{i},h,{s},yes\n" for i in (1, 2) for s in ("A", "b"))
    path = write(tmp_path, "item,judge,system,verdict\n" + rows)
    with pytest.raises(JudgmentsFormatError) as info:
        load_judgments(path, ITEMS, ATTEMPTS)
    assert str(info.value).replace(str(tmp_path) + "/", "") == (
        "j.csv: line 2 (item q1): system: unknown system 'A' (not in the attempts; did you "
        "mean 'a'?) (2 rows name 1 such system(s): 'A')")


def test_a_quoted_line_break_moves_the_lines_after_it(tmp_path):
    path = write(tmp_path, 'item,judge,attempt,verdict\nq1,h,"two\nlines",yes\nq1,h,x,maybe\n')
    with pytest.raises(JudgmentsFormatError, match=r"j.csv: line 4 \(item q1\): verdict"):
        load_judgments(path, ITEMS, ATTEMPTS)


def test_a_parquet_file_counts_its_rows_from_one(tmp_path):
    path = tmp_path / "j.parquet"
    pd.DataFrame({"item": ["q1", "q1"], "judge": ["h", "h"], "system": ["a", "zz"],
                  "verdict": [1, 0]}).to_parquet(path)
    with pytest.raises(JudgmentsFormatError, match=r"j.parquet: row 2 \(item q1\): system"):
        load_judgments(path, ITEMS, ATTEMPTS)
