"""What the tests of scored reports share: running `recallscore report`, the shipped report
written once per module, inputs copied for a test to edit, and the counts made by hand."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from recallscore_nb._version import __version__
from recallscore_nb.cli.main import main
from recallscore_nb.io._jsonschema import Draft202012Validator
from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from recallscore_nb.io.reports.schema import report_schema
from recallscore_nb.workbook.paths import REPO_ROOT
from tests.conftest import run_cli as run, write_benchmark

V = __version__
FACTS = ["material", "object", "location", "timing"]
IDS = [f"R{i:02d}" for i in range(1, 13)]
NOT_PRESENT = {"R09": ("material", "missing"), "R10": ("location", "contradicted"),
               "R11": ("timing", "contradicted"), "R12": ("material", "contradicted")}
WEIGHTED = {**{i: 1.0 for i in IDS[:8]}, "R09": 5 / 6, "R10": 3 / 6, "R11": 3 / 6,
            "R12": 4.5 / 6}
DOCS_EXAMPLE = REPO_ROOT / "docs" / "report-example.json"


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def rel(path, folder=".") -> str:
    return Path(os.path.relpath(Path(path).resolve(), Path(folder).resolve())).as_posix()


def report(capsys, *argv, out="report.json", schema=DEFAULT_SCHEMA_PATH):
    """Run `recallscore report`; return (exit code, stdout, stderr)."""
    return run(capsys, "report", *argv, "--schema", schema, "--out", out)


def one_line_error(err: str) -> str:
    """The error's one line (and at most the count of the others), no traceback."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines[0].startswith("recallscore: error: ")
    assert len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("recallscore: (")), err
    return lines[0].removeprefix("recallscore: error: ")


def validator() -> Draft202012Validator:
    return Draft202012Validator(report_schema())


def _edit(path, edit):
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    edit(document)
    Path(path).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _write_inputs_beside(folder: Path) -> Path:
    """The shipped benchmark and schema copied into ``folder``; returns the report path there."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(DEFAULT_BENCHMARK, folder / "bench.json")
    shutil.copy(DEFAULT_SCHEMA_PATH, folder / "scoring.json")
    return folder / "r.json"


VARIED = [
    ("q1", "The copper token is not in the west drawer before the museum opens."),
    ("q2", "The silver token goes in the east drawer after the museum opens."),
    ("naïve \"id\"", "Le jeton de cuivre — copper token — west drawer, before museum opens ☕"),
    ("", ""),
    ("q5", "copper copper token token west drawer drawer before museum opens opens"),
    ("q6", "The copper token never goes in the west drawer before the museum opens."),
    ("q7", "The COPPER token goes in the West-Drawer before the museum opens!!"),
    ("q8", "token"),
    ("tab\tid", "The copper token goes in the west drawer before the museum opens."),
    ("q10", "The copper token goes in the west drawer before the museum opens."),
]


def _null_attempt_benchmark():
    data = json.loads(DEFAULT_BENCHMARK.read_text(encoding="utf-8"))
    data["rows"][2]["attempt"] = None
    write_benchmark(Path("in"), data=data)
    return "in/bench.json"


# --- fixtures: the conftest.py of tests/io and tests/execution import them ---------------


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The shipped benchmark scored under the shipped schema, written in a folder of its own:
    (parsed report, its text, its folder)."""
    folder = tmp_path_factory.mktemp("shipped") / "out"
    assert main(["report", "--schema", str(DEFAULT_SCHEMA_PATH),
                 "--out", str(folder / "r.json")]) == 0
    text = (folder / "r.json").read_text(encoding="utf-8")
    return json.loads(text), text, folder


@pytest.fixture
def copied_inputs(tmp_path):
    """The shipped benchmark and schema copied into ``inputs/``, so a test may edit them."""
    (tmp_path / "inputs").mkdir()
    bench = Path(shutil.copy(DEFAULT_BENCHMARK, tmp_path / "inputs" / "bench.json"))
    schema = Path(shutil.copy(DEFAULT_SCHEMA_PATH, tmp_path / "inputs" / "scoring.json"))
    return bench, schema
