"""How a notebook's kernel shows the workbook's results to a reader.

Once a notebook's session starts, every table the kernel shows is shown as the paper prints
it (:class:`~recallscore_nb.render.shown.ShownTable`: three decimals, no index, long text
wrapped, every row), by IPython's display formatters for DataFrames (:func:`show_tables`).
A :class:`NoteBoard` holds the sentences a cell's results say
(:mod:`~recallscore_nb.render.notes`) until the session shows them, after the cell's own
output, as Markdown; :class:`Published` shows a notebook's last cell: the outputs it
published, then what the notebook found.
"""

from __future__ import annotations

__all__ = ["show_tables", "NoteBoard", "Published"]


def _html(frame) -> str:
    from ..render.shown import ShownTable

    return ShownTable(frame)._repr_html_()


def _plain(frame, printer, cycle) -> None:
    from ..render.shown import ShownTable

    printer.text(repr(ShownTable(frame)))


def show_tables(shell) -> None:
    """Show every DataFrame in ``shell`` (IPython's; nothing when None) as the paper prints it,
    in HTML and in plain text."""
    formatter = getattr(shell, "display_formatter", None)
    if formatter is None:
        return
    import pandas as pd

    formatters = formatter.formatters
    formatters["text/html"].for_type(pd.DataFrame, _html)
    formatters["text/plain"].for_type(pd.DataFrame, _plain)


class NoteBoard:
    """The notes a cell's results made, waiting to be shown once the cell has run (the
    session shows them from its ``post_run_cell`` callback; a cell that raised shows none)."""

    def __init__(self) -> None:
        self.pending: list = []

    def add(self, note) -> None:
        if note is not None:
            self.pending.append(note)

    def show(self, *, ran: bool = True) -> None:
        """Show the pending notes (as Markdown) when the cell ``ran``; forget them either way."""
        notes, self.pending = self.pending, []
        if not ran or not notes:
            return
        from IPython.display import display

        for note in notes:
            display(note)


class Published(list):
    """The outputs a notebook published, shown as their list, then what the notebook found
    (a :class:`~recallscore_nb.render.shown.Note`, or None)."""

    def __init__(self, outputs, found=None) -> None:
        super().__init__(outputs)
        self.found = found

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(list(self))
        if self.found is not None:
            display(self.found)
