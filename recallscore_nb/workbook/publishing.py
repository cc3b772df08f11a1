"""Publishing outputs into an output folder: one lock per folder, work folders inside it, and
a publish that replaces before it removes and puts everything back when it fails.

Both ways a notebook runs publish through here: ``recallscore run`` publishes every notebook
it ran at once, a notebook run alone (papermill, JupyterLab) publishes itself when it calls
``nb.finish()``. Either way, under the folder's lock (:class:`OutputLock`), each new output
replaces its old version by a rename within the folder's own filesystem (the work folder lies
inside the output folder), a notebook's stale outputs are removed only once its new ones are
in place, and ``paper/numbers.tex`` and ``manifest.json`` are merged with what the folder
already holds. Any failure puts every replaced or removed file back (:class:`PublishError`).
A notebook's outputs are its tables and figures and, under ``recallscore run``, its executed
copy (``notebooks/<stem>.ipynb``, cleaned by :mod:`~recallscore_nb.workbook.executed`). A
notebook run alone has no executed copy of its own to publish: the one a run left stays, and
stays listed while it is the file the manifest lists (a JupyterLab run of the paper's defaults
into ``reports/`` leaves ``reports/`` as it was).
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from .._version import __version__
from ..core.errors import PublishError, UsageError
from ..io.files import sha256
from ..io.jsondocs import json_reason
from .parameters import OUTPUT_DIR
from .paths import make_folders, remove_empty_folders

__all__ = ["OutputLock", "WorkFolder", "publish", "read_manifest", "recorded_defaults",
           "remove_stale_work", "MANIFEST", "NUMBERS", "COMMITTED", "EXECUTED", "LOCK_NAME"]

EXECUTED = "notebooks"
"""Where the executed notebooks go, each as ``notebooks/<stem>.ipynb``."""
COMMITTED = ("tables", "figures", "paper", EXECUTED)
"""The output folders that are committed and checked byte for byte (with manifest.json)."""
MANIFEST = "manifest.json"
NUMBERS = Path("paper") / "numbers.tex"
LOCK_NAME = ".recallscore.lock"
"""The lock file older versions left in every output folder (git-ignored); see :func:`lock_file`."""
OWNER_SUFFIX = ".owner"
WORK_PREFIXES = (".recallscore-run-", ".recallscore-work-", ".recallscore-check-",
                 "recallscore-check-")
"""Work folders: a run's (inside its output folder), a notebook session's (inside its output
folder), a check's (in the system's temporary folder; ``.recallscore-check-`` in the
repository root from older versions)."""
STALE_UNLOCKED_AGE = 60.0
"""Seconds after which a work folder without a lock file counts as abandoned."""
MAIN_PACKAGES = ("pandas", "pyarrow", "numpy", "matplotlib", "papermill", "nbclient",
                 "ipykernel", "jsonschema", "tabulate", "jinja2")


# --- locks and work folders ------------------------------------------------------------------
def lock_file(root: str | Path) -> Path:
    """Where the lock of output folder ``root`` lives: in the system's temporary folder, named
    by a hash of the folder's resolved path, so that nothing of it stays in the folder.

    >>> lock_file("/srv/out") == lock_file("/srv/x/../out"), lock_file("/srv/out").suffix
    (True, '.lock')
    """
    key = sha256(str(Path(root).resolve()).encode())[:32]
    return Path(tempfile.gettempdir()) / f"recallscore-lock-{key}.lock"


class OutputLock:
    """The lock of an output folder, held while a run or a notebook writes into it.

    Entering creates the folder when needed (a folder that cannot be created or written is a
    :class:`~recallscore_nb.core.errors.UsageError` naming ``option``), then waits up to ``wait``
    seconds for another holder; the lock file lies outside the folder (:func:`lock_file`),
    and the holder's pid, host and command are written beside it while it is held, so that a
    waiter can say who holds it. The operating system releases the lock of a
    process that dies. A folder the lock created is removed again on a failure that leaves it
    holding nothing but the lock.
    """

    def __init__(self, root: str | Path, *, wait: float, option: str = "--output-dir") -> None:
        self.root, self.wait, self.option = Path(root), wait, option
        self._lock = None
        self._created: Path | None = None

    @property
    def _owner(self) -> Path:
        return lock_file(self.root).with_name(lock_file(self.root).name + OWNER_SUFFIX)

    def __enter__(self) -> OutputLock:
        from filelock import FileLock, Timeout

        self._created = make_folders(self.root, self.option)
        lock = FileLock(lock_file(self.root), timeout=self.wait, mode=0o666)
        try:
            tempfile.TemporaryFile(dir=self.root).close()  # the folder itself must be writable
            lock.acquire()
        except Timeout:
            self._remove_if_created()
            raise UsageError(f"{self.root} is being written by another recallscore run "
                             f"({self._holder()}); waited {self.wait:g} s: let it finish, "
                             "then run again") from None
        except OSError as exc:
            self._remove_if_created()
            raise UsageError(f"{self.option} {self.root}: cannot write here "
                             f"({exc.strerror or exc})") from None
        self._lock = lock
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "command": " ".join(sys.argv),
                 "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        try:
            self._owner.write_text(json.dumps(owner) + "\n")
        except OSError as exc:
            self.__exit__(OSError, exc, None)
            raise UsageError(f"{self.option} {self.root}: cannot write here "
                             f"({exc.strerror or exc})") from None
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if self._lock is None:
            return
        self._owner.unlink(missing_ok=True)
        self._lock.release()
        self._lock = None
        if kind is not None:
            self._remove_if_created()

    def _holder(self) -> str:
        try:
            owner = json.loads(self._owner.read_text())
            return (f"pid {owner['pid']} on {owner['host']}, since {owner['since']}: "
                    f"{owner['command']}")
        except (OSError, ValueError, TypeError, KeyError):
            return "a process that did not say who it is"

    def _remove_if_created(self) -> None:
        """Remove the folders this lock created, if they hold nothing."""
        if self._created is None:
            return
        remove_empty_folders(self.root, self._created)


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


def remove_stale_work(folder: str | Path) -> list[Path]:
    """Remove the work folders in ``folder`` that no live run or notebook holds; return them."""
    from filelock import FileLock, Timeout

    removed = []
    try:
        entries = [p for p in Path(folder).iterdir() if p.name.startswith(WORK_PREFIXES)]
    except OSError:
        return removed
    for entry in entries:
        if not entry.is_dir() or entry.is_symlink():
            continue
        lock_file = entry / ".lock"
        if lock_file.is_file():
            lock = FileLock(lock_file, timeout=0)
            try:
                lock.acquire()
            except (Timeout, OSError):
                continue  # a live run or notebook holds it
            try:
                shutil.rmtree(entry, ignore_errors=True)
            finally:
                lock.release()
        elif time.time() - entry.stat().st_mtime > STALE_UNLOCKED_AGE:
            shutil.rmtree(entry, ignore_errors=True)
        else:
            continue
        removed.append(entry)
    return removed


# --- the manifest ------------------------------------------------------------------------------
def read_manifest(path: str | Path) -> dict:
    """An output folder's manifest (``{}`` when there is none); a corrupt one is a
    :class:`~recallscore_nb.core.errors.UsageError` naming it and how to recover."""
    path = Path(path)
    if not path.is_file():
        return {}
    recover = (f"restore it (git checkout -- {path}, when it is committed) or delete it and "
               "run again with --force")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc}); "
                         f"{recover}") from None
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as exc:
        conflict = " (an unresolved merge conflict)" if "\n=======" in text else ""
        raise UsageError(f"{path}: not valid JSON{conflict}: {json_reason(exc)} at line "
                         f"{exc.lineno} column {exc.colno}; {recover}") from None
    problem = _manifest_problem(manifest)
    if problem:
        raise UsageError(f"{path}: not a recallscore manifest ({problem}); {recover}")
    return manifest


def _manifest_problem(manifest) -> str:
    if not isinstance(manifest, dict):
        return f"expected a JSON object, got {type(manifest).__name__}"
    for key in ("notebooks", "parameters"):
        if not isinstance(manifest.get(key, {}), dict):
            return f"{key}: expected an object"
    for stem, entry in manifest.get("notebooks", {}).items():
        if not isinstance(entry, dict):
            return f"notebooks.{stem}: expected an object"
        for key in ("signatures", "inputs", "outputs"):
            if not isinstance(entry.get(key, []), list):
                return f"notebooks.{stem}.{key}: expected a list"
        for item in entry.get("outputs", []) + entry.get("inputs", []):
            if not isinstance(item, dict) or not {"path", "sha256"} <= set(item):
                return f"notebooks.{stem}: an input or output without path and sha256"
        for key in ("numbers", "defaults"):
            if not isinstance(entry.get(key, {}), dict):
                return f"notebooks.{stem}.{key}: expected an object"
    return ""


def recorded_defaults(manifest: dict, stem: str) -> dict | None:
    """The parameter defaults a manifest records for a notebook (``None``: no record), without
    ``output_dir``, which is not one of the paper's parameters (older manifests recorded it).

    Manifests written before defaults were recorded hold the parameters the notebook ran
    with, which were its defaults whenever it wrote into ``reports/``.

    >>> recorded_defaults({"notebooks": {"01": {"defaults": {"seed": 1, "output_dir": ""}}}}, "01")
    {'seed': 1}
    >>> recorded_defaults({"parameters": {"01": {"seed": 1}}, "notebooks": {"01": {}}}, "01")
    {'seed': 1}
    """
    entry = manifest.get("notebooks", {}).get(stem)
    if entry is None:
        return None
    if "defaults" in entry:
        recorded = entry["defaults"]
    elif stem in manifest.get("parameters", {}):
        recorded = manifest["parameters"][stem]
    else:
        return None
    return {name: value for name, value in recorded.items() if name != OUTPUT_DIR}


def _versions() -> dict[str, str]:
    versions = {"recallscore": __version__}
    for name in MAIN_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _numbers_tex(fragments: dict[str, dict]) -> str:
    lines = ["% Every number the paper quotes, as a macro. Written by `recallscore run`.\n"]
    seen: dict[str, str] = {}
    for stem, fragment in sorted(fragments.items()):
        for name, value in fragment.get("numbers", {}).items():
            if name in seen and seen[name] != stem:
                raise UsageError(f"paper number {name!r} is written by both {seen[name]} and {stem}")
            seen[name] = stem
            lines.append(f"\\newcommand{{\\rs{name}}}{{{value}}}  % {stem}\n")
    return "".join(lines)


def _manifest(root: Path, fragments: dict[str, dict]) -> dict:
    outputs = sorted({p.relative_to(root).as_posix() for folder in COMMITTED
                      for p in (root / folder).rglob("*") if p.is_file()})
    inputs = {e["path"]: e["sha256"] for f in fragments.values() for e in f["inputs"]}
    signatures = sorted({s for f in fragments.values() for s in f["signatures"]})
    keys = ("signatures", "inputs", "numbers", "outputs", "defaults")
    return {
        "outputs": [{"path": p, "sha256": sha256(root / p)} for p in outputs],
        "inputs": [{"path": p, "sha256": s} for p, s in sorted(inputs.items())],
        "parameters": {stem: f["parameters"] for stem, f in sorted(fragments.items())},
        "signatures": signatures,
        "versions": _versions(),
        "notebooks": {stem: {k: f[k] for k in keys if k in f}
                      for stem, f in sorted(fragments.items())},
    }


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


class _Transaction:
    """File moves into ``root`` that can be undone: every replaced or removed file is first
    kept (hard-linked, or copied) in ``backup``."""

    def __init__(self, root: Path, backup: Path) -> None:
        self.root, self.backup, self.undo = root, backup, []

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
        if dst.is_file():
            kept = self._keep(dst)
            _move(src, dst)
            self.undo.append((kept, dst))
        else:
            _move(src, dst)
            self.undo.append((None, dst))

    def remove(self, path: Path) -> None:
        kept = self.backup / path.relative_to(self.root)
        kept.parent.mkdir(parents=True, exist_ok=True)
        _move(path, kept)
        self.undo.append((kept, path))

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
        return failed


def publish(root: Path, work: Path, fragments: dict[str, dict], *,
            defaults: dict[str, dict], keep: Callable[[str], bool] = lambda stem: True) -> dict[str, dict]:
    """Move the outputs of ``fragments`` (stem -> manifest fragment, outputs relative to
    ``work``, a work folder inside ``root``) into ``root`` and merge the manifest and
    ``paper/numbers.tex``. The caller holds ``root``'s :class:`OutputLock`.

    ``defaults`` gives, per stem published, the parameter defaults to record; ``keep(stem)``
    says whether an earlier notebook's entry stays in the manifest. Returns every notebook's
    fragment as merged. On any failure, the folder is put back as it was.
    """
    manifest_path = root / MANIFEST
    previous = read_manifest(manifest_path)
    merged: dict[str, dict] = {}
    for stem, entry in previous.get("notebooks", {}).items():
        if stem not in fragments and keep(stem):
            merged[stem] = entry | {"parameters": previous.get("parameters", {}).get(stem, {})}
    for stem, fragment in fragments.items():
        merged[stem] = dict(fragment)
        executed = f"{EXECUTED}/{stem}.ipynb"
        kept = (None if any(e["path"] == executed for e in fragment["outputs"])
                else _kept_executed(root, previous, stem))
        if kept is not None:  # a notebook run alone: the executed copy a run left stays listed
            merged[stem]["outputs"] = sorted([*fragment["outputs"], kept], key=lambda e: e["path"])
        if defaults.get(stem) is not None:
            merged[stem]["defaults"] = dict(defaults[stem])
    numbers = _numbers_tex(merged)  # may refuse, before anything moved
    staging = work / ".staging"
    staging.mkdir(exist_ok=True)
    transaction = _Transaction(root, work / ".backup")
    try:
        for stem, fragment in fragments.items():
            new = set()
            for entry in fragment["outputs"]:
                transaction.put(work / entry["path"], root / entry["path"])
                new.add(entry["path"])
            for old in _outputs_of(root, stem):
                if old.relative_to(root).as_posix() not in new:
                    transaction.remove(old)
        _stage(staging / "numbers.tex", numbers)
        transaction.put(staging / "numbers.tex", root / NUMBERS)
        _stage(staging / MANIFEST, json.dumps(_manifest(root, merged), indent=2, sort_keys=True) + "\n")
        transaction.put(staging / MANIFEST, manifest_path)
    except OSError as exc:
        failed = transaction.rollback()
        where = f" ({exc.filename2 or exc.filename})" if (exc.filename2 or exc.filename) else ""
        state = "the previous outputs are unchanged"
        if failed:
            state = (f"{len(failed)} previous file(s) could not be put back, e.g. {failed[0]}; "
                     f"their previous versions are in {_keep_backups(work)}")
        raise PublishError(f"could not publish into {root}: {exc.strerror or exc}{where}; "
                           f"{state}") from None
    except BaseException:
        transaction.rollback()
        raise
    return merged


def _outputs_of(root: Path, stem: str) -> list[Path]:
    """The tables and figures in ``root`` that a notebook wrote (``<stem>__*``)."""
    return [p for folder in COMMITTED for p in sorted((root / folder).glob(f"{stem}__*"))
            if p.is_file()]


def _kept_executed(root: Path, previous: dict, stem: str) -> dict | None:
    """The manifest entry of the executed copy a run left for ``stem``, when the file is still
    the one the previous manifest lists (else None)."""
    name = f"{EXECUTED}/{stem}.ipynb"
    listed = previous.get("notebooks", {}).get(stem, {}).get("outputs", [])
    entry = next((e for e in listed if e.get("path") == name), None)
    if entry is None or not (root / name).is_file() or sha256(root / name) != entry["sha256"]:
        return None
    return {"path": name, "sha256": entry["sha256"]}


def _stage(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="")
    os.chmod(path, 0o644)


def _keep_backups(work: Path) -> Path:
    """Move a work folder's backups beside it, where cleaning never removes them."""
    kept = work.parent / f"recallscore-backup-{secrets.token_hex(4)}"
    try:
        os.replace(work / ".backup", kept)
    except OSError:
        return work / ".backup"
    return kept
