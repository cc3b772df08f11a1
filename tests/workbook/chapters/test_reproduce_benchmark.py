"""Notebook 01's chapter: every row under every rule, and Table 1, published beside recomputed."""

from __future__ import annotations

from recallscore_nb.workbook.chapters import reproduce_benchmark as ch01
from tests.conftest import write_benchmark
from tests.workbook.chapters.sessions import session, written


def test_the_shipped_benchmark_reproduces_and_its_numbers_are_quoted(tmp_path):
    nb = session(ch01, tmp_path)
    assert ch01.scores(nb)["checklist_full_match"].sum() == 8
    labels, summary = ch01.labels(nb), ch01.summary(nb)
    assert len(labels) == 12 and labels["agrees"].tolist() == [True] * 12
    published = summary.set_index("field").loc["literalFullMatches", ["published", "recomputed"]]
    assert published.tolist() == [1, 1]
    shown = nb.quote(ch01.numbers(labels, summary))
    assert {k: nb.numbers[k] for k in ("RowsAgreeing", "VariantCount", "LiteralFullMatches",
                                       "NormalizedFullMatches", "ChecklistFullMatches")} == {
        "RowsAgreeing": "12", "VariantCount": "12", "LiteralFullMatches": "1",
        "NormalizedFullMatches": "4", "ChecklistFullMatches": "8"}
    assert shown.iloc[0].tolist() == ["\\rsRowsAgreeing", "12"]
    assert not (tmp_path / "tables").exists()  # steps compute; only nb.save writes
    assert nb.save("labels", labels) is labels
    assert written(tmp_path, ch01.STEM, "labels")


def test_a_benchmark_of_ones_own(tmp_path):
    nb = session(ch01, tmp_path, benchmark_path=str(write_benchmark(tmp_path)))
    labels = ch01.labels(nb)
    assert labels["id"].tolist() == ["K1", "K2", "K3", "K4", "K5"]
    assert ch01.numbers(labels, ch01.summary(nb))["RowsAgreeing"] == 5


def test_start_reads_the_benchmark_and_signs_the_rules_of_its_squad_mode(tmp_path):
    namespace = {"__annotations__": {"output_dir": str, "benchmark_path": str, "squad_mode": str},
                 "output_dir": str(tmp_path), "benchmark_path": "", "squad_mode": "v2.0"}
    nb = ch01.start(namespace)
    assert nb.params.squad_mode == "v2.0"
    assert list(nb.inputs) == ["recallscore_nb/data/benchmarks/four_fact_recall.json"]
    assert "squad_exact_match|mode:v2.0|norm:squad|version:" in "\n".join(nb.signatures)
    nb.discard()
