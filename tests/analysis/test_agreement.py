"""Agreement between rules: kappa and percent agreement by hand, the undefined-case policy,
precision/recall against the facts-complete label, and the explanations of disagreements.

Kappa working, with n rows, ``agree`` rows on which the raters agree, and
``S = passes_a·passes_b + fails_a·fails_b``: k = (n·agree - S) / (n² - S), which is
(p_o - p_e) / (1 - p_e) with p_o = agree/n and p_e = S/n².
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from recallscore_nb import load_benchmark, score_benchmark
from recallscore_nb.analysis.agreement import (
    NA_TEXT,
    agreement_table,
    binary_rules,
    cohen_kappa,
    disagreements,
    facts_complete_labels,
    first_difference,
    label_counts,
    na_as_text,
    percent_agreement,
    precision_recall_table,
    side_by_side,
    token_diff,
)
from tests.conftest import write_benchmark

T, F = True, False


# --- Cohen's kappa -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # n=4, agree=3, S=2·1+2·3=8: (12-8)/(16-8)
        ([T, T, F, F], [T, F, F, F], 1 / 2),
        # perfect agreement, both raters vary: n=2, agree=2, S=1+1=2: (4-2)/(4-2)
        ([T, F], [T, F], 1),
        # perfect disagreement: agree=0, S=2: (0-2)/(4-2)
        ([T, F], [F, T], -1),
        # one rater constant: n=4, agree=2, S=4·2+0·2=8: (8-8)/(16-8)
        ([T, T, T, T], [T, T, F, F], 0),
        # both constant but opposite: agree=0, S=0: 0/4
        ([T, T], [F, F], 0),
        # the shipped benchmark, literal vs normalized: n=12, agree=9, S=1·4+11·8=92
        ([T] + [F] * 11, [T] * 4 + [F] * 8, 16 / 52),
        # the shipped benchmark, literal vs checklist: agree=5, S=1·8+11·4=52: (60-52)/(144-52)
        ([T] + [F] * 11, [T] * 8 + [F] * 4, 8 / 92),
    ],
)
def test_cohen_kappa_by_hand(a, b, expected):
    assert cohen_kappa(a, b) == pytest.approx(expected, abs=1e-15)
    assert cohen_kappa(b, a) == pytest.approx(expected, abs=1e-15)  # symmetric


@pytest.mark.parametrize(
    ("a", "b"),
    [([T, T, T], [T, T, T]), ([F, F], [F, F]), ([], [])],
    ids=["both-all-pass", "both-all-fail", "no-rows"],
)
def test_cohen_kappa_undefined_policy(a, b):
    # Chance agreement is 1 (or there is nothing to rate): kappa is 0/0, NaN by policy ...
    assert math.isnan(cohen_kappa(a, b))
    # ... and the caller may name another value.
    assert cohen_kappa(a, b, undefined=1.0) == 1.0


def test_cohen_kappa_equals_the_textbook_formula_on_every_pair_of_length_4():
    for a, b in itertools.product(itertools.product([T, F], repeat=4), repeat=2):
        po = Fraction(sum(x == y for x, y in zip(a, b)), 4)
        pa, pb = Fraction(sum(a), 4), Fraction(sum(b), 4)
        pe = pa * pb + (1 - pa) * (1 - pb)
        got = cohen_kappa(list(a), list(b))
        if pe == 1:
            assert math.isnan(got)
        else:
            assert got == pytest.approx(float((po - pe) / (1 - pe)), abs=1e-15)


def test_cohen_kappa_rejects_bad_input():
    with pytest.raises(TypeError, match="'a' must hold booleans"):
        cohen_kappa([1, 0], [T, F])
    with pytest.raises(ValueError, match="aligned"):
        cohen_kappa([T, F], [T])


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [([T, F, F], [T, T, F], 100 * 2 / 3), ([T], [T], 100), ([T, F], [F, T], 0)],
)
def test_percent_agreement(a, b, expected):
    assert percent_agreement(a, b) == expected


def test_percent_agreement_of_no_rows_is_undefined():
    assert math.isnan(percent_agreement([], []))


def test_partial_credit_beside_the_counts_it_is_computed_from():
    frame = pd.DataFrame({"id": ["a", "b", "c"], "literal_match": [F, F, T],
                          "normalized_match": [F, T, T], "squad_exact_match": [F, T, T],
                          "token_f1": [0.0, 0.5, 1.0], "contains": [F, T, T],
                          "checklist_full_match": [F, F, T],
                          "facts_present": [0, 2, 3], "facts_total": [3, 3, 3],
                          "equivalent": [F, T, T]})
    table = side_by_side(frame, [None, None, None])
    assert table["partial_credit"].tolist() == [0, 2 / 3, 1]
    assert table.columns.get_loc("partial_credit") == table.columns.get_loc("facts_total") + 1


# --- tables --------------------------------------------------------------------------------
def _scores(**columns) -> pd.DataFrame:
    n = len(next(iter(columns.values())))
    base = {"id": [f"r{i}" for i in range(1, n + 1)], "token_f1": [1.0] * n,
            "contains": [F] * n, "facts_present": [1] * n, "facts_total": [1] * n}
    return pd.DataFrame(base | columns)


# Four rows: literal passes r1; normalized r1, r2; squad r1, r2; checklist r1, r2, r3;
# contains none; equivalent r1, r2, r3 (as the checklist).
FOUR = _scores(
    literal_match=[T, F, F, F],
    normalized_match=[T, T, F, F],
    squad_exact_match=[T, T, F, F],
    checklist_full_match=[T, T, T, F],
    equivalent=[T, T, T, F],
)


def test_agreement_table_counts_and_kappa_by_hand():
    table = agreement_table(FOUR).set_index(["rule_a", "rule_b"])
    assert len(table) == 15  # 6 rules, 15 pairs
    row = table.loc[("literal", "normalized")]
    assert (row["both_pass"], row["only_a"], row["only_b"], row["both_fail"]) == (1, 0, 1, 2)
    assert row["agreement_pct"] == 75
    # n=4, agree=3, S=1·2+3·2=8: (12-8)/(16-8)
    assert row["kappa"] == 1 / 2
    # normalized and squad agree on every row, and both vary: kappa 1
    assert table.loc[("normalized", "squad_exact_match"), "kappa"] == 1
    # normalized vs checklist: agree=3, S=2·3+2·1=8: (12-8)/(16-8)
    assert table.loc[("normalized", "checklist"), "kappa"] == 1 / 2
    # checklist and equivalent agree on every row: 3 both pass, 1 both fail
    row = table.loc[("checklist", "equivalent")]
    assert (row["both_pass"], row["only_a"], row["only_b"], row["both_fail"]) == (3, 0, 0, 1)
    assert row["kappa"] == 1


def test_label_counts_and_precision_recall_by_hand():
    labels = [T, T, F, None]  # r4 unlabelled
    counts = label_counts(FOUR, labels).set_index("rule")
    assert counts.loc["checklist"].tolist() == [2, 2, 1, 1, 1]
    assert counts.loc["literal"].tolist() == [1, 2, 0, 1, 1]
    assert counts.loc["equivalent"].tolist() == counts.loc["checklist"].tolist()
    table = precision_recall_table(FOUR, labels).set_index("rule")
    assert table.loc["literal", ["tp", "fp", "fn", "tn"]].tolist() == [1, 0, 1, 1]
    assert table.loc["literal", "precision"] == 1 and table.loc["literal", "recall"] == 1 / 2
    # checklist passes r1, r2 (complete) and r3 (incomplete): precision 2/3, recall 2/2
    assert table.loc["checklist", "precision"] == 2 / 3
    assert table.loc["checklist", "recall"] == 1
    assert table.loc["checklist", "mean_incomplete"] == 1  # r3 passes
    assert table["labelled"].tolist() == [3] * 8 and table["unlabelled"].tolist() == [1] * 8
    assert table.index.tolist() == ["literal", "normalized", "squad_exact_match", "contains",
                                    "checklist", "equivalent", "token_f1", "partial_credit"]
    assert table.loc["token_f1", "kind"] == "graded"
    assert pd.isna(table.loc["token_f1", "tp"]) and math.isnan(table.loc["token_f1", "recall"])


def test_precision_recall_undefined_cases():
    scores = _scores(literal_match=[F, F], normalized_match=[F, F], squad_exact_match=[F, F],
                     checklist_full_match=[T, F], equivalent=[F, F])
    table = precision_recall_table(scores, [F, F]).set_index("rule")
    # literal passes no labelled row: precision undefined; no complete row: recall undefined
    assert math.isnan(table.loc["literal", "precision"])
    assert math.isnan(table.loc["literal", "recall"])
    assert table.loc["checklist", "precision"] == 0
    assert math.isnan(table.loc["checklist", "mean_complete"])
    unlabelled = precision_recall_table(scores, [None, None])
    assert unlabelled["labelled"].tolist() == [0] * 8
    assert unlabelled[["precision", "recall"]].isna().all().all()
    shown = na_as_text(unlabelled)
    assert shown["precision"].tolist() == [NA_TEXT] * 8
    assert shown["tp"].tolist()[:6] == [0] * 6 and shown["tp"].iloc[6] == NA_TEXT


def test_labels_must_align():
    with pytest.raises(ValueError, match="align"):
        label_counts(FOUR, [T, F])


def test_side_by_side_shows_missing_labels_as_na():
    table = side_by_side(FOUR, [T, F, None, T])
    assert table["facts_complete"].tolist() == [T, F, NA_TEXT, T]
    assert list(table.columns) == [
        "id", "condition", "literal", "normalized", "squad_exact_match", "token_f1",
        "contains", "checklist", "facts_present", "facts_total", "partial_credit",
        "equivalent", "facts_complete"]
    assert table["condition"].tolist() == [""] * 4  # no condition column: empty


def test_na_as_text_keeps_defined_numbers():
    shown = na_as_text(pd.DataFrame({"k": [0.5, np.nan], "n": [1, 2]}))
    assert shown["k"].tolist() == [0.5, NA_TEXT] and shown["n"].tolist() == [1, 2]


# --- explanations ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attempt", "reference", "expected"),
    [
        ("a b c".split(), "a x c".split(), "token 1: 'b' vs 'x'"),
        ("a b".split(), "a b c".split(), "token 2: end vs 'c'"),
        ("a b".split(), "a b".split(), ""),
    ],
)
def test_first_difference(attempt, reference, expected):
    assert first_difference(attempt, reference) == expected


@pytest.mark.parametrize(
    ("attempt", "reference", "expected"),
    [
        ("the east drawer", "the west drawer", "-[west] +[east]"),
        ("copper token", "the copper token", "-[the]"),
        ("please the token", "the token", "+[please]"),
        ("b c a", "a b c", "-[a] +[a]"),  # the longest common run "b c" stays; "a" moves
        ("same", "same", ""),
    ],
)
def test_token_diff(attempt, reference, expected):
    assert token_diff(attempt.split(), reference.split()) == expected


def test_disagreements_on_the_shipped_benchmark():
    bench = load_benchmark()
    table = disagreements(bench, score_benchmark(bench)).set_index("id")
    # R01 passes everything, R10-R12 (a fact changed) fail every rule: no disagreement there.
    # R09 ("copper" left out) fails every rule but equivalent, which accepts it by overlap.
    assert table.index.tolist() == ["R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09"]
    assert table.loc["R07", "token_diff"] == "+[please remember that]"
    assert table.loc["R07", "failing"] == "literal, normalized, squad_exact_match"
    assert table.loc["R04", "first_difference"] == (
        "equal after seed normalization; raw char 0: ' ' vs 'T'")
    assert (table.loc["R02":"R08", "missing_terms"] == "none").all()
    assert table.loc["R09", "passing"] == "equivalent"
    assert table.loc["R09", "missing_terms"] == "material: copper"


def test_disagreements_name_the_missing_fact_and_term(tmp_path):
    # SQuAD exact match drops the articles, so "cat sat on mat" passes it (and contains the
    # reference), while the checklist's term "the mat" is missing.
    path = write_benchmark(tmp_path, "mat.json", data={
        "schemaVersion": 1, "referenceAnswer": "The cat sat on the mat.",
        "protocol": {"factChecklist": [{"fact": "animal", "requiredTerms": ["cat"]},
                                       {"fact": "place", "requiredTerms": ["on", "the mat"]}]},
        "rows": [{"id": "m1", "attempt": "cat sat on mat"}],
    })
    bench = load_benchmark(path)
    table = disagreements(bench, score_benchmark(bench))
    row = table.iloc[0]
    assert (row["passing"], row["failing"]) == ("squad_exact_match, contains, equivalent",
                                                "literal, normalized, checklist")
    assert row["missing_terms"] == "place: the mat"
    assert row["token_diff"] == "-[the] -[the]"
    assert row["first_difference"] == "token 0: 'cat' vs 'the'"
    assert facts_complete_labels(bench).isna().all()


def test_binary_rules_are_the_six_binary_columns():
    assert binary_rules() == {
        "literal_match": "literal", "normalized_match": "normalized",
        "squad_exact_match": "squad_exact_match", "contains": "contains",
        "checklist_full_match": "checklist", "equivalent": "equivalent"}
