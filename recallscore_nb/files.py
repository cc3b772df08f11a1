"""Files at the edges: inputs that must be regular files, outputs written atomically.

Every reader opens its input through :func:`read_input` (or checks it with
:func:`require_regular_file` before handing the path to a library), so a device, a FIFO or a
folder given as an input is refused instead of read without end. Every writer goes through
:func:`atomic_write`, and a command refuses an output that is one of its own inputs
(:func:`refuse_output_among_inputs`).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .errors import InputFileError, UsageError

__all__ = ["atomic_write", "require_regular_file", "read_input", "refuse_output_among_inputs"]


def require_regular_file(path: str | os.PathLike[str], error: type[InputFileError] = InputFileError) -> None:
    """Raise ``error`` naming ``path`` unless it is an existing regular file (links followed).

    >>> require_regular_file("/dev/null")
    Traceback (most recent call last):
    ...
    recallscore_nb.errors.InputFileError: /dev/null: not a regular file (a character device); give a file
    """
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        raise error(name, message="no such file") from None
    except OSError as exc:
        raise error(name, message=f"cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise error(name, message=f"not a regular file ({_kind(mode)}); give a file")


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a pipe"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a file"


def read_input(path: str | os.PathLike[str], error: type[InputFileError] = InputFileError) -> bytes:
    """The bytes of a regular file, or ``error`` naming it (missing, unreadable, not a file).

    >>> read_input("no/such/file.json")
    Traceback (most recent call last):
    ...
    recallscore_nb.errors.InputFileError: no/such/file.json: no such file
    """
    require_regular_file(path, error)
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError as exc:
        raise error(os.fspath(path), message=f"cannot be read: {exc.strerror or exc}") from None


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def refuse_output_among_inputs(out: str | os.PathLike[str] | None,
                               inputs: dict[str, str | os.PathLike[str] | None]) -> None:
    """Raise :class:`UsageError` when ``out`` is one of the named ``inputs`` (the same file,
    whatever the spelling or link); ``-`` (standard output) and ``None`` never clash.

    >>> refuse_output_among_inputs("a.json", {"benchmark": "./a.json"})
    Traceback (most recent call last):
    ...
    recallscore_nb.errors.UsageError: --out a.json is the benchmark input ./a.json: writing it would overwrite the input; choose another file
    """
    if out is None or os.fspath(out) == "-":
        return
    for role, path in inputs.items():
        if path is not None and os.fspath(path) != "-" and _same_file(out, path):
            raise UsageError(f"--out {os.fspath(out)} is the {role} input {os.fspath(path)}: "
                             "writing it would overwrite the input; choose another file")


def atomic_write(path: str | Path, write) -> None:
    """Call ``write(tmp_path)``, then rename the temporary file to ``path``.

    A reader never sees a half-written file, and a failure leaves ``path`` as it was.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> atomic_write(target, lambda tmp: pathlib.Path(tmp).write_text("ok"))
    >>> target.read_text()
    'ok'
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write here ({exc.strerror or exc})") from None
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
