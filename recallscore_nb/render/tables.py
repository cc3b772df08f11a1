"""The paper's tables as text: CSV (the package's dialect, :mod:`recallscore_nb.core.csvtext`),
Markdown and LaTeX, the same bytes on every run.

>>> import pandas as pd
>>> texts = table_texts(pd.DataFrame({"id": ["R01"], "ok": [True]}), ["signature: x"])
>>> list(texts), texts["csv"]
(['csv', 'md', 'tex'], 'id,ok\\nR01,true\\n')
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.csvtext import csv_text

__all__ = ["table_texts", "markdown_text", "latex_text", "latex_escape", "display_frame"]


# --- Markdown and LaTeX, for the paper --------------------------------------------------
_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}",
}


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters.

    >>> latex_escape("50% of R&D_x | y")
    '50\\% of R\\&D\\_x \\textbar{} y'
    """
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)


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


def latex_text(frame: pd.DataFrame, footer: list[str] = (), float_format: str = ".3f") -> str:
    """A booktabs LaTeX tabular with special characters escaped; the footer as comments."""
    cells = display_frame(frame, float_format).map(latex_escape)
    cells.columns = [latex_escape(str(c)) for c in frame.columns]
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) and not
                    pd.api.types.is_bool_dtype(frame[c]) else "l" for c in frame.columns)
    body = cells.to_latex(index=False, escape=False, column_format=align)
    return body + "".join(f"% {line}\n" for line in footer)


def table_texts(frame: pd.DataFrame, footer: list[str] = (), float_format: str = ".3f"
                ) -> dict[str, str]:
    """The table as ``csv`` (no footer, so ``read_csv`` reads it back), ``md`` and ``tex`` (with
    the footer), keyed by extension, in that order."""
    return {
        "csv": csv_text(frame),
        "md": markdown_text(frame, list(footer), float_format),
        "tex": latex_text(frame, list(footer), float_format),
    }
