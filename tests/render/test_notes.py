"""The sentence registry: every entry names a result its notebook writes, every notebook but
08 (which adopts it with issue 20) closes with what it found, and a figure says what the table
of its name says."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from recallscore_nb.render.notes import FOUND, FOUND_HEADING, NOTES, found_for, note_for

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "reports" / "manifest.json").read_text())
ADOPTING: set[str] = set()
"""Notebooks whose results do not say anything yet (their owner adopts the notes)."""


def _results(stem: str) -> set[str]:
    outputs = [Path(o["path"]) for o in MANIFEST["notebooks"][stem]["outputs"]]
    return ({p.stem.split("__", 1)[1] for p in outputs if p.parent.name == "tables"}
            | {"figure:" + p.stem.split("__", 1)[1] for p in outputs if p.parent.name == "figures"})


def test_every_entry_names_a_result_its_notebook_writes():
    for key in NOTES:
        stem, what = key.split("/")
        assert what in _results(stem), key


def test_every_table_and_figure_of_notebooks_01_to_07_says_something():
    for stem in sorted(set(MANIFEST["notebooks"]) - ADOPTING):
        for what in _results(stem):
            plain = what.removeprefix("figure:")
            assert f"{stem}/{what}" in NOTES or f"{stem}/{plain}" in NOTES, f"{stem}/{what}"
        assert stem in FOUND, stem


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
