"""The paper's tables as text: CSV (the package's dialect, :mod:`recallscore_nb.core.csvtext`),
Markdown and LaTeX, the same bytes on every run.

>>> import pandas as pd
>>> texts = table_texts(pd.DataFrame({"id": ["R01"], "ok": [True]}), ["signature: x"])
>>> list(texts), texts["csv"]
(['csv', 'md', 'tex'], 'id,ok\\nR01,true\\n')
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import pandas as pd

from ..core.csvtext import csv_text

__all__ = ["table_texts", "markdown_text", "latex_text", "latex_escape", "display_frame",
           "wrapped", "LATEX_LINE", "LATEX_HEAD"]


# --- Markdown and LaTeX, for the paper --------------------------------------------------
_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}",
}
_LATEX_UNICODE = {
    "\u00a0": "~", "\u2018": "`", "\u2019": "'", "\u201c": "``", "\u201d": "''",
    "\u2013": "--", "\u2014": "---", "\u2026": r"\ldots{}", "\u2022": r"\textbullet{}",
    "\u00d7": r"\texttimes{}", "\u2212": r"\textminus{}", "\u2192": r"\textrightarrow{}",
    "\u2190": r"\textleftarrow{}", "\u2264": r"\ensuremath{\leq}", "\u2265": r"\ensuremath{\geq}",
    "\u00b1": r"\textpm{}", "\u00b0": r"\textdegree{}", "\u00b5": r"\textmu{}",
    "\u00b7": r"\textperiodcentered{}", "\u00a7": r"\S{}", "\u00b6": r"\P{}",
    "\u00a9": r"\textcopyright{}", "\u20ac": r"\texteuro{}", "\u00a3": r"\pounds{}",
    "\u00df": r"\ss{}", "\u00e6": r"\ae{}", "\u00c6": r"\AE{}", "\u00f8": r"\o{}",
    "\u00d8": r"\O{}", "\u0153": r"\oe{}", "\u0152": r"\OE{}", "\u0142": r"\l{}",
    "\u0141": r"\L{}", "\u0131": r"\i{}", "\u00a1": r"\textexclamdown{}",
    "\u00bf": r"\textquestiondown{}", "\u2713": r"\ensuremath{\surd}",
}
"""Characters outside ASCII that pdfLaTeX prints with the kernel's own commands (no package)."""
_LATEX_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~",
                  "\u0327": "c", "\u030c": "v", "\u0304": "=", "\u0306": "u", "\u030a": "r",
                  "\u030b": "H", "\u0307": "."}
"""Combining accents as the kernel's accent commands (``é`` is ``e`` then U+0301: ``\\'{e}``)."""


def _latex_char(char: str) -> str:
    r"""One character (NFC) as pdfLaTeX prints it: ASCII as is or escaped, known characters
    by their command, a letter with accents by accent commands, anything else by its code
    point (``<U+4E2D>``), so that no text breaks a table.

    >>> _latex_char("é"), _latex_char("中")
    ("\\'{e}", '\\textless{}U+4E2D\\textgreater{}')
    """
    if char in _LATEX_SPECIALS:
        return _LATEX_SPECIALS[char]
    if char.isascii() and (char.isprintable() or char in "\t\n"):
        return " " if char in "\t\n" else char
    if char in _LATEX_UNICODE:
        return _LATEX_UNICODE[char]
    base, *marks = unicodedata.normalize("NFD", char)
    if base.isascii() and base.isalpha() and marks and all(m in _LATEX_ACCENTS for m in marks):
        text = "\\i" if base == "i" else base
        for mark in marks:
            text = f"\\{_LATEX_ACCENTS[mark]}{{{text}}}"
        return text
    return rf"\textless{{}}U+{ord(char):04X}\textgreater{{}}"


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters, and any character outside ASCII, so that the text
    prints with pdfLaTeX and no package beyond booktabs (see :func:`_latex_char`).

    >>> latex_escape("50% of R&D_x | y")
    '50\\% of R\\&D\\_x \\textbar{} y'
    >>> latex_escape("Café — 5 °C")
    "Caf\\'{e} --- 5 \\textdegree{}C"
    """
    return "".join(_latex_char(ch) for ch in unicodedata.normalize("NFC", text))


def _display_cell(value, float_format: str) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (float, np.floating)):
        return format(float(value), float_format)
    return str(value)


def display_frame(frame: pd.DataFrame, float_format: str = ".3f") -> pd.DataFrame:
    """Every cell as text: booleans true/false, floats with a fixed format, missing empty."""
    return frame.apply(lambda col: col.map(lambda v: _display_cell(v, float_format))).astype(object)


def markdown_text(frame: pd.DataFrame, footer: list[str] = (), float_format: str = ".3f") -> str:
    """A Markdown table (tabulate's pipe format), then the footer lines."""
    cells = display_frame(frame, float_format).map(lambda v: v.replace("|", "\\|"))
    text = cells.to_markdown(index=False, disable_numparse=True)
    notes = "".join(f"\n{line}  " for line in footer)
    return text + "\n" + ("\n" + notes.lstrip("\n") + "\n" if footer else "")


LATEX_LINE = 40
"""The longest line of a LaTeX cell: a longer text is set on several lines (:func:`wrapped`)."""
LATEX_HEAD = "\\providecommand{\\rshead}[1]{#1}\n"
"""The first line of every LaTeX table: each column's header is ``\\rshead{...}``, which a
document may redefine (the paper turns the headers of its widest tables upright)."""
_BREAK_AFTER = re.compile(r"(?<=[|,;/ ])")


def wrapped(text: str, width: int = LATEX_LINE) -> list[str]:
    """``text`` in lines of at most ``width`` characters where it can break: after a space, a
    "|", a comma, a semicolon or a slash (a piece longer than a line is a line of its own).

    >>> wrapped("normalizer|name:seed|lowercase:yes|punctuation:yes", 24)
    ['normalizer|name:seed|', 'lowercase:yes|', 'punctuation:yes']
    >>> wrapped("short")
    ['short']
    """
    lines = [""]
    for piece in _BREAK_AFTER.split(text):
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > width:
            lines[-1] = lines[-1].rstrip()
            lines.append("")
        lines[-1] += piece
    return [line.rstrip() if k < len(lines) - 1 else line for k, line in enumerate(lines)]


def _latex_cell(text: str) -> str:
    """A cell escaped; a text longer than :data:`LATEX_LINE` set on its lines, in a nested
    tabular (plain LaTeX, no package)."""
    lines = wrapped(text) if len(text) > LATEX_LINE else [text]
    if len(lines) == 1:
        return latex_escape(text)
    inner = "\\\\".join(latex_escape(line) for line in lines)
    return f"\\begin{{tabular}}[t]{{@{{}}l@{{}}}}{inner}\\end{{tabular}}"


def latex_text(frame: pd.DataFrame, footer: list[str] = (), float_format: str = ".3f") -> str:
    """A booktabs LaTeX tabular with special characters escaped, each header in ``\\rshead``
    (:data:`LATEX_HEAD`) and a long text on several lines (:func:`wrapped`); the footer as
    comments."""
    cells = display_frame(frame, float_format).map(_latex_cell)
    cells.columns = [f"\\rshead{{{latex_escape(str(c))}}}" for c in frame.columns]
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) and not
                    pd.api.types.is_bool_dtype(frame[c]) else "l" for c in frame.columns)
    body = cells.to_latex(index=False, escape=False, column_format=align)
    return LATEX_HEAD + body + "".join(f"% {line}\n" for line in footer)


def table_texts(frame: pd.DataFrame, footer: list[str] = (), float_format: str = ".3f"
                ) -> dict[str, str]:
    """The table as ``csv`` (no footer, so ``read_csv`` reads it back), ``md`` and ``tex`` (with
    the footer), keyed by extension, in that order."""
    return {
        "csv": csv_text(frame),
        "md": markdown_text(frame, list(footer), float_format),
        "tex": latex_text(frame, list(footer), float_format),
    }
