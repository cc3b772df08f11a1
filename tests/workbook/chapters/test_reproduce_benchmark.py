"""Notebook 01's chapter: every row under every rule, and Table 1, published beside recomputed."""

from __future__ import annotations

from recallscore_nb.workbook.chapters import reproduce_benchmark as ch01
from recallscore_nb.workbook.session import Session
from tests.conftest import write_benchmark


def _session(tmp_path, benchmark_path="") -> Session:
    return Session(stem=ch01.STEM, output_dir=tmp_path,
                   parameters={"output_dir": str(tmp_path), "benchmark_path": str(benchmark_path),
                               "squad_mode": "v1.1"})


def test_the_shipped_benchmark_reproduces_and_its_numbers_are_recorded(tmp_path):
    nb = _session(tmp_path)
    assert ch01.scores_table(nb)["checklist_full_match"].sum() == 8
    labels = ch01.labels_table(nb)
    assert len(labels) == 12
    summary = ch01.summary_table(nb).set_index("field")
    assert summary.loc["literalFullMatches", ["published", "recomputed"]].tolist() == [1, 1]
    assert {k: nb.numbers[k] for k in ("RowsAgreeing", "VariantCount", "LiteralFullMatches",
                                       "NormalizedFullMatches", "ChecklistFullMatches")} == {
        "RowsAgreeing": "12", "VariantCount": "12", "LiteralFullMatches": "1",
        "NormalizedFullMatches": "4", "ChecklistFullMatches": "8"}
    written = sorted(p.name for p in (tmp_path / "tables").iterdir())
    assert written[:3] == ["01_reproduce_benchmark__labels.csv",
                           "01_reproduce_benchmark__labels.md",
                           "01_reproduce_benchmark__labels.tex"]


def test_a_benchmark_of_ones_own(tmp_path):
    nb = _session(tmp_path, write_benchmark(tmp_path))
    assert ch01.labels_table(nb)["id"].tolist() == ["K1", "K2", "K3", "K4", "K5"]
    assert nb.numbers["RowsAgreeing"] == "5"
