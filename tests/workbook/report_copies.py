"""Copies of the committed reports/ files for the tests of what ``check`` says differs."""

from __future__ import annotations

import csv
import io
from pathlib import Path

REPORTS = Path(__file__).resolve().parents[2] / "reports"
SYSTEMS = "tables/08_human_agreement__systems.csv"
"""Notebook 08's systems table, the one whose last digits moved on another CPU (issue 28)."""


def committed(name: str) -> bytes:
    """A file of the committed reports/, by its path relative to it."""
    return (REPORTS / name).read_bytes()


def rows(data: bytes) -> list[list[str]]:
    """A CSV table's records, the header first, every cell a string."""
    return list(csv.reader(io.StringIO(data.decode(), newline="")))


def written(records: list[list[str]]) -> bytes:
    """Records as the workbook writes a CSV table (``\\n`` line ends)."""
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(records)
    return out.getvalue().encode()
