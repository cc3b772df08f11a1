"""The sentences a session shows: every table and figure of every notebook says something,
through :data:`~recallscore_nb.render.notes.NOTES` or the note its table was registered with
(notebook 08's registry), never both; a registered note is shown under its table and its
figure."""

from __future__ import annotations


import pandas as pd

from recallscore_nb.analysis import meta_tables
from recallscore_nb.analysis.meta_tables import META_TABLES, MetaTable, register_meta_table
from recallscore_nb.render.notes import NOTES
from recallscore_nb.workbook.notes import META_STEM, registered_notes, result_note
from tests.render.test_notes import MANIFEST, results_of

def test_every_table_and_figure_of_every_notebook_says_something():
    for stem in sorted(MANIFEST["notebooks"]):
        notes = {**NOTES, **registered_notes(stem)}
        for what in results_of(stem):
            plain = what.removeprefix("figure:")
            assert f"{stem}/{what}" in notes or f"{stem}/{plain}" in notes, f"{stem}/{what}"


def test_a_registered_note_is_no_entry_of_the_render_registry_too():
    assert set(registered_notes(META_STEM)).isdisjoint(NOTES)


def test_a_registered_note_is_shown_under_its_table_and_its_figure(monkeypatch):
    monkeypatch.setattr(meta_tables, "META_TABLES", dict(META_TABLES))
    register_meta_table(MetaTable("dummy", len, note=lambda t: f"{len(t)} rows."))
    tables = {"dummy": pd.DataFrame({"x": [1, 2]})}
    assert result_note(META_STEM, "dummy", tables).text == "2 rows."
    assert result_note(META_STEM, "dummy", tables, figure=True).text == "2 rows."
    assert result_note("05_reanalysis", "dummy", tables) is None
    assert result_note(META_STEM, "accuracy", {"accuracy": pd.DataFrame(
        {"set": ["s"], "system": ["a"], "human": [1.0], "rule": [0.5]})}).text == (
        "The measure closest to human's accuracies, system by system: s rule (mean gap 0.500).")


def test_the_notes_of_a_notebook_without_a_registry_are_the_render_registrys():
    assert registered_notes("05_reanalysis") == {}
    assert result_note("99_other", "summary", {}) is None
