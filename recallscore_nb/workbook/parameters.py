"""A notebook's parameters: its ``parameters`` cell, read in one place.

The first code cell of every notebook, tagged ``parameters``, declares one parameter a line,
``name: type = default  # help`` (papermill's inspectable form; ``type`` one of
:data:`TYPES`). :func:`parse_parameters` reads such a cell with Python's own parser (``ast``):
the runner reads a notebook file's declarations with it (:func:`declared_parameters`,
:func:`declared_defaults`, ``-p`` values converted by :meth:`Parameter.convert`), ``recallscore
explore`` rewrites a default with it (:func:`with_default`), and a running notebook's session
checks the values the kernel holds against the same declarations (:func:`check_parameters`:
those of the repository's own copy of the notebook when there is one, else the annotations
executing the cell left in the namespace; each value checked by :meth:`Parameter.accepts`)
and hands them to the notebook as one typed, frozen object (:func:`parameters_object`:
``nb.params.seed`` is an ``int``).

>>> params = parse_parameters('seed: int = 7  # the seed\\nlabel: str = "a"\\n')
>>> [(p.name, p.type.__name__, p.default, p.help) for p in params.values()]
[('seed', 'int', 7, 'the seed'), ('label', 'str', 'a', '')]
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import functools
import io
import json
import tokenize
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UsageError
from ..io.jsondocs import json_reason

__all__ = ["Parameter", "TYPES", "INJECTED_MARK", "parse_parameters", "declared_parameters",
           "declared_defaults", "OUTPUT_DIR", "parameters_cell", "with_default", "check_parameters",
           "parameters_object"]

TYPES = {"str": str, "int": int, "float": float, "bool": bool}
"""The types a parameters cell may declare, by their names."""
INJECTED_MARK = "# Parameters"
"""How papermill's injected-parameters cell begins."""
_FORM = "'name: type = default  # help'"


@dataclass(frozen=True)
class Parameter:
    """One declaration of a ``parameters`` cell: ``name: type = default  # help``."""

    name: str
    type: type
    default: object = None
    help: str = ""

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

    def accepts(self, value) -> bool:
        """Whether ``value`` is of the declared type (an int is a float; a bool is neither)."""
        if self.type is float:
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        if self.type is int:
            return isinstance(value, int) and not isinstance(value, bool)
        return isinstance(value, self.type)


# --- the cell in a notebook file ---------------------------------------------------------------
def parameters_cell(cells: list[dict], name: str) -> dict:
    """The notebook's ``parameters``-tagged cell, which must be its first code cell."""
    code = [c for c in cells if c["cell_type"] == "code"]
    tagged = [c for c in code if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(tagged) != 1 or tagged[0] is not code[0]:
        raise UsageError(f"{name}: the first code cell, and only it, must be tagged 'parameters'")
    return tagged[0]


def _comments(source: str) -> dict[int, str]:
    """Each line's comment, its ``#`` and the blanks after it dropped, by line number."""
    found = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = token.string[1:].lstrip()
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _declarations(source: str, name: str) -> list[tuple[ast.AnnAssign, Parameter]]:
    lines = source.splitlines()

    def refuse(lineno: int):
        line = lines[lineno - 1] if 0 < lineno <= len(lines) else source
        return UsageError(f"{name}: parameters cell line is not {_FORM}: {line!r}")

    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise refuse(exc.lineno or 1) from None
    comments = _comments(source)
    out = []
    for statement in tree.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and isinstance(statement.annotation, ast.Name)
                and statement.annotation.id in TYPES and statement.value is not None):
            raise refuse(statement.lineno)
        try:
            default = ast.literal_eval(statement.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise refuse(statement.lineno) from None
        parameter = Parameter(statement.target.id, TYPES[statement.annotation.id], default,
                              comments.get(statement.end_lineno, ""))
        out.append((statement, parameter))
    return out


def parse_parameters(source: str, name: str = "<parameters>") -> dict[str, Parameter]:
    """The parameters a ``parameters`` cell declares, in order (comments and blank lines may
    stand between them; anything else is refused, naming ``name`` and the line)."""
    return {p.name: p for _, p in _declarations(source, name)}


def _notebook_json(path: Path) -> dict:
    """A notebook file's JSON; a file that is not a notebook is a :class:`UsageError` naming it.

    >>> _notebook_json(Path("/no/such.ipynb"))
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: /no/such.ipynb: not a notebook: No such file or directory
    """
    try:
        node = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: not a notebook: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not a notebook: not UTF-8 text ({exc.reason} at byte "
                         f"{exc.start})") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not a notebook: not valid JSON: {json_reason(exc)} at line "
                         f"{exc.lineno} column {exc.colno}") from None
    if not isinstance(node, dict) or not isinstance(node.get("cells"), list):
        raise UsageError(f"{path}: not a notebook: expected a JSON object with a list of 'cells'")
    for i, cell in enumerate(node["cells"]):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise UsageError(f"{path}: not a notebook: $.cells[{i}]: expected an object with a "
                             "'cell_type'")
    return node


def declared_parameters(path: Path) -> dict[str, Parameter]:
    """The parameters a notebook file declares in its ``parameters``-tagged cell.

    >>> from recallscore_nb.workbook.paths import NOTEBOOKS_DIR
    >>> sorted(declared_parameters(NOTEBOOKS_DIR / "01_reproduce_benchmark.ipynb"))
    ['benchmark_path', 'output_dir', 'squad_mode']
    """
    path = Path(path)
    cell = parameters_cell(_notebook_json(path)["cells"], path.name)
    return parse_parameters("".join(cell["source"]), path.name)


OUTPUT_DIR = "output_dir"
"""The parameter that says where outputs go: not one of the paper's parameters."""


def declared_defaults(path: Path) -> dict[str, object]:
    """The paper's defaults, as the manifest records them: each declared parameter's default
    but ``output_dir``'s (where the outputs go changes nothing in them)."""
    return {name: p.default for name, p in declared_parameters(path).items() if name != OUTPUT_DIR}


def with_default(source: str, parameter: str, value_text: str, name: str = "<parameters>") -> str:
    """The cell with ``parameter``'s default written as ``value_text`` (its comment kept);
    a :class:`UsageError` when the cell declares no such ``str`` parameter.

    >>> with_default('output_dir: str = ""  # empty: reports/\\n', "output_dir", '"scratch/x"')
    'output_dir: str = "scratch/x"  # empty: reports/\\n'
    """
    for statement, declared in _declarations(source, name):
        if declared.name == parameter and declared.type is str:
            lines = source.splitlines(keepends=True)
            value = statement.value
            first, last = lines[value.lineno - 1], lines[value.end_lineno - 1]
            start = len(first.encode("utf-8")[:value.col_offset].decode("utf-8"))
            end = len(last.encode("utf-8")[:value.end_col_offset].decode("utf-8"))
            replaced = first[:start] + value_text + last[end:]
            return "".join(lines[:value.lineno - 1] + [replaced] + lines[value.end_lineno:])
    raise UsageError(f"{name}: its parameters cell declares no '{parameter}: str'")


# --- the values a running notebook holds ----------------------------------------------------
def _input_history() -> list[str]:
    """The cells this kernel ran, the running one last (empty outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return []
    shell = get_ipython()
    if shell is None:
        return []
    return list(shell.history_manager.input_hist_parsed)  # not user_ns["In"]: a cell may rebind it


def _injected_cell(history: list[str]) -> str | None:
    """The cell papermill injected: the one run just before the running cell, if it begins
    with ``# Parameters``."""
    if len(history) >= 2 and history[-2].lstrip().startswith(INJECTED_MARK):
        return history[-2]
    return None


def _cell_names(source: str, declared) -> list[str] | None:
    """The names a parameters cell as the kernel ran it assigns or annotates, in order; None
    when ``source`` is not such a cell (anything but plain ``name = …`` or ``name: type = …``
    statements, or none of ``declared`` among them: the start cell run again, say)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names = []
    for statement in tree.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.append(statement.target.id)
        elif (isinstance(statement, ast.Assign) and len(statement.targets) == 1
              and isinstance(statement.targets[0], ast.Name)):
            names.append(statement.targets[0].id)
        else:
            return None
    return names if set(names) & set(declared) else None


def _parameters_cell_run(history: list[str], injected: bool) -> str | None:
    """The parameters cell as the kernel ran it: the cell before the running one, or before the
    injected cell."""
    back = 3 if injected else 2
    return history[-back] if len(history) >= back else None


def _is_value(node: ast.expr) -> bool:
    """A literal, or ``float('nan')``/``float('inf')`` as papermill writes those."""
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "float" and not node.keywords and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


def _injected_names(source: str) -> list[str]:
    """The names an injected cell assigns; anything but ``name = value`` is an error."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise UsageError(f"the injected parameters cell is not Python: {exc.msg} "
                         f"(line {exc.lineno})") from None
    names = []
    for statement in tree.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name) and _is_value(statement.value)):
            code = ast.get_source_segment(source, statement) or ast.unparse(statement)
            raise UsageError("the injected parameters cell holds code that is not "
                             f"'name = value': {code}")
        names.append(statement.targets[0].id)
    return names


def _unknown(name: str, declared) -> str:
    close = difflib.get_close_matches(name, sorted(declared), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown parameter {name!r}; this notebook declares: {', '.join(sorted(declared))}{hint}"


def check_parameters(namespace: dict, history: list[str] | None = None, *,
                     declared: dict[str, Parameter] | None = None,
                     notebook: str = "") -> dict[str, object]:
    """Validate a notebook namespace against its parameters; return their values, in order.

    ``declared`` are the parameters the repository's copy of the notebook declares (its
    file name ``notebook``); without them, the annotations in ``namespace``. ``history`` is
    the kernel's input history, the running cell last (default: IPython's): the cell before
    it, when papermill injected it, must assign declared names only, and the parameters cell
    as the kernel ran it (JupyterLab runs it as the user edited it) may assign or annotate
    declared names only: a typo is an error, never a parameter silently left at its default.

    >>> check_parameters({"__annotations__": {"seed": int}, "seed": 3, "nb": "an earlier run"})
    {'seed': 3}
    >>> check_parameters({"__annotations__": {"seed": int}, "seed": "3"})
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: parameter 'seed' must be int (got '3' that is a str)
    >>> check_parameters({"__annotations__": {"seed": int}, "seed": 3},
    ...                  history=["seed: int = 3", "# Parameters\\nsed = 4\\n", "nb = start()"])
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: unknown parameter 'sed'; this notebook declares: seed; did you mean 'seed'?
    """
    if declared is None:
        declared = {name: Parameter(name, kind) for name, kind in
                    namespace.get("__annotations__", {}).items()}
    history = _input_history() if history is None else history
    injected = _injected_cell(history)
    if injected is not None:
        for name in _injected_names(injected):
            if name not in declared:
                raise UsageError(_unknown(name, declared))
    cell = _parameters_cell_run(history, injected is not None)
    for name in (_cell_names(cell, declared) or []) if cell is not None else []:
        if name not in declared:
            where = f"the notebook {notebook}" if notebook else "this notebook"
            close = difflib.get_close_matches(name, sorted(declared), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"the parameters cell sets {name!r}, which {where} does not declare; "
                             f"it declares: {', '.join(sorted(declared))}{hint}")
    for name, parameter in declared.items():
        if name not in namespace:
            raise UsageError(f"parameter {name!r} is declared but has no value")
        value = namespace[name]
        if isinstance(parameter.type, type) and not parameter.accepts(value):
            raise UsageError(f"parameter {name!r} must be {parameter.type.__name__} "
                             f"(got {value!r} that is a {type(value).__name__})")
    return {name: namespace[name] for name in declared}


@functools.lru_cache(maxsize=None)
def _parameters_class(fields: tuple[tuple[str, type], ...]) -> type:
    return dataclasses.make_dataclass("Parameters", list(fields), frozen=True)


def parameters_object(values: dict[str, object], types: dict[str, type] | None = None):
    """A notebook's parameters as one frozen object, a field per parameter, in order; each
    field's type is the declared one (``types``; by default the type of its value).

    >>> params = parameters_object({"seed": 7, "label": "a"}, {"seed": int, "label": str})
    >>> params, params.seed + 1
    (Parameters(seed=7, label='a'), 8)
    """
    types = {name: type(value) for name, value in values.items()} if types is None else types
    return _parameters_class(tuple((name, types[name]) for name in values))(**values)
