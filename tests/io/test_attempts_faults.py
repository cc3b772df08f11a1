"""Faults in reading attempts files found by issue 9: devices and folders read without end,
standard input that is a device (the faults of the formats themselves are tested with the
strict readers, ``test_strict_readers.py``).

Every test runs in ``tmp_path``, so messages name the file as given ("a.csv").
"""

from __future__ import annotations

import os

import pytest

from recallscore_nb.io.attempts import read_attempts
from tests.attempts_fixtures import read_error

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


# --- regular files only ----------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_device_is_refused_not_read_without_end(suffix):
    os.symlink("/dev/zero", f"zero{suffix}")
    err = read_error(f"zero{suffix}")
    assert str(err) == f"zero{suffix}: not a regular file (a character device); give a file"


def test_a_folder_is_refused():
    os.mkdir("d.csv")
    assert str(read_error("d.csv")) == "d.csv: not a regular file (a folder); give a file"


# --- standard input -----------------------------------------------------------------------------
def test_stdin_that_is_a_device_is_refused(monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(open("/dev/zero", "rb")))
    err = read_error("-")
    assert str(err) == ("<stdin>: not a file or a pipe (a character device); give a file or "
                        "pipe one in")


def test_stdin_that_is_a_pipe_is_read(monkeypatch):
    import io
    import sys

    read, write = os.pipe()
    os.write(write, b"id,attempt\n007,x\n")
    os.close(write)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(os.fdopen(read, "rb")))
    assert read_attempts("-")["id"].tolist() == ["007"]
