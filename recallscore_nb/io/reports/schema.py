"""The report's JSON Schema, and the checks of a report against it.

The schema's static parts are the data file ``data/schemas/report.schema.json``
(:data:`REPORT_SCHEMA`); what depends on the rules is generated from the rule registry
(:mod:`recallscore_nb.core.rules`) each time the schema is read: an attempt's ``rules``, one
property per rule's own value (:func:`~recallscore_nb.core.rules.verdict_columns`), typed by
its column's kind and nullable when the column is optional, and the least number of
signatures, one per rule. A rule added to the registry is thus in the schema, with no edit of
the file. :func:`report_schema` gives the whole schema; :func:`validate_report` checks a
report built here, and :func:`header_problems` what a stored report needs for its check.

>>> rules = report_schema()["$defs"]["attempt"]["properties"]["rules"]
>>> rules["required"] == registry.verdict_columns()
True
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ...core import rules as registry
from .._jsonschema import Draft202012Validator
from ..data import SCHEMAS_DIR

__all__ = ["REPORT_SCHEMA", "ROLES", "report_schema", "rules_schema", "validate_report",
           "header_problems", "json_path"]

REPORT_SCHEMA = SCHEMAS_DIR / "report.schema.json"
"""The report schema's static parts: :func:`report_schema` adds what the rule registry says."""
ROLES = ("benchmark", "items", "attempts", "schema")
"""The inputs a report names, in the order it lists them."""

_KIND_SCHEMAS = {
    registry.BINARY: {"type": "boolean"},
    registry.GRADED: {"type": "number", "minimum": 0, "maximum": 1},
    registry.COUNT: {"type": "integer", "minimum": 0},
    registry.LABEL: {"type": "string"},
}
"""The JSON Schema of a rule's value, by what its column holds (a label's names added by
:func:`_value_schema`)."""
_OPTIONAL = "null for an item without a checklist (a report of an items file)"


def rules_schema() -> dict:
    """The schema of an attempt's ``rules``: every rule's own value, required, in the
    registry's order; an optional column's value may be null.

    >>> sorted({str(value["type"]) for value in rules_schema()["properties"].values()})
    ["['boolean', 'null']", 'boolean', 'number']
    """
    properties = {}
    for name in registry.verdict_columns():
        column = registry.column_of(name)
        value = _value_schema(column)
        if column.optional:
            value = {"description": _OPTIONAL, **value, "type": [value["type"], "null"]}
        properties[name] = value
    return {"type": "object", "required": list(properties), "additionalProperties": False,
            "properties": properties}


def _value_schema(column: registry.Column) -> dict:
    """The schema of one column's value: by its kind; a label one of the column's names.

    >>> _value_schema(registry.Column("step", registry.LABEL, labels=("exact", "none")))
    {'type': 'string', 'enum': ['exact', 'none']}
    """
    value = dict(_KIND_SCHEMAS[column.kind])
    if column.kind == registry.LABEL:
        value["enum"] = list(column.labels)
    return value


def report_schema() -> dict:
    """The whole report schema: the data file's static parts, with the rules' values
    (:func:`rules_schema`) and the least number of signatures (one per rule) from the
    registry."""
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    defs["attempt"]["properties"]["rules"].update(rules_schema())
    defs["scorer"]["properties"]["signatures"]["minItems"] = len(registry.RULES)
    return schema


def _validator(kind: str | None) -> Draft202012Validator:
    """The report schema; for a known ``status``, only its branch (for plainer messages).
    Built once for each state of the rule registry: a rule registered later is in it."""
    return _validator_of(kind, tuple(registry.RULES.values()))


@cache
def _validator_of(kind: str | None, rules: tuple) -> Draft202012Validator:
    schema = report_schema()
    if kind is not None:
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"],
                  "$ref": f"#/$defs/{kind}Report"}
    return Draft202012Validator(schema)


def _schema_problems(document: Any) -> list[tuple[str, str]]:
    """(JSON path, message) of every way ``document`` departs from the report schema."""
    status = document.get("status") if isinstance(document, dict) else None
    validator = _validator(status if status in ("ok", "error") else None)
    problems = sorted(validator.iter_errors(document),
                      key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    return [(json_path(tuple(e.absolute_path)), e.message) for e in problems]


def validate_report(document: Any) -> None:
    """Raise ValueError when ``document`` does not follow the shipped report schema (a bug in
    the scorer, never the user's input)."""
    problems = _schema_problems(document)
    if problems:
        where, message = problems[0]
        raise ValueError(f"a report that does not follow {REPORT_SCHEMA.name}: {where}: {message}")


@cache
def _header_validator() -> Draft202012Validator:
    """What a stored report needs for its check: the SQuAD mode and the inputs. Any other
    departure from the report schema is left to the comparison, which names it."""
    schema = report_schema()
    return Draft202012Validator({
        "$schema": schema["$schema"], "$defs": schema["$defs"], "type": "object",
        "required": ["scorer", "inputs"],
        "properties": {
            "scorer": {"type": "object", "required": ["squad_mode"],
                       "properties": {"squad_mode": schema["$defs"]["scorer"]["properties"]["squad_mode"]}},
            "inputs": {"$ref": "#/$defs/inputs"},
        },
    })


def header_problems(document: Any) -> list[tuple[str, str]]:
    errors = sorted(_header_validator().iter_errors(document),
                    key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    problems = [(json_path(tuple(e.absolute_path)), e.message) for e in errors]
    if not problems:
        roles = [entry["role"] for entry in document["inputs"]]
        for role in ROLES:
            if roles.count(role) > 1:
                problems.append(("$.inputs", f"the role {role!r} is named {roles.count(role)} times"))
        if "benchmark" in roles and "items" in roles:
            problems.append(("$.inputs", "both a benchmark and an items file"))
        elif "benchmark" not in roles and "items" not in roles:
            problems.append(("$.inputs", "no input has the role 'benchmark' (or 'items')"))
        if "schema" not in roles:
            problems.append(("$.inputs", "no input has the role 'schema'"))
    return problems


def json_path(parts: tuple[str | int, ...]) -> str:
    """``("attempts", 3, "facts")`` as ``$.attempts[3].facts``.

    >>> json_path(("attempts", 3, "facts", "location", "status"))
    '$.attempts[3].facts.location.status'
    >>> json_path(("status_counts", "a b"))
    '$.status_counts["a b"]'
    """
    steps = []
    for part in parts:
        if isinstance(part, int):
            steps.append(f"[{part}]")
        elif part.isidentifier():
            steps.append(f".{part}")
        else:
            steps.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "$" + "".join(steps)
