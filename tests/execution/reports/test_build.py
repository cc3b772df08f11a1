"""Building a report (`recallscore report`): the scorer, inputs relative to the report's folder,
attempts files, and the error report that lists every invalid input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recallscore_nb.core import registry
from recallscore_nb.core.registry import signatures
from recallscore_nb.core.rules import rules_for
from recallscore_nb.io.data import DATA_DIR, DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from tests.conftest import NOTELESS_SCHEMA, run_cli as run
from tests.report_fixtures import _null_attempt_benchmark, V, _edit, one_line_error, rel, report, sha, validator

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_shipped_report_scorer(shipped):
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert shipped[0]["scorer"] == {
        "version": V, "squad_mode": "v1.1",
        "signatures": signatures("v1.1") + [schema.signature()],
        "disagreement_note": schema.disagreement_note,
    }
    assert shipped[0]["scorer"]["signatures"][-1].startswith(f"schema|sha256:{sha(DEFAULT_SCHEMA_PATH)[:12]}|")


def test_shipped_report_inputs_are_relative_to_its_folder(shipped):
    document, _, folder = shipped
    assert document["inputs"] == [
        {"role": "benchmark", "path": rel(DEFAULT_BENCHMARK, folder), "sha256": sha(DEFAULT_BENCHMARK)},
        {"role": "schema", "path": rel(DEFAULT_SCHEMA_PATH, folder), "sha256": sha(DEFAULT_SCHEMA_PATH)},
    ]
    assert all(not Path(i["path"]).is_absolute() and "\\" not in i["path"] for i in document["inputs"])


def test_report_with_an_attempts_file_names_it_relative_to_the_report(capsys, copied_inputs):
    bench, schema = copied_inputs
    Path("inputs/a.csv").write_text("id,attempt,system\n"
                                    "x1,The copper coin goes in the west-drawer before the museum opens.,s\n"
                                    "x2,The gold token is not in the west drawer.,s\n")
    code, _, _ = report(capsys, "inputs/bench.json", "--attempts", "inputs/a.csv",
                        schema="inputs/scoring.json", out="reports/deep/r.json")
    assert code == 0
    document = json.loads(Path("reports/deep/r.json").read_text())
    assert [(i["role"], i["path"]) for i in document["inputs"]] == [
        ("benchmark", "../../inputs/bench.json"), ("attempts", "../../inputs/a.csv"),
        ("schema", "../../inputs/scoring.json")]
    assert document["inputs"][1]["sha256"] == sha("inputs/a.csv")
    x1, x2 = document["attempts"]
    assert [x1["id"], x2["id"]] == ["x1", "x2"]
    assert x1["facts"]["object"]["basis"]["matched"] == "equivalent[0]"
    assert x1["facts"]["location"]["basis"]["matched"] == "equivalent[0]"
    assert x1["weighted_score"] == 1.0
    assert x2["facts"]["material"]["status"] == "contradicted"
    assert x2["facts"]["location"]["status"] == "negated"
    assert x2["facts"]["location"]["basis"]["cue"]["token"] == "not"
    assert x2["facts"]["timing"]["status"] == "missing"
    assert document["totals"]["count"] == 2
    assert run(capsys, "check-report", "reports/deep/r.json", "--inputs-within", ".")[0] == 0


def test_report_from_stdin_is_a_usage_error(capsys):
    code, out, err = report(capsys, "--attempts", "-")
    assert (code, out) == (2, "")
    assert "needs an attempts file" in one_line_error(err)
    assert list(Path(".").iterdir()) == []


@pytest.mark.parametrize("argv", [["report"],
                                  ["report", "--schema", "s.json"],
                                  ["check-report"]])
def test_report_usage_errors(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert "usage: recallscore" in err and "Traceback" not in err


def _duplicate_id_attempts():
    Path("in/a.csv").write_text("id,attempt\nA,x\nA,y\n")
    return "in/a.csv"


def _noteless_schema():
    return str(shutil.copy(NOTELESS_SCHEMA, "in/noteless.json"))


INVALID = {
    "benchmark": (lambda: ([_null_attempt_benchmark()], DEFAULT_SCHEMA_PATH),
                  {"file": "in/bench.json", "location": "$.rows[2]", "rowId": "R03",
                   "field": "attempt", "message": "expected a string, got null"},
                  "in/bench.json: $.rows[2] (id R03): attempt: expected a string, got null"),
    "attempts": (lambda: (["--attempts", _duplicate_id_attempts()], DEFAULT_SCHEMA_PATH),
                 {"file": "in/a.csv", "location": "row 1", "rowId": "A", "field": "id",
                  "message": "duplicate id (first used at row 0)"},
                 "in/a.csv: row 1 (id A): id: duplicate id (first used at row 0)"),
    "schema": (lambda: ([], _noteless_schema()),
               {"file": "in/noteless.json", "location": "$", "rowId": None,
                "field": "disagreementNote",
                "message": "expected a non-empty string: why this key is one defensible "
                           "reading, got nothing"},
               "in/noteless.json: $: disagreementNote: expected a non-empty string: why this "
               "key is one defensible reading, got nothing"),
}


@pytest.mark.parametrize("kind", list(INVALID))
def test_invalid_input_writes_an_error_report(capsys, kind):
    Path("in").mkdir()
    make, error, line = INVALID[kind]
    argv, schema = make()
    code, out, err = report(capsys, *argv, schema=schema)
    assert code == 2
    assert out == "wrote error report report.json: 1 error, no score\n"
    assert one_line_error(err) == line
    document = json.loads(Path("report.json").read_text(encoding="utf-8"))
    assert list(validator().iter_errors(document)) == []
    assert sorted(document) == ["errors", "inputs", "scorer", "status"]
    assert document["status"] == "error"
    assert document["errors"] == [error]
    assert "weighted_score" not in Path("report.json").read_text()
    roles = [i["role"] for i in document["inputs"]]
    assert roles == (["benchmark", "attempts", "schema"] if kind == "attempts"
                     else ["benchmark", "schema"])
    assert all(i["sha256"] == sha(i["path"]) for i in document["inputs"])
    signatures = document["scorer"]["signatures"]
    signed = registry.signatures("v1.1")  # every rule's, then their normalizers'
    assert signatures[:len(signed)] == signed
    assert signed[len(rules_for("v1.1"))].startswith("normalizer|name:seed|")
    # the schema's signature follows when the schema was read
    assert len(signatures) == len(signed) + (kind == "attempts")


def test_error_report_collects_every_invalid_input(capsys):
    Path("in").mkdir()
    bench = _null_attempt_benchmark()
    code, out, err = report(capsys, bench, "--attempts", _duplicate_id_attempts(),
                            schema=_noteless_schema())
    assert code == 2
    assert out == "wrote error report report.json: 2 errors, no score\n"
    assert err.splitlines()[1] == ("recallscore: error: in/a.csv: row 1 (id A): id: duplicate id "
                                   "(first used at row 0)")
    document = json.loads(Path("report.json").read_text())
    # the schema is checked against the benchmark's facts, so an invalid benchmark stops it
    assert [e["file"] for e in document["errors"]] == ["in/bench.json", "in/a.csv"]


def test_missing_input_is_named_with_no_hash(capsys):
    code, _, err = report(capsys, "nope.json")
    assert code == 2
    assert one_line_error(err) == "nope.json: no such file"
    document = json.loads(Path("report.json").read_text())
    assert document["inputs"][0] == {"role": "benchmark", "path": "nope.json", "sha256": None}
    assert document["errors"][0]["message"] == "no such file"


def test_an_attempts_file_of_no_known_format_is_an_invalid_input(capsys):
    Path("a.tsv").write_text("attempt\nx\n")
    code, _, err = report(capsys, "--attempts", "a.tsv")
    assert code == 2
    assert one_line_error(err) == "a.tsv: an attempts file must end in .csv, .jsonl, .parquet (got '.tsv')"
    assert json.loads(Path("report.json").read_text())["errors"][0]["file"] == "a.tsv"


def test_error_report_paths_are_relative_to_the_report(capsys):
    Path("in").mkdir()
    bench = _null_attempt_benchmark()
    assert report(capsys, bench, out="deep/er/r.json")[0] == 2
    document = json.loads(Path("deep/er/r.json").read_text())
    assert document["inputs"][0]["path"] == "../../in/bench.json"
    assert document["errors"][0]["file"] == "../../in/bench.json"


def test_report_records_the_squad_mode_and_check_report_uses_it(capsys):
    assert report(capsys, "--squad-mode", "v2.0")[0] == 0
    document = json.loads(Path("report.json").read_text())
    assert document["scorer"]["squad_mode"] == "v2.0"
    assert document["scorer"]["signatures"][:-1] == signatures("v2.0")
    assert "squad_exact_match|mode:v2.0|" in document["scorer"]["signatures"][2]
    assert run(capsys, "check-report", "report.json", "--inputs-within", DATA_DIR)[0] == 0
    _edit("report.json", lambda d: d["scorer"].update(squad_mode="v1.1"))
    code, out, _ = run(capsys, "check-report", "report.json", "--inputs-within", DATA_DIR)
    assert code == 1
    assert out.splitlines()[0].startswith('$.scorer.signatures[2]: stored "squad_exact_match|mode:v2.0')


def test_report_of_the_shipped_benchmark_needs_no_schema(capsys, shipped):
    code, out, err = run(capsys, "report", "--out", "r.json")
    assert (code, err) == (0, "")
    assert out == "wrote r.json: 12 attempts, mean weighted score 0.8819\n"
    assert json.loads(Path("r.json").read_text())["attempts"] == shipped[0]["attempts"]
    assert run(capsys, "report", DEFAULT_BENCHMARK, "--out", "s.json")[0] == 0
    assert json.loads(Path("s.json").read_text())["inputs"][1]["path"] == rel(DEFAULT_SCHEMA_PATH)


def test_report_of_another_benchmark_needs_a_schema(capsys, copied_inputs):
    code, out, err = run(capsys, "report", "inputs/bench.json", "--out", "r.json")
    assert (code, out) == (2, "")
    assert one_line_error(err) == (
        "--schema is required for inputs/bench.json: only the shipped benchmark has a default "
        "scoring schema (the one shipped beside it)")
    assert not Path("r.json").exists()
