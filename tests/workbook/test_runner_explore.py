"""recallscore explore: a scratch copy of a notebook for JupyterLab, its outputs kept out of
reports/; and the paper's defaults, recorded in the manifest, guarded."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import nbformat

from recallscore_nb.cli.main import main
from recallscore_nb.workbook import runner as workbook
from recallscore_nb.workbook.parameters import declared_parameters
from tests.workbook.books import notebook


ROOT = Path(__file__).resolve().parents[2]


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# --- explore: a scratch copy for JupyterLab ----------------------------------------------------
def test_explore_copies_a_notebook_into_scratch_with_its_outputs_there(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(workbook, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(workbook, "SCRATCH_DIR", tmp_path / "scratch")
    assert main(["explore", "05"]) == 0
    copy = tmp_path / "scratch" / "05_reanalysis.ipynb"
    declared = declared_parameters(copy)
    original = declared_parameters(ROOT / "notebooks" / "05_reanalysis.ipynb")
    assert declared["output_dir"].default == "scratch/05_reanalysis"
    assert declared["output_dir"].help == original["output_dir"].help
    assert {k: p.default for k, p in declared.items() if k != "output_dir"} == {
        k: p.default for k, p in original.items() if k != "output_dir"}
    assert all(c.get("outputs", []) == [] for c in nbformat.read(copy, as_version=4).cells)
    out = capsys.readouterr().out
    assert "scratch/05_reanalysis.ipynb" in out and "jupyter lab" in out
    assert "scratch/05_reanalysis/" in out
    copy.write_text(copy.read_text().replace("2000", "500"))  # the user's exploration
    assert main(["explore", "05"]) == 0
    assert "500" in copy.read_text() and "kept" in capsys.readouterr().out
    assert main(["explore", "05", "--force"]) == 0
    assert "500" not in copy.read_text()


def test_scratch_and_work_folders_are_ignored_by_git():
    paths = ["scratch/05_reanalysis.ipynb", ".recallscore-run-abc/x", "reports/.recallscore.lock",
             "notebooks/.recallscore-run-x/y", ".recallscore-check-q/z",
             "reports/.recallscore-work-05-x/tables/a.csv", "reports/.recallscore.lock.owner"]
    result = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True)
    assert result.stdout.split() == paths


def test_the_executed_notebooks_are_committed_outputs_not_ignored():
    paths = ["reports/notebooks/05_reanalysis.ipynb", "reports/tables/05_reanalysis__scores.csv"]
    result = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True)
    assert result.stdout == "" and result.returncode == 1  # 1: none of them is ignored


# --- the paper's defaults, recorded in the manifest ------------------------------------------------
def test_changed_defaults_in_a_committed_notebook_need_accept_defaults(book, capsys):
    assert main(["run"]) == 0
    manifest = manifest_of(book / "reports")
    assert manifest["notebooks"]["01_first"]["defaults"] == {"label": "a&b"}  # not output_dir
    path = book / "notebooks" / "01_first.ipynb"
    path.write_text(path.read_text().replace('label: str = \\"a&b\\"', 'label: str = \\"other\\"')
                    .replace('output_dir: str = \\"\\"', 'output_dir: str = \\"lab\\"'))
    before = (book / "reports" / "manifest.json").read_bytes()
    capsys.readouterr()
    for command in (["run"], ["run", "01"], ["check"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert ("01_first: the notebook's defaults differ from those of the paper in "
                f"{book / 'reports' / 'manifest.json'} (label: 'a&b' → 'other')") in err
        assert "--accept-defaults" in err and "git checkout" in err
    assert main(["run", "02"]) == 0  # another notebook is not concerned
    assert main(["run", "--output-dir", str(book / "elsewhere")]) == 0
    assert (book / "reports" / "manifest.json").read_bytes() == before
    assert main(["run", "--accept-defaults"]) == 0
    assert manifest_of(book / "reports")["notebooks"]["01_first"]["defaults"] == {"label": "other"}
    assert main(["check"]) == 0


def test_an_edited_output_dir_alone_is_not_a_changed_default(book, capsys):
    """``output_dir`` says where outputs go, not what the paper computes: an output_dir saved
    in a committed notebook is neither recorded as the paper's default nor compared."""
    assert main(["run"]) == 0
    path = book / "notebooks" / "01_first.ipynb"
    path.write_text(path.read_text().replace('output_dir: str = \\"\\"', 'output_dir: str = \\"lab\\"'))
    assert 'output_dir: str = \\"lab\\"' in path.read_text()
    assert main(["run", "--force"]) == 0, capsys.readouterr().err
    assert main(["run", "--accept-defaults", "--force"]) == 0
    assert "output_dir" not in manifest_of(book / "reports")["notebooks"]["01_first"]["defaults"]
