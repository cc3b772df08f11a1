"""Exploring with the workbook (issue 8): paths that mean one thing, notebooks that run again in
the same kernel, parameters checked against what the parameters cell declares and what
papermill injected, and exploration that cannot change the paper.

The kernel cases run a small notebook of their own in a fake repository under ``tmp_path``: its
check cell points the session at that repository before calling ``start_notebook``.
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

from recallscore_nb.core.errors import UsageError
from recallscore_nb.workbook import runner as workbook, session as session_module
from recallscore_nb.workbook.parameters import declared_parameters
from recallscore_nb.workbook.session import start_notebook
from tests.workbook.books import leftovers, notebook


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
nb = s.start_notebook("05_fake", globals())"""


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
    assert not (out / "fragments").exists() and leftovers(out) == []
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
    runs = {  # (folder, parameters): one papermill at a time (kernels started together can
        # race for a port, jupyter_client issue 154, and one dies before its first reply)
        "relative": (tmp_path / "shell", ("output_dir", "rel_out")),
        "changed into reports": (tmp_path / "a", ("resamples", "500")),
        "injected code": (tmp_path / "b", ("__import__('os').system('touch pwned')#", "1",
                                           "output_dir", "x")),
        "get_ipython": (tmp_path / "c", ("get_ipython", "1", "output_dir", "x")),
        "typo": (tmp_path / "d", ("resample", "10", "output_dir", "x")),
    }
    done = {}
    for name, (cwd, parameters) in runs.items():
        run = _papermill(repo, cwd, *parameters)
        done[name] = (run.wait(timeout=240), run.communicate()[1])

    code, err = done["relative"]
    assert code == 0, err
    out = tmp_path / "shell" / "rel_out"
    listed = {o["path"] for o in manifest_of(out)["outputs"]}
    assert "tables/05_fake__values.csv" in listed
    assert "\\rsFakeResamples" in (out / "paper" / "numbers.tex").read_text()
    assert not (out / "fragments").exists() and leftovers(out) == []

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


def test_start_refuses_changed_parameters_into_reports(repo, monkeypatch):
    monkeypatch.setattr(session_module, "REPO_ROOT", repo)
    monkeypatch.setattr(session_module, "REPORTS_DIR", repo / "reports")
    monkeypatch.setattr(session_module, "NOTEBOOKS_DIR", repo / "notebooks")
    namespace = {"__annotations__": {"output_dir": str, "resamples": int, "label": str},
                 "output_dir": "", "resamples": 500, "label": "a&b"}
    with pytest.raises(UsageError, match=r"05_fake: .* \(resamples: 2000 → 500\); set output_dir "
                                         r"to another folder, or run 'recallscore explore 05'"):
        start_notebook("05_fake", namespace, history=[])
    nb = start_notebook("05_fake", namespace | {"resamples": 2000}, history=[])
    assert nb.output_dir == repo / "reports"


def test_start_refuses_the_notebooks_folder_and_the_filesystem_root(repo, monkeypatch):
    monkeypatch.setattr(session_module, "NOTEBOOKS_DIR", repo / "notebooks")
    base = {"__annotations__": {"output_dir": str, "resamples": int, "label": str}} | DEFAULTS
    for folder in (str(repo / "notebooks"), str(repo), "/"):
        with pytest.raises(UsageError, match="output_dir"):
            start_notebook("05_fake", base | {"output_dir": folder}, history=[])


def test_the_real_notebook_refuses_changed_resamples_into_the_committed_reports():
    declared = declared_parameters(ROOT / "notebooks" / "05_reanalysis.ipynb")
    namespace = {"__annotations__": {name: p.type for name, p in declared.items()}}
    namespace |= {name: p.default for name, p in declared.items()} | {"resamples": 500}
    with pytest.raises(UsageError, match=r"05_reanalysis: .*resamples: 2000 → 500"):
        start_notebook("05_reanalysis", namespace, history=[])


def test_a_session_outside_run_publishes_completely_and_merges(tmp_path):
    import pandas as pd

    out = tmp_path / "out"
    for stem, value in (("01_one", 1), ("02_two", 2)):
        nb = start_notebook(stem, {"__annotations__": {"output_dir": str}, "output_dir": str(out)},
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
    assert not (out / "fragments").exists() and leftovers(out) == []


# --- a typo in the parameters cell, as JupyterLab runs it (verifier's gap 2) ----------------------
@pytest.mark.parametrize("typo", ["resample = 10", "resample: int = 10"])
def test_a_typo_in_the_parameters_cell_run_in_jupyterlab_is_an_error(repo, monkeypatch, typo):
    """JupyterLab runs the parameters cell as the user edited it, then the start cell: a name the
    repository's notebook does not declare is refused, however the kernel holds it."""
    monkeypatch.setattr(session_module, "REPO_ROOT", repo)
    monkeypatch.setattr(session_module, "REPORTS_DIR", repo / "reports")
    monkeypatch.setattr(session_module, "NOTEBOOKS_DIR", repo / "notebooks")
    cell = PARAMETERS + "\n" + typo
    namespace = {"__annotations__": {"output_dir": str, "resamples": int, "label": str},
                 "output_dir": str(repo / "lab"), "resamples": 2000, "label": "a&b",
                 "resample": 10}
    if ":" in typo:
        namespace["__annotations__"]["resample"] = int
    with pytest.raises(UsageError) as caught:
        start_notebook("05_fake", namespace, history=["", cell, "nb = s.start('05_fake', globals())"])
    assert str(caught.value) == (
        "the parameters cell sets 'resample', which the notebook notebooks/05_fake.ipynb does not "
        "declare; it declares: label, output_dir, resamples; did you mean 'resamples'?")
    assert not (repo / "lab").exists()


def test_an_earlier_typo_left_in_the_kernel_is_forgotten_once_the_cell_is_fixed(repo, monkeypatch):
    monkeypatch.setattr(session_module, "REPO_ROOT", repo)
    monkeypatch.setattr(session_module, "REPORTS_DIR", repo / "reports")
    monkeypatch.setattr(session_module, "NOTEBOOKS_DIR", repo / "notebooks")
    namespace = {"__annotations__": {"output_dir": str, "resamples": int, "label": str,
                                     "resample": int},  # left by an earlier run of a typo
                 "output_dir": str(repo / "lab"), "resamples": 500, "label": "a&b", "resample": 10}
    nb = start_notebook("05_fake", namespace, history=["", PARAMETERS, "nb = s.start('05_fake', globals())"])
    assert nb.params.resamples == 500 and not hasattr(nb.params, "resample")
    nb.discard()


# --- a cell that fails leaves no folder behind (verifier's gap 3) ---------------------------------
def test_a_run_that_fails_after_its_first_table_leaves_no_folder_it_created(repo):
    path = repo / "notebooks" / "05_fake.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(2, nbformat.v4.new_code_cell(
        'import pandas as pd\nnb.table("first", pd.DataFrame({"n": [1]}))\nraise ValueError("boom")'))
    nb.cells[0].source = PARAMETERS.replace('output_dir: str = ""', 'output_dir: str = "new/out"')
    client = NotebookClient(nb, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(repo / "notebooks")}})
    env = {**os.environ, "JPY_SESSION_NAME": str(path)}
    with client.setup_kernel(env=env):
        for index, cell in enumerate(nb.cells[:2]):
            client.execute_cell(cell, index)
        with pytest.raises(Exception, match="boom"):
            client.execute_cell(nb.cells[2], 2)
        assert not (repo / "new").exists()  # the kernel still runs: nothing waits for its exit
        with pytest.raises(Exception, match="a cell failed"):  # the rest of this run is refused
            client.execute_cell(nb.cells[3], 3)
        assert not (repo / "new").exists()
    assert sorted(p.name for p in repo.iterdir()) == ["notebooks", "reports"]


# --- the inputs the parameters name, read once and recorded --------------------------------------
def test_the_shipped_schema_for_the_shipped_benchmark_read_once_and_recorded(tmp_path):
    from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
    from tests.workbook.sessions import session

    nb = session("07_fact_status", tmp_path)
    schema = nb.schema
    assert schema.path == str(DEFAULT_SCHEMA_PATH) and nb.schema is schema
    assert "recallscore_nb/data/benchmarks/four_fact_recall.scoring.json" in nb.inputs


def test_no_schema_for_a_benchmark_of_ones_own(tmp_path):
    from tests.conftest import write_benchmark
    from tests.workbook.sessions import session

    nb = session("07_fact_status", tmp_path, benchmark_path=str(write_benchmark(tmp_path)))
    assert nb.schema.is_default and list(nb.schema.facts) == ["bird", "place", "time"]


def test_a_schema_path_that_names_no_file(tmp_path):
    from tests.workbook.sessions import session

    with pytest.raises(UsageError, match="schema_path: no such file: .*nope.json"):
        session("07_fact_status", tmp_path, schema_path=str(tmp_path / "nope.json")).schema


def test_ipython_shows_one_line():
    assert session_module.one_line(UsageError("bad -p")) == ["UsageError: bad -p"]


def test_a_package_error_in_a_kernel_is_one_line_and_the_cell_fails(repo):
    """In a real kernel, after the session starts, a RecallScoreError shows as one line (the
    cell's error output, as papermill and JupyterLab read it), not a traceback."""
    path = repo / "notebooks" / "05_fake.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells = nb.cells[:2] + [nbformat.v4.new_code_cell(
        "from recallscore_nb.core.errors import UsageError\nraise UsageError('bad -p')")]
    client = NotebookClient(nb, kernel_name="python3", timeout=120, allow_errors=True,
                            resources={"metadata": {"path": str(repo / "notebooks")}})
    client.execute()
    errors = [o for o in nb.cells[2].outputs if o.output_type == "error"]
    assert [(e.ename, e.evalue, e.traceback) for e in errors] == [
        ("UsageError", "bad -p", ["UsageError: bad -p"])]


# --- no module state: the kernel holds the unfinished session through its callback -------------
class FakeShell:
    """What a session uses of IPython's shell: its cell events and custom exceptions."""

    def __init__(self):
        from IPython.core.events import EventManager, available_events

        self.events = EventManager(self, available_events)
        self.custom_exceptions = ()

    def set_custom_exc(self, types, handler):
        self.custom_exceptions = types


def test_the_kernel_holds_the_unfinished_session_and_a_failing_cell_fails_it(tmp_path,
                                                                             monkeypatch):
    import pandas as pd

    shell = FakeShell()
    monkeypatch.setattr(session_module, "_shell", lambda: shell)
    assert not hasattr(session_module, "_OPEN")
    namespace = {"__annotations__": {"output_dir": str}, "output_dir": str(tmp_path / "out")}
    first = start_notebook("01_one", dict(namespace), history=[])
    first.table("values", pd.DataFrame({"n": [1]}))
    assert shell.events.callbacks["post_run_cell"] == [first._after_cell]
    second = start_notebook("01_one", dict(namespace), history=[])  # the session cell again
    assert not (tmp_path / "out").exists()  # what the unfinished first run wrote is gone
    assert shell.events.callbacks["post_run_cell"] == [second._after_cell]
    second.table("values", pd.DataFrame({"n": [2]}))
    shell.events.trigger("post_run_cell", type("Result", (), {"error_in_exec": None})())
    assert (tmp_path / "out").exists()  # a cell that ran cleanly changes nothing
    shell.events.trigger("post_run_cell", type("Result", (), {"error_in_exec": ValueError()})())
    assert not (tmp_path / "out").exists() and shell.events.callbacks["post_run_cell"] == []
    with pytest.raises(UsageError, match="a cell failed"):
        second.table("values", pd.DataFrame({"n": [3]}))
    assert shell.custom_exceptions == (session_module.RecallScoreError,)


def test_a_finished_session_stops_watching_the_cells(tmp_path, monkeypatch):
    shell = FakeShell()
    monkeypatch.setattr(session_module, "_shell", lambda: shell)
    nb = start_notebook("01_one", {"__annotations__": {"output_dir": str},
                                   "output_dir": str(tmp_path / "out")}, history=[])
    nb.finish()
    assert shell.events.callbacks["post_run_cell"] == []
