"""Shared fixtures: a small benchmark of our own, written where a test wants it.

The benchmark is not the shipped one: another reference, three facts, one multi-word term
("red kite"), five rows with every published label and a summary that all agree with the
rules. Each expected value can be checked by hand:

=====  ==================================================  =======  ==========  =====  =====
id     attempt                                             literal  normalized  facts  full
=====  ==================================================  =======  ==========  =====  =====
K1     The red kite nests on the mill roof at dawn.        true     true        3      true
K2     THE RED KITE NESTS ON THE MILL ROOF AT DAWN         false    true        3      true
K3     At dawn, the red kite nests on the mill roof.       false    false       3      true
K4     The kite, red, nests on the mill roof at dawn.      false    false       2      false
K5     The red kite nests on the barn roof at dusk.        false    false       1      false
=====  ==================================================  =======  ==========  =====  =====

K4 splits the multi-word term "red kite", so the bird fact is missing; K5 keeps the bird but
loses "mill" (place) and "dawn" (time). SQuAD tokens of the reference (articles dropped):
``red kite nests on mill roof at dawn`` (8); K5 shares 6 of its 8, so its token F1 is 6/8.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
"""Files only the tests read."""
NOTELESS_SCHEMA = DATA / "four_fact_recall.scoring.invalid_missing_note.json"
"""The shipped scoring schema without its disagreementNote: refused."""
STORED_REPORT = DATA / "four_fact_recall.report.json"
"""The scored report of the shipped benchmark under the shipped scoring schema, as ``recallscore
report --out tests/data/four_fact_recall.report.json`` writes it from the repository root."""

REFERENCE = "The red kite nests on the mill roof at dawn."

FACTS = [
    {"fact": "bird", "requiredTerms": ["red kite"]},
    {"fact": "place", "requiredTerms": ["mill", "roof"]},
    {"fact": "time", "requiredTerms": ["dawn"]},
]


def _row(id_, condition, attempt, complete, literal, normalized, present, full):
    return {
        "id": id_,
        "condition": condition,
        "attempt": attempt,
        "fixtureFactsComplete": complete,
        "literalMatch": literal,
        "normalizedMatch": normalized,
        "factsPresent": present,
        "checklistFullMatch": full,
    }


BENCHMARK = {
    "schemaVersion": 1,
    "title": "Three-fact kite benchmark (test fixture)",
    "referenceAnswer": REFERENCE,
    "protocol": {"factChecklist": FACTS},
    "summary": {
        "variantCount": 5,
        "completeFactFixtures": 3,
        "oneFactChangedOrMissingFixtures": 2,
        "literalFullMatches": 1,
        "normalizedFullMatches": 2,
        "checklistFullMatches": 3,
    },
    "rows": [
        _row("K1", "copied", REFERENCE, True, True, True, 3, True),
        _row("K2", "shouted", "THE RED KITE NESTS ON THE MILL ROOF AT DAWN", True, False, True, 3, True),
        _row("K3", "reordered", "At dawn, the red kite nests on the mill roof.", True, False, False, 3, True),
        _row("K4", "term split", "The kite, red, nests on the mill roof at dawn.", False, False, False, 2, False),
        _row("K5", "two facts changed", "The red kite nests on the barn roof at dusk.", False, False, False, 1, False),
    ],
}
"""The fixture benchmark as a dict; copy it (``benchmark_data()``) before editing."""

ROW_IDS = [row["id"] for row in BENCHMARK["rows"]]

DELETE = object()
"""An override value that removes the key instead of setting it."""


def benchmark_data(**overrides) -> dict:
    """A deep copy of :data:`BENCHMARK` with top-level keys replaced (``DELETE`` removes one)."""
    data = copy.deepcopy(BENCHMARK)
    for key, value in overrides.items():
        if value is DELETE:
            data.pop(key, None)
        else:
            data[key] = copy.deepcopy(value)
    return data


def write_benchmark(tmp_path: Path, name: str = "bench.json", *, data: dict | None = None,
                    **overrides) -> Path:
    """Write the fixture benchmark (or ``data``) with ``overrides`` applied; return its path.

    ``write_benchmark(tmp_path, summary=DELETE)`` writes a file without a summary.
    """
    content = benchmark_data(**overrides) if data is None else data
    path = Path(tmp_path) / name
    path.write_text(json.dumps(content, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def bench_path(tmp_path) -> Path:
    """The fixture benchmark written to ``tmp_path / "bench.json"``."""
    return write_benchmark(tmp_path)


# --- items files ---------------------------------------------------------------------------
KITE = {"item": "kite", "referenceAnswer": "A red kite nests by the river.",
        "factChecklist": [{"fact": "bird", "requiredTerms": ["red kite"]},
                          {"fact": "place", "requiredTerms": ["river"]}]}


CAPITAL = {"item": "capital", "referenceAnswer": ["Paris", "Lutetia"]}


def write_items(tmp_path, lines, name="items.jsonl"):
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                            for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run the test in its own temporary folder (files written by bare name land there)."""
    monkeypatch.chdir(tmp_path)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr); arguments may be paths."""
    from recallscore_nb.cli.main import main

    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit_:  # argparse: --version, --help and usage errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def with_rows(edit) -> dict:
    """The fixture benchmark after ``edit(rows)`` changed its rows in place."""
    data = benchmark_data()
    edit(data["rows"])
    return data


@pytest.fixture
def svg_only(monkeypatch):
    """Figures saved as SVG only: each format costs about half a second per figure."""
    from recallscore_nb.render import figures

    monkeypatch.setattr(figures, "FIGURE_FORMATS", ("svg",))


@pytest.fixture
def own_benchmark(tmp_path):
    """Another reference, three facts, no labels, no conditions; counted by hand:
    o1 copies the reference; o2 drops the article "A" (so SQuAD EM and the checklist pass,
    literal and normalized fail); o3 keeps two facts; o4 is the reference upper-cased."""
    reference = "A blue heron waits at the quiet pond."
    rows = [reference, "blue heron waits at the quiet pond", "A heron waits at the pond.",
            reference.upper()]
    path = tmp_path / "heron.json"
    path.write_text(json.dumps({
        "schemaVersion": 1, "referenceAnswer": reference,
        "protocol": {"factChecklist": [
            {"fact": "bird", "requiredTerms": ["blue heron"]},
            {"fact": "action", "requiredTerms": ["waits"]},
            {"fact": "place", "requiredTerms": ["pond"]}]},
        "rows": [{"id": f"o{i}", "attempt": a} for i, a in enumerate(rows, start=1)],
    }))
    return path
