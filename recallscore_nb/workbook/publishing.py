"""Publishing a workbook run into an output folder, through the lock, work folders and
transactions of :mod:`recallscore_nb.io.output_sets` that every command's outputs share.

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

import json
import os
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from .._version import __version__
from ..core.errors import PublishError, UsageError
from ..io.files import sha256
from ..io.jsondocs import json_reason
from ..io.output_sets import (
    WORK_PREFIXES,
    OutputLock,
    Transaction,
    WorkFolder,
    lock_file,
    remove_stale_work,
)
from .parameters import OUTPUT_DIR

__all__ = ["OutputLock", "WorkFolder", "publish", "read_manifest", "recorded_defaults",
           "remove_stale_work", "lock_file", "MANIFEST", "NUMBERS", "COMMITTED", "EXECUTED",
           "LOCK_NAME", "WORK_PREFIXES"]

EXECUTED = "notebooks"
"""Where the executed notebooks go, each as ``notebooks/<stem>.ipynb``."""
COMMITTED = ("tables", "figures", "paper", EXECUTED)
"""The output folders that are committed and checked byte for byte (with manifest.json)."""
MANIFEST = "manifest.json"
NUMBERS = Path("paper") / "numbers.tex"
LOCK_NAME = ".recallscore.lock"
"""The lock file older versions left in every output folder (git-ignored); see :func:`lock_file`."""
MAIN_PACKAGES = ("pandas", "pyarrow", "numpy", "matplotlib", "papermill", "nbclient",
                 "ipykernel", "jsonschema", "tabulate", "jinja2")


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
    transaction = Transaction(root, work)
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
        transaction.commit()
    except OSError as exc:
        where = f" ({exc.filename2 or exc.filename})" if (exc.filename2 or exc.filename) else ""
        raise PublishError(f"could not publish into {root}: {exc.strerror or exc}{where}; "
                           f"{transaction.undone()}") from None
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
