"""Figures the docs quote are the committed tables' (issue 32): each quoted number is read
from the doc and compared with the table of ``reports/tables/`` it comes from, so a change
of a published computation that leaves a doc behind fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "reports" / "tables"
SETS = {"EVOUNA NQ": "evouna-nq", "EVOUNA TQ": "evouna-tq", "NQ301": "openqa-nq301",
        "EfficientQA": "efficientqa"}
"""How docs/human-judges.md names each judged set."""


def agreement_rows() -> list[tuple[str, str, list[str]]]:
    """(set, rule, [accuracy, kappa, precision] as written) of the agreement table of
    docs/human-judges.md; a row with no set name is the set of the row above."""
    text = (ROOT / "docs" / "human-judges.md").read_text(encoding="utf-8")
    section = text.split("## The `equivalent` rule against people", 1)[1]
    rows, current = [], None
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[1].startswith("`"):
            if rows and not line.startswith("|"):
                break
            continue
        label = next((s for name, s in SETS.items() if cells[0].startswith(name)), None)
        current = label or current
        rows.append((current, cells[1].strip("`"), cells[2:5]))
    return rows


def test_the_agreement_figures_of_the_docs_are_the_tables():
    table = pd.read_csv(TABLES / "08_human_agreement__agreement.csv")
    rows = agreement_rows()
    assert len(rows) == 9
    for set_name, rule, written in rows:
        (found,) = table[(table["set"] == set_name) & (table["rule"] == rule)
                         & (table["judge"] == "human")].itertuples()
        assert written == [f"{found.accuracy:.3f}", f"{found.kappa:.3f}",
                           f"{found.precision:.3f}"], (set_name, rule)


@pytest.mark.parametrize("element", ["longer-name"])
def test_what_a_guard_left_out_fixes_and_breaks_is_the_table(element):
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    fixes, breaks = map(int, re.search(rf"`{element}`\s+fixes (\d+) and breaks (\d+)",
                                       text).groups())
    table = pd.read_csv(TABLES / "08_human_agreement__guards_left_out.csv")
    (row,) = table[(table["set"] == "evouna-nq") & (table["element"] == element)].itertuples()
    assert (fixes, breaks) == (row.fixed, row.broken)
