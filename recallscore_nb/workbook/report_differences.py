"""What differs between two versions of ``reports/``, said so that a reader of
``recallscore check`` can tell rounding noise from a change.

Pure functions on bytes: no file is opened here (the runner reads both folders and calls
:func:`compare_reports`). Each kind of output has its own comparison: a CSV table cell by cell
(:mod:`~recallscore_nb.workbook.table_differences`), ``manifest.json`` entry by entry,
``paper/numbers.tex`` macro by macro, an executed notebook cell by cell, an SVG figure at its
first differing element (with the groups, the panels, around it), a PNG figure by its pixels,
and any other file by its lines or, when it is not text, its bytes.
"""

from __future__ import annotations

import difflib
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .table_differences import TableDifferences, changed, counted, pair, shown, \
    table_differences, tables_summary

__all__ = ["SHOWN_DIFFERENCES", "FileDifferences", "compare_reports", "file_differences",
           "manifest_differences", "numbers_differences", "notebook_differences",
           "svg_differences", "png_differences", "text_differences", "bytes_differences"]

SHOWN_DIFFERENCES = 20
"""How many differences of one file ``check`` shows, one line each, before it counts the rest."""
INDENT = "  "
"""What sets a file's detail lines apart from its ``differs: name`` line."""


@dataclass(frozen=True)
class FileDifferences:
    """What differs in one file: one line per difference, and for a CSV table the counts
    :func:`~recallscore_nb.workbook.table_differences.tables_summary` adds up."""

    lines: tuple[str, ...]
    table: TableDifferences | None = None


# --- any file ----------------------------------------------------------------------------------
def bytes_differences(committed: bytes, fresh: bytes) -> list[str]:
    """Where two byte strings part, and their sizes.

    >>> bytes_differences(b"%PDF-1.4 abc", b"%PDF-1.4 abd")
    ['bytes differ from offset 11; 12 → 12 bytes']
    """
    if committed == fresh:
        return []
    offset = next((i for i, (a, b) in enumerate(zip(committed, fresh)) if a != b),
                  min(len(committed), len(fresh)))
    return [f"bytes differ from offset {offset}; {len(committed):,} → {len(fresh):,} bytes"]


def _text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _lines(text: str) -> list[str]:
    """A text's lines, split at ``\\n`` only: a ``\\r``, a form feed or another character
    :meth:`str.splitlines` would break at stays in its line, shown as a difference.

    >>> _lines("a\\x0bb\\r\\nc\\n")
    ['a\\x0bb\\r', 'c']
    """
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def text_differences(committed: bytes, fresh: bytes) -> list[str]:
    """Each line changed, removed or added (numbered as in the committed version; an added
    line by its place in the fresh one), or the bytes when either is not UTF-8 text.

    >>> text_differences(b"| a | 0.5 |\\n| b | 1 |\\n", b"| a | 0.25 |\\n| b | 1 |\\n| c | 2 |\\n")
    ['line 1: | a | 0.5 | → | a | 0.25 |', 'line 3 added: | c | 2 |']
    """
    old, new = _text(committed), _text(fresh)
    if old is None or new is None:
        return bytes_differences(committed, fresh)
    a, b = _lines(old), _lines(new)
    lines = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            if k < i2 - i1 and k < j2 - j1:
                lines.append(f"line {i1 + k + 1}: {pair(a[i1 + k], b[j1 + k])}")
            elif k < i2 - i1:
                lines.append(f"line {i1 + k + 1} removed: {shown(a[i1 + k])}")
            else:
                lines.append(f"line {j1 + k + 1} added: {shown(b[j1 + k])}")
    if not lines:  # the same lines: a last newline
        return [f"the same lines, a last newline added or removed; "
                f"{bytes_differences(committed, fresh)[0]}"]
    return lines


# --- manifest.json -----------------------------------------------------------------------------
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _flat(value, path: str = "$") -> dict[str, object]:
    """A JSON value as {JSON path: scalar}; a list of objects that each have a ``path`` is
    keyed by it (``$.outputs[tables/x.csv].sha256``), other lists by index."""
    if isinstance(value, dict):
        if not value:
            return {path: {}}
        return {k: v for key, item in value.items()
                for k, v in _flat(item, f"{path}.{key}").items()}
    if isinstance(value, list):
        if not value:
            return {path: []}
        paths = [item.get("path") if isinstance(item, dict) else None for item in value]
        if all(isinstance(p, str) for p in paths) and len(set(paths)) == len(paths):
            return {k: v for p, item in zip(paths, value)
                    for k, v in _flat({x: y for x, y in item.items() if x != "path"},
                                      f"{path}[{p}]").items()}
        return {k: v for i, item in enumerate(value)
                for k, v in _flat(item, f"{path}[{i}]").items()}
    return {path: value}


def _json_value(value) -> str:
    if isinstance(value, str):
        return value[:12] + "…" if _SHA256.fullmatch(value) else value
    return json.dumps(value, ensure_ascii=False)


def manifest_differences(committed: bytes, fresh: bytes) -> list[str]:
    """Each entry of ``manifest.json`` whose value differs, then those removed and added, by
    JSON path; a SHA-256 shown by its first 12 digits.

    >>> manifest_differences(
    ...     b'{"outputs": [{"path": "tables/a.csv", "sha256": "' + b"1" * 64 + b'"}],'
    ...     b' "versions": {"numpy": "2.4.6"}}',
    ...     b'{"outputs": [{"path": "tables/a.csv", "sha256": "' + b"2" * 64 + b'"}],'
    ...     b' "versions": {"numpy": "2.4.7", "pandas": "3.1.1"}}')
    ['$.outputs[tables/a.csv].sha256: 111111111111… → 222222222222…', '$.versions.numpy: 2.4.6 → 2.4.7', '$.versions.pandas added: 3.1.1']
    """
    try:
        old, new = _flat(json.loads(committed)), _flat(json.loads(fresh))
    except (UnicodeDecodeError, ValueError):
        return text_differences(committed, fresh)
    lines = [f"{path}: {changed(_json_value(old[path]), _json_value(new[path]))[0]}"
             for path in old if path in new and old[path] != new[path]]
    lines += [f"{path} removed: {shown(_json_value(old[path]))}"
              for path in old if path not in new]
    lines += [f"{path} added: {shown(_json_value(new[path]))}"
              for path in new if path not in old]
    return lines or text_differences(committed, fresh)


# --- paper/numbers.tex -------------------------------------------------------------------------
_MACRO = re.compile(
    r"\\newcommand\{\\(?P<name>[A-Za-z]+)\}\{(?P<value>.*)\}\s*(?:%\s*(?P<by>.*))?")


def _macros(text: str) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """{name: (value, the notebook its comment names)}, and the lines that are no macro."""
    macros, other = {}, []
    for line in text.splitlines():
        found = _MACRO.fullmatch(line.strip())
        if found:
            macros[found["name"]] = (found["value"], (found["by"] or "").strip())
        else:
            other.append(line)
    return macros, other


def numbers_differences(committed: bytes, fresh: bytes) -> list[str]:
    """Each macro of ``numbers.tex`` whose value differs (``\\rsName: committed → fresh``,
    with the notebook that writes it), then those removed and added.

    >>> numbers_differences(b"\\\\newcommand{\\\\rsKappa}{0.602}  % 08_human_agreement\\n",
    ...                     b"\\\\newcommand{\\\\rsKappa}{0.603}  % 08_human_agreement\\n")
    ['\\\\rsKappa: 0.602 → 0.603 (abs 0.001, rel 0.0017), from 08_human_agreement']
    """
    old_text, new_text = _text(committed), _text(fresh)
    if old_text is None or new_text is None:
        return bytes_differences(committed, fresh)
    (old, old_other), (new, new_other) = _macros(old_text), _macros(new_text)
    lines = []
    for name, (value, by) in old.items():
        if name in new and new[name] != (value, by):
            fresh_value, fresh_by = new[name]
            source = by if by == fresh_by else f"{by or '?'} → {fresh_by or '?'}"
            lines.append(f"\\{name}: {changed(value, fresh_value)[0]}, from {source}")
    lines += [f"\\{name} removed: {shown(old[name][0])}" for name in old if name not in new]
    lines += [f"\\{name} added: {shown(new[name][0])}" for name in new if name not in old]
    if old_other != new_other:  # the lines that are no macro, numbered among themselves
        lines += text_differences("\n".join(old_other).encode(), "\n".join(new_other).encode())
    return lines or text_differences(committed, fresh)


# --- an executed notebook ----------------------------------------------------------------------
def _joined(source) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


def _first_line_difference(committed: str, fresh: str) -> str:
    a, b = _lines(committed), _lines(fresh)
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if at < len(a) and at < len(b):
        return f"line {at + 1}: {changed(a[at], b[at])[0]}"
    if len(a) == len(b):  # the same lines: a last newline
        return "the same lines, a last newline added or removed"
    return f"{len(a)} → {len(b)} lines"


def _output_difference(index: int, old: dict, new: dict) -> str:
    kind = old.get("output_type", "?")
    where = f"outputs[{index}] ({kind}"
    if kind != new.get("output_type"):
        return f"{where}): output type {kind} → {new.get('output_type', '?')}"
    if kind == "stream":
        return f"{where} {old.get('name', '')}): " + _first_line_difference(
            _joined(old.get("text", "")), _joined(new.get("text", "")))
    if kind == "error":
        errors = [f"{o.get('ename', '')}: {o.get('evalue', '')}" for o in (old, new)]
        return f"{where}): {pair(*errors)}"
    old_data, new_data = old.get("data", {}), new.get("data", {})
    if sorted(old_data) != sorted(new_data):
        return f"{where}): {', '.join(sorted(old_data))} → {', '.join(sorted(new_data))}"
    for mime in old_data:
        a, b = _joined(old_data[mime]), _joined(new_data[mime])
        if a != b:
            if mime.startswith("image/") and not mime.endswith("svg+xml"):
                return f"{where} {mime}): the image differs, {len(a):,} → {len(b):,} characters"
            return f"{where} {mime}): {_first_line_difference(a, b)}"
    return f"{where}): its metadata or count"


def _cell_difference(index: int, old: dict, new: dict) -> str:
    """One line naming a cell (index, id, first source line) and the first thing that
    differs in it: its source, an output (which, and where in it), its count, its metadata."""
    source = _joined(old.get("source", ""))
    first = next((line for line in source.splitlines() if line.strip()), "")
    where = f"cells[{index}]" + (f" ({old['id']})" if "id" in old else "") + f" {shown(first)}"
    new_source = _joined(new.get("source", ""))
    if old.get("cell_type") != new.get("cell_type"):
        return f"{where}: cell type {old.get('cell_type')} → {new.get('cell_type')}"
    if source != new_source:
        return f"{where}: source {_first_line_difference(source, new_source)}"
    outputs, fresh_outputs = old.get("outputs", []), new.get("outputs", [])
    for i, (a, b) in enumerate(zip(outputs, fresh_outputs)):
        if a != b:
            return f"{where}: {_output_difference(i, a, b)}"
    if len(outputs) != len(fresh_outputs):
        return f"{where}: {len(outputs)} → {len(fresh_outputs)} outputs"
    if old.get("execution_count") != new.get("execution_count"):
        counts = (old.get("execution_count"), new.get("execution_count"))
        return f"{where}: execution count {counts[0]} → {counts[1]}"
    keys = sorted(set(old) | set(new))
    return f"{where}: " + ", ".join(k for k in keys if old.get(k) != new.get(k))


def notebook_differences(committed: bytes, fresh: bytes) -> list[str]:
    """The notebook's metadata (by JSON path), then one line per differing cell: its index,
    id and first source line, and the first thing that differs in it (its source, or which
    output, and the first line of that output that differs).

    >>> def notebook(value):
    ...     cell = {"cell_type": "code", "id": "cell-03", "source": ["nb.table('systems', t)"],
    ...             "outputs": [{"output_type": "display_data",
    ...                          "data": {"text/plain": ["n  mean\\n", f"3  {value}\\n"]}}]}
    ...     return json.dumps({"metadata": {}, "cells": [cell]}).encode()
    >>> notebook_differences(notebook(0.5), notebook(0.25))
    ['cells[0] (cell-03) "nb.table(\\'systems\\', t)": outputs[0] (display_data text/plain): line 2: 3  0.5 → 3  0.25']
    """
    try:
        old, new = json.loads(committed), json.loads(fresh)
        old_cells, new_cells = old.pop("cells"), new.pop("cells")
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return text_differences(committed, fresh)
    lines = []
    if old != new:  # the notebook's metadata, nbformat
        lines += manifest_differences(json.dumps(old).encode(), json.dumps(new).encode())
    for i, (a, b) in enumerate(zip(old_cells, new_cells)):
        if a != b:
            lines.append(_cell_difference(i, a, b))
    if len(old_cells) != len(new_cells):
        lines.append(f"{len(old_cells)} → {len(new_cells)} cells")
    return lines or text_differences(committed, fresh)


# --- figures -----------------------------------------------------------------------------------
_SVG_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)([^>]*?)(/?)>", re.S)
_SVG_ID = re.compile(r'\bid="([^"]*)"')


def _svg_groups(text: str, end: int) -> tuple[list[str], str | None]:
    """The ids of the ``<g>`` groups open at character ``end`` (outermost first), and the
    tag ``end`` falls in, if any (one begun before it, not yet closed)."""
    groups = []
    for tag in _SVG_TAG.finditer(text, 0, end):
        closing, name, attributes, empty = tag.groups()
        if name != "g" or empty:
            continue
        if closing:
            groups = groups[:-1]
        else:
            found = _SVG_ID.search(attributes)
            groups.append(found.group(1) if found else "g")
    start = text.rfind("<", 0, end)
    found = re.match(r"<([A-Za-z][\w:.-]*)", text[start:]) if start != -1 else None
    inside = found and text.find(">", start, end) == -1  # a tag begun, not yet closed
    return groups, found.group(1) if inside else None


def svg_differences(committed: bytes, fresh: bytes) -> list[str]:
    """The first line of an SVG figure that differs: its number, the groups open there (for
    a matplotlib figure ``figure_1 > axes_2 > line2d_5``: the panel, then the artist), the
    element it belongs to, and the line as committed and as fresh.

    >>> svg = '<svg>\\n <g id="figure_1">\\n  <g id="axes_2">\\n   <path d="M 0 {}"/>\\n'
    >>> svg_differences(svg.format(1).encode(), svg.format(2).encode())
    ['line 4, in figure_1 > axes_2, a <path>: "<path d=\\\\"M 0 1\\\\"/>" → "<path d=\\\\"M 0 2\\\\"/>"']
    """
    old, new = _text(committed), _text(fresh)
    if old is None or new is None:
        return bytes_differences(committed, fresh)
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    if at is None:
        if len(a) == len(b):
            return bytes_differences(committed, fresh)
        return [f"{len(a):,} → {len(b):,} lines, the same up to line {min(len(a), len(b)):,}"]
    common = next((i for i, (x, y) in enumerate(zip(a[at], b[at])) if x != y),
                  min(len(a[at]), len(b[at])))
    groups, element = _svg_groups(old, sum(map(len, a[:at])) + common)
    where = f"line {at + 1:,}" + (f", in {' > '.join(groups)}" if groups else "") + (
        f", a <{element}>" if element else "")
    line = f"{where}: {pair(a[at].strip(), b[at].strip())}"
    if len(a) != len(b):
        line += f"; {len(a):,} → {len(b):,} lines"
    return [line]


def png_differences(committed: bytes, fresh: bytes) -> list[str]:
    """A PNG figure's size in pixels when it changed, else how many pixels differ and the
    first row (from the top) that holds one; the bytes when either will not decode.

    >>> from PIL import Image
    >>> def png(value):
    ...     image, out = Image.new("L", (4, 3)), io.BytesIO()
    ...     image.putpixel((2, 1), value)
    ...     image.save(out, format="PNG")
    ...     return out.getvalue()
    >>> png_differences(png(0), png(255))
    ['4×3 pixels (L): 1 pixel differs, in rows 1 to 1 (row 0 at the top), the first at column 2']
    """
    if committed == fresh:
        return []
    try:
        import numpy as np
        from PIL import Image

        images = [Image.open(io.BytesIO(data)) for data in (committed, fresh)]
        for image in images:
            image.load()
    except Exception:  # no Pillow, or a file that will not decode: say where the bytes part
        return [f"not a PNG that decodes; {bytes_differences(committed, fresh)[0]}"]
    (old, new), size = images, "×".join(map(str, images[0].size))
    if old.size != new.size or old.mode != new.mode:
        return [f"size {size} pixels ({old.mode}) → {'×'.join(map(str, new.size))} pixels "
                f"({new.mode}); {bytes_differences(committed, fresh)[0]}"]
    a, b = np.asarray(old), np.asarray(new)
    differing = (a != b).reshape(a.shape[0], a.shape[1], -1).any(axis=2)
    if not differing.any():
        return [f"{size} pixels ({old.mode}), the same pixels encoded otherwise; "
                f"{bytes_differences(committed, fresh)[0]}"]
    rows = np.flatnonzero(differing.any(axis=1))
    count = int(differing.sum())
    column = int(np.flatnonzero(differing[rows[0]])[0])
    return [f"{size} pixels ({old.mode}): {count:,} pixel{'s differ' if count > 1 else ' differs'}"
            f", in rows {rows[0]} to {rows[-1]} (row 0 at the top), the first at column {column}"]


# --- a file, and two folders -------------------------------------------------------------------
def file_differences(name: str, committed: bytes, fresh: bytes) -> FileDifferences:
    """What differs in the file ``name`` of ``reports/`` (a path relative to it), compared as
    its kind asks; no line when the bytes are the same.

    >>> file_differences("tables/x.csv", b"set,mean\\nnq,0.5\\n", b"set,mean\\nnq,0.75\\n").lines
    ('row [set=nq], mean: 0.5 → 0.75 (abs 0.25, rel 0.33)',)
    """
    if committed == fresh:
        return FileDifferences(())
    folder = name.partition("/")[0]
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if folder == "tables" and suffix == "csv":
        table = table_differences(committed, fresh)
        return FileDifferences(table.lines, table)
    compare = {"json": manifest_differences if name == "manifest.json" else text_differences,
               "ipynb": notebook_differences, "svg": svg_differences, "png": png_differences,
               "pdf": bytes_differences}.get(suffix, text_differences)
    if name == "paper/numbers.tex":
        compare = numbers_differences
    lines = compare(committed, fresh)
    if suffix == "pdf":  # compressed streams: where the bytes part says little
        lines = [f"{lines[0]} (a PDF, compared by its bytes: the figure's .svg says where)"]
    return FileDifferences(tuple(lines))


def _limited(name: str, lines: tuple[str, ...], limit: int) -> list[str]:
    shown_lines = [INDENT + line for line in lines[:limit]]
    if len(lines) > limit:
        shown_lines.append(f"{INDENT}… and {len(lines) - limit} more differences in {name}")
    return shown_lines


def compare_reports(committed: Mapping[str, bytes], fresh: Mapping[str, bytes], *,
                    limit: int = SHOWN_DIFFERENCES) -> list[str]:
    """What differs between two versions of ``reports/``, each given as {path relative to
    it: its bytes}: for each file, in the order of the paths, a line ``differs: <path>``
    followed by one indented line per difference (at most ``limit``, then how many more), or
    ``missing from reports/: <path>`` (only the fresh run wrote it) or ``not produced by a
    fresh run: <path>``; then one line adding it up. No line at all when they are the same.

    >>> compare_reports({"tables/a.csv": b"set,mean\\nnq,0.5\\n", "tables/old.csv": b""},
    ...                 {"tables/a.csv": b"set,mean\\nnq,0.5000000000000001\\n"})
    ['differs: tables/a.csv', '  row [set=nq], mean: 0.5 → 0.5000000000000001 (abs 1e-16, rel 2e-16)', 'not produced by a fresh run: tables/old.csv', '1 file differs, 1 not produced by a fresh run; 1 cell of 1 table differs, at most 2e-16 relative']
    """
    lines, tables, counts = [], [], {"differs": 0, "missing": 0, "extra": 0}
    for name in sorted(set(committed) | set(fresh)):
        if name not in committed:
            lines.append(f"missing from reports/: {name}")
            counts["missing"] += 1
        elif name not in fresh:
            lines.append(f"not produced by a fresh run: {name}")
            counts["extra"] += 1
        elif committed[name] != fresh[name]:
            found = file_differences(name, committed[name], fresh[name])
            lines.append(f"differs: {name}")
            lines += _limited(name, found.lines, limit)
            counts["differs"] += 1
            tables += [found.table] if found.table is not None else []
    if not lines:
        return []
    summary = [f"{counted(counts['differs'], 'file')} "
               f"{'differs' if counts['differs'] == 1 else 'differ'}"]
    summary += [f"{counts['missing']} missing from reports/"] if counts["missing"] else []
    summary += [f"{counts['extra']} not produced by a fresh run"] if counts["extra"] else []
    lines.append(", ".join(summary) + (f"; {tables_summary(tables)}" if tables else ""))
    return lines
