"""What notebook 08's results say, from hand-made tables of two sets."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.render import notes_agreement as notes


def test_agreement_names_the_closest_rule_of_each_set():
    table = pd.DataFrame({"set": ["a", "a", "b", "b"], "rule": ["contains", "equivalent"] * 2,
                          "judge": ["human"] * 4, "accuracy": [0.8, 0.9, 0.95, 0.7],
                          "kappa": [0.6, 0.75, 0.8, 0.4]})
    assert notes.agreement(table) == ("Closest to human, by kappa: a equivalent (accuracy "
                                      "0.900, kappa 0.750); and b contains (accuracy 0.950, "
                                      "kappa 0.800).")


def test_like_with_like_and_its_empty_case():
    panel = pd.DataFrame({"set": ["b"] * 4, "rater": ["x", "y", "equivalent", "gpt-4"],
                          "kind": ["annotator", "annotator", "rule", "judge"],
                          "kappa_majority_of_others": [0.7, 0.8, 0.6, 0.65]})
    assert notes.like_with_like(panel) == ("Against the other annotators' majority: b ceiling "
                                           "0.750, closest rule equivalent 0.600 and judge "
                                           "gpt-4 0.650.")
    assert notes.like_with_like(panel.iloc[:0]).startswith("No set has two annotators")


def test_the_step_that_matters_and_the_guards_left_out():
    ablation = pd.DataFrame({"set": ["a"] * 3, "element": ["date", "part", "longer-name"],
                             "kind": ["step", "step", "guard"], "fixed": [10, 30, 1],
                             "broken": [2, 5, 9], "net": [8, 25, -8]})
    assert notes.step_ablation(ablation) == ("The step that matters most to people's verdicts: "
                                             "a part (fixes 30, breaks 5).")
    left = ablation[ablation["kind"] == "guard"]
    assert notes.guards_left_out(left) == ("Left out, each costing more than it saves: "
                                           "longer-name would fix 1 and break 9 verdicts on a.")


def test_ranks_count_the_ties_and_ranking_the_exact_measures():
    ranks = pd.DataFrame({"set": ["a"] * 4, "measure": ["m", "m", "m", "n"],
                          "system": list("xyzx"), "rank": [1, 1, 3, 1],
                          "tied": [True, True, False, False]})
    assert notes.ranks(ranks).startswith("1 tie among the systems' ranks (2 ranks shared)")
    ranking = pd.DataFrame({"set": ["a", "a", "a"], "measure": ["contains", "equivalent",
                                                                "human"],
                            "discordant": [2, 0, 0]})
    assert notes.ranking(ranking).endswith(": a equivalent.")


def test_what_the_notebook_found_per_set():
    numbers = {"AgreeEvounaNqAccuracyEquivalent": "0.905", "AgreeEvounaNqKappaEquivalent": "0.774",
               "AgreeEvounaNqAccuracyContains": "0.812", "AgreeEvounaNqKappaContains": "0.602",
               "AgreeEvounaNqJudgedAttempts": 15099}
    assert notes.found_human_agreement(numbers) == [
        "EvounaNq: equivalent accuracy 0.905, kappa 0.774 (contains 0.812, 0.602), over 15099 "
        "judged attempts."]


def test_the_gaming_notes_count_families_above_one_percent_per_set():
    shares = pd.DataFrame({"set": ["a", "a", "a", "b"], "rule": ["equivalent"] * 3 + ["contains"],
                           "family": ["list", "hedge", "refusal", "list"],
                           "share": [0.5, 0.01, 0.9, 1.0]})
    assert notes.gaming(shares) == ("Gaming families the equivalent rule accepts above 1 %: "
                                    "a 2 of 3, most refusal (90.0 %).")
    examples = pd.DataFrame({"accepted": [True, False, True]})
    assert notes.gaming_examples(examples) == "3 gaming answers shown, 2 of them accepted."


def test_the_judges_half_names_the_judge_closest_to_the_reference():
    frame = pd.DataFrame({"set": ["x", "x", "y"], "system": ["a", "b", "a"],
                          "human": [0.5, 0.7, 0.9], "bem": [0.4, 0.7, None],
                          "gpt-4": [0.9, 0.9, None]})
    assert notes.accuracy_judges(frame) == ("The judge closest to human's accuracies, system "
                                            "by system: x bem (mean gap 0.050).")
    only = frame[["set", "system", "human"]]
    assert notes.accuracy_judges(only) == "The judges' accuracies, system by system: human."

