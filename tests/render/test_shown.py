"""Tables as an executed notebook shows them: as the paper prints them (three decimals, no
index, true/false), long text wrapped, every row; and notes as Markdown."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.render.shown import SCROLL_ROWS, WRAP_CHARACTERS, Note, ShownTable

LONG = "The copper token goes in the west drawer before the museum opens, as agreed."
FRAME = pd.DataFrame({"system": ["sys-a", "sys-b"], "mean": [0.7916666666, 1 / 3],
                      "ok": [True, False], "attempt": [LONG, "short"]})


def test_plain_text_has_three_decimals_no_index_and_wraps_long_text():
    """Failure 5 of issue 21: pandas showed 0.791667, a 0..n index, and squeezed text."""
    text = repr(ShownTable(FRAME))
    lines = text.splitlines()
    assert lines[0].split() == ["system", "mean", "ok", "attempt"]
    assert "0.792" in text and "0.333" in text and "0.791667" not in text
    assert "true" in text and "True" not in text
    assert not any(line.startswith(("0 ", "1 ")) for line in lines)
    assert all(len(line) <= 80 for line in lines) and "museum" in text


def test_html_shows_every_row_of_a_long_table_in_a_view_that_scrolls():
    """Failure 5 of issue 21: 05's 72-row intervals table was cut to 10 rows with an ellipsis."""
    long = pd.DataFrame({"rule": [f"r{i}" for i in range(70)], "mean": [i / 70 for i in range(70)]})
    html = ShownTable(long)._repr_html_()
    assert html.count("<tr>") == 71 and "r69" in html and "…" not in html
    assert "overflow: auto" in html and "70 rows, all shown" in html
    assert "overflow" not in ShownTable(long.head(SCROLL_ROWS))._repr_html_()


def test_html_wraps_long_text_escapes_and_aligns_numbers_right():
    html = ShownTable(pd.DataFrame({"name": ["<b>&</b>"], "attempt": [LONG], "n": [2]}))._repr_html_()
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in html
    assert len(LONG) > WRAP_CHARACTERS and "white-space: normal" in html
    assert '<td style="text-align: right">2</td>' in html


def test_a_note_is_a_sentence_or_a_heading_and_a_list():
    assert Note("It says so.")._repr_markdown_() == "It says so.\n"
    assert repr(Note("Found", ("one", "two"))) == "Found:\n- one\n- two"
