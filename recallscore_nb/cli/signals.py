"""SIGTERM and SIGHUP as an exception, so that a command told to stop (or whose terminal
went away) unwinds as Ctrl-C makes it unwind: every ``finally`` and ``except BaseException``
on the way up runs (a temporary output file removed, worker processes ended), then the
command exits with 128 + the signal's number, what a shell reports for a process the signal
ended: 143 for SIGTERM, 129 for SIGHUP.
"""

from __future__ import annotations

import contextlib
import signal
import threading

from ..core.errors import Terminated

__all__ = ["sigterm_raises", "ENDING_SIGNALS"]

ENDING_SIGNALS = tuple(s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s)
"""The signals that end a command as :class:`Terminated` (SIGINT is Python's own
KeyboardInterrupt; Windows has no SIGHUP)."""


def _raise_terminated(signum, frame) -> None:
    for each in ENDING_SIGNALS:  # already ending: a second one must not cut the cleanup short
        signal.signal(each, signal.SIG_IGN)
    raise Terminated(signum)


@contextlib.contextmanager
def sigterm_raises():
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (its ``signum`` the
    signal's) in the main thread; the handlers before are restored after. Nothing changes in
    another thread (a handler is the main thread's to set), and a signal that is ignored
    stays ignored (``nohup`` ignores SIGHUP, and means it).

    >>> with sigterm_raises():
    ...     signal.getsignal(signal.SIGTERM) is signal.getsignal(signal.SIGHUP) is _raise_terminated
    True
    >>> signal.getsignal(signal.SIGTERM) is _raise_terminated
    False
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {each: signal.getsignal(each) for each in ENDING_SIGNALS}
    for each, handler in previous.items():
        if handler != signal.SIG_IGN:
            signal.signal(each, _raise_terminated)
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, signal.SIG_DFL if handler is None else handler)
