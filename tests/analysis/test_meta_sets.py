"""Several judged sets evaluated at once, and the equivalent rule on the shipped real sets:
the figures issue 20 holds it to."""

from __future__ import annotations

import pandas as pd
import pytest

from recallscore_nb.analysis.meta_evaluation import meta_evaluate
from recallscore_nb.analysis.meta_sets import meta_evaluate_sets
from recallscore_nb.io.human_sets import read_judged_sets


@pytest.fixture(scope="module")
def real():
    return meta_evaluate_sets(read_judged_sets("evouna-nq, evouna-tq, openqa-nq301"),
                              resamples=20, seed=1)


def test_each_set_is_its_own_evaluation_stacked_with_a_set_column():
    (example,) = read_judged_sets("example")
    both = meta_evaluate_sets([example, example], resamples=20, seed=1)  # a name may repeat
    files = example.files
    alone = meta_evaluate(files.items, files.attempts, files.judgments, resamples=20, seed=1,
                          annotators=example.annotators)
    stacked = meta_evaluate_sets([example], resamples=20, seed=1)
    pd.testing.assert_frame_equal(stacked.agreement.drop(columns="set"), alone.agreement)
    pd.testing.assert_frame_equal(stacked.panel.drop(columns="set"), alone.panel)
    assert both.sets == ("example",) and stacked.roles == {"example": "example"}
    assert "example (example):" in repr(stacked)


def test_annotators_named_override_each_sets_own():
    (example,) = read_judged_sets("example")
    two = meta_evaluate_sets([example], annotators="annotator1,annotator2", resamples=20)
    assert two.annotators["judges"].tolist()[0] == "annotator1,annotator2"


def test_a_set_json_listing_no_annotators_compares_none_and_saying_nothing_compares_all(
        tmp_path):
    """Issue 30: EfficientQA's judges are three readings of one rating, not annotators."""
    import json
    import shutil

    from recallscore_nb.io.human_sets import SHIPPED_SETS

    folder = shutil.copytree(SHIPPED_SETS["example"], tmp_path / "s")
    meta = json.loads((folder / "set.json").read_text())
    (folder / "set.json").write_text(json.dumps({**meta, "annotators": []}))
    (none,) = read_judged_sets(str(folder))
    assert none.annotators == ()
    assert meta_evaluate_sets([none], resamples=20, seed=1).annotators is None
    (folder / "set.json").write_text(json.dumps({k: v for k, v in meta.items()
                                                 if k != "annotators"}))
    (unsaid,) = read_judged_sets(str(folder))
    compared = meta_evaluate_sets([unsaid], resamples=20, seed=1).annotators
    assert unsaid.annotators is None and compared["judges"].tolist()[0].count(",") >= 1


# (set, accuracy, kappa, precision, tau) the issue asks of `equivalent` against people, and
# what `contains` reached before it (accuracy, kappa), for the record
TARGETS = {"evouna-nq": (0.90, 0.74, 0.95, 0.8), "evouna-tq": (0.945, 0.80, 0.97, 0.8),
           "openqa-nq301": (0.81, 0.62, None, None)}


@pytest.mark.parametrize("name", TARGETS)
def test_equivalent_agrees_with_people_as_the_issue_asks(real, name):
    accuracy, kappa, precision, tau = TARGETS[name]
    one = real.evaluations[name]
    row = one.agreement.set_index(["rule", "judge"]).loc[("equivalent", "human")]
    assert row["accuracy"] >= accuracy and row["kappa"] >= kappa
    if precision is not None:
        assert row["precision"] >= precision
    if tau is not None:
        assert one.ranking.set_index("measure").loc["equivalent", "tau"] >= tau - 1e-12
    contains = one.agreement.set_index(["rule", "judge"]).loc[("contains", "human")]
    assert row["accuracy"] > contains["accuracy"] and row["kappa"] > contains["kappa"]


def test_nq301_is_the_2837_judged_attempts_of_twelve_systems(real):
    one = real.evaluations["openqa-nq301"]
    assert one.counts["judged"] == 2837 and one.systems["system"].nunique() == 12
    # like with like: the annotators' mutual kappa is the ceiling, above every rule
    panel = one.panel.set_index("rater")
    ceiling = panel.loc[["annotator1", "annotator2"], "kappa_majority_of_others"].mean()
    rules = panel[panel["kind"] == "rule"]["kappa_majority_of_others"]
    assert (rules < ceiling).all()
