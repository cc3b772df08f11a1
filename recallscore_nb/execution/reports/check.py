"""Checking a stored report: recomputed from the inputs it names, compared value by value.

:func:`check_report` reads a report's inputs only inside the report's folder (or a folder the
caller allows), and only regular files, each still holding the bytes it was scored from. A
report laid out as :func:`~recallscore_nb.io.reports.text.write_report` writes it is first
compared byte for byte with a fresh rendering, read alongside it (a report may be gigabytes);
only when that fails is it parsed whole, and :func:`~recallscore_nb.io.reports.differences`
names each value that differs by its JSON path.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...core.errors import InputChangedError, RecallScoreError, ReportFormatError, UpdateRefusedError
from ...io.data import DATA_DIR
from ...io.files import file_sha256
from ...io.reports import Report, write_report
from ...io.reports.reading import (laid_out_header, opened, read_report, report_differences,
                                   same_bytes)
from .build import build_report

__all__ = ["check_report"]


def _input_path(name: str, index: int, recorded: str, base_dir: Path,
                inputs_within: str | os.PathLike[str] | None) -> Path:
    """Where the report's ``index``-th input is read: its recorded path, from the report's
    folder, if it stays inside that folder (or inside ``inputs_within``), links resolved. The
    package's own data (the shipped benchmark and its scoring schema) may always be read: a
    report of the shipped benchmark names it, and it is no file of the user's."""
    root = base_dir if inputs_within is None else Path(inputs_within)
    where = (f"the report's folder {base_dir}" if inputs_within is None
             else f"--inputs-within {os.fspath(inputs_within)}")
    path = base_dir / recorded
    real, top = os.path.realpath(path), os.path.realpath(root)
    shipped = os.path.realpath(DATA_DIR)
    absolute = os.path.isabs(recorded) and inputs_within is None
    if os.path.commonpath([real, shipped]) == shipped:
        return path
    if absolute or os.path.commonpath([real, top]) != top:
        raise ReportFormatError(
            name, f"$.inputs[{index}]", "path",
            message=f"{recorded} is outside {where}: check-report reads a report's inputs only "
                    "there (pass --inputs-within DIR to allow a folder that holds them)")
    return path


def _checked_inputs(name: str, stored: dict, base_dir: Path,
                    inputs_within: str | os.PathLike[str] | None = None) -> dict[str, Path]:
    """The stored report's inputs as paths, each inside the folder it may be read from and
    still holding the bytes it was scored from."""
    scored = stored.get("status") != "error"
    paths = {}
    for index, entry in enumerate(stored["inputs"]):
        role, recorded, digest = entry["role"], entry["path"], entry["sha256"]
        if digest is None and scored:
            raise ReportFormatError(
                name, f"$.inputs[{index}]", "sha256",
                message=f"null for the {role} input {recorded}, but a scored report records "
                        "the hash of every input it read: the report was edited; score it "
                        "again with `recallscore report`")
        path = _input_path(name, index, recorded, base_dir, inputs_within)
        actual = file_sha256(path)
        if actual != digest:
            raise InputChangedError(name, role, recorded, digest, actual)
        paths[role] = path
    return paths


def check_report(path: str | os.PathLike[str], *, update: bool = False,
                 inputs_within: str | os.PathLike[str] | None = None) -> list[str]:
    """Recompute a stored report from the inputs it names and compare the parsed JSON.

    Input paths are read relative to the report's folder, and must stay inside it (links
    resolved) or inside ``inputs_within`` when given; an absolute path needs
    ``inputs_within``. Only regular files are read. Returns one line per differing value
    (empty: identical). With ``update`` the report is rewritten from the recomputation
    (differences are still returned), never with an error report.

    A report as :func:`write_report` lays it out is first compared byte for byte with a fresh
    rendering, its attempts unparsed; only when that fails is it parsed whole and compared
    value by value.

    Raises
    ------
    ReportFormatError
        The stored report cannot be read, is not a report, names an input outside the
        folder it may be read from, or records no hash for an input of a scored report.
    InputChangedError
        An input's SHA-256 no longer matches the one the report recorded.
    UpdateRefusedError
        ``update`` and the inputs now give an error report.
    """
    name = os.fspath(path)
    with opened(name) as file:  # read alongside the rendering: a report may be gigabytes
        header = laid_out_header(file, name)
        if header is not None:
            try:
                fresh = _recomputed(name, header, inputs_within)
            except RecallScoreError:  # said again, from the whole document, below
                pass
            else:
                if update and not fresh.ok:
                    raise UpdateRefusedError(name, fresh.error)
                if same_bytes(file, fresh.pieces()):
                    return []
    stored = read_report(name)
    fresh = _recomputed(name, stored, inputs_within)
    if update and not fresh.ok:
        raise UpdateRefusedError(name, fresh.error)
    found = list(report_differences(stored, fresh))
    if update:
        write_report(fresh, name)
    return found


def _recomputed(name: str, stored: dict, inputs_within) -> Report:
    """A fresh report from the inputs ``stored`` names, checked first (:func:`_checked_inputs`)."""
    base_dir = Path(name).parent
    paths = _checked_inputs(name, stored, base_dir, inputs_within)
    return build_report(paths.get("benchmark", paths.get("items")), paths.get("attempts"),
                        schema_path=paths["schema"], base_dir=base_dir,
                        squad_mode=stored["scorer"]["squad_mode"])
