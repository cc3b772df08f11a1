"""Where the workbook lives (its notebooks, reports, stamps and scratch folder), and how a path
a user gives is read.

The workbook's root (:data:`REPO_ROOT`, found once, by :func:`find_root`) is, in this order:
the folder ``RECALLSCORE_ROOT`` names; the folder holding the package when it also holds
``notebooks/`` (an editable install, or the checkout the package is imported from); the
nearest folder at or above the current one holding both ``notebooks/`` and ``reports/`` (a
checkout, with the package installed elsewhere). There may be none (the package installed
and used outside a checkout): the commands that need the workbook (``run``, ``check``,
``explore``) then say so (:func:`require_workbook`); the others never look.

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
import sys
from pathlib import Path

from ..core.errors import UsageError
from ..io.output_sets import check_output_place, inside, make_folders, remove_empty_folders

__all__ = [
    "REPO_ROOT", "NOTEBOOKS_DIR", "REPORTS_DIR", "STAMPS_DIR", "SCRATCH_DIR", "ROOT_VARIABLE",
    "find_root", "require_workbook", "under_jupyter_server", "user_folder", "settle_kernel",
    "resolve_user_path",
    "inside", "check_output_folder", "make_folders", "remove_empty_folders",
]

ROOT_VARIABLE = "RECALLSCORE_ROOT"
"""The environment variable that names the workbook's root, whatever else is found."""
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def find_root(environ=None, *, package: Path = PACKAGE_DIR, cwd: Path | None = None) -> Path | None:
    """The workbook's root (see the module docstring), or None when there is none.

    >>> find_root({ROOT_VARIABLE: "/srv/book"}).as_posix()
    '/srv/book'
    """
    environ = os.environ if environ is None else environ
    given = environ.get(ROOT_VARIABLE, "")
    if given:
        return Path(given).expanduser().resolve()
    if (package.parent / "notebooks").is_dir():
        return package.parent
    try:
        here = Path.cwd() if cwd is None else Path(cwd)
        here = here.resolve()
    except OSError:  # the current folder was removed
        return None
    for folder in (here, *here.parents):
        if (folder / "notebooks").is_dir() and (folder / "reports").is_dir():
            return folder
    return None


REPO_ROOT = find_root()
"""The workbook's root, or None when none was found (:func:`find_root`)."""
NOTEBOOKS_DIR = None if REPO_ROOT is None else REPO_ROOT / "notebooks"
REPORTS_DIR = None if REPO_ROOT is None else REPO_ROOT / "reports"
STAMPS_DIR = None if REPO_ROOT is None else REPO_ROOT / ".stamps"
SCRATCH_DIR = None if REPO_ROOT is None else REPO_ROOT / "scratch"
"""Where ``recallscore explore`` puts notebooks (and their outputs) to explore; git-ignored."""


def require_workbook(what: str, root: Path | None, notebooks: Path | None) -> None:
    """Refuse ``what`` (a command) when there is no workbook: no root, or no ``notebooks/``.

    >>> require_workbook("recallscore run", None, None)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: recallscore run needs the workbook (the folder holding notebooks/ and reports/), and none was found: run it from inside a checkout of recallscore, or set RECALLSCORE_ROOT to that folder
    """
    if root is None:
        raise UsageError(f"{what} needs the workbook (the folder holding notebooks/ and "
                         "reports/), and none was found: run it from inside a checkout of "
                         f"recallscore, or set {ROOT_VARIABLE} to that folder")
    if notebooks is None or not Path(notebooks).is_dir():
        source = (f"{ROOT_VARIABLE}={os.environ[ROOT_VARIABLE]}"
                  if os.environ.get(ROOT_VARIABLE) else f"the workbook {root}")
        raise UsageError(f"{what}: {source} holds no notebooks/ folder; set {ROOT_VARIABLE} "
                         "to the folder that holds notebooks/ and reports/")

JUPYTER_SESSION_VARIABLE = "JPY_SESSION_NAME"
"""Set by jupyter_server in the environment of every kernel it starts for a notebook
(``SessionManager.get_kernel_env``); papermill and nbclient do not set it."""


def under_jupyter_server() -> bool:
    """Whether this process is a kernel that a Jupyter server (JupyterLab) started."""
    return bool(os.environ.get(JUPYTER_SESSION_VARIABLE))


def user_folder(repo_root: Path | None = None) -> Path:
    """The folder relative paths mean: the repository root under a Jupyter server (wherever
    JupyterLab was started), otherwise the current folder (the shell's, for papermill)."""
    root = repo_root if repo_root is not None else REPO_ROOT
    if under_jupyter_server() and root is not None:
        return Path(root)
    return Path.cwd()


def settle_kernel(root: Path | None, environ=None, *, chdir=os.chdir) -> None:
    """Make a notebook's shell commands read paths as its Python does: under a Jupyter server
    the kernel moves to the workbook's root (the folder relative paths mean, whatever folder
    JupyterLab started the kernel in), so ``!ls x`` and ``open("x")`` name one file; and the
    folder of this Python's scripts goes first on ``PATH``, so ``!recallscore`` runs this
    package however JupyterLab was started (``.venv/bin/jupyter lab`` does not activate the
    venv). Called by the session cell, in the kernel.

    >>> env = {"PATH": "/usr/bin"}
    >>> settle_kernel(None, env)
    >>> env["PATH"].split(os.pathsep)[1:]
    ['/usr/bin']
    """
    environ = os.environ if environ is None else environ
    scripts = str(Path(sys.executable).parent)
    path = environ.get("PATH", "")
    if scripts not in path.split(os.pathsep):
        environ["PATH"] = os.pathsep.join([scripts, path]) if path else scripts
    if root is not None and environ.get(JUPYTER_SESSION_VARIABLE):
        chdir(root)


def resolve_user_path(text: str | os.PathLike[str], base: Path) -> Path:
    """``text`` made absolute against ``base`` (``..`` and ``.`` collapsed, links kept)."""
    return Path(os.path.normpath(Path(base) / Path(text).expanduser()))


def check_output_folder(path: Path, *, notebooks: Path | None, reports: Path | None,
                        changed: bool, option: str = "--output-dir") -> None:
    """Refuse an output folder that would overwrite the workbook or the paper.

    Refused: the filesystem root; a folder that is, contains or lies inside ``notebooks``
    (a run writes executed copies of the notebooks); and, when ``changed`` (parameters differ
    from the paper's defaults), one that is or lies inside ``reports``. Without a workbook
    (``notebooks`` and ``reports`` None) only the root is refused.

    >>> check_output_folder(Path("/"), notebooks=Path("/r/notebooks"), reports=Path("/r/reports"),
    ...                     changed=False)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: --output-dir /: the filesystem root cannot be an output folder; choose a folder of its own
    """
    check_output_place(path, option=option, protected={"the workbook's notebooks": notebooks})
    resolved = Path(path).resolve()
    if notebooks is not None and inside(notebooks, resolved):
        raise UsageError(f"{option} {path}: contains the workbook's notebooks ({notebooks}), "
                         "which a run would overwrite; choose a folder of its own")
    if changed and reports is not None and inside(resolved, reports):
        raise UsageError(f"{option} {path}: is the paper's reports/ ({reports}), and parameters "
                         "differ from the paper's defaults; choose another folder (exploration "
                         "never writes into reports/)")
