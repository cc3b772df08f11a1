"""Where the workbook is: RECALLSCORE_ROOT, else the checkout the package sits in, else the
nearest folder above the current one that holds notebooks/ and reports/; and the commands that
need it say so when there is none."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.workbook import runner
from recallscore_nb.workbook.paths import ROOT_VARIABLE, find_root

ROOT = Path(__file__).resolve().parents[2]


def _book(folder: Path, *, reports: bool = True) -> Path:
    (folder / "notebooks").mkdir(parents=True)
    if reports:
        (folder / "reports").mkdir()
    return folder


def test_the_variable_wins(tmp_path):
    book = _book(tmp_path / "book")
    assert find_root({ROOT_VARIABLE: str(book)}, package=ROOT / "recallscore_nb") == book


def test_the_checkout_the_package_sits_in(tmp_path):
    book = _book(tmp_path / "book", reports=False)  # an editable install: notebooks/ is enough
    assert find_root({}, package=book / "recallscore_nb", cwd=tmp_path) == book


def test_the_nearest_folder_above_the_current_one(tmp_path):
    book = _book(tmp_path / "book")
    _book(tmp_path / "book" / "sub" / "half", reports=False)  # notebooks/ alone is not a book
    deeper = book / "sub" / "half" / "deeper"
    deeper.mkdir()
    site = tmp_path / "site" / "recallscore_nb"
    assert find_root({}, package=site, cwd=deeper) == book
    assert find_root({}, package=site, cwd=tmp_path) is None


def test_a_copy_of_the_package_run_from_a_checkout_finds_the_checkout(tmp_path):
    """A non-editable install (here: the package copied elsewhere), run from inside a checkout."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "recallscore_nb", site / "recallscore_nb",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != ROOT_VARIABLE} | {"PYTHONPATH": str(site)}
    code = "from recallscore_nb.workbook import paths; print(paths.REPO_ROOT)"
    for cwd, expected in ((ROOT / "notebooks", str(ROOT)), (tmp_path, "None")):
        done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                              text=True, check=True)
        assert done.stdout.strip() == expected
    done = subprocess.run([sys.executable, "-m", "recallscore_nb", "check"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "recallscore: error: recallscore check needs the workbook (the folder holding "
        "notebooks/ and reports/), and none was found: run it from inside a checkout of "
        "recallscore, or set RECALLSCORE_ROOT to that folder")


@pytest.mark.parametrize("argv", [["run"], ["check"], ["explore", "05"]])
def test_the_commands_that_need_the_workbook_say_so(monkeypatch, capsys, argv):
    monkeypatch.setattr(runner, "REPO_ROOT", None)
    monkeypatch.setattr(runner, "NOTEBOOKS_DIR", None)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"recallscore: error: recallscore {argv[0]} needs the workbook")
    assert err.count("\n") == 1


def test_a_variable_naming_a_folder_without_notebooks(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv(ROOT_VARIABLE, str(tmp_path))
    monkeypatch.setattr(runner, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(runner, "NOTEBOOKS_DIR", tmp_path / "notebooks")
    assert main(["run"]) == 2
    assert capsys.readouterr().err == (
        f"recallscore: error: recallscore run: RECALLSCORE_ROOT={tmp_path} holds no notebooks/ "
        "folder; set RECALLSCORE_ROOT to the folder that holds notebooks/ and reports/\n")


def test_a_notebook_without_a_workbook_needs_an_output_dir(monkeypatch, tmp_path):
    from recallscore_nb.core.errors import UsageError
    from recallscore_nb.workbook import session

    for name in ("REPO_ROOT", "NOTEBOOKS_DIR", "REPORTS_DIR"):
        monkeypatch.setattr(session, name, None)
    namespace = {"__annotations__": {"output_dir": str}, "output_dir": ""}
    with pytest.raises(UsageError, match=r"output_dir: empty means the workbook's reports/, and "
                                         r"no workbook was found; give an output_dir"):
        session.start_notebook("01_x", namespace, history=[])
    nb = session.start_notebook("01_x", {**namespace, "output_dir": str(tmp_path / "out")}, history=[])
    assert nb.output_dir == tmp_path / "out" and nb.publishing
    nb.discard()


def test_the_notebooks_folder_itself_is_named_as_such(tmp_path):
    from recallscore_nb.core.errors import UsageError
    from recallscore_nb.workbook.paths import check_output_folder

    notebooks, reports = tmp_path / "notebooks", tmp_path / "reports"
    notebooks.mkdir()
    cases = {notebooks: "is the workbook's notebooks", notebooks / "sub": "is in the workbook's "
             "notebooks", tmp_path: "contains the workbook's notebooks"}
    for folder, said in cases.items():
        with pytest.raises(UsageError) as caught:
            check_output_folder(folder, notebooks=notebooks, reports=reports, changed=False)
        assert str(caught.value).startswith(f"--output-dir {folder}: {said} ({notebooks})")


def test_the_readme_says_where_jupyterlab_paths_start_as_the_code_does():
    """``user_folder`` reads a JupyterLab notebook's relative paths against the repository root,
    wherever JupyterLab was started: the README says so, and not "the folder you started from"."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "for a notebook opened in JupyterLab it is the repository root," in text
    assert "the folder you started `jupyter lab` from" not in text
