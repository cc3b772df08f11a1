"""Executed notebooks as they are committed: papermill's copy with every volatile field removed.

papermill records when each cell ran and for how long, where the notebook was read and
written, and gives the cell it injects a random id; the kernel reports its Python's patch
version; and the notebook carries what the editor that last saved it wrote: JupyterLab names
the kernel ``Python 3 (ipykernel)``, other editors add metadata of their own, and cells keep
view state (``scrolled``, ``collapsed``). :func:`clean_executed` removes all of that, names the
kernel the run used as the workbook's notebooks do (:data:`KERNELSPEC`), keeps only the
notebook's and cells' metadata that a run writes, gives the injected cell a fixed id, and
makes every path under the folders of the run relative (the run's work folder, its output
folder, the repository, the folder relative paths mean), so that the same notebook run with
the same inputs gives the same bytes wherever and whenever it runs, and ``recallscore check``
can compare them. What the cells show is left as it is: the workbook's steps show values
that do not change from run to run (tables, figures as the PNG bytes of their files, the
paper's numbers).

>>> node = {"metadata": {"papermill": {"duration": 1.5, "input_path": "/w/n.ipynb",
...                                    "parameters": {"attempts_path": "/w/my.csv"}}},
...         "cells": [{"cell_type": "code", "id": "6c8f852b", "source": "# Parameters",
...                    "metadata": {"tags": ["injected-parameters"],
...                                 "execution": {"iopub.status.idle": "2026-…"},
...                                 "papermill": {"start_time": "2026-…", "status": "completed"}},
...                    "outputs": []}]}
>>> clean_executed(node, ["/w"])
{'metadata': {'papermill': {'parameters': {'attempts_path': 'my.csv'}}}, 'cells': [{'cell_type': 'code', 'id': 'injected-parameters', 'source': '# Parameters', 'metadata': {'tags': ['injected-parameters'], 'papermill': {'status': 'completed'}}, 'outputs': []}]}
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from ..io.files import write_file

__all__ = ["clean_executed", "write_clean", "VOLATILE_NOTEBOOK", "VOLATILE_CELL", "KERNELSPEC"]

VOLATILE_NOTEBOOK = ("start_time", "end_time", "duration", "exception", "input_path",
                     "output_path")
"""The fields of a notebook's ``papermill`` metadata that change from run to run."""
VOLATILE_CELL = ("start_time", "end_time", "duration", "exception")
"""The fields of a cell's ``papermill`` metadata that change from run to run."""
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
"""The kernel every notebook of the workbook runs on, as the stored notebooks name it."""
NOTEBOOK_METADATA = ("kernelspec", "language_info", "papermill")
"""The notebook metadata an executed copy keeps: the rest is the editor's."""
CELL_METADATA = ("tags", "papermill")
"""The cell metadata an executed copy keeps (the tags mark the parameters cells)."""
INJECTED_TAG = "injected-parameters"
_BINARY = ("image/png", "image/jpeg", "image/gif", "application/pdf")


def _relative(text: str, prefixes: list[str]) -> str:
    for prefix in prefixes:
        text = text.replace(prefix, "")
    return text


def _scrub(value, prefixes: list[str]):
    """``value`` with every string's occurrences of ``prefixes`` removed (binary data kept)."""
    if isinstance(value, str):
        return _relative(value, prefixes)
    if isinstance(value, list):
        return [_scrub(item, prefixes) for item in value]
    if isinstance(value, dict):
        return {key: value[key] if key in _BINARY else _scrub(value[key], prefixes)
                for key in value}
    return value


def _prefixes(folders: Iterable[str | os.PathLike[str]]) -> list[str]:
    """Each folder as the prefix to remove (``/abs/folder/``), the longest first; the
    filesystem root is never one."""
    found = set()
    for folder in folders:
        if folder is None:
            continue
        for spelling in {str(Path(folder)), str(Path(folder).resolve())}:
            if Path(spelling) != Path(Path(spelling).anchor):
                found.add(spelling.rstrip(os.sep) + os.sep)
    return sorted(found, key=lambda p: (-len(p), p))


def clean_executed(node: dict, folders: Iterable[str | os.PathLike[str]] = ()) -> dict:
    """An executed notebook (its JSON) without volatile fields, paths under ``folders`` made
    relative to them; see the module docstring."""
    metadata = {key: value for key, value in node.get("metadata", {}).items()
                if key in NOTEBOOK_METADATA}
    node["metadata"] = metadata
    if "kernelspec" in metadata:
        metadata["kernelspec"] = dict(KERNELSPEC)
    papermill = metadata.get("papermill")
    if isinstance(papermill, dict):
        for key in VOLATILE_NOTEBOOK:
            papermill.pop(key, None)
    language = metadata.get("language_info")
    if isinstance(language, dict):
        language.pop("version", None)  # the Python patch version: not a pinned one
    for cell in node.get("cells", []):
        cell_metadata = {key: value for key, value in cell.get("metadata", {}).items()
                         if key in CELL_METADATA}
        cell["metadata"] = cell_metadata
        cell_papermill = cell_metadata.get("papermill")
        if isinstance(cell_papermill, dict):
            for key in VOLATILE_CELL:
                cell_papermill.pop(key, None)
        if INJECTED_TAG in cell_metadata.get("tags", []):
            cell["id"] = INJECTED_TAG
    return _scrub(node, _prefixes(folders))


def write_clean(path: str | os.PathLike[str], folders: Iterable[str | os.PathLike[str]] = ()
                ) -> Path:
    """Rewrite the executed notebook at ``path`` cleaned (:func:`clean_executed`), as nbformat
    writes notebooks (keys sorted, one space of indent), atomically; return the path."""
    path = Path(path)
    node = clean_executed(json.loads(path.read_text(encoding="utf-8")), folders)
    text = json.dumps(node, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    return write_file(path, text)
