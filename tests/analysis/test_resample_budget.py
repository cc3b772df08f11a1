"""A resample count whose bootstrap would not fit in memory is refused before anything is
drawn or scored (nothing is allocated here: the memory available is pinned where the message
is compared), and a usual count passes."""

from __future__ import annotations

import numpy as np
import pytest

from recallscore_nb.analysis import meta_evaluation as meta
from recallscore_nb.analysis import resample_budget as budget
from recallscore_nb.analysis.bootstrap import bootstrap_means
from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.data import JUDGED_EXAMPLE as EXAMPLE
from recallscore_nb.io.items import load_items
from recallscore_nb.io.judgments import load_judgments

GB8 = 8 * 10**9
EXAMPLE_REFUSAL = (
    "'resamples' 1,000,000,000 does not fit in memory: the bootstrap would need 5.18 TB "
    "(5,184 bytes a resample, for 8 items, 3 systems, 8 rules and 4 judges); 8 GB of memory "
    "is available here: at most 1,543,209 resamples fit")


@pytest.fixture
def eight_gb(monkeypatch):
    monkeypatch.setattr(budget, "available_memory", lambda: GB8)


@pytest.fixture(scope="module")
def example():
    items = load_items(EXAMPLE / "items.jsonl")
    attempts = read_attempts(EXAMPLE / "attempts.csv")
    return items, attempts, load_judgments(EXAMPLE / "judgments.csv", items, attempts)


def test_the_estimate_of_agree_is_pinned_beside_what_was_measured():
    """The formula's values, pinned; the measured growth of peak RSS stands beside them."""
    # EVOUNA NQ: 24.8 to 25.8 KB a resample measured (peak RSS, 2,000 to 60,000 resamples)
    assert budget.agree_bytes(items=3020, systems=5, rules=8, judges=1) == 26_320
    # OpenQA-eval NQ301: 7.7 to 8.7 KB measured (2,000 to 150,000 resamples)
    assert budget.agree_bytes(items=301, systems=12, rules=8, judges=7) == 11_368


def test_meta_evaluate_refuses_before_scoring(eight_gb, monkeypatch, example):
    def no_scoring(*args, **kwargs):
        raise AssertionError("scored before the resamples were checked")

    monkeypatch.setattr(meta, "score_items", no_scoring)
    with pytest.raises(UsageError) as caught:
        meta.meta_evaluate(*example, resamples=10**9)
    assert str(caught.value) == EXAMPLE_REFUSAL


def test_a_usual_count_passes_with_this_machines_memory(example):
    items, attempts, judgments = example
    meta._check_fits(attempts, judgments, 2000)
    budget.check_resamples_fit(2000, budget.agree_bytes(3020, 5, 8, 1), "EVOUNA NQ")
    with pytest.raises(UsageError, match=r"^'resamples' 1,000,000,000 does not fit in memory"):
        meta._check_fits(attempts, judgments, 10**9)


def test_agree_refuses_with_exit_2_and_writes_nothing(eight_gb, capsys, tmp_path):
    out_dir = tmp_path / "out"
    code = main(["agree", str(EXAMPLE / "items.jsonl"), "--attempts",
                 str(EXAMPLE / "attempts.csv"), "--judgments", str(EXAMPLE / "judgments.csv"),
                 "--out-dir", str(out_dir), "--resamples", str(10**9)])
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", f"recallscore: error: {EXAMPLE_REFUSAL}\n")
    assert not out_dir.exists()


def test_bootstrap_means_refuses_what_would_not_fit(eight_gb):
    with pytest.raises(UsageError) as caught:
        bootstrap_means(np.zeros(1000), resamples=10**9, seed=0)
    assert str(caught.value) == (
        "'resamples' 1,000,000,000 does not fit in memory: the bootstrap would need 16 TB "
        "(16,016 bytes a resample, for 1,000 values); 8 GB of memory is available here: at "
        "most 499,500 resamples fit")
    with pytest.raises(UsageError, match=r"for 10 values of 3 columns\); "):
        bootstrap_means(np.zeros((10, 3)), resamples=10**9, seed=0)
    assert bootstrap_means(np.ones(1000), resamples=2000, seed=0).tolist() == [1.0] * 2000


def test_bootstrap_weights_refuses_what_would_not_fit(eight_gb):
    with pytest.raises(UsageError, match=r"need 24.2 TB \(24,160 bytes a resample, for 3,020 "
                                         r"items\); 8 GB .*: at most 331,125 resamples fit$"):
        meta.bootstrap_weights(3020, resamples=10**9, seed=0)
    assert meta.bootstrap_weights(3, resamples=2000, seed=0).shape == (2000, 3)
