"""A report as text: the bytes the JSON module would write, rendered a chunk at a time, and
written atomically (an error report beside an existing one)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from tests.conftest import STORED_REPORT, run_cli as run
from tests.report_fixtures import VARIED, one_line_error, report, validator

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_report_text_is_deterministic(capsys, shipped):
    _, text, _ = shipped
    assert report(capsys, out="a/r.json")[0] == 0
    assert report(capsys, out="b/r.json")[0] == 0
    first, second = Path("a/r.json").read_bytes(), Path("b/r.json").read_bytes()
    assert first == second
    assert first.decode("utf-8") == json.dumps(json.loads(first), sort_keys=True, indent=2,
                                               ensure_ascii=False) + "\n"
    assert '\n  "attempts": [\n' in text and text.endswith("}\n")


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


def test_a_report_with_no_attempts(capsys, copied_inputs):
    Path("inputs/a.csv").write_text("id,attempt\n")
    assert report(capsys, "inputs/bench.json", "--attempts", "inputs/a.csv",
                  schema="inputs/scoring.json", out="inputs/r.json")[0] == 0
    text = Path("inputs/r.json").read_text()
    document = json.loads(text)
    assert document["attempts"] == [] and document["totals"]["mean_weighted_score"] is None
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert list(validator().iter_errors(document)) == []


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
    from recallscore_nb.io.reports.text import _basis_text

    basis = {**_BASIS, **change}
    pad = " " * 10
    expected = json.dumps(_plain(basis), sort_keys=True, indent=2, ensure_ascii=False)
    assert _basis_text(basis, pad) == expected.replace("\n", "\n" + pad)


def test_the_stored_shipped_report_is_what_report_writes(shipped):
    _, text, _ = shipped
    stored = json.loads(STORED_REPORT.read_text(encoding="utf-8"))
    fresh = json.loads(text)
    assert {k: v for k, v in stored.items() if k != "inputs"} == \
        {k: v for k, v in fresh.items() if k != "inputs"}


def test_attempt_texts_render_the_values_they_are_given():
    from recallscore_nb.io.reports.text import attempt_texts

    scores = pd.DataFrame({"id": ["a", "é\t"], "attempt": ["x", "y"],
                           "literal_match": [True, False], "token_f1": [0.5, 1.0]})
    basis = {"status": "present", "matched": "x", "spans": [[0, 1]], "terms": [],
             "conversions": [], "note": None, "cue": None}
    statuses = pd.DataFrame({"status_f": ["present", "missing"],
                             "basis_f": [basis, {**basis, "status": "missing", "matched": None}],
                             "weighted_score": [1.0, 0.0]})
    texts = attempt_texts(scores, statuses, ["f"])
    parsed = [json.loads(text) for text in texts]
    assert parsed[1] == {"facts": {"f": {"basis": {**basis, "status": "missing", "matched": None},
                                         "status": "missing"}},
                         "id": "é\t", "rules": {"literal_match": False, "token_f1": 1.0},
                         "weighted_score": 0.0}
    assert texts[0].startswith('    {\n      "facts": {\n        "f": {')
    assert parsed[0]["rules"] == {"literal_match": True, "token_f1": 0.5}
    assert attempt_texts(scores.iloc[:0], statuses.iloc[:0], ["f"]) == []


def test_attempt_texts_refuse_a_value_out_of_its_range():
    from recallscore_nb.io.reports.text import attempt_texts

    scores = pd.DataFrame({"id": ["a"], "attempt": ["x"], "token_f1": [1.5]})
    statuses = pd.DataFrame({"weighted_score": [1.0]})
    with pytest.raises(ValueError, match="outside \\[0, 1\\]: a bug in the scorer"):
        attempt_texts(scores, statuses, [])
