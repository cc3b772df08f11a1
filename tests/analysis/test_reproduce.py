"""Reproducing a benchmark: published labels and summary beside the recomputed ones.

The shipped benchmark must reproduce exactly; the fixture benchmark of conftest.py is then
edited one published value at a time to show each kind of difference and what cannot be
checked. The command (``recallscore reproduce``) is run in-process for its exit code and text.
"""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from recallscore_nb.analysis.reproduce import ROW_LABELS, SUMMARY_FIELDS, Difference, reproduce
from recallscore_nb.cli.main import main
from recallscore_nb.io.benchmarks import load_benchmark
from recallscore_nb.io.data import DEFAULT_BENCHMARK
from tests.conftest import BENCHMARK, DELETE, ROW_IDS, with_rows, write_benchmark


LABELS = list(ROW_LABELS)  # literalMatch, normalizedMatch, factsPresent, checklistFullMatch


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["reproduce", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def reproduce_data(tmp_path, data) -> object:
    return reproduce(load_benchmark(write_benchmark(tmp_path, data=data)))


# --- the shipped benchmark ---------------------------------------------------------------
def test_shipped_benchmark_reproduces():
    rep = reproduce(load_benchmark())
    assert rep.agrees
    assert rep.differences == ()
    assert rep.unchecked == ()
    assert rep.checked == 12 * 4 + 6
    assert (rep.rows_agreeing, len(rep.rows)) == (12, 12)
    summary = rep.summary.set_index("field")
    assert summary.index.tolist() == list(SUMMARY_FIELDS)
    assert summary["recomputed"].tolist() == [12, 8, 4, 1, 4, 8]
    assert summary["published"].tolist() == [12, 8, 4, 1, 4, 8]


def test_shipped_benchmark_rows_table():
    rows = reproduce(load_benchmark()).rows
    assert rows.columns.tolist() == [
        "id", "condition",
        "literalMatch_published", "literalMatch_recomputed",
        "normalizedMatch_published", "normalizedMatch_recomputed",
        "factsPresent_published", "factsPresent_recomputed",
        "checklistFullMatch_published", "checklistFullMatch_recomputed",
        "agrees",
    ]
    assert rows["id"].tolist() == [f"R{i:02d}" for i in range(1, 13)]
    assert rows["literalMatch_recomputed"].tolist() == [True] + [False] * 11
    assert rows["normalizedMatch_recomputed"].tolist() == [True] * 4 + [False] * 8
    assert rows["factsPresent_recomputed"].tolist() == [4] * 8 + [3] * 4
    assert rows["checklistFullMatch_recomputed"].tolist() == [True] * 8 + [False] * 4
    assert rows["agrees"].tolist() == [True] * 12
    assert rows.loc[8, "condition"] == "material omitted"


def test_shipped_benchmark_command(capsys, tmp_path):
    code, out, err = run(capsys, "--out-dir", tmp_path / "tables")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["FIELD", "published", "recomputed"]
    assert [line.split() for line in lines[1:7]] == [
        ["variantCount", "12", "12"],
        ["completeFactFixtures", "8", "8"],
        ["oneFactChangedOrMissingFixtures", "4", "4"],
        ["literalFullMatches", "1", "1"],
        ["normalizedFullMatches", "4", "4"],
        ["checklistFullMatches", "8", "8"],
    ]
    assert lines[-1] == "OK: 12 of 12 rows with published labels agree; 54 published values checked, 0 differ"
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [
        "reproduce__rows.csv", "reproduce__summary.csv"]
    summary = pd.read_csv(tmp_path / "tables" / "reproduce__summary.csv")
    assert summary.values.tolist() == [
        ["variantCount", 12, 12],
        ["completeFactFixtures", 8, 8],
        ["oneFactChangedOrMissingFixtures", 4, 4],
        ["literalFullMatches", 1, 1],
        ["normalizedFullMatches", 4, 4],
        ["checklistFullMatches", 8, 8],
    ]


# --- the fixture benchmark ---------------------------------------------------------------
def test_fixture_benchmark_reproduces(bench_path):
    rep = reproduce(load_benchmark(bench_path))
    assert rep.agrees
    assert rep.checked == 5 * 4 + 6
    assert rep.rows["factsPresent_recomputed"].tolist() == [3, 3, 3, 2, 1]
    assert rep.rows["normalizedMatch_recomputed"].tolist() == [True, True, False, False, False]
    assert rep.summary["recomputed"].tolist() == [5, 3, 2, 1, 2, 3]


# --- differences -------------------------------------------------------------------------
def test_wrong_row_label_is_a_difference(tmp_path, capsys):
    data = with_rows(lambda rows: rows[2].update(literalMatch=True))  # K3 is not a literal copy
    rep = reproduce_data(tmp_path, data)
    assert rep.differences == (Difference("K3", "literalMatch", True, False),)
    assert str(rep.differences[0]) == "K3 literalMatch true false"
    assert not rep.agrees
    assert rep.rows_agreeing == 4
    assert rep.rows.set_index("id")["agrees"].to_dict() == {
        "K1": True, "K2": True, "K3": False, "K4": True, "K5": True}

    code, out, _ = run(capsys, tmp_path / "bench.json")
    assert code == 1
    lines = out.splitlines()
    at = lines.index("ROW FIELD published recomputed")
    assert lines[at + 1] == "K3 literalMatch true false"
    assert lines[-1] == "DIFFERENT: 4 of 5 rows with published labels agree; 26 published values checked, 1 differ"


@pytest.mark.parametrize("row, label, published, recomputed", [
    (3, "factsPresent", 3, 2),              # K4 split the multi-word term: only 2 facts
    (4, "checklistFullMatch", True, False),
    (1, "normalizedMatch", False, True),
])
def test_each_row_label_is_checked(tmp_path, row, label, published, recomputed):
    data = with_rows(lambda rows: rows[row].update({label: published}))
    rep = reproduce_data(tmp_path, data)
    assert rep.differences == (Difference(ROW_IDS[row], label, published, recomputed),)


def test_wrong_summary_count_is_a_difference(tmp_path, capsys):
    summary = dict(BENCHMARK["summary"], normalizedFullMatches=4, variantCount=6)
    write_benchmark(tmp_path, summary=summary)
    rep = reproduce(load_benchmark(tmp_path / "bench.json"))
    assert set(rep.differences) == {
        Difference("summary", "normalizedFullMatches", 4, 2),
        Difference("summary", "variantCount", 6, 5),
    }
    assert rep.rows_agreeing == 5  # the rows agree; the summary does not

    code, out, _ = run(capsys, tmp_path / "bench.json")
    assert code == 1
    assert "summary normalizedFullMatches 4 2" in out.splitlines()
    assert "summary variantCount 6 5" in out.splitlines()


def test_fixture_counts_come_from_fixture_facts_complete(tmp_path):
    data = with_rows(lambda rows: rows[0].update(fixtureFactsComplete=False))
    rep = reproduce_data(tmp_path, data)
    assert set(rep.differences) == {
        Difference("summary", "completeFactFixtures", 3, 2),
        Difference("summary", "oneFactChangedOrMissingFixtures", 2, 3),
    }


# --- what cannot be checked --------------------------------------------------------------
def test_nothing_published_is_not_a_pass(tmp_path, capsys):
    def strip(rows):
        for row in rows:
            for key in [*LABELS, "fixtureFactsComplete"]:
                del row[key]
    data = with_rows(strip)
    del data["summary"]
    rep = reproduce_data(tmp_path, data)
    assert rep.checked == 0
    assert rep.differences == ()
    assert not rep.agrees
    assert rep.unchecked == tuple(f"{i} {label}" for i in ROW_IDS for label in LABELS)

    code, out, _ = run(capsys, tmp_path / "bench.json")
    assert code == 1
    assert out.splitlines()[-1] == "FAIL: the file publishes nothing to check"
    assert "unchecked (20): K1 literalMatch, K1 normalizedMatch" in out


def test_only_unknown_summary_keys_is_still_nothing_to_check(tmp_path, capsys):
    def strip(rows):
        for row in rows:
            for key in LABELS:
                del row[key]
    data = with_rows(strip)
    data["summary"] = {"meanTokenF1": 0.8}
    write_benchmark(tmp_path, data=data)
    code, out, _ = run(capsys, tmp_path / "bench.json")
    assert code == 1
    assert "FAIL: the file publishes nothing to check" in out


def test_unknown_summary_key_is_listed_as_unchecked(tmp_path, capsys):
    write_benchmark(tmp_path, summary=dict(BENCHMARK["summary"], meanTokenF1=0.9))
    rep = reproduce(load_benchmark(tmp_path / "bench.json"))
    assert rep.unchecked == ("summary meanTokenF1",)
    assert rep.agrees
    assert rep.checked == 26
    row = rep.summary.set_index("field").loc["meanTokenF1"]
    assert row["published"] == 0.9
    assert row["recomputed"] is None or pd.isna(row["recomputed"])

    code, out, _ = run(capsys, tmp_path / "bench.json")
    assert code == 0
    assert "unchecked (1): summary meanTokenF1" in out.splitlines()


def test_row_without_a_label_is_unchecked(tmp_path):
    data = with_rows(lambda rows: rows[1].pop("factsPresent"))
    rep = reproduce_data(tmp_path, data)
    assert rep.unchecked == ("K2 factsPresent",)
    assert rep.agrees
    assert rep.checked == 25


def test_summary_needing_a_missing_fixture_flag_is_unchecked(tmp_path):
    data = with_rows(lambda rows: rows[0].pop("fixtureFactsComplete"))
    rep = reproduce_data(tmp_path, data)
    assert rep.unchecked == ("summary completeFactFixtures", "summary oneFactChangedOrMissingFixtures")
    assert rep.agrees
    assert rep.checked == 24


def test_summary_only_is_checkable(tmp_path, capsys):
    def strip(rows):
        for row in rows:
            for key in LABELS:
                del row[key]
    write_benchmark(tmp_path, data=with_rows(strip))
    rep = reproduce(load_benchmark(tmp_path / "bench.json"))
    assert rep.checked == 6
    assert rep.agrees
    code, out, _ = run(capsys, tmp_path / "bench.json")
    assert code == 0
    assert out.splitlines()[-1] == (
        "OK: 0 of 0 rows with published labels agree; 6 published values checked, 0 differ")


def test_summary_fields_not_published_are_shown_recomputed(tmp_path):
    write_benchmark(tmp_path, summary={"variantCount": 5})
    rep = reproduce(load_benchmark(tmp_path / "bench.json"))
    assert rep.summary["field"].tolist() == list(SUMMARY_FIELDS)
    assert rep.checked == 21


def test_counts_stay_integers_when_a_summary_value_is_missing(tmp_path, capsys):
    summary = copy.deepcopy(BENCHMARK["summary"])
    del summary["normalizedFullMatches"]
    write_benchmark(tmp_path, summary=summary)
    code, out, _ = run(capsys, tmp_path / "bench.json", "--out-dir", tmp_path / "out")
    assert code == 0
    assert out.splitlines()[1].split() == ["variantCount", "5", "5"]
    text = (tmp_path / "out" / "reproduce__summary.csv").read_text()
    assert "variantCount,5,5\n" in text


def test_facts_present_stays_integer_when_a_row_lacks_it(tmp_path, capsys):
    write_benchmark(tmp_path, data=with_rows(lambda rows: rows[1].pop("factsPresent")))
    code, _, _ = run(capsys, tmp_path / "bench.json", "--out-dir", tmp_path / "out")
    assert code == 0
    lines = (tmp_path / "out" / "reproduce__rows.csv").read_text().splitlines()
    assert lines[1] == "K1,copied,true,true,true,true,3,3,true,true,true"


# --- invalid input -----------------------------------------------------------------------
def test_facts_present_beyond_the_checklist_is_invalid(capsys, tmp_path):
    # the spec's example: factsPresent 7 of 4 facts (the shipped benchmark's checklist)
    data = json.loads(DEFAULT_BENCHMARK.read_text(encoding="utf-8"))
    data["rows"][2]["factsPresent"] = 7
    write_benchmark(tmp_path, data=data)
    code, out, err = run(capsys, tmp_path / "bench.json")
    assert code == 2
    assert out == ""
    assert err == (f"recallscore: error: {tmp_path / 'bench.json'}: $.rows[2] (id R03): factsPresent: "
                   "expected at most 4, the number of facts, got 7\n")


def test_invalid_benchmark_writes_no_tables(capsys, tmp_path):
    write_benchmark(tmp_path, rows=DELETE)
    code, _, err = run(capsys, tmp_path / "bench.json", "--out-dir", tmp_path / "out")
    assert code == 2
    assert "rows: expected an array, got nothing" in err
    assert not (tmp_path / "out").exists()
