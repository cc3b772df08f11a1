"""Scoring an attempts file into a scored file: whole, or a chunk at a time with worker
processes, the same bytes either way.

:func:`score_file` streams a single attempts file (CSV, JSONL or Parquet): worker processes
(:data:`PROCESSES`), forked before this process holds any chunk, score the chunks while this
process reads, checks and writes them in order (:data:`CHILD_AHEAD`), so memory stays flat
however long the file is (the budget: docs/scale.md). Standard input, a partitioned dataset,
or a file whose chunks disagree in types is read and scored whole, through the public API's
functions and their worker processes.
"""

from __future__ import annotations

import os

from ..core.errors import Unstreamable
from ..io.attempts.chunks import AttemptChunks
from ..io.attempts import read_attempts
from ..io.datasets import attempt_files, read_attempt_files
from ..io.scored import write_scored, write_scored_chunks
from .memory import lean_arrow_memory, lean_malloc
from .processes import check_processes, fork_workers

__all__ = ["score_file", "streamable", "read_attempts_or_dataset", "PROCESSES", "CHILD_AHEAD"]

PROCESSES: int | None = None
"""Processes that score chunks while this one reads and writes (None:
:func:`~recallscore_nb.execution.processes.default_processes`; 1: this process scores them
itself)."""
CHILD_AHEAD = 2
"""Chunks each worker may have in hand (one it scores, one waiting) before this process
waits for the oldest result: enough to keep both busy, few enough to keep memory flat."""


def streamable(attempts_path) -> bool:
    """Whether the attempts are one file, read in chunks (not standard input, a dataset)."""
    return attempts_path is not None and attempts_path != "-" and not (
        os.path.isdir(attempts_path) or any(ch in str(attempts_path) for ch in "*?["))


def read_attempts_or_dataset(path):
    """An attempts file, or a partitioned Parquet dataset (a folder or a glob) read in sorted
    file order with global row numbers as default ids, as the Dask engine reads it."""
    if path != "-" and (os.path.isdir(path) or any(ch in str(path) for ch in "*?[")):
        return read_attempt_files(attempt_files(path))
    return read_attempts(path)


def score_file(scorer, attempts_path, out, *, progress=None) -> None:
    """Score the attempts at ``attempts_path`` (None: a benchmark's own rows) with ``scorer``
    (:func:`~recallscore_nb.execution.scorers.load_scorer`) and write the table to ``out``
    (None: CSV on standard output), atomically, signed in its metadata. ``progress(done,
    total)`` is told the rows done."""
    if streamable(attempts_path):
        if _stream(scorer, attempts_path, out, progress):
            return
        scorer.restore()
    frame = None if attempts_path is None else read_attempts_or_dataset(attempts_path)
    table = scorer.score_whole(frame, attempts_path, progress=progress)
    write_scored(table, out, metadata=scorer.metadata)


class _InOrder:
    """The chunks in flight, written in the order they were read: each is ``(worker,
    chunk)`` while a worker scores it, ``(None, table)`` once scored."""

    def __init__(self, workers: list, join, progress, total) -> None:
        self.queue: list = []
        self.workers = workers
        self.join, self.progress, self.total = join, progress, total
        self.done = 0

    def ready(self):
        """The finished tables at the head of the queue, in order, each counted done."""
        while self.queue and self.queue[0][0] is None:
            table = self.queue.pop(0)[1]
            self.done += len(table)
            yield table
            if self.progress is not None:
                self.progress(self.done, max(self.total() or 0, self.done))

    def take(self) -> None:
        """The oldest chunk's table from the worker scoring it (waiting for it)."""
        worker, frame = self.queue[0]
        self.queue[0] = (None, self.join(frame, worker.result()))

    def submit(self, sent, frame):
        """Give a chunk to the least busy worker, once one has room; yield what finished."""
        while all(worker.pending >= CHILD_AHEAD for worker in self.workers):
            self.take()  # every worker has its fill: wait for the oldest
            yield from self.ready()
        worker = min(self.workers, key=lambda w: w.pending)
        worker.submit(sent)
        self.queue.append((worker, frame))

    def collect(self, finished_only: bool):
        """The finished tables (all of them, waiting, unless ``finished_only``)."""
        while self.queue and self.queue[0][0] is not None and (
                not finished_only or self.queue[0][0].ready()):
            self.take()
            yield from self.ready()
        yield from self.ready()


def _stream(scorer, attempts_path, out, progress) -> bool:
    """Score ``attempts_path`` a chunk at a time and write the table as it is scored; False
    when the file must be read whole (nothing written then). Every chunk is checked
    (``scorer.checker``); a fault is reported once the whole file is read, as when it is
    read whole (the file's own faults first), and no chunk is scored after one."""
    check, score = scorer.checker(attempts_path), scorer.chunk_function()
    lean_arrow_memory()
    chunks = AttemptChunks(attempts_path, rows=scorer.chunk_rows)
    send, added, join = scorer.lean(score) or (lambda frame: frame, score,
                                               lambda frame, table: table)
    processes = check_processes(PROCESSES)
    forking = processes > 1 and hasattr(os, "fork")  # forked now, before any chunk is read
    workers = fork_workers(added, processes if forking else 0)
    if workers:  # this process reads and writes only: what it sends goes back to the system
        lean_malloc()
        scorer.release()
    flight = _InOrder(workers, join, progress, lambda: chunks.total_rows)

    def scored():
        fault, first = None, True
        for frame in chunks:
            fault = check(frame, first) or fault
            first = False
            if fault is not None:
                continue
            if workers:
                yield from flight.submit(send(frame), frame)
            else:
                flight.queue.append((None, score(frame)))
            yield from flight.collect(finished_only=True)
        if fault is not None:
            raise fault()
        yield from flight.collect(finished_only=False)

    try:
        write_scored_chunks(scored(), out, metadata=scorer.metadata)
    except Unstreamable:
        return False
    finally:
        for worker in workers:
            worker.close()
    return True
