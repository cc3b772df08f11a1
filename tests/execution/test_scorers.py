"""Scorers: what a benchmark or an items file adds, the faults of an attempts table (each
checked in one place, in one order), and the signatures and hashes it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from recallscore_nb._version import __version__
from recallscore_nb.core.registry import signatures
from recallscore_nb.core.rules import output_columns, rules_for
from recallscore_nb.execution.scorers import BenchmarkScorer, ItemsScorer, load_scorer
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH

ITEMS = [{"item": "kite", "referenceAnswer": "A red kite nests by the river.",
          "factChecklist": [{"fact": "bird", "requiredTerms": ["red kite"]}]},
         {"item": "capital", "referenceAnswer": ["Paris", "Lutetia"]}]


@pytest.fixture
def items_path(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in ITEMS), encoding="utf-8")
    return str(path)


def fault(scorer, frame: pd.DataFrame) -> str | None:
    """The message of the fault ``scorer`` finds in ``frame`` read as ``a.csv``."""
    found = scorer.checker("a.csv")(frame, True)
    return None if found is None else str(found())


def test_a_benchmark_scorer_adds_every_rule_and_with_a_schema_the_statuses():
    plain = load_scorer(None)
    schema = load_scorer(None, schema_path=DEFAULT_SCHEMA_PATH)
    assert isinstance(plain, BenchmarkScorer) and plain.role == "benchmark"
    assert plain.outputs == output_columns(plain.benchmark.facts)
    assert schema.outputs[:len(plain.outputs)] == plain.outputs
    assert {"weighted_score", "status_location", "basis_timing"} <= set(schema.outputs)
    rules = signatures("v1.1")  # every rule's, then the normalizers' they use
    assert rules[:len(rules_for("v1.1"))] == [rule.signature() for rule in rules_for("v1.1")]
    assert plain.signatures == rules
    assert schema.signatures == rules + [schema.schema.signature()]
    assert plain.metadata == {"version": __version__, "signatures": rules,
                              "benchmark_sha256": plain.benchmark.sha256}
    assert schema.metadata["schema_sha256"] == schema.schema.sha256


@pytest.mark.parametrize("column", ["token_f1", "fact_object", "weighted_score"])
def test_a_carried_column_an_output_would_overwrite_is_named(column):
    scorer = load_scorer(None, schema_path=DEFAULT_SCHEMA_PATH)
    frame = pd.DataFrame({"id": ["a"], "attempt": ["x"], "system": ["s"], column: [1]})
    assert fault(scorer, frame) == (f"a.csv: {column}: column {column!r} collides with an "
                                    "output column; rename it")
    assert fault(scorer, frame.drop(columns=column)) is None


def test_items_faults_come_in_order_missing_column_then_unknown_ids_then_collisions(items_path):
    scorer = load_scorer(items_path)
    assert isinstance(scorer, ItemsScorer) and scorer.role == "items"
    good = pd.DataFrame({"id": ["a", "b"], "item": ["kite", "capital"], "attempt": ["x", "y"]})
    assert fault(scorer, good) is None
    clash = good.assign(contains=[1, 2])
    assert fault(scorer, clash) == ("a.csv: contains: column 'contains' collides with an "
                                    "output column; rename it")
    unknown = clash.assign(item=["kite", "nope"])
    assert fault(scorer, unknown) == ("a.csv: item: 1 unknown item id(s) in the attempts, e.g. "
                                      "'nope'")
    assert fault(scorer, unknown.drop(columns="item")) == (
        "a.csv: item: missing column 'item' (scoring against an items file)")


def test_unknown_ids_are_gathered_from_every_chunk(items_path):
    check = load_scorer(items_path).checker("a.csv")
    first = pd.DataFrame({"id": ["a"], "item": ["nope"], "attempt": ["x"]})
    assert str(check(first, True)()) == ("a.csv: item: 1 unknown item id(s) in the attempts, "
                                         "e.g. 'nope'")
    later = pd.DataFrame({"id": ["b", "c"], "item": ["gone", "nope"], "attempt": ["x", "y"]})
    assert str(check(later, False)()) == ("a.csv: item: 2 unknown item id(s) in the attempts, "
                                          "e.g. 'nope', 'gone'")


def test_an_items_file_needs_attempts(items_path):
    with pytest.raises(Exception, match="scoring an items file needs --attempts"):
        load_scorer(items_path).score_whole(None)


def test_released_items_are_read_again_on_restore(items_path):
    scorer = load_scorer(items_path)
    scorer.chunk_function()
    scorer.release()
    assert scorer.items.items == () and scorer.prepared.references is None
    scorer.restore()
    frame = pd.DataFrame({"id": ["a"], "item": ["capital"], "attempt": ["lutetia"]})
    assert scorer.score_whole(frame)["normalized_match"].tolist() == [True]
    assert Path(scorer.items.path).name == "items.jsonl" and len(scorer.items) == 2


def test_an_items_file_rows_bad_references_are_named_by_id(items_path):
    frame = pd.DataFrame({"id": ["a", "b"], "item": ["kite", "capital"], "attempt": ["x", "y"],
                          "references": ['["red kite"]', '{"no": 1}']})
    assert fault(load_scorer(items_path), frame) == (
        "a.csv: (id b): references: expected a JSON list of strings, got {'no': 1}")
