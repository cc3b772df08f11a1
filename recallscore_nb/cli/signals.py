"""SIGTERM as an exception, so that a command told to stop unwinds as Ctrl-C makes it unwind:
every ``finally`` and ``except BaseException`` on the way up runs (a temporary output file
removed, worker processes ended), then the command exits with 143 (128 + 15, what a shell
reports for a process SIGTERM ended).
"""

from __future__ import annotations

import contextlib
import signal
import threading

from ..core.errors import Terminated

__all__ = ["sigterm_raises"]


def _raise_terminated(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # already ending: a second one must not
    raise Terminated()                             # cut the cleanup short


@contextlib.contextmanager
def sigterm_raises():
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread; the handler
    before is restored after. Nothing changes in another thread (a handler is the main
    thread's to set) or where SIGTERM is ignored (``nohup``-like launchers mean it).

    >>> with sigterm_raises():
    ...     signal.getsignal(signal.SIGTERM) is _raise_terminated
    True
    >>> signal.getsignal(signal.SIGTERM) is _raise_terminated
    False
    """
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread() or previous == signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
