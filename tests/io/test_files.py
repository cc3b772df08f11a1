"""Files at the edges: atomic writes (links, pipes, modes, failures), regular-file inputs, the one SHA-256, write_file."""

from __future__ import annotations

from pathlib import Path

import pytest

from recallscore_nb.core.errors import RecallScoreError
from recallscore_nb.io.files import atomic_write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_atomic_write_failure_mid_write():
    Path("t.txt").write_text("old")

    def half(tmp):
        Path(tmp).write_text("half")
        raise OSError("disk full")

    with pytest.raises(RecallScoreError, match="t.txt: cannot write"):
        atomic_write("t.txt", half)
    assert Path("t.txt").read_text() == "old"
    assert [p.name for p in Path(".").iterdir()] == ["t.txt"]
