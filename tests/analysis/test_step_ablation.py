"""The equivalent rule's steps and guards against people."""

from __future__ import annotations

import pytest

from recallscore_nb.analysis.step_ablation import guards_left_out, step_ablation
from recallscore_nb.core.equivalence import GUARDS, STEPS
from recallscore_nb.io.human_sets import read_judged_sets


@pytest.fixture(scope="module")
def nq():
    return step_ablation(read_judged_sets("evouna-nq"))


def test_one_row_per_step_and_guard_after_the_default_rule(nq):
    assert nq["change"].tolist() == ["none", *[f"without {s}" for s in STEPS],
                                     "without negation", "with candidates", "with longer-name",
                                     "without alternatives", "without list", "without bag",
                                     "without denial", "without scale"]
    assert nq["element"].tolist()[1:] == [*STEPS, *GUARDS]
    assert (nq["net"] == nq["fixed"] - nq["broken"]).all()
    default = nq.iloc[0]
    # without a step, the verdicts it fixed are lost and those it broke come back
    for _, row in nq.iloc[1:].iterrows():
        sign = 1 if row["default"] == "on" else -1
        n = 15099
        assert row["accuracy"] == pytest.approx(default["accuracy"] - sign * row["net"] / n)


def test_the_guards_left_out_break_more_than_they_fix_on_the_development_set(nq):
    left = guards_left_out(nq)
    assert left["element"].tolist() == ["candidates", "longer-name"]
    assert (left["net"] < 0).all()
    kept = nq[nq["element"] == "negation"].iloc[0]
    assert kept["default"] == "on" and kept["net"] >= 0


def test_the_steps_that_matter_on_the_development_set(nq):
    net = nq.set_index("element")["net"]
    # each of these fixes more verdicts than it breaks, on the set they were designed on
    for step in ("date", "quantity", "glue", "name-part", "part", "overlap"):
        assert net[step] > 0, step
