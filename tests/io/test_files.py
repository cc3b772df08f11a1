"""Files at the edges: atomic writes (links, pipes, modes, failures), regular-file inputs, the one
SHA-256, write_file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from recallscore_nb.core.errors import RecallScoreError, UsageError
from recallscore_nb.io.files import atomic_write


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_atomic_write_failure_mid_write():
    Path("t.txt").write_text("old")

    def half(tmp):
        Path(tmp).write_text("half")
        raise OSError("disk full")

    with pytest.raises(RecallScoreError, match="t.txt: cannot write"):
        atomic_write("t.txt", half)
    assert Path("t.txt").read_text() == "old"
    assert [p.name for p in Path(".").iterdir()] == ["t.txt"]


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


# --- write_file, read_input, the one SHA-256 ---------------------------------------------------
def test_write_file_writes_text_as_utf8_and_bytes_as_given(tmp_path):
    from recallscore_nb.io.files import write_file

    text = write_file(tmp_path / "sub" / "t.md", "é\r\nline\n")
    assert text == tmp_path / "sub" / "t.md" and text.read_bytes() == "é\r\nline\n".encode()
    assert write_file(tmp_path / "b.png", b"\x89PNG").read_bytes() == b"\x89PNG"


def test_write_file_runs_the_check_before_it_replaces(tmp_path):
    from recallscore_nb.io.files import write_file

    target = tmp_path / "draft.json"
    target.write_text("old")
    seen = []

    def refuse(tmp):
        seen.append(Path(tmp).read_text())
        raise RuntimeError("does not reproduce")

    with pytest.raises(RuntimeError, match="does not reproduce"):
        write_file(target, "new", check=refuse)
    assert seen == ["new"] and target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["draft.json"]


def test_sha256_of_bytes_and_of_a_file_agree(tmp_path):
    import hashlib

    from recallscore_nb.io.files import sha256

    path = tmp_path / "data.bin"
    path.write_bytes(b"x" * 300_000)
    assert sha256(path) == sha256(path.read_bytes()) == hashlib.sha256(b"x" * 300_000).hexdigest()
    assert sha256(str(path)) == sha256(path)


def test_read_input_refuses_what_is_not_a_regular_file(tmp_path):
    from recallscore_nb.core.errors import BenchmarkFormatError
    from recallscore_nb.io.files import read_input, refuse_output_among_inputs

    with pytest.raises(BenchmarkFormatError, match="not a regular file \\(a folder\\); give a file"):
        read_input(tmp_path, BenchmarkFormatError)
    (tmp_path / "a.json").write_text("{}")
    assert read_input(tmp_path / "a.json") == b"{}"
    refuse_output_among_inputs("-", {"benchmark": tmp_path / "a.json"})  # stdout never clashes
    with pytest.raises(UsageError, match="is the benchmark input"):
        refuse_output_among_inputs(tmp_path / "x" / ".." / "a.json", {"benchmark": tmp_path / "a.json"})
