"""The workbook tests' fixture: a book of two notebooks whose execution is faked."""

from __future__ import annotations

import pytest

from recallscore_nb.workbook import runner as workbook
from tests.workbook.books import fake_execute_all, notebook


@pytest.fixture
def book(tmp_path, monkeypatch):
    """Two notebooks, reports/ in tmp, execution faked."""
    notebooks, reports = tmp_path / "notebooks", tmp_path / "reports"
    notebooks.mkdir()
    for stem in ("01_first", "02_second"):
        notebook(notebooks / f"{stem}.ipynb", "pass")
    monkeypatch.setattr(workbook, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(workbook, "REPORTS_DIR", reports)
    monkeypatch.setattr(workbook, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(workbook, "STAMPS_DIR", tmp_path / ".stamps")
    monkeypatch.setattr(workbook, "_code_fingerprint", lambda: "fixed code")
    monkeypatch.setattr(workbook, "_execute_all", fake_execute_all)
    return tmp_path
