"""Outputs (issue 9): what a writer does to the file it is told to write.

``atomic_write`` refuses an output that is not a regular file (a pipe, a device, a folder),
writes through a symbolic link onto its target (the link stays a link), keeps an existing
file's permissions and gives a new file what ``open`` would (0666 less the umask). Every
command refuses an ``--out`` that is one of its own inputs, whatever the spelling.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.files import atomic_write
from recallscore_nb.io.data import DEFAULT_BENCHMARK
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def run(capsys, *argv) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("recallscore: error: "), err
    return lines[0].removeprefix("recallscore: error: ")


def write_text(text: str):
    return lambda tmp: Path(tmp).write_text(text, encoding="utf-8")


def mode_of(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# --- atomic_write -------------------------------------------------------------------------
def test_a_pipe_is_refused_and_left_a_pipe():
    os.mkfifo("pipe.json")
    with pytest.raises(UsageError) as caught:
        atomic_write("pipe.json", write_text("x"))
    assert str(caught.value) == "pipe.json: not a regular file (a pipe); give a file to write"
    assert stat.S_ISFIFO(os.lstat("pipe.json").st_mode)
    assert sorted(os.listdir(".")) == ["pipe.json"]  # no temporary file left behind


def test_a_link_to_a_pipe_is_refused():
    os.mkfifo("pipe")
    os.symlink("pipe", "link.json")
    with pytest.raises(UsageError, match=r"^link\.json: not a regular file \(a pipe\)"):
        atomic_write("link.json", write_text("x"))
    assert stat.S_ISFIFO(os.lstat("pipe").st_mode) and os.path.islink("link.json")


def test_a_folder_is_refused():
    Path("out.json").mkdir()
    with pytest.raises(UsageError, match=r"^out\.json: not a regular file \(a folder\)"):
        atomic_write("out.json", write_text("x"))


def test_perturb_refuses_a_pipe_as_out(capsys):
    os.mkfifo("draft.json")
    code, out, err = run(capsys, "perturb", "--out", "draft.json")
    assert (code, out) == (2, "")
    assert one_line_error(err) == "draft.json: not a regular file (a pipe); give a file to write"
    assert stat.S_ISFIFO(os.lstat("draft.json").st_mode)


def test_a_symbolic_link_is_written_through_and_stays_a_link():
    Path("data").mkdir()
    Path("data/target.txt").write_text("old")
    os.symlink("data/target.txt", "link.txt")
    atomic_write("link.txt", write_text("new"))
    assert os.path.islink("link.txt") and os.readlink("link.txt") == "data/target.txt"
    assert Path("data/target.txt").read_text() == "new"
    assert sorted(os.listdir("data")) == ["target.txt"] and sorted(os.listdir(".")) == ["data", "link.txt"]


def test_a_chain_of_links_is_written_through_to_the_last_target():
    Path("target.txt").write_text("old")
    os.symlink("target.txt", "one.txt")
    os.symlink("one.txt", "two.txt")
    atomic_write("two.txt", write_text("new"))
    assert os.path.islink("two.txt") and os.path.islink("one.txt")
    assert Path("target.txt").read_text() == "new"


def test_a_dangling_link_creates_its_target():
    Path("data").mkdir()
    os.symlink("data/new.txt", "link.txt")
    atomic_write("link.txt", write_text("made"))
    assert os.path.islink("link.txt") and Path("data/new.txt").read_text() == "made"


def test_an_existing_file_keeps_its_mode():
    Path("secret.txt").write_text("old")
    os.chmod("secret.txt", 0o600)
    atomic_write("secret.txt", write_text("new"))
    assert (Path("secret.txt").read_text(), mode_of("secret.txt")) == ("new", 0o600)


def test_a_linked_file_keeps_its_mode():
    Path("secret.txt").write_text("old")
    os.chmod("secret.txt", 0o640)
    os.symlink("secret.txt", "link.txt")
    atomic_write("link.txt", write_text("new"))
    assert os.path.islink("link.txt")
    assert (Path("secret.txt").read_text(), mode_of("secret.txt")) == ("new", 0o640)


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_what_open_would_give(umask, expected):
    old = os.umask(umask)
    try:
        atomic_write("new.txt", write_text("x"))
        with open("plain.txt", "w"):
            pass
    finally:
        os.umask(old)
    assert mode_of("new.txt") == expected == mode_of("plain.txt")


def test_a_failed_write_leaves_the_target_and_no_temporary_file():
    Path("out.txt").write_text("kept")

    def fail(tmp):
        Path(tmp).write_text("half")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        atomic_write("out.txt", fail)
    assert Path("out.txt").read_text() == "kept" and sorted(os.listdir(".")) == ["out.txt"]


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
