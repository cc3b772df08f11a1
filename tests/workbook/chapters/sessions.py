"""Sessions for the chapters' tests: a notebook's own declared parameters (its parameters
cell's defaults, typed as declared), changed where a test says, writing into a folder of the
test's, with no kernel."""

from __future__ import annotations

from pathlib import Path

from recallscore_nb.workbook.parameters import declared_parameters, parameters_object
from recallscore_nb.workbook.session import Session

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"


def session(chapter, output_dir: Path, **values) -> Session:
    """A session of ``chapter``'s notebook writing into ``output_dir`` (a fragment at finish,
    as under ``recallscore run``); ``values`` replace the declared defaults (paths as given)."""
    declared = declared_parameters(NOTEBOOKS / f"{chapter.STEM}.ipynb")
    unknown = set(values) - set(declared)
    assert not unknown, f"{chapter.STEM} declares no {sorted(unknown)}"
    given = {name: p.default for name, p in declared.items()} | values
    given["output_dir"] = str(output_dir)
    params = parameters_object(given, {name: p.type for name, p in declared.items()})
    return Session(stem=chapter.STEM, params=params, output_dir=Path(output_dir))


def written(folder: Path, stem: str, what: str, kind: str = "tables") -> bool:
    """Whether every file of a table (or a figure) ``what`` was written, none empty."""
    from recallscore_nb.render import figures

    exts = ("csv", "md", "tex") if kind == "tables" else figures.FIGURE_FORMATS
    return all((folder / kind / f"{stem}__{what}.{ext}").stat().st_size > 0 for ext in exts)
