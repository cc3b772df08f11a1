"""Notebook 03's chapter: the pipelines, the verdicts, the flips and the heatmap."""

from __future__ import annotations


from recallscore_nb.analysis.ablation import ABLATIONS, pipeline_signature
from recallscore_nb.workbook.chapters import normalization_ablation as ch03
from tests.workbook.chapters.sessions import session, written


# --- 03 ------------------------------------------------------------------------------------
def test_03_start_signs_every_pipeline(tmp_path):
    namespace = {"__annotations__": {"output_dir": str, "benchmark_path": str, "schema_path": str},
                 "output_dir": str(tmp_path), "benchmark_path": "", "schema_path": ""}
    nb = ch03.start(namespace)
    for normalizer in ABLATIONS.values():
        assert pipeline_signature(normalizer) in nb.signatures
    assert nb.signatures[-1] == nb.schema.signature()
    nb.discard()


def test_03_flips_on_the_shipped_benchmark(tmp_path):
    nb = session(ch03, tmp_path)
    assert ch03.pipelines()["pipeline"].tolist() == list(ABLATIONS)
    verdicts = ch03.verdicts(nb)
    assert len(verdicts) == 7 * 12
    flips = ch03.flips(verdicts)
    by_rule = flips.set_index(["pipeline", "rule"])["flips"]
    assert by_rule[("seed-nocase", "checklist_full_match")] == 4
    assert by_rule[("seed-nopunct", "checklist_full_match")] == 7
    assert by_rule[("seed-nocase", "schema_full_match")] == 4
    nb.quote(ch03.numbers(flips))
    assert nb.numbers["AblationNormalizedFlipsSeedNospace"] == "1"
    assert nb.numbers["AblationChecklistFlipsSeedNfkc"] == "0"
    assert nb.numbers["AblationPipelinesFlipping"] == "3"
    assert nb.numbers["AblationSchemaFlipsSeedNopunct"] == "7"
    matrix = ch03.matrix(verdicts)
    assert matrix.loc[matrix["id"] == "flips", "seed-nopunct"].tolist() == ["1", "7", "7"]
    for what, table in (("pipelines", ch03.pipelines()), ("verdicts", verdicts), ("flips", flips),
                        ("matrix", matrix)):
        nb.save(what, table)
        assert written(tmp_path, ch03.STEM, what)


def test_03_on_a_benchmark_of_our_own(tmp_path, own_benchmark, svg_only):
    nb = session(ch03, tmp_path, benchmark_path=str(own_benchmark))
    verdicts = ch03.verdicts(nb)
    flips = ch03.flips(verdicts).set_index(["pipeline", "rule"])
    # o4 (upper case) loses both verdicts without case folding.
    assert flips.loc[("seed-nocase", "normalized_match"), "lost"] == "o4"
    assert flips.loc[("seed-nocase", "checklist_full_match"), "lost"] == "o4"
    # o1 ends "pond." which no longer matches the term "pond" without punctuation deletion.
    assert flips.loc[("seed-nopunct", "checklist_full_match"), "lost"] == "o1, o4"
    # o2 lacks only the reference's leading article: removing articles makes it match.
    assert flips.loc[("seed+articles", "normalized_match"), "gained"] == "o2"
    nb.save("heatmap", ch03.heatmap(verdicts))
    assert written(tmp_path, ch03.STEM, "heatmap", "figures")
