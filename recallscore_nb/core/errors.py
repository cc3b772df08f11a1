"""The package's exceptions, all of them: one hierarchy, with structured fields tests can
assert on.

Every error that bad input can cause derives from :class:`RecallScoreError`, so the
command line catches exactly one type and prints ``str(error)`` on one line (its exit codes
are the command line's, :func:`recallscore_nb.cli.main.exit_code`).

- :class:`UsageError`: an option or argument that cannot be honoured.
- :class:`InputFileError` and one subclass per kind of input file (benchmark, attempts,
  items, scoring schema, catalogue, stored report, a source to convert), each naming the
  file, the location, the row id and the field.
- Audited reports: :class:`InputChangedError`, :class:`UpdateRefusedError`.
- The workbook: :class:`NotebookFailed`, :class:`PublishError`,
  :class:`VacuousControlError`.

>>> err = BenchmarkFormatError("bench.json", "$.rows[2]", "attempt",
...                            expected="a string", got="null", row_id="R03")
>>> str(err)
'bench.json: $.rows[2] (id R03): attempt: expected a string, got null'
"""

from __future__ import annotations

__all__ = [
    "Unstreamable",
    "RecallScoreError",
    "UsageError",
    "OutputWriteError",
    "InputFileError",
    "BenchmarkFormatError",
    "AttemptsFormatError",
    "ItemsFormatError",
    "SchemaFormatError",
    "CatalogueFormatError",
    "ReportFormatError",
    "JudgmentsFormatError",
    "SourceFormatError",
    "InputChangedError",
    "UpdateRefusedError",
    "NotebookFailed",
    "PublishError",
    "VacuousControlError",
    "Terminated",
]


class RecallScoreError(Exception):
    """Base class of every error recallscore raises on bad input or usage."""


class UsageError(RecallScoreError, ValueError):
    """An option or argument that cannot be honoured (unknown name, bad value)."""


class OutputWriteError(UsageError):
    """An output that could not be written (a full disk, a file size limit, no permission);
    ``path`` is the output as the user named it, ``reason`` what went wrong.

    >>> str(OutputWriteError("out/s.csv", "cannot write (File too large)"))
    'out/s.csv: cannot write (File too large)'
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}")


class InputFileError(RecallScoreError):
    """A problem located in an input file.

    Parameters
    ----------
    file : str
        The file as the user named it (never made absolute).
    location : str
        A JSON path (``$.rows[2]``), ``line 7`` or ``row 3``; empty for the whole file.
    field : str
        The field at fault; empty when the problem is not tied to one field.
    expected, got : str
        What was expected and what was found; ``message`` replaces both when given.
    row_id : str or None
        The id of the row, when the location is a row that has one.
    """

    def __init__(
        self,
        file: str,
        location: str = "",
        field: str = "",
        *,
        expected: str = "",
        got: str = "",
        message: str = "",
        row_id: str | None = None,
    ) -> None:
        self.file = str(file)
        self.location = location
        self.field = field
        self.expected = expected
        self.got = got
        self.row_id = row_id
        self.message = message or f"expected {expected}, got {got}"
        self.errors: list[InputFileError] = [self]
        super().__init__(self.text())

    @staticmethod
    def first_of(errors: list[InputFileError]) -> InputFileError:
        """The first error, carrying all of them in ``errors`` (validation collects every one)."""
        first = errors[0]
        first.errors = list(errors)
        return first

    def text(self) -> str:
        """The one line shown for the error: file, location (with the row's id), field and
        message, each when known, joined by ``": "``; what ``str(error)`` is (and what a copy
        unpickled in another process is given again as its text).

        >>> InputFileError("a.csv", "line 3", "attempt", message="empty").text()
        'a.csv: line 3: attempt: empty'
        """
        where = self.location
        if self.row_id is not None:
            where = f"{where} (id {self.row_id})" if where else f"(id {self.row_id})"
        parts = [p for p in (self.file, where, self.field) if p]
        return ": ".join(parts + [self.message])

    def as_dict(self) -> dict[str, str | None]:
        """The structured fields, as error reports record them."""
        return {
            "file": self.file,
            "location": self.location,
            "rowId": self.row_id,
            "field": self.field,
            "message": self.message,
        }


class BenchmarkFormatError(InputFileError):
    """A benchmark file that is not valid (JSON, schema, or its own checklist)."""


class AttemptsFormatError(InputFileError):
    """An attempts file that cannot be scored (missing column, null attempt, duplicate id)."""


class ItemsFormatError(InputFileError):
    """An items file that is not valid (a line, a field, or a repeated item id)."""


class SchemaFormatError(InputFileError):
    """A scoring schema file that is not valid (JSON, JSON Schema, or against its benchmark)."""


class CatalogueFormatError(InputFileError):
    """A catalogue file that is not valid: JSON, schema, ids, or a flag's evidence."""


class ReportFormatError(InputFileError):
    """A stored report that cannot be checked: unreadable, not JSON, or not a report."""


class JudgmentsFormatError(InputFileError):
    """A judgments file that is not valid: a column, an unknown item or system, a verdict that
    is not one, a judgment that matches no attempt, or two verdicts of one judge that differ."""


class SourceFormatError(InputFileError):
    """A source of ``recallscore convert`` (a public set of human judgments) that is not as
    its data set writes it: not UTF-8 text, a line that is not JSON, a record of the wrong
    shape, a TSV row of the wrong width or with an unterminated quote, an unknown verdict."""


# --- audited reports ------------------------------------------------------------------------
class InputChangedError(RecallScoreError):
    """An input a stored report names no longer has the hash the report recorded.

    ``report`` is the report as the caller named it, ``role`` and ``path`` the input as the
    report names it, ``stored`` and ``actual`` the two SHA-256 hashes (``actual`` None when
    the file is gone).
    """

    def __init__(self, report: str, role: str, path: str, stored: str | None,
                 actual: str | None) -> None:
        self.report, self.role, self.path = report, role, path
        self.stored, self.actual = stored, actual
        now = actual or "no readable file"
        super().__init__(
            f"{report}: input {role} {path} changed since the report was written "
            f"(sha256 stored {stored or 'none (unreadable)'}, now {now}); "
            f"score it again with `recallscore report`")


class UpdateRefusedError(RecallScoreError):
    """``check-report --update`` would replace a report with an error report: the report is
    left as it was. ``report`` is the report as the caller named it, ``error`` the first
    error of the fresh scoring."""

    def __init__(self, report: str, error: InputFileError) -> None:
        self.report, self.error = report, error
        super().__init__(f"{report}: not rewritten: a fresh scoring of its inputs gives an "
                         f"error report ({error})")


# --- the workbook ---------------------------------------------------------------------------
class NotebookFailed(RecallScoreError):
    """A notebook raised while it ran: which notebook, which cell, which error (``ename``,
    the class name of what it raised, and ``evalue``, its text)."""

    def __init__(self, notebook: str, cell: int | None, ename: str, evalue: str) -> None:
        self.notebook, self.cell, self.ename, self.evalue = notebook, cell, ename, evalue
        where = f"at cell {cell}" if cell is not None else "before its first cell"
        super().__init__(f"notebook {notebook} failed {where}: {ename}: {evalue}")


class PublishError(RecallScoreError):
    """Outputs could not be moved into place; the previous ones were put back."""


class VacuousControlError(RecallScoreError):
    """A negative control scored above zero under some rule: that rule passes vacuously.

    ``failures`` holds ``(control, rule, score)`` for every such case, worst first.
    """

    def __init__(self, failures: list[tuple[str, str, float]]) -> None:
        self.failures = failures
        control, rule, score = failures[0]
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        super().__init__(
            f"negative control {control!r} scores {score:g} under {rule}, expected 0: "
            f"the rule passes an attempt that states no fact (a vacuous pass){more}")


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived (raised by the command line's handler; ``signum``: which,
    15 or 1). A BaseException, as KeyboardInterrupt is: no ``except Exception`` takes it for
    a fault of the work, and every ``finally`` on the way up runs, so outputs are left as
    they were.

    >>> Terminated().signum, Terminated(1).signum
    (15, 1)
    """

    def __init__(self, signum: int = 15) -> None:
        super().__init__(signum)
        self.signum = signum


class Unstreamable(Exception):
    """Reading in chunks would not give what reading whole gives (the chunks' columns or
    types differ: pandas infers a column's type from its values); read the file whole.
    Not a user's error: the reader falls back to reading whole."""
