"""The ``recallscore`` command line: exit codes, stdout tables, stderr messages.

Most cases call :func:`recallscore_nb.cli.main` in-process (fast) and parse what it wrote; a
few run the real command in subprocesses, started together, to prove the exit codes and the
absence of a traceback end to end, and to feed standard input.

Exit codes: 0 success; 1 a comparison found a difference; 2 invalid input or usage.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from recallscore_nb._version import __version__
from recallscore_nb.cli.main import exit_code
from recallscore_nb.core.errors import (InputChangedError, NotebookFailed, PublishError,
                                        RecallScoreError, UsageError, VacuousControlError)
from recallscore_nb.io.data import DEFAULT_BENCHMARK
from tests.conftest import BENCHMARK, REFERENCE, write_benchmark, run_cli as run

V = __version__
EQUIVALENT_SIGNATURE = (
    "equivalent|norm:answer|cascade:3|steps:exact+contains+number+plural+date+quantity+glue+"
    "spelling+order+name-part+part+overlap|guards:negation+alternatives+list+bag+denial+scale|"
    f"tolerance:0.05|shortest:5|window:3|longest:4|share:2/3|least:2|widest:4|version:{V}")
ANSWER_STEPS = ("mojibake,superscripts,nfkc,accents,typography,symbols,footnotes,glued_words,"
                "lowercase,possessives,numerals,punctuation_spaces,articles,whitespace")
RULE_SIGNATURES = {
    "v1.1": [
        f"literal|norm:none|version:{V}",
        f"normalized|norm:seed|version:{V}",
        f"squad_exact_match|mode:v1.1|norm:squad|version:{V}",
        f"token_f1|mode:v1.1|norm:squad|tok:ws|bag:multiset|empty:zero|version:{V}",
        f"contains|norm:squad|tok:ws|match:whole-token|version:{V}",
        f"checklist|norm:seed|tok:ws|match:whole-token|full:all-facts|version:{V}",
        EQUIVALENT_SIGNATURE,
    ],
    "v2.0": [
        f"literal|norm:none|version:{V}",
        f"normalized|norm:seed|version:{V}",
        f"squad_exact_match|mode:v2.0|norm:squad|version:{V}",
        f"token_f1|mode:v2.0|norm:squad|tok:ws|bag:multiset|empty:both-one|version:{V}",
        f"contains|norm:squad|tok:ws|match:whole-token|version:{V}",
        f"checklist|norm:seed|tok:ws|match:whole-token|full:all-facts|version:{V}",
        EQUIVALENT_SIGNATURE,
    ],
}
NORMALIZER_SIGNATURES = [
    f"normalizer|name:seed|steps:lowercase,punctuation,whitespace|version:{V}",
    f"normalizer|name:squad|steps:lowercase,punctuation,articles,whitespace|version:{V}",
    f"normalizer|name:answer|steps:{ANSWER_STEPS}|version:{V}",
    f"normalizer|name:answer+numbers|steps:{ANSWER_STEPS},number_words|version:{V}",
    f"normalizer|name:answer+stems|steps:{ANSWER_STEPS},number_words,singular|version:{V}",
]
SIGNATURES = {mode: signed + NORMALIZER_SIGNATURES for mode, signed in RULE_SIGNATURES.items()}
"""What a scored output cites: every rule's signature, then the normalizers' they use."""
RULE_COLUMNS = ["literal_match", "normalized_match", "squad_exact_match", "token_f1",
                "contains", "facts_present", "facts_total", "checklist_full_match"]
EQUIVALENT_COLUMNS = ["equivalent", "equivalent_step"]
FACT_COLUMNS = ["fact_bird", "fact_place", "fact_time", *EQUIVALENT_COLUMNS]
"""The kite benchmark's fact columns, then the equivalent rule's (after every fact)."""
OWN_COLUMNS = ["id", "attempt", "condition", *RULE_COLUMNS, *FACT_COLUMNS]

# The fixture benchmark's rows scored by hand (see conftest.py): literal, normalized,
# squad EM, token F1, contains, facts present, facts total, full, bird, place, time,
# equivalent and its step (K3, K4 every content word in another order; K5 is none: 4 of the
# 6 content words, but "barn" and "dusk" stand where "mill" and "dawn" do, facts changed).
OWN_SCORES = {
    "K1": [True, True, True, 1.0, True, 3, 3, True, True, True, True, True, "exact"],
    "K2": [False, True, True, 1.0, True, 3, 3, True, True, True, True, True, "exact"],
    "K3": [False, False, False, 1.0, False, 3, 3, True, True, True, True, True, "order"],
    "K4": [False, False, False, 1.0, False, 2, 3, False, False, True, True, True, "order"],
    "K5": [False, False, False, 6 / 8, False, 1, 3, False, True, False, False, False, "none"],
}


pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def assert_invalid(result, *parts: str) -> str:
    """Exit 2, nothing on stdout, one error line (plus at most the count of the others)."""
    code, out, err = result
    assert code == 2, err
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines[0].startswith("recallscore: error: ")
    assert len(lines) == 1 or (len(lines) == 2 and lines[1].startswith("recallscore: (")), err
    for part in parts:
        assert part in lines[0]
    return lines[0].removeprefix("recallscore: error: ")


def table(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), dtype={"id": str, "attempt": str}, keep_default_na=False)


def write(name: str, content: str | bytes) -> str:
    Path(name).write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return name


def shipped_with(edit) -> str:
    """The shipped benchmark after ``edit(data)``, written to ``bench.json``."""
    data = json.loads(DEFAULT_BENCHMARK.read_text(encoding="utf-8"))
    edit(data)
    write_benchmark(Path("."), data=data)
    return "bench.json"


# --- usage -------------------------------------------------------------------------------
def test_version(capsys):
    assert run(capsys, "--version") == (0, f"recallscore {V}\n", "")


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["score", "--squad-mode", "v3"],
                                  ["score", "--no-such-option"], ["validate", "a.json", "b.json"]])
def test_usage_errors_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert "usage: recallscore" in err
    assert "Traceback" not in err


def test_help_lists_the_commands_and_exit_codes(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("validate", "score", "signature", "reproduce"):
        assert command in out
    assert "2 invalid input or usage" in " ".join(out.split())


# --- signature ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["v1.1", "v2.0"])
def test_signature(capsys, mode):
    expected = "\n".join(SIGNATURES[mode]) + "\n"
    assert run(capsys, "signature", "--squad-mode", mode) == (0, expected, "")


def test_signature_defaults_to_v1_1(capsys):
    assert run(capsys, "signature")[1].splitlines() == SIGNATURES["v1.1"]


# --- validate ----------------------------------------------------------------------------
def test_validate_shipped(capsys):
    digest = hashlib.sha256(DEFAULT_BENCHMARK.read_bytes()).hexdigest()[:12]
    assert run(capsys, "validate") == (
        0, f"shipped benchmark four_fact_recall.json: valid benchmark: 12 rows, 4 facts, sha256 {digest}\n", "")


def test_validate_own(capsys):
    write_benchmark(Path("."))
    digest = hashlib.sha256(Path("bench.json").read_bytes()).hexdigest()[:12]
    assert run(capsys, "validate", "bench.json") == (
        0, f"bench.json: valid benchmark: 5 rows, 3 facts, sha256 {digest}\n", "")


def test_validate_null_attempt_the_spec_example(capsys):
    shipped_with(lambda d: d["rows"][2].update(attempt=None))
    code, out, err = run(capsys, "validate", "bench.json")
    assert (code, out) == (2, "")
    assert err == "recallscore: error: bench.json: $.rows[2] (id R03): attempt: expected a string, got null\n"


def test_validate_prints_the_first_errors_then_counts_the_others(capsys):
    def edit(d):
        d["rows"][2]["attempt"] = None
        d["rows"][3]["attempt"] = 5
        d["rows"][4]["literalMatch"] = "no"
        for row in d["rows"][5:9]:
            row["attempt"] = None
    shipped_with(edit)
    code, _, err = run(capsys, "validate", "bench.json")
    assert code == 2
    assert err.splitlines() == [
        "recallscore: error: bench.json: $.rows[2] (id R03): attempt: expected a string, got null",
        "recallscore: error: bench.json: $.rows[3] (id R04): attempt: expected a string, got 5",
        'recallscore: error: bench.json: $.rows[4] (id R05): literalMatch: expected a boolean, '
        'got "no"',
        "recallscore: error: bench.json: $.rows[5] (id R06): attempt: expected a string, got null",
        "recallscore: error: bench.json: $.rows[6] (id R07): attempt: expected a string, got null",
        "recallscore: (2 more errors)",
    ]


def test_validate_one_more_error_is_singular(capsys):
    def edit(d):
        for row in d["rows"][:6]:
            row["attempt"] = None
    shipped_with(edit)
    assert run(capsys, "validate", "bench.json")[2].splitlines()[5] == "recallscore: (1 more error)"


@pytest.mark.parametrize("content, message", [
    (b'{"schemaVersion": 1,', "bench.json: line 1 column 21: not valid JSON: "),
    (b'{"schemaVersion": 1, "schemaVersion": 1}', "bench.json: $: schemaVersion: duplicate key"),
    (b'{"title": "caf\xe9"}', "bench.json: byte 14: not UTF-8 text (byte 0xe9)"),
    (b"[]", "bench.json: $: expected an object, got []"),
    (b"", "bench.json: line 1 column 1: not valid JSON: "),
])
def test_validate_unreadable_json(capsys, content, message):
    write("bench.json", content)
    assert assert_invalid(run(capsys, "validate", "bench.json")).startswith(message)


def test_validate_duplicate_key_inside_a_row(capsys):
    text = json.dumps(BENCHMARK).replace('"id": "K2",', '"id": "K2", "attempt": "x",')
    write("bench.json", text)
    assert assert_invalid(run(capsys, "validate", "bench.json")) == \
        "bench.json: $.rows[1] (id K2): attempt: duplicate key"


def test_validate_missing_file(capsys):
    assert assert_invalid(run(capsys, "validate", "nope.json")) == "nope.json: no such file"


def test_validate_a_directory(capsys):
    Path("d.json").mkdir()
    assert assert_invalid(run(capsys, "validate", "d.json")) == ("d.json: not a regular file (a "
                                                                 "folder); give a file")


def test_validate_facts_present_beyond_the_checklist(capsys):
    shipped_with(lambda d: d["rows"][2].update(factsPresent=7))
    assert assert_invalid(run(capsys, "validate", "bench.json")) == (
        "bench.json: $.rows[2] (id R03): factsPresent: expected at most 4, the number of facts, got 7")


# --- score: the benchmark's own rows -----------------------------------------------------
def test_score_shipped_rows(capsys):
    code, out, err = run(capsys, "score")
    assert code == 0
    assert err.splitlines() == SIGNATURES["v1.1"]
    frame = table(out)
    assert frame.columns.tolist() == [
        "id", "attempt", "condition", *RULE_COLUMNS,
        "fact_material", "fact_object", "fact_location", "fact_timing", *EQUIVALENT_COLUMNS]
    assert frame["id"].tolist() == [f"R{i:02d}" for i in range(1, 13)]
    assert frame["literal_match"].sum() == 1
    assert frame["normalized_match"].sum() == 4
    assert frame["checklist_full_match"].sum() == 8
    assert frame["facts_present"].tolist() == [4] * 8 + [3] * 4
    assert (frame["facts_total"] == 4).all()
    assert frame.loc[8, "condition"] == "material omitted"
    assert not frame.loc[8, "fact_material"]
    assert frame.loc[3, "attempt"] == "  The copper token   goes in the west drawer before the museum opens.  "


def test_score_with_some_rules_holds_their_columns_and_signatures(capsys):
    """Issue 31: ``--rules`` scores with the rules named, in the registry's order."""
    every = table(run(capsys, "score")[1])
    code, out, err = run(capsys, "score", "--rules", "equivalent,literal", "--out", "some.parquet")
    assert code == 0
    assert err.splitlines() == [RULE_SIGNATURES["v1.1"][0], EQUIVALENT_SIGNATURE,
                                *NORMALIZER_SIGNATURES[2:]]  # literal's is none
    some = pd.read_parquet("some.parquet")
    assert some.columns.tolist() == ["id", "attempt", "condition", "literal_match",
                                     *EQUIVALENT_COLUMNS]
    assert some["literal_match"].tolist() == every["literal_match"].tolist()
    assert some["equivalent_step"].tolist() == every["equivalent_step"].tolist()
    metadata = pq.read_schema("some.parquet").metadata[b"recallscore"].decode()
    assert "literal|" in metadata and "contains|" not in metadata


@pytest.mark.parametrize(("argv", "said"), [
    (["--rules", "nope"], "unknown rule 'nope' (known: literal, normalized, squad_exact_match, "
                          "token_f1, contains, checklist, equivalent)"),
    (["--rules", ","], "name at least one rule (known: literal,"),
    (["--rules", "literal", "--engine", "dask", "--attempts", "x/*.parquet"],
     "--rules is read by --engine pandas only"),
])
def test_score_with_unknown_rules_is_exit_2_and_writes_nothing(capsys, argv, said):
    code, out, err = run(capsys, "score", *argv, "--out", "never.csv")
    assert (code, out) == (2, "") and said in err and "Traceback" not in err
    assert not Path("never.csv").exists()


def test_score_own_rows_every_value(capsys):
    write_benchmark(Path("."))
    code, out, _ = run(capsys, "score", "bench.json")
    assert code == 0
    frame = table(out)
    assert frame.columns.tolist() == OWN_COLUMNS
    assert frame["condition"].tolist() == [r["condition"] for r in BENCHMARK["rows"]]
    for column, dtype in [("literal_match", bool), ("token_f1", float), ("facts_present", int)]:
        assert frame[column].dtype == dtype
    assert {row.id: list(row[3:]) for row in frame.itertuples(index=False)} == OWN_SCORES
    assert out.splitlines()[0] == ",".join(OWN_COLUMNS)
    assert out.splitlines()[5].endswith(
        ",false,false,false,0.75,false,1,3,false,true,false,false,false,none")


def test_score_rows_without_conditions_has_no_condition_column(capsys):
    rows = [{k: v for k, v in r.items() if k != "condition"} for r in BENCHMARK["rows"]]
    write_benchmark(Path("."), rows=rows)
    frame = table(run(capsys, "score", "bench.json")[1])
    assert frame.columns.tolist()[:3] == ["id", "attempt", "literal_match"]


# --- score: attempts files ---------------------------------------------------------------
ATTEMPTS_CSV = (
    "id,attempt,rater\n"
    "007,red kite at dawn,Zoë\n"
    "008,,A\n"
    "009,NA,A\n"
    "010,null,B\n"
    "011,None,B\n"
    f'012,"{REFERENCE}",C\n'
)


def test_score_csv_attempts(capsys):
    write_benchmark(Path("."))
    write("a.csv", ATTEMPTS_CSV)
    code, out, err = run(capsys, "score", "bench.json", "--attempts", "a.csv")
    assert code == 0
    assert err.splitlines() == SIGNATURES["v1.1"]
    lines = out.splitlines()
    assert lines[0] == ",".join(["id", "attempt", "rater", *RULE_COLUMNS, *FACT_COLUMNS])
    # "red kite at dawn": 4 of the reference's 8 SQuAD tokens, precision 1, recall 1/2: F1 2/3;
    # 3 of its 6 content words, not equivalent
    assert lines[1] == ("007,red kite at dawn,Zoë,false,false,false,0.6666666666666666,false,2,3,"
                        "false,true,false,true,false,none")
    assert lines[2] == "008,,A,false,false,false,0.0,false,0,3,false,false,false,false,false,none"
    assert lines[6] == (f"012,{REFERENCE},C,true,true,true,1.0,true,3,3,true,true,true,true,"
                        "true,exact")
    frame = table(out)
    assert frame["id"].tolist() == ["007", "008", "009", "010", "011", "012"]
    assert frame["attempt"].tolist()[1:5] == ["", "NA", "null", "None"]
    assert frame.loc[0, "token_f1"] == 2 / 3


def test_score_csv_attempts_without_ids(capsys):
    write_benchmark(Path("."))
    write("a.csv", "attempt\nx\ny\nz\n")
    frame = table(run(capsys, "score", "bench.json", "--attempts", "a.csv")[1])
    assert frame["id"].tolist() == ["0", "1", "2"]


def stdin_with(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))


def test_score_stdin_in_process(capsys, monkeypatch):
    write_benchmark(Path("."))
    stdin_with(monkeypatch, ATTEMPTS_CSV)
    code, out, _ = run(capsys, "score", "bench.json", "--attempts", "-")
    assert code == 0
    assert table(out)["id"].tolist() == ["007", "008", "009", "010", "011", "012"]


def test_score_stdin_not_utf8(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"attempt\n\xff\n"), encoding="utf-8"))
    assert assert_invalid(run(capsys, "score", "--attempts", "-")).startswith("<stdin>: line 2: not UTF-8 text (byte 8)")


def test_score_stdin_duplicate_id(capsys, monkeypatch):
    stdin_with(monkeypatch, "id,attempt\n1,a\n1,b\n")
    assert assert_invalid(run(capsys, "score", "--attempts", "-")) == \
        "<stdin>: row 1 (id 1): id: duplicate id (first used at row 0)"


def test_score_jsonl_attempts_to_jsonl(capsys):
    write_benchmark(Path("."))
    write("a.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [
        {"id": "007", "attempt": "red kite at dawn", "n": 1},
        {"id": "x", "attempt": "The kite, red, nests on the mill roof at dawn.", "n": 2},
    ]))
    code, out, err = run(capsys, "score", "bench.json", "--attempts", "a.jsonl", "--out", "out/s.jsonl")
    assert (code, out) == (0, "")
    assert err.splitlines() == SIGNATURES["v1.1"]
    records = [json.loads(line) for line in Path("out/s.jsonl").read_text(encoding="utf-8").splitlines()]
    assert records[0] == {
        "id": "007", "attempt": "red kite at dawn", "n": 1,
        "literal_match": False, "normalized_match": False, "squad_exact_match": False,
        "token_f1": 2 / 3, "contains": False, "facts_present": 2, "facts_total": 3,
        "checklist_full_match": False,
        "fact_bird": True, "fact_place": False, "fact_time": True,
        "equivalent": False, "equivalent_step": "none",
    }
    assert [records[1][k] for k in ("id", "n", "facts_present", "fact_bird", "token_f1")] == ["x", 2, 2, False, 1.0]
    assert [records[1][k] for k in EQUIVALENT_COLUMNS] == [True, "order"]


def test_score_parquet_attempts_to_parquet(capsys):
    write_benchmark(Path("."))
    pq.write_table(pa.table({"attempt": ["red kite at dawn", REFERENCE], "id": [7, 8],
                             "temperature": [0.0, 0.7]}), "a.parquet")
    code, out, err = run(capsys, "score", "bench.json", "--attempts", "a.parquet", "--out", "s.parquet")
    assert (code, out) == (0, "")
    result = pq.read_table("s.parquet")
    assert result.column_names == ["id", "attempt", "temperature", *RULE_COLUMNS,
                                   *FACT_COLUMNS]
    types = {f.name: f.type for f in result.schema}
    assert types["id"] == types["attempt"] == pa.string()
    assert types["literal_match"] == types["fact_bird"] == pa.bool_()
    assert types["token_f1"] == types["temperature"] == pa.float64()
    assert types["facts_present"] == types["facts_total"] == pa.int64()
    assert types["equivalent"] == pa.bool_()
    assert result.column("equivalent_step").to_pylist() == ["none", "exact"]
    assert result.column("id").to_pylist() == ["7", "8"]
    assert result.column("token_f1").to_pylist() == [2 / 3, 1.0]
    assert result.column("checklist_full_match").to_pylist() == [False, True]
    meta = json.loads(result.schema.metadata[b"recallscore"])
    assert meta == {
        "signatures": SIGNATURES["v1.1"],
        "version": V,
        "benchmark_sha256": hashlib.sha256(Path("bench.json").read_bytes()).hexdigest(),
    }
    assert err.splitlines() == SIGNATURES["v1.1"]


def test_score_squad_mode_v2_in_signatures_and_metadata(capsys):
    code, _, err = run(capsys, "score", "--squad-mode", "v2.0", "--out", "s.parquet")
    assert code == 0
    assert err.splitlines() == SIGNATURES["v2.0"]
    meta = json.loads(pq.read_table("s.parquet").schema.metadata[b"recallscore"])
    assert meta["signatures"] == SIGNATURES["v2.0"]
    assert meta["benchmark_sha256"] == hashlib.sha256(DEFAULT_BENCHMARK.read_bytes()).hexdigest()


def test_score_out_csv_matches_stdout(capsys):
    write_benchmark(Path("."))
    _, stdout, _ = run(capsys, "score", "bench.json")
    code, out, _ = run(capsys, "score", "bench.json", "--out", "s.csv")
    assert (code, out) == (0, "")
    assert Path("s.csv").read_text(encoding="utf-8") == stdout


def test_score_out_replaces_a_file_and_leaves_no_temporary_file(capsys):
    write("s.jsonl", "old\n")
    assert run(capsys, "score", "--out", "s.jsonl")[0] == 0
    assert len(Path("s.jsonl").read_text().splitlines()) == 12
    assert sorted(p.name for p in Path(".").iterdir()) == ["s.jsonl"]


# --- score: invalid input ----------------------------------------------------------------
@pytest.mark.parametrize("name, content, expected", [
    ("a.csv", "text\nx\n", "a.csv: attempt: missing column 'attempt' (columns: text)"),
    ("a.csv", "id,attempt\nA,x\nA,y\n", "a.csv: row 1 (id A): id: duplicate id (first used at row 0)"),
    ("a.csv", b"attempt\n\xe9\n", "a.csv: line 2: not UTF-8 text (byte 8)"),
    ("a.csv", "", "a.csv: empty file: expected a header line with an 'attempt' column"),
    ("a.jsonl", '{"id": "A", "attempt": "x"}\n{"id": "B", "attempt": null}\n',
     "a.jsonl: line 2 (id B): attempt: expected a string, got null"),
    ("a.jsonl", '{"id": 1, "attempt": "x"}\n{"id": 1, "attempt": "y"}\n',
     "a.jsonl: line 2 (id 1): id: duplicate id (first used at line 1)"),
    ("a.jsonl", '{"attempt": "x"\n', "a.jsonl: line 1: not valid JSON ("),
    ("a.jsonl", '{"text": "x"}\n', "a.jsonl: attempt: missing column 'attempt' (columns: text)"),
    ("a.parquet", "not parquet", "a.parquet: not a readable Parquet file ("),
    ("a.tsv", "attempt\nx\n", "a.tsv: an attempts file must end in .csv, .jsonl, .parquet (got '.tsv')"),
])
def test_score_invalid_attempts(capsys, name, content, expected):
    write(name, content)
    message = assert_invalid(run(capsys, "score", "--attempts", name))
    assert message.startswith(expected)


def test_score_null_attempt_in_parquet(capsys):
    pq.write_table(pa.table({"id": ["A", "B"], "attempt": ["x", None]}), "a.parquet")
    assert assert_invalid(run(capsys, "score", "--attempts", "a.parquet")) == \
        "a.parquet: row 1 (id B): attempt: expected a string, got null"


def test_score_missing_attempts_file(capsys):
    assert assert_invalid(run(capsys, "score", "--attempts", "nope.csv")) == "nope.csv: no such file"


@pytest.mark.parametrize("column", ["token_f1", "checklist_full_match", "facts_total", "fact_bird"])
def test_score_carried_column_colliding_with_an_output_column(capsys, column):
    write_benchmark(Path("."))
    write("a.csv", f"attempt,{column}\nx,1\n")
    message = assert_invalid(run(capsys, "score", "bench.json", "--attempts", "a.csv"))
    assert message == f"a.csv: {column}: column {column!r} collides with an output column; rename it"


def test_score_carried_condition_column_is_fine(capsys):
    write("a.csv", "attempt,condition\nx,mine\n")
    frame = table(run(capsys, "score", "--attempts", "a.csv")[1])
    assert frame["condition"].tolist() == ["mine"]


def test_score_invalid_benchmark(capsys):
    write_benchmark(Path("."), referenceAnswer="")
    assert assert_invalid(run(capsys, "score", "bench.json")).startswith(
        "bench.json: $: referenceAnswer: expected a non-empty string, got \"\"")


@pytest.mark.parametrize("out", ["s.txt", "s", "s.json"])
def test_score_out_with_unknown_extension_writes_nothing(capsys, out):
    assert_invalid(run(capsys, "score", "--out", out), f"{out}: --out must end in .csv, .jsonl, .parquet")
    assert list(Path(".").iterdir()) == []


@pytest.mark.parametrize("attempts", ["id,attempt\nA,x\nA,y\n", "text\nx\n"])
def test_score_error_leaves_an_existing_out_file_untouched(capsys, attempts):
    write("a.csv", attempts)
    write("s.csv", "precious\n")
    assert_invalid(run(capsys, "score", "--attempts", "a.csv", "--out", "s.csv"))
    assert Path("s.csv").read_text() == "precious\n"
    assert sorted(p.name for p in Path(".").iterdir()) == ["a.csv", "s.csv"]


# --- bugs found: errors that escape as tracebacks ------------------------------------------
def _no_traceback(capsys, *argv):
    """The command must end with exit 2 and one line, not an exception."""
    try:
        result = run(capsys, *argv)
    except Exception as exc:  # what happens today
        pytest.fail(f"{type(exc).__name__} escaped main(): {exc}")
    return assert_invalid(result)


def test_score_out_below_a_file_is_invalid_usage(capsys):
    write("afile", "x")
    assert "afile" in _no_traceback(capsys, "score", "--out", "afile/s.csv")


def test_score_out_that_is_a_directory_is_invalid_usage(capsys):
    Path("s.csv").mkdir()
    assert "s.csv" in _no_traceback(capsys, "score", "--out", "s.csv")


def test_reproduce_out_dir_that_is_a_file_is_invalid_usage(capsys):
    write("tables", "x")
    assert "tables" in _no_traceback(capsys, "reproduce", "--out-dir", "tables")


def test_score_mixed_type_carried_column_to_parquet(capsys):
    write("a.jsonl", '{"attempt": "a", "score": 1}\n{"attempt": "b", "score": "x"}\n')
    write("s.parquet", "precious")
    try:
        code, _, err = run(capsys, "score", "--attempts", "a.jsonl", "--out", "s.parquet")
    except Exception as exc:
        pytest.fail(f"{type(exc).__name__} escaped main(): {exc}")
    assert "Traceback" not in err
    if code == 2:
        assert "score" in err.splitlines()[0]
        assert Path("s.parquet").read_text() == "precious"
    else:
        assert code == 0
        assert pq.read_table("s.parquet").column("score").to_pylist() == ["1", "x"]


def test_score_parquet_with_null_carried_value_to_jsonl(capsys):
    pq.write_table(pa.table({"attempt": ["a", "b"], "note": ["x", None]}), "a.parquet")
    try:
        code, _, _ = run(capsys, "score", "--attempts", "a.parquet", "--out", "s.jsonl")
    except Exception as exc:
        pytest.fail(f"{type(exc).__name__} escaped main(): {exc}")
    assert code == 0
    assert [json.loads(line)["note"] for line in Path("s.jsonl").read_text().splitlines()] == ["x", None]


# --- reproduce ---------------------------------------------------------------------------
def test_reproduce_shipped(capsys):
    code, out, err = run(capsys, "reproduce")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "OK: 12 of 12 rows with published labels agree; 54 published values checked, 0 differ"


def test_reproduce_own_wrong_label_exits_1(capsys):
    rows = json.loads(json.dumps(BENCHMARK["rows"]))
    rows[3]["factsPresent"] = 3
    write_benchmark(Path("."), rows=rows)
    code, out, err = run(capsys, "reproduce", "bench.json")
    assert (code, err) == (1, "")
    assert "K4 factsPresent 3 2" in out.splitlines()


# --- end to end, in subprocesses (started together) --------------------------------------
def _command(name: str) -> list[str]:
    script = Path(sys.executable).parent / name
    return [str(script)] if script.exists() else [sys.executable, "-m", "recallscore_nb"]


@pytest.fixture(scope="module", autouse=True)
def _e2e_started(tmp_path_factory):
    """Start every end-to-end case at once, before the in-process tests, so that their slow
    start (importing pandas, pyarrow, jsonschema) overlaps with those tests."""
    where = tmp_path_factory.mktemp("e2e")
    write_benchmark(where)
    bad = json.loads(json.dumps(BENCHMARK))
    bad["rows"][2]["attempt"] = None
    bad["rows"][4]["factsPresent"] = -1
    write_benchmark(where, "bad.json", data=bad)
    wrong = json.loads(json.dumps(BENCHMARK))
    wrong["rows"][0]["literalMatch"] = False
    write_benchmark(where, "wrong.json", data=wrong)
    module = [sys.executable, "-m", "recallscore_nb"]
    cases = {
        "version": (_command("recallscore") + ["--version"], None),
        "stdin": (module + ["score", "bench.json", "--attempts", "-"], ATTEMPTS_CSV),
        "invalid": (module + ["validate", "bad.json"], None),
        "different": (module + ["reproduce", "wrong.json"], None),
    }
    started = {}
    for case, (argv, stdin) in cases.items():
        proc = subprocess.Popen(argv, cwd=where, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        started[case] = (proc, stdin)
    yield started
    for proc, _ in started.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def e2e(_e2e_started):
    """{case: (exit code, stdout, stderr)} of the end-to-end runs."""
    results = {}
    for case, (proc, stdin) in _e2e_started.items():
        out, err = proc.communicate(stdin.encode() if stdin is not None else None, timeout=300)
        results[case] = (proc.returncode, out.decode("utf-8"), err.decode("utf-8"))
    return results


def test_e2e_version(e2e):
    assert e2e["version"] == (0, f"recallscore {V}\n", "")


def test_e2e_stdin_scores_csv(e2e):
    code, out, err = e2e["stdin"]
    assert code == 0
    assert err.splitlines() == SIGNATURES["v1.1"]
    frame = table(out)
    assert frame["id"].tolist() == ["007", "008", "009", "010", "011", "012"]
    assert frame["attempt"].tolist()[:5] == ["red kite at dawn", "", "NA", "null", "None"]
    assert frame["rater"].tolist()[0] == "Zoë"
    assert "0.6666666666666666" in out.splitlines()[1]


def test_e2e_invalid_benchmark(e2e):
    code, out, err = e2e["invalid"]
    assert (code, out) == (2, "")
    assert "Traceback" not in err
    assert err.splitlines() == [
        "recallscore: error: bad.json: $.rows[2] (id K3): attempt: expected a string, got null",
        "recallscore: error: bad.json: $.rows[4] (id K5): factsPresent: expected an integer >= 0, "
        "got -1",
    ]


def test_e2e_difference_exits_1(e2e):
    code, out, err = e2e["different"]
    assert (code, err) == (1, "")
    assert "K1 literalMatch false true" in out.splitlines()
    assert out.splitlines()[-1] == "DIFFERENT: 4 of 5 rows with published labels agree; 26 published values checked, 1 differ"


@pytest.mark.parametrize(("error", "code"), [
    (UsageError("x"), 2),
    (InputChangedError("r.json", "benchmark", "b.json", "aa", None), 2),
    (NotebookFailed("05_reanalysis", 3, "ValueError", "bad"), 3),
    (PublishError("moved back"), 3),
    (VacuousControlError([("control:idk", "token_f1", 0.25)]), 2),
])
def test_exit_codes(error, code):
    assert isinstance(error, RecallScoreError) and exit_code(error) == code


@pytest.mark.parametrize("argv", [["--help"], ["score", "--nope"], ["nope"], ["--version"]])
def test_help_and_a_bad_argument_import_neither_pandas_nor_the_rules(argv):
    """Issue 31's quick start: the parser is built without the rule registry (its choices and
    help read it when shown), so these answer before pandas is imported."""
    code = ("import sys\nfrom recallscore_nb.cli.main import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\n"
            "print('pandas' in sys.modules, 'recallscore_nb.core.rules' in sys.modules,"
            " file=sys.__stdout__)")
    run_ = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert run_.stdout.splitlines()[-1] == "False False", run_.stderr


def test_the_choices_and_help_read_from_the_registry_when_shown(capsys):
    code, out, _ = run(capsys, "summarize", "--help")
    assert code == 0 and "equivalent (default: all)" in " ".join(out.split())
    code, _, err = run(capsys, "score", "--squad-mode", "v3")
    assert code == 2 and "invalid choice: 'v3' (choose from 'v1.1', 'v2.0')" in err
