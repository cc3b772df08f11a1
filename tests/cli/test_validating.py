"""``recallscore validate`` imports what reading a benchmark needs, not the scoring stack
(issue 31's quick start: 0.59 s, then 0.45 s, then 0.24 s without pandas and jsonschema's
format libraries, on the machines of the commits)."""

from __future__ import annotations

import subprocess
import sys

from recallscore_nb.cli.validating import validate_command
from tests.conftest import write_benchmark


def test_validate_describes_the_benchmark_in_one_line(tmp_path):
    path = write_benchmark(tmp_path, "mine.json")
    (line,) = validate_command(str(path))
    assert line.startswith(f"{path}: valid benchmark: ") and " sha256 " in line
    assert validate_command(None)[0].startswith("shipped benchmark four_fact_recall.json")


def test_validate_imports_neither_the_handlers_nor_the_rules_nor_pandas():
    code = ("import sys\nfrom recallscore_nb.cli.main import main\nmain(['validate'])\n"
            "print(sorted(m for m in ('recallscore_nb.cli.handlers', 'recallscore_nb.core.rules',"
            " 'recallscore_nb.execution.api', 'pandas', 'isoduration', 'arrow')"
            " if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "[]"
