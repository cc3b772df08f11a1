"""Faults of the workbook runner (issue 9): publishing that never loses the old outputs, output
folders that are refused, one lock per output folder, stamps that trust only what the manifest
lists, corrupt records, and workers that die with their parent.

Most cases replace the notebook execution by :func:`fake_execute_all`, which writes what a
notebook's session writes (a table, a paper number, the manifest fragment, the executed copy)
into the run's work folder, so that only the runner's own steps are exercised; the kill test
runs a real notebook in a real subprocess.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pandas as pd
import psutil
import pytest

from recallscore_nb.workbook import publishing, runner as workbook
from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import NotebookFailed
from recallscore_nb.workbook.session import Session

ROOT = Path(__file__).resolve().parents[2]
PARAMETERS = 'output_dir: str = ""  # empty: reports/\nlabel: str = "a&b"  # a cell of the table'


def notebook(path: Path, *sources: str, parameters: str = PARAMETERS) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    params = nbformat.v4.new_code_cell(parameters)
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, *(nbformat.v4.new_code_cell(s) for s in sources)]
    nbformat.write(nb, path)
    return path


def fake_execute_all(plan, work, jobs, progress):
    """What each notebook's session writes into the work folder, without a kernel."""
    (work / "notebooks").mkdir(parents=True, exist_ok=True)
    for nb, values in plan.items():
        session = Session(stem=nb.stem, parameters={**values, "output_dir": str(work)},
                          output_dir=work)
        session.table("values", pd.DataFrame({"label": [values.get("label", "")], "n": [1]}))
        session.number(nb.stem.split("_")[1].capitalize() + "Answer", 42)
        session.finish()
        (work / "notebooks" / nb.name).write_text("{}")


def refuse_execution(*args):
    raise AssertionError("no notebook may run")


@pytest.fixture
def book(tmp_path, monkeypatch):
    """Two notebooks, reports/ in tmp, execution faked."""
    notebooks, reports = tmp_path / "notebooks", tmp_path / "reports"
    notebooks.mkdir()
    for stem in ("01_first", "02_second"):
        notebook(notebooks / f"{stem}.ipynb", "pass")
    monkeypatch.setattr(workbook, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(workbook, "REPORTS_DIR", reports)
    monkeypatch.setattr(workbook, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(workbook, "STAMPS_DIR", tmp_path / ".stamps")
    monkeypatch.setattr(workbook, "_code_fingerprint", lambda: "fixed code")
    monkeypatch.setattr(workbook, "_execute_all", fake_execute_all)
    return tmp_path


def hashes(folder: Path) -> dict[str, str]:
    """Every file's SHA-256, the runner's own lock and work folders left out."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()
            and not any(part.startswith(".recallscore") for part in p.relative_to(folder).parts)}


def leftovers(folder: Path) -> list[str]:
    """The runner's own entries in ``folder``: its lock, and any work folder left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".recallscore"))


# --- publishing keeps the old outputs through any failure (9.1) ------------------------------
def _failing_replace(monkeypatch, *, after: int, error: int, once: bool) -> list:
    """os.replace into the output folder fails with ``error`` after ``after`` moves succeeded
    (every time, or ``once``); moves inside work folders (the sessions' writes) always work."""
    real = os.replace
    moves, failures = [], []

    def replace(src, dst, *args, **kwargs):
        if ".recallscore-" not in str(dst):
            if len(moves) >= after and not (once and failures):
                failures.append(dst)
                raise OSError(error, os.strerror(error), str(src), None, str(dst))
            moves.append(dst)
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return failures


@pytest.mark.parametrize("after, error, once", [(0, errno.EXDEV, False), (3, errno.ENOSPC, True)],
                         ids=["cross-device-every-move", "disk-full-midway"])
def test_a_failed_publish_leaves_every_old_output_as_it_was(book, monkeypatch, capsys,
                                                           after, error, once):
    out = book / "mine"
    assert main(["run", "--output-dir", str(out)]) == 0
    before = hashes(out)
    failures = _failing_replace(monkeypatch, after=after, error=error, once=once)
    assert main(["run", "-p", "label", "changed", "--output-dir", str(out)]) == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"could not publish into {out}" in err and os.strerror(error) in err
    assert "the previous outputs are unchanged" in err
    assert failures
    monkeypatch.undo()
    assert hashes(out) == before
    assert leftovers(out) == [".recallscore.lock"]


def test_a_move_across_filesystems_inside_the_output_folder_is_copied(book, monkeypatch):
    out = book / "mine"
    workbook.run_workbook(output_dir=out, progress=False)
    failures = _failing_replace(monkeypatch, after=0, error=errno.EXDEV, once=True)
    workbook.run_workbook(["01"], [("label", "changed")], output_dir=out, progress=False)
    monkeypatch.undo()
    assert failures and "changed" in (out / "tables" / "01_first__values.csv").read_text()
    assert leftovers(out) == [".recallscore.lock"]


def test_publishing_replaces_then_removes_what_a_notebook_no_longer_writes(book):
    out = book / "mine"
    workbook.run_workbook(output_dir=out, progress=False)
    stale = out / "tables" / "01_first__gone.csv"
    stale.write_text("old\n")
    workbook.run_workbook(["01"], output_dir=out, force=True, progress=False)
    assert not stale.exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert "tables/01_first__gone.csv" not in {o["path"] for o in manifest["outputs"]}
    assert sorted(manifest["notebooks"]) == ["01_first", "02_second"]


# --- output folders that are refused (9.2) ----------------------------------------------------
@pytest.mark.parametrize("where", ["notebooks", "notebooks/sub", ".", "/"])
def test_an_output_folder_in_or_around_the_notebooks_or_the_root_is_refused(book, monkeypatch,
                                                                            capsys, where):
    monkeypatch.setattr(workbook, "_execute_all", refuse_execution)
    target = where if where == "/" else str(book / where)
    assert main(["run", "--output-dir", target]) == 2
    err = capsys.readouterr().err
    assert err.startswith("recallscore: error: --output-dir") and len(err.splitlines()) == 1
    assert ("filesystem root" if where == "/" else "notebooks") in err
    assert not (book / "notebooks" / "sub").exists()


def test_a_changed_parameter_may_not_write_into_reports_by_any_spelling(book, monkeypatch, capsys):
    monkeypatch.setattr(workbook, "_execute_all", refuse_execution)
    (book / "reports" / "tables").mkdir(parents=True)
    for target in (book / "reports", book / "reports" / "tables", book / "x" / ".." / "reports"):
        assert main(["run", "-p", "label", "7", "--output-dir", str(target)]) == 2
        assert "reports/" in capsys.readouterr().err
    link = book / "link"
    link.symlink_to(book / "reports")
    assert main(["run", "-p", "label", "7", "--output-dir", str(link)]) == 2


# --- one lock per output folder (9.6) -----------------------------------------------------------
def test_a_second_run_on_a_locked_folder_exits_2_naming_the_holder(book, monkeypatch, capsys):
    monkeypatch.setattr(workbook, "LOCK_WAIT", 0.2)
    out = book / "mine"
    with publishing.OutputLock(out, wait=0):
        assert main(["run", "--output-dir", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"pid {os.getpid()} on {socket.gethostname()}" in err
    assert str(out) in err and len(err.splitlines()) == 1
    assert main(["run", "--output-dir", str(out)]) == 0  # released: the next run proceeds


def test_stamps_never_call_a_notebook_fresh_that_the_manifest_does_not_list(book):
    workbook.run_workbook(progress=False)
    manifest_path = book / "reports" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["notebooks"]["02_second"]  # what overlapping publishes used to leave
    manifest_path.write_text(json.dumps(manifest))
    assert workbook.run_workbook(progress=False).executed == ("02_second",)
    manifest = json.loads(manifest_path.read_text())
    assert sorted(manifest["notebooks"]) == ["01_first", "02_second"]
    assert "SecondAnswer" in (book / "reports" / "paper" / "numbers.tex").read_text()


# --- unwritable folders and corrupt records (9.14) --------------------------------------------
def test_an_unwritable_output_folder_is_exit_2_before_any_notebook_runs(book, monkeypatch, capsys,
                                                                        tmp_path):
    monkeypatch.setattr(workbook, "_execute_all", refuse_execution)
    if os.geteuid() == 0:  # root writes through any mode bits: use a folder nobody may write
        target = Path("/sys")
    else:
        target = tmp_path / "readonly"
        target.mkdir()
        target.chmod(0o555)
    assert main(["run", "--output-dir", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"--output-dir {target}: cannot write here" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("text", ['{"outputs": [', '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> x\n',
                                  '["a list"]'],
                         ids=["truncated", "merge-conflict", "not-an-object"])
def test_a_corrupt_manifest_is_exit_2_naming_it_and_the_way_out(book, capsys, text):
    assert main(["run"]) == 0
    (book / "reports" / "manifest.json").write_text(text)
    assert main(["run", "--force"]) == 2
    err = capsys.readouterr().err
    assert f"{book / 'reports' / 'manifest.json'}: " in err
    assert "git checkout" in err and "--force" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("text", ["{", "[]", '{"key": 1}'])
def test_a_corrupt_stamp_is_only_stale(book, text):
    workbook.run_workbook(progress=False)
    for stamp in (book / ".stamps").rglob("01_first.json"):
        stamp.write_text(text)
    assert workbook.run_workbook(progress=False).executed == ("01_first",)


# --- one exit code per mistake (issue 8, item 5) -----------------------------------------------
def test_a_missing_path_parameter_is_exit_2_before_any_kernel_and_leaves_no_folder(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(workbook, "_execute_all", refuse_execution)
    monkeypatch.chdir(tmp_path)
    assert main(["run", "05", "-p", "attempts_path", "missing.csv", "--output-dir", "out"]) == 2
    err = capsys.readouterr().err
    assert f"attempts_path: no such file: missing.csv ({tmp_path / 'missing.csv'})" in err
    assert not (tmp_path / "out").exists()


def test_an_unknown_parameter_lists_the_declared_ones_and_the_closest(capsys, monkeypatch):
    monkeypatch.setattr(workbook, "_execute_all", refuse_execution)
    assert main(["run", "05", "-p", "resample", "10", "--output-dir", "x"]) == 2
    err = capsys.readouterr().err
    assert "-p resample: no selected notebook declares this parameter" in err
    assert "did you mean 'resamples'?" in err
    assert "attempts_path, benchmark_path, resamples, seed" in err


def test_a_notebook_that_fails_before_its_first_cell_reads_well():
    failed = NotebookFailed("05_reanalysis", None, "DeadKernelError", "kernel died")
    assert str(failed) == "notebook 05_reanalysis failed before its first cell: DeadKernelError: kernel died"
    assert str(NotebookFailed("05_reanalysis", 3, "E", "v")) == (
        "notebook 05_reanalysis failed at cell 3: E: v")


# --- workers die with their parent (9.16) -------------------------------------------------------
SLEEPER = 'from recallscore_nb.workbook.session import start\nnb = start("01_sleeper", globals())'


def test_killing_the_run_kills_its_workers_and_kernels_and_the_next_run_cleans_up(tmp_path, monkeypatch):
    path = notebook(tmp_path / "01_sleeper.ipynb", SLEEPER, "import time\ntime.sleep(300)")
    out = tmp_path / "out"
    run = subprocess.Popen([sys.executable, "-m", "recallscore_nb", "run", str(path),
                            "--output-dir", str(out), "--jobs", "1"], cwd=tmp_path,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent = psutil.Process(run.pid)
    family: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 90
        while not any("ipykernel" in " ".join(p.cmdline()) for p in family if p.is_running()):
            assert time.monotonic() < deadline, "no kernel started"
            time.sleep(0.3)
            try:
                family = parent.children(recursive=True)
            except psutil.NoSuchProcess:
                pytest.fail("the run ended before its kernel started")
        assert len(family) >= 2  # a pool worker and its kernel
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        gone, alive = psutil.wait_procs(family, timeout=20)
        assert alive == [], [p.cmdline() for p in alive]
    finally:
        for process in family:
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        if run.poll() is None:
            run.kill()
    assert leftovers(out) != [".recallscore.lock"]  # the killed run's work folder is still there
    monkeypatch.setattr(workbook, "_execute_all", fake_execute_all)
    workbook.run_workbook([str(path)], output_dir=out, progress=False, stamps=False)
    assert leftovers(out) == [".recallscore.lock"]


def test_a_failed_run_leaves_no_output_folder_it_created(book, monkeypatch, capsys):
    def failing(plan, work, jobs, progress):
        raise NotebookFailed("01_first", 2, "ValueError", "broken on purpose")

    monkeypatch.setattr(workbook, "_execute_all", failing)
    out = book / "new" / "deeper"
    assert main(["run", "--output-dir", str(out)]) == 3
    assert "notebook 01_first failed at cell 2: ValueError: broken on purpose" in capsys.readouterr().err
    assert not (book / "new").exists()
    (book / "kept").mkdir()
    assert main(["run", "--output-dir", str(book / "kept")]) == 3
    assert [p.name for p in (book / "kept").iterdir()] == [".recallscore.lock"]
