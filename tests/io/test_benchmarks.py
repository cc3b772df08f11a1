"""Loading benchmark files: the shipped one, one of our own, and every way a file can be wrong.

Each bad file is a small edit of a valid benchmark; the tests pin the exact message and the
structured fields (file, location, row id, field) that reports and the command line use.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest
from jsonschema import Draft202012Validator

from recallscore_nb.core.benchmark import Benchmark, Row
from recallscore_nb.core.engine import STRING
from recallscore_nb.core.errors import BenchmarkFormatError
from recallscore_nb.core.facts import Fact
from recallscore_nb.io.benchmarks import load_benchmark
from recallscore_nb.io.data import BENCHMARKS_DIR, DEFAULT_BENCHMARK, SCHEMAS_DIR

REFERENCE = "Ms. Ada Okafor leaves the blue umbrella at the north gate on Friday."

OWN = {
    "schemaVersion": 1,
    "referenceAnswer": REFERENCE,
    "protocol": {
        "factChecklist": [
            {"fact": "person", "requiredTerms": ["Ada Okafor"]},
            {"fact": "item", "requiredTerms": ["blue", "umbrella"]},
            {"fact": "place", "requiredTerms": ["north gate"]},
        ],
        "notes": "an unknown protocol field",
    },
    "rows": [
        {"id": "R01", "attempt": REFERENCE, "condition": "copied", "factsPresent": 3},
        {"id": "R02", "attempt": "", "condition": "blank", "literalMatch": False},
        {"id": "R03", "attempt": "ada okafor, blue umbrella", "rater": "A"},
        {"id": "R04", "attempt": "The umbrella is at the north gate."},
    ],
    "license": "CC0-1.0",
}

DELETE = object()
FILE = "bench.json"


@pytest.fixture
def write(tmp_path, monkeypatch):
    """Write a dict (as JSON) or bytes to a file in a fresh working directory; give its name."""
    monkeypatch.chdir(tmp_path)

    def write(content: dict | bytes, name: str = "bench.json") -> str:
        data = content if isinstance(content, bytes) else json.dumps(content).encode()
        Path(name).write_bytes(data)
        return name

    return write


def edited(*edits: tuple[tuple[str | int, ...], object]) -> dict:
    """A copy of OWN with each (JSON path parts, new value) applied; DELETE removes the key."""
    data = copy.deepcopy(OWN)
    for parts, value in edits:
        *parents, last = parts
        target = data
        for part in parents:
            target = target[part]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return data


def load_error(name: str) -> BenchmarkFormatError:
    with pytest.raises(BenchmarkFormatError) as caught:
        load_benchmark(name)
    return caught.value


# --- valid files -------------------------------------------------------------------------
def test_shipped_benchmark_loads():
    b = load_benchmark()
    assert b.path == str(DEFAULT_BENCHMARK)
    assert b.sha256 == hashlib.sha256(DEFAULT_BENCHMARK.read_bytes()).hexdigest()
    assert b.title == "Four-fact recall scoring benchmark"
    assert b.reference == "The copper token goes in the west drawer before the museum opens."
    assert b.fact_names == ("material", "object", "location", "timing")
    assert b.facts[2] == Fact("location", ("west", "drawer"))
    assert len(b.rows) == 12
    assert b.rows[0].expected == {
        "literalMatch": True,
        "normalizedMatch": True,
        "factsPresent": 4,
        "checklistFullMatch": True,
        "fixtureFactsComplete": True,
    }
    assert all(row.extra == {} for row in b.rows)
    assert b.summary["literalFullMatches"] == 1
    assert b.summary["normalizedFullMatches"] == 4
    assert b.summary["checklistFullMatches"] == 8
    assert len(b.limitations) == 3
    assert b.version_history[0]["version"] == "1.0.0"


def test_paths_point_into_the_package():
    assert DEFAULT_BENCHMARK.parent == BENCHMARKS_DIR
    assert DEFAULT_BENCHMARK.is_file()
    schema = json.loads((SCHEMAS_DIR / "benchmark.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)


def test_own_benchmark_loads(write):
    name = write(OWN)
    b = load_benchmark(name)
    assert isinstance(b, Benchmark)
    assert b.path == "bench.json"
    assert b.sha256 == hashlib.sha256(Path(name).read_bytes()).hexdigest()
    assert b.title is None
    assert b.facts == (
        Fact("person", ("Ada Okafor",)),
        Fact("item", ("blue", "umbrella")),
        Fact("place", ("north gate",)),
    )
    assert b.rows[0] == Row("R01", REFERENCE, "copied", {"factsPresent": 3}, {})
    assert b.rows[1] == Row("R02", "", "blank", {"literalMatch": False}, {})
    assert b.rows[2] == Row("R03", "ada okafor, blue umbrella", None, {}, {"rater": "A"})
    assert (b.summary, b.limitations, b.version_history) == ({}, (), ())


def test_unknown_fields_are_kept(write):
    b = load_benchmark(write(OWN))
    assert b.raw["license"] == "CC0-1.0"
    assert b.raw["protocol"]["notes"] == "an unknown protocol field"
    assert b.rows[2].extra == {"rater": "A"}


def test_path_like_is_named_as_given(write, tmp_path):
    write(OWN)
    assert load_benchmark(Path("bench.json")).path == "bench.json"
    assert load_benchmark(tmp_path / "bench.json").path == str(tmp_path / "bench.json")


def test_rows_frame(write):
    frame = load_benchmark(write(OWN)).rows_frame()
    assert frame.columns.tolist() == ["id", "attempt", "condition"]
    assert (frame.dtypes == STRING).all()
    assert frame["id"].tolist() == ["R01", "R02", "R03", "R04"]
    assert frame["attempt"][1] == ""
    assert frame["condition"].isna().tolist() == [False, False, True, True]
    assert isinstance(frame.index, pd.RangeIndex)


# --- the bytes: file, encoding, JSON -----------------------------------------------------
@pytest.mark.parametrize(
    ("content", "message", "location"),
    [
        pytest.param(
            b'{"title": "caf\xe9"}',
            "bench.json: byte 14: not UTF-8 text (byte 0xe9)",
            "byte 14",
            id="latin-1 byte",
        ),
        pytest.param(
            b'{\n  "title" "x"\n}',
            "bench.json: line 2 column 11: not valid JSON: Expecting ':' delimiter",
            "line 2 column 11",
            id="missing colon",
        ),
        pytest.param(
            b"",
            "bench.json: line 1 column 1: not valid JSON: Expecting value",
            "line 1 column 1",
            id="empty file",
        ),
        pytest.param(b"[1, 2]", "bench.json: $: expected an object, got [1, 2]", "$", id="list"),
        pytest.param(b'"text"', 'bench.json: $: expected an object, got "text"', "$", id="string"),
    ],
)
def test_unreadable_content(write, content, message, location):
    err = load_error(write(content))
    assert str(err) == message
    assert (err.file, err.location, err.row_id, err.field) == (FILE, location, None, "")
    assert err.errors == [err]


def test_missing_file(write):
    err = load_error("sub/missing.json")
    assert str(err) == "sub/missing.json: no such file"
    assert (err.file, err.location, err.field) == ("sub/missing.json", "", "")


def test_directory_is_not_a_file(write):
    Path("adir").mkdir()
    assert str(load_error("adir")) == "adir: not a regular file (a folder); give a file"


def test_duplicate_keys_are_all_named(write):
    text = (
        '{"schemaVersion": 1, "schemaVersion": 1, "rows": ['
        '{"id": "R01", "attempt": "a", "attempt": "b"}, {"id": "R02", "id": "R2", "attempt": ""}]}'
    )
    err = load_error(write(text.encode()))
    assert [str(e) for e in err.errors] == [
        "bench.json: $: schemaVersion: duplicate key",
        "bench.json: $.rows[0] (id R01): attempt: duplicate key",
        "bench.json: $.rows[1] (id R2): id: duplicate key",
    ]
    assert (err.location, err.field, err.message) == ("$", "schemaVersion", "duplicate key")


# --- the schema --------------------------------------------------------------------------
SCHEMA_CASES = [
    # (edits, message, location, row id, field)
    pytest.param(
        [(("rows", 2, "attempt"), None)],
        "bench.json: $.rows[2] (id R03): attempt: expected a string, got null",
        "$.rows[2]", "R03", "attempt",
        id="null attempt",
    ),
    pytest.param(
        [(("rows", 1, "attempt"), DELETE)],
        "bench.json: $.rows[1] (id R02): attempt: expected a string, got nothing",
        "$.rows[1]", "R02", "attempt",
        id="missing attempt",
    ),
    pytest.param(
        [(("rows", 0, "id"), DELETE)],
        "bench.json: $.rows[0]: id: expected a non-empty string, got nothing",
        "$.rows[0]", None, "id",
        id="missing id",
    ),
    pytest.param(
        [(("rows", 0, "id"), "")],
        'bench.json: $.rows[0]: id: expected a non-empty string, got ""',
        "$.rows[0]", None, "id",
        id="empty id",
    ),
    pytest.param(
        [(("rows", 0, "id"), 7)],
        "bench.json: $.rows[0]: id: expected a non-empty string, got 7",
        "$.rows[0]", None, "id",
        id="numeric id",
    ),
    pytest.param(
        [(("rows", 3, "condition"), 5)],
        "bench.json: $.rows[3] (id R04): condition: expected a string, got 5",
        "$.rows[3]", "R04", "condition",
        id="numeric condition",
    ),
    pytest.param(
        [(("rows", 0, "literalMatch"), "yes")],
        'bench.json: $.rows[0] (id R01): literalMatch: expected a boolean, got "yes"',
        "$.rows[0]", "R01", "literalMatch",
        id="label not boolean",
    ),
    pytest.param(
        [(("rows", 0, "factsPresent"), -1)],
        "bench.json: $.rows[0] (id R01): factsPresent: expected an integer >= 0, got -1",
        "$.rows[0]", "R01", "factsPresent",
        id="negative count",
    ),
    pytest.param(
        [(("rows", 0, "factsPresent"), True)],
        "bench.json: $.rows[0] (id R01): factsPresent: expected an integer >= 0, got true",
        "$.rows[0]", "R01", "factsPresent",
        id="boolean count",
    ),
    pytest.param(
        [(("rows", 0), "R01")],
        'bench.json: $: rows[0]: expected an object, got "R01"',
        "$", None, "rows[0]",
        id="row not object",
    ),
    pytest.param(
        [(("rows",), DELETE)],
        "bench.json: $: rows: expected an array, got nothing",
        "$", None, "rows",
        id="missing rows",
    ),
    pytest.param(
        [(("schemaVersion",), 2)],
        "bench.json: $: schemaVersion: expected 1, got 2",
        "$", None, "schemaVersion",
        id="schema version",
    ),
    pytest.param(
        [(("referenceAnswer",), "")],
        'bench.json: $: referenceAnswer: expected a non-empty string, got ""',
        "$", None, "referenceAnswer",
        id="empty reference",
    ),
    pytest.param(
        [(("protocol",), DELETE)],
        "bench.json: $: protocol: expected an object, got nothing",
        "$", None, "protocol",
        id="missing protocol",
    ),
    pytest.param(
        [(("protocol", "factChecklist"), [])],
        "bench.json: $.protocol: factChecklist: expected at least one fact, got []",
        "$.protocol", None, "factChecklist",
        id="no facts",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 0, "fact"), "2x")],
        "bench.json: $.protocol.factChecklist[0]: fact: "
        'expected an identifier matching ^[A-Za-z][A-Za-z0-9_]*$, got "2x"',
        "$.protocol.factChecklist[0]", None, "fact",
        id="fact name not identifier",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 1, "requiredTerms"), [])],
        "bench.json: $.protocol.factChecklist[1]: requiredTerms: "
        "expected at least one term, got []",
        "$.protocol.factChecklist[1]", None, "requiredTerms",
        id="no terms",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 1, "requiredTerms", 1), "")],
        "bench.json: $.protocol.factChecklist[1]: requiredTerms[1]: "
        'expected a non-empty string, got ""',
        "$.protocol.factChecklist[1]", None, "requiredTerms[1]",
        id="empty term",
    ),
    pytest.param(
        [(("summary",), {"literalFullMatches": "1", "note": "kept"})],
        'bench.json: $.summary: literalFullMatches: expected an integer >= 0, got "1"',
        "$.summary", None, "literalFullMatches",
        id="summary count",
    ),
    pytest.param(
        [(("limitations",), ["fixtures only", 3])],
        "bench.json: $: limitations[1]: expected a string, got 3",
        "$", None, "limitations[1]",
        id="limitation not string",
    ),
    pytest.param(
        [(("versionHistory",), ["1.0.0"])],
        'bench.json: $: versionHistory[0]: expected an object, got "1.0.0"',
        "$", None, "versionHistory[0]",
        id="version entry not object",
    ),
    pytest.param(
        [(("title",), 3)],
        "bench.json: $: title: expected a string, got 3",
        "$", None, "title",
        id="title not string",
    ),
]


@pytest.mark.parametrize(("edits", "message", "location", "row_id", "field"), SCHEMA_CASES)
def test_schema_errors(write, edits, message, location, row_id, field):
    err = load_error(write(edited(*edits)))
    assert str(err) == message
    assert (err.file, err.location, err.row_id, err.field) == (FILE, location, row_id, field)
    assert len(err.errors) == 1


def test_schema_errors_are_all_collected_in_path_order(write):
    edits = [
        (("schemaVersion",), 2),
        (("rows", 2, "attempt"), None),
        (("rows", 0, "literalMatch"), "yes"),
        (("rows", 1, "factsPresent"), -1),
    ]
    err = load_error(write(edited(*edits)))
    assert len(err.errors) == 4
    assert [str(e) for e in err.errors] == [
        'bench.json: $.rows[0] (id R01): literalMatch: expected a boolean, got "yes"',
        "bench.json: $.rows[1] (id R02): factsPresent: expected an integer >= 0, got -1",
        "bench.json: $.rows[2] (id R03): attempt: expected a string, got null",
        "bench.json: $: schemaVersion: expected 1, got 2",
    ]
    assert err is err.errors[0]


def test_long_values_are_cut_short(write):
    err = load_error(write(edited((("title",), ["x" * 100]))))
    assert err.got == '["' + "x" * 75 + "..."
    assert len(err.got) == 80


# --- what the schema cannot say ----------------------------------------------------------
SEMANTIC_CASES = [
    # (edits, message, location, row id, field)
    pytest.param(
        [(("rows", 2, "id"), "R01")],
        'bench.json: $.rows[2] (id R01): id: expected a unique id, got "R01", '
        "a duplicate (already the id of $.rows[0])",
        "$.rows[2]", "R01", "id",
        id="duplicate row id",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 2, "fact"), "Person")],
        'bench.json: $.protocol.factChecklist[2]: fact: expected a name unique ignoring case, '
        'got "Person", already named at $.protocol.factChecklist[0]',
        "$.protocol.factChecklist[2]", None, "fact",
        id="fact names equal ignoring case",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 1, "requiredTerms", 1), "!!")],
        "bench.json: $.protocol.factChecklist[1]: requiredTerms[1]: "
        'expected a term that keeps some text after normalization, got "!!"',
        "$.protocol.factChecklist[1]", None, "requiredTerms[1]",
        id="term normalizes to nothing",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 2, "requiredTerms", 0), "south gate")],
        'bench.json: $: referenceAnswer: expected the term "south gate" of fact place, '
        f"got {json.dumps(REFERENCE)}",
        "$", None, "referenceAnswer",
        id="reference fails its checklist",
    ),
    pytest.param(
        [(("protocol", "factChecklist", 1, "requiredTerms", 0), "blu")],
        'bench.json: $: referenceAnswer: expected the term "blu" of fact item, '
        f"got {json.dumps(REFERENCE)}",
        "$", None, "referenceAnswer",
        id="term only part of a word",
    ),
    pytest.param(
        [(("rows", 0, "factsPresent"), 4)],
        "bench.json: $.rows[0] (id R01): factsPresent: "
        "expected at most 3, the number of facts, got 4",
        "$.rows[0]", "R01", "factsPresent",
        id="facts present out of range",
    ),
]


@pytest.mark.parametrize(("edits", "message", "location", "row_id", "field"), SEMANTIC_CASES)
def test_semantic_errors(write, edits, message, location, row_id, field):
    err = load_error(write(edited(*edits)))
    assert str(err) == message
    assert (err.file, err.location, err.row_id, err.field) == (FILE, location, row_id, field)
    assert len(err.errors) == 1


@pytest.mark.parametrize(
    "edits",
    [
        pytest.param(
            [(("protocol", "factChecklist", 0, "requiredTerms", 0), "ADA  okafor!")], id="term"
        ),
        pytest.param([(("protocol", "factChecklist", 1, "fact"), "Item_2")], id="fact name"),
        pytest.param(
            [(("rows", 3, "factsPresent"), 1), (("rows", 3, "checklistFullMatch"), True)],
            id="label disagreeing with the rules",
        ),
    ],
)
def test_accepted_variations(write, edits):
    bench = load_benchmark(write(edited(*edits)))
    for path, value in edits:  # each edit reaches the typed benchmark as written
        if path[:2] == ("protocol", "factChecklist"):
            fact = bench.facts[path[2]]
            assert (fact.name if path[3] == "fact" else fact.terms[path[4]]) == value
        else:
            assert bench.rows[path[1]].expected[path[2]] == value


def test_semantic_errors_are_all_collected(write):
    edits = [
        (("rows", 3, "id"), "R02"),
        (("protocol", "factChecklist", 0, "requiredTerms"), ["...", "Ada"]),
    ]
    err = load_error(write(edited(*edits)))
    assert [(e.location, e.field) for e in err.errors] == [
        ("$.protocol.factChecklist[0]", "requiredTerms[0]"),
        ("$.rows[3]", "id"),
    ]


def test_schema_errors_come_first_and_do_not_hide_semantic_ones(write):
    edits = [(("rows", 2, "id"), "R01"), (("rows", 1, "attempt"), None)]
    err = load_error(write(edited(*edits)))
    assert [(e.location, e.field) for e in err.errors] == [("$.rows[1]", "attempt"),
                                                           ("$.rows[2]", "id")]
