"""A notebook's session: its validated parameters, its inputs, and the outputs it writes.

The cell after the parameters cell opens it, ``nb = rs.start_notebook("<stem>", globals())``
(:func:`start_notebook`), records the signatures the outputs carry (``nb.sign_rules(…)``,
``nb.sign(…)``) and shows the session: its parameters, inputs and signatures.
``start_notebook`` checks the parameters against those the repository's copy of the notebook
declares (``name: type = default``; see :mod:`~recallscore_nb.workbook.parameters`): only
declared names are parameters, so leftovers of an earlier run in the same kernel (``nb``,
tables) are not, and a name the parameters cell (as the kernel ran it) or papermill's injected
cell sets that is not declared is an error naming the closest declared one; a value of the
wrong type is an error too (papermill itself only warns). ``nb.params`` holds the values as
one frozen, typed object (``nb.params.seed`` is an ``int``).

Relative paths (``output_dir``, ``*_path``) are read against the folder the user started
from (:func:`~recallscore_nb.workbook.paths.user_folder`). An ``output_dir`` inside ``reports/`` is
refused when the parameters differ from the paper's defaults recorded in
``reports/manifest.json``. The inputs the parameters name are read once, each recorded with
its SHA-256 (:attr:`Session.benchmark`, :attr:`Session.schema`, :attr:`Session.catalogue`,
:meth:`Session.read_input`). Each later cell binds what a public function of the package
computes to a name and shows it, writing it in the same visible call: ``nb.save("what",
value)`` writes a table (``tables/<stem>__what.{csv,md,tex}``) or a figure
(``figures/<stem>__what.{png,pdf,svg}``), each carrying the signatures and input hashes, and
returns it for display; ``nb.quote(numbers)`` records the numbers the paper quotes and shows
them as their macros. :meth:`Session.finish` ends the notebook: under ``recallscore run`` it
writes the notebook's manifest fragment into the run's work folder; run alone (papermill,
JupyterLab) the notebook wrote into a work folder of its own and publishes itself, merging
its part into the output folder's manifest and ``paper/numbers.tex`` under the folder's lock.
A cell that raises discards what the unfinished session wrote (its work folder, and the output
folder it created when empty): the session watches the kernel's cells through a callback of
its own, and no state is kept in this module.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .._version import __version__
from ..core.errors import InputFileError, RecallScoreError, UsageError
from ..core.registry import signatures
from ..io.data import DEFAULT_BENCHMARK
from ..io.files import require_regular_file, sha256, write_file
from .display import NoteBoard, Published, show_tables
from .parameters import check_parameters, declared_parameters, parameters_object
from .paths import (
    NOTEBOOKS_DIR,
    REPO_ROOT,
    REPORTS_DIR,
    ROOT_VARIABLE,
    check_output_folder,
    inside,
    make_folders,
    remove_empty_folders,
    resolve_user_path,
    settle_kernel,
    user_folder,
)

__all__ = ["Session", "SavedFigure", "start_notebook", "check_input_parameter", "one_line",
           "FRAGMENTS", "RUN_WORK_VARIABLE", "relative_to_repo"]

PACKAGE_PARENT = Path(__file__).resolve().parents[2]
"""The folder holding the package: its shipped data are recorded relative to it."""
FRAGMENTS = "fragments"
RUN_WORK_VARIABLE = "RECALLSCORE_RUN_WORK"
"""Set by ``recallscore run`` in its workers: the work folder whose sessions write fragments."""
SESSION_LOCK_WAIT = 60.0
"""Seconds a notebook waits at ``finish`` for another run to release its output folder."""


def relative_to_repo(path: str | Path, given: dict[str, str] | None = None) -> str:
    """A path as outputs record it, never a machine's: relative to the repository when inside
    it, else to the folder holding the package (its shipped data), else as the user gave it
    (``given`` maps a path as resolved to the text given), else as it is."""
    resolved = Path(path).resolve()
    for base in (REPO_ROOT, PACKAGE_PARENT):
        try:
            return resolved.relative_to(base).as_posix()
        except (ValueError, TypeError):  # outside it, or no workbook
            continue
    shown = (given or {}).get(str(Path(path))) or (given or {}).get(str(resolved))
    return Path(shown if shown else path).as_posix()


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
    """A figure as saved: its files (relative to the output folder) and its PNG bytes, which
    Jupyter shows, the same bytes as the PNG file."""

    names: tuple[str, ...]
    png: bytes | None

    def _repr_png_(self) -> bytes | None:
        return self.png

    def __repr__(self) -> str:
        return ", ".join(self.names)


@dataclass(repr=False)
class Session:
    """What a notebook knows while it runs; see the module docstring.

    ``params`` is the notebook's parameters as one frozen object (``nb.params.seed``), with
    ``*_path`` values made absolute; ``given`` holds them as the user gave them, as the
    manifest records them. Made directly, a session writes into ``output_dir`` and
    :meth:`finish` writes its manifest fragment there (as under ``recallscore run``, whose
    ``output_dir`` is the run's work folder). :func:`start` makes a notebook run alone
    ``publishing``: it writes into a work folder of its own inside ``output_dir`` and
    :meth:`finish` publishes it.
    """

    stem: str
    params: object
    output_dir: Path
    signatures: list[str] = field(default_factory=list)
    inputs: dict[str, str] = field(default_factory=dict)
    outputs: list[Path] = field(default_factory=list)
    numbers: dict[str, str] = field(default_factory=dict)
    given: dict[str, object] | None = None
    publishing: bool = False
    _work: object = field(default=None, repr=False)
    _created: Path | None = field(default=None, repr=False)
    _failed: bool = field(default=False, repr=False)
    _published: list[str] | None = field(default=None, repr=False)
    _shell: object = field(default=None, repr=False)
    _shown: object = field(default=None, repr=False)
    _tables: dict = field(default_factory=dict, repr=False)
    _board: object = field(default_factory=lambda: NoteBoard(), repr=False)
    given_paths: dict[str, str] = field(default_factory=dict, repr=False)
    """Each ``*_path`` parameter as resolved -> as the user gave it (how inputs outside the
    repository are recorded)."""

    def __repr__(self) -> str:
        """The notebook, its parameters, its inputs and the signatures its outputs carry."""
        lines = [f"{self.stem}: {self.params!r}", "inputs:"]
        lines += [f"  {path}  sha256:{sha}" for path, sha in sorted(self.inputs.items())] or ["  none"]
        lines += ["signatures:"] + [f"  {s}" for s in self.signatures]
        return "\n".join(lines)

    def _ipython_display_(self) -> None:
        """Jupyter shows the session as its text, then draws it again whenever the session
        reads an input or records a signature, so the session cell lists every input the
        notebook read, however late (a display that the kernel updates in place)."""
        from IPython.display import display

        bundle = {"text/plain": repr(self)}
        if self._shown is None:
            self._shown = display(bundle, raw=True, display_id=True)
        else:
            display(bundle, raw=True)

    def _redraw(self) -> None:
        if self._shown is not None:
            self._shown.update({"text/plain": repr(self)}, raw=True)

    def _param(self, name: str, default: object = "") -> object:
        return getattr(self.params, name, default)

    @property
    def work_dir(self) -> Path:
        """Where tables and figures are written: ``output_dir``, or, for a publishing session,
        a hidden work folder inside it (made on first use, removed at :meth:`finish`)."""
        if self._failed:
            raise UsageError(f"{self.stem}: a cell failed after this notebook started, and what "
                             "it had written was removed; run the notebook again from its "
                             "parameters cell")
        if not self.publishing:
            return self.output_dir
        if self._work is None:
            from .publishing import WorkFolder

            created = make_folders(self.output_dir, "output_dir")
            if self._created is None:
                self._created = created
            self._work = WorkFolder(self.output_dir, f".recallscore-work-{self.stem}-")
        return self._work.path

    def _drop_work(self) -> None:
        if self._work is not None:
            self._work.remove()
            self._work = None

    def discard(self) -> None:
        """Remove what this unfinished session wrote: its work folder, and the output folders
        it created when they hold nothing else; stop watching the kernel's cells."""
        self._unwatch()
        self._board.show(ran=False)
        self._drop_work()
        created, self._created = self._created, None
        remove_empty_folders(self.output_dir, created)

    def fail(self) -> None:
        """A cell failed: discard what this session wrote, and refuse to write more."""
        self.discard()
        self._failed = True

    def watch(self, shell) -> None:
        """Fail when a cell of ``shell`` (IPython's, None outside it) raises before
        :meth:`finish`: the session registers its own ``post_run_cell`` callback, and the
        kernel holds it until the session finishes or is discarded."""
        if shell is not None and self._shell is None:
            shell.events.register("post_run_cell", self._after_cell)
            self._shell = shell

    def _unwatch(self) -> None:
        shell, self._shell = self._shell, None
        if shell is not None and self._after_cell in shell.events.callbacks["post_run_cell"]:
            shell.events.unregister("post_run_cell", self._after_cell)

    def _after_cell(self, result) -> None:
        """IPython's ``post_run_cell`` callback: when the cell raised, this session fails;
        otherwise what the cell's results say is shown below them."""
        if getattr(result, "error_in_exec", None) is not None:
            self.fail()
        else:
            self._board.show()

    # --- inputs -------------------------------------------------------------------------
    def read_input(self, path: str | Path) -> Path:
        """Record an input file (its SHA-256) and return its path."""
        path = Path(path)
        self.inputs[relative_to_repo(path, self.given_paths)] = sha256(path)
        self._redraw()
        return path

    @property
    def benchmark_path(self) -> Path:
        return Path(self._param("benchmark_path") or DEFAULT_BENCHMARK)

    @functools.cached_property
    def benchmark(self):
        """The benchmark named by ``benchmark_path`` (read once, recorded as an input)."""
        from ..io.benchmarks import load_benchmark

        return load_benchmark(str(self.read_input(self.benchmark_path)))

    @functools.cached_property
    def schema(self):
        """The scoring schema named by ``schema_path`` (read once, recorded as an input).
        Empty: the shipped schema for the shipped benchmark; for any other benchmark, no
        schema (every fact weight 1, no equivalents, contradictions or negation), since the
        shipped one names the shipped benchmark's facts."""
        from ..core.schema import default_schema
        from ..io.data import DEFAULT_SCHEMA_PATH
        from ..io.scoring_schemas import load_scoring_schema

        given = str(self._param("schema_path") or "")
        if not given and self._param("benchmark_path"):
            return default_schema(self.benchmark)
        path = Path(given) if given else DEFAULT_SCHEMA_PATH
        if not path.is_file():
            raise UsageError(f"schema_path: no such file: {path}")
        return load_scoring_schema(str(self.read_input(path)), self.benchmark)

    @functools.cached_property
    def catalogue(self):
        """The suite catalogue named by ``catalogue_path`` (read once, recorded as an input)."""
        from ..io.catalogue import load_catalogue
        from ..io.data import DEFAULT_CATALOGUE

        return load_catalogue(self.read_input(self._param("catalogue_path") or DEFAULT_CATALOGUE))

    def sign(self, *signatures: str) -> None:
        """Record signatures that apply to this notebook's outputs (kept once, in order)."""
        for signature in signatures:
            if signature not in self.signatures:
                self.signatures.append(signature)
        self._redraw()

    def sign_rules(self, squad_mode: str = "v1.1") -> None:
        """Record every rule's signature, in the registry's order (those with a SQuAD mode
        under ``squad_mode``), then the signature of each normalizer they compare under
        (:func:`~recallscore_nb.core.registry.signatures`): a footer says which steps made
        the verdicts, not only the normalizers' names."""
        self.sign(*signatures(squad_mode))

    # --- outputs ------------------------------------------------------------------------
    def footer(self) -> list[str]:
        lines = [f"signature: {s}" for s in self.signatures]
        lines += [f"input: {path} sha256:{sha}" for path, sha in sorted(self.inputs.items())]
        return lines

    def save(self, what: str, value, **options):
        """Write a table (a DataFrame: :meth:`table`) or a figure (:meth:`figure`) named
        ``what``; return what Jupyter then shows: the table, or the figure as its PNG."""
        import pandas as pd

        if isinstance(value, pd.DataFrame):
            return self.table(what, value, **options)
        if callable(getattr(value, "savefig", None)):
            return self.figure(what, value)
        raise TypeError(f"nb.save({what!r}, …): expected a DataFrame or a figure "
                        f"(got a {type(value).__name__})")

    def table(self, what: str, frame, *, float_format: str = ".3f"):
        """Write ``tables/<stem>__<what>.{csv,md,tex}``; return the frame for display."""
        from ..render.tables import table_texts

        work = self.work_dir
        texts = table_texts(frame, self.footer(), float_format)
        for ext, text in texts.items():
            self.outputs.append(write_file(work / "tables" / f"{self.stem}__{what}.{ext}", text))
        self._tables[what] = frame
        self._note(what)
        return frame

    def figure(self, what: str, fig) -> SavedFigure:
        """Write ``figures/<stem>__<what>.{png,pdf,svg}``; return them, shown as the PNG."""
        from ..render.figures import FIGURE_FORMATS, figure_bytes

        work = self.work_dir
        description = "; ".join(self.footer())
        rendered = {fmt: figure_bytes(fig, fmt, description=description) for fmt in FIGURE_FORMATS}
        paths = tuple(write_file(work / "figures" / f"{self.stem}__{what}.{fmt}", data)
                      for fmt, data in rendered.items())
        self.outputs += paths
        self._note(what, figure=True)
        return SavedFigure(tuple(p.relative_to(work).as_posix() for p in paths), rendered.get("png"))

    def _note(self, what: str, *, figure: bool = False) -> None:
        """Have the kernel show, after this cell, what result ``what`` says
        (:mod:`~recallscore_nb.workbook.notes`); a table of another shape than the
        notebook's own (the user's data) may say nothing."""
        from .notes import result_note

        try:
            self._board.add(result_note(self.stem, what, self._tables, figure=figure))
        except (KeyError, ValueError, TypeError, AttributeError, IndexError):
            pass

    def number(self, name: str, value) -> None:
        """Record a number the paper quotes, as the LaTeX macro ``\\rs<Name>``."""
        if not name.isalpha():
            raise ValueError(f"a paper number's name must be letters only (got {name!r})")
        self.numbers[name] = value if isinstance(value, str) else format(value, "g")

    def quote(self, numbers):
        """Record the numbers the paper quotes (name -> value, see :meth:`number`); return them
        as the macros ``paper/numbers.tex`` defines, for display."""
        import pandas as pd

        for name, value in numbers.items():
            self.number(name, value)
        return pd.DataFrame({"macro": [f"\\rs{name}" for name in numbers],
                             "value": [self.numbers[name] for name in numbers]})

    def fragment(self) -> dict:
        """This notebook's part of the manifest (paths relative to the output folder)."""
        given = dataclasses.asdict(self.params) if self.given is None else self.given
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
        into ``output_dir``; stop watching the cells; return the outputs written, shown with
        what the notebook found (:mod:`~recallscore_nb.render.notes`)."""
        if self._published is not None:
            return self._published
        from ..render.notes import found_for

        try:
            found = found_for(self.stem, self.numbers)
        except (KeyError, ValueError, TypeError):
            found = None
        fragment = self.fragment()
        if self.publishing:
            self._publish(fragment)
        else:
            path = self.output_dir / FRAGMENTS / f"{self.stem}.json"
            text = json.dumps(fragment, indent=2, sort_keys=True) + "\n"
            write_file(path, text)
            self._unwatch()
        self._published = Published([o["path"] for o in fragment["outputs"]], found)
        return self._published

    def _publish(self, fragment: dict) -> None:
        from .publishing import MANIFEST, OutputLock, publish, read_manifest, recorded_defaults

        work = self.work_dir
        with OutputLock(self.output_dir, wait=SESSION_LOCK_WAIT, option="output_dir"):
            recorded = recorded_defaults(read_manifest(self.output_dir / MANIFEST), self.stem)
            if recorded is None:
                recorded = _declared_or_given(self.stem, self.given or dataclasses.asdict(self.params))
            publish(self.output_dir, work, {self.stem: fragment}, defaults={self.stem: recorded})
        self._drop_work()
        self._created = None
        self._unwatch()


def _declared_or_given(stem: str, given: dict) -> dict:
    """The defaults to record for a notebook the manifest does not know yet: those its
    committed copy declares, else the values it ran with."""
    notebook = None if NOTEBOOKS_DIR is None else NOTEBOOKS_DIR / f"{stem}.ipynb"
    if notebook is not None and notebook.is_file():
        from .parameters import declared_defaults

        return declared_defaults(notebook)
    return {k: v for k, v in given.items() if k != "output_dir"}


def one_line(error: RecallScoreError) -> list[str]:
    """How a notebook shows the package's errors: one line, no traceback (the message says
    what to change; the stack says nothing the user needs).

    >>> one_line(UsageError("bad -p"))
    ['UsageError: bad -p']
    """
    return [f"{type(error).__name__}: {error}"]


def _one_line_traceback(shell, etype, value, tb, tb_offset=None) -> list[str]:
    """IPython's custom exception handler: shows :func:`one_line` as the error, the way
    IPython shows an exception that renders its own traceback (``_showtraceback``, which the
    kernel sends as the cell's error output)."""
    stb = one_line(value)
    shell._showtraceback(etype, value, stb)
    return stb


def _shell():
    """The IPython shell running this notebook, or None outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    return get_ipython()


def _watch_cells(shell) -> None:
    """Show the package's errors on one line in this kernel (once per kernel), and discard
    what an unfinished earlier session of this kernel wrote (the notebook runs again)."""
    if shell is None:
        return
    if RecallScoreError not in shell.custom_exceptions:
        shell.set_custom_exc((RecallScoreError,), _one_line_traceback)
    for callback in list(shell.events.callbacks["post_run_cell"]):
        earlier = getattr(callback, "__self__", None)
        if isinstance(earlier, Session):
            earlier.discard()


def _canonical(stem: str) -> tuple[dict | None, str]:
    """The parameters the repository's copy of the notebook declares, and its name as shown
    (None when the workbook has no such notebook)."""
    notebook = None if NOTEBOOKS_DIR is None else NOTEBOOKS_DIR / f"{stem}.ipynb"
    if notebook is None or not notebook.is_file():
        return None, ""
    return declared_parameters(notebook), relative_to_repo(notebook)


def _read_named_inputs(session: Session) -> Session:
    """Read the benchmark and the catalogue when the notebook declares their parameters, so
    that the session lists them before any output."""
    declared = {f.name for f in dataclasses.fields(session.params)}
    if "benchmark_path" in declared:
        session.benchmark
    if "catalogue_path" in declared:
        session.catalogue
    return session


def start_notebook(stem: str, namespace: dict, *, history: list[str] | None = None) -> Session:
    """Validate a notebook's parameters and open its session.

    The parameters are those the repository's ``notebooks/<stem>.ipynb`` declares (the
    kernel may run a copy), else those the namespace's annotations declare; ``nb.params``
    holds them, typed. ``output_dir`` empty means the repository's ``reports/``; relative
    paths are read against :func:`~recallscore_nb.workbook.paths.user_folder`. Under
    ``recallscore run`` (:data:`RUN_WORK_VARIABLE` set, ``output_dir`` left empty), the
    session writes into the run's work folder. The benchmark and the catalogue the
    parameters name are read now. Running a notebook again in the same kernel discards what
    the unfinished earlier run wrote; so does a cell that raises (the session watches the
    kernel's cells). In a kernel, shell commands then read relative paths as Python does, and
    find ``recallscore`` (:func:`~recallscore_nb.workbook.paths.settle_kernel`).
    """
    shell = _shell()
    _watch_cells(shell)
    if shell is not None:
        settle_kernel(REPO_ROOT)
        show_tables(shell)
    declared, shown = _canonical(stem)
    given = check_parameters(namespace, history, declared=declared, notebook=shown)
    types = ({name: p.type for name, p in declared.items()} if declared is not None else
             {name: namespace["__annotations__"][name] for name in given})
    base = user_folder(REPO_ROOT)
    values, given_paths = dict(given), {}
    for name, value in given.items():
        if name.endswith("_path") and value:
            path = resolve_user_path(str(value), base)
            check_input_parameter(name, str(value), path)
            values[name] = str(path)
            given_paths[str(path)] = str(value)
    params = parameters_object(values, types)
    text = str(given.get("output_dir") or "")
    run_work = os.environ.get(RUN_WORK_VARIABLE)
    if run_work and not text:  # under recallscore run: a fragment in the run's work folder
        session = Session(stem=stem, params=params, output_dir=Path(run_work), given=given,
                          given_paths=given_paths)
        session.watch(shell)  # to show what each result says; its work folder is the run's
        return _read_named_inputs(session)
    if not text and REPORTS_DIR is None:
        raise UsageError(f"output_dir: empty means the workbook's reports/, and no workbook was "
                         f"found; give an output_dir, or set {ROOT_VARIABLE} to the folder that "
                         "holds notebooks/ and reports/")
    output_dir = resolve_user_path(text, base) if text else REPORTS_DIR
    check_output_folder(output_dir, notebooks=NOTEBOOKS_DIR, reports=REPORTS_DIR, changed=False,
                        option="output_dir")
    if REPORTS_DIR is not None and inside(output_dir, REPORTS_DIR):
        _refuse_changed_into_reports(stem, given)
    session = Session(stem=stem, params=params, output_dir=output_dir, given=given,
                      publishing=True, given_paths=given_paths)
    session.watch(shell)
    return _read_named_inputs(session)
