"""The places that qualify another place, read as one candidate with it."""

import pytest

from recallscore_nb.core.equivalence.places import PLACES, qualifies


@pytest.mark.parametrize("said", [("georgia",), ("north", "carolina"), ("united", "states"),
                                  ("british", "columbia"), ("wales",)])
def test_a_segment_that_is_a_place_qualifies(said):
    assert qualifies(said) is True


@pytest.mark.parametrize("said", [(), ("paris",), ("new",), ("in", "georgia"), ("carolina",),
                                  ("georgia", "bulldogs"), ("wales", "in", "1968")])
def test_other_segments_do_not(said):
    assert qualifies(said) is False


def test_the_list_is_tokens_of_the_answer_normalizer():
    assert ("united", "states", "of", "america") in PLACES and ("u", "s") in PLACES
    assert all(p and all(t == t.lower() and " " not in t for t in p) for p in PLACES)
