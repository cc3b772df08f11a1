"""The one publish-and-lock mechanism of every writer: a set is published whole or not at all,
a stale member goes only after publishing, a second writer waits and is told who holds the
output, and what a killed writer left is undone by the next one."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from recallscore_nb.core.errors import OutputWriteError, UsageError
from recallscore_nb.io import output_sets
from recallscore_nb.io.output_sets import OutputSet, file_set, lock_file

MEMBERS = ["a.csv", "b.csv", "c.csv"]


def previous(folder, names=("a.csv", "b.csv"), text="old"):
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text(f"{text} {name}\n")
    (folder / "mine.txt").write_text("not ours\n")
    return snapshot(folder)


def snapshot(folder):
    """Every file below ``folder`` but those of a live writer's work folder."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()
            and not p.relative_to(folder).parts[0].startswith(".recallscore-work-")}


def test_a_set_is_published_whole_and_its_stale_member_removed_after(tmp_path):
    out = tmp_path / "out"
    previous(out)
    with OutputSet(out, MEMBERS) as outputs:
        outputs.write_text("a.csv", "new a\n")
        outputs.write_text("c.csv", "new c\n")
        assert snapshot(out)["b.csv"] == b"old b.csv\n"  # nothing moves before publishing
        assert (out / "a.csv").read_text() == "old a.csv\n"
    assert snapshot(out) == {"a.csv": b"new a\n", "c.csv": b"new c\n", "mine.txt": b"not ours\n"}


def test_an_error_inside_the_block_leaves_the_previous_set_whole(tmp_path):
    out = tmp_path / "out"
    before = previous(out)
    with pytest.raises(KeyboardInterrupt):
        with OutputSet(out, MEMBERS) as outputs:
            outputs.write_text("a.csv", "new a\n")
            raise KeyboardInterrupt
    assert snapshot(out) == before
    assert sorted(p.name for p in out.iterdir()) == ["a.csv", "b.csv", "mine.txt"]


def test_a_failed_write_names_the_output_and_keeps_the_previous_set(tmp_path):
    out = tmp_path / "out"
    before = previous(out)

    def full(tmp):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(OutputWriteError) as caught:
        with OutputSet(out, MEMBERS) as outputs:
            outputs.write_text("a.csv", "new a\n")
            outputs.write("b.csv", full)
    assert str(caught.value) == (f"{out / 'b.csv'}: cannot write (No space left on device); "
                                 "the previous outputs are unchanged")
    assert snapshot(out) == before


def test_a_failed_write_through_path_names_the_output_not_the_work_folder(tmp_path):
    from recallscore_nb.io.files import atomic_write

    before = previous(tmp_path, ["s.csv"])

    def full(tmp):
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    with pytest.raises(OutputWriteError) as caught:
        with file_set(tmp_path / "s.csv") as outputs:
            atomic_write(outputs.path("s.csv"), full)
    assert str(caught.value) == (f"{tmp_path / 's.csv'}: cannot write (File too large); "
                                 "the previous outputs are unchanged")
    assert snapshot(tmp_path) == before


def test_a_publish_that_fails_midway_puts_back_what_it_replaced(tmp_path, monkeypatch):
    out = tmp_path / "out"
    before = previous(out)
    real_move, moves = output_sets._move, []

    def failing_move(src, dst):
        moves.append(dst.name)
        if dst.name == "b.csv":
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(dst))
        real_move(src, dst)

    monkeypatch.setattr(output_sets, "_move", failing_move)
    with pytest.raises(OutputWriteError, match="the previous outputs are unchanged"):
        with OutputSet(out, MEMBERS) as outputs:
            outputs.write_text("a.csv", "new a\n")
            outputs.write_text("b.csv", "new b\n")
    assert moves[:2] == ["a.csv", "b.csv"]  # a.csv was replaced, then put back
    assert snapshot(out) == before


KILLED_IN_PUBLISH = textwrap.dedent("""
    import os, sys
    from recallscore_nb.io import output_sets
    real = output_sets._move
    def move(src, dst):
        real(src, dst)
        if dst.name == {after!r}:
            os._exit(9)  # killed between two moves of the publish
    output_sets._move = move
    with output_sets.OutputSet(sys.argv[1], ["a.csv", "b.csv", "c.csv"]) as outputs:
        for name in ("a.csv", "b.csv"):
            outputs.write_text(name, "new " + name + "\\n")
""")


@pytest.mark.parametrize("after", ["a.csv", "b.csv"])
def test_a_publish_killed_midway_is_undone_by_the_next_writer(tmp_path, after):
    out = tmp_path / "out"
    before = previous(out, ["a.csv", "c.csv"])
    script = KILLED_IN_PUBLISH.format(after=after)
    code = subprocess.run([sys.executable, "-c", script, out]).returncode
    assert code == 9
    assert snapshot(out) != before  # the kill left a mix of the two sets
    work = [p for p in out.iterdir() if p.name.startswith(".recallscore-work-set-")]
    assert len(work) == 1
    with pytest.raises(RuntimeError):
        with OutputSet(out, MEMBERS):  # the next writer, which then fails itself
            assert not work[0].exists()
            assert snapshot(out) == before
            raise RuntimeError
    assert snapshot(out) == before


def test_a_committed_publish_is_not_undone(tmp_path):
    out = tmp_path / "out"
    previous(out)
    with OutputSet(out, MEMBERS) as outputs:
        for name in ("a.csv", "b.csv"):
            outputs.write_text(name, f"new {name}\n")
    published = snapshot(out)
    work = out / ".recallscore-work-set-dead"
    (work / ".backup").mkdir(parents=True)
    (work / ".lock").write_text("")
    (work / ".backup" / "a.csv").write_text("older a\n")  # left without a journal: committed
    output_sets.remove_stale_work(out)
    assert not work.exists() and snapshot(out) == published


def test_a_second_writer_waits_then_is_told_who_holds_the_output(tmp_path):
    out = tmp_path / "out"
    with OutputSet(out, MEMBERS):
        started = time.monotonic()
        with pytest.raises(UsageError) as caught:
            with OutputSet(out, MEMBERS, wait=0.3):
                pass
        assert time.monotonic() - started >= 0.3
    assert str(caught.value).startswith(f"{out} is being written by another recallscore run "
                                        f"(pid {os.getpid()} on ")
    assert str(caught.value).endswith("waited 0.3 s: let it finish, then run again")


def test_one_file_locks_its_name_not_its_folder(tmp_path):
    with file_set(tmp_path / "one.csv") as first:
        first.write_text("one.csv", "1\n")
        with file_set(tmp_path / "two.csv", wait=0) as second:  # another file: no wait
            second.write_text("two.csv", "2\n")
        with pytest.raises(UsageError, match="being written by another recallscore run"):
            with file_set(tmp_path / "one.csv", wait=0):
                pass
    assert (tmp_path / "one.csv").read_text() == "1\n"
    assert (tmp_path / "two.csv").read_text() == "2\n"
    assert lock_file(tmp_path / "one.csv") != lock_file(tmp_path)


def test_what_dead_writers_left_is_removed_and_live_writers_are_kept(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    old = time.time() - output_sets.STALE_AGE - 5
    dead = out / ".recallscore-work-set-dead1"
    dead.mkdir()
    (dead / ".lock").write_text("")
    (dead / "a.csv").write_text("half")
    stale_tmp = out / ".a.csv.0123abcd.tmp"  # an older version's temporary file, abandoned
    stale_tmp.write_text("half")
    os.utime(stale_tmp, (old, old))
    young_tmp = out / ".b.csv.89abcdef.tmp"  # may be a live writer's
    young_tmp.write_text("half")
    other = out / ".notes.txt.0123abcd.tmp"  # not a member's: not ours to judge
    other.write_text("x")
    os.utime(other, (old, old))
    with OutputSet(out, MEMBERS) as live:
        with pytest.raises(UsageError):
            with OutputSet(out, MEMBERS, wait=0):
                pass
        assert live._work.path.exists()  # the waiter removed nothing of the live writer's
    assert sorted(p.name for p in out.iterdir()) == [".b.csv.89abcdef.tmp",
                                                    ".notes.txt.0123abcd.tmp"]


def test_an_input_that_is_a_member_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "out"
    before = previous(out)
    with pytest.raises(UsageError) as caught:
        with OutputSet(out, MEMBERS, inputs={"judgments": out / "b.csv"}):
            pytest.fail("entered")
    assert str(caught.value) == (f"--out-dir {out / 'b.csv'} is the judgments input "
                                 f"{out / 'b.csv'}: writing it would overwrite the input; "
                                 "choose another file")
    assert snapshot(out) == before


@pytest.mark.parametrize("where", ["root", "protected", "inside protected", "under a file"])
def test_places_no_set_may_be_written_into(tmp_path, where):
    guarded = tmp_path / "notebooks"
    guarded.mkdir()
    (tmp_path / "file").write_text("x")
    folder = {"root": "/", "protected": guarded, "inside protected": guarded / "new",
              "under a file": tmp_path / "file" / "out"}[where]
    with pytest.raises(UsageError) as caught:
        with OutputSet(folder, MEMBERS, protected={"the workbook's notebooks": guarded}):
            pytest.fail("entered")
    message = str(caught.value)
    assert message.startswith(f"--out-dir {folder}")
    assert {"root": "the filesystem root cannot be an output folder",
            "protected": f"is the workbook's notebooks ({guarded})",
            "inside protected": f"is in the workbook's notebooks ({guarded})",
            "under a file": "cannot write here (Not a directory)"}[where] in message
    assert sorted(p.name for p in guarded.iterdir()) == []


def test_a_replaced_file_keeps_its_permission_bits(tmp_path):
    target = tmp_path / "s.csv"
    target.write_text("old\n")
    target.chmod(0o600)
    with file_set(target) as outputs:
        outputs.write_text("s.csv", "new\n")
    assert (target.read_text(), target.stat().st_mode & 0o777) == ("new\n", 0o600)


def test_a_link_is_written_through(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    with file_set(link) as outputs:
        outputs.write_text(outputs.members[0], "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_a_file_that_cannot_be_put_back_keeps_its_previous_version_beside(tmp_path,
                                                                          monkeypatch):
    """When the rollback itself fails, the previous version must outlive the work folder
    (it was removed with it)."""
    out = tmp_path / "out"
    previous(out)
    real_move = output_sets._move

    def failing_move(src, dst):
        if dst.name == "b.csv" or ".backup" in src.parts:  # b.csv's move, then every put-back
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_move(src, dst)

    monkeypatch.setattr(output_sets, "_move", failing_move)
    with pytest.raises(OutputWriteError) as caught:
        with OutputSet(out, MEMBERS) as outputs:
            outputs.write_text("a.csv", "new a\n")
            outputs.write_text("b.csv", "new b\n")
    kept = [p for p in out.iterdir() if p.name.startswith("recallscore-backup-")]
    assert str(caught.value) == (f"{out}: cannot publish (Input/output error); 1 previous "
                                 f"file(s) could not be put back, e.g. {out / 'a.csv'}; their "
                                 f"previous versions are in {kept[0]}")
    assert (kept[0] / "a.csv").read_text() == "old a.csv\n"


# --- no lock file stays in the temporary folder (issue 28) -----------------------------------
def test_writers_leave_no_lock_file_in_the_temporary_folder(tmp_path, monkeypatch):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    for i in range(30):
        output_sets.write_one(tmp_path / "out" / f"{i % 3}.csv", f"{i}\n")
        with OutputSet(tmp_path / "set", MEMBERS) as outputs:
            outputs.write_text("a.csv", f"{i}\n")
        with output_sets.OutputLock(tmp_path / "folder", wait=0):
            assert [p.name for p in temporary.iterdir()] == [lock_file(tmp_path / "folder").name]
    assert os.listdir(temporary) == []
    assert (tmp_path / "out" / "2.csv").read_text() == "29\n"


def test_a_command_leaves_no_lock_file_and_removes_those_older_runs_left(tmp_path):
    """A real ``score --out`` in its own temporary folder: its lock file goes with it, and so
    do those of older versions and of writers killed a while ago (nobody holds them)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    old = time.time() - output_sets.STALE_AGE - 5
    for i in range(3):
        left = temporary / f"recallscore-lock-{i:032x}.lock"
        left.write_text("")
        os.utime(left, (old, old))
    (temporary / "recallscore-lock-young.lock").write_text("")  # maybe a live writer's
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-m", "recallscore_nb", "score", "--out",
                          str(tmp_path / "s.csv")], cwd=root, capture_output=True, text=True,
                         env=os.environ | {"TMPDIR": str(temporary)}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "s.csv").is_file()
    assert os.listdir(temporary) == ["recallscore-lock-young.lock"]
