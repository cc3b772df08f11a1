"""What ``recallscore check`` says differs, on copies of the committed reports/ with one thing
changed by hand: each cell of a table, the first difference of a figure or notebook, the
manifest's entries, the macros of numbers.tex; a limit, then a count; a summary line."""

from __future__ import annotations

import io
import json
import math

import pytest

from recallscore_nb.workbook.report_differences import compare_reports, file_differences

from .report_copies import REPORTS, SYSTEMS, committed, rows, written


def test_identical_reports_give_no_line():
    files = {SYSTEMS: committed(SYSTEMS), "manifest.json": committed("manifest.json")}
    assert compare_reports(files, dict(files)) == []


def test_a_cell_changed_in_its_last_digits_is_named_by_its_row_key_and_column():
    records = rows(committed(SYSTEMS))
    header = records[0]
    row = next(r for r in records[1:] if r[header.index("measure")] == "token_f1")
    column = header.index("low")
    before = row[column]
    row[column] = repr(math.nextafter(math.nextafter(float(before), 1), 1))  # two ulps, as on another CPU
    lines = compare_reports({SYSTEMS: committed(SYSTEMS)}, {SYSTEMS: written(records)})
    key = ", ".join(f"{c}={v}" for c, v in zip(header[:3], row[:3]))
    assert lines[0] == f"differs: {SYSTEMS}"
    assert lines[1].startswith(f"  row [{key}], low: {before} → {row[column]} (abs ")
    assert len(lines) == 3
    assert lines[2].startswith("1 file differs; 1 cell of 1 table differs, at most ")
    assert lines[2].endswith("e-16 relative") or lines[2].endswith("e-17 relative")


def test_many_cells_are_shown_up_to_the_limit_then_counted():
    records = rows(committed(SYSTEMS))
    column = records[0].index("n")
    for row in records[1:13]:
        row[column] = str(int(row[column]) + 1)
    lines = compare_reports({SYSTEMS: committed(SYSTEMS)}, {SYSTEMS: written(records)}, limit=5)
    assert lines[0] == f"differs: {SYSTEMS}"
    assert all(line.startswith("  row [") and ", n: " in line for line in lines[1:6])
    assert lines[6] == f"  … and 7 more differences in {SYSTEMS}"
    assert lines[7].startswith("1 file differs; 12 cells of 1 table differ, at most ")


def test_the_manifest_names_each_entry_that_changed():
    data = committed("manifest.json")
    manifest = json.loads(data)
    entry = next(o for o in manifest["outputs"] if o["path"] == SYSTEMS)
    old = entry["sha256"]
    entry["sha256"] = "0" * 64
    lines = file_differences("manifest.json", data, json.dumps(manifest, indent=2).encode()).lines
    assert lines == (f"$.outputs[{SYSTEMS}].sha256: {old[:12]}… → 000000000000…",)


def test_numbers_tex_names_the_macro_and_its_notebook():
    data = committed("paper/numbers.tex").decode()
    line = next(line for line in data.splitlines() if line.startswith("\\newcommand"))
    name = line[len("\\newcommand{\\"):line.index("}")]
    value = line[line.index("}{") + 2:line.rindex("}")]
    fresh = data.replace(line, line.replace("{" + value + "}", "{changed}"), 1).encode()
    [found] = file_differences("paper/numbers.tex", data.encode(), fresh).lines
    assert found.startswith(f"\\{name}: {value} → changed, from ")


def test_a_notebook_names_its_first_differing_cell():
    name = "notebooks/08_human_agreement.ipynb"
    data = committed(name)
    notebook = json.loads(data)
    index, cell = next((i, c) for i, c in enumerate(notebook["cells"])
                       if c["cell_type"] == "code" and c.get("outputs"))
    cell["source"] = ["# changed\n"] + list(cell["source"])
    [found] = file_differences(name, data, json.dumps(notebook).encode()).lines
    assert found.startswith(f"cells[{index}]")
    assert ": source line 1: " in found


@pytest.mark.parametrize("suffix", ["svg", "png"])
def test_a_figure_gives_its_first_difference(suffix):
    name = next(p for p in sorted((REPORTS / "figures").glob(f"*.{suffix}")))
    data = name.read_bytes()
    if suffix == "svg":
        text = data.decode()
        at = text.index("<path ", text.index('id="axes_1"'))
        fresh = (text[:at] + "<path d=\"M 0 0\"/>\n" + text[at:]).encode()
        [found] = file_differences(f"figures/{name.name}", data, fresh).lines
        assert found.startswith("line ") and "axes_1" in found
    else:
        import numpy as np
        from PIL import Image

        image = np.array(Image.open(io.BytesIO(data)))
        image[3, 5] = 255 - image[3, 5]
        out = io.BytesIO()
        Image.fromarray(image).save(out, format="PNG")
        [found] = file_differences(f"figures/{name.name}", data, out.getvalue()).lines
        assert "1 pixel differs, in rows 3 to 3" in found and "first at column 5" in found


def test_missing_and_extra_files_are_headed_and_counted():
    lines = compare_reports({"tables/old.csv": b"a\n1\n"}, {"tables/new.csv": b"a\n1\n"})
    assert lines == ["missing from reports/: tables/new.csv",
                     "not produced by a fresh run: tables/old.csv",
                     "0 files differ, 1 missing from reports/, 1 not produced by a fresh run"]
