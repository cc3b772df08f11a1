"""Items as values: many questions, each with its own references and checklist.

:func:`recallscore_nb.io.items.load_items` reads and validates an items file (JSONL) into
:class:`Items`; :func:`recallscore_nb.core.scoring.score_items` scores attempts against them.

>>> from recallscore_nb.core.facts import Fact
>>> items = Items("demo", "", (Item("q1", ("Paris", "Lutetia"), None),
...                            Item("q2", ("The west drawer.",), (Fact("place", ("west",)),))))
>>> len(items), items.ids
(2, ('q1', 'q2'))
"""

from __future__ import annotations

from dataclasses import dataclass

from .facts import Fact

__all__ = ["Item", "Items"]


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
