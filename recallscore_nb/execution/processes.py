"""Work shared with worker processes forked from this one: the other cores of a machine,
without pickling the prepared tables they read (a worker inherits them).

:class:`ForkedWorker` is a child forked once that serves one function task after task; the
command's streaming scorer and the public API both score through such workers.
:func:`map_chunks` maps a function over tasks, this process and ``processes - 1`` workers
taking them in turn; :class:`ForkedChunks` is the runner the core's scoring functions take
(``runner=``). A worker's exception is raised in the caller. :func:`default_processes` says
how many processes to use when nobody says: one where forking is unsafe.

A worker never outlives this process and never prints: it ends silently when its parent
dies (:func:`die_with_parent`; its pipe at its end), when sent SIGTERM or SIGHUP, or when
closed; Ctrl-C is its parent's to handle, which then ends it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

from ..core.errors import InputFileError, UsageError
from ..core.scoring import CHUNK_ROWS

__all__ = ["ForkedWorker", "fork_workers", "run_in_child", "map_chunks", "ForkedChunks",
           "PARALLEL_ROWS", "default_processes", "check_processes", "MAX_PROCESSES",
           "die_with_parent"]

MAX_PROCESSES = 4
"""Processes :func:`default_processes` gives at most (each scoring worker has its own memory
budget, docs/scale.md)."""


def default_processes() -> int:
    """How many processes score when the caller does not say (``processes=None``): one per
    core this process may run on, at most :data:`MAX_PROCESSES`, and 1 where forking is
    unsafe: without ``os.fork``, on macOS (system libraries there do not survive a fork),
    inside a Jupyter kernel, or whenever this process runs threads besides its main one (a
    forked child inherits their locks, held or not, but not the threads: a kernel's
    heartbeat and messaging threads, a progress bar's monitor, a user's pool). The rule is
    read at each call.

    >>> 1 <= default_processes() <= MAX_PROCESSES
    True
    """
    if not hasattr(os, "fork") or sys.platform == "darwin" or _in_kernel():
        return 1
    if threading.active_count() > 1:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, MAX_PROCESSES))


def _in_kernel() -> bool:
    """Whether this process is a running IPython kernel (a notebook's)."""
    app = sys.modules.get("ipykernel.kernelapp")
    return app is not None and app.IPKernelApp.initialized()


def check_processes(processes) -> int:
    """``processes`` checked (an integer >= 1), or :func:`default_processes` for None."""
    if processes is None:
        return default_processes()
    if not isinstance(processes, int) or isinstance(processes, bool) or processes < 1:
        raise UsageError(f"'processes' must be an integer >= 1 (got {processes!r})")
    return processes


def _unwrap(message: tuple):
    """A child's ``(ok, value)``: the value, or the exception it raised, raised here."""
    ok, value = message
    if not ok:
        if isinstance(value, InputFileError):  # unpickled with its text as the file
            value.args = (value.text(),)
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

    def __init__(self, function, *, threads: bool = True) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe()
        self.pending = 0
        """Tasks submitted whose result has not been taken yet."""
        with _stop_signals_held() as mask:
            self._process = context.Process(target=_serve, daemon=True, args=(
                function, child, self._conn, os.getpid(), mask))
            self._process.start()
            child.close()
            _PARENT_ENDS.add(self._conn)
        if threads:
            self.start_threads()

    def start_threads(self) -> None:
        """Start the two threads that move the pipe's data (once every worker of a group is
        forked: :func:`fork_workers`)."""
        import queue

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
        self.pending += 1
        self._outbox.put(task)

    def ready(self) -> bool:
        """Whether the next result has come back (it can be taken without waiting)."""
        return not self._results.empty()

    def result(self):
        message = self._results.get()
        if message is None:
            self._results.put(None)
            raise RuntimeError("a scoring worker process ended without a result")
        self.pending -= 1
        return _unwrap(message)

    def close(self) -> None:
        """Stop the child and reap it: told to end once every result is taken, killed at
        once while it still has tasks (this process gave up on them: interrupted, or a fault
        met elsewhere), so that a command told to stop stops now."""
        if self._process is None:
            return
        if self.pending:
            self._process.kill()
        self._outbox.put(None)
        self._sender.join(timeout=0.5)
        self._process.join(timeout=0.5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._reader.join(timeout=1)
        self._conn.close()
        _PARENT_ENDS.discard(self._conn)
        self._process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_PARENT_ENDS: set = set()
"""This process's ends of its workers' pipes, open: a child forked later closes its copies,
so that a worker sees the end of its pipe when this process dies, not when its siblings do."""
STOP_SIGNALS = tuple(s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None), signal.SIGINT)
                     if s)  # Windows has no SIGHUP


@contextlib.contextmanager
def _stop_signals_held():
    """SIGTERM, SIGHUP and SIGINT held back in this thread while a child is forked (the child
    sets its own handlers before it takes them: this process's would print a traceback there);
    yields the signal mask to restore, in the child too (forking means POSIX, which has
    ``pthread_sigmask``)."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield mask
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def die_with_parent(parent: int) -> None:
    """Make this (forked) process end, at once and silently, when ``parent`` ends, however
    it ends, or when it is sent SIGTERM or SIGHUP (a SIGHUP this process ignores, as under
    ``nohup``, stays ignored).

    On Linux the kernel sends SIGKILL at the parent's death (``prctl(PR_SET_PDEATHSIG)``;
    the death of the thread that forked, to be exact); everywhere, a thread checks once a
    second that the parent is still there.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # told to end: end, silently (not the
    # parent's handler, which raises to unwind the command)
    hangup = getattr(signal, "SIGHUP", None)
    if hangup and signal.getsignal(hangup) != signal.SIG_IGN:
        signal.signal(hangup, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="recallscore-parent-watch", daemon=True).start()


def _serve(function, conn, parent_end, parent: int, mask) -> None:
    """The forked child: a task in, its result (or exception) out, until None. It leaves by
    ``os._exit``, never printing: 0 once told to stop, 1 when its parent is gone (the pipe
    ends or breaks; on Linux the kernel kills it first)."""
    code = 1
    try:
        parent_end.close()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent, which ends it
        die_with_parent(parent)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for end in _PARENT_ENDS:  # the siblings' pipes, forked before this child
            end.close()
        _PARENT_ENDS.clear()
        code = _serve_tasks(function, conn)
    except BaseException:  # noqa: BLE001 - the pipe broke: the parent is gone, none to tell
        pass
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        os._exit(code)


def _serve_tasks(function, conn) -> int:
    """Tasks from ``conn`` until None (0) or the pipe's end (1: the parent is gone)."""
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return 1
        if task is None:
            return 0
        try:
            answer = (True, function(*task))
        except BaseException as error:  # noqa: BLE001 - sent to the parent as it is
            answer = (False, error)
        _reply(conn, answer)


def _reply(conn, answer: tuple) -> None:
    """Send ``(ok, value)``; a value that cannot be pickled is sent as the error it raised,
    an error that cannot be as its text. A broken pipe is raised: the parent is gone."""
    try:
        conn.send(answer)
    except OSError:
        raise
    except BaseException as error:  # noqa: BLE001 - unpicklable: say what it was
        ok, value = answer
        _reply(conn, (False, error) if ok else (False, RuntimeError(
            f"{type(value).__name__}: {value}")))


def fork_workers(function, count: int) -> list[ForkedWorker]:
    """``count`` :class:`ForkedWorker` of ``function``, every one forked before any of them
    starts its threads: no worker is forked while this process runs threads of its own.

    >>> workers = fork_workers(abs, 2)
    >>> for worker in workers:
    ...     worker.submit(-3)
    >>> [worker.result() for worker in workers]
    [3, 3]
    >>> for worker in workers:
    ...     worker.close()
    """
    workers = [ForkedWorker(function, threads=False) for _ in range(count)]
    for worker in workers:
        worker.start_threads()
    return workers


def run_in_child(function, *args):
    """``function(*args)`` computed in a child forked for it, its result pickled back (its
    exception raised here): what the child allocated meanwhile, garbage included, goes with
    it, and this process receives the result alone, compact. In this process where
    ``os.fork`` is missing.

    >>> run_in_child(sorted, [3, 1, 2])
    [1, 2, 3]
    """
    if not hasattr(os, "fork"):
        return function(*args)
    with ForkedWorker(function) as child:
        child.submit(*args)
        return child.result()


def map_chunks(function, tasks: list[tuple], *, processes: int = 1, done=None) -> list:
    """``function(*task)`` for each task, in order. With ``processes > 1`` (and ``os.fork``),
    ``processes - 1`` workers are forked now (:func:`fork_workers`: they inherit
    ``function`` and ``tasks``, and are sent a task's number only) and take the tasks in
    turn with this process: task ``i`` goes to process ``i % processes``, this one being 0;
    only the results are pickled. ``done(n)`` is told the sum of each finished task's first
    element's length (rows; 1 without a length) after each task, in order.

    >>> map_chunks(lambda x: x * 2, [([1],), ([2],), ([3],)], processes=2)
    [[1, 1], [2, 2], [3, 3]]
    """
    out, rows = [], 0
    helpers = min(processes - 1, len(tasks) - 1) if hasattr(os, "fork") else 0
    workers = fork_workers(lambda i: function(*tasks[i]), helpers) if helpers > 0 else []
    try:
        for i in range(len(tasks)):
            if workers and i % (len(workers) + 1):
                workers[i % (len(workers) + 1) - 1].submit(i)
        for i, task in enumerate(tasks):
            turn = i % (len(workers) + 1)
            out.append(workers[turn - 1].result() if turn else function(*task))
            rows += len(task[0]) if hasattr(task[0], "__len__") else 1
            if done is not None:
                done(rows)
    finally:
        for worker in workers:
            worker.close()
    return out


PARALLEL_ROWS = 100_000
"""Distinct values from which worker processes score a call's chunks: below, one process
is quicker."""


class ForkedChunks:
    """A runner of the core's chunks (``runner=`` of
    :func:`~recallscore_nb.core.scoring.score_all` and ``score_items``) in ``processes``
    processes (None: :func:`default_processes`): from :data:`PARALLEL_ROWS` distinct values,
    the values are cut into equal chunks, a multiple of ``processes`` of them, which this
    process and its workers take in turn (:func:`map_chunks`); below, or with one process,
    as the core runs them.

    >>> runner = ForkedChunks(2)
    >>> runner.chunk_rows(500_000), runner.chunk_rows(300_000), runner.chunk_rows(10)
    (125000, 150000, 200000)
    """

    def __init__(self, processes: int | None = 1) -> None:
        self.processes = check_processes(processes)

    def chunk_rows(self, rows: int) -> int:
        if self.processes == 1 or rows < PARALLEL_ROWS:
            return CHUNK_ROWS
        rounds = -(-rows // (self.processes * CHUNK_ROWS))
        return max(1, -(-rows // (self.processes * rounds)))

    def map(self, function, tasks: list[tuple], done=None) -> list:
        return map_chunks(function, tasks, processes=self.processes, done=done)
