"""Exact sums: equal to rational arithmetic, whatever the order of the values."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.exact import exact_mean, exact_means, weighted_sums

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)
scores = st.floats(min_value=0, max_value=1, allow_subnormal=True)


def rational(weights, values):
    return [[sum((Fraction(int(w)) * Fraction(v) for w, v in zip(row, column)), Fraction(0))
             for column in np.asarray(values).T] for row in np.asarray(weights)]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_weighted_sums_are_the_rational_sums_correctly_rounded(data):
    n = data.draw(st.integers(0, 30))
    k = data.draw(st.integers(1, 3))
    values = data.draw(hnp.arrays(np.float64, (n, k), elements=st.one_of(finite, scores)))
    weights = data.draw(hnp.arrays(np.int64, (4, n), elements=st.integers(-5, 40)))
    exact = rational(weights, values)
    denominators = data.draw(hnp.arrays(np.int64, (4, 1), elements=st.integers(0, 9)))
    got = weighted_sums(weights, values).ratio(denominators)
    for r in range(4):
        for c in range(k):
            d = int(denominators[r, 0])
            expected = float(exact[r][c] / d) if d else None
            assert (np.isnan(got[r, c]) if d == 0 else got[r, c] == expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(finite, scores), min_size=1, max_size=60), st.randoms())
def test_a_mean_does_not_depend_on_the_order(values, random):
    shuffled = list(values)
    random.shuffle(shuffled)
    expected = float(sum(map(Fraction, values), Fraction(0)) / len(values))
    assert exact_mean(values) == exact_mean(shuffled) == expected


def test_groups_weigh_each_value_by_its_groups_weight():
    values = np.array([0.1, 0.2, 0.3, 0.7])
    groups = np.array([1, 0, 1, 2])
    weights = np.array([[2, 0, 1], [0, 3, 0]])
    sums = weighted_sums(weights, values, groups=groups, n_groups=3).ratio(1)
    assert sums[:, 0].tolist() == [float(2 * Fraction(0.2) + Fraction(0.7)),
                                   float(3 * (Fraction(0.1) + Fraction(0.3)))]


def test_the_blas_kernel_cannot_change_a_sum_that_float_products_round():
    rng = np.random.default_rng(0)
    values = rng.random(3000) / 7
    weights = rng.integers(0, 4, size=(50, 3000)).astype(float)
    exact = weighted_sums(weights, values).ratio(1)[:, 0]
    reordered = weighted_sums(weights[:, ::-1], values[::-1]).ratio(1)[:, 0]
    assert exact.tolist() == reordered.tolist()
    assert exact.tolist() == [float(sum((Fraction(int(w)) * Fraction(v)
                                         for w, v in zip(row, values)), Fraction(0)))
                              for row in weights[:3]] + exact[3:].tolist()


@pytest.mark.parametrize("values, expected", [
    ([], "nan"), ([0.0], 0.0), ([-0.0, 0.0], 0.0), ([5e-324, 5e-324], 5e-324),
    ([1e-300, 1.0, -1.0], 3.3333333333333334e-301), ([0.1] * 10, 0.1),
    ([1 / 3, 2 / 3], 0.5), ([1e15, 1.0, -1e15], 1 / 3)])
def test_edge_cases(values, expected):
    got = exact_mean(values)
    assert (np.isnan(got) if expected == "nan" else got == expected)


def test_means_of_rows_and_columns():
    matrix = np.array([[0.1, 0.2, 0.3], [0.0, 0.5, 1.0]])
    assert exact_means(matrix, axis=1).tolist() == [0.2, 0.5]
    assert exact_means(matrix).tolist() == [0.05, 0.35, 0.65]


@pytest.mark.parametrize("weights, values, message", [
    ([[0.5]], [1.0], "'weights' must be whole numbers"),
    ([[1]], [np.nan], "'values' must be finite"),
    ([[2.0 ** 60]], [1.0], "weights too large"),
    ([[1, 1]], [1.0], "'weights' has 2 columns for 1 groups of 1 values")])
def test_refusals(weights, values, message):
    with pytest.raises(UsageError, match=message):
        weighted_sums(weights, values)


def test_a_group_its_weights_leave_out_is_still_summed_exactly():
    values = np.full(5000, 0.7) + np.arange(5000) * 1e-17
    groups = np.r_[np.zeros(4999, dtype=int), 1]
    sums = weighted_sums([[0, 1], [1, 0]], values, groups=groups, n_groups=2).ratio(1)
    assert sums[:, 0].tolist() == [values[-1], float(sum(map(Fraction, values[:-1])))]
