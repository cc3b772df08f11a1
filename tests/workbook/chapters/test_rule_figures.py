"""Notebook 02's chapter: the rules' matrix, the facts-complete bars and the facts present, on the
shipped benchmark and on one of our own."""

from __future__ import annotations

import json

import pytest

from recallscore_nb.render import figures
from recallscore_nb.workbook.chapters import rule_figures as ch02
from recallscore_nb.workbook.session import Session


def session(chapter, tmp_path, benchmark_path="", **extra) -> Session:
    parameters = {"output_dir": str(tmp_path), "benchmark_path": str(benchmark_path), **extra}
    return Session(stem=chapter.STEM, parameters=parameters, output_dir=tmp_path)


def written(tmp_path, stem, what, kind="tables"):
    exts = ("csv", "md", "tex") if kind == "tables" else figures.FIGURE_FORMATS
    return all((tmp_path / kind / f"{stem}__{what}.{ext}").stat().st_size > 0 for ext in exts)


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


# --- 02 ------------------------------------------------------------------------------------
def test_02_tables_and_figures_on_the_shipped_benchmark(tmp_path, svg_only):
    nb = session(ch02, tmp_path, squad_mode="v1.1")
    matrix = ch02.matrix_table(nb)
    assert matrix["literal_match"].sum() == 1 and matrix["checklist_full_match"].sum() == 8
    assert matrix["facts_present"].tolist() == [4] * 8 + [3] * 4
    counts = ch02.label_table(nb).set_index("rule")
    assert counts.loc["checklist", ["complete_pass", "incomplete_pass"]].tolist() == [8, 0]
    assert counts.loc["literal", ["complete_pass", "complete_total"]].tolist() == [1, 8]
    assert nb.numbers["FigureCompletePassNormalized"] == "4"
    facts = ch02.facts_table(nb)
    assert facts["missing"].tolist()[8:] == ["material", "location", "timing", "material"]
    for step, what in [(ch02.matrix_figure, "matrix"), (ch02.label_figure, "by_label"),
                       (ch02.facts_figure, "facts")]:
        step(nb)
        assert written(tmp_path, ch02.STEM, what, "figures")
    for what in ("matrix", "by_label", "facts"):
        assert written(tmp_path, ch02.STEM, what)


def test_02_without_labels_says_na(tmp_path, own_benchmark):  # every format, once
    nb = session(ch02, tmp_path, own_benchmark, squad_mode="v1.1")
    counts = ch02.label_table(nb)
    assert counts["complete_pass"].tolist() == ["n/a"] * 4
    assert counts["unlabelled"].tolist() == [4] * 4
    assert nb.numbers["FigureCompletePassChecklist"] == "n/a"
    assert ch02.facts_table(nb)["facts_total"].tolist() == [3] * 4
    ch02.label_figure(nb)
    assert written(tmp_path, ch02.STEM, "by_label", "figures")
