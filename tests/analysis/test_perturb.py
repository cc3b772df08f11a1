"""Drafting a benchmark from a reference (``recallscore perturb``).

On the shipped reference, the draft must load as a benchmark, reproduce, and give every
condition the shipped benchmark publishes the same labels as the shipped row. Each kind of
variant is also checked alone, on small references whose expected text can be read off.
"""

from __future__ import annotations

import json
import re

import pytest

from recallscore_nb.analysis.perturb import (
    CHECKLIST_LOSES,
    INTENDED_LABELS,
    KINDS,
    dumps_benchmark,
    perturb_benchmark,
)
from recallscore_nb.analysis.reproduce import reproduce
from recallscore_nb.cli.handlers import perturb_command
from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.benchmarks import load_benchmark
from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from tests.conftest import benchmark_data, write_benchmark
from tests.perturb_fixtures import KITE_REFERENCE, SHIPPED

LABELS = ["literalMatch", "normalizedMatch", "factsPresent", "checklistFullMatch",
          "fixtureFactsComplete"]
BUILT_IN_SKIPS = [
    "skipped object changed: no built-in alternative for its terms (token)",
    "skipped material paraphrased: no equivalent in the scoring schema",
    "skipped object paraphrased: no equivalent in the scoring schema",
    "skipped location paraphrased: no equivalent in the scoring schema",
    "skipped timing paraphrased: no equivalent in the scoring schema",
    "skipped object hedged: no built-in alternative for its terms (token)",
    "skipped answer stuffed: no contradictions to list (give a scoring schema)",
]


def draft(tmp_path, benchmark=None, *, seed=0, schema=None, name="draft.json"):
    """Run perturb_command; return (the written file's path, its stderr lines)."""
    out = tmp_path / name
    text, lines = perturb_command(benchmark, out, seed, schema)
    assert text == ""  # written to the file
    return out, lines


def by_condition(path) -> dict[str, dict]:
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    return {row["condition"]: row for row in rows}


# --- the shipped reference ---------------------------------------------------------------
@pytest.mark.parametrize("schema", [None, DEFAULT_SCHEMA_PATH], ids=["built-in", "schema"])
def test_shipped_draft_validates_and_reproduces(tmp_path, schema):
    out, _ = draft(tmp_path, schema=schema)
    bench = load_benchmark(out)
    rep = reproduce(bench)
    assert rep.agrees
    assert rep.unchecked == ()
    assert rep.checked == len(bench.rows) * 4 + 6
    n = 22 if schema is None else 26
    assert [row.id for row in bench.rows] == [f"P{i:02d}" for i in range(1, n + 1)]
    assert bench.reference == SHIPPED.reference
    assert bench.facts == SHIPPED.facts


@pytest.mark.parametrize("schema", [None, DEFAULT_SCHEMA_PATH], ids=["built-in", "schema"])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_shipped_conditions_get_the_published_labels(tmp_path, seed, schema):
    out, _ = draft(tmp_path, seed=seed, schema=schema)
    drafted = by_condition(out)
    for row in SHIPPED.rows:
        assert row.condition in drafted, row.condition
        got = {label: drafted[row.condition][label] for label in LABELS}
        assert got == row.expected, row.condition


def test_shipped_draft_rows(tmp_path):
    """Every kind, labelled by what it did: four conditions keep the normalized text, one
    keeps the literal text, eight keep every fact; a negated or hedged fact keeps its terms
    (the checklist must still find it) but the answer no longer states it."""
    out, lines = draft(tmp_path)
    rows = by_condition(out)
    assert list(rows) == [
        "reference copied exactly", "uppercase", "punctuation removed", "spacing changed",
        "clauses reordered", "telegraphic wording", "leading context added",
        "articles and verb removed",
        "material omitted", "object omitted", "location omitted", "timing omitted",
        "material changed", "location changed", "timing changed",
        "material negated", "object negated", "location negated", "timing negated",
        "material hedged", "location hedged", "timing hedged",
    ]
    for condition, row in rows.items():
        kind = condition if condition in KINDS else "fact " + condition.split(" ", 1)[1]
        literal, normalized, complete = INTENDED_LABELS[kind]
        lost = kind in CHECKLIST_LOSES
        assert (row["literalMatch"], row["normalizedMatch"]) == (literal, normalized), condition
        assert row["fixtureFactsComplete"] is complete, condition
        assert row["checklistFullMatch"] is (not lost), condition
        assert row["factsPresent"] == 4 - lost, condition
    assert rows["location negated"]["attempt"] == (
        "The copper token goes not in the west drawer before the museum opens.")
    assert rows["location hedged"]["fixtureFactsComplete"] is False
    assert rows["clauses reordered"]["attempt"] == (
        "Before the museum opens, the copper token goes in the west drawer.")
    assert rows["telegraphic wording"]["attempt"] == (
        "Copper token: west drawer before museum opens.")
    assert rows["articles and verb removed"]["attempt"] == (
        "Copper token in west drawer before museum opens.")
    assert rows["material omitted"]["attempt"] == (
        "The token goes in the west drawer before the museum opens.")
    assert rows["timing omitted"]["attempt"] == "The copper token goes in the west drawer."
    assert lines == BUILT_IN_SKIPS


def test_shipped_draft_summary_and_provenance(tmp_path):
    out, _ = draft(tmp_path, seed=3)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"] == {
        "variantCount": 22,
        "completeFactFixtures": 8,
        "oneFactChangedOrMissingFixtures": 14,
        "literalFullMatches": 1,
        "normalizedFullMatches": 4,
        "checklistFullMatches": 15,
    }
    generated = data["generatedBy"]
    assert generated["seed"] == 3
    assert generated["source"] == {"file": "four_fact_recall.json", "sha256": SHIPPED.sha256}
    assert generated["skipped"][0] == {
        "condition": "object changed", "reason": "no built-in alternative for its terms (token)"}
    assert len(generated["skipped"]) == len(BUILT_IN_SKIPS)
    assert "seed 3" in data["versionHistory"][0]["change"]


# --- determinism -------------------------------------------------------------------------
def test_same_seed_same_bytes(tmp_path):
    first, _ = draft(tmp_path, seed=5, name="a.json")
    second, _ = draft(tmp_path, seed=5, name="b.json")
    assert first.read_bytes() == second.read_bytes()


def test_other_seed_other_draws(tmp_path):
    """The lead-in phrase, the widened gap and the changed values are drawn from the seed;
    the kinds without a choice to make come out the same."""
    rows = [by_condition(draft(tmp_path, seed=seed, name=f"{seed}.json")[0]) for seed in (0, 1)]
    differing = {c for c in rows[0] if rows[0][c]["attempt"] != rows[1][c]["attempt"]}
    assert differing
    assert differing <= {"spacing changed", "leading context added", "material changed",
                         "location changed", "timing changed", "material hedged",
                         "location hedged", "timing hedged"}
    assert {row["condition"] for row in rows[0].values()} == set(rows[1])


# --- other references: skipped kinds ----------------------------------------------------
def test_kite_reference_skips_what_it_cannot_make(tmp_path):
    """No conjunction or comma to reorder at, and no built-in alternative to "mill"/"roof"."""
    out, lines = draft(tmp_path, write_benchmark(tmp_path))
    assert lines == [
        "skipped clauses reordered: no subordinating conjunction or comma to split a clause at",
        "skipped place changed: no built-in alternative for its terms (mill, roof)",
        "skipped bird paraphrased: no equivalent in the scoring schema",
        "skipped place paraphrased: no equivalent in the scoring schema",
        "skipped time paraphrased: no equivalent in the scoring schema",
        "skipped place hedged: no built-in alternative for its terms (mill, roof)",
        "skipped answer stuffed: no contradictions to list (give a scoring schema)",
    ]
    assert reproduce(load_benchmark(out)).agrees
    rows = by_condition(out)
    assert "clauses reordered" not in rows and "place changed" not in rows
    assert rows["time changed"]["attempt"] != KITE_REFERENCE
    assert len(rows) == 17


def test_reference_with_a_comma_is_reordered(tmp_path):
    data = benchmark_data(referenceAnswer="At dawn, the red kite nests on the mill roof.")
    out, lines = draft(tmp_path, write_benchmark(tmp_path, data=data))
    assert not any(line.startswith("skipped clauses reordered") for line in lines)
    assert by_condition(out)["clauses reordered"]["attempt"] == (
        "The red kite nests on the mill roof, at dawn.")
    assert reproduce(load_benchmark(out)).agrees


# --- contradictions ----------------------------------------------------------------------
def test_given_contradictions_are_used():
    contradictions = {"material": [["unobtainium"]], "object": [["coin"]]}
    doc, skipped = perturb_benchmark(SHIPPED, seed=0, contradictions=contradictions)
    rows = {row["condition"]: row["attempt"] for row in doc["rows"]}
    assert rows["material changed"] == (
        "The unobtainium token goes in the west drawer before the museum opens.")
    assert rows["object changed"] == (
        "The copper coin goes in the west drawer before the museum opens.")
    assert [condition for condition, _ in skipped if "changed" in condition] == []
    assert doc["generatedBy"]["changedValues"] == (
        "scoring schema contradictions, else built-in alternatives")


def test_schema_contradictions_are_used(tmp_path):
    out, lines = draft(tmp_path, schema=DEFAULT_SCHEMA_PATH)
    rows = by_condition(out)
    location = rows["location changed"]["attempt"]
    timing = rows["timing changed"]["attempt"]
    assert any(f" {side} drawer " in location for side in ("east", "north", "south"))
    assert any(f" {word} the museum opens." in timing for word in ("after", "once", "when"))
    schema = json.loads(out.read_text(encoding="utf-8"))["generatedBy"]["scoringSchema"]
    assert schema["file"] == "four_fact_recall.scoring.json"
    assert lines == ["skipped object changed: no built-in alternative for its terms (token)",
                     "skipped material paraphrased: no equivalent in the scoring schema",
                     "skipped object hedged: no built-in alternative for its terms (token)"]
    assert rows["object paraphrased"]["attempt"] == (
        "The copper coin goes in the west drawer before the museum opens.")
    assert rows["location paraphrased"]["attempt"] == (
        "The copper token goes in the west-drawer before the museum opens.")
    assert rows["answer stuffed"]["attempt"].startswith("copper silver gold")


def test_contradiction_with_a_blank_term_is_left_out():
    doc, _ = perturb_benchmark(SHIPPED, contradictions={"material": [["unobtainium", "--"]]})
    rows = {row["condition"]: row["attempt"] for row in doc["rows"]}
    assert "unobtainium" not in rows["material changed"]


# --- checks and the file format ----------------------------------------------------------
def test_labels_come_from_the_transformation_so_reproduce_catches_a_scorer_bug(
        monkeypatch, tmp_path):
    """A checklist that matches terms as substrings of the raw text (a bug): the draft's
    labels do not move, and reproduce on the draft names what the bug scores wrongly (before,
    the labels were the scorer's own, so reproduce agreed with any bug)."""
    import numpy as np

    from recallscore_nb.core import engine

    right, _ = perturb_benchmark(SHIPPED, seed=0)

    def substring_checklist(attempts, facts, normalizer=None):
        texts = [t.lower() for t in attempts.raw.to_pylist()]
        return np.array([[all(term.lower() in t for term in f.terms) for f in facts]
                         for t in texts], dtype=bool).reshape(len(texts), len(facts))

    monkeypatch.setattr(engine, "checklist_matrix", substring_checklist)
    buggy, _ = perturb_benchmark(SHIPPED, seed=0)
    assert buggy == right  # nothing in the labels comes from scoring
    path = tmp_path / "draft.json"
    path.write_text(dumps_benchmark(buggy), encoding="utf-8")
    rep = reproduce(load_benchmark(path))
    assert not rep.agrees
    # P14, "location changed": "the northwest drawer" holds "west" as a substring
    assert [(d.row, d.field, d.published, d.recomputed) for d in rep.differences
            if d.row != "summary"] == [("P14", "factsPresent", 3, 4),
                                       ("P14", "checklistFullMatch", False, True)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seed": "1"}, "'seed' must be an integer"),
        ({"contradictions": {"colour": [["red"]]}}, "names fact 'colour', which is not"),
        ({"contradictions": {"material": ["silver"]}}, "must be a list of lists of terms"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(UsageError, match=message):
        perturb_benchmark(SHIPPED, **options)


def test_file_is_one_row_a_line(tmp_path):
    out, _ = draft(tmp_path)
    text = out.read_text(encoding="utf-8")
    assert text == dumps_benchmark(json.loads(text))
    row_lines = [line for line in text.splitlines() if line.startswith('    {"id": "P')]
    assert len(row_lines) == 22


def test_default_benchmark_is_the_shipped_one(tmp_path):
    default, _ = draft(tmp_path, name="default.json")
    named, _ = draft(tmp_path, DEFAULT_BENCHMARK, name="named.json")
    assert default.read_bytes() == named.read_bytes()


def test_cli(tmp_path, capsys):
    from recallscore_nb.cli.main import build_parser, main

    if "perturb" not in build_parser()._subparsers._group_actions[0].choices:
        pytest.skip("the perturb command is not wired into cli.py yet")
    out = tmp_path / "draft.json"
    assert main(["perturb", "--out", str(out), "--seed", "2"]) == 0
    _, err = capsys.readouterr()
    assert err == "".join(line + "\n" for line in BUILT_IN_SKIPS)
    assert main(["validate", str(out)]) == 0
    assert main(["reproduce", str(out)]) == 0


# --- issue 12: numbers keep their punctuation; the new kinds --------------------------------
def test_a_numeric_reference_gives_well_formed_variants(tmp_path):
    reference = "The rope is 15 km long and costs 12%."
    data = {"schemaVersion": 1, "referenceAnswer": reference,
            "protocol": {"factChecklist": [{"fact": "length", "requiredTerms": ["15 km"]},
                                           {"fact": "cost", "requiredTerms": ["12%"]}]},
            "rows": [{"id": "R1", "attempt": reference}]}
    out, _ = draft(tmp_path, write_benchmark(tmp_path, data=data))
    rows = by_condition(out)
    assert rows["punctuation removed"]["attempt"] == "The rope is 15 km long and costs 12%"
    assert rows["cost omitted"]["attempt"] == "The rope is 15 km long and costs."
    assert not [r["attempt"] for r in rows.values() if re.search(r"(?<![0-9])%", r["attempt"])]
    assert reproduce(load_benchmark(out)).agrees
