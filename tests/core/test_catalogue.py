"""The suite catalogue as values: the flag vocabulary and a suite's flags."""

from __future__ import annotations

from recallscore_nb.core.catalogue import FLAGS, NAMES_A_SUITE, Catalogue, Flag, Suite


def test_only_pairing_and_superseding_flags_name_a_suite():
    assert set(NAMES_A_SUITE) < set(FLAGS)
    assert set(FLAGS) - set(NAMES_A_SUITE) == {"saturated", "void", "floor", "ceiling", "small-n",
                                               "confound", "unchecked-gold", "grader-bug"}


def test_a_suite_keeps_its_flags_and_unknown_fields():
    suite = Suite("a", "A", "1", "q?", "m", "g", "c", 3, 1,
                  flags=(Flag("paired", "c", "b"),), extra={"url": "x"})
    catalogue = Catalogue("c.json", "0" * 64, "2026-09-09", (suite,))
    assert catalogue.suites[0].flags[0].suite == "b" and catalogue.suites[0].extra == {"url": "x"}
