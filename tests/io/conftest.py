"""Fixtures the tests of scored reports share (their helpers are in ``tests/report_fixtures.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH


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
