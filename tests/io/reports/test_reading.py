"""Reading a stored report and comparing it with a fresh one: the whole document parsed and
its header checked, the header alone read from the end of a laid-out report, the bytes
compared alongside a rendering, and each differing value named by its JSON path."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from recallscore_nb.core.errors import ReportFormatError
from recallscore_nb.io.reports import Report
from recallscore_nb.io.reports.reading import (differences, laid_out_header, opened,
                                               read_report, report_differences, same_bytes)

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_differences_name_each_value_by_its_json_path():
    assert list(differences({"a": [1, 2], "b": 1.0}, {"a": [1], "b": 1})) == [
        "$.a[1]: stored 2, recomputed absent", "$.b: stored 1.0, recomputed 1"]
    assert list(differences({"é": "x" * 100}, {"é": "y"}))[0].startswith('$.é: stored "xxx')
    assert list(differences([], [])) == []


def test_read_report_reads_the_shipped_report_and_refuses_what_is_not_one(shipped):
    document, text, folder = shipped
    assert read_report(folder / "r.json") == document
    Path("not.json").write_text('{"status": "ok"}')
    with pytest.raises(ReportFormatError, match="not a recallscore report"):
        read_report("not.json")
    with pytest.raises(ReportFormatError):
        read_report("missing.json")


def test_the_header_of_a_laid_out_report_is_read_from_its_end(shipped):
    document, text, folder = shipped
    with opened(str(folder / "r.json")) as file:
        header = laid_out_header(file, "r.json")
        assert header == {k: v for k, v in document.items() if k != "attempts"}
        assert same_bytes(file, [text])
        assert not same_bytes(file, [text[:-1]])
        assert not same_bytes(file, [text, " "])
    Path("other.json").write_text(json.dumps(document))  # one line: laid out otherwise
    with opened("other.json") as file:
        assert laid_out_header(file, "other.json") is None


def test_report_differences_parse_the_fresh_attempts_a_chunk_at_a_time():
    fresh = Report({"status": "ok", "n": 2},
                   attempts=lambda: iter([['    {"v": 1}'], ['    {"v": 2}']]))
    stored = {"status": "ok", "n": 2, "attempts": [{"v": 1}, {"v": 3}, {"v": 4}]}
    assert list(report_differences(stored, fresh)) == [
        "$.attempts[1].v: stored 3, recomputed 2", '$.attempts[2]: stored {"v": 4}, recomputed absent']
    assert list(report_differences({**stored, "attempts": [{"v": 1}, {"v": 2}]}, fresh)) == []
    assert list(report_differences({**stored, "attempts": None}, fresh)) == [
        '$.attempts: stored null, recomputed [{"v": 1}, {"v": 2}]']


def test_same_bytes_reads_no_further_than_the_first_piece_that_differs():
    file = io.BytesIO("é1234".encode())
    assert same_bytes(file, ["é", "12", "34"])
    assert not same_bytes(file, ["x", "never read"]) and file.tell() == 1
