"""The executed notebooks of reports/ read as documents: the session cell lists every input the
notebook read, however late; tables as the paper prints them (three decimals, no index, every
row); after each saved result a sentence composed from its values; and a closing "what this
notebook found". Notebook 08 adopts the sentences with issue 20 (:data:`ADOPTING`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports"
EXECUTED = sorted((REPORTS / "notebooks").glob("*.ipynb"))
MANIFEST = json.loads((REPORTS / "manifest.json").read_text())
ADOPTING: set[str] = set()
"""Notebooks whose results do not say anything yet (their owner adopts the notes)."""


def _cells(path: Path) -> list[dict]:
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def _text(output: dict, mime: str) -> str:
    value = output.get("data", {}).get(mime, "")
    return "".join(value) if isinstance(value, list) else value


@pytest.mark.parametrize("path", EXECUTED, ids=[p.stem for p in EXECUTED])
def test_the_session_cell_lists_every_input_the_notebook_read(path):
    """Failure 4 of issue 21: 05's session cell showed no attempts file and 08's `inputs:
    none`, drawn before the inputs were read."""
    shown = "".join(_text(o, "text/plain") for o in _cells(path)[1]["outputs"])
    for entry in MANIFEST["notebooks"][path.stem]["inputs"]:
        assert f"{entry['path']}  sha256:{entry['sha256']}" in shown, entry["path"]


@pytest.mark.parametrize("path", EXECUTED, ids=[p.stem for p in EXECUTED])
def test_tables_show_three_decimals_no_index_and_every_row(path):
    """Failure 5 of issue 21: six decimals, a 0..n index, 05's intervals cut to 10 rows."""
    for cell in _cells(path):
        for output in cell["outputs"]:
            html = _text(output, "text/html")
            if "<table" not in html:
                continue
            if path.stem not in ADOPTING:  # 08's tables hold some numbers as text, as its files do
                assert not re.search(r">\d+\.\d{4,}<", html), cell["source"]
            assert "…" not in html and "rows × " not in html and "<th></th>" not in html
    if path.stem == "05_reanalysis":
        [intervals] = [o for c in _cells(path) if "nb.save(\"intervals\", intervals)" in "".join(c["source"])
                       for o in c["outputs"] if "<table" in _text(o, "text/html")]
        assert _text(intervals, "text/html").count("<tr>") == 1 + 80  # 8 systems, 10 measures


@pytest.mark.parametrize("path", [p for p in EXECUTED if p.stem not in ADOPTING],
                         ids=[p.stem for p in EXECUTED if p.stem not in ADOPTING])
def test_each_result_is_followed_by_what_it_shows_and_the_notebook_by_what_it_found(path):
    """Failure 5 of issue 21: the text said what each step does, never what its result shows,
    and no notebook ended with what it found."""
    for cell in _cells(path):
        source = "".join(cell["source"])
        if source.startswith("nb.save(") or "\nnb.save(" in source:
            notes = [_text(o, "text/markdown") for o in cell["outputs"] if _text(o, "text/markdown")]
            assert len(notes) == 1 and re.search(r"\d", notes[0]), source
    closing = [_text(o, "text/markdown") for o in _cells(path)[-1]["outputs"]]
    assert closing[-1].startswith("**What this notebook found**\n\n- "), closing
