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

__all__ = ["csv_ready", "csv_text", "write_csv"]


def _cell(value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return value


def csv_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy with booleans spelled ``true``/``false`` (vectorized for boolean columns)."""
    out = frame.copy()
    for column in out.columns:
        if pd.api.types.is_bool_dtype(out[column]):
            out[column] = np.where(out[column].to_numpy(), "true", "false")
        elif out[column].dtype == object:
            out[column] = out[column].map(_cell).astype(object)
    return out


def csv_text(frame: pd.DataFrame) -> str:
    """The frame as CSV text, the same bytes on every run and platform."""
    return csv_ready(frame).to_csv(index=False, lineterminator="\n")


def write_csv(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write :func:`csv_text` atomically; return the path."""
    text = csv_text(frame)
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8", newline=""))
    return Path(path)
