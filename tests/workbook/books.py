"""Small workbooks for the runner's tests: notebooks written on the fly, and execution faked by
writing what each notebook's session would write (no kernel)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import nbformat
import pandas as pd

from recallscore_nb.workbook.parameters import parameters_object
from recallscore_nb.workbook.session import Session

PARAMETERS = 'output_dir: str = ""  # empty: reports/\nlabel: str = "a&b"  # a cell of the table'


def notebook(path: Path, *sources: str, parameters: str = PARAMETERS) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    params = nbformat.v4.new_code_cell(parameters)
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, *(nbformat.v4.new_code_cell(s) for s in sources)]
    nbformat.write(nb, path)
    return path


def fake_execute_all(plan, work, jobs, progress, cwd=None):
    """What each notebook's session writes into the work folder, without a kernel."""
    (work / "notebooks").mkdir(parents=True, exist_ok=True)
    for nb, values in plan.items():
        session = Session(stem=nb.stem, params=parameters_object({**values, "output_dir": ""}),
                          output_dir=work)
        session.table("values", pd.DataFrame({"label": [values.get("label", "")], "n": [1]}))
        session.number(nb.stem.split("_")[1].capitalize() + "Answer", 42)
        session.finish()
        (work / "notebooks" / nb.name).write_text("{}")


def refuse_execution(*args):
    raise AssertionError("no notebook may run")


def hashes(folder: Path) -> dict[str, str]:
    """Every file's SHA-256, the runner's own lock and work folders left out."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()
            and not any(part.startswith(".recallscore") for part in p.relative_to(folder).parts)}


def leftovers(folder: Path) -> list[str]:
    """The runner's own entries in ``folder``: its lock, and any work folder left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".recallscore"))
