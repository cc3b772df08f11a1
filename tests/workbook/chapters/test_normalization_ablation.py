"""Notebook 03's chapter: the pipelines, the verdicts, the flips and the heatmap."""

from __future__ import annotations

import json

import pytest

from recallscore_nb.analysis.ablation import ABLATIONS, pipeline_signature
from recallscore_nb.render import figures
from recallscore_nb.workbook.chapters import normalization_ablation as ch03
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


# --- 03 ------------------------------------------------------------------------------------
def test_03_start_signs_every_pipeline(tmp_path):
    namespace = {"__annotations__": {"output_dir": str, "benchmark_path": str},
                 "output_dir": str(tmp_path), "benchmark_path": ""}
    nb = ch03.start(namespace)
    for normalizer in ABLATIONS.values():
        assert pipeline_signature(normalizer) in nb.signatures


def test_03_flips_on_the_shipped_benchmark(tmp_path):
    nb = session(ch03, tmp_path)
    assert ch03.pipelines_table(nb)["pipeline"].tolist() == list(ABLATIONS)
    assert len(ch03.verdicts_table(nb)) == 7 * 12
    flips = ch03.flips_table(nb).set_index(["pipeline", "rule"])["flips"]
    assert flips[("seed-nocase", "checklist_full_match")] == 4
    assert flips[("seed-nopunct", "checklist_full_match")] == 7
    assert nb.numbers["AblationNormalizedFlipsSeedNospace"] == "1"
    assert nb.numbers["AblationChecklistFlipsSeedNfkc"] == "0"
    assert nb.numbers["AblationPipelinesFlipping"] == "3"
    matrix = ch03.ablation_matrix(nb)
    assert matrix.loc[matrix["id"] == "flips", "seed-nopunct"].tolist() == ["1", "7", "7"]
    assert flips[("seed-nocase", "schema_full_match")] == 4
    assert nb.numbers["AblationSchemaFlipsSeedNopunct"] == "7"
    for what in ("pipelines", "verdicts", "flips", "matrix"):
        assert written(tmp_path, ch03.STEM, what)


def test_03_on_a_benchmark_of_our_own(tmp_path, own_benchmark, svg_only):
    nb = session(ch03, tmp_path, own_benchmark)
    flips = ch03.flips_table(nb).set_index(["pipeline", "rule"])
    # o4 (upper case) loses both verdicts without case folding.
    assert flips.loc[("seed-nocase", "normalized_match"), "lost"] == "o4"
    assert flips.loc[("seed-nocase", "checklist_full_match"), "lost"] == "o4"
    # o1 ends "pond." which no longer matches the term "pond" without punctuation deletion.
    assert flips.loc[("seed-nopunct", "checklist_full_match"), "lost"] == "o1, o4"
    # o2 lacks only the reference's leading article: removing articles makes it match.
    assert flips.loc[("seed+articles", "normalized_match"), "gained"] == "o2"
    ch03.ablation_figure(nb)
    assert written(tmp_path, ch03.STEM, "heatmap", "figures")
