"""Files at the edges: inputs that must be regular files, outputs written atomically, and the
package's one SHA-256 helper.

Every reader opens its input through :func:`read_input` (or checks it with
:func:`require_regular_file` before handing the path to a library), so a device, a FIFO or a
folder given as an input is refused instead of read without end. Every writer goes through
:func:`atomic_write`: whole text or bytes through :func:`write_file` (tables, summaries,
figures, manifests), streams through ``atomic_write`` itself (scored tables, reports). A
command refuses an output that is one of its own inputs (:func:`refuse_output_among_inputs`).
Every hash of a file or of bytes is :func:`sha256`.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import os
import secrets
import stat
import zlib
from pathlib import Path

from ..core.errors import InputFileError, OutputWriteError, UsageError

__all__ = ["atomic_write", "write_file", "output_mode", "require_regular_file", "read_input",
           "refuse_output_among_inputs", "sha256", "file_sha256", "gunzip"]


def require_regular_file(path: str | os.PathLike[str], error: type[InputFileError] = InputFileError) -> None:
    """Raise ``error`` naming ``path`` unless it is an existing regular file (links followed).

    >>> require_regular_file("/dev/null")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: /dev/null: not a regular file (a character device); give a file
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
    """The bytes of a regular file, or ``error`` naming it (missing, unreadable, not a file);
    a file whose name ends in ``.gz`` decompressed (a gzip file of JSON lines, for one).

    >>> read_input("no/such/file.json")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: no/such/file.json: no such file
    """
    require_regular_file(path, error)
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise error(os.fspath(path), message=f"cannot be read: {exc.strerror or exc}") from None
    if not os.fspath(path).endswith(".gz"):
        return data
    return gunzip(data, os.fspath(path), error)


def gunzip(data: bytes, name: str, error: type[InputFileError] = InputFileError) -> bytes:
    """``data`` decompressed as gzip, or ``error`` naming ``name`` when it cannot be."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise error(name, message=f"not a readable gzip file ({exc})") from None


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def refuse_output_among_inputs(out: str | os.PathLike[str] | None,
                               inputs: dict[str, str | os.PathLike[str] | None], *,
                               option: str = "--out") -> None:
    """Raise :class:`UsageError` when ``out`` is one of the named ``inputs`` (the same file,
    whatever the spelling or link); ``-`` (standard output) and ``None`` never clash.

    >>> refuse_output_among_inputs("a.json", {"benchmark": "./a.json"})
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: --out a.json is the benchmark input ./a.json: writing it would overwrite the input; choose another file
    """
    if out is None or os.fspath(out) == "-":
        return
    for role, path in inputs.items():
        if path is not None and os.fspath(path) != "-" and _same_file(out, path):
            raise UsageError(f"{option} {os.fspath(out)} is the {role} input {os.fspath(path)}: "
                             "writing it would overwrite the input; choose another file")


def atomic_write(path: str | os.PathLike[str], write, *, shown: str | None = None) -> None:
    """Call ``write(tmp_path)``, then rename the temporary file onto ``path``.

    A reader never sees a half-written file, and a failure leaves ``path`` as it was. The
    output must be a regular file or not exist yet: a folder, a pipe or a device is refused
    (``-`` for standard output is the caller's to handle). A symbolic link is written
    through: the temporary file goes beside the link's final target and replaces it, so
    the link stays a link. An existing file keeps its permission bits; a new one gets what
    :func:`open` would give it (0666 less the umask). A failure to write is an
    :class:`~recallscore_nb.core.errors.OutputWriteError` naming ``shown`` (default: ``path``).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> atomic_write(target, lambda tmp: pathlib.Path(tmp).write_text("ok"))
    >>> target.read_text()
    'ok'
    >>> atomic_write(target.parent, lambda tmp: None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: /...: not a regular file (a folder); give a file to write
    """
    name = os.fspath(path) if shown is None else shown
    target = Path(os.path.realpath(os.fspath(path)))  # through every link, to the file
    mode = output_mode(target, name)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = _new_file_beside(target)
    except OSError as exc:
        raise UsageError(f"{name}: cannot write here ({exc.strerror or exc})") from None
    try:
        write(tmp)
        if mode is not None:
            os.chmod(tmp, stat.S_IMODE(mode))
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputWriteError(name, f"cannot write ({exc.strerror or exc})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def output_mode(target: Path, name: str) -> int | None:
    """The mode of the file an output replaces (None: there is none yet); a folder, a pipe
    or a device is refused, named ``name``."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"{name}: cannot write here ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"{name}: not a regular file ({_kind(mode)}); give a file to write")
    return mode


def write_file(path: str | os.PathLike[str], content: str | bytes, *, check=None,
               shown: str | None = None) -> Path:
    """Write ``content`` (text as UTF-8, line ends as given; or bytes) atomically; return the path.

    ``check``, when given, is called with the temporary file's path once it is written and
    before it replaces ``path`` (what it raises leaves ``path`` as it was); ``shown`` names
    the output in errors (:func:`atomic_write`).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "t.md"
    >>> write_file(target, "a\\r\\nb\\n").read_bytes()
    b'a\\r\\nb\\n'
    """
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as file:
            file.write(data)
        if check is not None:
            check(tmp)

    atomic_write(path, write, shown=shown)
    return Path(path)


def sha256(source: bytes | str | os.PathLike[str]) -> str:
    """The SHA-256 of bytes, or of a file's bytes (read a block at a time), as hex digits.

    >>> sha256(b"")
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return hashlib.sha256(source).hexdigest()
    with open(source, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def file_sha256(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 of a regular file; None when there is none to read (missing, unreadable,
    or not a regular file: a pipe or a device is never opened).

    >>> file_sha256("no/such/file") is None
    True
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        return sha256(path)
    except OSError:
        return None


def _new_file_beside(target: Path) -> str:
    """Create an empty, uniquely named file next to ``target``, with the mode ``open`` gives
    a new file (0666 less the umask, applied by the system); return its path."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return os.fspath(tmp)
    raise FileExistsError(errno.EEXIST, "no free temporary name")
