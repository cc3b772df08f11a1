"""Sessions for the tests of the notebooks' steps: a notebook's own declared parameters (its
parameters cell's defaults, typed as declared), changed where a test says, writing into a
folder of the test's, with no kernel; and a notebook's session cell run as the notebook runs
it."""

from __future__ import annotations

from pathlib import Path

import nbformat

from recallscore_nb.workbook.parameters import declared_parameters, parameters_object
from recallscore_nb.workbook.session import Session

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def session(stem: str, output_dir: Path, **values) -> Session:
    """A session of notebook ``stem`` writing into ``output_dir`` (a fragment at finish, as
    under ``recallscore run``); ``values`` replace the declared defaults (paths as given)."""
    declared = declared_parameters(NOTEBOOKS / f"{stem}.ipynb")
    unknown = set(values) - set(declared)
    assert not unknown, f"{stem} declares no {sorted(unknown)}"
    given = {name: p.default for name, p in declared.items()} | values
    given["output_dir"] = str(output_dir)
    params = parameters_object(given, {name: p.type for name, p in declared.items()})
    return Session(stem=stem, params=params, output_dir=Path(output_dir))


def started(stem: str, namespace: dict) -> Session:
    """The session notebook ``stem``'s session cell opens on ``namespace`` (the parameters
    cell's names), the cell's own code run as the kernel runs it."""
    cells = [c for c in nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4).cells
             if c.cell_type == "code"]
    exec(compile(cells[1].source, f"{stem}: session cell", "exec"), namespace)
    return namespace["nb"]


def written(folder: Path, stem: str, what: str, kind: str = "tables") -> bool:
    """Whether every file of a table (or a figure) ``what`` was written, none empty."""
    from recallscore_nb.render import figures

    exts = ("csv", "md", "tex") if kind == "tables" else figures.FIGURE_FORMATS
    return all((folder / kind / f"{stem}__{what}.{ext}").stat().st_size > 0 for ext in exts)
