"""The jsonschema shim: the validator, without the optional format checkers, which stay
importable afterwards."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_format_checkers_are_kept_out_and_the_validator_works():
    code = ("import sys; from recallscore_nb.io._jsonschema import Draft202012Validator as V, "
            "FORMAT_LIBRARIES as F; print([n for n in F if n in sys.modules], "
            "[e.message for e in V({'type': 'string'}).iter_errors(3)])")
    assert run(code) == "[] [\"3 is not of type 'string'\"]"


def test_a_format_library_imports_as_usual_afterwards():
    code = ("import importlib, importlib.util; import recallscore_nb.io._jsonschema as j; "
            "found = [n for n in j.FORMAT_LIBRARIES if importlib.util.find_spec(n)]; "
            "print(all(importlib.import_module(n) for n in found))")
    assert run(code) == "True"


def test_a_format_library_imported_before_is_left_alone():
    code = ("import sys; sys.modules['webcolors'] = marker = object(); "
            "import recallscore_nb.io._jsonschema; print(sys.modules['webcolors'] is marker)")
    assert run(code) == "True"
