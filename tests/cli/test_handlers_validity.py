"""Issue 12 at the command line: scoring schemas for items files (score and report), and
the errors that say why a schema does not fit."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from recallscore_nb.cli.main import main
from tests.conftest import KITE, CAPITAL

HERON = {"item": "heron", "referenceAnswer": "The heron fishes at dawn.",
         "factChecklist": [{"fact": "bird", "requiredTerms": ["heron"]},
                           {"fact": "time", "requiredTerms": ["dawn"]}]}
SCHEMA = {"schemaVersion": 1, "disagreementNote": "A buzzard is no kite; a lake is no river.",
          "falsePositivePenalty": 0.5,
          "items": {"kite": {"facts": {"bird": {"weight": 3, "contradictions": [["buzzard"]]},
                                       "place": {"equivalents": [["stream"]]}}}}}
ATTEMPTS = ("id,item,attempt\n"
            "a1,kite,A red kite by the stream\n"
            "a2,capital,Paris\n"
            "a3,heron,The heron is not there at dawn\n"
            "a4,kite,\"A red kite, or a buzzard, by the river\"\n")


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "items.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in (KITE, CAPITAL, HERON)), encoding="utf-8")
    (tmp_path / "a.csv").write_text(ATTEMPTS, encoding="utf-8")
    (tmp_path / "s.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    return tmp_path


def test_score_an_items_file_with_a_schema(inputs, capsys):
    assert main(["score", "items.jsonl", "--attempts", "a.csv", "--schema", "s.json",
                 "--out", "o.csv"]) == 0
    err = capsys.readouterr().err
    assert "|items:1|" in err.splitlines()[-1] and err.splitlines()[-1].startswith("schema|")
    table = pd.read_csv("o.csv", dtype=str, keep_default_na=False)
    assert table["id"].tolist() == ["a1", "a2", "a3", "a4"]  # input order
    assert table[["status_bird", "status_place", "status_time"]].values.tolist() == [
        ["present", "present", ""],
        ["", "", ""],
        ["present", "", "negated"],
        ["conflicting", "present", ""],
    ]
    # kite: bird 3, place 1; heron: the shared reading, 1 each; capital: no checklist
    # a4: (1 - 0.5 * 3) / 4 < 0, floored at 0
    assert table["weighted_score"].tolist() == ["1.0", "", "0.25", "0.0"]
    assert json.loads(table["basis_place"][0])["matched"] == "equivalent[0]"
    assert table["basis_time"][0] == ""


@pytest.mark.parametrize("command", ["score", "report"])
def test_a_single_reference_schema_with_an_items_file_is_refused(inputs, capsys, command):
    (inputs / "single.json").write_text(json.dumps(
        {"schemaVersion": 1, "disagreementNote": "x", "facts": {"bird": {}}}), encoding="utf-8")
    out = ["--out", "r.json"] if command == "report" else []
    assert main([command, "items.jsonl", "--attempts", "a.csv", "--schema", "single.json",
                 *out]) == 2
    err = capsys.readouterr().err
    assert "single.json: $: facts: expected 'items' in place of 'facts': a single-reference " \
           "schema cannot score an items file (items.jsonl)" in err


def test_a_schema_naming_an_unknown_item_or_fact_is_refused(inputs, capsys):
    data = dict(SCHEMA, items={"kestrel": {}, "heron": {"facts": {"place": {}}}})
    (inputs / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["score", "items.jsonl", "--attempts", "a.csv", "--schema", "bad.json"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("recallscore: error: bad.json: $.items.heron.facts: place: expected a fact "
                      "of item heron's checklist (bird, time), got \"place\"")
    assert err[1].startswith("recallscore: error: bad.json: $.items: kestrel: expected an item "
                             "of items.jsonl (kite, capital, heron)")


def test_report_an_items_file_with_a_schema(inputs, capsys):
    assert main(["report", "items.jsonl", "--attempts", "a.csv", "--schema", "s.json",
                 "--out", "r.json"]) == 0
    document = json.loads((inputs / "r.json").read_text(encoding="utf-8"))
    assert [i["role"] for i in document["inputs"]] == ["items", "attempts", "schema"]
    assert document["scorer"]["disagreement_note"] == SCHEMA["disagreementNote"]
    attempts = document["attempts"]
    assert [(a["id"], a["item"]) for a in attempts] == [
        ("a1", "kite"), ("a2", "capital"), ("a3", "heron"), ("a4", "kite")]
    assert {k: v["status"] for k, v in attempts[3]["facts"].items()} == {
        "bird": "conflicting", "place": "present"}
    assert attempts[1]["facts"] == {} and attempts[1]["weighted_score"] is None
    assert attempts[2]["weighted_score"] == 0.25
    assert document["totals"]["status_counts"]["time"]["negated"] == 1
    assert document["totals"]["count"] == 4
    assert main(["check-report", "r.json"]) == 0


def test_a_report_of_an_items_file_follows_the_report_schema(inputs, capsys):
    from recallscore_nb.io.reports.schema import _validator

    assert main(["report", "items.jsonl", "--attempts", "a.csv", "--schema", "s.json",
                 "--out", "r.json"]) == 0
    document = json.loads((inputs / "r.json").read_text(encoding="utf-8"))
    assert [e.message for e in _validator("ok").iter_errors(document)] == []
    assert document["attempts"][1]["rules"]["checklist_full_match"] is None


@pytest.mark.parametrize(
    "argv, message",
    [(["--attempts", "a.csv"], "--schema is required for items.jsonl"),
     (["--schema", "s.json"], "a report of the items file items.jsonl needs --attempts")],
)
def test_report_of_an_items_file_says_what_it_needs(inputs, capsys, argv, message):
    assert main(["report", "items.jsonl", *argv, "--out", "r.json"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_item_statuses_streamed_in_chunks_equal_the_whole_table(inputs, monkeypatch, suffix):
    """The streaming score calls the item statuses per chunk: the same bytes as one call."""
    import numpy as np

    from recallscore_nb.execution import streaming
    from recallscore_nb.io.attempts import chunks as attempts_io

    pool = ["A red kite by the stream", "Paris", "The heron is not there at dawn",
            "A red kite, or a buzzard, by the river", "", "a heron at dawn", "not a red kite"]
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"item": [["kite", "capital", "heron"][i] for i in rng.integers(0, 3, 300)],
                          "attempt": [pool[i] for i in rng.integers(0, len(pool), 300)]})
    frame.to_csv("many.csv", index=False)
    monkeypatch.setattr(attempts_io, "CHUNK_ROWS", 16)
    argv = ["score", "items.jsonl", "--attempts", "many.csv", "--schema", "s.json"]
    assert main([*argv, "--out", f"streamed{suffix}"]) == 0
    with monkeypatch.context() as m:
        m.setattr(streaming, "streamable", lambda path: False)
        assert main([*argv, "--out", f"whole{suffix}"]) == 0
    assert (inputs / f"streamed{suffix}").read_bytes() == (inputs / f"whole{suffix}").read_bytes()
    assert "status_time" in (inputs / f"whole{suffix}").read_text(encoding="utf-8")


def test_a_benchmark_with_a_null_attempt_and_a_repeated_id_reports_both(tmp_path, monkeypatch,
                                                                        capsys):
    """The issue's case, at the command line and in an error report (both already hold)."""
    from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH

    monkeypatch.chdir(tmp_path)
    data = json.loads(DEFAULT_BENCHMARK.read_text(encoding="utf-8"))
    data["rows"][1]["attempt"] = None
    data["rows"][3]["id"] = data["rows"][2]["id"]
    (tmp_path / "b.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", "b.json"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "recallscore: error: b.json: $.rows[1] (id R02): attempt: expected a string, got null",
        'recallscore: error: b.json: $.rows[3] (id R03): id: expected a unique id, got "R03", '
        "a duplicate (already the id of $.rows[2])"]
    assert main(["report", "b.json", "--schema", str(DEFAULT_SCHEMA_PATH), "--out", "r.json"]) == 2
    errors = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["errors"]
    assert [(e["location"], e["field"]) for e in errors] == [("$.rows[1]", "attempt"),
                                                             ("$.rows[3]", "id")]
