"""Every command's output: a pipe is refused, and an output that is one of the command's own
inputs, whatever its spelling or link, is refused before anything is written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from tests.conftest import run_cli as run


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def one_line_error(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("recallscore: error: "), err
    return lines[0].removeprefix("recallscore: error: ")


def test_perturb_refuses_a_pipe_as_out(capsys):
    os.mkfifo("draft.json")
    code, out, err = run(capsys, "perturb", "--out", "draft.json")
    assert (code, out) == (2, "")
    assert one_line_error(err) == "draft.json: not a regular file (a pipe); give a file to write"
    assert stat.S_ISFIFO(os.lstat("draft.json").st_mode)


def test_perturb_out_dash_writes_the_draft_to_stdout(capsys):
    """``-`` is standard output, as for every command that takes it; no file named ``-``."""
    code, out, err = run(capsys, "perturb", "--out", "-", "--seed", "3")
    assert code == 0 and os.listdir(".") == []
    assert err.startswith("skipped ")
    code, _, _ = run(capsys, "perturb", "--out", "draft.json", "--seed", "3")
    assert code == 0 and out == Path("draft.json").read_text(encoding="utf-8")
    assert out.startswith("{") and out.endswith("}\n")


# --- an output that is one of the command's inputs ----------------------------------------
def _copy(source, name) -> Path:
    Path(name).write_bytes(Path(source).read_bytes())
    return Path(name)


def test_report_refuses_to_write_over_its_benchmark(capsys):
    bench = _copy(DEFAULT_BENCHMARK, "bench.json")
    before = bench.read_bytes()
    code, out, err = run(capsys, "report", "bench.json", "--schema", DEFAULT_SCHEMA_PATH,
                         "--out", "bench.json")
    assert (code, out) == (2, "")
    assert one_line_error(err) == ("--out bench.json is the benchmark input bench.json: writing "
                                   "it would overwrite the input; choose another file")
    assert bench.read_bytes() == before and sorted(os.listdir(".")) == ["bench.json"]


def test_report_refuses_to_write_over_its_schema_through_a_link(capsys):
    schema = _copy(DEFAULT_SCHEMA_PATH, "scoring.json")
    os.symlink("scoring.json", "link.json")
    before = schema.read_bytes()
    code, out, err = run(capsys, "report", "--schema", "scoring.json", "--out", "./link.json")
    assert (code, out) == (2, "")
    assert one_line_error(err).startswith("--out ./link.json is the schema input scoring.json:")
    assert schema.read_bytes() == before


def test_report_refuses_to_write_over_its_attempts(capsys):
    Path("a.json").write_text("not read")
    code, _, err = run(capsys, "report", "--attempts", "a.json", "--schema", DEFAULT_SCHEMA_PATH,
                       "--out", "a.json")
    assert code == 2
    assert one_line_error(err).startswith("--out a.json is the attempts input a.json:")
    assert Path("a.json").read_text() == "not read"


def test_perturb_refuses_to_write_over_its_benchmark(capsys):
    bench = _copy(DEFAULT_BENCHMARK, "bench.json")
    before = bench.read_bytes()
    code, out, err = run(capsys, "perturb", "bench.json", "--out", "bench.json")
    assert (code, out) == (2, "")
    assert one_line_error(err) == ("--out bench.json is the benchmark input bench.json: writing "
                                   "it would overwrite the input; choose another file")
    assert bench.read_bytes() == before


def test_perturb_refuses_to_write_over_its_schema(capsys):
    schema = _copy(DEFAULT_SCHEMA_PATH, "scoring.json")
    before = schema.read_bytes()
    code, _, err = run(capsys, "perturb", "--schema", "scoring.json", "--out", "scoring.json")
    assert code == 2
    assert one_line_error(err).startswith("--out scoring.json is the schema input scoring.json:")
    assert schema.read_bytes() == before


def test_score_refuses_to_write_over_its_attempts(capsys):
    Path("a.csv").write_text("id,attempt\nA,copper token\n")
    code, out, err = run(capsys, "score", "--attempts", "a.csv", "--out", "a.csv")
    assert (code, out) == (2, "")
    assert one_line_error(err) == ("--out a.csv is the attempts input a.csv: writing it would "
                                   "overwrite the input; choose another file")
    assert Path("a.csv").read_text() == "id,attempt\nA,copper token\n"


def test_score_refuses_to_write_over_its_items_file(capsys):
    items = '{"item": "q1", "referenceAnswer": "red kite"}\n'
    Path("items.jsonl").write_text(items)
    Path("a.csv").write_text("item,attempt\nq1,red kite\n")
    code, _, err = run(capsys, "score", "items.jsonl", "--attempts", "a.csv", "--out", "items.jsonl")
    assert code == 2
    assert one_line_error(err).startswith("--out items.jsonl is the items input items.jsonl:")
    assert Path("items.jsonl").read_text() == items
