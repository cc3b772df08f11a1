"""What differs between two versions of a table, cell by cell, on copies of the committed
reports/ tables with one thing changed by hand, and a law (one line per changed cell)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from recallscore_nb.workbook.table_differences import table_differences

from .report_copies import SYSTEMS, committed, rows, written


def test_a_row_removed_and_a_column_added_say_so():
    records = rows(committed(SYSTEMS))
    removed = records.pop(4)
    records = [r + ["x"] for r in records]
    records[0][-1] = "extra"
    found = table_differences(committed(SYSTEMS), written(records))
    assert found.reshaped
    assert "column extra added" in found.lines
    key = ", ".join(f"{c}={v}" for c, v in zip(records[0][:3], removed[:3]))
    assert any(line.startswith(f"row [{key}] removed: \"{','.join(removed)[:40]}")
               for line in found.lines)


def test_rows_in_another_order_with_the_same_cells():
    data = committed(SYSTEMS)
    records = rows(data)
    records[1], records[2] = records[2], records[1]
    assert table_differences(data, written(records)).lines == (
        "the same rows in another order, first at line 2",)


@given(st.lists(st.tuples(st.text(st.characters(codec="utf-8"), min_size=1, max_size=8),
                          st.floats(allow_nan=False, allow_infinity=False)),
                min_size=1, max_size=6, unique_by=lambda t: t[0]),
       st.data())
def test_every_changed_cell_is_found_once(pairs, data):
    """Law: the number of cell lines is the number of cells whose text changed."""
    header = [["name", "value"]]
    before = [[f"k{name}", repr(value)] for name, value in pairs]
    changed = data.draw(st.sets(st.integers(0, len(before) - 1)))
    after = [[k, repr(float(v) + 1.0) if i in changed and float(v) + 1.0 != float(v) else v]
             for i, (k, v) in enumerate(before)]
    found = table_differences(written(header + before), written(header + after))
    expected = sum(a != b for a, b in zip(before, after))
    assert found.cells == expected == found.numbers
    assert len(found.lines) == (expected or (1 if before != after else 0))


def test_a_table_with_unicode_and_tabs_in_its_keys():
    before = "set,mean\ncafé\tnoir,0.5\n\"a,b\",0.25\n".encode()
    after = "set,mean\ncafé\tnoir,0.5\n\"a,b\",0.5\n".encode()
    assert table_differences(before, after).lines == (
        'row [set="a,b"], mean: 0.25 → 0.5 (abs 0.25, rel 0.5)',)
