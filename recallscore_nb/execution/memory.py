"""Memory policies of a run: Arrow's allocator, and Python's cyclic collector paused while
many small containers are built. Neither changes a value; figures in benchmarks/README.md.
"""

from __future__ import annotations

import functools
import gc
from contextlib import contextmanager

__all__ = ["lean_arrow_memory", "paused_collector", "with_collector_paused"]


def lean_arrow_memory() -> None:
    """Let Arrow allocate through jemalloc with no decay, when this build of Arrow has it:
    freed memory goes back to the system at once, so a long streaming run stays small."""
    import pyarrow as pa

    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
        pa.jemalloc_set_decay_ms(0)
    except (NotImplementedError, pa.ArrowNotImplementedError):
        pass


@contextmanager
def paused_collector():
    """Python's cyclic collector paused, and restored as it was (after an error too): the
    records built meanwhile hold no cycles, and the collector would otherwise walk every
    object built so far, again and again.

    >>> with paused_collector():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def with_collector_paused(function):
    """``function``, run with :func:`paused_collector` (same name, same docstring)."""
    @functools.wraps(function)
    def run(*args, **kwargs):
        with paused_collector():
            return function(*args, **kwargs)
    return run
