"""SQuAD's own files: datasets and predictions read and validated as the official scripts read
them, every fault named by file, JSON path and field."""

from __future__ import annotations

import copy
import json

import pytest

from recallscore_nb.core.errors import InputFileError
from recallscore_nb.io.squad_files import (
    parse_predictions,
    parse_squad_dataset,
    read_predictions,
    read_squad_dataset,
)
from tests.oracles import squad_official_port as official
from tests.squad_fixtures import (
    V11,
    V11_PREDICTIONS,
    dataset as _dataset,
    qa as _qa,
    write as _write,
)


# --- reading and validating --------------------------------------------------------------
def _broken(edit):
    data = copy.deepcopy(V11)
    edit(data)
    return data


def _qa_of(data, a, p, q):
    return data["data"][a]["paragraphs"][p]["qas"][q]


@pytest.mark.parametrize("data, location, field, message", [
    ([], "$", "", "expected an object with a 'data' array, got []"),
    ({"version": "1.1"}, "$", "data", "missing (expected an array of articles)"),
    (_broken(lambda d: d.update(version=1.1)), "$", "version", "expected a string, got 1.1"),
    (_broken(lambda d: d["data"].append("article")), "$", "data[2]",
     'expected an article object, got "article"'),
    (_broken(lambda d: d["data"][1].pop("paragraphs")), "$.data[1]", "paragraphs",
     "missing (expected an array of paragraphs)"),
    (_broken(lambda d: d["data"][0]["paragraphs"][1].update(qas={})), "$.data[0].paragraphs[1]",
     "qas", "expected an array of questions, got {}"),
    (_broken(lambda d: _qa_of(d, 0, 1, 2).update(answers=None)),
     "$.data[0].paragraphs[1].qas[2]", "answers", "expected an array of answer objects, got null"),
    (_broken(lambda d: _qa_of(d, 1, 1, 0).pop("id")), "$.data[1].paragraphs[1].qas[0]", "id",
     "missing (expected a string)"),
    (_broken(lambda d: _qa_of(d, 1, 1, 0).update(id=7)), "$.data[1].paragraphs[1].qas[0]", "id",
     "expected a string, got 7"),
    (_broken(lambda d: _qa_of(d, 1, 1, 1)["answers"][2].update(text=["Levi's"])),
     "$.data[1].paragraphs[1].qas[1].answers[2]", "text", """expected a string, got ["Levi's"]"""),
    (_broken(lambda d: _qa_of(d, 1, 1, 1)["answers"].insert(1, "Levi's")),
     "$.data[1].paragraphs[1].qas[1]", "answers[1]",
     """expected an answer object, got "Levi's\""""),
    (_broken(lambda d: _qa_of(d, 1, 0, 1).update(id="q2")), "$.data[1].paragraphs[0].qas[1]",
     "id", "duplicate question id 'q2', first at $.data[0].paragraphs[0].qas[1] (the official "
           "scripts key scores by id)"),
    ({"version": "1.1", "data": [{"paragraphs": [{"qas": []}]}]}, "$", "data",
     "holds no question (the official scripts divide by the number of questions)"),
])
def test_dataset_errors_name_file_path_and_field(tmp_path, data, location, field, message):
    path = _write(tmp_path, "dev.json", data)
    with pytest.raises(InputFileError) as caught:
        read_squad_dataset(path)
    err = caught.value
    assert (err.file, err.location, err.field, err.message) == (path, location, field, message)
    assert str(err) == ": ".join(p for p in (path, location, field, message) if p)


def test_dataset_errors_are_all_collected():
    def edit(d):
        _qa_of(d, 0, 0, 0)["answers"] = None
        _qa_of(d, 1, 1, 3)["id"] = None
    with pytest.raises(InputFileError) as caught:
        parse_squad_dataset(_broken(edit), "dev.json")
    assert [(e.location, e.field) for e in caught.value.errors] == [
        ("$.data[0].paragraphs[0].qas[0]", "answers"), ("$.data[1].paragraphs[1].qas[3]", "id")]


def test_dataset_reads_in_file_order():
    dataset = parse_squad_dataset(V11, "dev.json")
    assert dataset.qids == tuple(f"q{i}" for i in range(1, 12))
    assert dataset.answers[8][1] == "Levi's Stadium"
    assert dataset.location(4) == "$.data[0].paragraphs[1].qas[2]"
    assert dataset.version == "1.1" and len(dataset) == 11


@pytest.mark.parametrize("text, location, field, message", [
    ('{"q1": "a", "q2": null}', "$", "q2", "expected a string, got null"),
    ('{"q1": "a", "q 2": {"text": "b"}}', "$", "q 2", 'expected a string, got {"text": "b"}'),
    ('{"q1": "a", "q1": "b"}', "$", "q1", "duplicate key"),
    ('["a", "b"]', "$", "", 'expected an object mapping question ids to answer strings, '
                            'got ["a", "b"]'),
    ('{"q1": "a",}', "line 1 column 12", "", "not valid JSON: Expecting property name enclosed "
                                             "in double quotes"),
])
def test_prediction_errors(tmp_path, text, location, field, message):
    path = _write(tmp_path, "pred.json", text)
    with pytest.raises(InputFileError) as caught:
        read_predictions(path)
    err = caught.value
    assert (err.file, err.location, err.field, err.message) == (path, location, field, message)


def test_predictions_read_as_a_mapping(tmp_path):
    predictions = read_predictions(_write(tmp_path, "pred.json", V11_PREDICTIONS))
    assert dict(predictions) == V11_PREDICTIONS
    assert predictions.path.endswith("pred.json")
    assert parse_predictions({}, "p.json").answers == {}


def test_unreadable_files(tmp_path):
    with pytest.raises(InputFileError, match="no such file"):
        read_squad_dataset(tmp_path / "absent.json")
    path = tmp_path / "latin1.json"
    path.write_bytes('{"q1": "Ça"}'.encode("latin-1"))
    with pytest.raises(InputFileError) as caught:
        read_predictions(path)
    assert (caught.value.location, caught.value.message) == ("byte 8", "not UTF-8 text (byte 0xc7)")


# --- issue 12: no-answer probability files -------------------------------------------------
def test_na_prob_files_are_read_and_checked(tmp_path):
    from recallscore_nb.io.squad_files import read_na_probs

    good = tmp_path / "na.json"
    good.write_text('{"q2": 0.5, "q1": 1}', encoding="utf-8")
    assert list(read_na_probs(good).items()) == [("q2", 0.5), ("q1", 1)]
    bad = tmp_path / "bad.json"
    bad.write_text('{"q1": "0.5", "q2": true}', encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        read_na_probs(bad)
    assert [(e.field, e.expected, e.got) for e in info.value.errors] == [
        ("q1", "a number", '"0.5"'), ("q2", "a number", "true")]
