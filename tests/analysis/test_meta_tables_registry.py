"""Notebook 08's table registry: a new table is one function and its record (CONTRIBUTING.md,
"Adding a table to notebook 08") and one cell, which builds it, saves it and shows its note;
every registered table is what the notebook's own cell saves under its name."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import recallscore_nb as rs
from recallscore_nb.analysis import meta_tables
from recallscore_nb.analysis.meta_tables import META_TABLES, MetaTable, register_meta_table
from recallscore_nb.core.errors import UsageError
from tests.analysis.notebook_steps import evaluate
from tests.workbook.sessions import session, written

STEM = "08_human_agreement"
ROOT = Path(__file__).resolve().parents[2]
CELL = 'judged = rs.meta_table("judged", evaluation)\nnb.save("judged", judged)\n'
"""The new table's cell, as CONTRIBUTING.md shows it."""


def judged_attempts(evaluation) -> pd.DataFrame:
    """How many attempts each judge judged, per set."""
    agreement = evaluation.agreement
    return agreement.groupby(["set", "judge"], sort=False, as_index=False)["n"].first()


def judged_note(table: pd.DataFrame) -> str:
    return f"{len(table)} judges, at least {table['n'].min()} attempts each."


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("out08")
    return evaluate(session(STEM, folder, resamples=20, sets="example"))


@pytest.fixture
def registered(monkeypatch):
    """The new table, registered on a copy of the registry (gone after the test)."""
    monkeypatch.setattr(meta_tables, "META_TABLES", dict(META_TABLES))
    return register_meta_table(MetaTable("judged", judged_attempts, note=judged_note))


def test_a_registered_table_is_built_saved_and_says_what_it_shows(registered, example,
                                                                   tmp_path):
    assert "judged" in meta_tables.META_TABLES and "judged" not in META_TABLES
    nb = session(STEM, tmp_path, resamples=20, sets="example")
    namespace = {"rs": rs, "nb": nb, "evaluation": example}
    exec(compile(CELL, "the new cell", "exec"), namespace)
    assert namespace["judged"].to_dict("list") == {
        "set": ["example"] * 4, "judge": ["annotator1", "annotator2", "annotator3", "human"],
        "n": [24] * 4}
    assert written(tmp_path, STEM, "judged")
    assert [note.text for note in nb._board.pending] == ["4 judges, at least 24 attempts each."]


def test_the_real_registry_is_left_as_it_was():
    assert list(META_TABLES) == ["systems", "accuracy", "accuracy_judges", "agreement", "ranking",
                                 "ranks", "annotators", "like_with_like", "categories",
                                 "examples"]
    assert all(table.note is None for table in META_TABLES.values())  # theirs: render/notes.py


def test_a_name_registered_twice_or_unknown_is_refused(registered, example):
    with pytest.raises(ValueError, match="'judged' is registered already"):
        register_meta_table(MetaTable("judged", judged_attempts))
    with pytest.raises(UsageError, match=r"unknown table 'nope' of notebook 08 \(known: "
                                         r"systems, accuracy, .*, examples, judged\)"):
        rs.meta_table("nope", example)


def test_options_given_replace_the_registered_ones(example):
    pd.testing.assert_frame_equal(rs.meta_table("accuracy", example, columns="all"),
                                  rs.accuracy_table(example))


def _saved_by_the_notebook() -> dict[str, str]:
    """Each table notebook 08 saves (its name) -> the expression its cell binds it to (the
    figures, saved under the same names, left out)."""
    saved = {}
    for cell in nbformat.read(ROOT / "notebooks" / f"{STEM}.ipynb", as_version=4).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        bound = {node.targets[0].id: ast.unparse(node.value) for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and ast.unparse(node.func) == "nb.save"
                    and isinstance(node.args[1], ast.Name) and node.args[1].id in bound
                    and "_figure(" not in bound[node.args[1].id]):
                saved[node.args[0].value] = bound[node.args[1].id]
    return saved


def test_every_registered_table_is_what_the_notebook_saves_under_its_name(example):
    saved = _saved_by_the_notebook()
    manifest = json.loads((ROOT / "reports" / "manifest.json").read_text())
    outputs = {o["path"] for o in manifest["notebooks"][STEM]["outputs"]}
    for name in META_TABLES:
        assert f"tables/{STEM}__{name}.csv" in outputs, name
        expected = eval(saved[name], {"rs": rs, "evaluation": example})  # noqa: S307
        pd.testing.assert_frame_equal(rs.meta_table(name, example), expected, obj=name)
