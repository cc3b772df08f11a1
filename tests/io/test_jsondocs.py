"""Hostile JSON in every JSON reader: deep nesting, huge or non-finite numbers, lone
surrogates, repeated keys, special files, and validation that reports every error at once.

Each reader is fed the same faults through a value placed in a valid file of its kind, so a
refusal names the file and where the value is (a JSON path and field, or ``line N`` and the
field in an items file; line and column for nesting, which is refused before parsing).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.core.errors import InputFileError
from recallscore_nb.io.benchmarks import load_benchmark
from recallscore_nb.io.catalogue import load_catalogue
from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_CATALOGUE, DEFAULT_SCHEMA_PATH
from recallscore_nb.io.items import load_items
from recallscore_nb.io.jsondocs import MAX_DEPTH, check_json_text, load_json
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from recallscore_nb.io.squad_files import read_predictions, read_squad_dataset

BENCHMARK = DEFAULT_BENCHMARK.read_text(encoding="utf-8")
SCHEMA = DEFAULT_SCHEMA_PATH.read_text(encoding="utf-8")
CATALOGUE = DEFAULT_CATALOGUE.read_text(encoding="utf-8")
DATASET = {"version": "1.1", "data": [{"paragraphs": [{"qas": [
    {"id": "q1", "answers": [{"text": "Paris"}]}]}]}]}


def _compact(text: str) -> str:
    return json.dumps(json.loads(text), ensure_ascii=False)


def _without(text: str, key: str) -> str:
    data = json.loads(text)
    del data[key]
    return json.dumps(data, ensure_ascii=False)


# Each reader: (file name, a file of its kind with VALUE where the fault goes, the loader,
# the location and field that name VALUE's place).
VALUE = "@VALUE@"
READERS = {
    "benchmark": ("bench.json", '{"extra": @VALUE@, ' + _compact(BENCHMARK)[1:],
                  load_benchmark, "$", "extra"),
    "schema": ("schema.json", _without(SCHEMA, "falsePositivePenalty")[:-1]
               + ', "falsePositivePenalty": @VALUE@}',
               load_scoring_schema, "$", "falsePositivePenalty"),
    "catalogue": ("cat.json", '{"extra": @VALUE@, ' + _compact(CATALOGUE)[1:],
                  load_catalogue, "$", "extra"),
    "items": ("items.jsonl", '{"item": "q1", "referenceAnswer": ["Paris"], "extra": @VALUE@}\n',
              load_items, "line 1", "extra"),
    "dataset": ("dev.json", '{"extra": @VALUE@, ' + json.dumps(DATASET)[1:],
                read_squad_dataset, "$", "extra"),
    "predictions": ("pred.json", '{"q1": @VALUE@}', read_predictions, "$", "q1"),
}


def _refusal(tmp_path, monkeypatch, reader: str, value: str) -> tuple[InputFileError, str]:
    """Load the reader's file with ``value`` in place; return the error and the file text."""
    monkeypatch.chdir(tmp_path)
    name, template, load, _, _ = READERS[reader]
    text = template.replace(VALUE, value)
    Path(name).write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load(name)
    return caught.value, text


def _located(reader: str) -> tuple[str, str]:
    return READERS[reader][3], READERS[reader][4]


# --- nesting: refused before parsing, with line, column and the limit ----------------------
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deep_nesting_is_refused_with_line_column_and_limit(tmp_path, monkeypatch, reader, depth):
    err, text = _refusal(tmp_path, monkeypatch, reader, "[" * depth + "]" * depth)
    # The value sits in the top-level object (depth 1): its MAX_DEPTH-th bracket is one too many.
    column = text.index("[" * 50) + MAX_DEPTH
    assert (err.file, err.location) == (READERS[reader][0], f"line 1 column {column}")
    assert err.message == f"nested more than {MAX_DEPTH} levels deep (the limit)"
    assert err.errors == [err]


@pytest.mark.parametrize("reader", READERS)
def test_nesting_at_the_limit_is_not_refused_for_depth(tmp_path, monkeypatch, reader):
    depth = MAX_DEPTH - 1  # plus the top-level object: exactly MAX_DEPTH
    err, _ = _refusal(tmp_path, monkeypatch, reader, "[" * depth + "1e999" + "]" * depth)
    assert err.message == "expected a finite number, got 1e999"


def test_brackets_inside_strings_do_not_count(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    data["rows"][0]["note"] = "[{" * 5_000 + '\\"[' * 100
    Path("bench.json").write_text(json.dumps(data), encoding="utf-8")
    assert load_benchmark("bench.json").rows[0].extra["note"] == data["rows"][0]["note"]


# --- numbers: too many digits, beyond 64 bits, not finite ----------------------------------
@pytest.mark.parametrize("reader", READERS)
def test_a_5000_digit_integer_is_refused(tmp_path, monkeypatch, reader):
    err, _ = _refusal(tmp_path, monkeypatch, reader, "1" * 5_000)
    assert (err.location, err.field) == _located(reader)
    assert err.expected == "an integer from -2**63 to 2**63-1 (a larger number needs an exponent)"
    assert err.got == "1" * 40 + "... (5000 digits)"


def test_integers_at_the_64_bit_limits_are_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    data["limits"] = [2**63 - 1, -(2**63)]
    Path("bench.json").write_text(json.dumps(data), encoding="utf-8")
    assert load_benchmark("bench.json").raw["limits"] == [2**63 - 1, -(2**63)]
    data["limits"] = [2**63]
    Path("bench.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"\$: limits\[0\]: expected an integer"):
        load_benchmark("bench.json")


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999", "-1.5e400"])
def test_non_finite_numbers_are_refused(tmp_path, monkeypatch, reader, token):
    err, _ = _refusal(tmp_path, monkeypatch, reader, token)
    assert (err.location, err.field) == _located(reader)
    assert (err.expected, err.got) == ("a finite number", token)


@pytest.mark.parametrize("where, value", [
    (("facts", "location", "weight"), "NaN"),
    (("facts", "timing", "weight"), "Infinity"),
    (("numeric", "absTol"), "NaN"),
    (("numeric", "units", "km"), '["m", NaN]'),
])
def test_scoring_schema_numbers_must_be_finite(tmp_path, monkeypatch, where, value):
    monkeypatch.chdir(tmp_path)
    data = json.loads(SCHEMA)
    node = data
    for key in where[:-1]:
        node = node.setdefault(key, {})
    node[where[-1]] = "@"
    Path("s.json").write_text(json.dumps(data).replace('"@"', value), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_scoring_schema("s.json")
    assert caught.value.expected == "a finite number"
    assert caught.value.got == ("NaN" if "NaN" in value else "Infinity")


def test_weights_whose_sum_overflows_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = json.loads(SCHEMA)
    data["facts"]["location"]["weight"] = 1e308
    data["facts"]["timing"]["weight"] = 1e308
    Path("s.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_scoring_schema("s.json")
    err = caught.value
    assert (err.location, err.field) == ("$", "facts")
    assert err.message == ("expected weights that add up to a finite number, got weights "
                           "adding up to more than 1.798e+308")


def test_a_nan_weight_fails_the_score_command_not_the_score(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("s.json").write_text(SCHEMA.replace('"weight": 2', '"weight": NaN', 1), encoding="utf-8")
    code = main(["score", "--schema", "s.json", "--quiet"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == ("recallscore: error: s.json: $.facts.location: weight: expected a finite "
                   "number, got NaN\n")


# --- lone surrogates ---------------------------------------------------------------------
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("escape", ["\\ud800", "x\\udfff", "\\ude00\\ud83d"])
def test_lone_surrogates_are_refused(tmp_path, monkeypatch, reader, escape):
    err, _ = _refusal(tmp_path, monkeypatch, reader, f'"{escape}"')
    assert (err.location, err.field) == _located(reader)
    assert err.message.startswith("contains a lone surrogate (\\u")
    assert err.message.endswith("): not Unicode text")
    str(err).encode("utf-8")  # printable


@pytest.mark.parametrize("text", ['"\\ud83d\\ude00"', '"\\\\ud800"', '"\\u00e9"'])
def test_surrogate_pairs_and_escaped_backslashes_are_fine(tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    Path("pred.json").write_text('{"q1": ' + text + "}", encoding="utf-8")
    assert read_predictions("pred.json")["q1"] == json.loads(text)


def test_a_lone_surrogate_in_an_attempt_names_row_and_field(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    data["rows"][2]["attempt"] = "the copper \ud800 token"
    Path("b.json").write_text(json.dumps(data), encoding="utf-8")
    for command in (["validate", "b.json"], ["score", "b.json", "--quiet"],
                    ["reproduce", "b.json"]):
        assert main(command) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == ("recallscore: error: b.json: $.rows[2] (id R03): attempt: contains a "
                       "lone surrogate (\\ud800): not Unicode text\n")


def test_a_lone_surrogate_in_a_key_or_an_id_is_printable(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    data["rows"][2]["id"] = "R\udc80"
    data["rows"][3]["\ud800"] = 1
    Path("b.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_benchmark("b.json")
    assert [str(e) for e in caught.value.errors] == [
        "b.json: $.rows[2] (id R\\udc80): id: contains a lone surrogate (\\udc80): not Unicode text",
        "b.json: $.rows[3] (id R04): \\ud800: contains a lone surrogate (\\ud800): "
        "not Unicode text",
    ]


# --- repeated keys, linear time ----------------------------------------------------------
def test_items_refuse_repeated_keys_naming_line_and_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("items.jsonl").write_text(
        '{"item": "q1", "referenceAnswer": ["Paris"]}\n'
        '{"item": "q2", "referenceAnswer": ["Rome"], "referenceAnswer": ["Roma"]}\n',
        encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_items("items.jsonl")
    assert str(caught.value) == "items.jsonl: line 2 (id q2): referenceAnswer: duplicate key"


@pytest.mark.parametrize("reader", ["items", "benchmark", "predictions"])
def test_a_repeated_key_among_100000_is_found_in_linear_time(tmp_path, monkeypatch, reader):
    keys = ", ".join(f'"k{i}": "v"' for i in range(100_000))
    if reader == "predictions":
        value = '"v", ' + keys + ', "k7": "v"'  # 100,000 more predictions, k7 twice
    else:
        value = "{" + keys + ', "k7": 1}'
    err, _ = _refusal(tmp_path, monkeypatch, reader, value)
    assert err.field.endswith("k7") and err.message == "duplicate key"


# --- special files -----------------------------------------------------------------------
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("special, kind", [("/dev/null", "a character device"),
                                           (".", "a folder")])
def test_only_regular_files_are_read(reader, special, kind):
    load = READERS[reader][2]
    with pytest.raises(InputFileError) as caught:
        load(special)
    assert str(caught.value) == f"{special}: not a regular file ({kind}); give a file"


# --- schemaVersion -----------------------------------------------------------------------
@pytest.mark.parametrize("reader", ["benchmark", "schema"])
@pytest.mark.parametrize("version", ["1.0", "true", '"1"', "2"])
def test_schema_version_must_be_the_integer_1(tmp_path, monkeypatch, reader, version):
    monkeypatch.chdir(tmp_path)
    text = {"benchmark": BENCHMARK, "schema": SCHEMA}[reader]
    text = _compact(text).replace('"schemaVersion": 1', f'"schemaVersion": {version}', 1)
    Path("f.json").write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        READERS[reader][2]("f.json")
    assert [str(e) for e in caught.value.errors] == [f"f.json: $: schemaVersion: expected 1, got {version}"]


# --- every error at once (issue 12) ------------------------------------------------------
def test_a_schema_error_does_not_hide_a_duplicate_id(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    data["rows"][2]["attempt"] = None
    data["rows"][5]["id"] = data["rows"][4]["id"]
    Path("b.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_benchmark("b.json")
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("$.rows[2]", "attempt"), ("$.rows[5]", "id")]
    assert "duplicate" in str(caught.value.errors[1])
    assert main(["validate", "b.json"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "recallscore: error: b.json: $.rows[2] (id R03): attempt: expected a string, got null",
        'recallscore: error: b.json: $.rows[5] (id R05): id: expected a unique id, got "R05", '
        "a duplicate (already the id of $.rows[4])",
    ]


def test_the_command_line_prints_the_first_errors_then_counts_the_rest(tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    for row in data["rows"][:8]:
        row["attempt"] = None
    Path("b.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", "b.json"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[:2] == [
        "recallscore: error: b.json: $.rows[0] (id R01): attempt: expected a string, got null",
        "recallscore: error: b.json: $.rows[1] (id R02): attempt: expected a string, got null",
    ]
    assert lines[5:] == ["recallscore: (3 more errors)"]


def test_broken_checklist_types_still_let_rows_be_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = json.loads(BENCHMARK)
    data["protocol"]["factChecklist"][1] = "object"
    data["referenceAnswer"] = 7
    data["rows"][1] = {"id": "R01", "attempt": "x"}
    data["rows"][3] = ["not a row"]
    Path("b.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_benchmark("b.json")
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("$.protocol", "factChecklist[1]"), ("$", "referenceAnswer"), ("$", "rows[3]"),
        ("$.rows[1]", "id")]


def test_catalogue_schema_errors_do_not_hide_a_duplicate_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = json.loads(CATALOGUE)
    data["suites"][0]["cases"] = -1
    data["suites"][2]["id"] = data["suites"][1]["id"]
    Path("c.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_catalogue("c.json")
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("$.suites[0]", "cases"), ("$.suites[2]", "id")]
    assert "duplicate" in str(caught.value.errors[1])


def test_items_a_bad_line_does_not_hide_a_duplicate_item_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("items.jsonl").write_text(
        '{"item": "q1", "referenceAnswer": []}\n'
        '{"item": "q1", "referenceAnswer": ["Paris"]}\n', encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_items("items.jsonl")
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("line 1", "referenceAnswer"), ("line 2", "item")]
    assert "duplicate" in str(caught.value.errors[1])


# --- every command that reads JSON -------------------------------------------------------
DEEP = "[" * 20_000 + "]" * 20_000


@pytest.mark.parametrize("argv", [
    ["validate", "deep.json"],
    ["score", "deep.json", "--quiet"],
    ["reproduce", "deep.json"],
    ["perturb", "deep.json", "--out", "p.json"],
    ["report", "deep.json", "--schema", "s.json", "--out", "r.json"],
    ["score", "--schema", "deep.json", "--quiet"],
    ["score", "deep.jsonl", "--attempts", "a.csv", "--quiet"],
    ["squad", "deep.json", "pred.json"],
    ["squad", "dev.json", "deep.json"],
])
def test_every_command_refuses_deep_json_in_one_line(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    Path("deep.json").write_text('{"x": ' + DEEP + "}", encoding="utf-8")
    Path("deep.jsonl").write_text('{"x": ' + DEEP + "}\n", encoding="utf-8")
    Path("s.json").write_text(SCHEMA, encoding="utf-8")
    Path("a.csv").write_text("item,attempt\nq1,Paris\n", encoding="utf-8")
    Path("dev.json").write_text(json.dumps(DATASET), encoding="utf-8")
    Path("pred.json").write_text('{"q1": "Paris"}', encoding="utf-8")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.endswith(f"line 1 column {6 + MAX_DEPTH}: nested more than {MAX_DEPTH} levels "
                        "deep (the limit)\n")
    assert len(err.splitlines()) == 1


def test_nesting_at_the_limit_passes_every_command(tmp_path, monkeypatch, capsys):
    """An unknown field nested as deep as allowed is kept through every step that carries it."""
    monkeypatch.chdir(tmp_path)
    depth = MAX_DEPTH - 3  # inside the top-level object, the rows array and the row
    data = json.loads(BENCHMARK)
    data["rows"][0]["deep"] = "@"
    Path("b.json").write_text(json.dumps(data).replace('"@"', "[" * depth + "]" * depth),
                              encoding="utf-8")
    Path("s.json").write_text(SCHEMA, encoding="utf-8")
    for argv in (["validate", "b.json"], ["score", "b.json", "--quiet", "--out", "o.jsonl"],
                 ["reproduce", "b.json"], ["perturb", "b.json", "--out", "p.json"],
                 ["report", "b.json", "--schema", "s.json", "--out", "r.json"],
                 ["check-report", "r.json"]):
        code = main(argv)
        assert code == 0, (argv, capsys.readouterr().err)
    capsys.readouterr()


# --- the shared checks, for the other readers --------------------------------------------
@pytest.mark.parametrize("text, where, message", [
    (b'{"a": 1}\n{"b": ' + b"[" * 600 + b"]" * 600 + b"}\n", "line 2 column 518",
     "nested more than 512 levels deep (the limit)"),
    (b'{"a": 1}\n{"b": ' + b"1" * 5_000 + b"}\n", "line 2 column 7",
     "a number of 5000 digits (the limit is 4300)"),
    (b'{"a": "x"}\n{"b": NaN}\n', "line 2 column 7", "NaN: not a finite number"),
    (b'{"a": 1}\n{"b": -Infinity}\n', "line 2 column 7", "-Infinity: not a finite number"),
    (b'{"a": 1}\n{"b": 1.5e999}\n', "line 2 column 7", "1.5e999: not a finite number"),
    (b'{"a": 1}\n{"b": "ok \\ud800"}\n', "line 2 column 11",
     "a lone surrogate (\\ud800): not Unicode text"),
])
def test_check_json_text_names_line_and_column(text, where, message):
    with pytest.raises(InputFileError) as caught:
        check_json_text(text, "a.jsonl", InputFileError, lines=True)
    assert (caught.value.location, caught.value.message) == (where, message)


@pytest.mark.parametrize("text", [
    b'{"a": "NaN Infinity [[[[ ' + b"1" * 5_000 + b'"}\n',
    b'{"a": "\\\\ud800", "b": "\\ud83d\\ude00", "c": 1e308, "d": -0.5e-999}\n',
    (b'{"a": "\\"' + b"[" * 600 + b'"}\n') * 3,
    b"[" * 300 + b"]" * 300 + b"\n" + b"[" * 300 + b"]" * 300 + b"\n",
])
def test_check_json_text_lets_valid_text_through(text):
    check_json_text(text, "a.jsonl", InputFileError, lines=True)


def test_check_json_text_lines_are_checked_one_by_one():
    text = b"[" * 300 + b"\n" + b"[" * 300 + b"\n"  # invalid JSON lines, but each shallow
    check_json_text(text, "a.jsonl", InputFileError, lines=True)
    with pytest.raises(InputFileError, match="line 2 column 213: nested more than 512"):
        check_json_text(text, "a.json", InputFileError)


def test_load_json_reads_any_value_and_refuses_like_the_readers():
    assert load_json(b'[1, {"a": "\\u00e9"}]', "x.json", InputFileError) == [1, {"a": "é"}]
    with pytest.raises(InputFileError) as caught:
        load_json(b'{"a": [1, NaN], "a": 2}', "x.json", InputFileError)
    assert [str(e) for e in caught.value.errors] == [
        "x.json: $: a: duplicate key", "x.json: $: a[1]: expected a finite number, got NaN"]


def test_a_large_file_is_checked_quickly():
    line = b'{"id": "r1", "attempt": "the copper token [in] the \\"west\\" drawer", "n": 1.5}\n'
    text = line * 200_000  # 16 MB, 200,000 objects
    check_json_text(text, "a.jsonl", InputFileError, lines=True)
    check_json_text(b"[" + text.replace(b"\n", b",")[:-1] + b"]", "a.json", InputFileError)


# --- the parser's own words, without a dangling "at" -------------------------------------------
@pytest.mark.parametrize(("content", "message"), [
    ('{"item": "q1", "referenceAnswer": "a\n',
     "i.jsonl: line 1: not valid JSON (Unterminated string starting at column 35)"),
    ('{"item": "q1", "referenceAnswer": "a\tb"}\n',
     "i.jsonl: line 1: not valid JSON (Invalid control character at column 37)"),
])
def test_a_json_line_error_says_at_once_where(tmp_path, content, message):
    path = tmp_path / "i.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_items(path)
    assert str(caught.value).endswith(message)
    assert " at at " not in str(caught.value)


@pytest.mark.parametrize(("content", "message"), [
    ('{"title": "x', "b.json: line 1 column 11: not valid JSON: Unterminated string starting"),
    ('{"title": "x\ty"}', "b.json: line 1 column 13: not valid JSON: Invalid control character"),
])
def test_a_json_document_error_ends_with_the_problem(tmp_path, content, message):
    path = tmp_path / "b.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        load_benchmark(path)
    assert str(caught.value).endswith(message)
