"""The second process: a child forked per task (map_chunks) or once for every task
(ForkedWorker) gives what this process would, and its faults reach the caller."""

from __future__ import annotations

import pytest

from recallscore_nb.core.errors import InputFileError
from recallscore_nb.execution.processes import ForkedWorker, map_chunks


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
