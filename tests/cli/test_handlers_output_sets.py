"""`agree` and `score --out` write their files as one set, under one lock: a full disk, a
second writer, an input inside the output set, a protected folder or what a killed run left
never cost the previous outputs."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.io import output_sets
from recallscore_nb.io.data import DEFAULT_ATTEMPTS
from recallscore_nb.io.data import JUDGED_EXAMPLE as EXAMPLE
from recallscore_nb.io.output_sets import file_set
from recallscore_nb.workbook.paths import NOTEBOOKS_DIR
from tests.convert_fixtures import EVOUNA_RECORD

AGREE = ["agree", EXAMPLE / "items.jsonl", "--attempts", EXAMPLE / "attempts.csv",
         "--resamples", 50]


def agree_args(out, *extra, judgments=EXAMPLE / "judgments.csv"):
    return [*AGREE, "--judgments", judgments, "--out-dir", out, *extra]


def run(capsys, argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_run_without_annotators_removes_the_previous_runs_annotator_tables(capsys, tmp_path):
    out = tmp_path / "out"
    run(capsys, agree_args(out, "--annotators", "annotator1,annotator2,annotator3"))
    assert (out / "annotators.csv").is_file() and (out / "panel.csv").is_file()
    code, printed, err = run(capsys, agree_args(out))
    assert (code, err) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == ["agreement.csv", "disagreements.csv",
                                                     "ranking.csv", "systems.csv"]


def test_an_input_inside_the_output_set_is_exit_2_with_nothing_written(capsys, tmp_path):
    out = tmp_path / "out"
    run(capsys, agree_args(out))
    before = snapshot(out)
    judged = out / "disagreements.csv"
    code, printed, err = run(capsys, agree_args(out, "--seed", 3, judgments=judged))
    assert (code, printed) == (2, "")
    assert err == (f"recallscore: error: --out-dir {out / 'disagreements.csv'} is the judgments "
                   f"input {judged}: writing it would overwrite the input; choose another "
                   "file\n")
    assert snapshot(out) == before


@pytest.mark.parametrize("where", ["/", "notebooks", "inside notebooks"])
def test_agree_refuses_the_root_and_the_workbooks_notebooks(capsys, where):
    folder = {"/": "/", "notebooks": NOTEBOOKS_DIR,
              "inside notebooks": NOTEBOOKS_DIR / "agree-out"}[where]
    before = sorted(os.listdir(NOTEBOOKS_DIR))
    code, printed, err = run(capsys, agree_args(folder))
    assert (code, printed) == (2, "")
    assert err.startswith(f"recallscore: error: --out-dir {folder}: ")
    assert len(err.splitlines()) == 1
    assert sorted(os.listdir(NOTEBOOKS_DIR)) == before
    assert not (NOTEBOOKS_DIR / "agree-out").exists()


def _limited(size):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_full_disk_during_agree_leaves_every_previous_table(capsys, tmp_path):
    """With files limited to 5,000 bytes, systems, agreement and ranking fit and
    disagreements (7 KB) does not: before, the first three were already replaced."""
    out = tmp_path / "out"
    run(capsys, agree_args(out))
    command = [sys.executable, "-m", "recallscore_nb", *map(str, agree_args(out))]
    before = snapshot(out)
    done = subprocess.run([*command, "--seed", "7"], capture_output=True, text=True,
                          preexec_fn=_limited(5000))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"recallscore: error: {out / 'disagreements.csv'}: cannot write "
                           "(File too large); the previous outputs are unchanged\n")
    assert snapshot(out) == before
    assert sorted(p.name for p in out.iterdir()) == sorted(before)


def test_a_second_agree_waits_then_names_the_holder(capsys, tmp_path, monkeypatch):
    out = tmp_path / "out"
    run(capsys, agree_args(out))
    before = snapshot(out)
    monkeypatch.setattr(output_sets, "LOCK_WAIT", 0.3)
    with output_sets.OutputLock(out, wait=0):
        code, printed, err = run(capsys, agree_args(out, "--seed", 3))
    assert (code, printed) == (2, "")
    assert err.startswith(f"recallscore: error: {out} is being written by another recallscore "
                          f"run (pid {os.getpid()} on ")
    assert err.endswith("waited 0.3 s: let it finish, then run again\n")
    assert snapshot(out) == before


def test_two_agree_runs_at_once_leave_one_whole_set(capsys, tmp_path):
    out, alone = tmp_path / "out", {}
    for seed in (1, 2):
        run(capsys, agree_args(tmp_path / f"alone{seed}", "--seed", seed))
        alone[seed] = snapshot(tmp_path / f"alone{seed}")
    runs = [subprocess.Popen([sys.executable, "-m", "recallscore_nb",
                              *map(str, agree_args(out, "--seed", seed))],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            for seed in (1, 2)]
    assert [r.wait(timeout=60) for r in runs] == [0, 0]
    assert snapshot(out) in (alone[1], alone[2])
    assert alone[1] != alone[2]


# --- score --out ---------------------------------------------------------------------------------
def score(capsys, out, *extra):
    return run(capsys, ["score", "--out", out, *extra])


def test_a_second_score_into_one_file_waits_and_another_file_does_not(capsys, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setattr(output_sets, "LOCK_WAIT", 0.3)
    with file_set(tmp_path / "s.csv"):
        code, printed, err = score(capsys, tmp_path / "s.csv")
        assert code == 2 and "is being written by another recallscore run" in err
        assert score(capsys, tmp_path / "t.csv")[0] == 0
    assert not (tmp_path / "s.csv").exists() and (tmp_path / "t.csv").is_file()


def test_score_removes_what_a_killed_score_left(capsys, tmp_path):
    """A work folder whose writer died (its lock free) and an older version's temporary
    file of over a minute go; a younger temporary file may be a live writer's and stays."""
    dead = tmp_path / ".recallscore-work-file-{}-dead".format(
        output_sets.sha256(b"s.csv")[:8])
    dead.mkdir()
    (dead / ".lock").write_text("")
    (dead / "s.csv").write_bytes(b"x" * 4096)
    old_tmp, young_tmp = tmp_path / ".s.csv.0a1b2c3d.tmp", tmp_path / ".s.csv.4e5f6a7b.tmp"
    for tmp in (old_tmp, young_tmp):
        tmp.write_bytes(b"x" * 4096)
    past = time.time() - 120
    os.utime(old_tmp, (past, past))
    assert score(capsys, tmp_path / "s.csv")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [young_tmp.name, "s.csv"]


def test_a_full_disk_during_score_keeps_the_previous_table(tmp_path):
    out = tmp_path / "s.csv"
    out.write_text("previous\n")
    done = subprocess.run([sys.executable, "-m", "recallscore_nb", "score", "--out", str(out)],
                          capture_output=True, text=True, preexec_fn=_limited(2000))
    assert done.returncode == 2
    assert done.stderr == (f"recallscore: error: {out}: cannot write (File too large); the "
                           "previous outputs are unchanged\n")
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv"]


# --- convert ----------------------------------------------------------------------------------
def evouna_file(path, questions):
    records = [{**EVOUNA_RECORD, "question": f"q{n}?"} for n in range(questions)]
    path.write_text(json.dumps(records))
    return path


def test_convert_refuses_a_source_that_is_one_of_its_outputs(capsys, tmp_path):
    out = tmp_path / "out"
    run(capsys, ["convert", "evouna", evouna_file(tmp_path / "NQ.json", 2), "--out-dir", out])
    before = snapshot(out)
    source = evouna_file(out / "judgments.csv", 3)  # a source saved where an output goes
    before["judgments.csv"] = source.read_bytes()
    code, printed, err = run(capsys, ["convert", "evouna", source, "--out-dir", out])
    assert (code, printed) == (2, "")
    assert err == (f"recallscore: error: --out-dir {out / 'judgments.csv'} is the source input "
                   f"{source}: writing it would overwrite the input; choose another file\n")
    assert snapshot(out) == before


def test_a_full_disk_during_convert_keeps_items_and_attempts_together(capsys, tmp_path):
    """Room for the new items.jsonl and attempts.parquet (3.2 and 2.5 KB), not for
    judgments.csv (4.9 KB): before, the first two replaced the old ones beside the old
    judgments, three files that no longer matched."""
    out = tmp_path / "out"
    run(capsys, ["convert", "evouna", evouna_file(tmp_path / "a.json", 1), "--out-dir", out])
    before = snapshot(out)
    bigger = evouna_file(tmp_path / "b.json", 40)
    done = subprocess.run([sys.executable, "-m", "recallscore_nb", "convert", "evouna",
                           str(bigger), "--out-dir", str(out)], capture_output=True, text=True,
                          preexec_fn=_limited(4000))
    assert done.returncode == 2
    assert done.stderr.endswith("cannot write (File too large); the previous outputs are "
                                "unchanged\n")
    assert len(done.stderr.splitlines()) == 1
    assert snapshot(out) == before


def test_a_second_convert_into_one_folder_waits_then_names_the_holder(capsys, tmp_path,
                                                                      monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setattr(output_sets, "LOCK_WAIT", 0.3)
    with output_sets.OutputLock(out, wait=0):
        code, printed, err = run(capsys, ["convert", "evouna",
                                          evouna_file(tmp_path / "NQ.json", 2), "--out-dir", out])
    assert code == 2 and "is being written by another recallscore run" in err
    assert sorted(os.listdir(out)) == []


# --- summarize --out ----------------------------------------------------------------------------
def test_summarize_without_paired_removes_the_previous_paired_table(capsys, tmp_path):
    scored = tmp_path / "s.csv"
    assert run(capsys, ["score", "--attempts", DEFAULT_ATTEMPTS, "--out", scored])[0] == 0
    table = tmp_path / "t.md"
    systems = ["--resamples", 20]
    code, printed, err = run(capsys, ["summarize", scored, "--out", table, *systems,
                                      "--paired", "sys-a", "sys-c"])
    assert code == 0, err
    assert (tmp_path / "t.paired.md").is_file()
    assert run(capsys, ["summarize", scored, "--out", table, *systems])[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv", "t.md"]


# --- reproduce --out-dir ------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["/", "inside notebooks"])
def test_reproduce_refuses_the_root_and_the_workbooks_notebooks(capsys, where):
    """It wrote reproduce__rows.csv and reproduce__summary.csv into either."""
    folder = "/" if where == "/" else NOTEBOOKS_DIR / "reproduced"
    code, printed, err = run(capsys, ["reproduce", "--out-dir", folder])
    assert code == 2 and err.startswith(f"recallscore: error: --out-dir {folder}: ")
    assert not Path("/reproduce__rows.csv").exists()
    assert where == "/" or not Path(folder).exists()
    assert not any(p.name.startswith("reproduce__") for p in NOTEBOOKS_DIR.rglob("*"))


def test_reproduce_writes_its_two_tables_as_a_set(capsys, tmp_path):
    code, printed, err = run(capsys, ["reproduce", "--out-dir", tmp_path / "r"])
    assert code == 0
    assert sorted(os.listdir(tmp_path / "r")) == ["reproduce__rows.csv",
                                                 "reproduce__summary.csv"]
