"""The Dask engine: score a partitioned attempts dataset (many Parquet files) on a cluster.

Consecutive files (or row groups) of the dataset (:mod:`recallscore_nb.io.datasets`) are grouped
into about one partition per worker thread (scoring deduplicates (item, attempt) pairs within
a partition, so fewer partitions do less work), at most 1,000,000 rows each unless one file
holds more. On the workers each partition is read with the checks of
:func:`recallscore_nb.io.attempts.read_attempts` and scored with the same vectorized function as
the pandas engine (:func:`~recallscore_nb.core.scoring.score_items` or
:func:`~recallscore_nb.core.scoring.score_benchmark`), so the result equals the pandas engine's
row for row, dtypes included.

Dask is an optional extra (``pip install -e .[dask]``), imported only when the engine runs, so
the package works without it. Workers must be able to import ``recallscore_nb`` and read the
files (a local cluster can; a remote one needs both installed and mounted).

A script that starts the default local cluster must guard its entry point with
``if __name__ == "__main__":``, as worker processes are spawned and import the main module.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from dataclasses import replace

import pandas as pd

from ..core.errors import InputFileError, UsageError
from ..io.datasets import attempt_files, check_unique_ids, empty_part, read_part

__all__ = ["score_with_dask", "local_cluster", "CONNECT_TIMEOUT"]

_EXTRA = "the Dask engine needs the 'dask' extra: pip install -e .[dask]"
_PARTITIONS_PER_THREAD = 1
"""Partitions per worker thread: scoring deduplicates (item, attempt) pairs within a partition
only, so fewer, larger partitions do less work (figures in benchmarks/README.md)."""
_MAX_PARTITION_ROWS = 1_000_000
"""Rows per partition at most (unless one file holds more), to bound a worker's memory."""
CONNECT_TIMEOUT = 5
"""Seconds to wait for a scheduler given by address to answer before giving up."""


# --- one partition scored (on the workers) ---------------------------------------------------
def _score_part(frame: pd.DataFrame, scorer_input, *, squad_mode: str) -> pd.DataFrame:
    """Score one partition as the pandas engine scores the whole: items mode when the scorer
    input is an :class:`~recallscore_nb.core.items.Items`, single-reference mode otherwise."""
    from ..core.items import Items
    from ..core.scoring import score_benchmark, score_items

    if isinstance(scorer_input, Items):
        return score_items(scorer_input, frame, squad_mode=squad_mode)
    return score_benchmark(scorer_input, frame, squad_mode=squad_mode)


def _sample(scorer_input):
    """The scorer input cut to its first item: the same output columns and dtypes, built
    without preparing every item's references (what Dask's ``meta`` needs)."""
    from ..core.items import Items

    if isinstance(scorer_input, Items):
        return replace(scorer_input, items=scorer_input.items[:1])
    return scorer_input


def _check_input(scorer_input) -> None:
    from ..core.benchmark import Benchmark
    from ..core.items import Items

    if not isinstance(scorer_input, (Items, Benchmark)):
        raise UsageError(f"'scorer_input' must be an Items or a Benchmark "
                         f"(got {scorer_input!r:.60} that is a {type(scorer_input)!r})")


# --- the engine ---------------------------------------------------------------------------
def _import_dask():
    try:
        import dask
        import dask.dataframe as dd
        import distributed
    except ImportError:
        raise UsageError(_EXTRA) from None
    return dask, dd, distributed


def local_cluster(n_workers: int = 2):
    """The engine's local cluster: ``n_workers`` processes of one thread each, no dashboard.

    Two worker settings differ from Dask's defaults, as they cost CPU time in scoring (figures
    in benchmarks/README.md): glibc is not told to trim freed memory at every 64 KiB
    (``MALLOC_TRIM_THRESHOLD_``), and the statistical profiler does not sample the workers.
    Logs below CRITICAL are silenced: a failed task reaches the caller as its exception.
    """
    dask, _, distributed = _import_dask()
    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                          "distributed.worker.profile.enabled": False}):
        return distributed.LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None,
            # without a dashboard the scheduler still serves health checks over HTTP, on port
            # 8787 unless told otherwise (a second cluster then warns that it is taken)
            scheduler_kwargs={"dashboard_address": ":0"}, silence_logs=logging.CRITICAL)


def _check_address(scheduler: str) -> None:
    """Refuse what cannot be a scheduler's address (no port, an unknown scheme) at once.

    >>> _check_address("tcp://127.0.0.1:8786")
    >>> _check_address("garbage")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: --scheduler 'garbage': not a scheduler address (missing port number in address 'garbage'); give one such as tcp://host:8786
    """
    from distributed.comm import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        get_backend(parse_address(scheduler)[0])
        get_address_host_port(scheduler)
    except NotImplementedError:  # a scheme without host and port (inproc://)
        pass
    except ValueError as exc:
        raise UsageError(f"--scheduler {scheduler!r}: not a scheduler address ({exc}); give "
                         "one such as tcp://host:8786") from None


_NOT_DASK = "not a Dask scheduler (something else answers there)"


def _refuses(scheduler: str) -> bool:
    """Whether a ``tcp://`` or ``tls://`` address refuses a plain TCP connection. Asked first:
    Dask's ``connect`` retries a refusal until its timeout and then names the refusal or the
    timeout, whichever its last try met (by chance of timing: 2 runs in 8 said "timed out"
    on this machine)."""
    import socket

    from distributed.comm import get_address_host_port, parse_address

    if parse_address(scheduler)[0] not in ("tcp", "tls"):
        return False
    try:
        socket.create_connection(get_address_host_port(scheduler),
                                 timeout=CONNECT_TIMEOUT).close()
    except ConnectionRefusedError:
        return True
    except OSError:  # unreachable, timed out...: Dask's connect says what
        return False
    return False


def _connect_failure(exc: BaseException) -> str:
    """What went wrong connecting, in a few words: refused (Dask retries a refusal until its
    timeout, then reports the timeout, the refusal as its cause), timed out, or the error."""
    seen, cause = set(), exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ConnectionRefusedError) or "Connection refused" in str(cause):
            return "cannot connect: connection refused"
        cause = cause.__cause__ or cause.__context__
    if isinstance(exc, TimeoutError) or str(exc).startswith("Timed out"):
        return f"cannot connect: timed out after {CONNECT_TIMEOUT} s"
    return f"cannot connect: {exc or type(exc).__name__}"


def _no_scheduler_at(scheduler: str) -> str | None:
    """What stops a Dask scheduler at ``scheduler`` from answering (the connection refused,
    no answer within :data:`CONNECT_TIMEOUT` seconds, or something else answering), or None
    when one does: asked for its identity over a connection of its own, on an event loop of
    its own, the whole exchange bounded (Dask's own connect waits for the handshake without
    a limit, so a server that accepts and stays silent would hang it).

    A client is made only after this: a ``Client`` whose connection fails half-way (refused,
    timed out, or answered by something that is not a scheduler) lingers, and at exit waits
    20 s to close and prints a traceback.
    """
    import asyncio

    from distributed.comm import connect

    if _refuses(scheduler):
        return "cannot connect: connection refused"

    async def identity():
        comm = await connect(scheduler, timeout=CONNECT_TIMEOUT)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded():  # a little past connect's own timeout, so that its errors come first
        return await asyncio.wait_for(identity(), CONNECT_TIMEOUT + 0.5)

    try:
        reply = asyncio.run(bounded())
    except (OSError, TimeoutError) as exc:
        return _connect_failure(exc)
    except Exception:  # a server that is not Dask's: its bytes are not Dask's messages
        return _NOT_DASK
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        return _NOT_DASK
    return None


@contextlib.contextmanager
def _client(distributed, scheduler: str | None, n_workers: int):
    """A client of the cluster at ``scheduler``, or of a local cluster started (and closed) here."""
    if scheduler is not None:
        _check_address(scheduler)
        failure = _no_scheduler_at(scheduler)
        if failure is None:
            try:
                client = distributed.Client(scheduler, set_as_default=False,
                                            timeout=f"{CONNECT_TIMEOUT}s")
            except (OSError, TimeoutError) as exc:  # it went away since it answered
                failure = _connect_failure(exc)
        if failure is not None:
            raise UsageError(f"--scheduler {scheduler!r}: {failure}")
        with client:
            yield client
        return
    with local_cluster(n_workers) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        yield client


def _gather(distributed, client, parts, progress: bool) -> list[pd.DataFrame]:
    """Compute the partitions; return them in order. Dask's text progress bar goes to stderr
    (standard output may carry the scored CSV)."""
    futures = client.compute(parts)
    try:
        if progress:
            with contextlib.redirect_stdout(sys.stderr):
                distributed.progress(futures, notebook=False, scheduler=client.scheduler.address)
        return client.gather(futures)
    except InputFileError as error:
        # Unpickling runs InputFileError.__init__ with the text as the file; the fields come
        # back right, so rebuild the text from them.
        error.args = (error.text(),)
        raise


def score_with_dask(scorer_input, attempts_glob: str, *, scheduler: str | None = None,
                    n_workers: int = 2, squad_mode: str = "v1.1",
                    progress: bool = True) -> pd.DataFrame:
    """Score a partitioned attempts dataset with Dask; the same table as the pandas engine.

    Parameters
    ----------
    scorer_input : Items or Benchmark
        An :class:`~recallscore_nb.core.items.Items` scores each attempt against its own item (the
        files need an ``item`` column, as :func:`~recallscore_nb.core.scoring.score_items`); a
        :class:`~recallscore_nb.core.benchmark.Benchmark` scores every attempt against its
        reference and checklist (:func:`~recallscore_nb.core.scoring.score_benchmark`'s columns).
        It is sent to every worker once.
    attempts_glob : str
        A glob pattern of Parquet files (``"dir/*.parquet"``) or a directory; the files are
        taken in sorted order and must share one schema (column names and types).
    scheduler : str or None
        The address of a running Dask scheduler (``tcp://host:8786``); None starts a local
        cluster of ``n_workers`` processes for this call and closes it afterwards.
    n_workers : int
        Worker processes of the local cluster (one thread each); unused with ``scheduler``.
    squad_mode : {"v1.1", "v2.0"}
        Which official SQuAD script exact match and token F1 follow.
    progress : bool
        Show Dask's text progress bar on standard error while the partitions are scored.

    Returns
    -------
    DataFrame
        One row per attempt, in file order then row order, with a RangeIndex. Default ids are
        the global row numbers across the files (``"0"`` … ``"n-1"``); explicit ids are kept
        and must be unique across the files.

    Raises
    ------
    UsageError
        The 'dask' extra is not installed, no file matches, a scheduler cannot be reached, or
        the attempts cannot be scored with this input (e.g. no ``item`` column).
    AttemptsFormatError
        A file is unreadable, lacks a string ``attempt`` column, differs in columns from the
        first, has a null attempt or id, or repeats an id; named by file and row.
    """
    dask, dd, distributed = _import_dask()
    _check_input(scorer_input)
    if not isinstance(n_workers, int) or isinstance(n_workers, bool) or n_workers < 1:
        raise UsageError(f"'n_workers' must be a positive int (got {n_workers!r})")
    files = attempt_files(attempts_glob)
    meta_in = empty_part(files)
    meta = _score_part(meta_in, _sample(scorer_input), squad_mode=squad_mode)  # usage errors, early
    with dask.config.set({"dataframe.convert-string": False}), \
            _client(distributed, scheduler, n_workers) as client:
        parts = files.partitions(_PARTITIONS_PER_THREAD * sum(client.nthreads().values()),
                                 max_rows=_MAX_PARTITION_ROWS)
        shared = client.scatter(scorer_input, broadcast=True, hash=False)
        attempts = dd.from_map(read_part, parts, meta=meta_in, label="read-attempts",
                               enforce_metadata=False)
        scored = attempts.map_partitions(_score_part, shared, squad_mode=squad_mode, meta=meta,
                                         enforce_metadata=False, transform_divisions=False)
        frames = _gather(distributed, client, scored.to_delayed(), progress)
    out = pd.concat(frames, ignore_index=True)
    if "id" in files.columns:  # default ids are unique by construction
        check_unique_ids(out["id"], files)
    return out
