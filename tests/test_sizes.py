"""Short modules, short functions: no module of the package over 600 lines, no function over
80 (from its ``def`` to its last line, decorators aside, docstring included), so that each can
be read at once. The checker itself is tested on planted files."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "recallscore_nb"
MODULE_LINES = 600
FUNCTION_LINES = 80


def oversized(package: Path) -> list[str]:
    """One line per module or function over its limit: ``file: N lines`` or
    ``file:line: name() N lines``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MODULE_LINES:
            found.append(f"{where}: {lines} lines")
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_LINES:
                    found.append(f"{where}:{node.lineno}: {node.name}() {length} lines")
    return found


def test_no_module_or_function_is_over_its_limit():
    assert oversized(PACKAGE) == []


def test_the_checker_finds_planted_long_modules_and_functions(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES - 1))
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "long.py").write_text(f"def long():\n{body}\n    return 0\n")
    (tmp_path / "core" / "fits.py").write_text(f"def fits():\n{body}\n")
    (tmp_path / "big.py").write_text("x = 1\n" * (MODULE_LINES + 1))
    assert oversized(tmp_path) == ["big.py: 601 lines", "core/long.py:1: long() 81 lines"]
