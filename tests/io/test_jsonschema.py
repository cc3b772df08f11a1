"""The jsonschema shim: the validator, without the slow optional format checker."""

from __future__ import annotations

import subprocess
import sys


def test_the_slow_format_checker_is_kept_out_and_the_validator_works():
    code = ("import sys; from recallscore_nb.io._jsonschema import Draft202012Validator as V; "
            "print(sys.modules.get('rfc3987_syntax'), "
            "[e.message for e in V({'type': 'string'}).iter_errors(3)])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "None [\"3 is not of type 'string'\"]"
