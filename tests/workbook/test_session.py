"""Exploring with the workbook (issue 8): paths that mean one thing, notebooks that run again in
the same kernel, parameters checked against what the parameters cell declares and what
papermill injected, and exploration that cannot change the paper.

The kernel cases run a small notebook of their own in a fake repository under ``tmp_path``: its
check cell points the session at that repository before calling ``start``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from tests.workbook.test_runner_faults import fake_execute_all, leftovers, notebook

from recallscore_nb.workbook import session as session_module
from recallscore_nb.workbook import runner as workbook
from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import UsageError
from recallscore_nb.workbook.parameters import check_parameters, declared_parameters
from recallscore_nb.workbook.session import start

ROOT = Path(__file__).resolve().parents[2]
PAPERMILL = str(Path(sys.executable).with_name("papermill"))
PARAMETERS = ('output_dir: str = ""  # empty: reports/\n'
              'resamples: int = 2000  # bootstrap resamples\n'
              'label: str = "a&b"  # a cell of the table')
DEFAULTS = {"output_dir": "", "resamples": 2000, "label": "a&b"}
CHECK = """\
from pathlib import Path
import recallscore_nb.workbook.session as s
s.REPO_ROOT = Path({repo!r}); s.REPORTS_DIR = s.REPO_ROOT / "reports"; s.NOTEBOOKS_DIR = s.REPO_ROOT / "notebooks"
nb = s.start("05_fake", globals())"""
WRITE = """\
import pandas as pd
nb.table("values", pd.DataFrame({"label": [label], "resamples": [resamples]}))
nb.number("FakeResamples", resamples)
nb.finish()"""


@pytest.fixture
def repo(tmp_path):
    """A fake repository: notebooks/05_fake.ipynb and reports/manifest.json with its defaults."""
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    (root / "reports").mkdir()
    notebook(root / "notebooks" / "05_fake.ipynb", CHECK.format(repo=str(root)), WRITE,
             parameters=PARAMETERS)
    manifest = {"notebooks": {"05_fake": {"defaults": DEFAULTS}},
                "parameters": {"05_fake": {"resamples": 2000, "label": "a&b"}}}
    (root / "reports" / "manifest.json").write_text(json.dumps(manifest))
    return root


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# --- JupyterLab: Run All twice in one kernel, relative paths against the repository ------------
def test_run_all_twice_in_one_kernel_with_new_parameters_and_paths_from_the_repository(repo):
    path = repo / "notebooks" / "05_fake.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(repo / "notebooks")}})
    env = {**os.environ, "JPY_SESSION_NAME": str(path)}  # as jupyter_server starts kernels
    with client.setup_kernel(env=env):
        nb.cells[0].source = PARAMETERS.replace('output_dir: str = ""', 'output_dir: str = "scratch_lab"')
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        out = repo / "scratch_lab"
        assert "a&b" in (out / "tables" / "05_fake__values.csv").read_text()
        assert not (repo / "notebooks" / "scratch_lab").exists()
        nb.cells[0].source = nb.cells[0].source.replace("2000", "500").replace('"a&b"', '"second"')
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
    assert (out / "tables" / "05_fake__values.csv").read_text() == "label,resamples\nsecond,500\n"
    manifest = manifest_of(out)
    assert manifest["parameters"]["05_fake"] == {"resamples": 500, "label": "second"}
    assert "\\newcommand{\\rsFakeResamples}{500}" in (out / "paper" / "numbers.tex").read_text()
    assert not (out / "fragments").exists() and leftovers(out) == [".recallscore.lock"]
    assert sorted(p.name for p in (repo / "notebooks").iterdir()) == ["05_fake.ipynb"]


# --- papermill: relative paths, the paper's defaults, injected code -----------------------------
def _papermill(repo: Path, cwd: Path, *parameters: str) -> subprocess.Popen:
    args = [PAPERMILL, str(repo / "notebooks" / "05_fake.ipynb"), "executed.ipynb",
            "--no-progress-bar"]
    for name, value in zip(parameters[::2], parameters[1::2]):
        args += ["-p", name, value]
    cwd.mkdir(exist_ok=True)
    return subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={k: v for k, v in os.environ.items()
                                            if k != "JPY_SESSION_NAME"})


def test_papermill_runs_resolve_publish_and_refuse(repo, tmp_path):
    reports_before = sorted(p.name for p in (repo / "reports").iterdir())
    runs = {
        "relative": _papermill(repo, tmp_path / "shell", "output_dir", "rel_out"),
        "changed into reports": _papermill(repo, tmp_path / "a", "resamples", "500"),
        "injected code": _papermill(repo, tmp_path / "b", "__import__('os').system('touch pwned')#",
                                    "1", "output_dir", "x"),
        "get_ipython": _papermill(repo, tmp_path / "c", "get_ipython", "1", "output_dir", "x"),
        "typo": _papermill(repo, tmp_path / "d", "resample", "10", "output_dir", "x"),
    }
    done = {name: (run.wait(timeout=240), run.communicate()[1]) for name, run in runs.items()}

    code, err = done["relative"]
    assert code == 0, err
    out = tmp_path / "shell" / "rel_out"
    listed = {o["path"] for o in manifest_of(out)["outputs"]}
    assert "tables/05_fake__values.csv" in listed
    assert "\\rsFakeResamples" in (out / "paper" / "numbers.tex").read_text()
    assert not (out / "fragments").exists() and leftovers(out) == [".recallscore.lock"]

    code, err = done["changed into reports"]
    assert code != 0
    assert ("UsageError: 05_fake: parameters differ from the paper's defaults recorded in "
            f"{repo / 'reports' / 'manifest.json'} (resamples: 2000 → 500)") in err
    assert sorted(p.name for p in (repo / "reports").iterdir()) == reports_before

    code, err = done["injected code"]
    assert code != 0
    assert ("the injected parameters cell holds code that is not 'name = value': "
            "__import__('os').system('touch pwned')") in err
    assert not (tmp_path / "b" / "x").exists()

    code, err = done["get_ipython"]
    assert code != 0 and "unknown parameter 'get_ipython'; this notebook declares: label, " \
                           "output_dir, resamples" in err

    code, err = done["typo"]
    assert code != 0
    message = err[err.index("Exception encountered at"):].strip().splitlines()
    assert message[1:] == ["UsageError: unknown parameter 'resample'; this notebook declares: "
                           "label, output_dir, resamples; did you mean 'resamples'?"]


# --- the check cell's rules, without a kernel ----------------------------------------------------
DECLARED = {"__annotations__": {"output_dir": str, "resamples": int}, "output_dir": "",
            "resamples": 2000}


def test_leftovers_of_an_earlier_run_are_not_parameters():
    namespace = DECLARED | {"nb": object(), "table": [1, 2], "x": 3}
    assert check_parameters(namespace, history=["", "output_dir: str = ''", "nb = start()"]) == {
        "output_dir": "", "resamples": 2000}


@pytest.mark.parametrize("injected, message", [
    ("# Parameters\nresample = 10\n", "unknown parameter 'resample'; this notebook declares: "
                                      "output_dir, resamples; did you mean 'resamples'?"),
    ("# Parameters\nget_ipython = 1\n", "unknown parameter 'get_ipython'; this notebook "
                                       "declares: output_dir, resamples"),
    ("# Parameters\nimport os\n", "the injected parameters cell holds code that is not "
                                  "'name = value': import os"),
    ("# Parameters\nresamples = int('5')\n", "the injected parameters cell holds code that is "
                                             "not 'name = value': resamples = int('5')"),
])
def test_what_papermill_injected_must_assign_declared_names_to_values(injected, message):
    with pytest.raises(UsageError) as caught:
        check_parameters(dict(DECLARED), history=["", "output_dir: str = ''", injected, "nb = …"])
    assert str(caught.value) == message


def test_a_well_formed_injection_is_accepted():
    injected = '# Parameters\nresamples = 500\noutput_dir = "x"\n'
    namespace = DECLARED | {"resamples": 500, "output_dir": "x"}
    assert check_parameters(namespace, history=["", "...", injected, "nb = …"]) == {
        "output_dir": "x", "resamples": 500}


def test_start_refuses_changed_parameters_into_reports(repo, monkeypatch):
    monkeypatch.setattr(session_module, "REPO_ROOT", repo)
    monkeypatch.setattr(session_module, "REPORTS_DIR", repo / "reports")
    monkeypatch.setattr(session_module, "NOTEBOOKS_DIR", repo / "notebooks")
    namespace = {"__annotations__": {"output_dir": str, "resamples": int, "label": str},
                 "output_dir": "", "resamples": 500, "label": "a&b"}
    with pytest.raises(UsageError, match=r"05_fake: .* \(resamples: 2000 → 500\); set output_dir "
                                         r"to another folder, or run 'recallscore explore 05'"):
        start("05_fake", namespace, history=[])
    assert start("05_fake", namespace | {"resamples": 2000}, history=[]).output_dir == repo / "reports"


def test_start_refuses_the_notebooks_folder_and_the_filesystem_root(repo, monkeypatch):
    monkeypatch.setattr(session_module, "NOTEBOOKS_DIR", repo / "notebooks")
    base = {"__annotations__": {"output_dir": str}}
    for folder in (str(repo / "notebooks"), str(repo), "/"):
        with pytest.raises(UsageError, match="output_dir"):
            start("05_fake", base | {"output_dir": folder}, history=[])


def test_the_real_notebook_refuses_changed_resamples_into_the_committed_reports():
    declared = declared_parameters(ROOT / "notebooks" / "05_reanalysis.ipynb")
    namespace = {"__annotations__": {name: p.type for name, p in declared.items()}}
    namespace |= {name: p.default for name, p in declared.items()} | {"resamples": 500}
    with pytest.raises(UsageError, match=r"05_reanalysis: .*resamples: 2000 → 500"):
        start("05_reanalysis", namespace, history=[])


def test_a_session_outside_run_publishes_completely_and_merges(tmp_path):
    import pandas as pd

    out = tmp_path / "out"
    for stem, value in (("01_one", 1), ("02_two", 2)):
        nb = start(stem, {"__annotations__": {"output_dir": str}, "output_dir": str(out)},
                   history=[])
        nb.table("values", pd.DataFrame({"n": [value]}))
        nb.number(f"Value{'One' if value == 1 else 'Two'}", value)
        assert not (out / "tables").exists() or stem == "02_two"  # nothing lands before finish
        nb.finish()
    manifest = manifest_of(out)
    assert sorted(manifest["notebooks"]) == ["01_one", "02_two"]
    assert {o["path"] for o in manifest["outputs"]} == {"paper/numbers.tex"} | {
        f"tables/{s}__values.{e}" for s in ("01_one", "02_two") for e in ("csv", "md", "tex")}
    numbers = (out / "paper" / "numbers.tex").read_text()
    assert "\\rsValueOne" in numbers and "\\rsValueTwo" in numbers
    assert not (out / "fragments").exists() and leftovers(out) == [".recallscore.lock"]


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


# --- the paper's defaults, recorded in the manifest ------------------------------------------------
@pytest.fixture
def book(tmp_path, monkeypatch):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    for stem in ("01_first", "02_second"):
        notebook(notebooks / f"{stem}.ipynb", "pass")
    monkeypatch.setattr(workbook, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(workbook, "REPORTS_DIR", tmp_path / "reports")
    monkeypatch.setattr(workbook, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(workbook, "STAMPS_DIR", tmp_path / ".stamps")
    monkeypatch.setattr(workbook, "_code_fingerprint", lambda: "fixed code")
    monkeypatch.setattr(workbook, "_execute_all", fake_execute_all)
    return tmp_path


def test_changed_defaults_in_a_committed_notebook_need_accept_defaults(book, capsys):
    assert main(["run"]) == 0
    manifest = manifest_of(book / "reports")
    assert manifest["notebooks"]["01_first"]["defaults"] == {"output_dir": "", "label": "a&b"}
    path = book / "notebooks" / "01_first.ipynb"
    path.write_text(path.read_text().replace('label: str = \\"a&b\\"', 'label: str = \\"other\\"')
                    .replace('output_dir: str = \\"\\"', 'output_dir: str = \\"lab\\"'))
    before = (book / "reports" / "manifest.json").read_bytes()
    capsys.readouterr()
    for command in (["run"], ["run", "01"], ["check"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert ("01_first: the notebook's defaults differ from those of the paper in "
                f"{book / 'reports' / 'manifest.json'} (output_dir: '' → 'lab', label: 'a&b' → "
                "'other')") in err
        assert "--accept-defaults" in err and "git checkout" in err
    assert main(["run", "02"]) == 0  # another notebook is not concerned
    assert main(["run", "--output-dir", str(book / "elsewhere")]) == 0
    assert (book / "reports" / "manifest.json").read_bytes() == before
    assert main(["run", "--accept-defaults"]) == 0
    assert manifest_of(book / "reports")["notebooks"]["01_first"]["defaults"]["label"] == "other"
    assert main(["check"]) == 0
