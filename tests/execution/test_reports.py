"""The names :mod:`recallscore_nb.execution.reports` gives: building a report and checking a
stored one (each module's own tests are in ``tests/execution/reports/``)."""

from __future__ import annotations


def test_the_report_modules_names_are_given_here():
    from recallscore_nb.execution import reports
    from recallscore_nb.execution.reports import build, check, scores

    assert reports.build_report is build.build_report
    assert reports.check_report is check.check_report
    assert reports.Scored is scores.Scored


def test_a_built_report_is_the_io_layers_value_and_renders_there(tmp_path):
    from recallscore_nb.execution.reports import build_report
    from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
    from recallscore_nb.io.reports import Report, render_report

    built = build_report(schema_path=DEFAULT_SCHEMA_PATH, base_dir=tmp_path)
    assert isinstance(built, Report) and built.ok
    assert built.text() == "".join(render_report(built.document, built.attempt_chunks()))
    assert built.text().count('"weighted_score"') == 12
