"""JupyterLab saves the notebooks of notebooks/ in their stored form: a run and a save leave
the file as committed, an edit stays; notebooks elsewhere are saved as they are."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat
import pytest

from recallscore_nb.workbook import lab
from recallscore_nb.workbook.lab import keep_stored_form, stored_form

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def run_in_lab(node: dict) -> dict:
    """``node`` as JupyterLab holds it after Run All: outputs, counts, its kernel name."""
    node = copy.deepcopy(node)
    node["metadata"]["kernelspec"]["display_name"] = "Python 3 (ipykernel)"
    node["metadata"]["language_info"] = {"name": "python", "version": "3.11.2",
                                         "file_extension": ".py", "mimetype": "text/x-python"}
    for count, cell in enumerate(node["cells"], start=1):
        cell["metadata"]["scrolled"] = True
        if cell["cell_type"] == "code":
            cell["execution_count"] = count
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x\n"}]
    return node


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_committed_notebook_run_and_saved_is_saved_as_committed(path):
    """Issue 21: open a committed notebook in JupyterLab, run all, save: git status stays
    clean (the server writes nbformat's JSON, then a newline)."""
    committed = path.read_text(encoding="utf-8")
    saved = stored_form(run_in_lab(json.loads(committed)))
    assert nbformat.writes(nbformat.from_dict(saved)) + "\n" == committed


def test_the_hook_keeps_an_edit_and_leaves_other_folders_alone(monkeypatch, tmp_path):
    monkeypatch.setattr(lab, "NOTEBOOKS_DIR", tmp_path / "notebooks")
    node = run_in_lab(json.loads(NOTEBOOKS[0].read_text()))
    node["cells"][1]["source"] = "edited = 1\n"
    manager = type("Manager", (), {"root_dir": str(tmp_path)})()
    scratch = {"type": "notebook", "content": copy.deepcopy(node)}
    keep_stored_form(scratch, "scratch/01.ipynb", manager)
    assert scratch["content"] == node
    stored = {"type": "notebook", "content": copy.deepcopy(node)}
    keep_stored_form(stored, "/notebooks/01.ipynb", manager)
    assert stored["content"]["cells"][1]["source"] == "edited = 1\n"
    assert all(c.get("outputs", []) == [] for c in stored["content"]["cells"])
    other = {"type": "file", "content": "text"}
    keep_stored_form(other, "notebooks/notes.txt", manager)
    assert other == {"type": "file", "content": "text"}


def test_the_shipped_server_configuration_installs_the_hook():
    config = json.loads(lab.CONFIG_FILE.read_text())
    assert config["FileContentsManager"]["pre_save_hook"] == (
        "recallscore_nb.workbook.lab.keep_stored_form")
    assert "recallscore_nb/data/jupyter/jupyter_server_config.json" in (ROOT / "Makefile").read_text()
