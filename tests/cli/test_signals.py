"""SIGTERM ends any command as Ctrl-C does (issue 22): its cleanup runs, then exit 143, with
nothing printed; the handler before is back afterwards, and an ignored SIGTERM stays ignored.
SIGHUP (the terminal went away) does the same, exit 129 (issue 28), and ``run`` and ``check``
end so too, their notebooks' workers and kernels with them.
(A score told to stop mid-stream: tests/execution/test_streaming_signals.py.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from recallscore_nb.analysis import meta_evaluation
from recallscore_nb.cli.main import EXIT_HUNG_UP, EXIT_TERMINATED, main
from recallscore_nb.cli.signals import sigterm_raises
from recallscore_nb.io.data import JUDGED_EXAMPLE as EXAMPLE
from tests.workbook.books import notebook

ENDING = [(signal.SIGTERM, EXIT_TERMINATED), (signal.SIGHUP, EXIT_HUNG_UP)]
"""Each signal that ends a command, and its exit code (128 + its number)."""


@pytest.fixture
def signals_noted():
    """SIGTERM and SIGHUP noted, not deadly, while the test runs (the command's own handler,
    when it sets one, comes first): the signals that reached this handler."""
    noted: list[int] = []

    def note(signum, frame):
        noted.append(signum)

    previous = {each: signal.signal(each, note) for each in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield noted, note
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


@pytest.mark.parametrize(("sent", "expected"), ENDING, ids=["SIGTERM", "SIGHUP"])
def test_a_signal_during_agree_exits_128_plus_it_writing_and_printing_nothing(
        capsys, monkeypatch, tmp_path, signals_noted, sent, expected):
    noted, note = signals_noted
    evaluate = meta_evaluation.meta_evaluate

    def told_to_stop(*args, **kwargs):  # as the computation starts, its inputs read
        os.kill(os.getpid(), sent)
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(meta_evaluation, "meta_evaluate", told_to_stop)
    code = main(["agree", str(EXAMPLE / "items.jsonl"), "--attempts",
                 str(EXAMPLE / "attempts.csv"), "--judgments", str(EXAMPLE / "judgments.csv"),
                 "--out-dir", str(tmp_path / "out"), "--resamples", "50"])
    out, err = capsys.readouterr()
    assert (code, out, err, noted) == (expected, "", "", [])
    assert not (tmp_path / "out").exists()
    assert signal.getsignal(signal.SIGTERM) is signal.getsignal(signal.SIGHUP) is note


@pytest.mark.parametrize("ignored", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_an_ignored_signal_stays_ignored(ignored):
    previous = signal.signal(ignored, signal.SIG_IGN)
    try:
        with sigterm_raises():
            os.kill(os.getpid(), ignored)
            assert signal.getsignal(ignored) == signal.SIG_IGN
    finally:
        signal.signal(ignored, previous)


# --- run and check told to stop while a notebook runs ---------------------------------------
SLEEPER = ('from recallscore_nb.workbook.session import start_notebook\n'
           'nb = start_notebook("01_sleeper", globals())')


def sleeper_workbook(tmp_path: Path) -> Path:
    """A workbook of one notebook that sleeps 300 s once its session has started."""
    root = tmp_path / "book"
    (root / "notebooks").mkdir(parents=True)
    (root / "reports").mkdir()
    notebook(root / "notebooks" / "01_sleeper.ipynb", SLEEPER, "import time\ntime.sleep(300)")
    return root


def kernel_started(run: subprocess.Popen) -> list[psutil.Process]:
    """The run's workers and kernels, once a kernel runs (or fail)."""
    parent, family = psutil.Process(run.pid), []
    deadline = time.monotonic() + 90
    while not any("ipykernel" in " ".join(p.cmdline()) for p in family if p.is_running()):
        assert run.poll() is None, f"the run ended first (exit {run.returncode})"
        assert time.monotonic() < deadline, "no kernel started"
        time.sleep(0.3)
        try:
            family = parent.children(recursive=True)
        except psutil.NoSuchProcess:
            pytest.fail("the run ended before its kernel started")
    return family


def stopped(command: list[str], root: Path, temporary: Path, sent: int) -> tuple[int, str]:
    """Start ``recallscore <command>`` in the workbook ``root`` (its own temporary folder
    ``temporary``), send ``sent`` once its notebook's kernel runs: SIGTERM to the command
    alone (``kill``), SIGHUP to its whole process group, as a terminal that goes away does;
    (the exit code, stderr), once every worker and kernel of it is gone (or fail)."""
    env = os.environ | {"RECALLSCORE_ROOT": str(root), "TMPDIR": str(temporary)}
    run = subprocess.Popen([sys.executable, "-m", "recallscore_nb", *command], cwd=root.parent,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, start_new_session=True)
    family: list[psutil.Process] = []
    try:
        family = kernel_started(run)
        if sent == signal.SIGHUP:
            os.killpg(run.pid, sent)
        else:
            run.send_signal(sent)
        _, err = run.communicate(timeout=20)  # at once: its notebook sleeps 300 s
        _, alive = psutil.wait_procs(family, timeout=20)
        assert alive == [], [p.cmdline() for p in alive]
    finally:
        for process in family:
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        if run.poll() is None:
            run.kill()
            run.wait()
    return run.returncode, err


def ours(folder: Path) -> list[str]:
    """What recallscore left in ``folder``: locks, work folders, anything of its name."""
    return sorted(p.name for p in folder.rglob("*") if "recallscore" in p.name)


@pytest.mark.parametrize(("sent", "expected"), ENDING, ids=["SIGTERM", "SIGHUP"])
def test_a_signal_ends_run_with_128_plus_it_leaving_nothing_behind(tmp_path, sent, expected):
    root, temporary = sleeper_workbook(tmp_path), tmp_path / "tmp"
    temporary.mkdir()
    code, err = stopped(["run", "--output-dir", str(tmp_path / "out"), "--jobs", "1"], root,
                        temporary, sent)
    assert (code, err) == (expected, "")
    assert not (tmp_path / "out").exists()  # the folder it created, with its work folder
    assert ours(temporary) == [] and ours(root) == []


@pytest.mark.parametrize(("sent", "expected"), ENDING, ids=["SIGTERM", "SIGHUP"])
def test_a_signal_ends_check_with_128_plus_it_leaving_nothing_behind(tmp_path, sent, expected):
    root, temporary = sleeper_workbook(tmp_path), tmp_path / "tmp"
    temporary.mkdir()
    code, err = stopped(["check", "--jobs", "1"], root, temporary, sent)
    assert (code, err) == (expected, "")
    assert ours(temporary) == []  # its fresh run's folder and lock are gone
    assert os.listdir(root / "reports") == [] and ours(root) == []
