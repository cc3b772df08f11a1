"""What git sees changed under reports/ since the last commit, for `recallscore check`."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from recallscore_nb.workbook.committed import changed_since_commit

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(folder, *args):
    subprocess.run(["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t.invalid",
                    *args], check=True, capture_output=True)


def test_files_changed_added_and_removed_since_the_last_commit_are_named(tmp_path):
    """Failure 2 of issue 21: `recallscore check` compared a fresh run with a reports/ that
    `make reports` had just rewritten, and said nothing of it."""
    reports = tmp_path / "reports"
    (reports / "tables").mkdir(parents=True)
    for name in ("a.csv", "b.csv", "c.csv"):
        (reports / "tables" / name).write_text("x\n")
    (tmp_path / "notes.txt").write_text("elsewhere\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "reports")
    assert changed_since_commit(tmp_path) == []
    (reports / "tables" / "a.csv").write_text("y\n")
    (reports / "tables" / "b.csv").unlink()
    (reports / "tables" / "new.csv").write_text("z\n")
    (tmp_path / "notes.txt").write_text("not under reports/\n")
    assert changed_since_commit(tmp_path) == ["modified: reports/tables/a.csv",
                                              "deleted: reports/tables/b.csv",
                                              "untracked: reports/tables/new.csv"]


def test_outside_a_git_checkout_nothing_is_named(tmp_path):
    (tmp_path / "reports").mkdir()
    assert changed_since_commit(tmp_path) == []
    assert changed_since_commit(None) == []
