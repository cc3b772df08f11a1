"""Notebook 08's steps on the shipped example, values counted by hand from its three files."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import recallscore_nb as rs
from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.converters import convert_evouna
from tests.analysis.notebook_steps import evaluate
from tests.human_judgments import EVOUNA, needs_data
from tests.workbook.sessions import session

STEM = "08_human_agreement"


def examples_of(evaluation):
    return rs.disagreement_examples(evaluation, rules=("contains", "squad_exact_match"),
                                    per_category=2)


@pytest.fixture
def evaluation(tmp_path):
    return evaluate(session(STEM, tmp_path, resamples=50, sets="example"))


def test_accuracy_by_hand(evaluation):
    table = rs.accuracy_table(evaluation).set_index("system")
    assert (table.pop("set") == "example").all()
    # verbose: eight sentences, all judged correct by the majority; no exact match; seven
    # contain a reference (not "299,792 kilometres per second" against "299,792 km/s")
    assert table.loc["verbose", "human"] == 1.0
    assert table.loc["verbose", "squad_exact_match"] == 0.0
    assert table.loc["verbose", "contains"] == 7 / 8
    # span: "Sydney" is wrong; "Graham Bell" is no reference but 2 of 3 annotators accept it
    assert table.loc["span", "human"] == 7 / 8
    assert table.loc["span", "contains"] == 7 / 8  # "Graham Bell" contains "Bell"
    assert table.loc["guesser", "human"] == 1 / 8  # only "Canberra"


def test_accuracy_in_two_halves_for_print(evaluation):
    """Issue 30: the paper prints the rules (beside the reference judge) and the judges as two
    tables; together they hold every column of the whole."""
    whole = rs.accuracy_table(evaluation)
    rules = rs.accuracy_table(evaluation, columns="rules")
    judges = rs.accuracy_table(evaluation, columns="judges")
    assert rules.columns.tolist() == ["set", "system", *rs.measures_present(evaluation), "human"]
    assert judges.columns.tolist() == ["set", "system", *rs.judges_of(evaluation)]
    for half in (rules, judges):
        pd.testing.assert_frame_equal(half, whole[half.columns.tolist()])
    with pytest.raises(UsageError, match="columns='wide': one of all, rules, judges"):
        rs.accuracy_table(evaluation, columns="wide")


def test_agreement_and_ceiling(evaluation):
    agreement = evaluation.agreement.set_index(["rule", "judge"])
    assert agreement.pop("set").eq("example").all()
    assert agreement.loc[("contains", "human"), "n"] == 24
    assert agreement.loc[("contains", "human"), "accuracy"] == 23 / 24
    annotators = rs.annotator_agreement(evaluation)
    assert annotators["judges"].tolist() == ["annotator1,annotator2,annotator3",
                                             "annotator1,annotator2", "annotator1,annotator3",
                                             "annotator2,annotator3"]
    assert annotators["n"].tolist() == [24] * 4
    assert annotators.loc[1, "percent_agreement"] == 100 * 21 / 24


def test_like_with_like_puts_the_rules_beside_the_annotators(evaluation):
    panel = rs.like_with_like(evaluation).set_index("rater")
    assert panel.loc[["annotator1", "annotator2", "annotator3"], "kind"].eq("annotator").all()
    assert panel.loc["contains", "kind"] == "rule"
    # every annotator's alpha row is the annotators' alpha, as the annotators table has it
    alpha = rs.annotator_agreement(evaluation).loc[0, "alpha"]
    assert panel.loc["annotator1", "alpha_with_annotators"] == pytest.approx(alpha)
    # a rule faces the same leave-one-out majorities as the annotators: its value is the
    # mean of its kappas against each of them
    pairs = evaluation.panel_pairs
    mine = pairs[(pairs["rater"] == "contains") & pairs["against"].str.startswith("majority")]
    assert len(mine) == 3
    assert panel.loc["contains", "kappa_majority_of_others"] == pytest.approx(mine["kappa"].mean())


def test_categories_and_examples(evaluation):
    categories = rs.disagreement_counts(evaluation).set_index("rule")
    assert categories.pop("set").eq("example").all()
    # exact match misses the seven verbose answers that contain a reference, and span's
    # "Graham Bell" (which contains "Bell")
    assert categories.loc["squad_exact_match", "reference-inside-longer-answer"] == 8
    examples = examples_of(evaluation)
    assert set(examples["rule"]) == {"contains", "squad_exact_match"}
    assert (examples.groupby(["rule", "category"]).size() <= 2).all()


def test_numbers(evaluation):
    numbers = rs.human_agreement_numbers(evaluation)
    assert numbers["AgreeExampleSystems"] == 3 and numbers["AgreeExampleJudgedAttempts"] == 24
    assert set(numbers) >= {"AgreeExampleKappaContains", "AgreeExampleKappaSquad",
                            "AgreeExampleAccuracyEquivalent", "AgreeExampleTauEquivalent"}
    agreement = evaluation.agreement.set_index(["rule", "judge"])
    assert numbers["AgreeExampleAccuracyContains"] == \
        f"{agreement.loc[('contains', 'human'), 'accuracy']:.3f}"


@needs_data
def test_08_on_a_converted_evouna_subset(tmp_path):
    """The notebook's steps on real data: 200 TriviaQA questions of EVOUNA, converted, with
    the default parameters but the three paths (one judge: no annotator table)."""
    convert_evouna(EVOUNA / "TQ.json.gz", tmp_path / "tq")
    keep = (tmp_path / "tq" / "items.jsonl").read_text().splitlines()[:200]
    (tmp_path / "items.jsonl").write_text("\n".join(keep) + "\n")
    ids = {json.loads(line)["item"] for line in keep}
    attempts = pd.read_parquet(tmp_path / "tq" / "attempts.parquet")
    attempts[attempts["item"].isin(ids)].to_parquet(tmp_path / "attempts.parquet")
    judgments = pd.read_csv(tmp_path / "tq" / "judgments.csv", dtype=str, keep_default_na=False)
    judgments[judgments["item"].isin(ids)].to_csv(tmp_path / "judgments.csv", index=False)
    nb = session(STEM, tmp_path / "out", resamples=50,
                 items_path=str(tmp_path / "items.jsonl"),
                 attempts_path=str(tmp_path / "attempts.parquet"),
                 judgments_path=str(tmp_path / "judgments.csv"))
    evaluation = evaluate(nb)
    assert evaluation.sets == (tmp_path.name,)  # a set of files: named after their folder
    only = evaluation.evaluations[evaluation.sets[0]]
    assert only.counts["judged"] == 1000  # five systems, every answer judged
    assert rs.annotator_agreement(evaluation).empty and rs.like_with_like(evaluation).empty
    accuracy = rs.accuracy_table(evaluation).set_index("system")
    assert (accuracy["contains"] > accuracy["squad_exact_match"]).loc[["gpt4", "newbing"]].all()
    assert (accuracy["equivalent"] >= accuracy["contains"]).all()
    measures = rs.measures_present(evaluation)
    for figure in (rs.accuracy_figure(evaluation.systems, measures, rs.judges_of(evaluation)),
                   rs.ranking_figure(rs.rank_table(evaluation.systems),
                                     rs.ranking_labels(evaluation)),
                   rs.categories_figure(evaluation.disagreements, measures,
                                        rs.DISAGREEMENT_CATEGORIES)):
        nb.save("figure", figure)
    nb.save("kappa", rs.kappa_figure(evaluation.agreement, evaluation.panel, measures,
                                     nb.params.reference_judge))
