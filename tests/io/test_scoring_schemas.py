"""Scoring schemas: the shipped one, the defaults, and every way a file can be refused.

Each bad file is a small edit of a valid schema; the tests pin the structured fields
(file, JSON path, field, expected, got) that reports and the command line use."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from recallscore_nb import load_benchmark
from recallscore_nb.core.errors import InputFileError, SchemaFormatError
from recallscore_nb.core.schema import FactRule, NumericPolicy
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH, SCHEMAS_DIR
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from tests.conftest import NOTELESS_SCHEMA, write_benchmark


VALID = {
    "schemaVersion": 1,
    "disagreementNote": "A test reading.",
    "falsePositivePenalty": 0.25,
    "negation": {"cues": ["not", "hardly ever"], "window": 2},
    "facts": {
        "location": {"weight": 2, "equivalents": [["westdrawer"]],
                     "contradictions": [["east", "drawer"], ["north"]]},
        "timing": {"weight": 0.5},
    },
    "numeric": {"absTol": 0.5, "relTol": 0.01, "percentAsFraction": True,
                "units": {"km": ["m", 1000]}},
}


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


@pytest.fixture
def write(tmp_path, monkeypatch):
    """Write a dict (as JSON) or bytes to ``schema.json`` in a fresh working directory."""
    monkeypatch.chdir(tmp_path)

    def write(content: dict | bytes, name: str = "schema.json") -> str:
        data = content if isinstance(content, bytes) else json.dumps(content).encode()
        Path(name).write_bytes(data)
        return name

    return write


def edited(**changes) -> dict:
    """A copy of VALID; a value of None deletes the key, dotted keys reach inside."""
    data = copy.deepcopy(VALID)
    for dotted, value in changes.items():
        *outer, last = dotted.split("__")
        target = data
        for key in outer:
            target = target[key]
        if value is None:
            target.pop(last)
        else:
            target[last] = value
    return data


def refusal(write, bench, data) -> SchemaFormatError:
    with pytest.raises(SchemaFormatError) as info:
        load_scoring_schema(write(data), bench)
    return info.value


# --- the shipped files -------------------------------------------------------------------
def test_the_json_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(
        json.loads((SCHEMAS_DIR / "scoring.schema.json").read_text(encoding="utf-8")))


def test_shipped_schema_loads(bench):
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH, bench)
    assert list(schema.facts) == ["material", "object", "location", "timing"]
    assert [r.weight for r in schema.facts.values()] == [1, 1, 2, 2]
    assert schema.facts["object"].equivalents == (("coin",),)
    assert ("east", "drawer") in schema.facts["location"].contradictions
    assert ("silver",) in schema.facts["material"].contradictions
    assert ("after", "museum") in schema.facts["timing"].contradictions
    assert schema.negation_cues == ("not", "no", "never", "without")
    assert (schema.negation_window, schema.false_positive_penalty) == (12, 0.5)
    assert len(schema.disagreement_note) > 100
    assert schema.path == str(DEFAULT_SCHEMA_PATH)


def test_shipped_schema_signature_is_pinned(bench):
    sha = hashlib.sha256(DEFAULT_SCHEMA_PATH.read_bytes()).hexdigest()
    schema = load_scoring_schema(None, bench)
    assert schema.sha256 == sha
    assert schema.signature() == (
        f"schema|sha256:{sha[:12]}|fp:0.5|neg:not,no,never,without/12/clause"
        "|conflict:penalized|num:abs0,rel0,pct-no|version:0.1.0"
    )


def test_the_noteless_fixture_is_refused(bench):
    with pytest.raises(SchemaFormatError) as info:
        load_scoring_schema(NOTELESS_SCHEMA, bench)
    err = info.value
    assert (err.file, err.location, err.field, err.got) == (
        str(NOTELESS_SCHEMA), "$", "disagreementNote", "nothing")
    assert err.expected.startswith("a non-empty string")
    assert len(err.errors) == 1 and isinstance(err, InputFileError)
    # It differs from the shipped schema only by the note.
    shipped = json.loads(DEFAULT_SCHEMA_PATH.read_text(encoding="utf-8"))
    del shipped["disagreementNote"]
    assert json.loads(NOTELESS_SCHEMA.read_text(encoding="utf-8")) == shipped


# --- a valid file of our own, and the defaults -------------------------------------------
def test_every_field_is_read(write, bench):
    schema = load_scoring_schema(write(VALID), bench)
    assert schema.facts["location"] == FactRule(
        "location", 2.0, (("westdrawer",),), (("east", "drawer"), ("north",)))
    assert schema.facts["timing"] == FactRule("timing", 0.5)
    assert schema.facts["material"] == FactRule("material", 1.0)  # left out: weight 1
    assert schema.numeric == NumericPolicy(0.5, 0.01, True, {"km": ("m", 1000.0)})
    assert schema.signature() == (
        f"schema|sha256:{schema.sha256[:12]}|fp:0.25|neg:not,hardly ever/2/clause"
        "|conflict:penalized|num:abs0.5,rel0.01,pct-yes|version:0.1.0"
    )


def test_fields_left_out_take_documented_defaults(write, bench):
    schema = load_scoring_schema(
        write({"schemaVersion": 1, "disagreementNote": "Only a note."}), bench)
    assert schema.false_positive_penalty == 0.5
    assert (schema.negation_cues, schema.negation_window) == (
        ("not", "no", "never", "without"), 12)
    assert schema.numeric == NumericPolicy()
    assert all(r == FactRule(r.name) for r in schema.facts.values())


def test_empty_cues_turn_negation_off(write, bench):
    schema = load_scoring_schema(write(edited(negation={"cues": []})), bench)
    assert schema.negation_cues == ()
    assert "|neg:none|" in schema.signature()


def test_a_schema_for_another_benchmark(tmp_path):
    kite = load_benchmark(write_benchmark(tmp_path))
    path = tmp_path / "kite.scoring.json"
    path.write_text(json.dumps({"schemaVersion": 1, "disagreementNote": "n",
                                "facts": {"bird": {"equivalents": [["kite"]]}}}))
    schema = load_scoring_schema(path, kite)
    assert list(schema.facts) == ["bird", "place", "time"]
    with pytest.raises(SchemaFormatError) as info:
        load_scoring_schema(path, load_benchmark())
    assert (info.value.location, info.value.field) == ("$.facts", "bird")


# --- refusals ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "changes, location, field, expected, got",
    [
        ({"facts__colour": {"weight": 1}}, "$.facts", "colour",
         "a fact of the benchmark's checklist (material, object, location, timing)", '"colour"'),
        ({"disagreementNote": None}, "$", "disagreementNote", None, "nothing"),
        ({"disagreementNote": ""}, "$", "disagreementNote", None, '""'),
        ({"disagreementNote": "  \n"}, "$", "disagreementNote", None, '"  \\n"'),
        ({"colour": "red"}, "$", "colour", None, "an unknown field"),
        ({"facts__location__weight": 0}, "$.facts.location", "weight", "a number > 0", "0"),
        ({"facts__location__weight": -1}, "$.facts.location", "weight", "a number > 0", "-1"),
        ({"facts__location__weight": "2"}, "$.facts.location", "weight", "a number > 0", '"2"'),
        ({"facts__location__synonyms": []}, "$.facts.location", "synonyms", None,
         "an unknown field"),
        ({"negation__scope": 3}, "$.negation", "scope", None, "an unknown field"),
        ({"negation__window": 0}, "$.negation", "window", "an integer >= 1", "0"),
        ({"numeric__units": {"km": ["m"]}}, "$.numeric.units", "km", "[base unit, factor > 0]",
         '["m"]'),
        ({"numeric__units": {"km": ["m", 0]}}, "$.numeric.units", "km[1]", "a number > 0", "0"),
        ({"numeric__percent": True}, "$.numeric", "percent", None, "an unknown field"),
        ({"falsePositivePenalty": -0.5}, "$", "falsePositivePenalty", "a number >= 0", "-0.5"),
        ({"schemaVersion": 2}, "$", "schemaVersion", "1", "2"),
        ({"facts__location__equivalents": [[]]}, "$.facts.location", "equivalents[0]",
         "a non-empty array of non-empty strings", "[]"),
        ({"facts__location__equivalents": [["!!"]]}, "$.facts.location", "equivalents[0][0]",
         "a term that keeps some text after normalization", '"!!"'),
        ({"negation__cues": ["--"]}, "$.negation", "cues[0]",
         "a term that keeps some text after normalization", '"--"'),
        ({"numeric__units": {"km": ["m", 1000], "m": ["cm", 100]}}, "$.numeric.units", "km[0]",
         "a base unit that is not itself converted", '"m"'),
    ],
)
def test_refusals_name_file_path_and_field(write, bench, changes, location, field, expected, got):
    err = refusal(write, bench, edited(**changes))
    assert (err.file, err.location, err.field) == ("schema.json", location, field)
    if expected is not None:
        assert err.expected == expected
    if got is not None:
        assert err.got == got


def test_unknown_field_lists_the_known_ones(write, bench):
    err = refusal(write, bench, edited(colour="red"))
    assert str(err) == (
        "schema.json: $: colour: expected a known field (schemaVersion, disagreementNote, "
        "falsePositivePenalty, negation, facts, items, numeric), got an unknown field"
    )


def test_every_problem_is_collected_in_path_order(write, bench):
    data = edited(colour="red", disagreementNote="", facts__shape={"weight": 1},
                  facts__location__weight=0)
    err = refusal(write, bench, data)
    assert [(e.location, e.field) for e in err.errors] == [
        ("$", "colour"),
        ("$", "disagreementNote"),
        ("$.facts.location", "weight"),
        ("$.facts", "shape"),
    ]
    assert all(isinstance(e, SchemaFormatError) for e in err.errors)


@pytest.mark.parametrize(
    "content, location, message",
    [
        (b"{", "line 1 column 2", "not valid JSON"),
        (b'{"schemaVersion": 1, "schemaVersion": 1}', "$", "duplicate key"),
        (b"[]", "$", "expected an object"),
        (b"\xff", "byte 0", "not UTF-8 text"),
    ],
)
def test_unreadable_files_are_schema_errors(write, bench, content, location, message):
    err = refusal(write, bench, content)
    assert err.location == location and err.message.startswith(message)


def test_missing_file(tmp_path, bench):
    with pytest.raises(SchemaFormatError, match="no such file"):
        load_scoring_schema(tmp_path / "absent.json", bench)


# --- issue 12: schemas for items files ---------------------------------------------------
ITEMS_LINES = [
    {"item": "q1", "referenceAnswer": "The west drawer before dawn.",
     "factChecklist": [{"fact": "place", "requiredTerms": ["west", "drawer"]},
                       {"fact": "time", "requiredTerms": ["before dawn"]}]},
    {"item": "q2", "referenceAnswer": ["Paris", "Lutetia"]},
    {"item": "q3", "referenceAnswer": "At dawn.",
     "factChecklist": [{"fact": "time", "requiredTerms": ["dawn"]}]},
]
ITEMS_SCHEMA = {
    "schemaVersion": 1, "disagreementNote": "One reading of three questions.",
    "falsePositivePenalty": 0.25, "negation": {"cues": ["not"], "window": 5},
    "items": {"q1": {"falsePositivePenalty": 1,
                     "facts": {"place": {"weight": 2, "contradictions": [["east", "drawer"]]}}},
              "q3": {"negation": {"cues": ["never"]},
                     "facts": {"time": {"equivalents": [["daybreak"]]}}}},
}


@pytest.fixture
def items(tmp_path):
    from recallscore_nb.io.items import load_items

    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in ITEMS_LINES))
    return load_items(path)


def test_an_items_schema_gives_each_item_its_rules(write, items):
    from recallscore_nb.core.schema import ItemsSchema

    schema = load_scoring_schema(write(ITEMS_SCHEMA), items)
    assert isinstance(schema, ItemsSchema)
    assert schema.disagreement_note == "One reading of three questions."
    q1, q3 = schema.for_item("q1"), schema.for_item("q3")
    assert q1.false_positive_penalty == 1 and q1.negation_cues == ("not",)
    assert q1.facts["place"] == FactRule("place", 2.0, (), (("east", "drawer"),))
    assert q1.facts["time"] == FactRule("time")
    assert q3.false_positive_penalty == 0.25 and q3.negation_cues == ("never",)
    assert q3.facts["time"].equivalents == (("daybreak",),)
    assert schema.for_item("q2") is schema.shared and schema.shared.facts == {}
    assert schema.signature() == (
        f"schema|sha256:{schema.sha256[:12]}|fp:0.25|neg:not/5/clause|conflict:penalized"
        "|num:abs0,rel0,pct-no|items:2|version:0.1.0")


@pytest.mark.parametrize(
    "change, location, field, expected, got",
    [
        ({"items": {"q9": {}}}, "$.items", "q9", "an item of", '"q9"'),
        ({"items": {"q3": {"facts": {"place": {}}}}}, "$.items.q3.facts", "place",
         "a fact of item q3's checklist (time)", '"place"'),
        ({"items": {"q2": {"facts": {"time": {}}}}}, "$.items.q2.facts", "time",
         "a fact of item q2's checklist (it has none)", '"time"'),
        ({"facts": {"time": {}}}, "$", "facts", "'items' in place of 'facts'",
         "a single-reference schema"),
        ({"items": {"q1": {"weight": 1}}}, "$.items.q1", "weight", "a known field", "an unknown field"),
    ],
)
def test_an_items_schema_is_refused_saying_why(write, items, change, location, field, expected,
                                               got):
    data = {k: v for k, v in ITEMS_SCHEMA.items() if k != "items"} | change
    with pytest.raises(SchemaFormatError) as info:
        load_scoring_schema(write(data), items)
    err = info.value
    assert (err.location, err.field, err.got) == (location, field, got)
    assert err.expected.startswith(expected)


def test_an_items_schema_is_refused_for_a_benchmark(write, bench):
    with pytest.raises(SchemaFormatError) as info:
        load_scoring_schema(write(ITEMS_SCHEMA), bench)
    assert (info.value.location, info.value.field) == ("$", "items")
    assert "cannot score a single-reference benchmark" in info.value.expected
