"""JupyterLab saves the workbook's notebooks as they are stored: without outputs.

The notebooks of ``notebooks/`` are stored without outputs (their executed copies are in
``reports/notebooks/``), with the kernel named as papermill runs them. Opened in JupyterLab,
run and saved (or autosaved), a notebook would gain outputs, execution counts, JupyterLab's
kernel name ``Python 3 (ipykernel)``, the kernel's language info and the cells' view state:
``git status`` would show it changed though nothing of it was edited.
:func:`keep_stored_form`, the Jupyter server's ``pre_save_hook`` (set by the shipped
``data/jupyter/jupyter_server_config.json``, which ``make`` installs into the venv's
``etc/jupyter/``), saves a notebook of ``notebooks/`` in its stored
form (:func:`stored_form`): an edit stays, a run leaves no trace. Notebooks elsewhere (your
``scratch/`` copies) are saved as JupyterLab saves them.

>>> node = {"metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "name": "python3",
...                                     "language": "python"},
...                      "language_info": {"name": "python", "version": "3.11.2"}},
...         "cells": [{"cell_type": "code", "execution_count": 3, "source": "x",
...                    "metadata": {"scrolled": True, "tags": []}, "outputs": [{"output_type": "stream"}]}]}
>>> stored_form(node)["cells"]
[{'cell_type': 'code', 'execution_count': None, 'source': 'x', 'metadata': {}, 'outputs': []}]
>>> stored_form(node)["metadata"]["kernelspec"]["display_name"]
'Python 3'
"""

from __future__ import annotations

from pathlib import Path

from .executed import KERNELSPEC
from .paths import NOTEBOOKS_DIR, inside

__all__ = ["stored_form", "keep_stored_form", "CONFIG_FILE"]

CONFIG_FILE = (Path(__file__).resolve().parents[1] / "data" / "jupyter"
               / "jupyter_server_config.json")
"""The Jupyter server configuration that installs :func:`keep_stored_form`."""
STORED_CELL_METADATA = ("tags",)


def stored_form(node: dict) -> dict:
    """A notebook (its JSON) as the workbook stores it: code cells without outputs or
    execution counts, cells' metadata only their (non-empty) tags, the kernel named as
    papermill runs it and only the language's name."""
    metadata = node.setdefault("metadata", {})
    metadata["kernelspec"] = dict(KERNELSPEC)
    metadata["language_info"] = {"name": "python"}
    for cell in node.get("cells", []):
        kept = {key: value for key, value in cell.get("metadata", {}).items()
                if key in STORED_CELL_METADATA and value}
        cell["metadata"] = kept
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return node


def keep_stored_form(model: dict, path: str, contents_manager, **kwargs) -> None:
    """The Jupyter server's ``pre_save_hook``: a notebook of the workbook's ``notebooks/`` is
    saved in its stored form (:func:`stored_form`); any other file as it is."""
    if model.get("type") != "notebook" or NOTEBOOKS_DIR is None or not model.get("content"):
        return
    root = Path(getattr(contents_manager, "root_dir", "."))
    if inside(root / path.lstrip("/"), NOTEBOOKS_DIR):
        stored_form(model["content"])
