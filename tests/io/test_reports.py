"""Scored reports as a whole (`recallscore report`, `score --schema`), and the names the
report modules give through :mod:`recallscore_nb.io.reports`.

Every case calls :func:`recallscore_nb.cli.main` in-process, in a temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.rules import rules_for
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from tests.conftest import NOTELESS_SCHEMA, run_cli as run
from tests.report_fixtures import FACTS, IDS, WEIGHTED, one_line_error, report, sha


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_report_says_what_it_wrote(capsys):
    code, out, err = report(capsys)
    assert (code, err) == (0, "")
    assert out == "wrote report.json: 12 attempts, mean weighted score 0.8819\n"
    assert sorted(p.name for p in Path(".").iterdir()) == ["report.json"]


def test_report_out_must_be_json(capsys):
    code, out, err = report(capsys, out="r.csv")
    assert (code, out) == (2, "")
    assert one_line_error(err) == "r.csv: --out must end in .json (got '.csv')"


def test_the_report_modules_names_are_given_here_too():
    from recallscore_nb.io import report_build, report_check, report_schema, report_text
    from recallscore_nb.io import reports

    assert reports.build_report is report_build.build_report
    assert reports.check_report is report_check.check_report
    assert reports.write_report is report_text.write_report
    assert reports.REPORT_SCHEMA is report_schema.REPORT_SCHEMA


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
