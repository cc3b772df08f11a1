"""Writing files atomically: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


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
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
