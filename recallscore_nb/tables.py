"""The paper's tables as text: deterministic CSV (booleans as true/false, "\\n" line ends).

>>> import pandas as pd
>>> print(csv_text(pd.DataFrame({"id": ["R01"], "ok": [True], "n": [None]})), end="")
id,ok,n
R01,true,
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .files import atomic_write

__all__ = ["csv_ready", "csv_text", "write_csv", "write_table", "markdown_text", "latex_text", "latex_escape", "TABLE_FORMATS"]


def _cell(value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return value


def csv_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy with booleans spelled ``true``/``false`` (vectorized for boolean columns)."""
    out = frame.copy()
    for column in out.columns:
        if pd.api.types.is_bool_dtype(out[column]):  # nullable booleans: missing stays empty
            missing = out[column].isna().to_numpy()
            text = np.where(out[column].fillna(False).to_numpy(dtype=bool), "true", "false")
            out[column] = np.where(missing, "", text).astype(object)
        elif out[column].dtype == object:  # mixed cells: keep ints as ints, None as empty
            out[column] = pd.array([_cell(v) for v in out[column]], dtype=object)
    return out


def csv_text(frame: pd.DataFrame) -> str:
    """The frame as CSV text, the same bytes on every run and platform."""
    return csv_ready(frame).to_csv(index=False, lineterminator="\n")


def write_csv(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write :func:`csv_text` atomically; return the path."""
    text = csv_text(frame)
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8", newline=""))
    return Path(path)


# --- Markdown and LaTeX, for the paper --------------------------------------------------
_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}",
}
TABLE_FORMATS = ("csv", "md", "tex")


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


def write_table(frame: pd.DataFrame, directory: str | Path, name: str, *,
                footer: list[str] = (), float_format: str = ".3f") -> list[Path]:
    """Write ``<name>.csv`` (no footer, so ``read_csv`` reads it back), ``<name>.md`` and
    ``<name>.tex`` (with the footer) into ``directory``, atomically."""
    texts = {
        "csv": csv_text(frame),
        "md": markdown_text(frame, list(footer), float_format),
        "tex": latex_text(frame, list(footer), float_format),
    }
    paths = []
    for fmt, text in texts.items():
        path = Path(directory) / f"{name}.{fmt}"
        atomic_write(path, lambda tmp, text=text: Path(tmp).write_text(text, encoding="utf-8", newline=""))
        paths.append(path)
    return paths
