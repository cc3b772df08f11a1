"""The package in layers, the direction of imports enforced: ``core`` imports none of the
others; ``io`` only ``core``; ``execution`` only ``core`` and ``io``; ``analysis`` only ``core``
and ``io``; ``render`` only ``core``; ``workbook`` anything but ``cli``; ``cli`` anything. Every
import counts, those inside functions too (read with ``ast``, not by importing). ``core`` is
pure: it imports nothing that forks, threads, pickles, runs commands, handles signals, steers
the collector, touches the operating system or talks to IPython. The checkers themselves are
tested on planted violations."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "recallscore_nb"
LAYERS = ("core", "io", "execution", "analysis", "render", "workbook", "cli")
ALLOWED = {
    "core": set(),
    "io": {"core"},
    "execution": {"core", "io"},
    "analysis": {"core", "io"},
    "render": {"core"},
    "workbook": {"core", "io", "execution", "analysis", "render"},
    "cli": {"core", "io", "execution", "analysis", "render", "workbook"},
}
IMPURE = ("os", "multiprocessing", "threading", "concurrent", "gc", "pickle", "subprocess",
          "signal", "IPython", "ipykernel", "shutil", "tempfile", "socket", "asyncio",
          "pandas._libs")
"""What no module of ``core`` may import (nor any module below these names): processes,
threads, pickling, commands, signals, the collector, the file system and IPython belong to
the layers above, and pandas' private modules are no API to build a pure core on."""
ROOT_MODULES = {"__init__.py", "__main__.py", "_version.py"}
SHARED = {"recallscore_nb._version"}
"""What every layer may import from the package's root: its version, and nothing else (not
the package itself, whose public names come from the layers)."""


def _module_name(path: Path, package: Path) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node: ast.AST, module: str, is_init: bool) -> list[str]:
    """The package modules an import statement names, absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".")
        parts = parts if is_init else parts[:-1]
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    # ``from pkg import name``: name may be a module of pkg, which is then what is imported
    return [f"{base}.{alias.name}" for alias in node.names] if base else []


def _layer(name: str, package: str) -> str | None:
    parts = name.split(".")
    if parts[0] != package:
        return None  # not the package: the standard library, pandas, matplotlib ...
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else "root"


def violations(package: Path) -> list[str]:
    """One line per import that goes against the direction of the layers:
    ``file:line: <layer> imports <module>``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if len(relative.parts) == 1:
            continue  # the root's own modules: the public API and ``python -m``
        layer = relative.parts[0]
        module = _module_name(path, package)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in _targets(node, module, path.name == "__init__.py"):
                other = _layer(target, package.name)
                if other is None or other == layer or target in SHARED:
                    continue
                if other == "root" and any(target.startswith(s + ".") or target == s
                                           for s in SHARED):
                    continue
                if layer not in ALLOWED or other not in ALLOWED[layer]:
                    found.append(f"{relative.as_posix()}:{node.lineno}: {layer} imports {target}")
    return found


def test_the_package_imports_follow_the_layers():
    assert violations(PACKAGE) == []


def impurities(package: Path) -> list[str]:
    """One line per import of :data:`IMPURE` in ``core``: ``file:line: core imports <module>``
    (those inside functions too)."""
    found = []
    for path in sorted((package / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                if any(name == bad or name.startswith(bad + ".") for bad in IMPURE):
                    where = path.relative_to(package).as_posix()
                    found.append(f"{where}:{node.lineno}: core imports {name}")
                    break
    return found


def test_the_core_is_pure():
    assert impurities(PACKAGE) == []


def test_only_the_public_api_main_and_version_stay_at_the_root():
    root = {p.name for p in PACKAGE.iterdir() if p.suffix == ".py"}
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert root == ROOT_MODULES
    assert folders == set(LAYERS) | {"data"}


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_says_what_belongs_there(layer):
    doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text()))
    assert doc and len(doc.split()) >= 40, layer
    assert "\n\n" not in doc, f"{layer}: one paragraph"
    assert "belong here" in doc, layer


# --- the checker itself -----------------------------------------------------------------------
def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    package = tmp_path / "recallscore_nb"
    for name in ("__init__.py", *(f"{layer}/__init__.py" for layer in LAYERS)):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text('"""x"""\n')
    for name, source in files.items():
        (package / name).write_text(source)
    return package


def test_the_checker_finds_planted_violations(tmp_path):
    package = _plant(tmp_path, {
        "core/pure.py": "from .._version import __version__\nfrom . import errors\n"
                        "def later():\n    from ..render import figures\n",
        "core/errors.py": "import recallscore_nb.io.files\n",
        "io/files.py": "from .. import analysis\nfrom ..core import errors\n",
        "render/figures.py": "from recallscore_nb.io.data import DATA_DIR\nimport matplotlib\n",
        "analysis/stats.py": "from ..io import files\nfrom ..workbook.session import Session\n",
        "workbook/session.py": "from ..cli.main import main\nfrom ..render import figures\n",
        "cli/main.py": "from ..workbook import runner\nfrom .. import load_benchmark\n",
    })
    assert violations(package) == [
        "analysis/stats.py:2: analysis imports recallscore_nb.workbook.session.Session",
        "cli/main.py:2: cli imports recallscore_nb.load_benchmark",
        "core/errors.py:1: core imports recallscore_nb.io.files",
        "core/pure.py:4: core imports recallscore_nb.render.figures",
        "io/files.py:1: io imports recallscore_nb.analysis",
        "render/figures.py:1: render imports recallscore_nb.io.data.DATA_DIR",
        "workbook/session.py:1: workbook imports recallscore_nb.cli.main.main",
    ]


def test_the_purity_checker_finds_planted_imports(tmp_path):
    package = _plant(tmp_path, {
        "core/pure.py": "import numpy as np\nimport os.path\n"
                        "def later():\n    from concurrent.futures import ThreadPoolExecutor\n",
        "core/memo.py": "from pandas._libs.hashtable import ObjectFactorizer\nimport pandas\n",
        "core/shell.py": "import gc, re\nfrom IPython import get_ipython\n",
        "io/files.py": "import os\nimport tempfile\n",
    })
    assert impurities(package) == [
        "core/memo.py:1: core imports pandas._libs.hashtable",
        "core/pure.py:2: core imports os.path",
        "core/pure.py:4: core imports concurrent.futures",
        "core/shell.py:1: core imports gc",
        "core/shell.py:2: core imports IPython",
    ]


def test_the_checker_passes_a_clean_package(tmp_path):
    package = _plant(tmp_path, {
        "core/pure.py": "import numpy as np\nfrom .._version import __version__\n",
        "io/files.py": "from ..core import pure\nimport recallscore_nb.core.pure\n",
        "cli/main.py": "from ..workbook import runner\nfrom ..io.files import x\n",
    })
    assert violations(package) == []


# --- tests mirror the code ----------------------------------------------------------------------
TESTS = Path(__file__).resolve().parent


def _modules(package: Path) -> list[Path]:
    return sorted(p.relative_to(package) for p in package.rglob("*.py")
                  if p.name != "__init__.py" and len(p.relative_to(package).parts) > 1)


def test_every_module_has_its_tests_one_hop_away():
    """``recallscore_nb/<layer>/<module>.py`` is tested in ``tests/<layer>/test_<module>.py``
    (or ``test_<module>_<topic>.py`` when there are many)."""
    missing = []
    for module in _modules(PACKAGE):
        folder = TESTS / module.parent
        name = module.stem.lstrip("_")
        if not list(folder.glob(f"test_{name}.py")) + list(folder.glob(f"test_{name}_*.py")):
            missing.append(module.as_posix())
    assert missing == []


def _facades(package: Path) -> list[Path]:
    """The ``__init__`` of each folder below a layer (``io/attempts/__init__.py``), as the
    module its tests are named after (``io/attempts``): its folder's facade."""
    return sorted(p.parent.relative_to(package) for p in package.rglob("__init__.py")
                  if len(p.relative_to(package).parts) > 2)


def test_every_test_file_mirrors_a_module():
    """No test file for a module that is not there (the package-wide ones excepted); a
    folder's facade (its ``__init__``) is tested beside the folder's own tests, in
    ``tests/<layer>/test_<folder>.py``."""
    modules = {(m.parent, m.stem.lstrip("_")) for m in _modules(PACKAGE) + _facades(PACKAGE)}
    strays = []
    for test in sorted(TESTS.rglob("test_*.py")):
        where = test.relative_to(TESTS)
        if len(where.parts) == 1 or where.parts[0] in ("oracles", "browser"):
            continue  # the package as a whole (tests/test_*.py, JupyterLab in a browser) and
            # the oracles' own tests
        stem = test.stem.removeprefix("test_")
        if not any(where.parent == folder and (stem == name or stem.startswith(name + "_"))
                   for folder, name in modules):
            strays.append(where.as_posix())
    assert strays == []


# --- no private name across modules ------------------------------------------------------------
def private_imports(package: Path) -> list[str]:
    """One line per name with a leading underscore (not a dunder) that a module of the
    package imports from another module: ``file:line: name``. What a module keeps to itself
    is its own; what others need, it names publicly."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(package).as_posix()}:{node.lineno}: {a.name}"
                          for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def test_no_module_imports_a_private_name_of_another():
    assert private_imports(PACKAGE) == []


def test_the_private_import_checker_finds_a_planted_one(tmp_path):
    package = tmp_path / "recallscore_nb"
    (package / "io").mkdir(parents=True)
    (package / "io" / "a.py").write_text("def _helper():\n    pass\n")
    (package / "io" / "b.py").write_text("from .a import _helper, __doc__\n")
    assert private_imports(package) == ["io/b.py:1: _helper"]


def _exports(package: Path) -> dict[str, tuple[Path, set[str]]]:
    """Each module of the package that declares ``__all__``: its path and the names listed."""
    out = {}
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    getattr(t, "id", None) == "__all__" for t in node.targets):
                with contextlib.suppress(ValueError):
                    out[_module_name(path, package)] = (path, set(ast.literal_eval(node.value)))
    return out


def unlisted_imports(package: Path) -> list[str]:
    """One line per public name a module imports from a module of the package whose
    ``__all__`` does not list it (a submodule is no such name): ``file:line: module.name``.
    What others take from a module is its interface, and its ``__all__`` says so."""
    exports = _exports(package)
    modules = {_module_name(p, package) for p in package.rglob("*.py")}
    found = []
    for path in sorted(package.rglob("*.py")):
        module = _module_name(path, package)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            for target, alias in zip(_targets(node, module, path.name == "__init__.py"),
                                     node.names):
                base = target.rsplit(".", 1)[0]
                if (base in exports and alias.name not in exports[base][1]
                        and target not in modules and not alias.name.startswith("_")):
                    found.append(f"{path.relative_to(package).as_posix()}:{node.lineno}: {target}")
    return found


def test_every_name_a_module_takes_from_another_is_in_its_all():
    assert unlisted_imports(PACKAGE) == []


def test_the_unlisted_import_checker_finds_a_planted_one(tmp_path):
    package = tmp_path / "recallscore_nb"
    (package / "io" / "sub").mkdir(parents=True)
    (package / "io" / "a.py").write_text('__all__ = ["shown"]\nshown = hidden = 1\n')
    (package / "io" / "sub" / "__init__.py").write_text("")
    (package / "io" / "b.py").write_text("from .a import shown, hidden\nfrom . import sub\n"
                                         "from .c import anything\n")
    assert unlisted_imports(package) == ["io/b.py:1: recallscore_nb.io.a.hidden"]
