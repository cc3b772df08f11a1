"""The scoring schema as a value: the no-schema reading and a schema built in code."""

from __future__ import annotations

import pytest

from recallscore_nb import load_benchmark
from recallscore_nb.core.errors import UsageError
from recallscore_nb.core.schema import (
    FactRule,
    NumericPolicy,
    ScoringSchema,
    check_schema_facts,
    default_schema,
)


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


def test_default_schema_is_no_schema_at_all(bench):
    schema = default_schema(bench)
    assert (schema.path, schema.sha256, schema.disagreement_note) == (None, None, "")
    assert schema.false_positive_penalty == 0 and schema.negation_cues == ()
    assert list(schema.facts.values()) == [FactRule(n) for n in bench.fact_names]
    assert schema.signature() == (
        "schema|sha256:none|fp:0|neg:none|conflict:penalized|num:abs0,rel0,pct-no|version:0.1.0")


def test_a_schema_built_in_code_must_name_checklist_facts(bench):
    schema = ScoringSchema(None, None, "", 0.5, (), 0, {"colour": FactRule("colour")},
                           NumericPolicy())
    with pytest.raises(UsageError, match="'colour'"):
        check_schema_facts(schema, bench.facts)
