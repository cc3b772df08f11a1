"""The meta-evaluation on small hand-made inputs: protocols, statistics, the bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.analysis import meta_evaluation as meta
from recallscore_nb.analysis.agreement import cohen_kappa
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.items import Item, Items
from recallscore_nb.io.judgments import load_judgments

ITEMS = Items("items.jsonl", "", (Item("q1", ("Paris",), None), Item("q2", ("four",), None),
                                  Item("q3", ("Nile",), None)))
ATTEMPTS = pd.DataFrame({
    "item": ["q1", "q1", "q2", "q2", "q3", "q3"],
    "system": ["short", "long"] * 3,
    "attempt": ["Paris", "It is Paris, in France.", "4", "The answer is four.", "Congo",
                "the Nile river"],
})


def plain(verdicts: pd.Series) -> list:
    """Verdicts as a list, NA as None (NA has no truth value to compare)."""
    return [None if pd.isna(v) else bool(v) for v in verdicts]


def judged(tmp_path, text):
    path = tmp_path / "j.csv"
    path.write_text(text)
    return load_judgments(path, ITEMS, ATTEMPTS)


def test_direct_by_hand(tmp_path):
    j = judged(tmp_path, "item,judge,system,verdict\n" + "".join(
        f"{i},human,{s},{v}\n" for i, s, v in [("q1", "short", 1), ("q1", "long", 1),
                                                ("q2", "short", 1), ("q2", "long", 1),
                                                ("q3", "short", 0), ("q3", "long", 1)]))
    result = meta.meta_evaluate(ITEMS, ATTEMPTS, j, resamples=20)
    table = result.systems.set_index(["system", "measure"])["mean"]
    assert table[("long", "human")] == 1.0 and table[("short", "human")] == 2 / 3
    assert table[("long", "squad_exact_match")] == 0.0
    assert table[("long", "contains")] == 1.0  # each long answer holds its reference
    assert table[("short", "contains")] == 1 / 3  # "4" is not "four"
    agreement = result.agreement.set_index("rule")
    # contains against human: long 3/3 agree; short: Paris yes/yes, 4 no/yes, Congo no/no
    assert agreement.loc["contains", "accuracy"] == 5 / 6
    assert agreement.loc["contains", "precision"] == 1.0
    assert agreement.loc["contains", "recall"] == 4 / 5
    rows = result.disagreements
    # the reference "four" has no digit: the attempt's "4" does not make it a number question
    assert rows[rows["rule"] == "contains"][["item", "system", "category"]].values.tolist() == [
        ["q2", "short", "no-token-overlap"]]
    assert table[("short", "equivalent")] == 2 / 3  # "4" is "four" (its number step)
    assert agreement.loc["equivalent", "accuracy"] == 1.0
    ranking = result.ranking.set_index("measure")
    assert ranking.loc["squad_exact_match", "discordant_pairs"] == "short>long"
    assert ranking.loc["contains", "tau"] == 1.0


def test_judged_references_by_hand(tmp_path):
    # The judge accepts "4" for q2 and rejects "PARIS" (so "paris" goes too, and with it the
    # q1 reference "Paris" only when equal: the rejected string and its lowercase are removed).
    j = judged(tmp_path, "item,judge,attempt,verdict\nq2,bem,4,yes\nq1,bem,It is Paris in "
                         "France,no\nq3,bem,Congo,\n")
    verdicts = meta.judge_verdicts(ITEMS, ATTEMPTS, j, protocol="judged-references")["bem"]
    # q1: gold {Paris}; q2: gold {four, 4}; q3: the judge's only verdict is empty: left out
    assert plain(verdicts) == [True, False, True, False, None, None]


def test_judged_references_removes_the_rejected_and_its_lowercase(tmp_path):
    items = Items("i", "", (Item("q1", ("paris", "Lutetia"), None),))
    attempts = pd.DataFrame({"item": ["q1", "q1"], "system": ["a", "b"],
                             "attempt": ["Paris", "PARIS"]})
    path = tmp_path / "j.csv"
    path.write_text("item,judge,attempt,verdict\nq1,h,PARIS,no\nq1,h,Lutetia,no\n")
    j = load_judgments(path, items, attempts)
    # gold {paris, Lutetia} - {PARIS, paris} - {Lutetia, lutetia} = {}: nothing left, so an
    # attempt equal to a rejected answer, ignoring case, is incorrect (both here), as
    # OpenQA-eval's is_unacceptable compares
    verdicts = meta.judge_verdicts(items, attempts, j, protocol="judged-references")["h"]
    assert plain(verdicts) == [False, False]
    path.write_text("item,judge,attempt,verdict\nq1,h,PARIS,no\nq1,h,Lutetia,no\n"
                    "q1,h,Rome,no\n")
    attempts.loc[0, "attempt"] = "Rome?"
    j = load_judgments(path, items, attempts)
    verdicts = meta.judge_verdicts(items, attempts, j, protocol="judged-references")["h"]
    assert plain(verdicts) == [None, False]  # "Rome?" was not rejected: not counted


@pytest.mark.parametrize("block", [2**22, 7, 1])
def test_bootstrap_weights_are_one_index_matrix(monkeypatch, block):
    monkeypatch.setattr(meta, "_BLOCK_ENTRIES", block)  # whole rows a block: the same draws
    weights = meta.bootstrap_weights(5, resamples=3, seed=7)
    index = np.random.default_rng(7).integers(0, 5, size=(3, 5))
    assert weights.tolist() == [np.bincount(row, minlength=5).tolist() for row in index]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=30))
def test_statistics_from_counts_equal_the_tested_kappa(pairs):
    r = np.array([a for a, _ in pairs])
    t = np.array([b for _, b in pairs])
    counts = [float(np.sum(r & t)), float(np.sum(r & ~t)), float(np.sum(~r & t)),
              float(np.sum(~r & ~t))]
    got = float(meta._statistics(*[np.array([c]) for c in counts])["kappa"][0])
    expected = cohen_kappa(r, t)
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected,
                                                                               abs=1e-12)


def test_annotators_alpha_and_pairs(tmp_path):
    j = judged(tmp_path, "item,judge,system,verdict\n" + "".join(
        f"q{k},{a},short,{v}\n" for k, vs in enumerate([(1, 1, 1), (0, 0, 1), (1, 0, 1)], 1)
        for a, v in zip(("x", "y", "z"), vs)))
    table = meta.annotator_table(j, ["x", "y", "z"])
    assert table["judges"].tolist() == ["x,y,z", "x,y", "x,z", "y,z"]
    assert table.loc[0, "percent_agreement"] == pytest.approx(100 / 3)  # only q1 unanimous
    assert table.loc[1, "kappa"] == cohen_kappa([True, False, True], [True, False, False])
    assert table.loc[2, "percent_agreement"] == pytest.approx(100 * 2 / 3)
    with pytest.raises(UsageError, match="unknown annotator 'w'"):
        meta.annotator_table(j, ["x", "w"])


@pytest.mark.parametrize(("options", "message"), [
    ({"protocol": "nope"}, "'protocol' must be one of direct, judged-references"),
    ({"reference_judge": "bem"}, r"unknown reference judge 'bem' \(judges: human\)"),
    ({"f1_threshold": 2.0}, "'f1_threshold' must be a number from 0 to 1"),
])
def test_bad_options(tmp_path, options, message):
    j = judged(tmp_path, "item,judge,system,verdict\nq1,human,short,yes\n")
    with pytest.raises(UsageError, match=message):
        meta.meta_evaluate(ITEMS, ATTEMPTS, j, resamples=10, **options)


def test_rules_are_measured_over_what_the_reference_judge_judged(tmp_path):
    j = judged(tmp_path, "item,judge,system,verdict\nq1,human,short,yes\nq2,human,short,no\n")
    result = meta.meta_evaluate(ITEMS, ATTEMPTS, j, resamples=10)
    table = result.systems.set_index(["system", "measure"])
    assert table.loc[("short", "contains"), "n"] == 2 == table.loc[("short", "human"), "n"]
    assert table.loc[("long", "contains"), "n"] == 0
    assert math.isnan(table.loc[("long", "contains"), "mean"])
    assert result.counts["unjudged"] == 4


def test_judged_references_with_system_and_text_keys(tmp_path):
    # the system-keyed verdict accepts short's "4" (its attempt at q2); the text verdict
    # rejects long's sentence: gold {four, 4} for q2; q1's gold loses nothing that matters
    j = judged(tmp_path, "item,judge,system,attempt,verdict\nq2,h,short,,yes\n"
                         "q1,h,,It is Paris in France,no\n")
    verdicts = meta.judge_verdicts(ITEMS, ATTEMPTS, j, protocol="judged-references")["h"]
    assert plain(verdicts) == [True, False, True, False, None, None]
