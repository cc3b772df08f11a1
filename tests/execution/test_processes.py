"""Worker processes (ForkedWorker, forked once for every task; map_chunks, this process and
its workers in turn) give what this process would, and their faults reach the caller; the
default number of processes is 1 wherever forking is unsafe."""

from __future__ import annotations

import pytest

from recallscore_nb.core.errors import InputFileError
from recallscore_nb.execution import processes
from recallscore_nb.execution.processes import (ForkedWorker, default_processes, map_chunks,
                                                run_in_child)


def half(x):
    if x == 0:
        raise ZeroDivisionError("no zero")
    return 1 / x


def test_a_fault_in_the_second_process_reaches_the_caller():
    assert map_chunks(half, [(1,), (2,), (4,)], processes=2) == [1.0, 0.5, 0.25]
    with pytest.raises(ZeroDivisionError, match="no zero"):
        map_chunks(half, [(1,), (0,)], processes=2)


def test_one_process_maps_in_order_and_counts_what_is_done():
    done = []
    assert map_chunks(half, [(1,), (2,)], done=done.append) == [1.0, 0.5]
    assert done == [1, 2]  # rows done so far: a task without a length counts one


def test_the_forked_worker_serves_task_after_task_and_raises_its_faults():
    with ForkedWorker(half) as worker:
        worker.submit(2)
        assert worker.result() == 0.5
        worker.submit(0)
        with pytest.raises(ZeroDivisionError, match="no zero"):
            worker.result()


def test_an_input_error_from_the_child_keeps_its_message():
    def refuse(name):
        raise InputFileError(name, "line 3", "attempt", message="bad")

    with ForkedWorker(refuse) as worker:
        worker.submit("a.csv")
        with pytest.raises(InputFileError) as caught:
            worker.result()
    assert str(caught.value) == str(InputFileError("a.csv", "line 3", "attempt", message="bad"))


def wait_for_then_measure(flag, payload):
    import os
    import time

    while not os.path.exists(flag):
        time.sleep(0.01)
    return len(payload)


def test_submitting_to_a_busy_worker_does_not_wait_for_it(tmp_path):
    import threading

    flag, big = str(tmp_path / "go"), b"x" * (4 << 20)  # far larger than a pipe's buffer
    with ForkedWorker(wait_for_then_measure) as worker:
        worker.submit(flag, big)  # the child waits for the flag before it reads more
        submitting = threading.Thread(target=lambda: (worker.submit(flag, big),
                                                      worker.submit(flag, b"")))
        submitting.start()
        submitting.join(timeout=30)  # a guard against a hang, not a timing
        returned = not submitting.is_alive()
        open(flag, "w").close()
        assert [worker.result() for _ in range(3)] == [len(big), len(big), 0]
    assert returned


@pytest.mark.parametrize("count", [2, 3, 5])
def test_this_process_and_its_workers_take_the_tasks_in_turn(count):
    import os

    tasks = [(i,) for i in range(7)]
    done = []
    pids = map_chunks(lambda i: (i, os.getpid()), tasks, processes=count, done=done.append)
    assert [i for i, _ in pids] == list(range(7)) and done == list(range(1, 8))
    owners = [pid for _, pid in pids]
    assert owners[0] == os.getpid() and len(set(owners)) == min(count, 7)
    assert all(owners[i] == owners[i % count] for i in range(7))


def test_a_child_computes_a_result_or_raises_its_fault():
    import os

    assert run_in_child(os.getpid) != os.getpid()
    with pytest.raises(ZeroDivisionError, match="no zero"):
        run_in_child(half, 0)


@pytest.fixture
def no_threads_no_kernel(monkeypatch):
    """The rule's inputs as in a plain script on a Linux machine of three cores."""
    monkeypatch.setattr(processes.threading, "active_count", lambda: 1)
    monkeypatch.setattr(processes.sys, "platform", "linux")
    monkeypatch.setattr(processes.os, "sched_getaffinity", lambda pid: {0, 1, 2},
                        raising=False)
    monkeypatch.delitem(processes.sys.modules, "ipykernel.kernelapp", raising=False)


def test_by_default_one_process_a_core_up_to_the_maximum(no_threads_no_kernel, monkeypatch):
    assert default_processes() == 3
    monkeypatch.setattr(processes.os, "sched_getaffinity", lambda pid: set(range(64)),
                        raising=False)
    assert default_processes() == processes.MAX_PROCESSES


def test_one_process_while_other_threads_run(no_threads_no_kernel, monkeypatch):
    import threading

    monkeypatch.undo()  # the real thread count
    monkeypatch.setattr(processes.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert default_processes() == 1
    finally:
        release.set()
        other.join()
    assert default_processes() == (2 if threading.active_count() == 1 else 1)


def test_one_process_inside_a_jupyter_kernel(no_threads_no_kernel, monkeypatch):
    import types

    class IPKernelApp:
        running = True

        @classmethod
        def initialized(cls):
            return cls.running

    monkeypatch.setitem(processes.sys.modules, "ipykernel.kernelapp",
                        types.SimpleNamespace(IPKernelApp=IPKernelApp))
    assert default_processes() == 1
    IPKernelApp.running = False  # ipykernel imported, no kernel running
    assert default_processes() == 3


@pytest.mark.parametrize("platform, has_fork", [("darwin", True), ("linux", False)])
def test_one_process_where_fork_is_missing_or_unsafe(no_threads_no_kernel, monkeypatch,
                                                     platform, has_fork):
    monkeypatch.setattr(processes.sys, "platform", platform)
    if not has_fork:
        monkeypatch.delattr(processes.os, "fork")
    assert default_processes() == 1
