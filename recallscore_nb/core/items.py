"""Items as values: many questions, each with its own references and checklist.

:func:`recallscore_nb.io.items.load_items` reads and validates an items file (JSONL) into
:class:`Items`; :func:`recallscore_nb.core.scoring.score_items` scores attempts against them.
An attempt may bring references of its own (column ``references``, :func:`own_references`),
which replace its item's: a data set whose systems were scored against different gold lists.

>>> from recallscore_nb.core.facts import Fact
>>> items = Items("demo", "", (Item("q1", ("Paris", "Lutetia"), None),
...                            Item("q2", ("The west drawer.",), (Fact("place", ("west",)),))))
>>> len(items), items.ids
(2, ('q1', 'q2'))
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd
import pyarrow as pa

from .errors import UsageError
from .facts import Fact

__all__ = ["Item", "Items", "OWN_REFERENCES", "own_references", "bad_references"]


@dataclass(frozen=True)
class Item:
    """One question: its id, its alternative references, and its checklist (None: no checklist)."""

    id: str
    references: tuple[str, ...]
    facts: tuple[Fact, ...] | None


@dataclass(frozen=True)
class Items:
    """The items of a file, in file order, with the file's name and SHA-256."""

    path: str
    sha256: str
    items: tuple[Item, ...]

    def __len__(self) -> int:
        return len(self.items)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.items)


OWN_REFERENCES = "references"
"""The attempts' column that gives a row its own references (a JSON list of strings, or a
list), replacing its item's; empty or null: the item's."""


def own_references(values) -> pa.ListArray:
    """A ``references`` column as one Arrow list per row (null: the row takes its item's).
    Each value is a list of strings or the JSON text of one; a row whose value is neither is
    refused, named by its number (from 0).

    >>> own_references(['["Paris", "Lutetia"]', None, ["Roma"], ""]).to_pylist()
    [['Paris', 'Lutetia'], None, ['Roma'], None]
    >>> own_references(["Paris"])
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: 'references' row 0: expected a JSON list of strings, got 'Paris'
    """
    parsed, bad = _parsed_references(values)
    if bad is not None:
        raise UsageError(f"'{OWN_REFERENCES}' row {bad[0]}: {bad[1]}")
    return pa.array(parsed, type=pa.list_(pa.string()))


def bad_references(values) -> tuple[int, str] | None:
    """The first row of a ``references`` column that is not a list of strings, and what is
    wrong with it (None: every row is fine)."""
    return _parsed_references(values)[1]


def _parsed_references(values) -> tuple[list, tuple[int, str] | None]:
    values = values.tolist() if hasattr(values, "tolist") else list(values)
    parsed: dict[str, object] = {}
    out: list = []
    for row, value in enumerate(values):
        if value is None or value is pd.NA or (isinstance(value, float) and value != value) \
                or (isinstance(value, str) and not value.strip()):
            out.append(None)
            continue
        if isinstance(value, str):
            if value not in parsed:
                try:
                    parsed[value] = json.loads(value)
                except json.JSONDecodeError:
                    parsed[value] = value
            value = parsed[value]
        if hasattr(value, "tolist") and not isinstance(value, str):
            value = value.tolist()
        if not (isinstance(value, (list, tuple)) and value
                and all(isinstance(v, str) and v.strip() for v in value)):
            return out, (row, f"expected a JSON list of strings, got {value!r:.80}")
        out.append(list(value))
    return out, None
