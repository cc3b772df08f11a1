"""The strict readers of ``recallscore convert``'s sources (issue 22): a TSV read as these
files always were (a quote opens a quoted field only at a field's start), one row a line."""

from __future__ import annotations

from pathlib import Path

import pytest

from recallscore_nb.io.converters.sources import Faults, read_tsv, verdict_word

pytestmark = pytest.mark.usefixtures("in_tmp")


def read(text: str, **kwargs):
    Path("t.tsv").write_text(text, encoding="utf-8")
    faults = Faults()
    at, rows = read_tsv(Path("t.tsv"), ("a", "b"), faults, **kwargs)
    return at, rows, [str(e) for e in faults.errors]


def test_rows_are_read_as_before_quotes_inside_a_field_kept():
    """The CSV reading of the TSV files that quote (NQ301_BEM.tsv): quotes that open a field
    close it, quotes inside a field are kept, never refused. (NQ301_human.tsv, which does
    not quote, is read verbatim: ``read_tsv(..., verbatim=True)``.)"""
    text = 'a\tb\n"x y" z\tSteven "Steve" K\n"q\tr"\t""\n\n'
    assert read(text) == ({"a": 0, "b": 1}, [(2, ["x y z", 'Steven "Steve" K']),
                                             (3, ["q\tr", ""])], [])


def test_a_row_one_field_short_is_read_only_where_a_tab_may_be_lost():
    assert read("a\tb\nx\n", lost_tab=True)[1] == [(2, ["x"])]
    assert read("a\tb\nx\n")[2] == ["t.tsv: line 2: expected 2 fields as in the header, got 1"]


def test_a_quote_open_in_the_header_is_named_and_nothing_is_read():
    assert read('a\t"b\nx\ty') == ({}, [], [
        "t.tsv: line 1: unterminated quoted field: the quote opened here is never closed, so "
        "every later line would be part of this field"])


def test_crlf_line_ends_are_read():
    assert read("a\tb\r\nx\ty\r\n")[1] == [(2, ["x", "y"])]


@pytest.mark.parametrize(("value", "verdict"), [
    ("Yes", "true"), ("NO", "false"), (" true ", "true"), ("False", "false"), (True, "true"),
    ("", ""), ("  ", ""), (None, ""), ("Maybe", None), ("nan", None), (0, None), ([], None)])
def test_verdict_words(value, verdict):
    assert verdict_word(value) == verdict
