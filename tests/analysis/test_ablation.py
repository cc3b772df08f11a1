"""The normalization ablation: the pipelines, their signatures, the verdicts under each, and
the flips relative to seed, by hand on small cases and on the shipped benchmark.

Shipped-benchmark flips, worked out from the attempts (reference "The copper token goes in
the west drawer before the museum opens."):

- seed-nocase: R02 (upper case) no longer equals the reference; its terms, all lower case,
  are no longer found, nor "before" in R05 ("Before the museum…") or "copper" in R06 and
  R08 ("Copper token…").
- seed-nopunct: R03 (no final period) no longer equals the reference, which keeps its "."; the
  token "opens." no longer matches the term "opens" in every attempt that ends so (all
  facts-complete rows but R03), nor "token:" in R06.
- seed-nospace: R04 keeps its extra spaces; its terms are still surrounded by spaces.
- articles, Unicode punctuation, NFKC: the benchmark is ASCII and article removal applies
  to both sides, so nothing flips.
"""

from __future__ import annotations


import pandas as pd
import pytest

from recallscore_nb import __version__, load_benchmark
from recallscore_nb.analysis.ablation import (
    ABLATIONS,
    CHANGES,
    ablation_signature,
    ablation_table,
    facts_matrix,
    flip_matrix,
    flips,
    matrix_table,
    normalized_verdicts,
    pipeline_signature,
    verdict_matrix,
)
from recallscore_nb.core.facts import Fact
from recallscore_nb.core.normalize import SEED, STEPS


F = False


# --- the pipelines ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "switched"),
    [("seed", {}), ("seed-nocase", {"lowercase": False}), ("seed-nopunct", {"punctuation": False}),
     ("seed-nospace", {"whitespace": False}), ("seed+articles", {"articles": True}),
     ("seed+unipunct", {"unicode_punctuation": True}), ("seed+nfkc", {"nfkc": True})],
)
def test_each_pipeline_switches_one_step_of_seed(name, switched):
    normalizer = ABLATIONS[name]
    assert normalizer.name == name and name in CHANGES
    differs = {step: step in normalizer.steps for step in STEPS
               if (step in normalizer.steps) != (step in SEED.steps)}
    assert differs == switched


def test_signatures_are_pinned():
    assert pipeline_signature(ABLATIONS["seed-nocase"]) == (
        "normalizer|name:seed-nocase|lowercase:no|punctuation:yes|whitespace:yes|articles:no"
        f"|unicode_punctuation:no|nfkc:no|version:{__version__}")
    assert pipeline_signature(ABLATIONS["seed+nfkc"]) == (
        "normalizer|name:seed+nfkc|lowercase:yes|punctuation:yes|whitespace:yes|articles:no"
        f"|unicode_punctuation:no|nfkc:yes|version:{__version__}")
    assert ablation_signature() == (
        "ablation|verdicts:normalized,checklist|baseline:seed|tok:ws|match:whole-token"
        f"|empty-term:absent|version:{__version__}")
    assert len({pipeline_signature(n) for n in ABLATIONS.values()}) == len(ABLATIONS)


# --- verdicts under one pipeline -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("pipeline", "attempt", "reference", "expected"),
    [
        ("seed", "Hello,  World", "hello world", True),
        ("seed-nocase", "Hello,  World", "hello world", False),  # H vs h
        ("seed-nocase", "hello,  world", "hello world", True),
        ("seed-nopunct", "hello, world", "hello world", False),  # the comma stays
        ("seed-nospace", "hello  world", "hello world", False),  # two spaces stay
        ("seed-nospace", "hello world ", "hello world", False),  # no trim either
        ("seed", "the cat", "cat", False),
        ("seed+articles", "the cat", "cat", True),
        ("seed", "cat\u2019s", "cats", False),  # ’ is not ASCII punctuation
        ("seed+unipunct", "cat\u2019s", "cats", True),
        ("seed", "\uff43\uff41\uff54", "cat", False),  # fullwidth letters
        ("seed+nfkc", "\uff43\uff41\uff54", "cat", True),
    ],
)
def test_normalized_verdicts_by_hand(pipeline, attempt, reference, expected):
    assert normalized_verdicts([attempt], reference, ABLATIONS[pipeline]).tolist() == [expected]


TEXTS = ["The  West-Drawer.", "the west drawer", "THE WEST DRAWER", " a west\tdrawer ",
         "west\u2013drawer\u2019s", "\uff37est drawer", "", "An eclipse, the end!"]


@pytest.mark.parametrize("pipeline", list(ABLATIONS))
def test_vectorized_verdicts_equal_the_python_pipeline_row_by_row(pipeline):
    normalizer = ABLATIONS[pipeline]
    reference = "the west drawer"
    expected = [normalizer(t) == normalizer(reference) for t in TEXTS]
    assert normalized_verdicts(TEXTS, reference, normalizer).tolist() == expected


def test_facts_matrix_matches_whole_tokens_under_the_pipeline():
    facts = [Fact("place", ("west drawer",)), Fact("what", ("Token",)), Fact("when", ("x", "y"))]
    attempts = ["The token, west drawer.", "northwest drawer token", "y then x"]
    assert facts_matrix(attempts, facts, SEED).tolist() == [
        [True, True, False], [False, True, False], [False, False, True]]
    # Without case folding the term "Token" no longer finds "token".
    assert facts_matrix(attempts, facts, ABLATIONS["seed-nocase"])[:, 1].tolist() == [F, F, F]


def test_a_term_the_pipeline_erases_counts_as_absent():
    facts = [Fact("article", ("the",)), Fact("noun", ("cat",))]
    assert facts_matrix(["the cat"], facts, SEED).tolist() == [[True, True]]
    assert facts_matrix(["the cat"], facts, ABLATIONS["seed+articles"]).tolist() == [[False, True]]


# --- the whole benchmark ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def shipped():
    return ablation_table(load_benchmark())


def test_ablation_table_shape(shipped):
    assert len(shipped) == 7 * 12
    assert shipped.columns.tolist() == ["pipeline", "id", "condition", "normalized_match",
                                        "facts_present", "facts_total", "checklist_full_match",
                                        "schema_full_match"]
    seed = shipped[shipped["pipeline"] == "seed"]
    # Under seed the ablation reproduces the published labels: 4 normalized, 8 checklist.
    assert seed["normalized_match"].sum() == 4 and seed["checklist_full_match"].sum() == 8
    assert seed["facts_present"].tolist() == [4] * 8 + [3] * 4
    assert seed["schema_full_match"].tolist() == [True] * 8 + [False] * 4


def test_schema_verdicts_follow_the_pipeline_and_the_schema():
    from recallscore_nb import load_benchmark
    from recallscore_nb.analysis.ablation import schema_verdicts
    from recallscore_nb.io.scoring_schemas import load_scoring_schema

    bench, schema = load_benchmark(), load_scoring_schema()
    attempts = ["A COIN goes in the west drawer before the museum opens, copper.",
                "The copper token is not in the west drawer before the museum opens."]
    # "coin" is an equivalent of the object; under seed-nocase "COIN" no longer matches it.
    assert schema_verdicts(attempts, bench, schema, ABLATIONS["seed"]).tolist() == [True, False]
    assert schema_verdicts(attempts, bench, schema, ABLATIONS["seed-nocase"]).tolist() == [False, False]


@pytest.mark.parametrize(
    ("pipeline", "rule", "lost"),
    [
        ("seed-nocase", "normalized_match", "R02"),
        ("seed-nocase", "checklist_full_match", "R02, R05, R06, R08"),
        ("seed-nopunct", "normalized_match", "R03"),
        ("seed-nopunct", "checklist_full_match", "R01, R02, R04, R05, R06, R07, R08"),
        ("seed-nospace", "normalized_match", "R04"),
        ("seed-nospace", "checklist_full_match", ""),
        ("seed+articles", "normalized_match", ""),
        ("seed+articles", "checklist_full_match", ""),
        ("seed+unipunct", "normalized_match", ""),
        ("seed+nfkc", "checklist_full_match", ""),
    ],
)
def test_flips_on_the_shipped_benchmark(shipped, pipeline, rule, lost):
    record = flips(shipped).set_index(["pipeline", "rule"]).loc[(pipeline, rule)]
    assert record["lost"] == lost and record["gained"] == ""
    assert record["flips"] == (len(lost.split(", ")) if lost else 0)


TINY = pd.DataFrame({
    "pipeline": ["seed", "seed", "x", "x"], "id": ["b", "a", "b", "a"], "condition": ["B", "", "B", ""],
    "normalized_match": [True, False, False, True], "facts_present": [2, 1, 2, 2],
    "facts_total": [2, 2, 2, 2], "checklist_full_match": [True, False, True, True],
})


def test_flips_counts_both_directions():
    record = flips(TINY).set_index(["pipeline", "rule"])
    assert record.loc[("x", "normalized_match")].tolist() == [1, 2, "b", "a"]
    assert record.loc[("x", "checklist_full_match")].tolist() == [2, 1, "", "a"]
    assert record.loc[("seed", "normalized_match"), "flips"] == 0


def test_matrices_keep_the_table_order():
    assert verdict_matrix(TINY).index.tolist() == ["b", "a"]  # not sorted
    assert flip_matrix(TINY, "normalized_match").to_dict("list") == {
        "seed": [False, False], "x": [True, True]}
    with pytest.raises(ValueError, match="'baseline' must be one of"):
        flip_matrix(TINY, baseline="nope")


def test_matrix_table_marks_flips_and_counts_them():
    table = matrix_table(TINY)
    assert table.columns.tolist() == ["rule", "id", "condition", "seed", "x"]
    assert table["x"].tolist() == ["fail*", "pass*", "2", "pass 2/2", "pass 2/2*", "1"]
    assert table["id"].tolist() == ["b", "a", "flips", "b", "a", "flips"]
