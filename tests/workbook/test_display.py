"""How a notebook's kernel shows results: DataFrames as the paper prints them, and the notes a
cell's results made after the cell's own output (none after a cell that raised)."""

from __future__ import annotations

import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from recallscore_nb.render.shown import Note
from recallscore_nb.workbook.display import NoteBoard, Published, show_tables


@pytest.fixture
def shell():
    shell = InteractiveShell.instance()
    yield shell
    InteractiveShell.clear_instance()


def test_dataframes_are_shown_as_the_paper_prints_them(shell):
    frame = pd.DataFrame({"rule": ["literal"], "mean": [0.7916666]})
    show_tables(shell)
    bundle, _ = shell.display_formatter.format(frame)
    assert "0.792" in bundle["text/plain"] and "0.791667" not in bundle["text/plain"]
    assert "<table>" in bundle["text/html"] and "0.792" in bundle["text/html"]
    assert not bundle["text/plain"].splitlines()[-1].startswith("0 ")
    show_tables(None)  # outside IPython: nothing to do


def test_notes_show_once_and_never_after_a_cell_that_raised(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kw: shown.append(obj))
    board = NoteBoard()
    board.add(Note("first"))
    board.add(None)
    board.show()
    board.show()
    assert shown == [Note("first")] and board.pending == []
    board.add(Note("lost"))
    board.show(ran=False)
    assert shown == [Note("first")] and board.pending == []


def test_the_published_outputs_show_then_what_the_notebook_found(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kw: shown.append(obj))
    published = Published(["tables/a.csv"], Note("Found", ("x",)))
    assert published == ["tables/a.csv"]
    published._ipython_display_()
    assert shown == [["tables/a.csv"], Note("Found", ("x",))]
