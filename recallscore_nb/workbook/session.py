"""A notebook's session: its validated parameters, its inputs, and the outputs it writes.

The second cell of every notebook is ``nb = chapter.start(globals())``, which calls
:func:`start`. ``start`` checks the parameters against the annotations of the ``parameters``
cell (``name: type = default``): only the names that cell declares are parameters, so
leftovers of an earlier run in the same kernel (``nb``, tables) are not; every statement of
the cell papermill injected (``# Parameters``, the cell run just before, read from IPython's
input history) must assign a declared name to a literal value, else the notebook stops (an
unknown name, with the closest declared one; code that is not an assignment). A value of the
wrong type is an error too (papermill itself only warns).

Relative paths (``output_dir``, ``*_path``) are read against the folder the user started
from (:func:`~recallscore_nb.workbook.paths.user_folder`). An ``output_dir`` inside ``reports/`` is
refused when the parameters differ from the paper's defaults recorded in
``reports/manifest.json``. Tables and figures are written through :meth:`Session.table` and
:meth:`Session.figure`, named ``<stem>__<what>.<ext>``, each carrying the scorer signatures
and input hashes. :meth:`Session.finish` ends the notebook: under ``recallscore run`` it
writes the notebook's manifest fragment into the run's work folder; run alone (papermill,
JupyterLab) the notebook wrote into a work folder of its own and publishes itself, merging
its part into the output folder's manifest and ``paper/numbers.tex`` under the folder's lock.
"""

from __future__ import annotations

import atexit
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .._version import __version__
from ..core.errors import InputFileError, UsageError
from ..io.data import DEFAULT_BENCHMARK
from ..io.files import require_regular_file, sha256, write_file
from .parameters import check_parameters
from .paths import (
    NOTEBOOKS_DIR,
    REPO_ROOT,
    REPORTS_DIR,
    ROOT_VARIABLE,
    check_output_folder,
    inside,
    resolve_user_path,
    user_folder,
)

__all__ = ["Session", "SavedFigure", "start", "check_input_parameter",
           "FRAGMENTS", "RUN_WORK_VARIABLE", "relative_to_repo"]

FRAGMENTS = "fragments"
RUN_WORK_VARIABLE = "RECALLSCORE_RUN_WORK"
"""Set by ``recallscore run`` in its workers: the work folder whose sessions write fragments."""
SESSION_LOCK_WAIT = 60.0
"""Seconds a notebook waits at ``finish`` for another run to release its output folder."""


def relative_to_repo(path: str | Path) -> str:
    """A path as committed outputs record it: relative to the repository when inside it."""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(REPO_ROOT).as_posix()
    except (ValueError, TypeError):  # outside the workbook, or no workbook
        return Path(path).as_posix()


def check_input_parameter(name: str, given: str, path: Path) -> None:
    """Refuse a ``*_path`` parameter that names no regular file (``path``: ``given`` resolved).

    >>> check_input_parameter("attempts_path", "x.csv", Path("/no/x.csv"))
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: attempts_path: no such file: x.csv (/no/x.csv)
    """
    try:
        require_regular_file(path)
    except InputFileError as exc:
        shown = given if Path(given).is_absolute() else f"{given} ({path})"
        raise UsageError(f"{name}: {exc.message.removesuffix('; give a file')}: {shown}") from None


def _paper_defaults(stem: str) -> tuple[dict | None, Path]:
    """The defaults ``reports/manifest.json`` records for ``stem`` (else those the committed
    notebook declares), and where they come from."""
    from .publishing import MANIFEST, read_manifest, recorded_defaults

    manifest_path = REPORTS_DIR / MANIFEST
    recorded = recorded_defaults(read_manifest(manifest_path), stem)
    if recorded is not None:
        return recorded, manifest_path
    notebook = NOTEBOOKS_DIR / f"{stem}.ipynb"
    if notebook.is_file():
        from .parameters import declared_defaults

        return declared_defaults(notebook), notebook
    return None, manifest_path


def _refuse_changed_into_reports(stem: str, given: dict) -> None:
    defaults, source = _paper_defaults(stem)
    if defaults is None:
        return
    changes = [f"{name}: {defaults[name]!r} → {value!r}" for name, value in given.items()
               if name != "output_dir" and name in defaults and defaults[name] != value]
    if changes:
        raise UsageError(
            f"{stem}: parameters differ from the paper's defaults recorded in {source} "
            f"({', '.join(changes)}); set output_dir to another folder, or run "
            f"'recallscore explore {stem.split('_')[0]}' to explore a copy whose outputs go "
            "to scratch/")


@dataclass(frozen=True)
class SavedFigure:
    """The files of a saved figure; Jupyter shows it as its PNG."""

    paths: tuple[Path, ...]

    def _repr_png_(self) -> bytes:
        return next(p for p in self.paths if p.suffix == ".png").read_bytes()


@dataclass
class Session:
    """What a notebook knows while it runs; see the module docstring.

    Made directly, a session writes into ``output_dir`` and :meth:`finish` writes its
    manifest fragment there (as under ``recallscore run``, whose ``output_dir`` is the run's
    work folder). :func:`start` makes a notebook run alone ``publishing``: it writes into a
    work folder of its own inside ``output_dir`` and :meth:`finish` publishes it.
    ``given`` holds the parameters as the user gave them (``parameters`` has ``*_path``
    values made absolute); the manifest records ``given``.
    """

    stem: str
    parameters: dict[str, object]
    output_dir: Path
    signatures: list[str] = field(default_factory=list)
    inputs: dict[str, str] = field(default_factory=dict)
    outputs: list[Path] = field(default_factory=list)
    numbers: dict[str, str] = field(default_factory=dict)
    given: dict[str, object] | None = None
    publishing: bool = False
    _memo: dict[str, object] = field(default_factory=dict, repr=False)
    _work: object = field(default=None, repr=False)
    _published: list[str] | None = field(default=None, repr=False)

    @property
    def work_dir(self) -> Path:
        """Where tables and figures are written: ``output_dir``, or, for a publishing session,
        a hidden work folder inside it (made on first use, removed at :meth:`finish`)."""
        if not self.publishing:
            return self.output_dir
        if self._work is None:
            from .publishing import WorkFolder

            try:
                self.output_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"output_dir {self.output_dir}: cannot write here "
                                 f"({exc.strerror or exc})") from None
            self._work = WorkFolder(self.output_dir, f".recallscore-work-{self.stem}-")
        return self._work.path

    def discard(self) -> None:
        """Remove this session's work folder (what it wrote and did not publish)."""
        if self._work is not None:
            self._work.remove()
            self._work = None

    def memo(self, key: str, compute):
        """``compute()`` once per session; later calls with ``key`` return the same value."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    # --- inputs -------------------------------------------------------------------------
    def read_input(self, path: str | Path) -> Path:
        """Record an input file (its SHA-256) and return its path."""
        path = Path(path)
        self.inputs[relative_to_repo(path)] = sha256(path)
        return path

    @property
    def benchmark_path(self) -> Path:
        return Path(self.parameters.get("benchmark_path") or DEFAULT_BENCHMARK)

    @property
    def benchmark(self):
        """The benchmark named by ``benchmark_path`` (loaded once, recorded as an input)."""
        if not hasattr(self, "_benchmark"):
            from ..io.benchmarks import load_benchmark

            self._benchmark = load_benchmark(str(self.read_input(self.benchmark_path)))
        return self._benchmark

    def sign(self, *signatures: str) -> None:
        """Record signatures that apply to this notebook's outputs (kept once, in order)."""
        for signature in signatures:
            if signature not in self.signatures:
                self.signatures.append(signature)

    # --- outputs ------------------------------------------------------------------------
    def footer(self) -> list[str]:
        lines = [f"signature: {s}" for s in self.signatures]
        lines += [f"input: {path} sha256:{sha}" for path, sha in sorted(self.inputs.items())]
        return lines

    def table(self, what: str, frame, *, float_format: str = ".3f"):
        """Write ``tables/<stem>__<what>.{csv,md,tex}``; return the frame for display."""
        from ..render.tables import table_texts

        texts = table_texts(frame, self.footer(), float_format)
        for ext, text in texts.items():
            self.outputs.append(write_file(self.work_dir / "tables" / f"{self.stem}__{what}.{ext}",
                                           text))
        return frame

    def figure(self, what: str, fig) -> SavedFigure:
        """Write ``figures/<stem>__<what>.{png,pdf,svg}``; return them, shown as the PNG."""
        from ..render.figures import FIGURE_FORMATS, figure_bytes

        description = "; ".join(self.footer())
        paths = tuple(write_file(self.work_dir / "figures" / f"{self.stem}__{what}.{fmt}",
                                 figure_bytes(fig, fmt, description=description))
                      for fmt in FIGURE_FORMATS)
        self.outputs += paths
        return SavedFigure(paths)

    def number(self, name: str, value) -> None:
        """Record a number the paper quotes, as the LaTeX macro ``\\rs<Name>``."""
        if not name.isalpha():
            raise ValueError(f"a paper number's name must be letters only (got {name!r})")
        self.numbers[name] = value if isinstance(value, str) else format(value, "g")

    def fragment(self) -> dict:
        """This notebook's part of the manifest (paths relative to the output folder)."""
        given = self.parameters if self.given is None else self.given
        return {
            "notebook": self.stem,
            "parameters": {k: v for k, v in given.items() if k != "output_dir"},
            "signatures": list(self.signatures),
            "inputs": [{"path": p, "sha256": s} for p, s in sorted(self.inputs.items())],
            "outputs": [
                {"path": p.relative_to(self.work_dir).as_posix(), "sha256": sha256(p)}
                for p in sorted(self.outputs)
            ],
            "numbers": dict(sorted(self.numbers.items())),
            "version": __version__,
        }

    def finish(self) -> list[str]:
        """End the notebook: write its manifest fragment, or, run alone, publish its outputs
        into ``output_dir``; return the outputs written, for display."""
        if self._published is not None:
            return self._published
        fragment = self.fragment()
        if self.publishing:
            self._publish(fragment)
        else:
            path = self.output_dir / FRAGMENTS / f"{self.stem}.json"
            text = json.dumps(fragment, indent=2, sort_keys=True) + "\n"
            write_file(path, text)
        self._published = [o["path"] for o in fragment["outputs"]]
        return self._published

    def _publish(self, fragment: dict) -> None:
        from .publishing import MANIFEST, OutputLock, publish, read_manifest, recorded_defaults

        work = self.work_dir
        with OutputLock(self.output_dir, wait=SESSION_LOCK_WAIT, option="output_dir"):
            recorded = recorded_defaults(read_manifest(self.output_dir / MANIFEST), self.stem)
            if recorded is None:
                recorded = _declared_or_given(self.stem, self.given or self.parameters)
            publish(self.output_dir, work, {self.stem: fragment}, defaults={self.stem: recorded})
        self.discard()
        _forget(self)


def _declared_or_given(stem: str, given: dict) -> dict:
    """The defaults to record for a notebook the manifest does not know yet: those its
    committed copy declares, else the values it ran with."""
    notebook = None if NOTEBOOKS_DIR is None else NOTEBOOKS_DIR / f"{stem}.ipynb"
    if notebook is not None and notebook.is_file():
        from .parameters import declared_defaults

        return declared_defaults(notebook)
    return {k: v for k, v in given.items() if k != "output_dir"}


_OPEN: list[Session] = []
"""The publishing session of this kernel that has not finished (at most one)."""


def _forget(session: Session) -> None:
    if session in _OPEN:
        _OPEN.remove(session)


@atexit.register
def _discard_open() -> None:
    while _OPEN:
        _OPEN.pop().discard()


def start(stem: str, namespace: dict, *, history: list[str] | None = None) -> Session:
    """Validate a notebook's parameters and open its session.

    ``output_dir`` empty means the repository's ``reports/``; relative paths are read against
    :func:`~recallscore_nb.workbook.paths.user_folder`. Running a notebook again in the same kernel
    discards what the unfinished earlier run wrote.
    """
    given = check_parameters(namespace, history)
    base = user_folder(REPO_ROOT)
    parameters = dict(given)
    for name, value in given.items():
        if name.endswith("_path") and value:
            path = resolve_user_path(str(value), base)
            check_input_parameter(name, str(value), path)
            parameters[name] = str(path)
    text = str(given.get("output_dir") or "")
    if not text and REPORTS_DIR is None:
        raise UsageError(f"output_dir: empty means the workbook's reports/, and no workbook was "
                         f"found; give an output_dir, or set {ROOT_VARIABLE} to the folder that "
                         "holds notebooks/ and reports/")
    output_dir = resolve_user_path(text, base) if text else REPORTS_DIR
    check_output_folder(output_dir, notebooks=NOTEBOOKS_DIR, reports=REPORTS_DIR, changed=False,
                        option="output_dir")
    _discard_open()
    run_work = os.environ.get(RUN_WORK_VARIABLE)
    if run_work and Path(run_work) == output_dir:  # under recallscore run: a fragment only
        return Session(stem=stem, parameters=parameters, output_dir=output_dir, given=given)
    if REPORTS_DIR is not None and inside(output_dir, REPORTS_DIR):
        _refuse_changed_into_reports(stem, given)
    session = Session(stem=stem, parameters=parameters, output_dir=output_dir, given=given,
                      publishing=True)
    _OPEN.append(session)
    return session
