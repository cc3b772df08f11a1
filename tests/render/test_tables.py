"""The paper's tables as text: CSV, Markdown and LaTeX, footers and special characters."""

from __future__ import annotations

import pandas as pd

from recallscore_nb.render.tables import (LATEX_HEAD, LATEX_LINE, latex_escape, latex_text,
                                          markdown_text, table_texts, wrapped)

FRAME = pd.DataFrame({"rule": ["a|b", "50%_x"], "ok": [True, False], "mean": [2 / 3, None]})


def test_markdown_escapes_pipes_and_ends_with_the_footer():
    text = markdown_text(FRAME, ["signature: s"])
    assert text.splitlines()[2:4] == ["| a\\|b   | true  | 0.667  |",
                                     "| 50%_x  | false |        |"]
    assert text.endswith("\n\nsignature: s  \n")


def test_latex_escapes_and_aligns_numbers_right():
    text = latex_text(FRAME, ["signature: s"])
    assert "\\begin{tabular}{llr}" in text
    assert "a\\textbar{}b & true & 0.667" in text and "50\\%\\_x & false &" in text
    assert text.endswith("\\end{tabular}\n% signature: s\n")
    assert latex_escape("~^<>") == "\\textasciitilde{}\\textasciicircum{}\\textless{}\\textgreater{}"


def test_table_texts_keys_and_the_csv_without_footer():
    texts = table_texts(FRAME, ["signature: s"], float_format=".1f")
    assert list(texts) == ["csv", "md", "tex"]
    assert texts["csv"] == "rule,ok,mean\na|b,true,0.6666666666666666\n50%_x,false,\n"
    assert "0.7" in texts["md"] and "signature: s" not in texts["csv"]


def test_latex_headers_are_hooks_and_long_cells_wrap_at_their_separators():
    """Issue 30: a document may turn the headers (``\\rshead``), and a signature cell is set
    on lines of at most :data:`LATEX_LINE` characters instead of widening its table."""
    signature = "normalizer|name:seed|lowercase:yes|punctuation:yes|whitespace:yes|articles:no"
    text = latex_text(pd.DataFrame({"a_b": [signature, "short"]}))
    assert text.startswith(LATEX_HEAD) and "\\rshead{a\\_b} \\\\" in text
    lines = wrapped(signature)
    assert "".join(lines) == signature and max(map(len, lines)) <= LATEX_LINE
    assert all(line.endswith("|") for line in lines[:-1])
    assert "\\begin{tabular}[t]{@{}l@{}}normalizer\\textbar{}" in text
    assert "short \\\\" in text  # a short cell as it is
    assert wrapped("x" * 60) == ["x" * 60]  # no place to break: one line
    assert wrapped("a, b c", 3) == ["a,", "b c"]

