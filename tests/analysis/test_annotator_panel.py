"""Rules beside the annotators, like with like: values counted by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from recallscore_nb.analysis.agreement import cohen_kappa
from recallscore_nb.analysis.annotator_panel import PANEL_COLUMNS, majority, panel_tables

JUDGES = pd.DataFrame({"a1": [True, True, False, False, True, None],
                       "a2": [True, False, False, False, True, True],
                       "a3": [True, True, False, True, None, False]}, dtype="boolean")


def test_majority_needs_more_than_half_of_the_verdicts_given():
    assert majority(JUDGES[["a1", "a2"]]).tolist() == [True, pd.NA, False, False, True, True]
    assert majority(JUDGES).tolist() == [True, True, False, False, True, pd.NA]


def test_an_annotator_meets_the_others_majority_a_rule_the_same_majorities():
    rule = np.array([True, True, False, True, True, True])
    panel, pairs = panel_tables(JUDGES, {"rule": rule}, ["a1", "a2", "a3"])
    panel = panel.set_index("rater")
    # a1 against the majority of a2 and a3: rows 0 (T,T), 2 (F,F), 4 (a2 alone: T), 5 (tie:
    # a2 T, a3 F: not counted); 1 and 3 are ties too
    a1_loo = cohen_kappa([True, False, True], [True, False, True])
    assert panel.loc["a1", "kappa_majority_of_others"] == a1_loo == 1.0
    rule_pairs = pairs[(pairs["rater"] == "rule") & pairs["against"].str.startswith("majority")]
    assert rule_pairs["against"].tolist() == ["majority without a1", "majority without a2",
                                              "majority without a3"]
    assert panel.loc["rule", "kappa_majority_of_others"] == pytest.approx(
        rule_pairs["kappa"].mean())
    singles = pairs[(pairs["rater"] == "a2") & ~pairs["against"].str.startswith("majority")]
    assert singles["against"].tolist() == ["a1", "a3"]  # never against itself
    assert singles["n"].tolist() == [5, 5]  # rows where both gave a verdict


def test_alpha_with_the_rater_among_the_annotators():
    panel, _ = panel_tables(JUDGES, {"copy": JUDGES["a1"].fillna(False).to_numpy(dtype=bool)},
                            ["a1", "a2", "a3"])
    alphas = panel.set_index("rater")["alpha_with_annotators"]
    assert alphas["a1"] == alphas["a2"] == alphas["a3"]  # the annotators' own alpha
    assert not math.isnan(alphas["copy"]) and alphas["copy"] != alphas["a1"]


def test_fewer_than_two_annotators_give_empty_tables():
    panel, pairs = panel_tables(JUDGES, {"rule": np.ones(6, dtype=bool)}, ["a1"])
    assert panel.empty and pairs.empty and panel.columns.tolist() == PANEL_COLUMNS


def test_judges_are_listed_after_the_rules():
    panel, _ = panel_tables(JUDGES, {"rule": np.ones(6, dtype=bool)}, ["a1", "a2"],
                            others=["a3", "a1"])
    assert panel[["rater", "kind"]].values.tolist() == [
        ["a1", "annotator"], ["a2", "annotator"], ["rule", "rule"], ["a3", "judge"]]
