"""What the results of notebooks 05 to 07 say, on small tables whose sentences can be checked
by hand."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.render import notes_systems as notes


def test_systems_scores_and_controls():
    scores = pd.DataFrame({"system": ["a", "a", "b", "control:empty"]})
    assert notes.scored(scores) == "4 scored rows: 3 attempts of 2 systems and 1 control attempt."
    controls = pd.DataFrame({"control": ["control:empty", "control:stuffing"], "attempt": ["", "x"],
                             "attempts": [2, 2], "literal_match": [0.0, 0.0],
                             "checklist_full_match": [0.0, 1.0]})
    assert notes.controls(controls) == ("control:empty score 0 under every measure; "
                                        "control:stuffing scores checklist_full_match 1.000.")


def test_intervals_and_saturation():
    intervals = pd.DataFrame({"system": ["a", "b", "a", "b", "control:idk"],
                              "rule": ["literal", "literal", "checklist", "checklist", "literal"],
                              "n": [4] * 5, "mean": [0.75, 0.25, 1.0, 0.5, 0.0],
                              "low": [0.5, 0.0, 1.0, 0.25, 0.0], "high": [1.0, 0.5, 1.0, 0.75, 0.0]})
    assert notes.intervals(intervals) == ("5 intervals; a has the highest mean under 2 of 2 "
                                          "measures, and the widest interval is a's under literal "
                                          "(0.500 to 1.000).")
    saturation = pd.DataFrame({"rule": ["literal", "checklist"], "saturated": [False, True]})
    assert notes.saturation(saturation) == "1 of 2 rules are saturated: checklist."


def test_catalogue_flags_and_fixes():
    flags = pd.DataFrame({"suite": ["x", "y", "y"], "flag": ["void", "floor", "void"]})
    assert notes.flags(flags) == "3 flags on 2 suites: void 2 and floor 1."
    suites = pd.DataFrame({"id": ["a", "b", "c"], "flags": ["void", "grader-bug (fixed 2026-09-09); void", ""]})
    assert notes.suite_flags(suites) == "2 of 3 suites carry a flag: void 2 and grader-bug 1."
    fixes = pd.DataFrame({"suite": ["x"], "flag": ["grader-bug"], "fixed": ["2026-09-09"],
                          "results": [""], "excluded": [""]})
    assert notes.fixes(fixes) == "1 grader-bug fix: x on 2026-09-09; no result is excluded."


def test_fact_statuses_and_what_07_found():
    counts = pd.DataFrame({"fact": ["material", "total"], "present": [10, 44], "missing": [1, 1]})
    assert notes.counts(counts) == "Over every variant and fact: 44 present and 1 missing."
    matrix = pd.DataFrame({"id": ["R1", "R9"], "status_material": ["present", "missing"],
                           "weighted_score": [1.0, 5 / 6]})
    assert notes.statuses(matrix) == ("1 of 2 variants have every fact present; weighted scores "
                                      "range from 0.833 (R9) to 1.000.")
    found = notes.found_fact_status({"FactStatusPresent": "44", "FactStatusMissing": "1",
                                     "FactStatusAllPresent": "8", "FactStatusVariantCount": "12",
                                     "FactStatusMeanWeightedScore": "0.882"})
    assert found == ["Fact statuses over every variant and fact: 44 present and 1 missing.",
                     "8 of 12 variants have every fact present; the mean weighted score is 0.882."]
