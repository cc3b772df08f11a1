"""Paired comparisons and McNemar's exact test (:func:`paired_comparison`,
:func:`mcnemar_exact`): hand-checked cases, parity with ``scipy.stats.bootstrap`` on the
per-item differences (to within 0.01) and with ``scipy.stats.binomtest`` (to 1e-12)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from recallscore_nb import __version__
from recallscore_nb.analysis.bootstrap import bootstrap_ci
from recallscore_nb.analysis.paired_comparison import (mcnemar_exact, mcnemar_signature,
                                                       paired_comparison)
from recallscore_nb.core.errors import UsageError
from tests.stats_fixtures import _item_means, _scored


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        (0, 0, 1.0),  # no discordant pair
        (2, 0, 2 * (1 / 2) ** 2),
        (1, 9, 2 * (1 + 10) / 2**10),
        (0, 5, 2 / 2**5),
        (4, 4, 1.0),  # b == c
        (3, 4, 1.0),  # 2 * P(X <= 3) for Binomial(7, 1/2) = 2 * 1/2, capped at 1
        (2, 5, 2 * (1 + 7 + 21) / 2**7),
    ],
)
def test_mcnemar_hand_checked(b, c, expected):
    assert mcnemar_exact(b, c) == pytest.approx(expected, abs=1e-15)
    assert mcnemar_exact(c, b) == mcnemar_exact(b, c)


@pytest.mark.parametrize("b", range(0, 21))
def test_mcnemar_equals_scipy_binomtest(b):
    """scipy's two-sided binomtest sums the outcomes no more likely than the observed one;
    Binomial(n, 1/2) is symmetric, so that is min(1, 2 * cdf(min(b, c))), from either side."""
    for c in range(0, 21):
        n = b + c
        if n == 0:
            assert mcnemar_exact(b, c) == 1.0
            continue
        theirs = scipy_stats.binomtest(min(b, c), n, 0.5).pvalue
        assert mcnemar_exact(b, c) == pytest.approx(theirs, abs=1e-12, rel=0)
        assert scipy_stats.binomtest(max(b, c), n, 0.5).pvalue == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize(("b", "c"), [(40, 70), (480, 520), (1000, 1150), (3, 400), (2500, 2600)])
def test_mcnemar_equals_scipy_for_large_counts(b, c):
    theirs = scipy_stats.binomtest(min(b, c), b + c, 0.5).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(theirs, abs=1e-12, rel=1e-9)


@pytest.mark.parametrize(("b", "c"), [(-1, 2), (1.0, 2), (True, 2)])
def test_mcnemar_refuses_non_counts(b, c):
    with pytest.raises(UsageError, match="'b' must be an int >= 0"):
        mcnemar_exact(b, c)


def test_mcnemar_signature():
    assert mcnemar_signature() == f"mcnemar|exact:binomial|sided:two|version:{__version__}"


PAIRED = pd.DataFrame({
    "system": ["x"] * 4 + ["y"] * 4,
    "item": ["p", "q", "r", "s"] * 2,
    "literal_match": [True, True, True, False, False, False, True, False],
    "token_f1": [1.0, 1.0, 1.0, 0.5, 0.5, 0.25, 1.0, 0.5],
})


def test_paired_hand_checked():
    out = paired_comparison(PAIRED, "x", "y", rule="literal_match", resamples=20_000, seed=3)
    assert (out["items"], out["items_only_a"], out["items_only_b"]) == (4, 0, 0)
    assert (out["mean_a"], out["mean_b"], out["difference"]) == (3 / 4, 1 / 4, 1 / 2)
    # the differences are 1, 1, 0, 0: a resample sums to <= 0 only if it draws r or s only
    assert out["share_le_zero"] == pytest.approx((1 / 2) ** 4, abs=0.01)
    assert (out["low"], out["high"]) == (0.0, 1.0)
    assert (out["a_only_correct"], out["b_only_correct"]) == (2, 0)
    assert out["mcnemar_p"] == 0.5 and out["mcnemar_note"] == ""
    assert out["unit"] == "item"
    assert out["signature"] == (f"bootstrap|ci:percentile-95|unit:item-difference|n:20000|"
                                f"seed:3|version:{__version__}")


def test_paired_is_antisymmetric():
    xy = paired_comparison(PAIRED, "x", "y", rule="token_f1", resamples=500, seed=1)
    yx = paired_comparison(PAIRED, "y", "x", rule="token_f1", resamples=500, seed=1)
    # per-item differences 1/2, 3/4, 0, 0
    assert xy["difference"] == pytest.approx(5 / 16) == pytest.approx(-yx["difference"])
    assert (xy["low"], xy["high"]) == pytest.approx((-yx["high"], -yx["low"]))


def test_paired_interval_matches_scipy_on_the_differences():
    scored = _scored(items=60)
    out = paired_comparison(scored, "b", "a", rule="token_f1", resamples=20_000, seed=4)
    diffs = _item_means(scored, "b", "token_f1") - _item_means(scored, "a", "token_f1")
    theirs = scipy_stats.bootstrap((diffs,), np.mean, n_resamples=20_000, method="percentile",
                                   vectorized=True, rng=np.random.default_rng(2))
    assert out["difference"] == pytest.approx(diffs.mean(), abs=1e-12)
    assert out["low"] == pytest.approx(theirs.confidence_interval.low, abs=0.01)
    assert out["high"] == pytest.approx(theirs.confidence_interval.high, abs=0.01)
    same_draws = bootstrap_ci(diffs, resamples=20_000, seed=4)  # diffs rounded otherwise
    assert (out["low"], out["high"]) == pytest.approx(same_draws, abs=1e-12)
    assert out["mcnemar_p"] is None and out["mcnemar_note"] == "not a binary rule"


def test_paired_keeps_only_common_items_and_needs_one_attempt_for_mcnemar():
    scored = pd.concat([PAIRED, pd.DataFrame({"system": ["x", "x", "y"], "item": ["t", "p", "u"],
                                              "literal_match": [True, True, False],
                                              "token_f1": [1.0, 1.0, 0.0]})])
    out = paired_comparison(scored, "x", "y", rule="literal_match", resamples=100, seed=0)
    assert (out["items"], out["items_only_a"], out["items_only_b"]) == (4, 1, 1)
    assert (out["attempts_a"], out["attempts_b"]) == (5, 4)
    assert out["mcnemar_p"] is None and out["a_only_correct"] is None
    assert out["mcnemar_note"] == "more than one attempt per item and system"


def test_paired_on_a_single_item_resamples_each_systems_attempts_independently():
    rng = np.random.default_rng(7)
    a, b = rng.random(30) < 0.8, rng.random(25) < 0.5
    scored = pd.DataFrame({"system": ["a"] * 30 + ["b"] * 25,
                           "literal_match": np.concatenate([a, b])})
    out = paired_comparison(scored, "a", "b", rule="literal_match", resamples=1000, seed=5)
    draw = np.random.default_rng(5)
    boot = (a.astype(float)[draw.integers(0, 30, size=(1000, 30))].mean(axis=1)
            - b.astype(float)[draw.integers(0, 25, size=(1000, 25))].mean(axis=1))
    low, high = np.percentile(boot, [2.5, 97.5])
    assert out["unit"] == "attempt" and out["items"] == 1
    assert out["difference"] == pytest.approx(a.mean() - b.mean())
    assert (out["low"], out["high"]) == (low, high)
    assert out["share_le_zero"] == np.mean(boot <= 0)
    assert out["mcnemar_note"] == "more than one attempt per item and system"


def test_paired_with_no_common_item_is_nan():
    scored = PAIRED.assign(item=["p", "q", "r", "s", "t", "u", "v", "w"])
    out = paired_comparison(scored, "x", "y", rule="literal_match", resamples=10, seed=0)
    assert out["items"] == 0 and math.isnan(out["difference"]) and math.isnan(out["low"])
    assert out["mcnemar_note"] == "no item answered by both"


def test_paired_same_seed_same_result():
    scored = _scored(items=30)
    first = paired_comparison(scored, "a", "b", rule="token_f1", resamples=300, seed=12)
    assert paired_comparison(scored, "a", "b", rule="token_f1", resamples=300, seed=12) == first
    other = paired_comparison(scored, "a", "b", rule="token_f1", resamples=300, seed=13)
    assert other["difference"] == first["difference"] and other["low"] != first["low"]


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [("x", "x", "'a' and 'b' must be two different systems (got 'x' twice)"),
     ("x", "z", "no system 'z' in 'scored' (system: x, y)")],
)
def test_paired_bad_systems(a, b, message):
    with pytest.raises(UsageError) as info:
        paired_comparison(PAIRED, a, b, rule="literal_match", resamples=10, seed=0)
    assert message in str(info.value)
