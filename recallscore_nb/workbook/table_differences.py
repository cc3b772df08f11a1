"""What differs between two versions of a CSV table, cell by cell, so that a reader of
``recallscore check`` can tell rounding noise from a change.

Both versions are read as text (every cell a string, compared exactly); a cell is parsed as a
number only to say by how much two numbers differ. Rows are matched by their key, the
shortest run of leading name columns (columns holding some text that is not a number) whose
values are unique in both versions; a table with no such key is compared row by row, each
row named by its line. :func:`table_differences` returns the lines and the counts a summary
(:func:`tables_summary`) adds up.
"""

from __future__ import annotations

import csv
import io
import math
from decimal import Decimal
from dataclasses import dataclass

__all__ = ["TableDifferences", "table_differences", "tables_summary", "shown", "pair", "changed",
           "counted"]

SHOWN_CHARS = 80
"""How much of a value or line a difference shows (the start of a longer one, or the part
around where two long ones part)."""
_PLAIN = frozenset(',[]="→')


def shown(text: str) -> str:
    """A cell or line as a difference shows it: as it is when that is unambiguous, else as a
    JSON string (empty, whitespace at an end, control characters, or the separators).

    >>> shown("evouna-nq"), shown(""), shown("a\\tb"), shown("café")
    ('evouna-nq', '""', '"a\\\\tb"', 'café')
    """
    if len(text) > SHOWN_CHARS:
        text = text[:SHOWN_CHARS - 1] + "…"
    plain = (text and text == text.strip() and text.isprintable()
             and not _PLAIN.intersection(text))
    if plain:
        return text
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else c.encode("unicode_escape").decode()
                         for c in escaped) + '"'


def pair(committed: str, fresh: str) -> str:
    """``committed → fresh``, long values cut to the part around where they part.

    >>> pair("x" * 100 + "1", "x" * 100 + "2")
    '…xxxxxxxxxxxxxxxxxxxx1 → …xxxxxxxxxxxxxxxxxxxx2'
    """
    start = 0
    if max(len(committed), len(fresh)) > SHOWN_CHARS:
        common = 0
        while common < min(len(committed), len(fresh)) and committed[common] == fresh[common]:
            common += 1
        start = max(0, common - 20)
    if start == 0:
        return f"{shown(committed)} → {shown(fresh)}"
    return f"{shown('…' + committed[start:])} → {shown('…' + fresh[start:])}"


@dataclass(frozen=True)
class TableDifferences:
    """The lines saying what differs in one table, and what a summary counts."""

    lines: tuple[str, ...]
    cells: int = 0
    """Cells present in both versions whose text differs."""
    numbers: int = 0
    """Of those, cells that are numbers in both versions."""
    largest: float = 0.0
    """The largest relative difference among those numbers."""
    reshaped: bool = False
    """Rows or columns added or removed."""


@dataclass(frozen=True)
class _Table:
    header: list[str]
    rows: list[list[str]]
    lines: list[int]  # the line of the file each row starts on


def _read(data: bytes) -> _Table:
    reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""))
    records, starts, end = [], [], 0
    for record in reader:
        records.append(record)
        starts.append(end + 1)
        end = reader.line_num
    header = records[0] if records else []
    return _Table(header, records[1:], starts[1:])


def _number(text: str) -> float | None:
    try:
        return float(text) if text.strip() else None
    except ValueError:
        return None


def _cell(row: list[str], column: int) -> str:
    return row[column] if column < len(row) else ""


def _names_column(tables: tuple[_Table, _Table], column: int) -> bool:
    """Whether a column holds some text that is not a number, in either version."""
    return any(_cell(row, column).strip() and _number(_cell(row, column)) is None
               for table in tables for row in table.rows)


def key_width(committed: _Table, fresh: _Table) -> int:
    """How many leading columns name a row: the fewest leading name columns, the same in both
    headers, whose values are unique in both versions; 0 when none are (rows by position)."""
    width = 0
    while (width < min(len(committed.header), len(fresh.header))
           and committed.header[width] == fresh.header[width]
           and _names_column((committed, fresh), width)):
        width += 1
    for size in range(1, width + 1):
        if all(len({tuple(row[:size]) for row in t.rows}) == len(t.rows)
               for t in (committed, fresh)):
            return size
    return 0


def _matched(committed: _Table, fresh: _Table, width: int):
    """(name, committed row or None, fresh row or None) in the committed order, then the rows
    only the fresh version has."""
    if not width:
        for i in range(max(len(committed.rows), len(fresh.rows))):
            line = committed.lines[i] if i < len(committed.rows) else fresh.lines[i]
            yield (f"line {line}", committed.rows[i] if i < len(committed.rows) else None,
                   fresh.rows[i] if i < len(fresh.rows) else None)
        return

    def name(row):
        keys = ", ".join(f"{shown(c)}={shown(_cell(row, i))}"
                         for i, c in enumerate(committed.header[:width]))
        return f"row [{keys}]"

    by_key = {tuple(row[:width]): row for row in fresh.rows}
    for row in committed.rows:
        yield name(row), row, by_key.get(tuple(row[:width]))
    known = {tuple(row[:width]) for row in committed.rows}
    for row in fresh.rows:
        if tuple(row[:width]) not in known:
            yield name(row), None, row


def changed(committed: str, fresh: str) -> tuple[str, float | None]:
    """``committed → fresh``, with the absolute and relative difference (to the larger
    magnitude) when both are finite numbers; and that relative difference, else None.

    >>> changed("0.1", "0.30000000000000004")
    ('0.1 → 0.30000000000000004 (abs 0.2, rel 0.67)', 0.6666666666666667)
    >>> changed("0.6378338493735844", "0.63783384937358445")[0]  # one float, two texts
    '0.6378338493735844 → 0.63783384937358445 (abs 5e-17, rel 7.8e-17)'
    >>> changed("fid", "gpt")
    ('fid → gpt', None)
    """
    a, b = _number(committed), _number(fresh)
    line = pair(committed, fresh)
    if a is None or b is None or not (math.isfinite(a) and math.isfinite(b)):
        return line, None
    # the difference of the decimals as written, exactly: two texts of one float (a digit
    # past the 17th) still differ by something
    x, y = Decimal(committed.strip()), Decimal(fresh.strip())
    gap = abs(y - x)
    relative = float(gap / max(abs(x), abs(y))) if gap else 0.0
    return f"{line} (abs {float(gap):.2g}, rel {relative:.2g})", relative


def _cell_line(where: str, column: str, before: str, after: str) -> tuple[str, float | None]:
    """A differing cell's line, and its relative difference when both are finite numbers."""
    line, relative = changed(before, after)
    return f"{where}, {shown(column)}: {line}", relative


def _shape_lines(committed: _Table, fresh: _Table) -> tuple[list[str], bool]:
    """The lines saying how the shape changed, and whether rows or columns were added or
    removed (columns only put in another order are not)."""
    lines = []
    sizes = [(len(t.rows), len(t.header)) for t in (committed, fresh)]
    if sizes[0] != sizes[1]:
        (r0, c0), (r1, c1) = sizes
        lines.append(f"shape {r0} rows × {c0} columns → {r1} rows × {c1} columns")
    lines += [f"column {shown(c)} removed" for c in committed.header if c not in fresh.header]
    lines += [f"column {shown(c)} added" for c in fresh.header if c not in committed.header]
    shared = [c for c in committed.header if c in fresh.header]
    reshaped = bool(lines)
    if shared != [c for c in fresh.header if c in committed.header]:
        lines.append(f"columns in another order: {', '.join(map(shown, committed.header))} → "
                     f"{', '.join(map(shown, fresh.header))}")
    return lines, reshaped


def table_differences(committed: bytes, fresh: bytes) -> TableDifferences:
    """What differs between two versions of a CSV table: its shape, then each row removed or
    added and each differing cell, as ``row [key=value, …], column: committed → fresh``, with
    the absolute and relative difference (to the larger magnitude) of two numbers.

    Parameters
    ----------
    committed, fresh : bytes
        The two versions, UTF-8 CSV with a header line.

    Returns
    -------
    TableDifferences
        The lines, no line when the bytes are the same; a version that is not UTF-8 gets one
        line saying so.

    Examples
    --------
    >>> found = table_differences(b"set,n,mean\\nnq,3,0.5\\ntq,3,0.25\\n",
    ...                           b"set,n,mean\\nnq,3,0.5000001\\ntq,3,0.25\\n")
    >>> found.lines
    ('row [set=nq], mean: 0.5 → 0.5000001 (abs 1e-07, rel 2e-07)',)
    >>> found.cells, found.numbers, round(found.largest, 9)
    (1, 1, 2e-07)
    """
    if committed == fresh:
        return TableDifferences(())
    try:
        old, new = _read(committed), _read(fresh)
    except (UnicodeDecodeError, csv.Error) as exc:
        return TableDifferences((f"not a UTF-8 CSV table ({exc}); bytes differ",))
    (lines, reshaped), relatives, cells = _shape_lines(old, new), [], 0
    shared = [c for c in old.header if c in new.header]
    for where, before, after in _matched(old, new, key_width(old, new)):
        if before is None or after is None:
            row = before if after is None else after
            lines.append(f"{where} {'removed' if after is None else 'added'}: "
                         f"{shown(','.join(row))}")
            reshaped = True
            continue
        for column in shared:
            a, b = _cell(before, old.header.index(column)), _cell(after, new.header.index(column))
            if a != b:
                line, relative = _cell_line(where, column, a, b)
                lines.append(line)
                cells += 1
                relatives += [] if relative is None else [relative]
    if not lines:
        lines = [_same_cells(old, new, committed, fresh)]
    return TableDifferences(tuple(lines), cells, len(relatives), max(relatives, default=0.0),
                            reshaped)


def _same_cells(old: _Table, new: _Table, committed: bytes, fresh: bytes) -> str:
    """What differs when no cell does: the rows' order, or how the same cells are written."""
    if old.rows != new.rows:
        line = next((old.lines[i] for i, (a, b) in enumerate(zip(old.rows, new.rows)) if a != b),
                    None)
        if line is not None and sorted(old.rows) == sorted(new.rows):
            return f"the same rows in another order, first at line {line}"
        return f"the same cells under the header, other fields beyond it, first at line {line}"
    offset = next((i for i, (a, b) in enumerate(zip(committed, fresh)) if a != b),
                  min(len(committed), len(fresh)))
    return f"the same cells, written differently (quoting, line ends): bytes differ at offset {offset}"


def counted(count: int, noun: str) -> str:
    """``1 cell``, ``2 cells``.

    >>> counted(1, "cell"), counted(2, "table")
    ('1 cell', '2 tables')
    """
    return f"{count} {noun}" + ("" if count == 1 else "s")


def tables_summary(found: list[TableDifferences]) -> str:
    """One line adding up the tables' differences.

    >>> tables_summary([TableDifferences(("x",) * 8, 8, 8, 3e-16)])
    '8 cells of 1 table differ, at most 3e-16 relative'
    >>> tables_summary([TableDifferences(("x",), 1, 0, 0.0), TableDifferences(("y",), 0, 0,
    ...                 reshaped=True)])
    '1 cell of 2 tables differs, 1 not a number; 1 table with rows or columns added or removed'
    """
    cells = sum(f.cells for f in found)
    numbers = sum(f.numbers for f in found)
    line = f"{counted(cells, 'cell')} of {counted(len(found), 'table')} " + (
        "differs" if cells == 1 else "differ")
    if numbers:
        line += f", at most {max(f.largest for f in found):.2g} relative"
    if cells - numbers:
        line += f", {cells - numbers} not " + ("a number" if cells - numbers == 1 else "numbers")
    reshaped = sum(f.reshaped for f in found)
    if reshaped:
        line += f"; {counted(reshaped, 'table')} with rows or columns added or removed"
    return line
