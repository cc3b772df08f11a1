"""Running the workbook: notebooks executed by papermill, their outputs merged and checked.

A recipe of named steps (as papermill's ``execute`` reads): select the notebooks, resolve
their parameters, skip those whose stamp says nothing changed, execute the rest in separate
processes into a temporary folder, and only when all succeeded move their outputs into
place and merge the manifest. Heavy libraries (papermill, pandas, matplotlib) are imported
only when a notebook actually has to run, so a run with nothing to do is quick.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from ._version import __version__
from .errors import RecallScoreError, UsageError
from .files import atomic_write
from .paths import NOTEBOOKS_DIR, REPO_ROOT, REPORTS_DIR, STAMPS_DIR

__all__ = [
    "Parameter",
    "NotebookFailed",
    "declared_parameters",
    "select_notebooks",
    "run_workbook",
    "check_workbook",
    "COMMITTED",
]

COMMITTED = ("tables", "figures", "paper")
"""The output folders that are committed and checked byte for byte (with manifest.json)."""
MANIFEST = "manifest.json"
NUMBERS = Path("paper") / "numbers.tex"
MAIN_PACKAGES = ("pandas", "pyarrow", "numpy", "matplotlib", "papermill", "nbclient",
                 "ipykernel", "jsonschema", "tabulate", "jinja2")
_PARAMETER_LINE = re.compile(r"^(\w+)\s*:\s*(\w+)\s*=\s*(.+?)\s*(?:#\s*(.*))?$")
_TYPES = {"str": str, "int": int, "float": float, "bool": bool}


class NotebookFailed(RecallScoreError):
    """A notebook raised while it ran: which notebook, which cell, which error."""

    exit_code = 3

    def __init__(self, notebook: str, cell: int | None, ename: str, evalue: str) -> None:
        self.notebook, self.cell, self.ename, self.evalue = notebook, cell, ename, evalue
        where = f"cell {cell}" if cell is not None else "before its first cell"
        super().__init__(f"notebook {notebook} failed at {where}: {ename}: {evalue}")


@dataclass(frozen=True)
class Parameter:
    """One line of a ``parameters`` cell: ``name: type = default  # help``."""

    name: str
    type: type
    default: object
    help: str

    def convert(self, text: str) -> object:
        """A command-line value, converted to the declared type."""
        try:
            if self.type is bool:
                if text.lower() not in ("true", "false"):
                    raise ValueError
                return text.lower() == "true"
            return self.type(text)
        except ValueError:
            raise UsageError(f"-p {self.name}: expected {self.type.__name__}, got {text!r}") from None


def _notebook_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def declared_parameters(path: Path) -> dict[str, Parameter]:
    """The parameters a notebook declares in its ``parameters``-tagged cell.

    >>> sorted(declared_parameters(NOTEBOOKS_DIR / "01_reproduce_benchmark.ipynb"))
    ['benchmark_path', 'output_dir', 'squad_mode']
    """
    cells = [c for c in _notebook_json(path)["cells"] if c["cell_type"] == "code"]
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(tagged) != 1 or tagged[0] is not cells[0]:
        raise UsageError(f"{path.name}: the first code cell, and only it, must be tagged 'parameters'")
    params = {}
    for line in "".join(tagged[0]["source"]).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _PARAMETER_LINE.match(line)
        if not match or match.group(2) not in _TYPES:
            raise UsageError(f"{path.name}: parameters cell line is not 'name: type = default  # help': {line!r}")
        name, kind, default, text = match.groups()
        params[name] = Parameter(name, _TYPES[kind], ast.literal_eval(default), text or "")
    return params


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
def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _code_fingerprint() -> str:
    """The helper package's code and data, the pinned versions and the Python version."""
    digest = hashlib.sha256(sys.version.encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    pins = REPO_ROOT / "constraints.txt"
    if pins.is_file():
        digest.update(pins.read_bytes())
    return digest.hexdigest()


def _stamp_path(root: Path, stem: str) -> Path:
    folder = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    return STAMPS_DIR / folder / f"{stem}.json"


def _stamp_key(notebook: Path, parameters: dict, code: str) -> str:
    digest = hashlib.sha256(notebook.read_bytes())
    digest.update(json.dumps(parameters, sort_keys=True).encode())
    digest.update(code.encode())
    return digest.hexdigest()


def _is_fresh(root: Path, notebook: Path, key: str) -> bool:
    stamp = _stamp_path(root, notebook.stem)
    if not stamp.is_file():
        return False
    recorded = json.loads(stamp.read_text())
    if recorded.get("key") != key:
        return False
    for entry in recorded["inputs"]:
        path = REPO_ROOT / entry["path"] if not Path(entry["path"]).is_absolute() else Path(entry["path"])
        if not path.is_file() or _sha256(path) != entry["sha256"]:
            return False
    for entry in recorded["outputs"]:
        path = root / entry["path"]
        if not path.is_file() or _sha256(path) != entry["sha256"]:
            return False
    return True


def _write_stamp(root: Path, stem: str, key: str, fragment: dict) -> None:
    stamp = _stamp_path(root, stem)
    record = {"key": key, "inputs": fragment["inputs"], "outputs": fragment["outputs"]}
    atomic_write(stamp, lambda tmp: Path(tmp).write_text(json.dumps(record, indent=1)))


# --- execution -------------------------------------------------------------------------------
def _execute(notebook: str, executed: str, parameters: dict) -> tuple[str, dict | None]:
    """Run one notebook with papermill (in a worker process); return (stem, error or None)."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    stem = Path(notebook).stem
    log = Path(executed).with_suffix(".log")
    with open(log, "ab") as sink:  # the kernel's own chatter goes to a log, not the terminal
        os.dup2(sink.fileno(), 2)
    try:
        papermill.execute_notebook(notebook, executed, parameters=parameters,
                                   kernel_name="python3", progress_bar=False,
                                   cwd=str(Path(notebook).parent))
    except PapermillExecutionError as exc:
        return stem, {"cell": _stored_cell_number(Path(notebook), exc.cell_index),
                      "ename": exc.ename, "evalue": exc.evalue}
    except Exception as exc:  # a kernel that died, an unreadable notebook: still name it
        return stem, {"cell": None, "ename": type(exc).__name__, "evalue": str(exc)}
    return stem, None


def _stored_cell_number(notebook: Path, executed_index: int) -> int:
    """The 1-based position, in the stored notebook, of a cell of the executed copy (papermill
    inserts its injected-parameters cell right after the parameters cell)."""
    cells = _notebook_json(notebook)["cells"]
    tagged = [i for i, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
    after_injected = bool(tagged) and executed_index >= tagged[0] + 1
    return executed_index + 1 - after_injected


def _execute_all(plan: dict[Path, dict], work: Path, jobs: int, progress: bool) -> None:
    from tqdm import tqdm

    (work / "notebooks").mkdir(parents=True, exist_ok=True)
    failures = []
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(plan)))) as pool:
        futures = [
            pool.submit(_execute, str(nb), str(work / "notebooks" / nb.name),
                        {**params, "output_dir": str(work)})
            for nb, params in plan.items()
        ]
        bar = tqdm(total=len(futures), desc="notebooks", unit="nb", disable=not progress,
                   file=sys.stderr)
        for future in as_completed(futures):
            stem, error = future.result()
            bar.update(1)
            if error:
                failures.append(NotebookFailed(stem, **error))
        bar.close()
    if failures:
        failures.sort(key=lambda f: f.notebook)
        raise failures[0]


# --- merging -----------------------------------------------------------------------------
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
    outputs = sorted(
        {(p.relative_to(root).as_posix()) for folder in COMMITTED
         for p in (root / folder).rglob("*") if p.is_file()}
    )
    inputs = {e["path"]: e["sha256"] for f in fragments.values() for e in f["inputs"]}
    signatures = sorted({s for f in fragments.values() for s in f["signatures"]})
    return {
        "outputs": [{"path": p, "sha256": _sha256(root / p)} for p in outputs],
        "inputs": [{"path": p, "sha256": s} for p, s in sorted(inputs.items())],
        "parameters": {stem: f["parameters"] for stem, f in sorted(fragments.items())},
        "signatures": signatures,
        "versions": _versions(),
        "notebooks": {stem: {k: f[k] for k in ("signatures", "inputs", "numbers")}
                      | {"outputs": f["outputs"]} for stem, f in sorted(fragments.items())},
    }


def _write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8", newline=""))


def _publish(work: Path, root: Path, stems: list[str]) -> dict[str, dict]:
    """Move the new outputs into ``root``, replacing each run notebook's old ones; merge."""
    manifest_path = root / MANIFEST
    fragments: dict[str, dict] = {}
    if manifest_path.is_file():
        previous = json.loads(manifest_path.read_text())
        for stem, entry in previous.get("notebooks", {}).items():
            if (NOTEBOOKS_DIR / f"{stem}.ipynb").is_file():
                fragments[stem] = entry | {"parameters": previous["parameters"].get(stem, {})}
    for stem in stems:
        fragments[stem] = json.loads((work / "fragments" / f"{stem}.json").read_text())
        for folder in (*COMMITTED, "notebooks"):
            for old in (root / folder).glob(f"{stem}__*"):
                old.unlink()
        for entry in fragments[stem]["outputs"]:
            target = root / entry["path"]
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(work / entry["path"], target)
        executed = work / "notebooks" / f"{stem}.ipynb"
        (root / "notebooks").mkdir(parents=True, exist_ok=True)
        os.replace(executed, root / "notebooks" / f"{stem}.ipynb")
    _write_text(root / NUMBERS, _numbers_tex(fragments))
    manifest = _manifest(root, fragments)
    _write_text(manifest_path, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return fragments


# --- the recipe ----------------------------------------------------------------------------
@dataclass(frozen=True)
class RunResult:
    executed: tuple[str, ...]
    skipped: tuple[str, ...]
    output_dir: Path


def _plan_parameters(notebooks: list[Path], overrides: list[tuple[str, str]]) -> dict[Path, dict]:
    declared = {nb: declared_parameters(nb) for nb in notebooks}
    for name, _ in overrides:
        if name == "output_dir":
            raise UsageError("set the output folder with --output-dir, not -p output_dir")
        if not any(name in params for params in declared.values()):
            raise UsageError(f"-p {name}: no selected notebook declares this parameter")
    plan = {}
    for nb, params in declared.items():
        values = {name: p.default for name, p in params.items() if name != "output_dir"}
        for name, text in overrides:
            if name in params:
                values[name] = params[name].convert(text)
                if name.endswith("_path") and values[name]:  # the kernel runs elsewhere
                    values[name] = str(Path(str(values[name])).resolve())
        plan[nb] = values
    return plan


def _changed_from_defaults(plan: dict[Path, dict]) -> list[str]:
    changed = []
    for nb, values in plan.items():
        defaults = declared_parameters(nb)
        changed += [f"{nb.stem}:{k}" for k, v in values.items() if v != defaults[k].default]
    return changed


def run_workbook(names: list[str] = (), overrides: list[tuple[str, str]] = (), *,
                 output_dir: str | Path | None = None, jobs: int = 2, force: bool = False,
                 progress: bool = True, stamps: bool = True) -> RunResult:
    """Run the selected notebooks; see ``recallscore run --help``."""
    notebooks = select_notebooks(list(names))
    plan = _plan_parameters(notebooks, list(overrides))
    changed = _changed_from_defaults(plan)
    if changed and output_dir is None:
        raise UsageError(f"parameters changed from their defaults ({', '.join(changed)}): "
                         "give --output-dir; exploration never overwrites reports/")
    root = Path(output_dir) if output_dir is not None else REPORTS_DIR
    code = _code_fingerprint()
    keys = {nb: _stamp_key(nb, plan[nb], code) for nb in notebooks}
    todo = [nb for nb in notebooks if force or not _is_fresh(root, nb, keys[nb])]
    skipped = tuple(nb.stem for nb in notebooks if nb not in todo)
    if not todo:
        return RunResult((), skipped, root)
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".recallscore-run-", dir=root.parent))
    try:
        _execute_all({nb: plan[nb] for nb in todo}, work, jobs, progress)
        fragments = _publish(work, root, [nb.stem for nb in todo])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for nb in todo if stamps else ():
        _write_stamp(root, nb.stem, keys[nb], fragments[nb.stem])
    return RunResult(tuple(nb.stem for nb in todo), skipped, root)


def _committed_files(root: Path) -> dict[str, bytes]:
    files = {MANIFEST: (root / MANIFEST).read_bytes()} if (root / MANIFEST).is_file() else {}
    for folder in COMMITTED:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file():
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def check_workbook(*, update: bool = False, jobs: int = 2, progress: bool = True) -> list[str]:
    """Run every notebook afresh into a temporary folder and compare with ``reports/``.

    Returns one line per file that differs, is missing or is extra (empty: identical).
    With ``update``, ``reports/`` is rewritten from the fresh run instead.
    """
    if update:
        run_workbook(output_dir=None, jobs=jobs, force=True, progress=progress)
        return []
    with tempfile.TemporaryDirectory(prefix=".recallscore-check-", dir=REPORTS_DIR.parent) as tmp:
        fresh_root = Path(tmp) / "reports"
        run_workbook(output_dir=fresh_root, jobs=jobs, force=True, progress=progress,
                     stamps=False)
        fresh, committed = _committed_files(fresh_root), _committed_files(REPORTS_DIR)
    problems = []
    for name in sorted(set(fresh) | set(committed)):
        if name not in committed:
            problems.append(f"missing from reports/: {name}")
        elif name not in fresh:
            problems.append(f"not produced by a fresh run: {name}")
        elif fresh[name] != committed[name]:
            problems.append(f"differs: {name}")
    return problems
