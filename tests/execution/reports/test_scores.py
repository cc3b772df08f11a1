"""An ok report's scores: rule values, fact statuses and totals.

The shipped benchmark under the shipped scoring schema, counted by hand (weights material 1,
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

from pathlib import Path

import pandas as pd
import pytest

from recallscore_nb.core.rules import verdict_columns
from tests.conftest import run_cli as run
from tests.report_fixtures import FACTS, IDS, NOT_PRESENT, VARIED, WEIGHTED, _edit, report

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


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


@pytest.mark.parametrize("chunk", [1, 3, 7])
def test_a_report_rendered_in_chunks_is_the_same(capsys, copied_inputs, monkeypatch, chunk):
    from recallscore_nb.execution.reports import scores as report_module

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
