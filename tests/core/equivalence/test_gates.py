"""The read steps' gates: a check they rule out is one that fails (on random answers and
references under several option sets), and they rule out what they are there for."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.equivalence.parts import AnswerForms, ReferenceForms
from recallscore_nb.core.engine import Attempts, References
from recallscore_nb.core.equivalence import CASCADE, CHECKS, READ_STEPS, EquivalenceOptions
from recallscore_nb.core.equivalence.gates import possible, slot_matrix

DEFAULT = EquivalenceOptions()


def gates(answers: list[str], references: list[list[str]], options=DEFAULT,
          steps=READ_STEPS) -> list[list[list[str]]]:
    """Per row, per reference: the steps the gates leave possible."""
    refs = References.build(references, len(answers))
    rows = np.arange(len(answers))
    matrix = slot_matrix(refs, rows)
    maybe = possible(Attempts(answers), refs, rows, matrix, [CASCADE.step(s) for s in steps],
                     options)
    return [[[steps[s] for s in np.flatnonzero(maybe[r, j])]
             for j in range(len(references[r]))] for r in range(len(answers))]


# --- the law ------------------------------------------------------------------------------------
WORDS = ["Paris", "inParis", "Parisin", "Lyon", "Narsing", "Narsingh", "Narsinh", "Yadav",
         "Abraham", "Abe", "A.", "Lincoln", "Lincon", "Mary", "Todd", "Battle", "of",
         "Hastings", "Dodger", "Stadium", ",", "Los", "Angeles", "North", "Korea", "1996",
         "September", "15,", "Sept", "about", "million", "2.5", "12", "twelve", "seven", "7",
         "km", "kilometres", "the", "a", "in", "and", "or", "not", "Beatles", "songs", "“",
         "Dáin", "DÃ¡in", "west", "east", "drawer", "left", "top", "\t", "x", "zzzzz"]
phrases = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
rows = st.lists(st.tuples(phrases, st.lists(phrases, max_size=3)), min_size=1, max_size=10)
OPTION_SETS = [
    DEFAULT,
    EquivalenceOptions(shortest=1, least=0, share=Fraction(0), longest=0, window=1),
    EquivalenceOptions(shortest=3, least=1, share=Fraction(1, 2), longest=8, widest=1),
    EquivalenceOptions(shortest=9, least=5, share=Fraction(1), tolerance=0.5),
]


@settings(max_examples=200, deadline=None)
@given(rows, st.sampled_from(OPTION_SETS))
def test_a_check_the_gates_rule_out_would_fail(pairs, options):
    answers = [a for a, _ in pairs]
    references = [r for _, r in pairs]
    left = gates(answers, references, options)
    for answer, refs, steps in zip(answers, references, left):
        forms = AnswerForms.of(answer)
        for ref, kept in zip(refs, steps):
            accepted = [s for s in READ_STEPS
                        if CHECKS[s](forms, ReferenceForms.of(ref), options)]
            assert set(accepted) <= set(kept), (answer, ref, accepted, kept)


# --- what they rule out -------------------------------------------------------------------------
def test_nothing_is_possible_for_an_answer_sharing_no_word():
    assert gates(["a red fox ran by"], [["blue whale", "Moby Dick"]]) == [[[], []]]


def test_a_sentence_sharing_only_stop_words_and_one_word_is_not_read():
    """Order needs both content words, overlap two, the name part its last; "of" is no
    evidence, "Hastings" appears in no form glue or spelling could read."""
    assert gates(["The battle was fought in Kent in the year of the storm."],
                 [["Battle of Hastings"]]) == [[[]]]


def test_each_gate_keeps_the_step_that_accepts():
    """Each row is accepted by the step named first; the others are what the counts leave
    (a reference with a date is no overlap's, a number alone no other step's)."""
    answers = ["It opened on 4 July 1996", "about 1.2 million", "It was Nelsonin",
               "the singer Narsingh", "drawer west", "Dave Bowie sang it", "Dhaka",
               "west drawer of the desk"]
    references = [["July 4, 1996"], ["1,200,000"], ["Nelson"], ["Narsing"], ["West Drawer"],
                  ["David Bowie"], ["Dhaka, Bangladesh"], ["west drawer"]]
    assert gates(answers, references) == [
        [["date", "spelling", "part"]], [["quantity"]], [["glue", "spelling"]],
        [["glue", "spelling"]], [["glue", "spelling", "order", "part", "overlap"]],
        [["glue", "spelling", "name-part", "part"]], [["glue", "spelling", "part"]],
        [["glue", "spelling", "order", "part", "overlap"]]]
    for answer, (ref,), step in zip(answers, references, ["date", "quantity", "glue",
                                                          "spelling", "order", "name-part",
                                                          "part", "overlap"]):
        assert CHECKS[step](AnswerForms.of(answer), ReferenceForms.of(ref), DEFAULT), step


def test_the_name_part_gate_needs_a_person():
    assert gates(["The Dodgers play at the Stadium"], [["Dodger Stadium"]],
                 steps=("name-part",)) == [[[]]]
    assert gates(["Lincoln spoke"], [["Abraham Lincoln"]], steps=("name-part",)) == [
        [["name-part"]]]


def test_a_row_without_references_and_an_empty_reference_keep_nothing():
    assert gates(["Paris", "Paris"], [[], ["", "Paris"]]) == [[], [[], ["glue", "spelling",
                                                                       "part"]]]
