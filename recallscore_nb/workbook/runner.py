"""Running the workbook: notebooks executed by papermill, their outputs published and checked.

A recipe of named steps (as papermill's ``execute`` reads): select the notebooks, resolve and
check their parameters (relative paths against the caller's folder, files that must exist),
refuse output folders that would overwrite the workbook or the paper, lock the output
folder, skip notebooks whose stamp and manifest say nothing changed, execute the rest in
worker processes (which die with the run) into a work folder inside the output folder, and
only when all succeeded publish their outputs (see :mod:`recallscore_nb.workbook.publishing`). Heavy
libraries (papermill, pandas, matplotlib) are imported only when a notebook actually has to
run, so a run with nothing to do is quick.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import NotebookFailed, UsageError
from ..execution.processes import die_with_parent
from ..io.files import sha256, write_file
from .parameters import declared_defaults, declared_parameters, parameters_cell, with_default
from .paths import (
    NOTEBOOKS_DIR,
    REPO_ROOT,
    REPORTS_DIR,
    ROOT_VARIABLE,
    SCRATCH_DIR,
    STAMPS_DIR,
    check_output_folder,
    inside,
    require_workbook,
    resolve_user_path,
    user_folder,
)
from .executed import write_clean
from .report_differences import compare_reports
from .publishing import (
    COMMITTED,
    EXECUTED,
    MANIFEST,
    OutputLock,
    WorkFolder,
    publish,
    read_manifest,
    recorded_defaults,
    remove_stale_work,
)
from .session import RUN_WORK_VARIABLE, check_input_parameter

__all__ = [
    "select_notebooks",
    "run_workbook",
    "check_workbook",
    "explore_notebook",
    "COMMITTED",
]

LOCK_WAIT = 10.0
"""Seconds a run waits for another run to release its output folder before giving up."""
def all_notebooks() -> list[Path]:
    return sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


def select_notebooks(names: list[str]) -> list[Path]:
    """Notebooks by stem (``01_reproduce_benchmark``), number (``01``) or path; all if none."""
    available = all_notebooks()
    if not names:
        return available
    chosen = []
    for name in names:
        path = Path(name)
        if path.suffix == ".ipynb" and path.is_file():
            found = [path.resolve()]
        else:
            found = [p for p in available if p.stem == name or p.stem.split("_", 1)[0] == name]
        if len(found) != 1:
            stems = ", ".join(p.stem for p in available)
            raise UsageError(f"no notebook {name!r} (available: {stems})")
        if found[0] not in chosen:
            chosen.append(found[0])
    return chosen


# --- stamps: skip what has not changed -----------------------------------------------------
def _code_fingerprint() -> str:
    """The helper package's code and data, the pinned versions and the Python version."""
    parts = [sys.version.encode()]
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            parts += [path.relative_to(package).as_posix().encode(), path.read_bytes()]
    pins = REPO_ROOT / "constraints.txt"
    if pins.is_file():
        parts.append(pins.read_bytes())
    return sha256(b"".join(parts))


def _stamp_path(root: Path, stem: str) -> Path:
    folder = sha256(str(root.resolve()).encode())[:16]
    return STAMPS_DIR / folder / f"{stem}.json"


def _stamp_key(notebook: Path, parameters: dict, code: str) -> str:
    return sha256(b"".join([notebook.read_bytes(), json.dumps(parameters, sort_keys=True).encode(),
                            code.encode()]))


def _is_fresh(root: Path, notebook: Path, key: str, manifest: dict) -> bool:
    """Whether a notebook may be skipped: its stamp matches the key, its inputs and outputs are
    unchanged, and the manifest lists exactly the outputs the stamp records. A stamp that
    cannot be read is simply stale."""
    stamp = _stamp_path(root, notebook.stem)
    try:
        recorded = json.loads(stamp.read_text())
        if recorded.get("key") != key:
            return False
        for entry in recorded["inputs"]:
            path = Path(entry["path"])
            path = path if path.is_absolute() else REPO_ROOT / path
            if not path.is_file() or sha256(path) != entry["sha256"]:
                return False
        stamped = sorted((e["path"], e["sha256"]) for e in recorded["outputs"])
        for path, sha in stamped:
            if not (root / path).is_file() or sha256(root / path) != sha:
                return False
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return False
    listed = manifest.get("notebooks", {}).get(notebook.stem, {}).get("outputs")
    return listed is not None and sorted((e["path"], e["sha256"]) for e in listed) == stamped


def _write_stamp(root: Path, stem: str, key: str, fragment: dict, base: Path) -> None:
    """Record what a run of ``stem`` read and wrote; an input recorded relative (to the
    repository, or as the user gave it against ``base``) is stamped with its absolute path."""
    stamp = _stamp_path(root, stem)
    inputs = [entry | {"path": str(_input_file(entry["path"], base))} for entry in fragment["inputs"]]
    record = {"key": key, "inputs": inputs, "outputs": fragment["outputs"]}
    write_file(stamp, json.dumps(record, indent=1))


def _input_file(recorded: str, base: Path) -> Path:
    """The file an input's recorded path names: as is when absolute, else in the repository
    when there, else against ``base``."""
    path = Path(recorded)
    if path.is_absolute() or (REPO_ROOT / path).is_file():
        return REPO_ROOT / path
    return resolve_user_path(path, base)


# --- execution -------------------------------------------------------------------------------
def _worker_init(parent: int, work: str, root: str) -> None:
    die_with_parent(parent)  # its notebook kernel then exits too: ipykernel polls JPY_PARENT_PID
    os.environ[RUN_WORK_VARIABLE] = work  # the sessions write fragments here, not publish
    os.environ[ROOT_VARIABLE] = root  # the kernels find the workbook this run found
    os.environ.pop("JPY_SESSION_NAME", None)  # relative paths mean the kernel's folder, the caller's


def _execute(notebook: str, executed: str, parameters: dict, cwd: str,
             folders: tuple[str, ...]) -> tuple[str, dict | None]:
    """Run one notebook with papermill (in a worker process), then clean its executed copy
    (:func:`~recallscore_nb.workbook.executed.write_clean`, paths under ``folders`` made
    relative); return (stem, error or None). ``parameters`` are those that differ from the
    notebook's defaults: papermill injects a cell only for them, and none when there are none.
    The notebook's session learns where to write from :data:`RUN_WORK_VARIABLE`."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    stem = Path(notebook).stem
    log = Path(executed).with_suffix(".log")
    with open(log, "ab") as sink:  # the kernel's own chatter goes to a log, not the terminal
        os.dup2(sink.fileno(), 2)
    try:
        _started_again(lambda: papermill.execute_notebook(
            notebook, executed, parameters=parameters, kernel_name="python3",
            progress_bar=False, cwd=cwd))
        write_clean(executed, folders)
    except PapermillExecutionError as exc:
        return stem, {"cell": _stored_cell_number(Path(notebook), exc.cell_index,
                                                  injected=bool(parameters)),
                      "ename": exc.ename, "evalue": exc.evalue}
    except Exception as exc:  # a kernel that died, an unreadable notebook: still name it
        return stem, {"cell": None, "ename": type(exc).__name__, "evalue": str(exc)}
    return stem, None


KERNEL_STARTS = 3
"""Tries to start a notebook's kernel (see :func:`_started_again`)."""

_DIED_AT_START = "Kernel died before replying to kernel_info"


def _started_again(execute):
    """``execute()``, run again (up to :data:`KERNEL_STARTS` tries in all) when its kernel died
    before its first reply, so before any cell ran: two kernels started at once by the worker
    processes can each be given a port the other, or a connection of the other's, takes first
    (jupyter_client issue 154); the kernel then dies binding it. Any other error is raised at
    once.

    >>> tries = []
    >>> def execute():
    ...     tries.append(1)
    ...     if len(tries) < 3:
    ...         raise RuntimeError(_DIED_AT_START)
    ...     return "ran"
    >>> _started_again(execute), len(tries)
    ('ran', 3)
    """
    for attempt in range(1, KERNEL_STARTS + 1):
        try:
            return execute()
        except RuntimeError as exc:
            if str(exc) != _DIED_AT_START or attempt == KERNEL_STARTS:
                raise


def _stored_cell_number(notebook: Path, executed_index: int, *, injected: bool = True) -> int:
    """The 1-based position, in the stored notebook, of a cell of the executed copy (papermill
    inserts its injected-parameters cell, when it injects one, right after the parameters
    cell)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    tagged = [i for i, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
    after_injected = injected and bool(tagged) and executed_index >= tagged[0] + 1
    return executed_index + 1 - after_injected


def _changed(notebook: Path, values: dict) -> dict:
    """The values that differ from the notebook's declared defaults: what papermill injects."""
    defaults = declared_defaults(notebook)
    return {name: value for name, value in values.items()
            if name not in defaults or defaults[name] != value}


def _execute_all(plan: dict[Path, dict], work: Path, jobs: int, progress: bool, cwd: Path
                 ) -> None:
    """Run every planned notebook in ``cwd`` (the folder the user's relative paths mean),
    their executed copies written (cleaned) into ``work/notebooks/``; the first failure (by
    notebook) is raised once all have ended."""
    from tqdm import tqdm

    (work / "notebooks").mkdir(parents=True, exist_ok=True)
    folders = (str(work), str(work.parent), str(REPO_ROOT), str(cwd))
    failures = []
    pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(plan))),
                               initializer=_worker_init,
                               initargs=(os.getpid(), str(work), str(REPO_ROOT)))
    try:
        futures = [
            pool.submit(_execute, str(nb), str(work / "notebooks" / nb.name),
                        _changed(nb, params), str(cwd), folders)
            for nb, params in plan.items()
        ]
        with tqdm(total=len(futures), desc="notebooks", unit="nb", disable=not progress,
                  file=sys.stderr) as bar:
            for future in as_completed(futures):
                stem, error = future.result()
                bar.update(1)
                if error:
                    failures.append(NotebookFailed(stem, **error))
    except BaseException:  # SIGTERM or Ctrl-C: stop now, not once the notebooks end
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()  # their kernels follow (ipykernel watches JPY_PARENT_PID)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    if failures:
        failures.sort(key=lambda f: f.notebook)
        raise failures[0]


def _fragments(work: Path, stems: list[str]) -> dict[str, dict]:
    """The manifest fragment each notebook's session wrote into the work folder, its executed
    copy (``notebooks/<stem>.ipynb``) added to its outputs."""
    fragments = {}
    for stem in stems:
        path = work / "fragments" / f"{stem}.json"
        if not path.is_file():
            raise NotebookFailed(stem, None, "UsageError",
                                 "it wrote no outputs: its last cell must call nb.finish()")
        fragment = json.loads(path.read_text(encoding="utf-8"))
        executed = work / EXECUTED / f"{stem}.ipynb"
        if executed.is_file():
            entry = {"path": executed.relative_to(work).as_posix(), "sha256": sha256(executed)}
            fragment["outputs"] = sorted([*fragment["outputs"], entry], key=lambda e: e["path"])
        fragments[stem] = fragment
    return fragments


# --- the recipe ----------------------------------------------------------------------------
@dataclass(frozen=True)
class RunResult:
    executed: tuple[str, ...]
    skipped: tuple[str, ...]
    output_dir: Path


def _unknown_parameter(name: str, declared: list[str]) -> str:
    close = difflib.get_close_matches(name, declared, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return (f"-p {name}: no selected notebook declares this parameter (they declare: "
            f"{', '.join(declared)}){hint}")


def _plan_parameters(notebooks: list[Path], overrides: list[tuple[str, str]],
                     base: Path) -> dict[Path, dict]:
    """Each notebook's parameter values as the user gave them: defaults, then ``-p`` values
    converted to the declared type; a ``*_path`` must name a file, read against ``base``
    (the notebooks run in ``base``, so they read it the same way, and record it as given)."""
    declared = {nb: declared_parameters(nb) for nb in notebooks}
    names = sorted({n for params in declared.values() for n in params} - {"output_dir"})
    for name, _ in overrides:
        if name == "output_dir":
            raise UsageError("set the output folder with --output-dir, not -p output_dir")
        if not any(name in params for params in declared.values()):
            raise UsageError(_unknown_parameter(name, names))
    plan = {}
    for nb, params in declared.items():
        values = {name: p.default for name, p in params.items() if name != "output_dir"}
        for name, text in overrides:
            if name in params:
                values[name] = params[name].convert(text)
                if name.endswith("_path") and values[name]:
                    check_input_parameter(name, str(values[name]),
                                          resolve_user_path(str(values[name]), base))
        plan[nb] = values
    return plan


def _resolved(values: dict, base: Path) -> dict:
    """``values`` with every ``*_path`` made absolute against ``base``: what a stamp keys on,
    so that the same text given from another folder is another input."""
    return {name: str(resolve_user_path(str(value), base))
            if name.endswith("_path") and value else value for name, value in values.items()}


def _changed_from_defaults(plan: dict[Path, dict]) -> list[str]:
    changed = []
    for nb, values in plan.items():
        defaults = declared_parameters(nb)
        changed += [f"{nb.stem}:{k}" for k, v in values.items() if v != defaults[k].default]
    return changed


def _refuse_changed_defaults(notebooks: list[Path], manifest_path: Path) -> None:
    """Refuse when a notebook's declared defaults differ from those the paper's manifest
    records (a parameters cell edited and saved, e.g. by JupyterLab's autosave)."""
    manifest = read_manifest(manifest_path)
    for nb in notebooks:
        recorded = recorded_defaults(manifest, nb.stem)
        if recorded is None:
            continue
        declared = declared_defaults(nb)
        changes = [f"{name}: {recorded[name]!r} → {value!r}" for name, value in declared.items()
                   if name in recorded and recorded[name] != value]
        changes += [f"{name}: no longer declared" for name in recorded if name not in declared]
        if changes:
            raise UsageError(
                f"{nb.stem}: the notebook's defaults differ from those of the paper in "
                f"{manifest_path} ({', '.join(changes)}); restore the notebook (git checkout -- "
                f"{_shown(nb)}), explore with 'recallscore explore {nb.stem.split('_')[0]}', or "
                "pass --accept-defaults to make them the paper's")


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(REPO_ROOT.resolve()).as_posix()
    except ValueError:
        return str(path)


def run_workbook(names: list[str] = (), overrides: list[tuple[str, str]] = (), *,
                 output_dir: str | Path | None = None, jobs: int = 2, force: bool = False,
                 progress: bool = True, stamps: bool = True,
                 accept_defaults: bool = False) -> RunResult:
    """Run the selected notebooks; see ``recallscore run --help``."""
    require_workbook("recallscore run", REPO_ROOT, NOTEBOOKS_DIR)
    notebooks = select_notebooks(list(names))
    caller = user_folder(REPO_ROOT)  # the shell's folder (the repository root from a notebook)
    plan = _plan_parameters(notebooks, list(overrides), caller)
    changed = _changed_from_defaults(plan)
    if changed and output_dir is None:
        raise UsageError(f"parameters changed from their defaults ({', '.join(changed)}): "
                         "give --output-dir; exploration never overwrites reports/")
    root = REPORTS_DIR if output_dir is None else resolve_user_path(output_dir, caller)
    check_output_folder(root, notebooks=NOTEBOOKS_DIR, reports=REPORTS_DIR, changed=bool(changed))
    if inside(root, REPORTS_DIR) and not accept_defaults:
        _refuse_changed_defaults(notebooks, REPORTS_DIR / MANIFEST)
    with OutputLock(root, wait=LOCK_WAIT):
        for folder in (root, REPO_ROOT, NOTEBOOKS_DIR):  # the last two: older versions' leftovers
            remove_stale_work(folder)
        manifest = read_manifest(root / MANIFEST)
        code = _code_fingerprint()
        keys = {nb: _stamp_key(nb, _resolved(plan[nb], caller), code) for nb in notebooks}
        todo = [nb for nb in notebooks if force or not _is_fresh(root, nb, keys[nb], manifest)]
        skipped = tuple(nb.stem for nb in notebooks if nb not in todo)
        if not todo:
            return RunResult((), skipped, root)
        with WorkFolder(root, ".recallscore-run-") as work:
            _execute_all({nb: plan[nb] for nb in todo}, work.path, jobs, progress, caller)
            fragments = _fragments(work.path, [nb.stem for nb in todo])
            known = {nb.stem for nb in all_notebooks()} | {nb.stem for nb in notebooks}
            publish(root, work.path, fragments,
                    defaults={nb.stem: declared_defaults(nb) for nb in todo},
                    keep=lambda stem: stem in known)
        for nb in todo if stamps else ():
            _write_stamp(root, nb.stem, keys[nb], fragments[nb.stem], caller)
    return RunResult(tuple(nb.stem for nb in todo), skipped, root)


def _committed_files(root: Path) -> dict[str, bytes]:
    files = {MANIFEST: (root / MANIFEST).read_bytes()} if (root / MANIFEST).is_file() else {}
    for folder in COMMITTED:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file():
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def check_workbook(*, update: bool = False, jobs: int = 2, progress: bool = True,
                   accept_defaults: bool = False) -> list[str]:
    """Run every notebook afresh into a temporary folder and compare with ``reports/``.

    Returns the lines of :func:`~recallscore_nb.workbook.report_differences.compare_reports`:
    for each file that differs, is missing or is extra a header line, then what differs in it
    (each cell of a table, the first difference of a figure or notebook, the manifest's
    entries), then a summary line; empty when every file is identical.
    With ``update``, ``reports/`` is rewritten from the fresh run instead. Refused when a
    notebook's declared defaults differ from those ``reports/manifest.json`` records, unless
    ``accept_defaults``.
    """
    require_workbook("recallscore check", REPO_ROOT, NOTEBOOKS_DIR)
    if not accept_defaults:
        _refuse_changed_defaults(all_notebooks(), REPORTS_DIR / MANIFEST)
    if update:
        run_workbook(output_dir=None, jobs=jobs, force=True, progress=progress,
                     accept_defaults=True)
        return []
    temporary = Path(tempfile.gettempdir())
    remove_stale_work(temporary)
    with WorkFolder(temporary, "recallscore-check-") as work:
        fresh_root = work.path / "reports"
        run_workbook(output_dir=fresh_root, jobs=jobs, force=True, progress=progress,
                     stamps=False)
        fresh, committed = _committed_files(fresh_root), _committed_files(REPORTS_DIR)
    return compare_reports(committed, fresh)


# --- exploring ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Exploration:
    notebook: Path
    copy: Path
    output_dir: Path
    fresh: bool


def explore_notebook(name: str, *, force: bool = False) -> Exploration:
    """Copy a notebook into ``scratch/`` (git-ignored), outputs cleared and its ``output_dir``
    default pointing to ``scratch/<stem>/``, to explore in JupyterLab; an existing copy is
    kept unless ``force``."""
    import nbformat

    require_workbook("recallscore explore", REPO_ROOT, NOTEBOOKS_DIR)
    [notebook] = select_notebooks([name])
    copy, outputs = SCRATCH_DIR / notebook.name, SCRATCH_DIR / notebook.stem
    if copy.exists() and not force:
        return Exploration(notebook, copy, outputs, fresh=False)
    node = nbformat.read(notebook, as_version=4)
    cell = parameters_cell(node.cells, notebook.name)
    default = json.dumps(os.path.relpath(outputs, REPO_ROOT).replace(os.sep, "/"))
    cell.source = with_default(cell.source, "output_dir", default, notebook.name)
    for each in node.cells:
        if each.cell_type == "code":
            each.outputs, each.execution_count = [], None
    text = nbformat.writes(node)
    write_file(copy, text)
    return Exploration(notebook, copy, outputs, fresh=True)
