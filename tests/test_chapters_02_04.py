"""The step functions of notebooks 02-04, called directly with a Session writing to a
temporary folder: the values of the tables they return, the paper numbers they record, and
the files they write. A benchmark of our own (another reference, three facts, no labels)
checks that nothing depends on the shipped one.
"""

from __future__ import annotations

import json
import math

import pytest

from recallscore_nb.render import figures
from recallscore_nb.analysis.ablation import ABLATIONS, pipeline_signature
from recallscore_nb.workbook.chapters import normalization_ablation as ch03
from recallscore_nb.workbook.chapters import rule_agreement as ch04
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
