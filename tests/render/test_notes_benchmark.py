"""What the results of notebooks 01 to 04 say, on the shipped benchmark (the counts are those
the benchmark publishes: literal 1, normalized 4, checklist 8 of 12) and on small tables."""

from __future__ import annotations

import pandas as pd

import recallscore_nb as rs
from recallscore_nb.render import notes_benchmark as notes


def test_the_shipped_benchmarks_scores_labels_and_summary():
    benchmark = rs.load_benchmark()
    scores = rs.score_benchmark(benchmark)
    assert notes.passes(scores) == ("Of 12 variants, literal_match passes 1, normalized_match 4, "
                                    "squad_exact_match 4, contains 5, checklist_full_match 8 and "
                                    "equivalent 9.")
    reproduced = rs.reproduce(benchmark)
    assert notes.labels(reproduced.rows) == "12 of 12 rows agree with their published labels."
    assert notes.summary(reproduced.summary) == (
        "Every published count is recomputed exactly (6 of 6 fields).")


def test_labels_name_the_rows_that_disagree_or_carry_no_label():
    frame = pd.DataFrame({"id": ["R1", "R2", "R3"], "agrees": [True, False, None]})
    assert notes.labels(frame) == ("1 of 3 rows agree with their published labels; R2 disagrees; "
                                   "1 row carries no published label.")


def test_by_label_facts_and_flips():
    by_label = pd.DataFrame({"rule": ["literal", "checklist"], "complete_pass": [1, 8],
                             "complete_total": [8, 8], "incomplete_pass": [0, 1],
                             "incomplete_total": [4, 4], "unlabelled": [0, 0]})
    assert notes.by_label(by_label) == ("Of 8 facts-complete variants, literal 1 and checklist 8 "
                                        "pass; of the 4 incomplete ones, checklist 1.")
    facts = pd.DataFrame({"id": ["R1", "R9"], "facts_present": [4, 3], "facts_total": [4, 4],
                          "missing": ["", "material"]})
    assert notes.facts(facts) == "1 of 2 variants state every fact; R9 (material) misses some."
    flips = pd.DataFrame({"pipeline": ["seed", "seed-nocase"], "rule": ["normalized_match"] * 2,
                          "passes": [4, 3], "flips": [0, 1], "lost": ["", "R02"], "gained": ["", ""]})
    assert notes.flips(flips) == ("1 pipeline changes the published verdicts: seed-nocase flips "
                                  "1 normalized_match verdict.")
    assert notes.flips(flips.head(1)) == "No pipeline flips any verdict of the published one."


def test_agreement_precision_recall_and_disagreements():
    pairs = pd.DataFrame({"rule_a": ["literal", "normalized"], "rule_b": ["checklist", "squad"],
                          "kappa": [0.087, 1.0]})
    assert notes.agreement(pairs) == ("Over 2 pairs of rules, Cohen's kappa ranges from 0.087 "
                                      "(literal and checklist) to 1.000 (normalized and squad).")
    rules = pd.DataFrame({"rule": ["literal", "checklist", "token_f1"],
                          "kind": ["binary", "binary", "graded"], "precision": [1.0, 1.0, None],
                          "recall": [1 / 8, 1.0, None]})
    assert notes.precision_recall(rules) == ("Precision of the binary rules ranges from 1.000 to "
                                             "1.000; recall from 0.125 (literal) to 1.000 "
                                             "(checklist).")
    assert notes.disagreements(pd.DataFrame({"id": [], "condition": []})) == (
        "The rules agree on every variant.")


def test_what_notebooks_02_to_04_found():
    assert notes.found_rule_figures({"FigureCompletePassLiteral": "1",
                                     "FigureIncompletePassLiteral": "0"}) == [
        "Facts-complete variants passed: Literal 1.", "Incomplete variants passed, over every rule: 0."]
    assert notes.found_ablation({"AblationPipelinesFlipping": "3",
                                 "AblationChecklistFlipsSeedNocase": "4",
                                 "AblationChecklistFlipsSeedNfkc": "0"}) == [
        "3 pipelines change a verdict of the published one.", "Flips: ChecklistFlipsSeedNocase 4."]
