"""The numbers the paper quotes: notebook 01's steps (every row under every rule, and Table 1,
published beside recomputed) and its numbers quoted; the fact names as number tags (07). The
other notebooks' numbers are checked beside their tables, in the tests of those tables'
modules."""

from __future__ import annotations

import pytest

import recallscore_nb as rs
from recallscore_nb.analysis.paper_numbers import _tag
from tests.conftest import write_benchmark
from tests.workbook.sessions import session, written

STEM = "01_reproduce_benchmark"


def test_the_shipped_benchmark_reproduces_and_its_numbers_are_quoted(tmp_path):
    nb = session(STEM, tmp_path)
    squad_mode = nb.params.squad_mode
    assert rs.score_benchmark(nb.benchmark, squad_mode=squad_mode)["checklist_full_match"].sum() == 8
    labels = rs.reproduce(nb.benchmark, squad_mode=squad_mode).rows
    summary = rs.reproduce(nb.benchmark, squad_mode=squad_mode).summary
    assert len(labels) == 12 and labels["agrees"].tolist() == [True] * 12
    published = summary.set_index("field").loc["literalFullMatches", ["published", "recomputed"]]
    assert published.tolist() == [1, 1]
    shown = nb.quote(rs.reproduction_numbers(labels, summary))
    assert {k: nb.numbers[k] for k in ("RowsAgreeing", "VariantCount", "LiteralFullMatches",
                                       "NormalizedFullMatches", "ChecklistFullMatches")} == {
        "RowsAgreeing": "12", "VariantCount": "12", "LiteralFullMatches": "1",
        "NormalizedFullMatches": "4", "ChecklistFullMatches": "8"}
    assert shown.iloc[0].tolist() == ["\\rsRowsAgreeing", "12"]
    assert not (tmp_path / "tables").exists()  # steps compute; only nb.save writes
    assert nb.save("labels", labels) is labels
    assert written(tmp_path, STEM, "labels")


def test_a_benchmark_of_ones_own(tmp_path):
    nb = session(STEM, tmp_path, benchmark_path=str(write_benchmark(tmp_path)))
    reproduction = rs.reproduce(nb.benchmark, squad_mode=nb.params.squad_mode)
    labels = reproduction.rows
    assert labels["id"].tolist() == ["K1", "K2", "K3", "K4", "K5"]
    assert rs.reproduction_numbers(labels, reproduction.summary)["RowsAgreeing"] == 5


@pytest.mark.parametrize("name, tag", [("material", "Material"), ("west_drawer", "WestDrawer"),
                                       ("fact2b", "FactB"), ("_9", "")])
def test_fact_names_as_number_tags(name, tag):
    assert _tag(name) == tag


def test_the_readings_of_the_reference_judge_are_quoted_with_the_share_accepted(tmp_path):
    """Issue 30: on a set whose judges read one rating three ways (EfficientQA's), the macros
    hold each reading's kappa, recall and share accepted; by hand on three answers."""
    import json

    from recallscore_nb.analysis.meta_sets import meta_evaluate_sets
    from recallscore_nb.analysis.paper_numbers import human_agreement_numbers
    from recallscore_nb.io.converters import convert_efficientqa
    from recallscore_nb.io.human_sets import read_judged_sets

    record = {"question": "q", "answer": ["Paris"], "def_correct_predictions": ["in Paris"],
              "poss_correct_predictions": ["Paris, Texas"],
              "def_incorrect_predictions": ["Lyon"]}
    (tmp_path / "eqa.jsonl").write_text(json.dumps(record) + "\n")
    convert_efficientqa(tmp_path / "eqa.jsonl", tmp_path / "set")
    numbers = human_agreement_numbers(meta_evaluate_sets(read_judged_sets(str(tmp_path / "set")),
                                                         resamples=20, seed=1))
    assert numbers["AgreeSetJudgedAttempts"] == 2  # the definite ratings
    assert numbers["AgreeSetAcceptedPercent"] == "50.0"  # 1 of 2
    assert numbers["AgreeSetStrictAcceptedPercent"] == "33.3"  # 1 of 3
    assert numbers["AgreeSetLenientAcceptedPercent"] == "66.7"  # 2 of 3
    assert numbers["AgreeSetRecallContains"] == "1.000"  # "in Paris" holds Paris
    assert numbers["AgreeSetLenientRecallContains"] == "1.000"  # and "Paris, Texas"
    assert numbers["AgreeSetRecallLiteral"] == "0.000"
    assert "AgreeSetLenientAccuracyContains" not in numbers  # accuracy: the reference's only
