"""The report schema: its static parts from the data file, its rules' part from the rule registry,
and reports checked against it."""

from __future__ import annotations

import json
import shutil

import pytest

from recallscore_nb.core.rules import rules_for, verdict_columns
from recallscore_nb.io._jsonschema import Draft202012Validator
from recallscore_nb.io.data import DEFAULT_BENCHMARK
from recallscore_nb.io.reports.schema import REPORT_SCHEMA, _validator, report_schema
from tests.report_fixtures import report, validator

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_the_report_schema_lists_every_rule_of_the_registry():
    """The shipped JSON Schema spells out each rule's value; a new rule adds its own here."""
    from recallscore_nb.core.rules import measure, verdict_columns

    schema = report_schema()
    listed = schema["$defs"]["attempt"]["properties"]["rules"]
    number = {"type": "number", "minimum": 0, "maximum": 1}
    def listing(column):
        if not measure(column).optional:
            return {"type": "boolean"} if measure(column).binary else number
        # missing for an item without a checklist (a report of an items file)
        assert measure(column).binary
        return {"type": ["boolean", "null"], "description": listed["properties"][column].get(
            "description")}

    assert listed["properties"] == {column: listing(column) for column in verdict_columns()}
    assert listed["required"] == verdict_columns()


def test_shipped_report_follows_the_schema(shipped):
    document, _, _ = shipped
    assert list(validator().iter_errors(document)) == []
    assert sorted(document) == ["attempts", "inputs", "scorer", "status", "totals"]
    assert document["status"] == "ok"


def test_the_report_schema_wants_every_hash_in_a_scored_report(shipped):
    document = json.loads(shipped[1])
    document["inputs"][0]["sha256"] = None
    assert [e.message for e in validator().iter_errors(document)] != []
    error = {k: v for k, v in document.items() if k not in ("attempts", "totals")}
    error.update(status="error", errors=[{"file": "x", "location": "", "rowId": None,
                                          "field": "", "message": "no such file"}])
    assert list(validator().iter_errors(error)) == []


def test_a_scored_report_carries_the_disagreement_note_verbatim(capsys, tmp_path):
    note = "Only one reading: 'west' alone\nis not enough — a curator's choice."
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"schemaVersion": 1, "disagreementNote": note}), encoding="utf-8")
    shutil.copy(DEFAULT_BENCHMARK, tmp_path / "b.json")
    assert report(capsys, str(tmp_path / "b.json"), schema=str(schema),
                  out=str(tmp_path / "r.json"))[0] == 0
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert document["scorer"]["disagreement_note"] == note
    del document["scorer"]["disagreement_note"]
    assert [e.message for e in _validator("ok").iter_errors(document)] == [
        "'disagreement_note' is a required property"]


def test_a_stored_report_names_every_problem_of_its_header(tmp_path):
    from recallscore_nb.core.errors import ReportFormatError
    from recallscore_nb.io.reports.reading import read_report

    path = tmp_path / "r.json"
    path.write_text(json.dumps({"scorer": {"squad_mode": "v9"},
                                "inputs": [{"role": "oracle", "path": "", "sha256": None}]}),
                    encoding="utf-8")
    with pytest.raises(ReportFormatError) as info:
        read_report(path)
    assert [e.location for e in info.value.errors] == [
        "$.inputs[0].path", "$.inputs[0].role", "$.scorer.squad_mode"]


@pytest.mark.parametrize(("kind", "optional", "listed"), [
    ("binary", False, {"type": "boolean"}),
    ("graded", True, {"type": ["number", "null"], "minimum": 0, "maximum": 1,
                      "description": "null for an item without a checklist (a report of an "
                                     "items file)"}),
    ("count", False, {"type": "integer", "minimum": 0}),
    ("label", False, {"type": "string", "enum": ["hit", "miss"]}),
])
def test_a_rule_added_to_the_registry_is_in_the_schema(monkeypatch, kind, optional, listed):
    """No edit of the schema file: a new rule class in RULES adds its own value and a
    signature."""
    from recallscore_nb.core import rules as registry

    class Hits(registry.Rule):
        name = "hits"
        measures = (registry.Measure("hits", kind, "hits", "hits", "Hits", optional=optional),)
        columns = (registry.Column("hits", kind, optional=optional,
                                   labels=("hit", "miss") if kind == registry.LABEL else ()),
                   registry.Column("misses", registry.COUNT))

    monkeypatch.setitem(registry.RULES, Hits.name, Hits)
    schema = report_schema()
    rules = schema["$defs"]["attempt"]["properties"]["rules"]
    assert rules["required"] == [*verdict_columns()] and rules["required"][-1] == "hits"
    assert rules["properties"]["hits"] == listed
    assert "misses" not in rules["properties"]  # only a rule's own value is listed
    assert schema["$defs"]["scorer"]["properties"]["signatures"]["minItems"] == 8
    checked = _validator("ok").schema["$defs"]["attempt"]["properties"]["rules"]
    assert checked["required"][-1] == "hits"  # a report is checked against the new rule too


def test_the_schema_file_leaves_the_rules_to_the_registry():
    """The data file names no rule: the registry is the one list of them."""
    text = REPORT_SCHEMA.read_text(encoding="utf-8")
    assert not [column for column in verdict_columns() if f'"{column}"' in text]
    schema = report_schema()
    assert schema["$defs"]["scorer"]["properties"]["signatures"]["minItems"] == len(rules_for())
    Draft202012Validator.check_schema(schema)
