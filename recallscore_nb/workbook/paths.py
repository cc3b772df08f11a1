"""Where the workbook lives (its notebooks, reports, stamps and scratch folder), and how a path
a user gives is read.

A relative path a user gives (``--output-dir``, a ``*_path`` parameter, a notebook's
``output_dir``) means one thing: relative to the folder the user started from
(:func:`user_folder`), which is the shell's folder for ``recallscore`` and papermill, and the
repository root for a notebook opened in JupyterLab, whatever folder its kernel runs in.

>>> resolve_user_path("my.csv", Path("/home/ada")).as_posix()
'/home/ada/my.csv'
>>> resolve_user_path("../x/./y", Path("/home/ada")).as_posix()
'/home/x/y'
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import UsageError

__all__ = [
    "REPO_ROOT", "NOTEBOOKS_DIR", "REPORTS_DIR", "STAMPS_DIR", "SCRATCH_DIR",
    "under_jupyter_server", "user_folder", "resolve_user_path", "inside", "check_output_folder",
]

# The repository around an editable install (the workbook's notebooks and reports live there).
REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
REPORTS_DIR = REPO_ROOT / "reports"
STAMPS_DIR = REPO_ROOT / ".stamps"
SCRATCH_DIR = REPO_ROOT / "scratch"
"""Where ``recallscore explore`` puts notebooks (and their outputs) to explore; git-ignored."""

JUPYTER_SESSION_VARIABLE = "JPY_SESSION_NAME"
"""Set by jupyter_server in the environment of every kernel it starts for a notebook
(``SessionManager.get_kernel_env``); papermill and nbclient do not set it."""


def under_jupyter_server() -> bool:
    """Whether this process is a kernel that a Jupyter server (JupyterLab) started."""
    return bool(os.environ.get(JUPYTER_SESSION_VARIABLE))


def user_folder(repo_root: Path | None = None) -> Path:
    """The folder relative paths mean: the repository root under a Jupyter server (the folder
    JupyterLab was started from), otherwise the current folder (the shell's, for papermill)."""
    if under_jupyter_server():
        return Path(repo_root if repo_root is not None else REPO_ROOT)
    return Path.cwd()


def resolve_user_path(text: str | os.PathLike[str], base: Path) -> Path:
    """``text`` made absolute against ``base`` (``..`` and ``.`` collapsed, links kept)."""
    return Path(os.path.normpath(Path(base) / Path(text).expanduser()))


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it, links resolved.

    >>> inside(Path("/a/b/c"), Path("/a/b")), inside(Path("/a/bc"), Path("/a/b"))
    (True, False)
    """
    path, folder = Path(path).resolve(), Path(folder).resolve()
    return path == folder or folder in path.parents


def check_output_folder(path: Path, *, notebooks: Path, reports: Path, changed: bool,
                        option: str = "--output-dir") -> None:
    """Refuse an output folder that would overwrite the workbook or the paper.

    Refused: the filesystem root; a folder that is, contains or lies inside ``notebooks``
    (a run writes executed copies of the notebooks); and, when ``changed`` (parameters differ
    from the paper's defaults), one that is or lies inside ``reports``.

    >>> check_output_folder(Path("/"), notebooks=Path("/r/notebooks"), reports=Path("/r/reports"),
    ...                     changed=False)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: --output-dir /: the filesystem root cannot be an output folder; choose a folder of its own
    """
    resolved = Path(path).resolve()
    if resolved == Path(resolved.anchor):
        raise UsageError(f"{option} {path}: the filesystem root cannot be an output folder; "
                         "choose a folder of its own")
    if inside(resolved, notebooks) or inside(notebooks, resolved):
        raise UsageError(f"{option} {path}: {'contains' if inside(notebooks, resolved) else 'is in'} "
                         f"the workbook's notebooks ({notebooks}), which a run would overwrite; "
                         "choose a folder of its own")
    if changed and inside(resolved, reports):
        raise UsageError(f"{option} {path}: is the paper's reports/ ({reports}), and parameters "
                         "differ from the paper's defaults; choose another folder (exploration "
                         "never writes into reports/)")
