"""Memory policies of a run: Arrow's allocator, and Python's cyclic collector paused while
many small containers are built. Neither changes a value; figures in benchmarks/README.md.
"""

from __future__ import annotations

import functools
import gc
from contextlib import contextmanager

__all__ = ["lean_arrow_memory", "lean_malloc", "paused_collector", "with_collector_paused",
           "MMAP_THRESHOLD"]

MMAP_THRESHOLD = 1 << 20
"""Bytes from which glibc's ``malloc`` maps a block of its own, given back when freed."""
M_MMAP_THRESHOLD = -3  # mallopt's parameter number (glibc's malloc.h)


def lean_arrow_memory() -> None:
    """Let Arrow allocate through jemalloc with no decay, when this build of Arrow has it:
    freed memory goes back to the system at once, so a long streaming run stays small."""
    import pyarrow as pa

    try:
        pa.set_memory_pool(pa.jemalloc_memory_pool())
        pa.jemalloc_set_decay_ms(0)
    except (NotImplementedError, pa.ArrowNotImplementedError):
        pass


def lean_malloc() -> bool:
    """Have glibc's ``malloc`` map every block from :data:`MMAP_THRESHOLD` bytes on its own
    (a fixed threshold: glibc otherwise raises it as large blocks are freed, and keeps them
    in its heap) so that the pickles and arrays of each chunk go back to the system once
    used, instead of staying resident in a long run; True where glibc took the setting. It
    changes no value."""
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        return bool(ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):
        return False


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
