"""Publishing keeps the old outputs through any failure: replace, then remove what a notebook no
longer writes, and put everything back when a move fails."""

from __future__ import annotations

import errno
import json
import os
import time

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.workbook import publishing, runner as workbook
from tests.workbook.books import hashes, leftovers, notebook


# --- publishing keeps the old outputs through any failure (9.1) ------------------------------
def _failing_replace(monkeypatch, *, after: int, error: int, once: bool) -> list:
    """os.replace into the output folder fails with ``error`` after ``after`` moves succeeded
    (every time, or ``once``); moves inside work folders (the sessions' writes) always work."""
    real = os.replace
    moves, failures = [], []

    def replace(src, dst, *args, **kwargs):
        if ".recallscore-" not in str(dst):
            if len(moves) >= after and not (once and failures):
                failures.append(dst)
                raise OSError(error, os.strerror(error), str(src), None, str(dst))
            moves.append(dst)
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return failures


@pytest.mark.parametrize("after, error, once", [(0, errno.EXDEV, False), (3, errno.ENOSPC, True)],
                         ids=["cross-device-every-move", "disk-full-midway"])
def test_a_failed_publish_leaves_every_old_output_as_it_was(book, monkeypatch, capsys,
                                                           after, error, once):
    out = book / "mine"
    assert main(["run", "--output-dir", str(out)]) == 0
    before = hashes(out)
    failures = _failing_replace(monkeypatch, after=after, error=error, once=once)
    assert main(["run", "-p", "label", "changed", "--output-dir", str(out)]) == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert f"could not publish into {out}" in err and os.strerror(error) in err
    assert "the previous outputs are unchanged" in err
    assert failures
    monkeypatch.undo()
    assert hashes(out) == before
    assert leftovers(out) == []


def test_a_move_across_filesystems_inside_the_output_folder_is_copied(book, monkeypatch):
    out = book / "mine"
    workbook.run_workbook(output_dir=out, progress=False)
    failures = _failing_replace(monkeypatch, after=0, error=errno.EXDEV, once=True)
    workbook.run_workbook(["01"], [("label", "changed")], output_dir=out, progress=False)
    monkeypatch.undo()
    assert failures and "changed" in (out / "tables" / "01_first__values.csv").read_text()
    assert leftovers(out) == []


def test_publishing_replaces_then_removes_what_a_notebook_no_longer_writes(book):
    out = book / "mine"
    workbook.run_workbook(output_dir=out, progress=False)
    stale = out / "tables" / "01_first__gone.csv"
    stale.write_text("old\n")
    workbook.run_workbook(["01"], output_dir=out, force=True, progress=False)
    assert not stale.exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert "tables/01_first__gone.csv" not in {o["path"] for o in manifest["outputs"]}
    assert sorted(manifest["notebooks"]) == ["01_first", "02_second"]


def test_a_manifest_that_is_not_json_says_what_and_where(tmp_path):
    from recallscore_nb.core.errors import UsageError

    path = tmp_path / "manifest.json"
    path.write_text('{"notebooks": {"01": "x', encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        publishing.read_manifest(path)
    assert f"{path}: not valid JSON: Unterminated string starting at line 1 column 22; " in str(
        caught.value)


# --- executed notebooks -------------------------------------------------------------------------
def test_a_run_publishes_each_executed_notebook_and_lists_it(book):
    assert main(["run"]) == 0
    manifest = json.loads((book / "reports" / "manifest.json").read_text())
    entry = {o["path"] for o in manifest["notebooks"]["01_first"]["outputs"]}
    assert "notebooks/01_first.ipynb" in entry
    assert "notebooks/02_second.ipynb" in {o["path"] for o in manifest["outputs"]}
    assert "notebooks" in publishing.COMMITTED  # recallscore check compares them


def test_a_notebook_run_alone_keeps_the_executed_copy_a_run_left(book):
    """A JupyterLab run of the paper's defaults republishes the same outputs: reports/ stays
    byte for byte as the run left it, its executed notebook and manifest included."""
    import pandas as pd

    from recallscore_nb.workbook.parameters import parameters_object
    from recallscore_nb.workbook.session import Session

    assert main(["run"]) == 0
    root = book / "reports"
    before = hashes(root)
    work = publishing.WorkFolder(root, ".recallscore-work-01_first-")
    session = Session(stem="01_first", params=parameters_object({"output_dir": "", "label": "a&b"}),
                      output_dir=work.path)
    session.table("values", pd.DataFrame({"label": ["a&b"], "n": [1]}))
    session.number("FirstAnswer", 42)
    with publishing.OutputLock(root, wait=0):
        recorded = publishing.recorded_defaults(publishing.read_manifest(root / "manifest.json"),
                                                "01_first")
        publishing.publish(root, work.path, {"01_first": session.fragment()},
                           defaults={"01_first": recorded})
    work.remove()
    assert hashes(root) == before
