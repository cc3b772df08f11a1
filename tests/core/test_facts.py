"""Facts in one place: the forms a caller gives them in, the facts of a benchmark, and the
checklist's partial credit (the only place it is computed)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from recallscore_nb import load_benchmark
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.facts import Fact, as_facts, facts_of, partial_credit


def test_normalized_terms_follow_the_seed_pipeline():
    assert Fact("place", ("West-Drawer.", "at  Dawn")).normalized_terms == ("westdrawer",
                                                                           "at dawn")


@pytest.mark.parametrize(("facts", "message"), [
    ({}, "'facts' must hold at least one fact"),
    ([("a", "x"), ("a", "y")], "fact names must be unique (got ['a', 'a'])"),
    ({"a": "..."}, "fact 'a': every term must normalize to at least one token"),
])
def test_as_facts_refuses(facts, message):
    with pytest.raises(UsageError) as caught:
        as_facts(facts)
    assert str(caught.value).startswith(message)


def test_facts_of_a_benchmark_or_of_facts_but_not_of_nothing():
    bench = load_benchmark()
    assert facts_of(bench) == bench.facts and facts_of(bench.facts) == bench.facts
    assert facts_of({"time": "dawn"}) == (Fact("time", ("dawn",)),)
    with pytest.raises(UsageError, match="a benchmark .* is needed"):
        facts_of(None)  # the core loads no file: the shipped benchmark is io's


@pytest.mark.parametrize(("present", "total", "expected"), [
    ([3, 4, 0], [4, 4, 4], [3 / 4, 1.0, 0.0]),
    ([1, 2], [0, 2], [np.nan, 1.0]),                        # no checklist: no credit
    (pd.array([1, None], dtype="Int64"), pd.array([2, None], dtype="Int64"), [1 / 2, np.nan]),
    (np.array([1.0, np.nan]), np.array([3.0, 3.0]), [1 / 3, np.nan]),
])
def test_partial_credit_by_hand(present, total, expected):
    np.testing.assert_array_equal(partial_credit(present, total), np.array(expected))


def test_partial_credit_is_the_same_number_everywhere_it_is_shown():
    """The rule registry's measure (which the agreement tables use), the summary statistics
    and notebook 05 all call it."""
    from recallscore_nb.analysis.rule_values import rule_values
    from recallscore_nb.core.rules import measure

    scores = pd.DataFrame({"facts_present": [1, 2, 3], "facts_total": [3, 3, 3]})
    expected = partial_credit(scores["facts_present"], scores["facts_total"])
    assert measure("partial_credit").derive is partial_credit
    np.testing.assert_array_equal(measure("partial_credit").values(scores), expected)
    np.testing.assert_array_equal(rule_values(scores, "partial_credit")[0], expected)
