"""Attempts files that name their systems: what notebook 05 refuses (no system column, a
system name kept for the controls, a null system) and what notebook 08 reads."""

from __future__ import annotations

import pytest

from recallscore_nb.core.errors import AttemptsFormatError
from recallscore_nb.io.data import (DEFAULT_JUDGED_ATTEMPTS, DEFAULT_JUDGED_ITEMS,
                                    DEFAULT_JUDGMENTS, JUDGED_EXAMPLE)
from recallscore_nb.io.attempts.systems import read_judged_files
from tests.analysis.notebook_steps import read_attempts, session_05, write_attempts


@pytest.mark.parametrize(
    ("header", "rows", "field", "location"),
    [
        ("id,attempt", ["a1,The copper token."], "system", ""),
        ("id,system,attempt", ["a1,s,x", "a2,control:me,y"], "system", "row 1"),
    ],
)
def test_bad_attempts_files(tmp_path, header, rows, field, location):
    attempts = write_attempts(tmp_path, rows, header=header)
    nb = session_05(tmp_path, attempts_path=str(attempts))
    with pytest.raises(AttemptsFormatError) as info:
        read_attempts(nb)
    assert (info.value.file, info.value.field, info.value.location) == (
        str(attempts), field, location)


def test_a_null_system_is_located(tmp_path):
    path = tmp_path / "attempts.jsonl"
    path.write_text('{"id": "a1", "system": "s", "attempt": "x"}\n'
                    '{"id": "a2", "system": null, "attempt": "y"}\n', encoding="utf-8")
    nb = session_05(tmp_path, attempts_path=str(path))
    with pytest.raises(AttemptsFormatError) as info:
        read_attempts(nb)
    assert (info.value.location, info.value.row_id, info.value.got) == ("row 1", "a2", "null")


def test_the_shipped_judged_files_are_read_and_shown_as_counts():
    judged = read_judged_files(DEFAULT_JUDGED_ITEMS, DEFAULT_JUDGED_ATTEMPTS,
                                  DEFAULT_JUDGMENTS)
    assert DEFAULT_JUDGED_ITEMS.parent == JUDGED_EXAMPLE
    assert repr(judged).splitlines() == [
        "8 items", "24 attempts by span, verbose, guesser",
        "96 verdicts by annotator1, annotator2, annotator3, human"]


def test_judged_attempts_name_their_item_and_system(tmp_path):
    attempts = write_attempts(tmp_path, ["a1,s,Paris"], header="id,system,attempt")
    with pytest.raises(AttemptsFormatError) as info:
        read_judged_files(DEFAULT_JUDGED_ITEMS, attempts, DEFAULT_JUDGMENTS)
    assert (info.value.file, info.value.field) == (str(attempts), "item")
