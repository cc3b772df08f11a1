"""The sentence a session shows under each result it saves: the entry of
:data:`~recallscore_nb.render.notes.NOTES`, or the note a table was registered with in
analysis (notebook 08's tables, :data:`~recallscore_nb.analysis.meta_tables.META_TABLES`, so
that a new table is one file and one cell). Render may not import analysis; the workbook, which
imports both, puts the two together.

>>> sorted(registered_notes("01_reproduce_benchmark"))
[]
"""

from __future__ import annotations

from collections.abc import Callable

from ..render.notes import note_for
from ..render.shown import Note

__all__ = ["META_STEM", "registered_notes", "result_note"]

META_STEM = "08_human_agreement"
"""The notebook whose tables :data:`~recallscore_nb.analysis.meta_tables.META_TABLES` holds
(read only when that notebook saves a result)."""


def registered_notes(stem: str) -> dict[str, Callable[[dict], str]]:
    """The notes of notebook ``stem``'s registered tables, keyed and called as
    :data:`~recallscore_nb.render.notes.NOTES`' entries are (``"<stem>/<name>"`` -> a function
    of the saved tables); none for a notebook without a registry."""
    if stem != META_STEM:
        return {}
    from ..analysis import meta_tables

    return {f"{stem}/{table.name}": (lambda tables, table=table: table.note(tables[table.name]))
            for table in meta_tables.META_TABLES.values() if table.note is not None}


def result_note(stem: str, what: str, tables: dict, *, figure: bool = False) -> Note | None:
    """The sentence under result ``what`` of notebook ``stem`` (None when it has none), from
    the tables saved so far (:func:`~recallscore_nb.render.notes.note_for`, with the
    registered notes)."""
    return note_for(stem, what, tables, figure=figure, notes=registered_notes(stem))
