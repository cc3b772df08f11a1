"""Scored reports (`recallscore report`, `recallscore check-report`) and `score --schema`.

Every case calls :func:`recallscore_nb.cli.main` in-process, in a temporary folder. The
shipped benchmark under the shipped scoring schema, counted by hand (weights material 1,
object 1, location 2, timing 2; a wrong value costs half its fact's weight):

====  ===============================  =======================  ===============
id    condition                        status not "present"     weighted score
====  ===============================  =======================  ===============
R01-  every fact present               —                        6/6
R08
R09   material omitted                 material missing         5/6
R10   location changed (east)          location contradicted    (4 - 1)/6
R11   timing changed (after)           timing contradicted      (4 - 1)/6
R12   material changed (silver)        material contradicted    (5 - 0.5)/6
====  ===============================  =======================  ===============
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from recallscore_nb._version import __version__
from recallscore_nb.cli.main import main
from recallscore_nb.core.rules import rules_for, verdict_columns
from recallscore_nb.io._jsonschema import Draft202012Validator
from recallscore_nb.io.data import DATA_DIR, DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from recallscore_nb.io.reports import REPORT_SCHEMA, _validator, check_report
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from recallscore_nb.workbook.paths import REPO_ROOT
from tests.conftest import NOTELESS_SCHEMA, STORED_REPORT, write_benchmark, run_cli as run

V = __version__
FACTS = ["material", "object", "location", "timing"]
IDS = [f"R{i:02d}" for i in range(1, 13)]
NOT_PRESENT = {"R09": ("material", "missing"), "R10": ("location", "contradicted"),
               "R11": ("timing", "contradicted"), "R12": ("material", "contradicted")}
WEIGHTED = {**{i: 1.0 for i in IDS[:8]}, "R09": 5 / 6, "R10": 3 / 6, "R11": 3 / 6,
            "R12": 4.5 / 6}
DOCS_EXAMPLE = REPO_ROOT / "docs" / "report-example.json"


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def rel(path, folder=".") -> str:
    return Path(os.path.relpath(Path(path).resolve(), Path(folder).resolve())).as_posix()


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def report(capsys, *argv, out="report.json", schema=DEFAULT_SCHEMA_PATH):
    """Run `recallscore report`; return (exit code, stdout, stderr)."""
    return run(capsys, "report", *argv, "--schema", schema, "--out", out)


def one_line_error(err: str) -> str:
    """The error's one line (and at most the count of the others), no traceback."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines[0].startswith("recallscore: error: ")
    assert len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("recallscore: (")), err
    return lines[0].removeprefix("recallscore: error: ")


def validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(REPORT_SCHEMA.read_text(encoding="utf-8")))


def test_the_report_schema_lists_every_rule_of_the_registry():
    """The shipped JSON Schema spells out each rule's value; a new rule adds its own here."""
    from recallscore_nb.core.rules import measure, verdict_columns

    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    listed = schema["$defs"]["attempt"]["properties"]["rules"]
    number = {"type": "number", "minimum": 0, "maximum": 1}
    def listing(column):
        if not measure(column).optional:
            return {"type": "boolean"} if measure(column).binary else number
        # missing for an item without a checklist (a report of an items file)
        assert measure(column).binary
        return {"type": ["boolean", "null"], "description": listed["properties"][column].get(
            "description")}

    assert listed["properties"] == {column: listing(column) for column in verdict_columns()}
    assert listed["required"] == verdict_columns()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The shipped benchmark scored under the shipped schema, written in a folder of its own:
    (parsed report, its text, its folder)."""
    folder = tmp_path_factory.mktemp("shipped") / "out"
    assert main(["report", "--schema", str(DEFAULT_SCHEMA_PATH),
                 "--out", str(folder / "r.json")]) == 0
    text = (folder / "r.json").read_text(encoding="utf-8")
    return json.loads(text), text, folder


@pytest.fixture
def copied_inputs(tmp_path):
    """The shipped benchmark and schema copied into ``inputs/``, so a test may edit them."""
    (tmp_path / "inputs").mkdir()
    bench = Path(shutil.copy(DEFAULT_BENCHMARK, tmp_path / "inputs" / "bench.json"))
    schema = Path(shutil.copy(DEFAULT_SCHEMA_PATH, tmp_path / "inputs" / "scoring.json"))
    return bench, schema


# --- the report on the shipped benchmark ---------------------------------------------------
def test_shipped_report_follows_the_schema(shipped):
    document, _, _ = shipped
    assert list(validator().iter_errors(document)) == []
    assert sorted(document) == ["attempts", "inputs", "scorer", "status", "totals"]
    assert document["status"] == "ok"


def test_shipped_report_scorer(shipped):
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert shipped[0]["scorer"] == {
        "version": V, "squad_mode": "v1.1",
        "signatures": [r.signature() for r in rules_for("v1.1")] + [schema.signature()],
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


def test_shipped_report_statuses(shipped):
    attempts = shipped[0]["attempts"]
    assert [a["id"] for a in attempts] == IDS
    for attempt in attempts:
        expected = dict.fromkeys(FACTS, "present")
        if attempt["id"] in NOT_PRESENT:
            fact, status = NOT_PRESENT[attempt["id"]]
            expected[fact] = status
        assert {f: v["status"] for f, v in attempt["facts"].items()} == expected, attempt["id"]
        assert all(v["basis"]["status"] == v["status"] for v in attempt["facts"].values())


def test_shipped_report_bases_name_what_matched(shipped):
    by_id = {a["id"]: a for a in shipped[0]["attempts"]}
    east = by_id["R10"]["facts"]["location"]["basis"]
    assert east["matched"] == "contradiction[0]" and east["terms"] == ["east", "drawer"]
    # "The copper token goes in the east drawer ...": 4 + 7 + 6 + 5 + 3 + 4 characters
    # before "east" (29-33), then "drawer" (34-40)
    assert east["spans"] == [[29, 33], [34, 40]]
    assert by_id["R09"]["facts"]["material"]["basis"]["matched"] is None
    assert by_id["R01"]["facts"]["timing"]["basis"]["matched"] == "required"


def test_shipped_report_rules_and_weighted_scores(shipped):
    attempts = shipped[0]["attempts"]
    assert [a["rules"]["literal_match"] for a in attempts] == [True] + [False] * 11
    assert sum(a["rules"]["normalized_match"] for a in attempts) == 4
    assert [a["rules"]["checklist_full_match"] for a in attempts] == [True] * 8 + [False] * 4
    assert attempts[0]["rules"]["token_f1"] == 1.0
    assert sorted(attempts[0]["rules"]) == sorted(verdict_columns())
    assert {a["id"]: a["weighted_score"] for a in attempts} == pytest.approx(WEIGHTED, abs=1e-12)


def test_shipped_report_totals_counted_by_hand(shipped):
    totals = shipped[0]["totals"]
    assert totals["count"] == 12
    assert totals["mean_weighted_score"] == pytest.approx((8 + 5 / 6 + 3 / 6 + 3 / 6 + 4.5 / 6) / 12)
    assert totals["status_counts"] == {
        "material": {"present": 10, "missing": 1, "contradicted": 1, "negated": 0, "conflicting": 0},
        "object": {"present": 12, "missing": 0, "contradicted": 0, "negated": 0, "conflicting": 0},
        "location": {"present": 11, "missing": 0, "contradicted": 1, "negated": 0, "conflicting": 0},
        "timing": {"present": 11, "missing": 0, "contradicted": 1, "negated": 0, "conflicting": 0},
    }


def test_report_text_is_deterministic(capsys, shipped):
    _, text, _ = shipped
    assert report(capsys, out="a/r.json")[0] == 0
    assert report(capsys, out="b/r.json")[0] == 0
    first, second = Path("a/r.json").read_bytes(), Path("b/r.json").read_bytes()
    assert first == second
    assert first.decode("utf-8") == json.dumps(json.loads(first), sort_keys=True, indent=2,
                                               ensure_ascii=False) + "\n"
    assert '\n  "attempts": [\n' in text and text.endswith("}\n")


def test_report_says_what_it_wrote(capsys):
    code, out, err = report(capsys)
    assert (code, err) == (0, "")
    assert out == "wrote report.json: 12 attempts, mean weighted score 0.8819\n"
    assert sorted(p.name for p in Path(".").iterdir()) == ["report.json"]


# --- attempts files and relative paths -----------------------------------------------------
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


def test_report_out_must_be_json(capsys):
    code, out, err = report(capsys, out="r.csv")
    assert (code, out) == (2, "")
    assert one_line_error(err) == "r.csv: --out must end in .json (got '.csv')"


# --- error reports --------------------------------------------------------------------------
def _null_attempt_benchmark():
    data = json.loads(DEFAULT_BENCHMARK.read_text(encoding="utf-8"))
    data["rows"][2]["attempt"] = None
    write_benchmark(Path("in"), data=data)
    return "in/bench.json"


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
    rules = [r.signature() for r in rules_for("v1.1")]
    assert signatures[:len(rules)] == rules
    # the schema's signature follows when the schema was read
    assert len(signatures) == len(rules) + (kind == "attempts")


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


def test_error_report_goes_beside_an_existing_report(capsys):
    assert report(capsys, out="out/r.report.json")[0] == 0
    kept = Path("out/r.report.json").read_bytes()
    code, out, err = report(capsys, "nope.json", out="out/r.report.json")
    assert code == 2
    assert out == "wrote error report out/r.report.error.json: 1 error, no score\n"
    assert Path("out/r.report.json").read_bytes() == kept
    document = json.loads(Path("out/r.report.error.json").read_text())
    assert document["status"] == "error"
    assert document["inputs"][0]["path"] == "../nope.json"
    assert document["errors"][0]["file"] == "../nope.json"
    assert one_line_error(err) == "nope.json: no such file"


def test_error_report_paths_are_relative_to_the_report(capsys):
    Path("in").mkdir()
    bench = _null_attempt_benchmark()
    assert report(capsys, bench, out="deep/er/r.json")[0] == 2
    document = json.loads(Path("deep/er/r.json").read_text())
    assert document["inputs"][0]["path"] == "../../in/bench.json"
    assert document["errors"][0]["file"] == "../../in/bench.json"


# --- check-report ---------------------------------------------------------------------------
def test_the_stored_shipped_report_matches_the_scorer(capsys):
    code, out, err = run(capsys, "check-report", STORED_REPORT)
    assert (code, err) == (0, ""), out
    assert out == f"OK: {STORED_REPORT} matches a fresh scoring of its inputs\n"
    document = json.loads(STORED_REPORT.read_text(encoding="utf-8"))
    assert [i["path"] for i in document["inputs"]] == [
        "../../recallscore_nb/data/benchmarks/four_fact_recall.json",
        "../../recallscore_nb/data/benchmarks/four_fact_recall.scoring.json"]
    assert check_report(STORED_REPORT, inputs_within=DATA_DIR) == []


def test_a_report_of_the_shipped_benchmark_written_anywhere_checks_without_options(capsys):
    """The shipped benchmark and schema are the package's own data: a report of them, written
    in any folder, names them by a path leading outside that folder, and still checks."""
    assert run(capsys, "report", "--out", "elsewhere/r.json")[0] == 0
    recorded = [i["path"] for i in json.loads(Path("elsewhere/r.json").read_text())["inputs"]]
    assert all(p.startswith("..") for p in recorded)
    assert run(capsys, "check-report", "elsewhere/r.json")[:2] == (
        0, "OK: elsewhere/r.json matches a fresh scoring of its inputs\n")


def test_the_stored_shipped_report_is_what_report_writes(shipped):
    _, text, _ = shipped
    stored = json.loads(STORED_REPORT.read_text(encoding="utf-8"))
    fresh = json.loads(text)
    assert {k: v for k, v in stored.items() if k != "inputs"} == \
        {k: v for k, v in fresh.items() if k != "inputs"}


def test_the_docs_example_is_a_checked_report(capsys):
    document = json.loads(DOCS_EXAMPLE.read_text(encoding="utf-8"))
    assert list(validator().iter_errors(document)) == []
    assert run(capsys, "check-report", DOCS_EXAMPLE, "--inputs-within", REPO_ROOT)[0] == 0


def _edit(path, edit):
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    edit(document)
    Path(path).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def test_check_report_names_each_difference(capsys, copied_inputs):
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0

    def edit(document):
        document["attempts"][9]["facts"]["location"]["status"] = "present"
        document["attempts"][0]["weighted_score"] = 0.5
        del document["totals"]["count"]
    _edit("report.json", edit)
    code, out, err = run(capsys, "check-report", "report.json")
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        '$.attempts[0].weighted_score: stored 0.5, recomputed 1.0',
        '$.attempts[9].facts.location.status: stored "present", recomputed "contradicted"',
        '$.totals.count: stored absent, recomputed 12',
        "DIFFERENT: 3 values of report.json differ from a fresh scoring of its inputs "
        "(rewrite it with --update)",
    ]


def test_check_report_update_rewrites_the_report(capsys, copied_inputs):
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0
    original = Path("report.json").read_bytes()
    _edit("report.json", lambda d: d["attempts"][3]["facts"]["timing"].update(status="negated"))
    code, out, _ = run(capsys, "check-report", "report.json", "--update")
    assert code == 0
    assert out.splitlines() == [
        '$.attempts[3].facts.timing.status: stored "negated", recomputed "present"',
        "rewrote report.json from its inputs (1 value changed)"]
    assert Path("report.json").read_bytes() == original
    assert run(capsys, "check-report", "report.json")[:2] == (
        0, "OK: report.json matches a fresh scoring of its inputs\n")


@pytest.mark.parametrize("update", [False, True])
def test_check_report_refuses_when_an_input_changed(capsys, copied_inputs, update):
    bench, schema = copied_inputs
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json", out="r/r.json")[0] == 0
    before = sha(schema)
    schema.write_text(schema.read_text().replace('"weight": 2', '"weight": 3', 1))
    original = Path("r/r.json").read_bytes()
    code, out, err = run(capsys, "check-report", "r/r.json", "--inputs-within", ".",
                         *(["--update"] if update else []))
    assert (code, out) == (2, "")
    assert one_line_error(err) == (
        f"r/r.json: input schema ../inputs/scoring.json changed since the report was written "
        f"(sha256 stored {before}, now {sha(schema)}); score it again with `recallscore report`")
    assert Path("r/r.json").read_bytes() == original


def test_check_report_refuses_when_an_input_is_gone(capsys, copied_inputs):
    bench, _ = copied_inputs
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0
    digest = sha(bench)
    bench.unlink()
    code, _, err = run(capsys, "check-report", "report.json")
    assert code == 2
    assert one_line_error(err) == (
        f"report.json: input benchmark inputs/bench.json changed since the report was written "
        f"(sha256 stored {digest}, now no readable file); score it again with `recallscore report`")


def test_check_report_on_an_error_report(capsys):
    Path("in").mkdir()
    assert report(capsys, _null_attempt_benchmark())[0] == 2  # the shipped schema: far away
    assert run(capsys, "check-report", "report.json", "--inputs-within", "/")[0] == 0
    _edit("report.json", lambda d: d["errors"][0].update(field="condition"))
    code, out, _ = run(capsys, "check-report", "report.json", "--inputs-within", "/")
    assert code == 1
    assert out.splitlines()[0] == '$.errors[0].field: stored "condition", recomputed "attempt"'


@pytest.mark.parametrize("content, message", [
    (None, "r.json: no such file"),
    ("", "r.json: line 1 column 1: not valid JSON: "),
    ("{", "r.json: line 1 column 2: not valid JSON: "),
    ("[]", "r.json: $: not a recallscore report: [] is not of type 'object'"),
    ('{"status": "ok"}', "r.json: $: not a recallscore report: 'scorer' is a required property"),
    ('{"scorer": {"squad_mode": "v3"}, "inputs": []}',
     "r.json: $.inputs: not a recallscore report: [] should be non-empty"),
    ('{"scorer": {"squad_mode": "v1.1"}, "inputs": [{"role": "schema", "path": "s.json", "sha256": null}]}',
     "r.json: $.inputs: not a recallscore report: no input has the role 'benchmark'"),
])
def test_check_report_on_something_that_is_not_a_report(capsys, content, message):
    if content is not None:
        Path("r.json").write_text(content)
    code, out, err = run(capsys, "check-report", "r.json")
    assert (code, out) == (2, "")
    lines = err.splitlines()  # every problem of the header, one line each
    assert lines[0].removeprefix("recallscore: error: ").startswith(message)
    assert all(line.startswith("recallscore: error: r.json") for line in lines)


# --- score --schema -------------------------------------------------------------------------
def test_score_with_a_schema_adds_statuses_scores_and_bases(capsys):
    code, out, err = run(capsys, "score", "--schema", DEFAULT_SCHEMA_PATH)
    assert code == 0
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert err.splitlines() == [r.signature() for r in rules_for("v1.1")] + [schema.signature()]
    lines = out.splitlines()
    columns = lines[0].split(",")
    assert columns[-9:] == [*(f"status_{f}" for f in FACTS), "weighted_score",
                            *(f"basis_{f}" for f in FACTS)]
    frame = pd.read_csv(pd.io.common.StringIO(out), dtype=str, keep_default_na=False)
    assert frame["status_location"].tolist() == ["present"] * 9 + ["contradicted", "present", "present"]
    assert frame["status_material"].tolist()[8:] == ["missing", "present", "present", "contradicted"]
    assert frame["weighted_score"].astype(float).tolist() == pytest.approx([WEIGHTED[i] for i in IDS])
    basis = json.loads(frame["basis_location"][9])
    assert basis["matched"] == "contradiction[0]" and basis["spans"] == [[29, 33], [34, 40]]
    assert ": " not in frame["basis_location"][9]  # compact JSON text


def test_score_with_a_schema_to_parquet_records_its_signature(capsys):
    assert run(capsys, "score", "--schema", DEFAULT_SCHEMA_PATH, "--out", "s.parquet")[0] == 0
    table = pq.read_table("s.parquet")
    meta = json.loads(table.schema.metadata[b"recallscore"])
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert meta["signatures"][-1] == schema.signature()
    assert meta["schema_sha256"] == sha(DEFAULT_SCHEMA_PATH)
    assert table.column("weighted_score").type == "double"
    assert table.column("status_timing").to_pylist()[10] == "contradicted"


def test_score_with_an_invalid_schema(capsys):
    code, out, err = run(capsys, "score", "--schema", NOTELESS_SCHEMA)
    assert (code, out) == (2, "")
    assert one_line_error(err).endswith(
        ": $: disagreementNote: expected a non-empty string: why this key is one defensible "
        "reading, got nothing")


def test_score_carried_column_colliding_with_a_status_column(capsys):
    Path("a.csv").write_text("attempt,weighted_score\nx,1\n")
    code, _, err = run(capsys, "score", "--attempts", "a.csv", "--schema", DEFAULT_SCHEMA_PATH)
    assert code == 2
    assert one_line_error(err) == (
        "a.csv: weighted_score: column 'weighted_score' collides with an output column; rename it")
    Path("b.csv").write_text("attempt,weighted_score\nx,1\n")
    assert run(capsys, "score", "--attempts", "b.csv")[0] == 0  # no schema, no such column


def test_report_records_the_squad_mode_and_check_report_uses_it(capsys):
    assert report(capsys, "--squad-mode", "v2.0")[0] == 0
    document = json.loads(Path("report.json").read_text())
    assert document["scorer"]["squad_mode"] == "v2.0"
    assert document["scorer"]["signatures"][:-1] == [r.signature() for r in rules_for("v2.0")]
    assert run(capsys, "check-report", "report.json", "--inputs-within", DATA_DIR)[0] == 0
    _edit("report.json", lambda d: d["scorer"].update(squad_mode="v1.1"))
    code, out, _ = run(capsys, "check-report", "report.json", "--inputs-within", DATA_DIR)
    assert code == 1
    assert out.splitlines()[0].startswith('$.scorer.signatures[2]: stored "squad_exact_match|mode:v2.0')


# --- issue 9: tampered reports, inputs outside the report's folder, --update ----------------
def _write_inputs_beside(folder: Path) -> Path:
    """The shipped benchmark and schema copied into ``folder``; returns the report path there."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DEFAULT_BENCHMARK, folder / "bench.json")
    shutil.copy(DEFAULT_SCHEMA_PATH, folder / "scoring.json")
    return folder / "r.json"


def test_update_refuses_a_null_hash_in_a_scored_report(capsys):
    out = _write_inputs_beside(Path("r"))
    assert report(capsys, "r/bench.json", schema="r/scoring.json", out=out)[0] == 0
    _edit(out, lambda d: d["inputs"][0].update(sha256=None))
    Path("r/bench.json").unlink()
    tampered = out.read_bytes()
    for update in ([], ["--update"]):
        code, stdout, err = run(capsys, "check-report", out, *update)
        assert (code, stdout) == (2, "")
        assert one_line_error(err) == (
            "r/r.json: $.inputs[0]: sha256: null for the benchmark input bench.json, but a scored "
            "report records the hash of every input it read: the report was edited; score it "
            "again with `recallscore report`")
        assert out.read_bytes() == tampered


def test_update_never_replaces_a_report_with_an_error_report(capsys, monkeypatch):
    out = _write_inputs_beside(Path("r"))
    assert report(capsys, "r/bench.json", schema="r/scoring.json", out=out)[0] == 0
    kept = out.read_bytes()
    from recallscore_nb.io import benchmarks
    from recallscore_nb.core.errors import BenchmarkFormatError

    def refuse(path, *args, **kwargs):  # as a stricter scorer version might
        raise BenchmarkFormatError(str(path), "$.rows[0]", "attempt", message="now refused")

    monkeypatch.setattr(benchmarks, "load_benchmark", refuse)
    code, stdout, err = run(capsys, "check-report", out, "--update")
    assert (code, stdout) == (2, "")
    assert one_line_error(err) == (
        "r/r.json: not rewritten: a fresh scoring of its inputs gives an error report "
        "(r/bench.json: $.rows[0]: attempt: now refused)")
    assert out.read_bytes() == kept
    assert sorted(p.name for p in Path("r").iterdir()) == ["bench.json", "r.json", "scoring.json"]


def test_update_of_an_error_report_is_refused_too(capsys):
    Path("in").mkdir()
    assert report(capsys, _null_attempt_benchmark(), out="in/r.json")[0] == 2
    kept = Path("in/r.json").read_bytes()
    code, _, err = run(capsys, "check-report", "in/r.json", "--update", "--inputs-within", "/")
    assert code == 2
    assert one_line_error(err).startswith("in/r.json: not rewritten: a fresh scoring of its "
                                          "inputs gives an error report (")
    assert Path("in/r.json").read_bytes() == kept


@pytest.mark.parametrize("recorded", ["/etc/passwd", "../outside.json", "sub/../../outside.json"])
def test_check_report_refuses_an_input_outside_its_folder(capsys, recorded):
    out = _write_inputs_beside(Path("r"))
    assert report(capsys, "r/bench.json", schema="r/scoring.json", out=out)[0] == 0
    Path("outside.json").write_bytes(DEFAULT_BENCHMARK.read_bytes())
    _edit(out, lambda d: d["inputs"][0].update(path=recorded))
    code, stdout, err = run(capsys, "check-report", out)
    assert (code, stdout) == (2, "")
    assert one_line_error(err) == (
        f"r/r.json: $.inputs[0]: path: {recorded} is outside the report's folder r: "
        "check-report reads a report's inputs only there (pass --inputs-within DIR to allow "
        "a folder that holds them)")


def test_check_report_refuses_a_link_leading_outside_its_folder(capsys):
    out = _write_inputs_beside(Path("r"))
    Path("elsewhere").mkdir()
    shutil.move("r/bench.json", "elsewhere/bench.json")
    os.symlink(os.path.abspath("elsewhere/bench.json"), "r/bench.json")
    assert report(capsys, "r/bench.json", schema="r/scoring.json", out=out)[0] == 0
    code, _, err = run(capsys, "check-report", out)
    assert code == 2
    assert one_line_error(err).startswith("r/r.json: $.inputs[0]: path: bench.json is outside "
                                          "the report's folder r:")
    assert run(capsys, "check-report", out, "--inputs-within", ".")[:2] == (
        0, "OK: r/r.json matches a fresh scoring of its inputs\n")


def test_inputs_within_allows_a_folder_that_holds_the_inputs(capsys, copied_inputs):
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json",
                  out="reports/r.json")[0] == 0
    code, _, err = run(capsys, "check-report", "reports/r.json")
    assert code == 2 and "../inputs/bench.json is outside the report's folder reports:" in err
    assert run(capsys, "check-report", "reports/r.json", "--inputs-within", ".")[0] == 0
    code, _, err = run(capsys, "check-report", "reports/r.json", "--inputs-within", "reports")
    assert code == 2
    assert one_line_error(err) == (
        "reports/r.json: $.inputs[0]: path: ../inputs/bench.json is outside --inputs-within "
        "reports: check-report reads a report's inputs only there (pass --inputs-within DIR to "
        "allow a folder that holds them)")


def test_check_report_reads_only_regular_files(capsys):
    out = _write_inputs_beside(Path("r"))
    Path("r/a.csv").write_text("id,attempt\nx,copper token\n")
    assert report(capsys, "r/bench.json", "--attempts", "r/a.csv", schema="r/scoring.json",
                  out=out)[0] == 0
    _edit(out, lambda d: d["inputs"][1].update(path="pipe.csv"))
    os.mkfifo("r/pipe.csv")  # reading it would wait for a writer for ever
    code, _, err = run(capsys, "check-report", out)
    assert code == 2
    assert one_line_error(err).startswith("r/r.json: input attempts pipe.csv changed since the "
                                          "report was written (sha256 stored ")
    assert "now no readable file" in err


# --- issue 8: --schema defaults to the shipped schema for the shipped benchmark ---------------
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


# --- issue 9 (20): reports built by construction, the same bytes as the JSON module's -------
def test_the_shipped_report_is_written_byte_for_byte(capsys, tmp_path):
    """Written where its inputs sit as the stored one's do, a fresh report is the same file."""
    shipped = tmp_path / "recallscore_nb" / "data" / "benchmarks"
    shipped.mkdir(parents=True)
    shutil.copy(DEFAULT_BENCHMARK, shipped)
    shutil.copy(DEFAULT_SCHEMA_PATH, shipped)
    assert report(capsys, "recallscore_nb/data/benchmarks/four_fact_recall.json",
                  schema="recallscore_nb/data/benchmarks/four_fact_recall.scoring.json",
                  out="tests/data/four_fact_recall.report.json")[0] == 0
    assert Path("tests/data/four_fact_recall.report.json").read_bytes() == STORED_REPORT.read_bytes()


VARIED = [
    ("q1", "The copper token is not in the west drawer before the museum opens."),
    ("q2", "The silver token goes in the east drawer after the museum opens."),
    ("naïve \"id\"", "Le jeton de cuivre — copper token — west drawer, before museum opens ☕"),
    ("", ""),
    ("q5", "copper copper token token west drawer drawer before museum opens opens"),
    ("q6", "The copper token never goes in the west drawer before the museum opens."),
    ("q7", "The COPPER token goes in the West-Drawer before the museum opens!!"),
    ("q8", "token"),
    ("tab\tid", "The copper token goes in the west drawer before the museum opens."),
    ("q10", "The copper token goes in the west drawer before the museum opens."),
]


def test_a_varied_report_follows_the_schema_and_the_json_module(capsys, copied_inputs):
    frame = pd.DataFrame({"id": [i for i, _ in VARIED], "attempt": [a for _, a in VARIED]})
    frame.to_parquet("inputs/a.parquet")
    assert report(capsys, "inputs/bench.json", "--attempts", "inputs/a.parquet",
                  schema="inputs/scoring.json", out="inputs/r.json")[0] == 0
    text = Path("inputs/r.json").read_text(encoding="utf-8")
    document = json.loads(text)
    assert list(validator().iter_errors(document)) == []
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert [a["id"] for a in document["attempts"]] == [i for i, _ in VARIED]
    assert document["attempts"][0]["facts"]["location"]["basis"]["cue"] == {"span": [20, 23], "token": "not"}
    assert run(capsys, "check-report", "inputs/r.json")[0] == 0


@pytest.mark.parametrize("chunk", [1, 3, 7])
def test_a_report_rendered_in_chunks_is_the_same(capsys, copied_inputs, monkeypatch, chunk):
    from recallscore_nb.io import reports as report_module

    frame = pd.DataFrame({"id": [i for i, _ in VARIED], "attempt": [a for _, a in VARIED]})
    frame.to_parquet("inputs/a.parquet")
    args = ("inputs/bench.json", "--attempts", "inputs/a.parquet")
    assert report(capsys, *args, schema="inputs/scoring.json", out="inputs/whole.json")[0] == 0
    monkeypatch.setattr(report_module, "_CHUNK_ROWS", chunk)
    assert report(capsys, *args, schema="inputs/scoring.json", out="inputs/chunked.json")[0] == 0
    assert Path("inputs/chunked.json").read_bytes() == Path("inputs/whole.json").read_bytes()
    _edit("inputs/chunked.json", lambda d: (d["attempts"][8].update(id="changed"),
                                           d["attempts"].pop()))
    code, out, _ = run(capsys, "check-report", "inputs/chunked.json")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == '$.attempts[8].id: stored "changed", recomputed "tab\\tid"'
    assert lines[1] == ('$.attempts[9]: stored absent, recomputed {"facts": {"location": '
                        '{"basis": {"conflict": null, "conversions": [], "cue":...')
    assert lines[2].startswith("DIFFERENT: 2 values of inputs/chunked.json differ")


def test_a_report_with_no_attempts(capsys, copied_inputs):
    Path("inputs/a.csv").write_text("id,attempt\n")
    assert report(capsys, "inputs/bench.json", "--attempts", "inputs/a.csv",
                  schema="inputs/scoring.json", out="inputs/r.json")[0] == 0
    text = Path("inputs/r.json").read_text()
    document = json.loads(text)
    assert document["attempts"] == [] and document["totals"]["mean_weighted_score"] is None
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert list(validator().iter_errors(document)) == []


def test_check_report_of_a_report_laid_out_otherwise(capsys, copied_inputs):
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0
    document = json.loads(Path("report.json").read_text())
    Path("report.json").write_text(json.dumps(document, indent=4))
    assert run(capsys, "check-report", "report.json")[:2] == (
        0, "OK: report.json matches a fresh scoring of its inputs\n")
    document["attempts"][2]["rules"]["token_f1"] = 0.5
    Path("report.json").write_text(json.dumps(document))
    code, out, _ = run(capsys, "check-report", "report.json")
    assert code == 1 and out.splitlines()[0] == "$.attempts[2].rules.token_f1: stored 0.5, recomputed 1.0"


def test_check_report_of_a_report_broken_inside_its_attempts(capsys, copied_inputs):
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0
    text = Path("report.json").read_text()
    Path("report.json").write_text(text.replace('"id": "R03"', '"id": R03'))
    code, out, err = run(capsys, "check-report", "report.json")
    assert (code, out) == (2, "")
    assert one_line_error(err).startswith("report.json: line ")
    assert "not valid JSON" in err


def test_the_report_schema_wants_every_hash_in_a_scored_report(shipped):
    document = json.loads(shipped[1])
    document["inputs"][0]["sha256"] = None
    assert [e.message for e in validator().iter_errors(document)] != []
    error = {k: v for k, v in document.items() if k not in ("attempts", "totals")}
    error.update(status="error", errors=[{"file": "x", "location": "", "rowId": None,
                                          "field": "", "message": "no such file"}])
    assert list(validator().iter_errors(error)) == []


_BASIS = {"status": "negated", "matched": "required", "terms": ["west", "drawer"],
          "spans": [[24, 28], [29, 35]], "cue": {"token": "not", "span": [16, 19]},
          "conversions": ["thousands separators: 1,000 = 1000"], "note": None}


@pytest.mark.parametrize("change", [
    {}, {"spans": []}, {"terms": [], "conversions": []}, {"matched": None, "note": "é \"q\""},
    {"cue": None}, {"spans": [(1, 2)]}, {"spans": [[np.int64(1), 2]]}, {"terms": ["a", 3]},
    {"spans": [[1, 2, 3]]}, {"status": np.str_("present")}, {"extra": True},
    {"spans": [[True, 2]]}, {"conversions": ("x",)},
])
def test_a_basis_is_rendered_as_the_json_module_would(change):
    from recallscore_nb.io.jsondocs import plain as _plain
    from recallscore_nb.io.reports import _basis_text

    basis = {**_BASIS, **change}
    pad = " " * 10
    expected = json.dumps(_plain(basis), sort_keys=True, indent=2, ensure_ascii=False)
    assert _basis_text(basis, pad) == expected.replace("\n", "\n" + pad)


def test_check_report_finds_the_header_however_far_it_reads_from_the_end(capsys, copied_inputs,
                                                                        monkeypatch):
    from recallscore_nb.io import reports as report_module

    monkeypatch.setattr(report_module, "_TAIL", 16)  # reads 16, 128, 1024 ... bytes from the end
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0
    assert run(capsys, "check-report", "report.json")[:2] == (
        0, "OK: report.json matches a fresh scoring of its inputs\n")
    text = Path("report.json").read_text()
    Path("report.json").write_text(text.replace('"weighted_score": 0.5', '"weighted_score": 0.25', 1))
    code, out, _ = run(capsys, "check-report", "report.json")
    assert code == 1
    assert out.splitlines()[0] == "$.attempts[9].weighted_score: stored 0.25, recomputed 0.5"


# --- issue 12: the scored report carries the schema's note -------------------------------
def test_a_scored_report_carries_the_disagreement_note_verbatim(capsys, tmp_path):
    note = "Only one reading: 'west' alone\nis not enough — a curator's choice."
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"schemaVersion": 1, "disagreementNote": note}), encoding="utf-8")
    shutil.copy(DEFAULT_BENCHMARK, tmp_path / "b.json")
    assert report(capsys, str(tmp_path / "b.json"), schema=str(schema),
                  out=str(tmp_path / "r.json"))[0] == 0
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert document["scorer"]["disagreement_note"] == note
    del document["scorer"]["disagreement_note"]
    assert [e.message for e in _validator("ok").iter_errors(document)] == [
        "'disagreement_note' is a required property"]


def test_a_stored_report_names_every_problem_of_its_header(tmp_path):
    from recallscore_nb.core.errors import ReportFormatError
    from recallscore_nb.io.reports import read_report

    path = tmp_path / "r.json"
    path.write_text(json.dumps({"scorer": {"squad_mode": "v9"},
                                "inputs": [{"role": "oracle", "path": "", "sha256": None}]}),
                    encoding="utf-8")
    with pytest.raises(ReportFormatError) as info:
        read_report(path)
    assert [e.location for e in info.value.errors] == [
        "$.inputs[0].path", "$.inputs[0].role", "$.scorer.squad_mode"]
