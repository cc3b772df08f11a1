"""Notebook 04's chapter: agreement between the rules and against the facts-complete label."""

from __future__ import annotations

import json
import math

import pytest

from recallscore_nb.render import figures
from recallscore_nb.workbook.chapters import rule_agreement as ch04
from recallscore_nb.workbook.session import Session


def session(chapter, tmp_path, benchmark_path="", **extra) -> Session:
    parameters = {"output_dir": str(tmp_path), "benchmark_path": str(benchmark_path), **extra}
    return Session(stem=chapter.STEM, parameters=parameters, output_dir=tmp_path)


def written(tmp_path, stem, what, kind="tables"):
    exts = ("csv", "md", "tex") if kind == "tables" else figures.FIGURE_FORMATS
    return all((tmp_path / kind / f"{stem}__{what}.{ext}").stat().st_size > 0 for ext in exts)


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


# --- 04 ------------------------------------------------------------------------------------
def test_04_on_the_shipped_benchmark(tmp_path):
    nb = session(ch04, tmp_path, squad_mode="v1.1")
    scores = ch04.scores_table(nb)
    assert scores["partial_credit"].tolist() == [1] * 8 + [3 / 4] * 4
    table = ch04.agreement(nb).set_index(["rule_a", "rule_b"])
    # literal vs normalized: n=12, agree=9, S=1·4+11·8=92: (108-92)/(144-92) = 4/13
    assert table.loc[("literal", "normalized"), "kappa"] == pytest.approx(4 / 13, abs=1e-15)
    assert table.loc[("literal", "normalized"), "agreement_pct"] == 75
    assert nb.numbers["AgreementKappaLiteralNormalized"] == "0.308"
    assert nb.numbers["AgreementKappaNormalizedSquad"] == "1.000"
    pr = ch04.precision_recall(nb).set_index("rule")
    assert pr.loc["literal", ["precision", "recall"]].tolist() == [1, 1 / 8]
    assert pr.loc["checklist", ["precision", "recall"]].tolist() == [1, 1]
    assert pr.loc["schema", ["precision", "recall"]].tolist() == [1, 1]
    # the shipped schema's weighted scores: 1 for R01-R08; R09 5/6, R10 and R11 1/2, R12 3/4
    assert pr.loc["weighted_score", "mean_incomplete"] == pytest.approx((5 / 6 + 1 / 2 + 1 / 2 + 3 / 4) / 4)
    assert table.loc[("checklist", "schema"), "kappa"] == 1
    assert pr.loc["token_f1", "precision"] == "n/a"
    assert nb.numbers["AgreementRecallNormalized"] == "0.500"
    assert nb.numbers["AgreementMeanPartialCreditIncomplete"] == "0.750"
    dis = ch04.disagreement_table(nb)
    assert dis["id"].tolist() == ["R02", "R03", "R04", "R05", "R06", "R07", "R08"]
    assert nb.numbers["AgreementDisagreeingRows"] == "7"
    for what in ("scores", "agreement", "precision_recall", "disagreements"):
        assert written(tmp_path, ch04.STEM, what)


def test_04_on_a_benchmark_of_our_own(tmp_path, own_benchmark):
    nb = session(ch04, tmp_path, own_benchmark, squad_mode="v1.1")
    scores = ch04.scores_table(nb)
    assert scores["literal"].tolist() == [True, False, False, False]
    assert scores["squad_exact_match"].tolist() == [True, True, False, True]
    assert scores["facts_complete"].tolist() == ["n/a"] * 4
    table = ch04.agreement(nb).set_index(["rule_a", "rule_b"])
    # SQuAD EM and the checklist agree on every row: o1, o2, o4 pass, o3 fails: kappa 1.
    assert table.loc[("squad_exact_match", "checklist"), "kappa"] == 1
    pr = ch04.precision_recall(nb)
    assert pr["precision"].tolist() == ["n/a"] * 8 and pr["unlabelled"].tolist() == [4] * 8
    assert nb.numbers["AgreementPrecisionLiteral"] == "n/a"
    dis = ch04.disagreement_table(nb).set_index("id")
    assert dis.loc["o2", "token_diff"] == "-[a]"
    assert dis.loc["o2", "missing_terms"] == "none"


def test_04_kappa_undefined_is_na(tmp_path):
    # Every binary rule passes every row: kappa is undefined for every pair.
    path = tmp_path / "same.json"
    path.write_text(json.dumps({
        "schemaVersion": 1, "referenceAnswer": "Yes.",
        "protocol": {"factChecklist": [{"fact": "answer", "requiredTerms": ["yes"]}]},
        "rows": [{"id": "s1", "attempt": "Yes."}, {"id": "s2", "attempt": "Yes."}],
    }))
    nb = session(ch04, tmp_path, path, squad_mode="v1.1")
    table = ch04.agreement(nb)
    assert table["kappa"].tolist() == ["n/a"] * 10
    assert table["agreement_pct"].tolist() == [100] * 10
    assert nb.numbers["AgreementKappaLiteralChecklist"] == "n/a"
    assert ch04.disagreement_table(nb).empty
    assert not math.isnan(float(nb.numbers["AgreementPercentLiteralChecklist"]))
