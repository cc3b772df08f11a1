"""``recallscore convert openqa-eval`` on broken sources (issue 22): every fault named by
file, line and field, every fault reported, nothing written; never a row dropped or a
verdict read as no judgment. A small checkout (tests/convert_fixtures.py) broken one way
at a time, and the issue's probes on a cut-down copy of the real checkout.

Every test runs in ``tmp_path``: messages name the files as given (``OpenQA-eval/...``).
"""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from recallscore_nb.core.errors import InputFileError
from recallscore_nb.io.converters import convert_openqa_eval
from tests.conftest import run_cli
from tests.convert_fixtures import HEADERS, RECORDS, ROWS, jsonl, openqa_checkout, real_checkout
from tests.human_judgments import needs_data

pytestmark = pytest.mark.usefixtures("in_tmp")

DATA = "OpenQA-eval/data"
HUMAN, GPT4, BEM = f"{DATA}/NQ301_human.tsv", f"{DATA}/NQ301_gpt-4.tsv", f"{DATA}/NQ301_BEM.tsv"
OUT = f"{DATA}/model_outputs"


def faults(checkout: Path) -> list[str]:
    """Every fault the conversion of ``checkout`` raises; it must write nothing."""
    with pytest.raises(InputFileError) as info:
        convert_openqa_eval(checkout, "out")
    assert not Path("out").exists()
    return [str(e) for e in info.value.errors]


def tsv(name: str, *rows: str, header: str | None = None) -> dict[str, str]:
    return {name: "\n".join([HEADERS[name] if header is None else header, *rows])}


def human_text(*extra: str) -> str:
    return "\n".join([HEADERS["NQ301_human.tsv"], *ROWS["NQ301_human.tsv"], *extra])


# --- the TSVs: rows lost silently before ------------------------------------------------------
def test_a_quote_never_closed_is_named_where_it_opens():
    rows = ROWS["NQ301_gpt-4.tsv"]
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv(
        "NQ301_gpt-4.tsv", rows[0].replace("\tYes, it", '\t"Yes, it'), rows[1]))
    assert faults(checkout) == [
        f"{GPT4}: line 2: unterminated quoted field: the quote opened here is never closed, "
        "so every later line would be part of this field"]


def test_a_quote_closed_lines_later_is_named_and_the_rows_after_it_are_read():
    rows = ["1\tq one\t\"A one\tYes\tx", '2\tq two\tb" x\tNo\t', "3\tq two\tb\tMaybe\t"]
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv("NQ301_gpt-4.tsv", *rows))
    assert faults(checkout) == [
        f"{GPT4}: line 2: unterminated quoted field: the quote opened here is not closed on "
        "its line, so line 3 would be part of this field (a row of this file is one line)",
        f"{GPT4}: line 4: Acceptable?: expected Yes, No, True or False (any case), or empty "
        "for no judgment, got 'Maybe'"]


def human_judgments(path: str = "out/judgments.csv") -> list[list[str]]:
    """The rows of the human judge (``human``, the final label) a conversion wrote."""
    with open(path, encoding="utf-8", newline="") as file:
        return [row for row in csv.reader(file) if row[1] == "human"]


def test_an_answer_that_starts_with_a_quoted_title_keeps_its_quotes():
    """NQ301_human.tsv is written without CSV quoting (lines 95, 136, 252, 263, 268, 674 and
    824 of the real file start with a quote): read by csv's quoting, '"Mercy Mercy Me (The
    Ecology)" by Marvin Gaye ...' lost its quotes and matched no model output. Every field is
    now kept verbatim, even one that is quoted whole, or a quote never closed."""
    rows = ['1\tq one\t"A one" by someone\tYes\tYes\tNo\tYes',
            '2\tq two\t"b"\tNo\tNo\tNo\t', '2\tq two\t"c\tNo\tNo\tNo\t']
    outputs = [{"question": "q one", "answer": ["a1"], "prediction": '"A one" by someone'},
               {"question": "q two", "answer": ["a2"], "prediction": ['"b"']}]
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv("NQ301_human.tsv", *rows),
                               outputs={"NQ_A.jsonl": jsonl(outputs)})
    convert_openqa_eval(checkout, "out")
    assert human_judgments() == [["nq-0001", "human", '"A one" by someone', "true"],
                                 ["nq-0002", "human", '"b"', "false"],
                                 ["nq-0002", "human", '"c', "false"]]
    attempts = set(pd.read_parquet("out/attempts.parquet")["attempt"])
    assert {'"A one" by someone', '"b"'} <= attempts  # the verdicts find their attempts


@needs_data
def test_the_real_quoted_titles_are_read_as_their_bytes():
    checkout = real_checkout(Path("OpenQA-eval"))
    raw = (checkout / "data" / "NQ301_human.tsv").read_bytes().split(b"\n")
    convert_openqa_eval(checkout, "out")
    answers = [row[2] for row in human_judgments()]
    assert len(answers) == len(raw) - 1
    quoted = [n for n, answer in enumerate(answers, start=2) if answer.startswith('"')]
    assert quoted == [95, 136, 252, 263, 268, 674, 824]
    assert [answers[n - 2].encode() for n in quoted] == [raw[n - 1].split(b"\t")[2]
                                                          for n in quoted]
    assert answers[95 - 2] == ('"Mercy Mercy Me (The Ecology)" by Marvin Gaye is a song about '
                               "the environmental destruction of the Earth and the need for "
                               "conservation.")


# --- one answer, two verdicts ------------------------------------------------------------
def opposite(name: str, row: str) -> list[str]:
    """``name``'s two rows with ``row`` after them."""
    return faults(openqa_checkout(Path("OpenQA-eval"), tsv=tsv(name, *ROWS[name], row)))


def test_one_answer_judged_twice_with_opposite_final_verdicts_is_refused():
    """The judgments reader would refuse the converted file (two verdicts of one judge on
    one answer); the conversion names both source lines instead. The answers are compared
    stripped, as that reader matches them."""
    assert opposite("NQ301_human.tsv", "1\tq one\t A one\tNo\tYes\tNo\tYes") == [
        f"{HUMAN}: line 4: Acceptable?: the answer ' A one' to 'q one' is judged 'Yes' at "
        f"{HUMAN}:2 and 'No' at {HUMAN}:4: one answer, two opposite verdicts (correct or remove "
        "one of the rows)"]


@pytest.mark.parametrize(("name", "row", "column", "was", "now"), [
    pytest.param("NQ301_human.tsv", "1\tq one\tA one\tYes\tNo\tNo\tYes", "annotator1",
                 "Yes", "No", id="an annotator"),
    pytest.param("NQ301_gpt-4.tsv", "1\tq one\tA one\tfalse\tx", "Acceptable?", "Yes",
                 "false", id="gpt-4"),
    pytest.param("NQ301_text-davinci-003.tsv", "1\tq oneA one\tNo\tNo.", "Acceptable?",
                 "Yes", "No", id="instructgpt, its tab lost"),
])
def test_every_judge_gives_one_answer_one_verdict(name, row, column, was, now):
    path = f"{DATA}/{name}"
    assert opposite(name, row) == [
        f"{path}: line 4: {column}: the answer 'A one' to 'q one' is judged {was!r} at "
        f"{path}:2 and {now!r} at {path}:4: one answer, two opposite verdicts (correct or "
        "remove one of the rows)"]


def test_one_answer_judged_twice_alike_is_written_twice_as_the_real_files_do():
    """The real files repeat a few answers with the same verdicts (the human, GPT-4 and BEM
    files' lines 1117 and 1119, BEM's 387 and 389): both rows are written, as before, and
    the judgments reader counts them as one judgment."""
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv(
        "NQ301_human.tsv", *ROWS["NQ301_human.tsv"], "1\tq one\tA one \tyes\tYes\tNo\t"))
    convert_openqa_eval(checkout, "out")
    assert human_judgments() == [["nq-0001", "human", "A one", "true"],
                                 ["nq-0002", "human", "b", "false"],
                                 ["nq-0001", "human", "A one ", "true"]]


def test_an_empty_cell_then_a_verdict_is_no_clash():
    """An empty cell is no verdict (as for annotator3 where annotators 1 and 2 agreed)."""
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv(
        "NQ301_gpt-4.tsv", *ROWS["NQ301_gpt-4.tsv"], "2\tq two\tb\tYes\tx"))
    convert_openqa_eval(checkout, "out")
    lines = Path("out/judgments.csv").read_text().splitlines()
    assert [line for line in lines if line.startswith("nq-0002,gpt-4,")] == [
        "nq-0002,gpt-4,b,", "nq-0002,gpt-4,b,true"]


def test_opposite_verdicts_are_exit_2_naming_both_lines(capsys):
    openqa_checkout(Path("OpenQA-eval"), tsv=tsv("NQ301_human.tsv", *ROWS["NQ301_human.tsv"],
                                                 "2\tq two\tb\tYes\tNo\tNo\t"))
    code, out, err = run_cli(capsys, "convert", "openqa-eval", "OpenQA-eval", "--out-dir", "out")
    assert (code, out) == (2, "")
    assert err == (f"recallscore: error: {HUMAN}: line 4: Acceptable?: the answer 'b' to 'q two' "
                   f"is judged 'No' at {HUMAN}:3 and 'Yes' at {HUMAN}:4: one answer, two "
                   "opposite verdicts (correct or remove one of the rows)\n")
    assert not Path("out").exists()


def test_two_rows_glued_into_one_are_refused():
    """The real TSVs end without a newline: a row appended to one is glued to its last."""
    glued = human_text() + "3\tq two\tc\tYes\tYes\tYes\t"
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv={"NQ301_human.tsv": glued})
    assert faults(checkout) == [f"{HUMAN}: line 3: expected 7 fields as in the header, got 13"]


@pytest.mark.parametrize(("cell", "got"), [("Maybe", "'Maybe'"), ('"maybe"', "'maybe'"),
                                           ("2", "'2'"), ("nan", "'nan'")])
def test_an_unknown_verdict_word_is_refused_not_read_as_no_judgment(cell, got):
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv(
        "NQ301_gpt-4.tsv", f"1\tq one\tA one\t{cell}\tx", "2\tq two\tb\t\t"))
    assert faults(checkout) == [
        f"{GPT4}: line 2: Acceptable?: expected Yes, No, True or False (any case), or empty for "
        f"no judgment, got {got}"]


def test_verdict_words_any_case_and_empty_cells_are_read():
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv=tsv(
        "NQ301_gpt-4.tsv", "1\tq one\tA one\t TRUE \tx", "2\tq two\tb\tno\t"))
    convert_openqa_eval(checkout, "out")
    lines = Path("out/judgments.csv").read_text().splitlines()
    assert [line for line in lines if ",gpt-4," in line] == ["nq-0001,gpt-4,A one,true",
                                                              "nq-0002,gpt-4,b,false"]
    assert "nq-0002,annotator3,b," in lines  # an empty cell: no judgment


@pytest.mark.parametrize(("name", "content", "expected"), [
    pytest.param("NQ301_human.tsv", "", [
        f"{HUMAN}: empty file: expected a header line naming Question, Model answer, "
        "Acceptable?, annotator1, annotator2, annotator3"], id="empty file"),
    pytest.param("NQ301_human.tsv", human_text().replace("\tannotator3", "", 1), [
        f"{HUMAN}: line 1: annotator3: missing column (the header names: 'id', 'Question', "
        "'Model answer', 'Acceptable?', 'annotator1', 'annotator2')"], id="missing column"),
    pytest.param("NQ301_gpt-4.tsv", "id,Question,Model answer,Acceptable?,gpt-4\n1,q one,A one,"
                 "Yes,x", [f"{GPT4}: line 1: {c}: missing column (the header names: 'id,"
                           "Question,Model answer,Acceptable?,gpt-4')"
                           for c in ("Question", "Model answer", "Acceptable?")],
                 id="comma-separated"),
    pytest.param("NQ301_gpt-4.tsv", "\n".join([HEADERS["NQ301_gpt-4.tsv"] + "\tgpt-4",
                                               "1\tq one\tA one\tYes\tx\ty"]),
                 [f"{GPT4}: line 1: gpt-4: column named twice in the header"], id="column twice"),
    pytest.param("NQ301_gpt-4.tsv", "\n".join([HEADERS["NQ301_gpt-4.tsv"], "1\tq one\tA one"]),
                 [f"{GPT4}: line 2: expected 5 fields as in the header, got 3"], id="short row"),
    pytest.param("NQ301_text-davinci-003.tsv", "\n".join(
        [HEADERS["NQ301_text-davinci-003.tsv"], "1\tq oneA one\tYes"]),
        [f"{DATA}/NQ301_text-davinci-003.tsv: line 2: expected 5 fields as in the header, got 3"],
        id="davinci row of 3 fields"),
    pytest.param("NQ301_text-davinci-003.tsv", "\n".join(
        [HEADERS["NQ301_text-davinci-003.tsv"], "1\tq threeA\tYes\tx"]),
        [f"{DATA}/NQ301_text-davinci-003.tsv: line 2: Question: starts with no known question"],
        id="davinci glued row of no question"),
    pytest.param("NQ301_gpt-4.tsv", "\n".join([HEADERS["NQ301_gpt-4.tsv"], "1\tq nine\ta\tYes\tx"]),
                 [f"{GPT4}: line 2: Question: a question no NQ_*.jsonl file asks: 'q nine'"],
                 id="unknown question"),
])
def test_tsv_faults_are_named(name, content, expected):
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv={name: content})
    assert faults(checkout) == expected


@pytest.mark.parametrize(("content", "expected"), [
    pytest.param(gzip.compress(human_text().encode()), "gzip-compressed data, not text: "
                 "decompress it first (gunzip)", id="gzip"),
    pytest.param(human_text().encode().replace(b"q one", b"caf\xe9"), "line 2: not UTF-8 text "
                 "(byte 0xe9 at offset 75); save it as UTF-8", id="latin-1"),
    pytest.param(human_text().encode("utf-16"), "UTF-16 text (it starts with a UTF-16 "
                 "byte-order mark); save it as UTF-8", id="utf-16"),
    pytest.param(human_text().encode("utf-16-le"), "line 1: a NUL byte: not text (UTF-16 "
                 "text?); save it as UTF-8", id="utf-16 without a mark"),
])
def test_tsv_bytes_that_are_not_utf8_text_are_named(content, expected):
    checkout = openqa_checkout(Path("OpenQA-eval"))
    (checkout / "data" / "NQ301_human.tsv").write_bytes(content)
    assert faults(checkout) == [f"{HUMAN}: {expected}"]


def test_a_utf8_byte_order_mark_is_harmless():
    checkout = openqa_checkout(Path("OpenQA-eval"), tsv={"NQ301_human.tsv": "\ufeff" +
                                                         human_text()},
                               outputs={"NQ_A.jsonl": "\ufeff" + jsonl(RECORDS)})
    convert_openqa_eval(checkout, "out")
    assert Path("out/judgments.csv").read_text().count(",human,") == 2


# --- the model outputs: crashes before ------------------------------------------------------
ONE = {"question": "q one", "answer": ["a1"], "prediction": "p"}


def _line(**fields) -> str:
    record = {key: value for key, value in {**ONE, **fields}.items() if value is not ...}
    return json.dumps(record)


@pytest.mark.parametrize(("line", "expected"), [
    pytest.param("[1, 2]", "line 2: expected a JSON object, got [1, 2]", id="array"),
    pytest.param('"text"', 'line 2: expected a JSON object, got "text"', id="string"),
    pytest.param(_line(question=...), "line 2: question: expected a string, got nothing",
                 id="no question"),
    pytest.param(_line(answer=...), "line 2: answer: expected a list of strings, one not blank, "
                 "got nothing", id="no answer"),
    pytest.param(_line(answer=["a", 3]), "line 2: answer: expected a list of strings, one not "
                 'blank, got ["a", 3]', id="number among the answers"),
    pytest.param(_line(answer="December"), "line 2: answer: expected a list of strings, one not "
                 'blank, got "December"', id="answer a string"),
    pytest.param(_line(answer=[" "]), "line 2: answer: expected a list of strings, one not "
                 'blank, got [" "]', id="blank answers"),
    pytest.param(_line(prediction=7), "line 2: prediction: expected a string or a list of "
                 "strings, got 7", id="prediction a number"),
    pytest.param(_line(prediction=[]), "line 2: prediction: expected a string or a list of "
                 "strings, got []", id="prediction an empty list"),
    pytest.param('{"question": "q one", "answer": ["a1"]', "line 2: not valid JSON (Expecting "
                 "',' delimiter at column 39)", id="unclosed"),
    pytest.param('{"question": "q one", "answer": ["a1"], "prediction": NaN}',
                 "line 2: prediction: expected a finite number, got NaN", id="NaN"),
    pytest.param('{"question": "q one", "question": "q", "answer": ["a1"], "prediction": "p"}',
                 "line 2: question: duplicate key", id="duplicate key"),
    pytest.param('{"question": "q one", "answer": ["a1"], "prediction": ' + "9" * 5000 + "}",
                 "line 2: prediction: expected an integer from -2**63 to 2**63-1 (a larger "
                 "number needs an exponent), got 9999999999999999999999999999999999999999... "
                 "(5000 digits)", id="5000-digit integer"),
    pytest.param('{"question": "q one", "answer": ["a1"], "prediction": "\\ud800"}',
                 "line 2: prediction: contains a lone surrogate (\\ud800): not Unicode text",
                 id="lone surrogate"),
    pytest.param('{"question": ' + "[" * 600 + "]" * 600 + "}",
                 "line 2 column 525: nested more than 512 levels deep (the limit)", id="deep"),
])
def test_model_output_faults_are_named(line, expected):
    text = jsonl(RECORDS[:1]) + line + "\n"
    checkout = openqa_checkout(Path("OpenQA-eval"), outputs={"NQ301_B.jsonl": text})
    assert faults(checkout) == [f"{OUT}/NQ301_B.jsonl: {expected}"]


@pytest.mark.parametrize(("content", "expected"), [
    pytest.param(gzip.compress(jsonl(RECORDS).encode()), "gzip-compressed data, not text: "
                 "decompress it first (gunzip)", id="gzip"),
    pytest.param(jsonl(RECORDS).encode().replace(b"A one", b"caf\xe9"), "line 1: not UTF-8 text "
                 "(byte 0xe9 at offset 63); save it as UTF-8", id="latin-1"),
    pytest.param(jsonl(RECORDS).encode("utf-16"), "UTF-16 text (it starts with a UTF-16 "
                 "byte-order mark); save it as UTF-8", id="utf-16"),
])
def test_model_output_bytes_that_are_not_utf8_text_are_named(content, expected):
    checkout = openqa_checkout(Path("OpenQA-eval"), outputs={"NQ_A.jsonl": content})
    assert faults(checkout) == [f"{OUT}/NQ_A.jsonl: {expected}"]


def test_every_fault_of_every_file_is_reported():
    lines = jsonl(RECORDS) + "[1]\n" + _line(answer="x") + "\n" + '"s"\n'
    checkout = openqa_checkout(Path("OpenQA-eval"), outputs={"NQ301_B.jsonl": lines,
                                                             "NQ301_C.jsonl": "{\n"})
    assert faults(checkout) == [
        f"{OUT}/NQ301_B.jsonl: line 3: expected a JSON object, got [1]",
        f'{OUT}/NQ301_B.jsonl: line 4: answer: expected a list of strings, one not blank, got "x"',
        f'{OUT}/NQ301_B.jsonl: line 5: expected a JSON object, got "s"',
        f"{OUT}/NQ301_C.jsonl: line 1: not valid JSON (Expecting property name enclosed in "
        "double quotes at column 2)"]


# --- the probes, on the real files ----------------------------------------------------
def real_faults(name: str, edit) -> list[str]:
    """The faults of the cut-down real checkout with ``data/<name>`` edited by ``edit``."""
    checkout = real_checkout(Path("OpenQA-eval"))
    path = checkout / "data" / name
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return faults(checkout)


def _quote_row_10(text: str) -> str:
    lines = text.split("\n")
    fields = lines[10].split("\t")
    lines[10] = "\t".join(fields[:-1] + ['"' + fields[-1]])
    return "\n".join(lines)


@needs_data
def test_real_gpt4_file_with_a_quote_opened_in_row_10_is_refused():
    """Before: 1,475 of the 1,490 GPT-4 verdicts written, exit 0."""
    assert real_faults("NQ301_gpt-4.tsv", _quote_row_10) == [  # the 15 rows it swallowed
        f"{GPT4}: line 11: unterminated quoted field: the quote opened here is not closed on "
        "its line, so lines 12-26 would be part of this field (a row of this file is one line)"]


@needs_data
def test_real_human_file_with_a_row_appended_is_refused():
    """Before: the appended row's verdicts were lost (its fields glued to the last row's:
    the real file ends without a newline)."""
    found = real_faults("NQ301_human.tsv", lambda text: text + text.split("\n")[-1])
    assert found == [f"{HUMAN}: line 1491: expected 7 fields as in the header, got 13"]
