"""Notebook 04's steps: the schema's measures beside the rules', their agreement with each
other and against the facts-complete label, and the numbers."""

from __future__ import annotations

import math

import pytest

import recallscore_nb as rs
from tests.conftest import write_benchmark
from tests.workbook.sessions import session, written

STEM = "04_rule_agreement"


def steps(nb):
    """Every table of notebook 04, as its cells make them, and its numbers quoted."""
    scored = rs.with_schema_measures(
        rs.score_benchmark(nb.benchmark, squad_mode=nb.params.squad_mode),
        nb.benchmark, nb.schema)
    labels = rs.facts_complete_labels(nb.benchmark)
    tables = {
        "scores": rs.side_by_side(scored, labels),
        "agreement": rs.na_as_text(rs.agreement_table(scored, rs.binary_measures_with_schema())),
        "precision_recall": rs.na_as_text(rs.precision_recall_table(
            scored, labels, rules=rs.binary_measures_with_schema(),
            extra_graded=("weighted_score",))),
        "disagreements": rs.disagreements(nb.benchmark, scored)}
    nb.quote(rs.agreement_numbers(tables["agreement"], tables["precision_recall"],
                                  tables["disagreements"]))
    return tables


# --- 04 ------------------------------------------------------------------------------------
def test_04_on_the_shipped_benchmark(tmp_path):
    nb = session(STEM, tmp_path)
    t = steps(nb)
    assert t["scores"]["partial_credit"].tolist() == [1] * 8 + [3 / 4] * 4
    table = t["agreement"].set_index(["rule_a", "rule_b"])
    # literal vs normalized: n=12, agree=9, S=1·4+11·8=92: (108-92)/(144-92) = 4/13
    assert table.loc[("literal", "normalized"), "kappa"] == pytest.approx(4 / 13, abs=1e-15)
    assert table.loc[("literal", "normalized"), "agreement_pct"] == 75
    assert nb.numbers["AgreementKappaLiteralNormalized"] == "0.308"
    assert nb.numbers["AgreementKappaNormalizedSquad"] == "1.000"
    pr = t["precision_recall"].set_index("rule")
    assert pr.loc["literal", ["precision", "recall"]].tolist() == [1, 1 / 8]
    assert pr.loc["checklist", ["precision", "recall"]].tolist() == [1, 1]
    # equivalent accepts R01-R09 (R09 by overlap, "copper" left out), not R10-R12 (a fact
    # replaced): tp 8, fp 1
    assert pr.loc["equivalent", ["tp", "fp", "precision", "recall"]].tolist() == [8, 1, 8 / 9, 1]
    assert pr.loc["schema", ["precision", "recall"]].tolist() == [1, 1]
    # the shipped schema's weighted scores: 1 for R01-R08; R09 5/6, R10 and R11 1/2, R12 3/4
    assert pr.loc["weighted_score", "mean_incomplete"] == pytest.approx((5 / 6 + 1 / 2 + 1 / 2 + 3 / 4) / 4)
    assert table.loc[("checklist", "schema"), "kappa"] == 1
    assert pr.loc["token_f1", "precision"] == "n/a"
    assert nb.numbers["AgreementRecallNormalized"] == "0.500"
    assert nb.numbers["AgreementMeanPartialCreditIncomplete"] == "0.750"
    # R10-R12 fail every rule, the schema's too: no disagreement; R09 passes equivalent only
    assert t["disagreements"]["id"].tolist() == ["R02", "R03", "R04", "R05", "R06", "R07", "R08",
                                                "R09"]
    assert nb.numbers["AgreementDisagreeingRows"] == "8"
    for what, frame in t.items():
        nb.save(what, frame)
        assert written(tmp_path, STEM, what)


def test_04_on_a_benchmark_of_our_own(tmp_path, own_benchmark):
    nb = session(STEM, tmp_path, benchmark_path=str(own_benchmark))
    t = steps(nb)
    scores = t["scores"]
    assert scores["literal"].tolist() == [True, False, False, False]
    assert scores["squad_exact_match"].tolist() == [True, True, False, True]
    assert scores["facts_complete"].tolist() == ["n/a"] * 4
    table = t["agreement"].set_index(["rule_a", "rule_b"])
    # SQuAD EM and the checklist agree on every row: o1, o2, o4 pass, o3 fails: kappa 1.
    assert table.loc[("squad_exact_match", "checklist"), "kappa"] == 1
    # equivalent: o1, o2, o4 the same words; o3 3 of the 5 content words, short of 2/3
    assert scores["equivalent"].tolist() == [True, True, False, True]
    assert table.loc[("checklist", "equivalent"), "kappa"] == 1
    pr = t["precision_recall"]
    assert pr["precision"].tolist() == ["n/a"] * 10 and pr["unlabelled"].tolist() == [4] * 10
    assert nb.numbers["AgreementPrecisionLiteral"] == "n/a"
    dis = t["disagreements"].set_index("id")
    assert dis.loc["o2", "token_diff"] == "-[a]"
    assert dis.loc["o2", "missing_terms"] == "none"


def test_04_kappa_undefined_is_na(tmp_path):
    # Every binary rule passes every row: kappa is undefined for every pair.
    path = write_benchmark(tmp_path, "same.json", data={
        "schemaVersion": 1, "referenceAnswer": "Yes.",
        "protocol": {"factChecklist": [{"fact": "answer", "requiredTerms": ["yes"]}]},
        "rows": [{"id": "s1", "attempt": "Yes."}, {"id": "s2", "attempt": "Yes."}],
    })
    nb = session(STEM, tmp_path, benchmark_path=str(path))
    t = steps(nb)
    assert t["agreement"]["kappa"].tolist() == ["n/a"] * 21  # 7 binary measures, 21 pairs
    assert t["agreement"]["agreement_pct"].tolist() == [100] * 21
    assert nb.numbers["AgreementKappaLiteralChecklist"] == "n/a"
    assert t["disagreements"].empty
    assert not math.isnan(float(nb.numbers["AgreementPercentLiteralChecklist"]))
