"""A lock on a file in a shared folder (the system's temporary folder) that leaves nothing
there: its holder removes the file as it lets go, and the lock still excludes.

Removing the file of an ``flock`` lock on release is, done naively, the classic race: a
waiter that opened the file before it was removed goes on to lock the removed inode, a
newcomer creates a new file at the same name and locks that one, and both hold "the" lock.
:class:`PathLock` keeps one rule on each side. A taker, once it holds ``flock`` on its
descriptor, checks that the name still leads to that very inode (``fstat`` against
``lstat``), and otherwise lets go and tries again; the holder removes the name *before* it
unlocks. So only a holder ever removes the name, the name leads to one inode at a time, and
whoever holds the lock of the inode it leads to is the one holder: the mutual exclusion of a
lock file kept forever, without the 1,608 files in ``/tmp``.

The operating system still releases the lock of a process that dies, even by kill -9; the
file such a process leaves is removed by the next taker of the same lock, or by
:func:`remove_stale_locks`, which takes each leftover by the same rules before it removes it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "x.lock"
>>> lock = PathLock(path)
>>> lock.acquire(timeout=0), path.exists(), PathLock(path).acquire(timeout=0)
(True, True, False)
>>> lock.release(); path.exists()
False
"""

from __future__ import annotations

import fnmatch
import os
import time
from pathlib import Path

__all__ = ["PathLock", "remove_stale_locks", "POLL"]

POLL = 0.05
"""Seconds between two tries of a waiter."""
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # a link planted at the name is never followed


def _flock(fd: int, operation: str) -> bool:
    """``flock`` on ``fd``: ``"take"`` (without waiting: whether it was taken) or ``"free"``."""
    try:
        import fcntl
    except ImportError:  # Windows: its first byte locked; an open file cannot be removed there
        return _locking(fd, operation)  # (release leaves it), which keeps the rules above
    if operation == "free":
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):  # held (some filesystems say EACCES)
        return False
    return True


def _locking(fd: int, operation: str) -> bool:
    import msvcrt

    os.lseek(fd, 0, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_UNLCK if operation == "free" else msvcrt.LK_NBLCK, 1)
    except OSError:
        if operation == "free":
            raise
        return False
    return True


def _names(path: Path, fd: int) -> bool:
    """Whether ``path`` leads to the inode ``fd`` is open on."""
    try:
        return os.path.samestat(os.lstat(path), os.fstat(fd))
    except FileNotFoundError:
        return False


class PathLock:
    """An exclusive lock named by ``path``, the file there only while someone holds it (see
    the module's docstring); ``mode``: the permission bits of a file it creates, so that
    another account's writer may take it too. Not reentrant; one holder per object."""

    def __init__(self, path: str | os.PathLike[str], *, mode: int = 0o666) -> None:
        self.path, self.mode = Path(path), mode
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def _open(self, *, create: bool = True) -> int | None:
        """A descriptor on the file at ``path``, created if there is none (and ``create``);
        None when it vanished or appeared meanwhile. An existing file is opened without
        ``O_CREAT``: Linux refuses that for another account's file in a sticky folder."""
        try:
            return os.open(self.path, os.O_RDWR | _NOFOLLOW)
        except FileNotFoundError:
            if not create:
                return None
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        except FileExistsError:
            return None
        try:
            os.fchmod(fd, self.mode)  # the umask left out
        except OSError:
            pass
        return fd

    def _try(self, *, create: bool = True) -> str:
        """One try: ``"held"``, ``"busy"`` (another holds it), or ``"again"`` (the file
        changed under this try: try again at once)."""
        fd = self._open(create=create)
        if fd is None:
            return "again"
        try:
            if not _flock(fd, "take"):
                os.close(fd)
                return "busy"
            if not _names(self.path, fd):  # a holder removed it before we locked it
                os.close(fd)
                return "again"
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return "held"

    def acquire(self, timeout: float) -> bool:
        """Take the lock, waiting up to ``timeout`` seconds; whether it was taken."""
        if self._fd is not None:
            raise RuntimeError(f"{self.path}: this lock is held already")
        deadline = time.monotonic() + timeout
        while True:
            state = self._try()
            if state == "held":
                return True
            if state == "busy":  # "again" means the lock just changed hands: at once
                if time.monotonic() >= deadline:
                    return False
                time.sleep(POLL)

    def write(self, text: str) -> None:
        """Replace the held file's text (who holds it, for a waiter to read)."""
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.write(self._fd, text.encode("utf-8"))

    def read(self) -> str:
        """The text the holder wrote ("" when there is none)."""
        try:
            return self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def release(self) -> None:
        """Let go: the name removed first (while still held), then the lock. A file that is
        not ours to remove (another account's, in a sticky folder) stays, harmlessly: it is
        still the one inode the name leads to."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if _names(self.path, fd):
                self.path.unlink()
        except OSError:
            pass
        finally:
            try:
                _flock(fd, "free")  # a forked child's copy of fd must not keep it held
            finally:
                os.close(fd)


def remove_stale_locks(folder: str | os.PathLike[str], pattern: str, *,
                       older_than: float) -> list[Path]:
    """Remove the lock files in ``folder`` named by ``pattern`` (a glob) that nobody holds
    and that are older than ``older_than`` seconds (an older version's waiter may still be
    about to lock a young one), each taken as a :class:`PathLock` first; return them."""
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(folder) if fnmatch.fnmatchcase(n, pattern)]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        path = Path(folder) / name
        try:
            if now - path.lstat().st_mtime <= older_than:
                continue
        except OSError:
            continue
        lock = PathLock(path)
        try:
            if lock._try(create=False) != "held":
                continue
        except OSError:
            continue  # another account's, not ours to take
        lock.release()
        if not path.exists():
            removed.append(path)
    return removed
