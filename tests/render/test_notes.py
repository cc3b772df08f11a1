"""The sentence registry: every entry names a result its notebook writes, every notebook closes
with what it found, a figure says what the table of its name says, and entries given besides
:data:`NOTES` (the workbook's, from notebook 08's table registry) are read as its own. That
every result says something, here or with its registered table, is checked in
tests/workbook/test_notes.py."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from recallscore_nb.render.notes import FOUND, FOUND_HEADING, NOTES, found_for, note_for

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "reports" / "manifest.json").read_text())


def results_of(stem: str) -> set[str]:
    """The tables and (``figure:<name>``) figures notebook ``stem`` writes, by the manifest."""
    outputs = [Path(o["path"]) for o in MANIFEST["notebooks"][stem]["outputs"]]
    return ({p.stem.split("__", 1)[1] for p in outputs if p.parent.name == "tables"}
            | {"figure:" + p.stem.split("__", 1)[1] for p in outputs if p.parent.name == "figures"})


def test_every_entry_names_a_result_its_notebook_writes():
    for key in NOTES:
        stem, what = key.split("/")
        assert what in results_of(stem), key


def test_every_notebook_closes_with_what_it_found():
    assert sorted(FOUND) == sorted(MANIFEST["notebooks"])


def test_entries_given_besides_the_registry_are_read_as_its_own():
    tables = {"summary": pd.DataFrame({"field": ["x"], "published": [1], "recomputed": [1]})}
    given = {"99_other/summary": lambda t: f"{len(t['summary'])} field."}
    assert note_for("99_other", "summary", tables, notes=given).text == "1 field."
    assert note_for("99_other", "summary", tables, figure=True, notes=given).text == "1 field."
    assert note_for("99_other", "other", tables, notes=given) is None
    assert "99_other/summary" not in NOTES


def test_a_figure_says_what_its_table_says_and_a_stem_without_notes_says_nothing():
    summary = pd.DataFrame({"field": ["variantCount"], "published": [12], "recomputed": [11]})
    tables = {"summary": summary}
    assert (note_for("01_reproduce_benchmark", "summary", tables, figure=True)
            == note_for("01_reproduce_benchmark", "summary", tables))
    assert note_for("01_reproduce_benchmark", "summary", tables).text == (
        "1 published count differs: variantCount (published 12, recomputed 11).")
    assert note_for("99_other", "summary", tables) is None and found_for("99_other", {}) is None


def test_what_a_notebook_found_is_composed_from_its_numbers():
    numbers = {"RowsAgreeing": "11", "VariantCount": "12", "LiteralFullMatches": "1",
               "NormalizedFullMatches": "4", "ChecklistFullMatches": "8"}
    found = found_for("01_reproduce_benchmark", numbers)
    assert found.text == FOUND_HEADING
    assert found.lines == ("11 of 12 rows reproduce their published labels.",
                           "Full matches recomputed: literal 1, normalized 4, checklist 8.")
