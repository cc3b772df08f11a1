"""Every command's outputs written as one set: a lock per output, a work folder inside the
output's folder, a publish that can be undone, and a journal that lets the next writer undo a
publish that a kill cut short.

A writer holds the output's lock (:class:`OutputLock`: a second writer waits, then is told who
holds it), writes every file into a :class:`WorkFolder` on the output's own filesystem, then
moves them into place together (:class:`Transaction`): each replaced file is first kept in the
work folder, so any failure puts the previous set back. Before each move the transaction
notes it in a journal (``.publishing``); removing the journal is the moment the new set counts
as published. A writer killed before that leaves its work folder, unlocked; the next writer
into that folder puts the kept files back (:func:`remove_stale_work`), so a kill at any point
leaves the previous set whole.

:class:`OutputSet` is that recipe for a command: ``agree``, ``convert``, ``score --out`` and
the other writers (one file is a set of one, locked by its own name); ``recallscore run`` and
a notebook's ``nb.finish()`` publish through :class:`Transaction` as well.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import socket
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path

from ..core.errors import OutputWriteError, UsageError
from .files import atomic_write, output_mode, refuse_output_among_inputs, sha256, write_file
from .path_locks import PathLock, remove_stale_locks

__all__ = ["OutputSet", "file_set", "write_one", "OutputLock", "WorkFolder", "Transaction", "lock_file",
           "LOCK_PATTERN", "remove_stale_work", "make_folders", "remove_empty_folders", "inside",
           "check_output_place", "LOCK_WAIT", "STALE_AGE", "WORK_PREFIXES", "JOURNAL"]

LOCK_WAIT = 10.0
"""Seconds a second writer of an output waits for the first before it gives up (exit 2)."""
STALE_AGE = 60.0
"""Seconds after which an unlocked work folder, or a temporary file of an older version
(``.<name>.<8 hex>.tmp``), counts as abandoned; a younger one may be a live writer's."""
WORK_PREFIXES = (".recallscore-run-", ".recallscore-work-", ".recallscore-check-",
                 "recallscore-check-")
"""Work folders: a run's, a notebook session's or a command's (inside its output folder), a
check's (in the system's temporary folder; ``.recallscore-check-`` in the repository root
from older versions)."""
JOURNAL = ".publishing"


# --- places -------------------------------------------------------------------------------------
def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it, links resolved.

    >>> inside(Path("/a/b/c"), Path("/a/b")), inside(Path("/a/bc"), Path("/a/b"))
    (True, False)
    """
    path, folder = Path(path).resolve(), Path(folder).resolve()
    return path == folder or folder in path.parents


def check_output_place(folder: str | os.PathLike[str], *, option: str = "--out-dir",
                       protected: Mapping[str, Path | None] | None = None) -> None:
    """Refuse an output folder that is the filesystem root, or is or lies inside one of the
    ``protected`` folders (name -> folder: the workbook's notebooks, for one).

    >>> check_output_place("/", option="--out-dir")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: --out-dir /: the filesystem root cannot be an output folder; choose a folder of its own
    """
    resolved = Path(folder).resolve()
    if resolved == Path(resolved.anchor):
        raise UsageError(f"{option} {folder}: the filesystem root cannot be an output folder; "
                         "choose a folder of its own")
    for name, guarded in (protected or {}).items():
        if guarded is not None and inside(resolved, guarded):
            said = "is" if resolved == Path(guarded).resolve() else "is in"
            raise UsageError(f"{option} {folder}: {said} {name} ({guarded}), which must not be "
                             "written by a command; choose a folder of its own")


def make_folders(folder: Path, what: str) -> Path | None:
    """Create ``folder`` and its missing parents; return the topmost folder created (None
    when it existed). ``what`` names it in the error when it cannot be made."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{what} {folder}: cannot write here ({exc.strerror or exc})") from None
    return missing[-1] if missing else None


def remove_empty_folders(folder: Path, top: Path | None) -> None:
    """Remove ``folder`` and its parents up to ``top`` (as :func:`make_folders` returned
    it), each only while empty; nothing when ``top`` is None."""
    while top is not None:
        try:
            folder.rmdir()
        except OSError:
            return
        if folder == top:
            return
        folder = folder.parent


# --- locks and work folders ------------------------------------------------------------------
LOCK_PATTERN = "recallscore-lock-*.lock"
"""The names of the outputs' lock files, in the system's temporary folder (:func:`lock_file`)."""


def lock_file(target: str | os.PathLike[str]) -> Path:
    """Where the lock of an output (a folder, or one file) lives while it is held: in the
    system's temporary folder, named by a hash of its resolved path, so that nothing of it
    stays beside it.

    >>> lock_file("/srv/out") == lock_file("/srv/x/../out"), lock_file("/srv/out").suffix
    (True, '.lock')
    """
    key = sha256(str(Path(target).resolve()).encode())[:32]
    return Path(tempfile.gettempdir()) / f"recallscore-lock-{key}.lock"


class OutputLock:
    """The lock of an output folder (or of one output file, ``target``), held while it is
    written.

    Entering creates the folder when needed (a folder that cannot be created or written is a
    :class:`~recallscore_nb.core.errors.UsageError` naming ``option``), then waits up to ``wait``
    seconds for another holder. The lock file lies outside the folder (:func:`lock_file`),
    holds the holder's pid, host and command, so that a waiter can say who holds it, and is
    removed as the lock is released: a :class:`~.path_locks.PathLock`, which removes its file
    without letting two writers in (its docstring says how); the holder also removes the
    lock files that dead writers, or older versions, left there. The operating system
    releases the lock of a process that dies. A folder the lock created is removed again on
    a failure that leaves it empty.
    """

    def __init__(self, root: str | Path, *, wait: float, option: str = "--output-dir",
                 target: str | Path | None = None) -> None:
        self.root, self.wait, self.option = Path(root), wait, option
        self.target = self.root if target is None else Path(target)
        self._lock: PathLock | None = None
        self._created: Path | None = None

    def __enter__(self) -> OutputLock:
        self._created = make_folders(self.root, self.option)
        lock = PathLock(lock_file(self.target))
        try:
            tempfile.TemporaryFile(dir=self.root).close()  # the folder itself must be writable
            taken = lock.acquire(timeout=self.wait)
        except OSError as exc:
            self._remove_if_created()
            raise UsageError(f"{self.option} {self.root}: cannot write here "
                             f"({exc.strerror or exc})") from None
        if not taken:
            self._remove_if_created()
            raise UsageError(f"{self.target} is being written by another recallscore run "
                             f"({_holder(lock)}); waited {self.wait:g} s: let it finish, "
                             "then run again")
        self._lock = lock
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "command": " ".join(sys.argv),
                 "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        try:
            lock.write(json.dumps(owner) + "\n")
            remove_stale_locks(lock.path.parent, LOCK_PATTERN, older_than=STALE_AGE)
        except BaseException as exc:
            self.__exit__(type(exc), exc, None)
            if isinstance(exc, OSError):
                raise UsageError(f"{self.option} {self.root}: cannot write here "
                                 f"({exc.strerror or exc})") from None
            raise
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if self._lock is None:
            return
        self._lock.release()
        self._lock = None
        if kind is not None:
            self._remove_if_created()

    def _remove_if_created(self) -> None:
        if self._created is not None:
            remove_empty_folders(self.root, self._created)


def _holder(lock: PathLock) -> str:
    """Who holds ``lock``, as its holder wrote it."""
    try:
        owner = json.loads(lock.read())
        return f"pid {owner['pid']} on {owner['host']}, since {owner['since']}: {owner['command']}"
    except (ValueError, TypeError, KeyError):
        return "a process that did not say who it is"


class WorkFolder:
    """A hidden folder inside ``parent`` (so on the same filesystem), locked by its owner
    while it lives, so that :func:`remove_stale_work` removes only abandoned ones."""

    def __init__(self, parent: str | Path, prefix: str) -> None:
        from filelock import FileLock

        try:
            self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent)).absolute()
        except OSError as exc:
            raise UsageError(f"{parent}: cannot write here ({exc.strerror or exc})") from None
        self._lock = FileLock(self.path / ".lock", timeout=0)
        self._lock.acquire()

    def remove(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> WorkFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def remove_stale_work(folder: str | Path, prefixes: tuple[str, ...] = WORK_PREFIXES) -> list[Path]:
    """Remove the work folders in ``folder`` (those named by ``prefixes``) that no live
    writer holds, first putting back what a publish cut short had replaced; return them."""
    from filelock import FileLock, Timeout

    removed = []
    try:
        entries = [p for p in Path(folder).iterdir() if p.name.startswith(prefixes)]
    except OSError:
        return removed
    for entry in entries:
        if not entry.is_dir() or entry.is_symlink():
            continue
        lock_path = entry / ".lock"
        if lock_path.is_file():
            lock = FileLock(lock_path, timeout=0)
            try:
                lock.acquire()
            except (Timeout, OSError):
                continue  # a live writer holds it
            try:
                Transaction.recover(Path(folder), entry)
                shutil.rmtree(entry, ignore_errors=True)
            finally:
                lock.release()
        elif time.time() - entry.stat().st_mtime > STALE_AGE:
            shutil.rmtree(entry, ignore_errors=True)
        else:
            continue
        removed.append(entry)
    return removed


_OLD_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[0-9a-f]{8}\.tmp")


def remove_stale_temporaries(folder: Path, names: Iterable[str]) -> list[Path]:
    """Remove the temporary files older versions wrote beside ``names`` in ``folder``
    (``.<name>.<8 hex>.tmp``), once older than :data:`STALE_AGE`; return them."""
    wanted, removed = set(names), []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = _OLD_TEMPORARY.fullmatch(entry.name)
        if match is None or match["name"] not in wanted:
            continue
        try:
            if entry.is_file() and time.time() - entry.stat().st_mtime > STALE_AGE:
                entry.unlink()
                removed.append(entry)
        except OSError:
            continue
    return removed


# --- publishing ---------------------------------------------------------------------------------
def _move(src: Path, dst: Path) -> None:
    """Rename ``src`` onto ``dst`` atomically; across filesystems (a mount inside the output
    folder), copy beside ``dst`` first, then rename."""
    try:
        os.replace(src, dst)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        tmp = dst.with_name(f".{dst.name}.{secrets.token_hex(4)}.tmp")
        shutil.copy2(src, tmp)
        try:
            os.replace(tmp, dst)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        os.unlink(src)


class Transaction:
    """File moves into ``root`` that can be undone: every replaced or removed file is first
    kept (hard-linked, or copied) in ``work/.backup``, and every move is noted in the journal
    ``work/.publishing`` before it is made. :meth:`commit` removes the journal; until then,
    :meth:`rollback` (or, after a kill, :meth:`recover`) puts the previous files back."""

    def __init__(self, root: Path, work: Path) -> None:
        self.root, self.work, self.backup, self.undo = root, work, work / ".backup", []
        self._journal = None  # opened with the first move, inside the caller's error handling

    def _note(self, path: Path, had: bool, source: Path | None) -> None:
        if self._journal is None:
            self._journal = open(self.work / JOURNAL, "a", encoding="utf-8")
        entry = {"path": path.relative_to(self.root).as_posix(), "had": had,
                 "source": None if source is None else str(source)}
        self._journal.write(json.dumps(entry) + "\n")
        self._journal.flush()

    def _close_journal(self) -> bool:
        """Close the journal; whether there was one."""
        if self._journal is None:
            return False
        self._journal.close()
        self._journal = None
        return True

    def _keep(self, path: Path) -> Path:
        kept = self.backup / path.relative_to(self.root)
        kept.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, kept)
        except OSError:
            shutil.copy2(path, kept)
        return kept

    def put(self, src: Path, dst: Path) -> None:
        dst.parent.mkdir(parents=True, exist_ok=True)
        had = dst.is_file()
        self._note(dst, had, src)
        if had:
            kept = self._keep(dst)
            _move(src, dst)
            self.undo.append((kept, dst))
        else:
            _move(src, dst)
            self.undo.append((None, dst))

    def remove(self, path: Path) -> None:
        self._note(path, True, None)
        kept = self.backup / path.relative_to(self.root)
        kept.parent.mkdir(parents=True, exist_ok=True)
        _move(path, kept)
        self.undo.append((kept, path))

    def commit(self) -> None:
        """The new files count as published: the journal goes, nothing can be undone."""
        if self._close_journal():
            os.unlink(self.work / JOURNAL)
        self.undo = []

    def rollback(self) -> list[Path]:
        """Put back every file; return those that could not be put back."""
        failed = []
        for kept, path in reversed(self.undo):
            try:
                if kept is None:
                    path.unlink(missing_ok=True)
                else:
                    _move(kept, path)
            except OSError:
                failed.append(path)
        self.undo = []
        self._close_journal()
        return failed

    def undone(self) -> str:
        """Roll back, and say what stayed: the previous outputs unchanged, or which could not
        be put back and where their previous versions are kept (moved beside the work folder,
        which is removed after a failure)."""
        failed = self.rollback()
        if not failed:
            return "the previous outputs are unchanged"
        return (f"{len(failed)} previous file(s) could not be put back, e.g. {failed[0]}; "
                f"their previous versions are in {_keep_backups(self.work)}")

    @staticmethod
    def recover(root: Path, work: Path) -> None:
        """Undo the journaled moves of a publish into ``root`` that a kill cut short (the
        work folder ``work`` left by a dead writer); nothing when it had committed."""
        try:
            lines = (work / JOURNAL).read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        for line in reversed(lines):
            try:
                entry = json.loads(line)
                path, kept = root / entry["path"], work / ".backup" / entry["path"]
                if entry["had"]:
                    if kept.exists():
                        os.replace(kept, path)
                elif entry["source"] and not Path(entry["source"]).exists():
                    path.unlink(missing_ok=True)  # moved in, where there was nothing before
            except (ValueError, KeyError, TypeError, OSError):
                continue  # a line cut by the kill: its move was never made


def _keep_backups(work: Path) -> Path:
    """Move a work folder's backups beside it, where cleaning never removes them."""
    kept = work.parent / f"recallscore-backup-{secrets.token_hex(4)}"
    try:
        os.replace(work / ".backup", kept)
    except OSError:
        return work / ".backup"
    return kept


# --- a command's output set ---------------------------------------------------------------------
class OutputSet:
    """The files a command writes into ``folder``, published together.

    ``members`` names every file the set may hold; the files of it that a run does not write
    are removed once the new ones are in place (an earlier run's ``annotators.csv``, say).
    Entering checks the place (:func:`check_output_place`, ``protected``), refuses an input
    that is one of the members (``inputs``: role -> path), takes the lock (the folder's, or
    with ``lock_target`` that file's), cleans what dead writers left, and opens a work
    folder. Write with :meth:`write_text`, :meth:`write` or into :meth:`path`; leaving the
    block publishes, or, on any error (a signal included), leaves the previous set whole.
    A write that fails is an :class:`~recallscore_nb.core.errors.OutputWriteError` naming
    the output as given, and saying that the previous outputs are unchanged.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "out"
    >>> with OutputSet(out, ["a.csv", "b.csv"]) as outputs:
    ...     _ = outputs.write_text("a.csv", "x\\n")
    >>> sorted(p.name for p in out.iterdir())
    ['a.csv']
    """

    def __init__(self, folder: str | os.PathLike[str], members: Iterable[str], *,
                 option: str = "--out-dir", inputs: Mapping[str, object] | None = None,
                 protected: Mapping[str, Path | None] | None = None,
                 lock_target: str | os.PathLike[str] | None = None,
                 wait: float | None = None) -> None:
        self.folder, self.shown = Path(folder), os.fspath(folder)
        self.members, self.option = list(members), option
        self.inputs, self.protected = dict(inputs or {}), dict(protected or {})
        self.lock_target, self.wait = lock_target, wait
        self.written: list[str] = []
        self._lock: OutputLock | None = None
        self._work: WorkFolder | None = None

    @property
    def _prefix(self) -> str:
        if self.lock_target is None:
            return ".recallscore-work-set-"
        return f".recallscore-work-file-{sha256(self.members[0].encode())[:8]}-"

    def __enter__(self) -> OutputSet:
        if self.folder.exists() and not self.folder.is_dir():
            raise UsageError(f"{self.option} {self.shown}: not a folder; give a folder to "
                             "write into")
        check_output_place(self.folder, option=self.option, protected=self.protected)
        self._refuse_inputs()
        wait = LOCK_WAIT if self.wait is None else self.wait
        self._lock = OutputLock(self.folder, wait=wait, option=self.option,
                                target=self.lock_target).__enter__()
        try:
            remove_stale_work(self.folder, (self._prefix,))
            remove_stale_temporaries(self.folder, self.members)
            self._work = WorkFolder(self.folder, self._prefix)
        except BaseException as exc:
            self._lock.__exit__(type(exc), exc, None)
            raise
        return self

    def _refuse_inputs(self) -> None:
        for name in self.members:
            refuse_output_among_inputs(self._shown(name), self.inputs, option=self.option)

    def path(self, name: str) -> Path:
        """Where to write member ``name`` (inside the work folder)."""
        if name not in self.members:
            raise ValueError(f"{name!r} is not a member of this output set {self.members}")
        if name not in self.written:
            self.written.append(name)
        return self._work.path / name

    def write(self, name: str, write: Callable[[str], None]) -> Path:
        """Write member ``name`` by ``write(path)``; return where it will be published."""
        atomic_write(self.path(name), write, shown=self._shown(name))
        return self.folder / name

    def write_text(self, name: str, text: str | bytes, *, check=None) -> Path:
        """Write member ``name`` (text as UTF-8, line ends as given, or bytes); ``check``
        as for :func:`~recallscore_nb.io.files.write_file`."""
        write_file(self.path(name), text, check=check, shown=self._shown(name))
        return self.folder / name

    def _shown(self, name: str) -> str:
        if self.lock_target is None:
            return os.path.join(self.shown, name)
        return self.shown if name == self.members[0] else os.path.join(
            os.path.dirname(self.shown), name)

    def __exit__(self, kind, error, traceback) -> None:
        work = None if self._work is None else str(self._work.path)
        try:
            if kind is None:
                self._publish()
        finally:
            if self._work is not None:
                self._work.remove()
            self._lock.__exit__(kind, error, traceback)
        if work is not None:
            self._name_as_given(error, work)

    def _name_as_given(self, error, work: str) -> None:
        """Raise ``error`` again naming the outputs as the user gave them, where a writer
        given :meth:`path` named the work folder; a failed write says what stayed."""
        def shown(text: str) -> str:
            for name in self.members:
                text = text.replace(os.path.join(work, name), self._shown(name))
            return text

        if isinstance(error, OutputWriteError) and "previous outputs" not in error.reason:
            raise OutputWriteError(shown(error.path), f"{error.reason}; the previous outputs "
                                   "are unchanged") from None
        if type(error) is UsageError and work in str(error):
            raise UsageError(shown(str(error))) from None

    def _publish(self) -> None:
        transaction = Transaction(self.folder, self._work.path)
        try:
            for name in self.written:
                new, old = self._work.path / name, self.folder / name
                if old.is_file():  # a replaced file keeps its permission bits
                    os.chmod(new, stat.S_IMODE(old.stat().st_mode))
                transaction.put(new, old)
            for name in self.members:
                if name not in self.written and (self.folder / name).is_file():
                    transaction.remove(self.folder / name)
            transaction.commit()
        except OSError as exc:
            raise OutputWriteError(self.shown, f"cannot publish ({exc.strerror or exc}); "
                                   f"{transaction.undone()}") from None
        except BaseException:
            transaction.rollback()
            raise


def file_set(path: str | os.PathLike[str], *, option: str = "--out",
             inputs: Mapping[str, object] | None = None,
             protected: Mapping[str, Path | None] | None = None,
             companions: Iterable[str] = (), wait: float | None = None) -> OutputSet:
    """One output file as a set, locked by its own name, so that two writers of one file
    exclude each other and two files of one folder do not; links are written through.
    ``companions`` names files beside it that belong to its set (``summarize``'s paired
    table): written with it, or removed once it is published without them.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "s.csv"
    >>> with file_set(out) as outputs:
    ...     _ = outputs.write_text("s.csv", "a\\n")
    >>> out.read_text()
    'a\\n'
    """
    target = Path(os.path.realpath(os.fspath(path)))  # through every link, to the file
    output_mode(target, os.fspath(path))
    outputs = OutputSet(target.parent, [target.name, *companions], option=option,
                        inputs=inputs, protected=protected, lock_target=target, wait=wait)
    outputs.shown = os.fspath(path)
    return outputs


def write_one(path: str | os.PathLike[str], content: str | bytes, *, check=None,
              option: str = "--out") -> Path:
    """Write one output file as a set of one (:func:`file_set`); ``check(tmp_path)``, when
    given, sees the written file before it is published (what it raises publishes nothing).

    >>> import tempfile, pathlib
    >>> write_one(pathlib.Path(tempfile.mkdtemp()) / "t.md", "a\\n").read_text()
    'a\\n'
    """
    with file_set(path, option=option) as outputs:
        outputs.write_text(outputs.members[0], content, check=check)
    return Path(path)
