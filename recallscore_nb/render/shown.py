"""What an executed notebook shows a reader: tables as the paper prints them, and the sentence
that says what each result shows.

pandas shows a table with its 0..n index, six decimals (0.791667) where the paper prints
three, long text squeezed into one line, and more than 60 rows cut to 10 with "…". A
:class:`ShownTable` shows every cell as the Markdown and LaTeX tables do
(:func:`~recallscore_nb.render.tables.display_frame`: three decimals, true/false, empty for
missing), without an index, long text wrapped, and every row (a long table in a view that
scrolls, never cut). Jupyter shows it as HTML, a plain-text reader (or a terminal) as text.
A :class:`Note` is a sentence or a short list composed from computed values, shown as
Markdown below a result.

>>> import pandas as pd
>>> print(ShownTable(pd.DataFrame({"rule": ["literal"], "mean": [0.7916667]})))
rule       mean
-------  ------
literal   0.792
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass

import pandas as pd

from .tables import display_frame

__all__ = ["ShownTable", "Note", "SCROLL_ROWS", "WRAP_CHARACTERS"]

SCROLL_ROWS = 25
"""Tables longer than this are shown in a view that scrolls (every row is there)."""
WRAP_CHARACTERS = 48
"""Text longer than this wraps: at this width in plain text, in a wider column in HTML."""


def _numeric(frame: pd.DataFrame) -> list[bool]:
    return [pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
            for c in frame.columns]


@dataclass(frozen=True)
class ShownTable:
    """A table as the paper shows it (see the module docstring); ``float_format`` as the
    table's files use it."""

    frame: pd.DataFrame
    float_format: str = ".3f"

    def _cells(self) -> pd.DataFrame:
        return display_frame(self.frame, self.float_format)

    def __repr__(self) -> str:
        from tabulate import tabulate

        cells = self._cells()
        wide = [None if numeric else WRAP_CHARACTERS for numeric in _numeric(self.frame)]
        return tabulate(cells.values.tolist(), headers=[str(c) for c in cells.columns],
                        disable_numparse=True, maxcolwidths=wide or None,
                        colalign=["right" if n else "left" for n in _numeric(self.frame)] or None)

    def _repr_html_(self) -> str:
        cells, numeric = self._cells(), _numeric(self.frame)
        long = {c for c in cells.columns if cells[c].map(len).max() > WRAP_CHARACTERS} \
            if len(cells) else set()

        def cell(tag: str, text: str, column, is_numeric: bool) -> str:
            style = ["text-align: right" if is_numeric else "text-align: left"]
            if column in long:
                style.append("white-space: normal; min-width: 16em; max-width: 32em")
            return f'<{tag} style="{"; ".join(style)}">{html.escape(text)}</{tag}>'

        head = "".join(cell("th", str(c), c, n) for c, n in zip(cells.columns, numeric))
        rows = "".join("<tr>" + "".join(cell("td", v, c, n) for v, c, n in
                                         zip(row, cells.columns, numeric)) + "</tr>\n"
                       for row in cells.itertuples(index=False))
        table = f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>"
        if len(cells) > SCROLL_ROWS:
            table = (f'<div style="max-height: 36em; overflow: auto">\n{table}\n</div>\n'
                     f"<p>{len(cells)} rows, all shown (scroll)</p>")
        return table


@dataclass(frozen=True)
class Note:
    """What a result shows, in words composed from its values: a sentence, or a heading and
    a short list (``lines``), shown as Markdown.

    >>> Note("What this notebook found", ("one", "two"))._repr_markdown_()
    '**What this notebook found**\\n\\n- one\\n- two\\n'
    """

    text: str
    lines: tuple[str, ...] = ()

    def _repr_markdown_(self) -> str:
        if not self.lines:
            return self.text + "\n"
        return f"**{self.text}**\n\n" + "".join(f"- {line}\n" for line in self.lines)

    def __repr__(self) -> str:
        if not self.lines:
            return textwrap.fill(self.text, 96)
        return "\n".join([self.text + ":", *(textwrap.fill(line, 96, initial_indent="- ",
                                                           subsequent_indent="  ")
                                             for line in self.lines)])
