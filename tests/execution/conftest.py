"""Fixtures the tests of scored reports share (they and the helpers are in
``tests/report_fixtures.py``: the reports' tests are in tests/io/reports and
tests/execution/reports)."""

from tests.report_fixtures import copied_inputs, shipped  # noqa: F401  (fixtures)
