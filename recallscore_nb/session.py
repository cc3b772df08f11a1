"""A notebook's session: its validated parameters, its inputs, and the outputs it writes.

The second cell of every notebook is ``nb = start("<stem>", globals())``. ``start`` checks
the parameters against the annotations of the ``parameters`` cell (``name: type = default``):
a name papermill injected that the notebook does not declare, or a value of the wrong type,
is an error (papermill itself only warns). Tables and figures are written through
:meth:`Session.table` and :meth:`Session.figure`, named ``<stem>__<what>.<ext>``, each carrying
the scorer signatures and input hashes; :meth:`Session.finish` writes the notebook's manifest
fragment, which ``recallscore run`` merges once every notebook has succeeded.
"""

from __future__ import annotations

import hashlib
import json
import os
import types
from dataclasses import dataclass, field
from pathlib import Path

from ._version import __version__
from .errors import UsageError
from .files import atomic_write
from .paths import DEFAULT_BENCHMARK, REPO_ROOT, REPORTS_DIR

__all__ = ["Session", "SavedFigure", "start", "FRAGMENTS", "relative_to_repo", "file_sha256"]

FRAGMENTS = "fragments"
_IPYTHON_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def relative_to_repo(path: str | Path) -> str:
    """A path as committed outputs record it: relative to the repository when inside it."""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _given_parameters(namespace: dict) -> dict[str, object]:
    """The notebook's parameters: its namespace less IPython's names, modules and callables."""
    return {
        name: value
        for name, value in namespace.items()
        if not name.startswith("_")
        and name not in _IPYTHON_NAMES
        and not isinstance(value, types.ModuleType)
        and not callable(value)
    }


def _type_ok(value, kind: type) -> bool:
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def check_parameters(namespace: dict) -> dict[str, object]:
    """Validate a notebook namespace against its ``parameters`` cell's annotations.

    >>> check_parameters({"__annotations__": {"seed": int}, "seed": 3})
    {'seed': 3}
    >>> check_parameters({"__annotations__": {"seed": int}, "seed": "3"})
    Traceback (most recent call last):
    ...
    recallscore_nb.errors.UsageError: parameter 'seed' must be int (got '3' that is a str)
    """
    declared = namespace.get("__annotations__", {})
    given = _given_parameters(namespace)
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise UsageError(f"unknown parameter {unknown[0]!r}; this notebook declares: "
                         f"{', '.join(sorted(declared))}")
    for name, kind in declared.items():
        if name not in given:
            raise UsageError(f"parameter {name!r} is declared but has no value")
        value = given[name]
        if isinstance(kind, type) and not _type_ok(value, kind):
            raise UsageError(f"parameter {name!r} must be {kind.__name__} "
                             f"(got {value!r} that is a {type(value).__name__})")
    return {name: given[name] for name in declared}


@dataclass(frozen=True)
class SavedFigure:
    """The files of a saved figure; Jupyter shows it as its PNG."""

    paths: tuple[Path, ...]

    def _repr_png_(self) -> bytes:
        return next(p for p in self.paths if p.suffix == ".png").read_bytes()


@dataclass
class Session:
    """What a notebook knows while it runs; see the module docstring."""

    stem: str
    parameters: dict[str, object]
    output_dir: Path
    signatures: list[str] = field(default_factory=list)
    inputs: dict[str, str] = field(default_factory=dict)
    outputs: list[Path] = field(default_factory=list)
    numbers: dict[str, str] = field(default_factory=dict)
    _memo: dict[str, object] = field(default_factory=dict, repr=False)

    def memo(self, key: str, compute):
        """``compute()`` once per session; later calls with ``key`` return the same value."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    # --- inputs -------------------------------------------------------------------------
    def read_input(self, path: str | Path) -> Path:
        """Record an input file (its SHA-256) and return its path."""
        path = Path(path)
        self.inputs[relative_to_repo(path)] = file_sha256(path)
        return path

    @property
    def benchmark_path(self) -> Path:
        return Path(self.parameters.get("benchmark_path") or DEFAULT_BENCHMARK)

    @property
    def benchmark(self):
        """The benchmark named by ``benchmark_path`` (loaded once, recorded as an input)."""
        if not hasattr(self, "_benchmark"):
            from .benchmarks import load_benchmark

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
        from .tables import write_table

        self.outputs += write_table(frame, self.output_dir / "tables", f"{self.stem}__{what}",
                                    footer=self.footer(), float_format=float_format)
        return frame

    def figure(self, what: str, fig) -> SavedFigure:
        """Write ``figures/<stem>__<what>.{png,pdf,svg}``; return them, shown as the PNG."""
        from .figures import save_figure

        paths = save_figure(fig, self.output_dir / "figures", f"{self.stem}__{what}",
                            description="; ".join(self.footer()))
        self.outputs += paths
        return SavedFigure(tuple(paths))

    def number(self, name: str, value) -> None:
        """Record a number the paper quotes, as the LaTeX macro ``\\rs<Name>``."""
        if not name.isalpha():
            raise ValueError(f"a paper number's name must be letters only (got {name!r})")
        self.numbers[name] = value if isinstance(value, str) else format(value, "g")

    def fragment(self) -> dict:
        """This notebook's part of the manifest (paths relative to the output folder)."""
        return {
            "notebook": self.stem,
            "parameters": {k: v for k, v in self.parameters.items() if k != "output_dir"},
            "signatures": list(self.signatures),
            "inputs": [{"path": p, "sha256": s} for p, s in sorted(self.inputs.items())],
            "outputs": [
                {"path": p.relative_to(self.output_dir).as_posix(), "sha256": file_sha256(p)}
                for p in sorted(self.outputs)
            ],
            "numbers": dict(sorted(self.numbers.items())),
            "version": __version__,
        }

    def finish(self) -> list[str]:
        """Write the manifest fragment; return the outputs written, for display."""
        fragment = self.fragment()
        path = self.output_dir / FRAGMENTS / f"{self.stem}.json"
        text = json.dumps(fragment, indent=2, sort_keys=True) + "\n"
        atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
        return [o["path"] for o in fragment["outputs"]]


def start(stem: str, namespace: dict) -> Session:
    """Validate a notebook's parameters and open its session.

    ``output_dir`` empty means the repository's ``reports/``.
    """
    parameters = check_parameters(namespace)
    output_dir = Path(str(parameters.get("output_dir") or REPORTS_DIR))
    session = Session(stem=stem, parameters=parameters, output_dir=output_dir)
    if parameters.get("benchmark_path"):
        path = Path(str(parameters["benchmark_path"]))
        if not path.is_file():
            raise UsageError(f"benchmark_path: no such file: {os.fspath(path)}")
    return session
