"""Bootstrap intervals and the saturation test: policies, determinism, hand-checked cases,
and parity with ``scipy.stats.bootstrap(method="percentile")``.

Parity cannot be exact (scipy draws its resamples in another order), so it is checked to
within 0.01 on data whose bootstrap distribution is fine-grained, with enough resamples
that the Monte Carlo error of either side is a few thousandths.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from recallscore_nb import __version__
from recallscore_nb.analysis import bootstrap as stats
from recallscore_nb.analysis.bootstrap import (
    bootstrap_ci,
    bootstrap_means,
    bootstrap_signature,
    grouped_bootstrap_ci,
    saturated,
)
from recallscore_nb.core.errors import UsageError


# --- parity with scipy -------------------------------------------------------------------------
def _data(kind: str) -> np.ndarray:
    rng = np.random.default_rng(11)
    if kind == "normal":
        return rng.normal(0.6, 0.2, size=40)
    if kind == "f1-like":
        return rng.beta(5, 2, size=60)
    return (rng.random(200) < 0.8).astype(float)  # binary: steps of 1/200 = 0.005


@pytest.mark.parametrize("kind", ["normal", "f1-like", "binary"])
@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_percentile_interval_matches_scipy(kind, confidence):
    values = _data(kind)
    ours = bootstrap_ci(values, resamples=20_000, seed=5, confidence=confidence)
    theirs = scipy_stats.bootstrap((values,), np.mean, n_resamples=20_000, method="percentile",
                                   confidence_level=confidence, vectorized=True,
                                   rng=np.random.default_rng(6)).confidence_interval
    assert ours[0] == pytest.approx(theirs.low, abs=0.01)
    assert ours[1] == pytest.approx(theirs.high, abs=0.01)


# --- determinism and the seed ------------------------------------------------------------------
def test_same_seed_same_interval_and_other_seed_another():
    values = _data("normal")
    first = bootstrap_ci(values, resamples=500, seed=20260916)
    assert bootstrap_ci(values, resamples=500, seed=20260916) == first
    assert bootstrap_ci(values, resamples=500, seed=20260917) != first


def test_means_come_from_one_index_matrix_drawn_from_default_rng():
    values = np.array([0.0, 1.0, 2.0])
    index = np.random.default_rng(3).integers(0, 3, size=(4, 3))
    expected = values[index].mean(axis=1)
    assert bootstrap_means(values, resamples=4, seed=3).tolist() == expected.tolist()


def test_two_values_resample_to_means_of_zero_half_or_one():
    means = bootstrap_means([0.0, 1.0], resamples=1000, seed=1)
    assert set(means.tolist()) == {0.0, 0.5, 1.0}


def test_columns_of_a_matrix_are_resampled_together():
    matrix = np.array([[0.0, 1.0], [1.0, 0.0]])  # the columns always sum to 1 per row
    means = bootstrap_means(matrix, resamples=200, seed=2)
    assert means.shape == (200, 2)
    assert np.allclose(means.sum(axis=1), 1.0)


# --- policies ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([0.25], (0.25, 0.25)),  # n = 1: every resample is the value
        ([1.0] * 5, (1.0, 1.0)),  # constant values: a zero-width interval
        ([True, True], (1.0, 1.0)),  # booleans count as 0/1
    ],
)
def test_degenerate_intervals(values, expected):
    assert bootstrap_ci(values, resamples=100, seed=0) == expected


def test_no_values_give_nan_bounds():
    low, high = bootstrap_ci([], resamples=100, seed=0)
    assert math.isnan(low) and math.isnan(high)


def test_one_resample_gives_its_mean_twice():
    (mean,) = bootstrap_means([0.0, 1.0, 1.0], resamples=1, seed=9)
    assert bootstrap_ci([0.0, 1.0, 1.0], resamples=1, seed=9) == (mean, mean)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"resamples": 0, "seed": 1}, "'resamples' must be an int >= 1 (got 0)"),
        ({"resamples": 2.5, "seed": 1}, "'resamples' must be an int >= 1 (got 2.5)"),
        ({"resamples": 10, "seed": -1}, "'seed' must be an int >= 0 (got -1)"),
        ({"resamples": 10, "seed": 1, "confidence": 1.0}, "strictly between 0 and 1 (got 1.0)"),
        ({"resamples": 10, "seed": 1, "confidence": 95}, "strictly between 0 and 1 (got 95)"),
    ],
)
def test_bad_options_say_what_and_got(kwargs, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        bootstrap_ci([0.0, 1.0], **kwargs)


def test_nan_values_are_refused():
    with pytest.raises(UsageError, match="finite"):
        bootstrap_ci([0.0, float("nan")], resamples=10, seed=0)


# --- per group ------------------------------------------------------------------------------------
FRAME = pd.DataFrame({
    "system": ["b", "a", "b", "a", "b", "a", "c"],
    "ok": [1, 0, 1, 1, 0, 1, 1],
    "f1": [1.0, 0.5, 0.75, 1.0, 0.25, 0.5, 1.0],
})


def test_grouped_layout_and_hand_checked_means():
    table = grouped_bootstrap_ci(FRAME, by="system", columns=["ok", "f1"], resamples=100, seed=4)
    assert table.columns.tolist() == ["system", "measure", "n", "mean", "low", "high"]
    assert table[["system", "measure"]].values.tolist() == [
        ["a", "ok"], ["a", "f1"], ["b", "ok"], ["b", "f1"], ["c", "ok"], ["c", "f1"]]
    assert table["n"].tolist() == [3, 3, 3, 3, 1, 1]
    assert table["mean"].tolist() == pytest.approx([2 / 3, 2 / 3, 2 / 3, 2 / 3, 1, 1])


def test_a_group_gets_what_bootstrap_ci_gives_its_values_alone():
    table = grouped_bootstrap_ci(FRAME, by="system", columns=["ok", "f1"], resamples=300, seed=4)
    for (system, measure), row in table.set_index(["system", "measure"]).iterrows():
        values = FRAME.loc[FRAME["system"] == system, measure]
        assert (row["low"], row["high"]) == bootstrap_ci(values, resamples=300, seed=4)


def test_a_group_does_not_depend_on_the_other_groups():
    alone = grouped_bootstrap_ci(FRAME[FRAME["system"] == "b"], by="system", columns=["f1"],
                                 resamples=300, seed=4)
    together = grouped_bootstrap_ci(FRAME, by="system", columns=["f1"], resamples=300, seed=4)
    assert together[together["system"] == "b"].reset_index(drop=True).equals(alone)


def test_grouped_names_a_missing_column():
    with pytest.raises(UsageError, match="'frame' has no column 'nope'"):
        grouped_bootstrap_ci(FRAME, by="system", columns=["nope"], resamples=10, seed=0)


# --- the signature ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"resamples": 2000, "seed": 20260916},
         "bootstrap|ci:percentile-95|unit:attempt|n:2000|seed:20260916|version:{v}"),
        ({"resamples": 500, "seed": 0, "confidence": 0.9},
         "bootstrap|ci:percentile-90|unit:attempt|n:500|seed:0|version:{v}"),
        ({"resamples": 1, "seed": 3, "confidence": 0.975},
         "bootstrap|ci:percentile-97.5|unit:attempt|n:1|seed:3|version:{v}"),
    ],
)
def test_signature(kwargs, expected):
    assert bootstrap_signature(**kwargs) == expected.format(v=__version__)


# --- saturation ---------------------------------------------------------------------------------
def _table(rows):
    return pd.DataFrame(rows, columns=["measure", "system", "mean", "low", "high"])


@pytest.mark.parametrize(
    ("rows", "best", "second", "overlap", "is_saturated"),
    [
        # both at the ceiling, intervals overlap: saturated
        ([("r", "a", 23 / 24, 21 / 24, 1.0), ("r", "b", 1.0, 1.0, 1.0)], "b", "a", True, True),
        # both >= 0.95 but the intervals are apart: the rule still separates them
        ([("r", "a", 0.99, 0.98, 1.0), ("r", "b", 0.95, 0.93, 0.97)], "a", "b", False, False),
        # overlap, but the second is below 0.95: not at the ceiling
        ([("r", "a", 0.97, 0.9, 1.0), ("r", "b", 0.9, 0.8, 0.95)], "a", "b", True, False),
        # exactly 0.95 both, intervals touching at one point: closed intervals overlap
        ([("r", "a", 0.95, 0.95, 0.95), ("r", "b", 0.95, 0.9, 0.95)], "a", "b", True, True),
        # a third system does not matter, only the two best
        ([("r", "c", 0.5, 0.0, 1.0), ("r", "a", 1.0, 1.0, 1.0), ("r", "b", 0.96, 0.9, 1.0)],
         "a", "b", True, True),
    ],
)
def test_saturation_cases(rows, best, second, overlap, is_saturated):
    (row,) = saturated(_table(rows)).to_dict("records")
    assert (row["best"], row["second"]) == (best, second)
    assert (row["overlap"], row["saturated"]) == (overlap, is_saturated)


def test_equal_means_rank_by_name():
    out = saturated(_table([("r", "b", 1.0, 1.0, 1.0), ("r", "a", 1.0, 1.0, 1.0)]))
    assert out.loc[0, ["best", "second"]].tolist() == ["a", "b"]


def test_one_system_is_never_saturated():
    out = saturated(_table([("r", "a", 1.0, 1.0, 1.0)]))
    assert not out.loc[0, "saturated"] and not out.loc[0, "overlap"]
    assert pd.isna(out.loc[0, "second"]) and math.isnan(out.loc[0, "second_mean"])


def test_one_row_per_rule_in_order_of_first_appearance():
    rows = [("z", "a", 1.0, 1.0, 1.0), ("z", "b", 1.0, 1.0, 1.0),
            ("m", "a", 0.5, 0.4, 0.6), ("m", "b", 0.2, 0.1, 0.3)]
    out = saturated(_table(rows))
    assert out["measure"].tolist() == ["z", "m"]
    assert out["saturated"].tolist() == [True, False]
    assert out.columns.tolist() == [
        "measure", "best", "best_mean", "best_low", "best_high",
        "second", "second_mean", "second_low", "second_high", "overlap", "saturated"]


def test_custom_threshold():
    rows = [("r", "a", 0.9, 0.8, 1.0), ("r", "b", 0.85, 0.8, 0.9)]
    assert not saturated(_table(rows)).loc[0, "saturated"]
    assert saturated(_table(rows), threshold=0.8).loc[0, "saturated"]


def test_blocked_draws_equal_one_index_matrix(monkeypatch):
    """Resamples are drawn in blocks of rows to bound memory; numpy draws the same indices
    in blocks as at once, so the means equal bootstrap_means (one matrix)."""
    values = np.random.default_rng(0).random(37)
    monkeypatch.setattr(stats, "_BLOCK_ENTRIES", 37 * 3)  # blocks of 3 resamples (and 1)
    blocked = stats.resampled_means(values, 100, np.random.default_rng(8))
    assert blocked.tolist() == bootstrap_means(values, resamples=100, seed=8).tolist()
