"""Scored reports: every attempt's rule values and fact statuses, with the hash of every input,
and the check that a stored report still matches the scorer.

A report is one JSON document, described by ``data/schemas/report.schema.json`` and the rule
registry (:func:`~recallscore_nb.io.reports.schema.report_schema`):

``status``
    ``"ok"``, or ``"error"`` when an input (benchmark, attempts or scoring schema) is invalid.
``scorer``
    ``version`` (the package's), ``squad_mode``, ``signatures``: every rule's, then those of
    the normalizers the rules compare under (:func:`recallscore_nb.core.registry.
    signatures`), then the scoring schema's when it was read; and ``disagreement_note``, the scoring schema's
    ``disagreementNote`` verbatim (why its key is one defensible reading), when it was read.
``inputs``
    ``{role, path, sha256}`` for the benchmark (or the items file, role ``items``), the
    attempts (when given; required with an items file) and the scoring schema, in that order. Each ``path`` is relative to the report's folder (POSIX
    separators, as :func:`os.path.relpath` gives it), so a report moves with its inputs;
    ``sha256`` is null for a file that could not be read.
``attempts`` (ok only)
    For each attempt, in input order: ``id``; ``rules``, every rule's own value (by column,
    :func:`recallscore_nb.core.rules.verdict_columns`);
    ``facts``, each fact's ``status`` and ``basis`` (see
    :func:`recallscore_nb.core.status.fact_status`); ``weighted_score``. For an items file,
    also ``item``; ``facts`` are the item's own (none, and a null weighted score and
    checklist values, for an item without a checklist).
``totals`` (ok only)
    ``count``, ``mean_weighted_score`` (null for no attempts) and ``status_counts``: per fact,
    how many attempts have each status (zeros included).
``errors`` (error only)
    Every problem found, each ``{file, location, rowId, field, message}``: ``location`` is a
    JSON path (``$.rows[2]``) or a line; ``file`` is relative to the report's folder.
    An error report holds no score.

The text is deterministic: keys sorted, two-space indent, a trailing newline, floats as
Python's ``repr``, non-ASCII text as UTF-8 — what ``json.dumps(report, sort_keys=True,
indent=2, ensure_ascii=False)`` writes. Reports are written atomically; an error report
never replaces an existing file (it goes beside it as ``<stem>.error.json``).

Each job has its module: :mod:`~recallscore_nb.io.reports.text` holds a built report as a
value (:class:`~recallscore_nb.io.reports.text.Report`), renders its text from the values it
is given and writes it; :mod:`~recallscore_nb.io.reports.schema` holds the report schema (its
rules' part generated from the rule registry) and validates against it;
:mod:`~recallscore_nb.io.reports.reading` reads a stored report and lists each value that
differs from a fresh one, by JSON path. Building and scoring a report, and checking a stored
one against a fresh scoring of its inputs, compute: they are
:mod:`recallscore_nb.execution.reports`' (``build_report``, ``check_report``). This module
gathers the public names of its own.
"""

from .reading import differences, read_report, report_differences
from .schema import REPORT_SCHEMA, ROLES, report_schema, validate_report
from .text import Report, attempt_texts, error_path, render_report, report_json, write_report

__all__ = [
    "Report",
    "ROLES",
    "REPORT_SCHEMA",
    "attempt_texts",
    "render_report",
    "report_json",
    "validate_report",
    "write_report",
    "read_report",
    "differences",
    "report_differences",
    "error_path",
    "report_schema",
]
