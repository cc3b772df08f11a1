"""Work shared with a second process, forked from this one: the second core of a machine,
without pickling the prepared tables it reads (the child inherits them).

:class:`ForkedWorker` is a child forked once that serves one function chunk after chunk;
:func:`map_chunks` maps a function over tasks, every second task in a child forked for it;
:class:`ForkedChunks` is the runner the core's scoring functions take (``runner=``). A
child's exception is raised in the caller. Where ``os.fork`` is missing, everything runs in
this process.
"""

from __future__ import annotations

import os
import pickle
import signal

from ..core.errors import InputFileError, UsageError
from ..core.scoring import CHUNK_ROWS

__all__ = ["ForkedWorker", "map_chunks", "ForkedChunks", "PARALLEL_ROWS"]


def _unwrap(message: tuple):
    """A child's ``(ok, value)``: the value, or the exception it raised, raised here."""
    ok, value = message
    if not ok:
        if isinstance(value, InputFileError):  # unpickled with its text as the file
            value.args = (value._text(),)
        raise value
    return value


class ForkedWorker:
    """A child forked once that computes ``function(*task)`` for each task it is sent, in
    order (tasks and results pickled through a pipe): a long run forks while this process
    is still small, so the child never holds what this one gathers later. Two threads of
    this process move the pipe's data: one sends the tasks :meth:`submit` queues (so that
    submitting never waits for a busy child to read a task larger than the pipe's buffer),
    one takes the results off the pipe as they come (so that the child never waits to send
    one while this process is busy). Several tasks may be outstanding.

    >>> with ForkedWorker(lambda x: x + 1) as worker:
    ...     worker.submit(1)
    ...     worker.submit(2)
    ...     worker.result(), worker.result()
    (2, 3)
    """

    def __init__(self, function) -> None:
        import multiprocessing
        import queue
        import threading

        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(function, child, self._conn),
                                        daemon=True)
        self._process.start()
        child.close()
        self._results: queue.Queue = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._outbox: queue.Queue = queue.Queue()
        self._sender = threading.Thread(target=self._send, daemon=True)
        self._sender.start()

    def _send(self) -> None:
        while True:
            task = self._outbox.get()
            try:
                self._conn.send(task)
            except (OSError, ValueError):  # the child is gone: result() says so
                return
            if task is None:
                return

    def _read(self) -> None:
        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError):
                self._results.put(None)
                return
            self._results.put(message)

    def submit(self, *task) -> None:
        self._outbox.put(task)

    def ready(self) -> bool:
        """Whether the next result has come back (it can be taken without waiting)."""
        return not self._results.empty()

    def result(self):
        message = self._results.get()
        if message is None:
            self._results.put(None)
            raise RuntimeError("the second scoring process ended without a result")
        return _unwrap(message)

    def close(self) -> None:
        """Stop the child (at once if a task is still running: this process was
        interrupted) and reap it."""
        if self._process is None:
            return
        self._outbox.put(None)
        self._sender.join(timeout=0.5)
        self._process.join(timeout=0.5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._reader.join(timeout=1)
        self._conn.close()
        self._process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _serve(function, conn, parent_end) -> None:
    """The forked child's loop: a task in, its result (or exception) out, until None."""
    parent_end.close()
    while True:
        try:
            task = conn.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if task is None:
            return
        try:
            conn.send((True, function(*task)))
        except BaseException as error:  # noqa: BLE001 - sent to the parent as it is
            try:
                conn.send((False, error))
            except Exception:  # noqa: BLE001 - unpicklable: say what it was
                conn.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


def map_chunks(function, tasks: list[tuple], *, processes: int = 1, done=None,
               worker: ForkedWorker | None = None) -> list:
    """``function(*task)`` for each task, in order. With ``processes=2`` (and ``os.fork``),
    every second task is computed in a forked child while this process computes the one
    before it; the child's result (or exception) comes back pickled. With ``worker`` (a
    :class:`ForkedWorker` of the same function), every second task goes to it instead.
    ``done(n)`` is told the sum of each finished task's first element's length (rows; 1
    without a length) after each task.

    >>> map_chunks(lambda x: x * 2, [([1],), ([2],), ([3],)], processes=2)
    [[1, 1], [2, 2], [3, 3]]
    """
    out, rows = [], 0

    def finished(task, result):
        nonlocal rows
        out.append(result)
        rows += len(task[0]) if hasattr(task[0], "__len__") else 1
        if done is not None:
            done(rows)

    fork = (processes > 1 or worker is not None) and hasattr(os, "fork")
    i = 0
    while i < len(tasks):
        if worker is not None and i + 1 < len(tasks):
            worker.submit(*tasks[i + 1])
            first = function(*tasks[i])
            finished(tasks[i], first)
            finished(tasks[i + 1], worker.result())
            i += 2
        elif fork and i + 1 < len(tasks):
            child = _Forked(function, tasks[i + 1])
            try:
                first = function(*tasks[i])
                second = child.result()
            finally:
                child.close()
            finished(tasks[i], first)
            finished(tasks[i + 1], second)
            i += 2
        else:
            finished(tasks[i], function(*tasks[i]))
            i += 1
    return out


class _Forked:
    """``function(*task)`` computed in a forked child; :meth:`result` waits for it."""

    def __init__(self, function, task) -> None:
        self.read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: compute, send, leave without running any cleanup
            os.close(self.read)
            code = 0
            try:
                try:
                    payload = pickle.dumps((True, function(*task)), pickle.HIGHEST_PROTOCOL)
                except BaseException as error:  # noqa: BLE001 - sent to the parent as it is
                    payload, code = pickle.dumps((False, error)), 1
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(payload)
            finally:
                os._exit(code)
        os.close(write)

    def result(self):
        with os.fdopen(self.read, "rb") as pipe:
            self.read = None
            data = pipe.read()
        os.waitpid(self.pid, 0)
        self.pid = None
        if not data:
            raise RuntimeError("the second scoring process ended without a result")
        return _unwrap(pickle.loads(data))

    def close(self) -> None:
        """Stop the child if it still runs (this process was interrupted), and reap it."""
        if self.read is not None:
            os.close(self.read)
            self.read = None
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.pid = None


PARALLEL_ROWS = 100_000
"""Distinct values from which two processes score a call's chunks: below, one is quicker."""


class ForkedChunks:
    """A runner of the core's chunks (``runner=`` of
    :func:`~recallscore_nb.core.scoring.score_all` and ``score_items``) in ``processes``
    processes: from :data:`PARALLEL_ROWS` distinct values, the values are cut into an even
    number of equal chunks and every second one is scored in a forked child
    (:func:`map_chunks`); below, or with one process, as the core runs them.

    >>> runner = ForkedChunks(2)
    >>> runner.chunk_rows(500_000), runner.chunk_rows(300_000), runner.chunk_rows(10)
    (125000, 150000, 200000)
    """

    def __init__(self, processes: int = 1) -> None:
        if not isinstance(processes, int) or isinstance(processes, bool) or processes < 1:
            raise UsageError(f"'processes' must be an integer >= 1 (got {processes!r})")
        self.processes = processes

    def chunk_rows(self, rows: int) -> int:
        if self.processes == 1 or rows < PARALLEL_ROWS:
            return CHUNK_ROWS
        pairs = -(-rows // (2 * CHUNK_ROWS))
        return max(1, -(-rows // (2 * pairs)))

    def map(self, function, tasks: list[tuple], done=None) -> list:
        return map_chunks(function, tasks, processes=self.processes, done=done)
