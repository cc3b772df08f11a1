"""A lock whose file goes with its release (issue 28: 1,608 lock files seen in one /tmp): no
file stays after any number of takes, and the lock still excludes, across threads and
processes, and in the classic race of a waiter holding the removed file open."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from recallscore_nb.io.path_locks import PathLock, remove_stale_locks


def test_a_hundred_takes_leave_no_file(tmp_path):
    lock = PathLock(tmp_path / "x.lock")
    for _ in range(100):
        assert lock.acquire(timeout=0)
        assert (tmp_path / "x.lock").is_file() and lock.held
        lock.release()
    assert os.listdir(tmp_path) == [] and not lock.held


def test_a_held_lock_refuses_a_second_taker_and_shows_what_its_holder_wrote(tmp_path):
    first, second = PathLock(tmp_path / "x.lock"), PathLock(tmp_path / "x.lock")
    assert first.acquire(timeout=0)
    first.write("pid 1\n")
    assert not second.acquire(timeout=0.2) and second.read() == "pid 1\n"
    first.release()
    assert second.read() == "" and second.acquire(timeout=0)
    second.release()
    assert os.listdir(tmp_path) == []


def test_a_waiter_holding_the_removed_file_open_does_not_take_the_lock(tmp_path):
    """The race of removing a lock file: B opened the file before A removed it; C then creates
    a new one and holds it. B locks the removed inode, sees the name lead elsewhere, and does
    not count itself a holder."""
    path = tmp_path / "x.lock"
    a, b, c = PathLock(path), PathLock(path), PathLock(path)
    assert a.acquire(timeout=0)
    opened_before = os.open(path, os.O_RDWR)  # B's open, before A lets go
    a.release()
    assert c.acquire(timeout=0)  # a new file, a new inode
    b._open = lambda **kwargs: os.dup(opened_before)
    assert b._try() == "again" and not b.held  # flock on the old inode won, and refused
    del b._open
    assert not b.acquire(timeout=0.1)  # C holds the lock
    os.close(opened_before)
    c.release()
    assert os.listdir(tmp_path) == []


def test_a_dead_holders_file_is_taken_and_removed_by_the_next_taker(tmp_path):
    (tmp_path / "x.lock").write_text('{"pid": 1}\n')  # kill -9 left it; its flock went with it
    lock = PathLock(tmp_path / "x.lock")
    assert lock.acquire(timeout=0)
    lock.release()
    assert os.listdir(tmp_path) == []


def crowd(path, counter, takes: int) -> None:
    """``takes`` times: take the lock, create the marker only one holder may have, add one to
    the counter by reading and writing it back, and let go."""
    lock = PathLock(path)
    marker = path.with_name("inside")
    for _ in range(takes):
        assert lock.acquire(timeout=60)
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))  # two inside: fails
            count = int(counter.read_text())
            time.sleep(0.0005)
            counter.write_text(str(count + 1))
            marker.unlink()
        finally:
            lock.release()


def test_threads_exclude_each_other(tmp_path):
    (tmp_path / "counter").write_text("0")
    errors = []

    def run():
        try:
            crowd(tmp_path / "x.lock", tmp_path / "counter", 50)
        except BaseException as error:  # noqa: BLE001 - asserted below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and (tmp_path / "counter").read_text() == "200"
    assert sorted(os.listdir(tmp_path)) == ["counter"]


def test_processes_exclude_each_other(tmp_path):
    (tmp_path / "counter").write_text("0")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from tests.io.test_path_locks import crowd
        crowd(Path({str(tmp_path / 'x.lock')!r}), Path({str(tmp_path / 'counter')!r}), 40)
    """)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runs = [subprocess.Popen([sys.executable, "-c", script], cwd=root, stderr=subprocess.PIPE,
                             text=True) for _ in range(4)]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    assert (tmp_path / "counter").read_text() == "160"
    assert sorted(os.listdir(tmp_path)) == ["counter"]


def test_stale_lock_files_are_removed_and_held_young_or_other_ones_kept(tmp_path):
    old = time.time() - 120
    for name in ("recallscore-lock-dead.lock", "recallscore-lock-held.lock",
                 "recallscore-lock-young.lock", "someone-else.lock"):
        (tmp_path / name).write_text("")
        if name != "recallscore-lock-young.lock":
            os.utime(tmp_path / name, (old, old))
    held = PathLock(tmp_path / "recallscore-lock-held.lock")
    assert held.acquire(timeout=0)
    removed = remove_stale_locks(tmp_path, "recallscore-lock-*.lock", older_than=60)
    assert [p.name for p in removed] == ["recallscore-lock-dead.lock"]
    assert sorted(os.listdir(tmp_path)) == ["recallscore-lock-held.lock",
                                             "recallscore-lock-young.lock", "someone-else.lock"]
    held.release()
    assert remove_stale_locks(tmp_path / "missing", "*", older_than=0) == []


def test_taking_a_held_lock_twice_through_one_object_is_a_bug(tmp_path):
    lock = PathLock(tmp_path / "x.lock")
    assert lock.acquire(timeout=0)
    with pytest.raises(RuntimeError, match="held already"):
        lock.acquire(timeout=0)
    lock.release()
    lock.release()  # a second release does nothing
