"""Checking a stored report (`recallscore check-report`): recomputed from its inputs, each
difference named, inputs read only where allowed, `--update`."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recallscore_nb.io.data import DATA_DIR, DEFAULT_BENCHMARK
from recallscore_nb.execution.reports.check import check_report
from recallscore_nb.workbook.paths import REPO_ROOT
from tests.conftest import STORED_REPORT, run_cli as run
from tests.report_fixtures import (
    _null_attempt_benchmark,
    DOCS_EXAMPLE,
    _edit,
    _write_inputs_beside,
    one_line_error,
    report,
    sha,
    validator,
)

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


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


def test_the_docs_example_is_a_checked_report(capsys):
    document = json.loads(DOCS_EXAMPLE.read_text(encoding="utf-8"))
    assert list(validator().iter_errors(document)) == []
    assert run(capsys, "check-report", DOCS_EXAMPLE, "--inputs-within", REPO_ROOT)[0] == 0


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


def test_check_report_finds_the_header_however_far_it_reads_from_the_end(capsys, copied_inputs,
                                                                        monkeypatch):
    from recallscore_nb.io.reports import reading as report_module

    monkeypatch.setattr(report_module, "_TAIL", 16)  # reads 16, 128, 1024 ... bytes from the end
    assert report(capsys, "inputs/bench.json", schema="inputs/scoring.json")[0] == 0
    assert run(capsys, "check-report", "report.json")[:2] == (
        0, "OK: report.json matches a fresh scoring of its inputs\n")
    text = Path("report.json").read_text()
    Path("report.json").write_text(text.replace('"weighted_score": 0.5', '"weighted_score": 0.25', 1))
    code, out, _ = run(capsys, "check-report", "report.json")
    assert code == 1
    assert out.splitlines()[0] == "$.attempts[9].weighted_score: stored 0.25, recomputed 0.5"
