"""Fixtures of the chapters' tests: figures saved as SVG only, and a small benchmark of our
own (another reference than the shipped one)."""

from __future__ import annotations

import json

import pytest

from recallscore_nb.render import figures


@pytest.fixture
def svg_only(monkeypatch):
    """Figures saved as SVG only: each format costs about half a second per figure."""
    monkeypatch.setattr(figures, "FIGURE_FORMATS", ("svg",))


@pytest.fixture
def own_benchmark(tmp_path):
    """Another reference, three facts, no labels, no conditions; counted by hand:
    o1 copies the reference; o2 drops the article "A" (so SQuAD EM and the checklist pass,
    literal and normalized fail); o3 keeps two facts; o4 is the reference upper-cased."""
    reference = "A blue heron waits at the quiet pond."
    rows = [reference, "blue heron waits at the quiet pond", "A heron waits at the pond.",
            reference.upper()]
    path = tmp_path / "heron.json"
    path.write_text(json.dumps({
        "schemaVersion": 1, "referenceAnswer": reference,
        "protocol": {"factChecklist": [
            {"fact": "bird", "requiredTerms": ["blue heron"]},
            {"fact": "action", "requiredTerms": ["waits"]},
            {"fact": "place", "requiredTerms": ["pond"]}]},
        "rows": [{"id": f"o{i}", "attempt": a} for i, a in enumerate(rows, start=1)],
    }))
    return path
