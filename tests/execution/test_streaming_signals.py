"""``recallscore score`` stopped mid-stream (issue 22): SIGTERM ends it at once with 143, its
temporary output removed and its worker processes ended, nothing printed; ``kill -9`` of the
command ends its workers at once too, silently; an existing output is never touched.

Each run is a real ``python -m recallscore_nb`` process with two workers whatever the
machine's cores, reading chunks smaller than its default (:data:`CHUNK`), on an attempts file
of three (both workers score); it is signalled once it is streaming: something new in the
output folder, a worker busy scoring.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb.cli.main import EXIT_TERMINATED

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
from generate import load_benchmark, make_attempts  # noqa: E402

CHUNK = 32_768
COMMAND = ("import runpy\n"
           "from recallscore_nb.execution import streaming\n"
           "from recallscore_nb.io.attempts import chunks as attempt_chunks\n"
           f"streaming.PROCESSES, attempt_chunks.CHUNK_ROWS = 2, {CHUNK}\n"
           "runpy.run_module('recallscore_nb', run_name='__main__', alter_sys=True)\n")
"""``python -m recallscore_nb`` with two scoring workers (the default is one a core) and
chunks of :data:`CHUNK` rows."""


@pytest.fixture(scope="module")
def attempts(tmp_path_factory) -> Path:
    """The shipped benchmark's attempts, perturbed, in a Parquet file of three chunks; every
    value twice, each attempt numbered (distinct values are what costs)."""
    distinct = make_attempts(load_benchmark()[2], 4_000, seed=22)
    rows = [f"{distinct[i // 2 % len(distinct)]} {i // 2}" for i in range(3 * CHUNK)]
    path = tmp_path_factory.mktemp("attempts") / "attempts.parquet"
    pq.write_table(pa.table({"id": [f"A{i:07d}" for i in range(len(rows))], "attempt": rows}),
                   path)
    return path


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``, hidden ones included."""
    seen: dict[str, bytes | None] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            seen[os.path.relpath(os.path.join(root, name), folder)] = None
        for name in files:
            seen[os.path.relpath(os.path.join(root, name), folder)] = (
                Path(root, name).read_bytes())
    return seen


def output_folder(tmp_path: Path) -> Path:
    """A folder holding a previous output and another file."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "s.parquet").write_bytes(b"the previous scores\n")
    (out / "notes.txt").write_text("kept\n")
    return out


def start_score(attempts: Path, out: Path, stderr) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", COMMAND, "score", "--attempts", str(attempts),
                             "--out", str(out / "s.parquet"), "--quiet"], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=stderr)


def streaming_workers(run: subprocess.Popen, out: Path, before: dict) -> list[psutil.Process]:
    """The run's worker processes, once the run writes into ``out`` and a worker scores."""
    deadline = time.monotonic() + 60
    while True:
        assert run.poll() is None, f"the run ended first (exit {run.returncode})"
        assert time.monotonic() < deadline, "the run never started streaming"
        workers = psutil.Process(run.pid).children()
        if (len(workers) == 2 and set(os.listdir(out)) != set(before)
                and any(busy(worker) for worker in workers)):
            return workers
        time.sleep(0.02)


def busy(process: psutil.Process) -> bool:
    try:
        return process.cpu_times().user >= 0.2
    except psutil.NoSuchProcess:
        return False


def alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    """Those still running (a zombie, dead but not yet reaped, is not)."""
    running = []
    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                running.append(process)
        except psutil.NoSuchProcess:
            pass
    return running


def gone_within(processes: list[psutil.Process], seconds: float) -> list[psutil.Process]:
    """Those still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    while alive(processes) and time.monotonic() < deadline:
        time.sleep(0.01)
    return alive(processes)


def kill_all(run: subprocess.Popen, processes: list[psutil.Process]) -> None:
    for process in alive(processes):
        process.kill()
    if run.poll() is None:
        run.kill()
        run.wait()


def test_sigterm_mid_stream_exits_143_and_leaves_the_folder_as_it_was(attempts, tmp_path):
    out = output_folder(tmp_path)
    before = snapshot(out)
    workers: list[psutil.Process] = []
    with open(tmp_path / "stderr.txt", "w+b") as stderr:
        run = start_score(attempts, out, stderr)
        try:
            workers = streaming_workers(run, out, before)
            run.send_signal(signal.SIGTERM)
            code = run.wait(timeout=20)
            left = alive(workers)
        finally:
            kill_all(run, workers)
    assert code == EXIT_TERMINATED
    assert snapshot(out) == before  # the temporary output gone, the previous one untouched
    assert left == []
    assert (tmp_path / "stderr.txt").read_text() == ""


def test_kill_9_of_the_command_ends_its_workers_at_once_and_silently(attempts, tmp_path):
    out = output_folder(tmp_path)
    before = snapshot(out)
    workers: list[psutil.Process] = []
    with open(tmp_path / "stderr.txt", "w+b") as stderr:
        run = start_score(attempts, out, stderr)  # the workers share this stderr
        try:
            workers = streaming_workers(run, out, before)
            run.kill()
            run.wait(timeout=20)
            left = gone_within(workers, 1.0)
        finally:
            kill_all(run, workers)
    assert left == []
    assert (tmp_path / "stderr.txt").read_text() == ""
    assert (out / "s.parquet").read_bytes() == before["s.parquet"]
    assert sorted(os.listdir(out)) != sorted(before)  # its work folder stays, unlocked
    subprocess.run([sys.executable, "-c", COMMAND, "score", "--out", str(out / "s.parquet"),
                    "--quiet"], cwd=REPO, check=True, capture_output=True)
    assert sorted(os.listdir(out)) == sorted(before)  # the next score into it removed it
