"""The package's exceptions: one hierarchy, with structured fields tests can assert on.

Every error that bad input can cause derives from :class:`RecallScoreError`, so the
command line catches exactly one type, prints ``str(error)`` on one line and exits 2.

>>> err = BenchmarkFormatError("bench.json", "$.rows[2]", "attempt",
...                            expected="a string", got="null", row_id="R03")
>>> str(err)
'bench.json: $.rows[2] (id R03): attempt: expected a string, got null'
"""

from __future__ import annotations

__all__ = [
    "RecallScoreError",
    "InputFileError",
    "BenchmarkFormatError",
    "AttemptsFormatError",
    "UsageError",
]


class RecallScoreError(Exception):
    """Base class of every error recallscore raises on bad input or usage.

    In a notebook, IPython shows it as one line (``_render_traceback_``), not a traceback:
    the message says what to change, the stack says nothing the user needs.
    """

    exit_code = 2

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


class UsageError(RecallScoreError, ValueError):
    """An option or argument that cannot be honoured (unknown name, bad value)."""


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
        super().__init__(self._text())

    @staticmethod
    def first_of(errors: list[InputFileError]) -> InputFileError:
        """The first error, carrying all of them in ``errors`` (validation collects every one)."""
        first = errors[0]
        first.errors = list(errors)
        return first

    def _text(self) -> str:
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
