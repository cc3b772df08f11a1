"""Notebook 08's steps on the shipped example, values counted by hand from its three files."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from recallscore_nb.io.converters import convert_evouna
from recallscore_nb.workbook.chapters import human_agreement as chapter
from tests.human_judgments import EVOUNA, needs_data
from tests.workbook.chapters.sessions import session


@pytest.fixture
def evaluation(tmp_path):
    return chapter.evaluation(session(chapter, tmp_path, resamples=50))


def test_accuracy_by_hand(evaluation):
    table = chapter.accuracy(evaluation).set_index("system")
    # verbose: eight sentences, all judged correct by the majority; no exact match; seven
    # contain a reference (not "299,792 kilometres per second" against "299,792 km/s")
    assert table.loc["verbose", "human"] == 1.0
    assert table.loc["verbose", "squad_exact_match"] == 0.0
    assert table.loc["verbose", "contains"] == 7 / 8
    # span: "Sydney" is wrong; "Graham Bell" is no reference but 2 of 3 annotators accept it
    assert table.loc["span", "human"] == 7 / 8
    assert table.loc["span", "contains"] == 7 / 8  # "Graham Bell" contains "Bell"
    assert table.loc["guesser", "human"] == 1 / 8  # only "Canberra"


def test_agreement_and_ceiling(evaluation):
    agreement = chapter.agreement(evaluation).set_index(["rule", "judge"])
    assert agreement.loc[("contains", "human"), "n"] == 24
    assert agreement.loc[("contains", "human"), "accuracy"] == 23 / 24
    annotators = chapter.annotators(evaluation)
    assert annotators["judges"].tolist() == ["annotator1,annotator2,annotator3",
                                             "annotator1,annotator2", "annotator1,annotator3",
                                             "annotator2,annotator3"]
    assert annotators["n"].tolist() == [24] * 4
    assert annotators.loc[1, "percent_agreement"] == 100 * 21 / 24


def test_categories_and_examples(evaluation):
    categories = chapter.categories(evaluation).set_index("rule")
    # exact match misses the seven verbose answers that contain a reference, and span's
    # "Graham Bell" (which contains "Bell")
    assert categories.loc["squad_exact_match", "reference-inside-longer-answer"] == 8
    examples = chapter.examples(evaluation)
    assert set(examples["rule"]) == {"contains", "squad_exact_match"}
    assert (examples.groupby(["rule", "category"]).size() <= 2).all()


def test_numbers(evaluation):
    numbers = chapter.numbers(evaluation)
    assert numbers["AgreeSystems"] == 3 and numbers["AgreeJudgedAttempts"] == 24
    assert set(numbers) >= {"AgreeKappaContains", "AgreeKappaSquad"}


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
    nb = session(chapter, tmp_path / "out", resamples=50,
                 items_path=str(tmp_path / "items.jsonl"),
                 attempts_path=str(tmp_path / "attempts.parquet"),
                 judgments_path=str(tmp_path / "judgments.csv"))
    evaluation = chapter.evaluation(nb)
    assert evaluation.counts["judged"] == 1000  # five systems, every answer judged
    assert chapter.annotators(evaluation).empty
    accuracy = chapter.accuracy(evaluation).set_index("system")
    assert (accuracy["contains"] > accuracy["squad_exact_match"]).loc[["gpt4", "newbing"]].all()
    for make in (chapter.accuracy_figure, chapter.ranking_figure, chapter.categories_figure):
        nb.save("figure", make(evaluation))
    nb.save("kappa", chapter.kappa_figure(nb, evaluation))
