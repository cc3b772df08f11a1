"""The cascade as data: a record without what its kind needs fails when it is made, and a
step or a guard added as one record runs in both paths (vectorized and per row), named in the
step column, with nothing else changed."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from recallscore_nb.core.engine import Attempts, References
from recallscore_nb.core.equivalence import (
    CASCADE,
    Cascade,
    EquivalenceOptions,
    Guard,
    Step,
    cascade,
    equivalence,
    equivalence_of,
)
from recallscore_nb.core.equivalence.forms import ANSWER
from recallscore_nb.core.normalize import SEED


def _initials(answer, ref, options) -> bool:
    """The dummy step: the answer is the initials of a reference of two words or more."""
    return len(ref.a0) >= 2 and answer.a0 == ["".join(w[0] for w in ref.a0)]


def _initials_gate(gate) -> np.ndarray:
    return gate.matrix >= 0


INITIALS = Step("initials", "read", ANSWER, _initials, _initials_gate)
ASKED = Guard("asked", lambda found: found.raw.rstrip().endswith("?"))


@pytest.mark.parametrize("make, message", [
    (lambda: Step("x", "read", ANSWER, _initials), "a read step needs its check and its gate"),
    (lambda: Step("x", "read", ANSWER, gate=_initials_gate), "needs its check and its gate"),
    (lambda: Step("x", "inside", ANSWER, _initials), "no check, gate or look"),
    (lambda: Step("x", "sideways", ANSWER), "unknown kind 'sideways'"),
    (lambda: Step("x", "equal", SEED), "it must compare under one of answer"),
    (lambda: Step("none", "equal", ANSWER), "a name other than 'none'"),
    (lambda: Guard("x", "not a function"), "a guard needs its veto"),
    (lambda: Cascade(CASCADE.steps + (dataclasses.replace(INITIALS, name="date"),), ()),
     "the cascade names 'date' twice"),
    (lambda: Cascade(CASCADE.steps, CASCADE.guards + (Guard("exact", bool),)),
     "the cascade names 'exact' twice"),
    (lambda: Cascade((INITIALS,) + CASCADE.steps, ()), "every read step comes after"),
])
def test_a_record_without_what_it_needs_fails_when_made(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_the_shipped_cascade_names_the_published_labels_in_order():
    """The values of the step column, as the reports publish them: a record added, renamed
    or moved changes them, and must do so here too."""
    assert CASCADE.labels == (
        "exact", "contains", "number", "plural", "date", "quantity", "glue", "spelling",
        "order", "name-part", "part", "overlap", "negation", "candidates", "longer-name",
        "alternatives", "list", "bag", "denial", "scale", "none")


@pytest.fixture
def extended(monkeypatch):
    """The recipe of CONTRIBUTING.md: one Step record and one Guard record more."""
    monkeypatch.setattr(cascade, "CASCADE", Cascade(CASCADE.steps + (INITIALS,),
                                                    CASCADE.guards + (ASKED,)))


def _both(answers, references, options):
    refs = References.build(references, len(answers))
    verdict, step = equivalence(Attempts(answers), refs, options)
    fast = list(zip(verdict.tolist(), step.tolist()))
    assert fast == [equivalence_of(a, r, options) for a, r in zip(answers, references)]
    return fast


def test_a_step_added_as_one_record_runs_in_both_paths(extended):
    options = EquivalenceOptions(steps=CASCADE.step_names + ("initials",))
    answers = ["UN", "UK", "Paris", "NATO"]
    references = [["United Nations"], ["United States"], ["Paris"], ["North Atlantic"]]
    assert _both(answers, references, options) == [
        (True, "initials"), (False, "none"), (True, "exact"), (False, "none")]
    # off by default, like any step the options do not name
    assert _both(answers[:1], references[:1], EquivalenceOptions()) == [(False, "none")]


def test_a_guard_added_as_one_record_vetoes_in_both_paths(extended):
    options = EquivalenceOptions(guards=("negation", "asked"))
    answers = ["Is it Paris?", "It is Paris.", "Not Paris?"]
    assert _both(answers, [["Paris"]] * 3, options) == [
        (False, "asked"), (True, "contains"), (False, "negation")]
