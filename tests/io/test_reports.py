"""Scored reports as a whole (`recallscore report`, `score --schema`), and the names the
report modules give through :mod:`recallscore_nb.io.reports`.

Every case calls :func:`recallscore_nb.cli.main` in-process, in a temporary folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
from tests.conftest import NOTELESS_SCHEMA, run_cli as run
from tests.report_fixtures import one_line_error, report


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
    from recallscore_nb.io.reports import reading as report_reading
    from recallscore_nb.io.reports import schema as report_schema, text as report_text
    from recallscore_nb.io import reports

    assert reports.read_report is report_reading.read_report
    assert reports.write_report is report_text.write_report
    assert reports.Report is report_text.Report
    assert reports.REPORT_SCHEMA is report_schema.REPORT_SCHEMA
    assert not hasattr(reports, "build_report")  # building computes: execution.reports


# --- score --schema -------------------------------------------------------------------------


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
