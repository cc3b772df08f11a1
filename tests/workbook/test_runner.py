"""The workbook runner on a small workbook of its own: run, stamps, manifest, check, failure."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import UsageError
from recallscore_nb.workbook import runner as workbook
from recallscore_nb.workbook.parameters import declared_parameters

PARAMETERS = 'output_dir: str = ""  # empty: reports/\nlabel: str = "a&b"  # a cell of the table'
WRITES = """\
import pandas as pd
from recallscore_nb.render.figures import figure
from recallscore_nb.workbook.session import start_notebook
nb = start_notebook("{stem}", globals())
nb.table("values", pd.DataFrame({{"label": [label, "x_y"], "value": [1.5, 2.0]}}))
fig, ax = figure()
ax.bar(["a", "b"], [1, 2])
nb.figure("bars", fig)
nb.number("{name}", 42)
nb.finish()
"""


def _notebook(path: Path, source: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    params = nbformat.v4.new_code_cell(PARAMETERS)
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(source)]
    nbformat.write(nb, path)
    return path


@pytest.fixture
def book(tmp_path, monkeypatch):
    """Two notebooks that write a table, a figure and a paper number; reports/ in tmp."""
    notebooks, reports = tmp_path / "notebooks", tmp_path / "reports"
    notebooks.mkdir()
    for stem, name in (("01_first", "FirstAnswer"), ("02_second", "SecondAnswer")):
        source = WRITES.format(stem=stem, name=name)
        _notebook(notebooks / f"{stem}.ipynb", source)
    monkeypatch.setattr(workbook, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(workbook, "REPORTS_DIR", reports)
    monkeypatch.setattr(workbook, "STAMPS_DIR", tmp_path / ".stamps")
    monkeypatch.setattr(workbook, "_code_fingerprint", lambda: "fixed code")
    return tmp_path


def _hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_run_writes_outputs_manifest_and_numbers_then_skips_when_unchanged(book):
    result = workbook.run_workbook(progress=False)
    assert result.executed == ("01_first", "02_second") and result.skipped == ()
    reports = book / "reports"
    manifest = json.loads((reports / "manifest.json").read_text())
    listed = {o["path"]: o["sha256"] for o in manifest["outputs"]}
    on_disk = {k: v for k, v in _hashes(reports).items() if k.split("/")[0] in workbook.COMMITTED}
    assert listed == on_disk
    assert "tables/01_first__values.csv" in listed and "figures/02_second__bars.svg" in listed
    assert manifest["parameters"] == {"01_first": {"label": "a&b"}, "02_second": {"label": "a&b"}}
    assert manifest["versions"]["recallscore"]
    numbers = (reports / "paper" / "numbers.tex").read_text()
    assert "\\newcommand{\\rsFirstAnswer}{42}" in numbers
    assert "a\\&b" in (reports / "tables" / "01_first__values.tex").read_text()
    assert str(book) not in json.dumps(manifest)  # no absolute paths
    again = workbook.run_workbook(progress=False)
    assert again.executed == () and again.skipped == ("01_first", "02_second")


def test_a_changed_output_makes_its_notebook_run_again(book):
    workbook.run_workbook(progress=False)
    (book / "reports" / "tables" / "02_second__values.csv").write_text("tampered\n")
    assert workbook.run_workbook(progress=False).executed == ("02_second",)


def test_check_is_clean_then_names_each_changed_or_missing_file(book):
    workbook.run_workbook(progress=False)
    assert workbook.check_workbook(progress=False) == []
    for name in ("tables/01_first__values.md", "figures/02_second__bars.png"):
        path = book / "reports" / name
        original = path.read_bytes()
        path.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))  # one byte changed
    (book / "reports" / "tables" / "01_first__values.csv").unlink()
    lines = workbook.check_workbook(progress=False)
    headers = [line for line in lines if not line.startswith("  ")][:-1]
    assert headers == [
        "differs: figures/02_second__bars.png",
        "missing from reports/: tables/01_first__values.csv",
        "differs: tables/01_first__values.md",
    ]
    details = [line for line in lines if line.startswith("  ")]
    assert len(details) == 2 and details[1].startswith("  line ")
    assert lines[-1] == "2 files differ, 1 missing from reports/"


def test_a_failing_notebook_exits_3_names_the_cell_and_leaves_reports_untouched(book, capsys):
    workbook.run_workbook(progress=False)
    before = _hashes(book / "reports")
    _notebook(book / "notebooks" / "02_second.ipynb", "raise ValueError('broken on purpose')")
    assert main(["run", "--force"]) == 3
    err = capsys.readouterr().err
    assert "notebook 02_second failed at cell 2: ValueError: broken on purpose" in err
    assert "Traceback" not in err
    assert _hashes(book / "reports") == before


def _kernels_that_die_at_start(monkeypatch, folder: Path, times: int) -> None:
    """papermill's ``execute_notebook`` failing as a kernel does that dies before its first
    reply (the port race of jupyter_client#154), ``times`` times per notebook, then running
    it; forked workers inherit the patch and count their tries in ``folder``."""
    import papermill

    real = papermill.execute_notebook

    def execute(notebook, *args, **kwargs):
        tries = folder / (Path(notebook).stem + ".tries")
        tries.write_text(tries.read_text() + "x" if tries.exists() else "x")
        if len(tries.read_text()) <= times:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return real(notebook, *args, **kwargs)

    monkeypatch.setattr(papermill, "execute_notebook", execute)


def test_a_kernel_that_dies_before_its_first_reply_is_started_again(book, monkeypatch):
    _kernels_that_die_at_start(monkeypatch, book, times=2)
    result = workbook.run_workbook(progress=False)
    assert result.executed == ("01_first", "02_second")
    assert (book / "01_first.tries").read_text() == "xxx"
    numbers = (book / "reports" / "paper" / "numbers.tex").read_text()
    assert "\\newcommand{\\rsFirstAnswer}{42}" in numbers


def test_a_kernel_that_keeps_dying_at_start_is_reported_before_any_cell(book, monkeypatch,
                                                                        capsys):
    _kernels_that_die_at_start(monkeypatch, book, times=3)
    assert main(["run"]) == 3
    assert ("notebook 01_first failed before its first cell: RuntimeError: Kernel died before "
            "replying to kernel_info") in capsys.readouterr().err
    assert (book / "01_first.tries").read_text() == "xxx"
    assert not (book / "reports").exists()


def test_parameters_select_and_guard_the_committed_reports(book, tmp_path):
    with pytest.raises(UsageError, match="no selected notebook declares"):
        workbook.run_workbook(overrides=[("seed", "1")], progress=False)
    with pytest.raises(UsageError, match="give --output-dir"):
        workbook.run_workbook(overrides=[("label", "other")], progress=False)
    with pytest.raises(UsageError, match="no notebook '07'"):
        workbook.run_workbook(["07"], progress=False)
    out = tmp_path / "exploration"
    result = workbook.run_workbook(["02"], [("label", "other")], output_dir=out, progress=False)
    assert result.executed == ("02_second",)
    assert "other" in (out / "tables" / "02_second__values.csv").read_text()
    assert not (book / "reports").exists()


def test_declared_parameters_follow_papermills_inspectable_form(book):
    params = declared_parameters(book / "notebooks" / "01_first.ipynb")
    assert [(p.name, p.type, p.default, p.help) for p in params.values()] == [
        ("output_dir", str, "", "empty: reports/"),
        ("label", str, "a&b", "a cell of the table"),
    ]
    assert params["label"].convert("x") == "x"


def test_the_readme_example_with_relative_paths_from_another_folder(tmp_path):
    """`recallscore run 05 -p attempts_path my_attempts.csv --output-dir my_reports`, verbatim,
    from a folder of the user's: both paths mean that folder, the outputs record the path as
    given (never the machine's), and nothing else is left behind, not even a lock file."""
    root = Path(__file__).resolve().parents[2]
    shipped = root / "recallscore_nb" / "data" / "attempts" / "four_fact_systems.csv"
    (tmp_path / "my_attempts.csv").write_bytes(shipped.read_bytes())
    before = sorted(p.name for p in (root / "notebooks").iterdir())
    run = subprocess.run([sys.executable, "-m", "recallscore_nb", "run", "05", "-p", "attempts_path",
                          "my_attempts.csv", "--output-dir", "my_reports"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and "ran 1 notebook(s)" in run.stdout
    out = tmp_path / "my_reports"
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"path": "my_attempts.csv",
            "sha256": hashlib.sha256(shipped.read_bytes()).hexdigest()} in manifest["inputs"]
    assert manifest["parameters"]["05_reanalysis"]["attempts_path"] == "my_attempts.csv"
    for path in out.rglob("*"):
        if path.suffix in (".json", ".ipynb", ".md", ".tex", ".svg"):
            assert str(tmp_path) not in path.read_text(encoding="utf-8"), path
    assert (out / "tables" / "05_reanalysis__intervals.csv").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my_attempts.csv", "my_reports"]
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert sorted(p.name for p in (root / "notebooks").iterdir()) == before


def test_a_committed_notebook_lab_saved_runs_to_the_same_executed_bytes(tmp_path):
    """Failure 2 of issue 21: open notebooks/01 in JupyterLab, run all, save: the notebook now
    names the kernel `Python 3 (ipykernel)`, carries the kernel's language info, outputs and
    view state; run, it must still give the committed executed copy, byte for byte."""
    root = Path(__file__).resolve().parents[2]
    node = json.loads((root / "notebooks" / "01_reproduce_benchmark.ipynb").read_text())
    node["metadata"] = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                       "name": "python3"},
                        "language_info": {"codemirror_mode": {"name": "ipython", "version": 3},
                                          "file_extension": ".py", "name": "python",
                                          "version": "3.11.2"}}
    for cell in node["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"]["scrolled"] = True
            cell["execution_count"], cell["outputs"] = 7, [
                {"output_type": "stream", "name": "stdout", "text": ["left by Lab\n"]}]
    saved = tmp_path / "01_reproduce_benchmark.ipynb"
    saved.write_text(json.dumps(node, indent=1) + "\n")
    workbook.run_workbook([str(saved)], output_dir=tmp_path / "out", progress=False, stamps=False)
    ran = (tmp_path / "out" / "notebooks" / saved.name).read_bytes()
    assert ran == (root / "reports" / "notebooks" / saved.name).read_bytes()
