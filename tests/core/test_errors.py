"""The package's exceptions: all of them in core/errors.py, with the structured fields and exit
codes the command line and reports rely on."""

from __future__ import annotations

import importlib
import inspect
import pkgutil


import recallscore_nb
from recallscore_nb.core import errors
from recallscore_nb.core.errors import (
    InputChangedError,
    InputFileError,
    NotebookFailed,
    SchemaFormatError,
    UpdateRefusedError,
    VacuousControlError,
)


def _package_exceptions() -> dict[str, type]:
    found = {}
    for info in pkgutil.walk_packages(recallscore_nb.__path__, "recallscore_nb."):
        if info.name == "recallscore_nb.__main__":
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == info.name):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_public_exception_class_is_defined_in_core_errors():
    outside = sorted(name for name, cls in _package_exceptions().items()
                     if cls.__module__ != "recallscore_nb.core.errors"
                     and not cls.__name__.startswith("_"))
    assert outside == []
    assert set(errors.__all__) == {cls.__name__ for cls in _package_exceptions().values()
                                   if cls.__module__ == "recallscore_nb.core.errors"}


def test_an_input_file_error_names_file_location_row_and_field():
    error = SchemaFormatError("s.json", "$.facts", "weight", expected="a number > 0", got="-1",
                              row_id="location")
    assert str(error) == "s.json: $.facts (id location): weight: expected a number > 0, got -1"
    assert error.as_dict() == {"file": "s.json", "location": "$.facts", "rowId": "location",
                               "field": "weight", "message": "expected a number > 0, got -1"}
    assert isinstance(error, InputFileError)


def test_first_of_carries_every_error():
    first, second = InputFileError("a", message="one"), InputFileError("b", message="two")
    assert InputFileError.first_of([first, second]).errors == [first, second]


def test_structured_fields_of_the_report_and_workbook_errors():
    changed = InputChangedError("r.json", "schema", "s.json", "aa", "bb")
    assert (changed.role, changed.stored, changed.actual) == ("schema", "aa", "bb")
    assert str(changed).startswith("r.json: input schema s.json changed since the report was "
                                   "written (sha256 stored aa, now bb)")
    refused = UpdateRefusedError("r.json", InputFileError("b.json", message="no such file"))
    assert str(refused) == ("r.json: not rewritten: a fresh scoring of its inputs gives an error "
                            "report (b.json: no such file)")
    failed = NotebookFailed("05_reanalysis", None, "DeadKernelError", "died")
    assert (failed.cell, str(failed)) == (
        None, "notebook 05_reanalysis failed before its first cell: DeadKernelError: died")
    vacuous = VacuousControlError([("control:idk", "token_f1", 0.25), ("control:empty", "x", 0.1)])
    assert str(vacuous).endswith("(a vacuous pass) (and 1 more)")
