"""Faults of the workbook runner (issue 9): publishing that never loses the old outputs, output
folders that are refused, one lock per output folder, stamps that trust only what the manifest
lists, corrupt records, and workers that die with their parent.

Most cases replace the notebook execution by :func:`fake_execute_all`, which writes what a
notebook's session writes (a table, a paper number, the manifest fragment, the executed copy)
into the run's work folder, so that only the runner's own steps are exercised; the kill test
runs a real notebook in a real subprocess.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from recallscore_nb.cli.main import EXIT_TERMINATED, exit_code, main
from recallscore_nb.core.errors import NotebookFailed
from recallscore_nb.workbook import publishing, runner as workbook
from tests.workbook.books import fake_execute_all, leftovers, notebook, refuse_execution


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
    assert ("attempts_path, benchmark_path, confidence, resamples, schema_path, seed, "
            "squad_mode, threshold") in err


def test_a_notebook_that_fails_before_its_first_cell_reads_well():
    failed = NotebookFailed("05_reanalysis", None, "DeadKernelError", "kernel died")
    assert str(failed) == "notebook 05_reanalysis failed before its first cell: DeadKernelError: kernel died"
    assert str(NotebookFailed("05_reanalysis", 3, "E", "v")) == (
        "notebook 05_reanalysis failed at cell 3: E: v")


# --- workers die with their parent (9.16) -------------------------------------------------------
SLEEPER = ('from recallscore_nb.workbook.session import start_notebook\n'
           'nb = start_notebook("01_sleeper", globals())')


def signal_a_running_run(tmp_path, sig) -> tuple[int, Path]:
    """Start ``run`` on a notebook that sleeps, send ``sig`` once its kernel runs; (the exit
    code, the output folder), once every worker and kernel of it is gone (or fail)."""
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
        run.send_signal(sig)
        code = run.wait(timeout=10)  # the run ends at once; its notebook sleeps 300 s
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
    return code, out


def test_killing_the_run_kills_its_workers_and_kernels_and_the_next_run_cleans_up(tmp_path, monkeypatch):
    code, out = signal_a_running_run(tmp_path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert leftovers(out) != []  # the killed run's work folder is still there
    monkeypatch.setattr(workbook, "_execute_all", fake_execute_all)
    workbook.run_workbook([str(tmp_path / "01_sleeper.ipynb")], output_dir=out,
                          progress=False, stamps=False)
    assert leftovers(out) == []


def test_sigterm_ends_the_run_now_with_its_workers_and_kernels(tmp_path):
    assert signal_a_running_run(tmp_path, signal.SIGTERM)[0] == EXIT_TERMINATED


def test_a_failed_run_leaves_no_output_folder_it_created(book, monkeypatch, capsys):
    def failing(plan, work, jobs, progress, cwd=None):
        raise NotebookFailed("01_first", 2, "ValueError", "broken on purpose")

    monkeypatch.setattr(workbook, "_execute_all", failing)
    out = book / "new" / "deeper"
    assert main(["run", "--output-dir", str(out)]) == 3
    assert "notebook 01_first failed at cell 2: ValueError: broken on purpose" in capsys.readouterr().err
    assert not (book / "new").exists()
    (book / "kept").mkdir()
    assert main(["run", "--output-dir", str(book / "kept")]) == 3
    assert [p.name for p in (book / "kept").iterdir()] == []


# --- invalid input is exit 2 from every command (verifier's gap 1) --------------------------------
def test_a_malformed_input_that_fails_a_notebook_is_exit_2_as_from_score(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "unterm.csv").write_text('id,system,attempt\na1,s,"never closed\n')
    assert main(["score", "--attempts", "unterm.csv"]) == 2
    from_score = capsys.readouterr().err.strip()
    assert main(["run", "05", "-p", "attempts_path", "unterm.csv", "--output-dir", "out"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("recallscore: error: notebook 05_reanalysis failed at cell ")
    assert "AttemptsFormatError: " in err and "unterm.csv" in err
    assert from_score.split("unterm.csv", 1)[1] in err  # the same line, after the file's name
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text", ["{not json", "[]", '{"cells": "none"}', ""],
                         ids=["not-json", "a-list", "cells-not-a-list", "empty"])
def test_a_notebook_path_that_is_not_a_notebook_is_exit_2_naming_it(tmp_path, monkeypatch,
                                                                    capsys, text):
    monkeypatch.setattr(workbook, "_execute_all", refuse_execution)
    bad = tmp_path / "x" / "99_bad.ipynb"
    bad.parent.mkdir()
    bad.write_text(text)
    assert main(["run", str(bad), "--output-dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"recallscore: error: {bad}: not a notebook") and len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_exit_code_of_a_failed_notebook_follows_its_error():
    assert exit_code(NotebookFailed("05_reanalysis", 3, "AttemptsFormatError", "x.csv: …")) == 2
    assert exit_code(NotebookFailed("05_reanalysis", 3, "UsageError", "…")) == 2
    assert exit_code(NotebookFailed("05_reanalysis", 3, "ValueError", "…")) == 3
    assert exit_code(NotebookFailed("05_reanalysis", 3, "PublishError", "…")) == 3
    assert exit_code(NotebookFailed("05_reanalysis", None, "DeadKernelError", "…")) == 3
