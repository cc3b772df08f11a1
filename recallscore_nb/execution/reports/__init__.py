"""Building a scored report from its inputs, and checking a stored one against a fresh scoring
of the inputs it names.

:func:`~recallscore_nb.execution.reports.build.build_report` loads the inputs, scores the
attempts with every rule and counts the totals (the statuses a chunk of attempts at a time,
:class:`~recallscore_nb.execution.reports.scores.Scored`), writing nothing;
:func:`~recallscore_nb.execution.reports.check.check_report` recomputes a stored report and
compares it. The report's document, text and schema, and reading a stored one, are
:mod:`recallscore_nb.io.reports`'.
"""

from .build import build_report
from .check import check_report
from .scores import Scored

__all__ = ["build_report", "check_report", "Scored"]
