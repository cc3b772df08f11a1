"""``recallscore convert evouna`` on broken sources (issue 22): every record checked for
shape and type, every fault named by its JSON path and field and all of them reported,
nothing written; a verdict that is not one is refused, never read as no judgment; a file
where no answer is judged is refused, never converted to an empty set.

Every test runs in ``tmp_path``: messages name the file as given (``NQ.json``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.converters import convert_evouna
from tests.conftest import run_cli
from tests.convert_fixtures import EVOUNA_RECORD

pytestmark = pytest.mark.usefixtures("in_tmp")

VERDICT = ('true, false, null, "nan" or the words Yes, No, True or False (any case), or empty '
           "for no judgment")


def faults(content: bytes, name: str = "NQ.json") -> list[str]:
    """Every fault the conversion of ``content`` (written to ``name``) raises; it must
    write nothing."""
    Path(name).write_bytes(content)
    with pytest.raises(InputFileError) as info:
        convert_evouna(name, "out")
    assert not Path("out").exists()
    return [str(e) for e in info.value.errors]


def records(*changes: dict) -> bytes:
    """Two good records, the second changed by each of ``changes`` (... deletes a key)."""
    second = dict(EVOUNA_RECORD)
    for change in changes:
        second.update(change)
    second = {k: v for k, v in second.items() if v is not ...}
    return json.dumps([EVOUNA_RECORD, second]).encode()


@pytest.mark.parametrize(("change", "expected"), [
    pytest.param({"judge_fid": "maybe"}, f'judge_fid: expected {VERDICT}, got "maybe"',
                 id="maybe"),
    pytest.param({"judge_gpt4": "Maybe"}, f'judge_gpt4: expected {VERDICT}, got "Maybe"',
                 id="Maybe"),
    pytest.param({"judge_fid": 2}, f"judge_fid: expected {VERDICT}, got 2", id="2"),
    pytest.param({"judge_fid": ...}, f"judge_fid: expected {VERDICT}, got nothing",
                 id="no verdict key"),
    pytest.param({"question": ...}, "question: expected a string, got nothing", id="no question"),
    pytest.param({"question": 5}, "question: expected a string, got 5", id="question a number"),
    pytest.param({"golden_answer": ["a", "b"]}, 'golden_answer: expected a string or null, got '
                 '["a", "b"]', id="golden answer a list"),
    pytest.param({"answer_newbing": 3}, "answer_newbing: expected a string or null, got 3",
                 id="answer a number"),
    pytest.param({"improper": "no"}, 'improper: expected true or false, got "no"',
                 id="improper a string"),
    pytest.param({"improper": ...}, "improper: expected true or false, got nothing",
                 id="no improper"),
])
def test_record_faults_are_named(change, expected):
    assert faults(records(change)) == [f"NQ.json: $[1]: {expected}"]


def test_every_fault_is_reported():
    content = json.dumps([EVOUNA_RECORD, "text", [1], {**EVOUNA_RECORD, "judge_fid": "Maybe",
                                                     "answer_fid": 1.5}]).encode()
    assert faults(content) == [
        'NQ.json: $[1]: expected an object, got "text"',
        "NQ.json: $[2]: expected an object, got [1]",
        "NQ.json: $[3]: answer_fid: expected a string or null, got 1.5",
        f'NQ.json: $[3]: judge_fid: expected {VERDICT}, got "Maybe"']


def test_an_improper_question_needs_no_answers_but_what_it_has_is_checked():
    improper = {"question": "bad", "golden_answer": None, "improper": True}
    content = json.dumps([EVOUNA_RECORD, improper, {**improper, "judge_fid": "maybe"}])
    assert faults(content.encode()) == [f'NQ.json: $[2]: judge_fid: expected {VERDICT}, got '
                                        '"maybe"']


@pytest.mark.parametrize(("content", "name", "expected"), [
    pytest.param(b"", "NQ.json", "line 1 column 1: not valid JSON: Expecting value",
                 id="empty file"),
    pytest.param(b'{"a": 1}', "NQ.json", '$: expected a JSON list of questions, got {"a": 1}',
                 id="an object"),
    pytest.param(gzip.compress(b"[]")[:-6], "NQ.json.gz", "not a readable gzip file (Compressed "
                 "file ended before the end-of-stream marker was reached)",
                 id="corrupted gzip named .gz"),
    pytest.param(gzip.compress(b"[]")[:10] + b"\xff" * 10, "NQ.json", "not a readable gzip "
                 "file (Error -3 while decompressing data: invalid block type)",
                 id="corrupted gzip named .json"),
    pytest.param(records({"question": "caf\xe9"}).replace(b"\\u00e9", b"\xe9"), "NQ.json",
                 "line 1: not UTF-8 text (byte 0xe9 at offset 323); save it as UTF-8",
                 id="latin-1"),
    pytest.param(records().decode().encode("utf-16"), "NQ.json", "UTF-16 text (it starts with "
                 "a UTF-16 byte-order mark); save it as UTF-8", id="utf-16"),
    pytest.param(b"[" * 600 + b"]" * 600, "NQ.json", "line 1 column 513: nested more than 512 "
                 "levels deep (the limit)", id="deep"),
    pytest.param(records({"question": 7}).replace(b'"question": 7', b'"question": ' +
                                                  b"7" * 5000), "NQ.json",
                 "$[1]: question: expected an integer from -2**63 to 2**63-1 (a larger number "
                 "needs an exponent), got 7777777777777777777777777777777777777777... (5000 "
                 "digits)", id="5000-digit integer"),
    pytest.param(records({"answer_fid": "x"}).replace(b'"answer_fid": "x"',
                                                      b'"answer_fid": "\\udc00"'), "NQ.json",
                 "$[1]: answer_fid: contains a lone surrogate (\\udc00): not Unicode text",
                 id="lone surrogate"),
    pytest.param(b'[{"question": NaN}]', "NQ.json", "$[0]: question: expected a finite number, "
                 "got NaN", id="NaN"),
])
def test_file_faults_are_named(content, name, expected):
    assert faults(content, name) == [f"{name}: {expected}"]


def test_a_byte_order_mark_and_gzip_under_any_name_are_read():
    Path("plain.json").write_bytes(b"\xef\xbb\xbf" + records())
    Path("zipped.json").write_bytes(gzip.compress(records()))
    assert convert_evouna("plain.json", "a")[0] == convert_evouna("zipped.json", "b")[0] == (
        "kept 2 items, 10 attempts from 5 systems, 10 verdicts by human (0 attempts without one)")
    assert Path("a/judgments.csv").read_bytes().replace(b"plain", b"zipped") == \
        Path("b/judgments.csv").read_bytes()


# --- nothing judged: refused, not an empty set ---------------------------------------------
IMPROPER = {"question": "bad", "golden_answer": None, "improper": True}


@pytest.mark.parametrize(("content", "found"), [
    pytest.param([], "an empty list", id="empty list"),
    pytest.param([IMPROPER, IMPROPER], "2 questions: 2 improper and 0 without a golden answer, "
                 "left out; 0 answers without a verdict, 0 null answers nobody judged",
                 id="only improper questions"),
    pytest.param([IMPROPER, {**EVOUNA_RECORD, "golden_answer": " / "}],
                 "2 questions: 1 improper and 1 without a golden answer, left out; 0 answers "
                 "without a verdict, 0 null answers nobody judged", id="no golden answer left"),
    pytest.param([{**EVOUNA_RECORD, **{f"judge_{s}": "nan" for s in ("fid", "gpt35", "chatgpt")},
                   **{f"judge_{s}": None for s in ("gpt4", "newbing")},
                   "answer_newbing": None}],
                 "1 questions: 0 improper and 0 without a golden answer, left out; 4 answers "
                 "without a verdict, 1 null answers nobody judged", id="no verdict given"),
])
def test_a_file_with_no_judged_answer_is_exit_2_not_an_empty_set(capsys, content, found):
    Path("NQ.json").write_text(json.dumps(content))
    code, out, err = run_cli(capsys, "convert", "evouna", "NQ.json", "--out-dir", "out")
    assert (code, out) == (2, "")
    assert err == f"recallscore: error: no judged answer in NQ.json ({found}): nothing to convert\n"
    assert not Path("out").exists()


def test_no_judged_answer_is_a_usage_error_and_one_judged_answer_is_enough():
    Path("none.json.gz").write_bytes(gzip.compress(json.dumps([IMPROPER]).encode()))
    with pytest.raises(UsageError, match=r"^no judged answer in none\.json\.gz \(1 questions"):
        convert_evouna("none.json.gz", "out")
    assert not Path("out").exists()
    one = {**EVOUNA_RECORD, **{f"judge_{s}": None for s in ("fid", "gpt35", "chatgpt", "gpt4")}}
    Path("one.json").write_text(json.dumps([IMPROPER, one]))
    assert convert_evouna("one.json", "out")[0] == (
        "kept 1 items, 5 attempts from 5 systems, 1 verdicts by human (4 attempts without one)")
