"""Per-system tables over items (:func:`system_table`, :func:`saturation`).

Parity with ``scipy.stats.bootstrap(method="percentile")`` is checked to within 0.01 with the
per-item means as the sample (scipy draws its resamples in another order, so exact equality
is not expected); exact equality is checked against :func:`bootstrap_ci` of the per-item
means, which uses the same generator.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from recallscore_nb import __version__
from recallscore_nb.analysis.bootstrap import bootstrap_ci, saturated
from recallscore_nb.analysis.system_tables import saturation, system_table
from recallscore_nb.core.errors import UsageError
from tests.stats_fixtures import _item_means, _scored

COLUMNS = ["system", "rule", "items", "attempts", "excluded", "mean", "low", "high", "unit"]


# --- parity with scipy and with bootstrap_ci --------------------------------------------------
@pytest.mark.parametrize("rule", ["literal_match", "token_f1"])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_item_interval_matches_scipy_on_per_item_means(rule, confidence):
    scored = _scored()
    table = system_table(scored, rules=[rule], resamples=20_000, seed=5, confidence=confidence)
    for row in table.itertuples():
        sample = _item_means(scored, row.system, rule)
        theirs = scipy_stats.bootstrap((sample,), np.mean, n_resamples=20_000,
                                       method="percentile", confidence_level=confidence,
                                       vectorized=True, rng=np.random.default_rng(6))
        assert row.unit == "item" and row.items == 80
        assert row.mean == pytest.approx(sample.mean(), abs=1e-12)
        assert row.low == pytest.approx(theirs.confidence_interval.low, abs=0.01)
        assert row.high == pytest.approx(theirs.confidence_interval.high, abs=0.01)


def test_item_interval_is_bootstrap_ci_of_the_item_means_in_id_order():
    """Rules counting the same rows share one index matrix; each still gets exactly what
    bootstrap_ci gives its per-item means alone."""
    scored = _scored()
    table = system_table(scored, rules=["token_f1", "literal_match"], resamples=700, seed=11)
    for row in table.itertuples():
        means = _item_means(scored, row.system, row.rule)
        assert (row.low, row.high) == pytest.approx(bootstrap_ci(means, resamples=700, seed=11),
                                                    abs=1e-12)


def test_row_order_and_other_systems_do_not_matter():
    scored = _scored(systems=("a", "b", "c"))
    table = system_table(scored, resamples=300, seed=2, rules=["literal_match", "token_f1"])
    shuffled = system_table(scored.sample(frac=1, random_state=1), resamples=300, seed=2,
                            rules=["literal_match", "token_f1"])
    # items are taken in id order; only the order of summing an item's attempts changes
    pd.testing.assert_frame_equal(shuffled, table, check_exact=False, rtol=0, atol=1e-12)
    alone = system_table(scored[scored["system"] == "b"], resamples=300, seed=2,
                         rules=["literal_match", "token_f1"])
    assert table[table["system"] == "b"].reset_index(drop=True).equals(alone)


# --- hand-checked cases ---------------------------------------------------------------------
HAND = pd.DataFrame({
    "system": ["a", "a", "a", "a", "b", "b", "b"],
    "item": ["q1", "q1", "q2", "q3", "q1", "q2", "q3"],
    "literal_match": [True, False, True, False, False, False, True],
    "token_f1": [1.0, 0.5, 1.0, 0.25, 0.5, 0.0, 1.0],
    # q3 has no checklist: its checklist columns are missing
    "facts_present": pd.array([1, 3, 2, None, 0, 4, None], dtype="Int64"),
    "facts_total": pd.array([4, 4, 4, None, 4, 4, None], dtype="Int64"),
    "checklist_full_match": pd.array([False, False, False, None, False, True, None],
                                     dtype="boolean"),
})


HAND_RULES = ["literal_match", "token_f1", "checklist_full_match", "partial_credit"]


def test_hand_checked_table():
    table = system_table(HAND, rules=HAND_RULES, resamples=200, seed=1)
    assert table.columns.tolist() == COLUMNS
    got = table.set_index(["system", "rule"])
    # a: q1 = (1 + 0)/2, q2 = 1, q3 = 0  ->  (1/2 + 1 + 0)/3 = 1/2 (the attempt mean is 2/4)
    assert got.loc[("a", "literal_match"), "mean"] == pytest.approx(1 / 2)
    # a: q1 = (1 + 1/2)/2 = 3/4, q2 = 1, q3 = 1/4  ->  2/3 (the attempt mean would be 11/16)
    assert got.loc[("a", "token_f1"), "mean"] == pytest.approx(2 / 3)
    # a, partial credit: q1 = (1/4 + 3/4)/2 = 1/2, q2 = 2/4; q3 excluded  ->  1/2
    assert got.loc[("a", "partial_credit"), "mean"] == pytest.approx(1 / 2)
    assert got.loc[("a", "partial_credit"), ["items", "attempts", "excluded"]].tolist() == [2, 3, 1]
    # b, full match: q1 false, q2 true; q3 excluded  ->  1/2
    assert got.loc[("b", "checklist_full_match"), "mean"] == pytest.approx(1 / 2)
    assert got.loc[("b", "checklist_full_match"), "excluded"] == 1
    assert got.loc[("b", "literal_match"), ["items", "attempts", "excluded"]].tolist() == [3, 3, 0]
    assert set(table["unit"]) == {"item"}
    assert (table["low"] <= table["mean"]).all() and (table["mean"] <= table["high"]).all()


def test_rules_in_the_order_given_systems_sorted():
    table = system_table(HAND, rules=["token_f1", "literal_match"], resamples=10, seed=0)
    assert table[["system", "rule"]].values.tolist() == [
        ["a", "token_f1"], ["a", "literal_match"], ["b", "token_f1"], ["b", "literal_match"]]


def test_a_system_with_no_checklist_row_gets_nan():
    only_q3 = HAND[HAND["item"] == "q3"]
    row = system_table(only_q3, rules=["partial_credit"], resamples=10, seed=0).iloc[0]
    assert (row["items"], row["attempts"], row["excluded"]) == (0, 0, 1)
    assert math.isnan(row["mean"]) and math.isnan(row["low"]) and math.isnan(row["high"])


def test_other_column_than_system():
    scored = HAND.rename(columns={"system": "run"})
    table = system_table(scored, by="run", rules=["literal_match"], resamples=10, seed=0)
    assert table.columns[0] == "run" and table["run"].tolist() == ["a", "b"]


# --- one item: attempts are resampled ---------------------------------------------------------
def test_single_item_resamples_attempts():
    rng = np.random.default_rng(4)
    values = rng.beta(5, 2, size=150)
    scored = pd.DataFrame({"system": "s", "token_f1": values})  # no item column: one item
    row = system_table(scored, rules=["token_f1"], resamples=20_000, seed=9).iloc[0]
    assert (row["items"], row["attempts"], row["unit"]) == (1, 150, "attempt")
    assert (row["low"], row["high"]) == bootstrap_ci(values, resamples=20_000, seed=9)
    theirs = scipy_stats.bootstrap((values,), np.mean, n_resamples=20_000, method="percentile",
                                   vectorized=True, rng=np.random.default_rng(1))
    assert row["low"] == pytest.approx(theirs.confidence_interval.low, abs=0.01)
    assert row["high"] == pytest.approx(theirs.confidence_interval.high, abs=0.01)


def test_one_item_per_system_is_decided_per_system_and_the_signature_names_both_units():
    scored = pd.DataFrame({"system": ["a", "a", "a", "b", "b"],
                           "item": ["q1", "q1", "q1", "q1", "q2"],
                           "literal_match": [True, False, True, True, False]})
    table = system_table(scored, rules=["literal_match"], resamples=50, seed=3)
    assert table["unit"].tolist() == ["attempt", "item"]
    assert table.loc[0, "mean"] == pytest.approx(2 / 3)
    assert table.attrs["signature"] == (
        f"bootstrap|ci:percentile-95|unit:attempt+item|n:50|seed:3|version:{__version__}")


def test_one_attempt_gives_its_value_twice():
    scored = pd.DataFrame({"system": ["a"], "token_f1": [0.25]})
    row = system_table(scored, rules=["token_f1"], resamples=10, seed=0).iloc[0]
    assert (row["mean"], row["low"], row["high"]) == (0.25, 0.25, 0.25)


# --- the seed ----------------------------------------------------------------------------------
def test_same_seed_same_table_other_seed_other_bounds():
    scored = _scored()
    first = system_table(scored, resamples=400, seed=20260916, rules=["token_f1"])
    assert system_table(scored, resamples=400, seed=20260916, rules=["token_f1"]).equals(first)
    other = system_table(scored, resamples=400, seed=20260917, rules=["token_f1"])
    assert other["mean"].equals(first["mean"]) and not other["low"].equals(first["low"])
    assert first.attrs["signature"] == (
        f"bootstrap|ci:percentile-95|unit:item|n:400|seed:20260916|version:{__version__}")


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("frame", "kwargs", "message"),
    [
        (HAND, {"rules": ["f1"]}, "unknown rule 'f1' (rules: literal_match, normalized_match, "),
        (HAND, {"rules": []}, "'rules' must name at least one rule"),
        (HAND, {"rules": None}, "'scored' has no column 'normalized_match'"),
        (HAND, {"by": "model"}, "'scored' has no column 'model'"),
        (HAND.assign(system=["a", None, "a", "a", "b", "b", "b"]), {},
         "column 'system' is missing at row 1 (expected a name)"),
        (HAND.assign(token_f1=[1.0, None, 1, 1, 1, 1, 1]), {"rules": ["token_f1"]},
         "column 'token_f1' is missing at row 1 (only the checklist rules may be missing"),
        (HAND.assign(literal_match=[1, 0, 2, 0, 0, 0, 0]), {"rules": ["literal_match"]},
         "column 'literal_match' must hold booleans (got 2.0 at row 2)"),
        (HAND.assign(token_f1=["x"] * 7), {"rules": ["token_f1"]},
         "column 'token_f1' must hold numbers or booleans"),
        (HAND, {"resamples": 0}, "'resamples' must be an int >= 1 (got 0)"),
    ],
)
def test_bad_input_says_what(frame, kwargs, message):
    with pytest.raises(UsageError) as info:
        system_table(frame, **{"resamples": 10, "seed": 0, "rules": HAND_RULES, **kwargs})
    assert message in str(info.value)


# --- saturation -----------------------------------------------------------------------------------
def test_saturation_is_notebook_05s_rule_on_the_system_table():
    scored = pd.DataFrame({"system": ["a"] * 4 + ["b"] * 4 + ["c"] * 4,
                           "item": ["q1", "q2", "q3", "q4"] * 3,
                           "token_f1": [1, 1, 1, 1, 1, 1, 1, 0.9, 0.5, 0.5, 0.4, 0.6]})
    table = system_table(scored, rules=["token_f1"], resamples=500, seed=1)
    out = saturation(table)
    assert out.equals(saturated(table, by="rule"))
    row = out.iloc[0]
    assert (row["best"], row["second"]) == ("a", "b")
    assert row["best_mean"] == 1.0 and row["second_mean"] == pytest.approx(0.975)
    assert bool(row["overlap"]) and bool(row["saturated"])
