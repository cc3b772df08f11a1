"""Notebook 03's steps: the pipelines, the verdicts, the flips, the heatmap and the numbers."""

from __future__ import annotations

import recallscore_nb as rs
from recallscore_nb.analysis.ablation import ABLATIONS
from tests.workbook.sessions import session, written

STEM = "03_normalization_ablation"


def test_03_flips_on_the_shipped_benchmark(tmp_path):
    nb = session(STEM, tmp_path)
    assert rs.ablation_pipelines()["pipeline"].tolist() == list(ABLATIONS)
    verdicts = rs.ablation_table(nb.benchmark, schema=nb.schema)
    assert len(verdicts) == 7 * 12
    flips = rs.flips(verdicts, baseline="seed")
    by_rule = flips.set_index(["pipeline", "rule"])["flips"]
    assert by_rule[("seed-nocase", "checklist_full_match")] == 4
    assert by_rule[("seed-nopunct", "checklist_full_match")] == 7
    assert by_rule[("seed-nocase", "schema_full_match")] == 4
    nb.quote(rs.ablation_numbers(flips, baseline="seed"))
    assert nb.numbers["AblationNormalizedFlipsSeedNospace"] == "1"
    assert nb.numbers["AblationChecklistFlipsSeedNfkc"] == "0"
    assert nb.numbers["AblationPipelinesFlipping"] == "3"
    assert nb.numbers["AblationSchemaFlipsSeedNopunct"] == "7"
    matrix = rs.matrix_table(verdicts, baseline="seed")
    assert matrix.loc[matrix["id"] == "flips", "seed-nopunct"].tolist() == ["1", "7", "7"]
    for what, table in (("pipelines", rs.ablation_pipelines()), ("verdicts", verdicts),
                        ("flips", flips), ("matrix", matrix)):
        nb.save(what, table)
        assert written(tmp_path, STEM, what)


def test_03_on_a_benchmark_of_our_own(tmp_path, own_benchmark, svg_only):
    nb = session(STEM, tmp_path, benchmark_path=str(own_benchmark))
    verdicts = rs.ablation_table(nb.benchmark, schema=nb.schema)
    flips = rs.flips(verdicts, baseline="seed").set_index(["pipeline", "rule"])
    # o4 (upper case) loses both verdicts without case folding.
    assert flips.loc[("seed-nocase", "normalized_match"), "lost"] == "o4"
    assert flips.loc[("seed-nocase", "checklist_full_match"), "lost"] == "o4"
    # o1 ends "pond." which no longer matches the term "pond" without punctuation deletion.
    assert flips.loc[("seed-nopunct", "checklist_full_match"), "lost"] == "o1, o4"
    # o2 lacks only the reference's leading article: removing articles makes it match.
    assert flips.loc[("seed+articles", "normalized_match"), "gained"] == "o2"
    heatmap = rs.ablation_figure(rs.heatmap_panels(verdicts, baseline="seed"), baseline="seed")
    nb.save("heatmap", heatmap)
    assert written(tmp_path, STEM, "heatmap", "figures")
