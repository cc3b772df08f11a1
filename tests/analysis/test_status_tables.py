"""Notebook 07's steps (fact status), called as its cells call them with a Session writing to
a temporary folder: the tables they return, the paper numbers quoted, the
files saved, and the signatures and inputs they carry.

Besides the shipped benchmark and schema, a heron benchmark of our own exercises what the
shipped rows do not: an equivalent formulation, a negation, a score floored at 0. Weights
bird 1, place 2, time 1 (total 4); a wrong or negated fact costs half its weight.

====  ==========================================  ==============================  ========  =========
id    attempt                                     statuses (bird, place, time)    weighted  checklist
====  ==========================================  ==============================  ========  =========
h1    The heron waits at the pond at dawn.        present, present, present       4/4       pass 3/3
h2    The heron waits at the lake at dawn.        present, present (lake), present  4/4     fail 2/3
h3    The heron is not at the pond at dawn.       present, negated, present       (2-1)/4   pass 3/3
h4    A heron waits by the river at dusk.         present, contradicted, contra.  0 (floor) fail 1/3
h5    It waits.                                   missing, missing, missing       0         fail 0/3
====  ==========================================  ==============================  ========  =========

h3's "not" ends three tokens before "pond" (not at the pond), inside the window of 3; "dawn"
is six tokens on, outside it. h4 scores (1 - 0.5 × (2 + 1)) / 4 < 0, floored at 0.
"""

from __future__ import annotations

import json

import pytest

import recallscore_nb as rs
from recallscore_nb.core.status import STATUSES
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
from recallscore_nb.io.files import sha256 as file_sha256
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from recallscore_nb.workbook.session import Session
from tests.workbook import sessions

STEM = "07_fact_status"

PARAMETERS = {"output_dir": str, "benchmark_path": str, "schema_path": str}
HERON = ["The heron waits at the pond at dawn.", "The heron waits at the lake at dawn.",
         "The heron is not at the pond at dawn.", "A heron waits by the river at dusk.",
         "It waits."]


def session(tmp_path, benchmark_path="", schema_path="") -> Session:
    return sessions.session(STEM, tmp_path, benchmark_path=str(benchmark_path),
                            schema_path=str(schema_path))


def started(tmp_path, benchmark_path="", schema_path="") -> Session:
    """A session opened as the notebook opens it: its session cell on the parameters cell's
    names."""
    return sessions.started(STEM, {
        "__annotations__": PARAMETERS, "output_dir": str(tmp_path),
        "benchmark_path": str(benchmark_path), "schema_path": str(schema_path)})


def scored_of(nb):
    return rs.score_fact_statuses(nb.benchmark, nb.schema, squad_mode="v1.1")


def steps(nb) -> dict:
    """Every table of notebook 07, as its cells make them, each saved, its numbers quoted."""
    facts = nb.benchmark.facts
    scored = scored_of(nb)
    t = {"schema": rs.schema_facts(nb.schema, facts), "settings": rs.schema_settings(nb.schema)}
    t["matrix"] = rs.status_matrix(scored, facts)
    t["counts"] = rs.status_counts(t["matrix"], facts)
    t["explanations"] = rs.explanations(scored, facts)
    for what, table in t.items():
        assert nb.save(what, table) is table
    nb.quote(rs.fact_status_numbers(t["matrix"], t["counts"], t["explanations"], facts=facts))
    return t


def written(folder, what, kind="tables"):
    return sessions.written(folder, STEM, what, kind)


@pytest.fixture
def heron(tmp_path):
    """The heron benchmark and its scoring schema: (benchmark path, schema path)."""
    bench = tmp_path / "in" / "heron.json"
    bench.parent.mkdir()
    bench.write_text(json.dumps({
        "schemaVersion": 1, "referenceAnswer": HERON[0],
        "protocol": {"factChecklist": [
            {"fact": "bird", "requiredTerms": ["heron"]},
            {"fact": "place", "requiredTerms": ["pond"]},
            {"fact": "time", "requiredTerms": ["dawn"]}]},
        "rows": [{"id": f"h{i}", "attempt": a} for i, a in enumerate(HERON, start=1)],
    }))
    schema = tmp_path / "in" / "heron.scoring.json"
    schema.write_text(json.dumps({
        "schemaVersion": 1,
        "disagreementNote": "A lake is a pond for this test. Another curator would disagree.",
        "falsePositivePenalty": 0.5,
        "facts": {"place": {"weight": 2, "equivalents": [["lake"]], "contradictions": [["river"]]},
                  "time": {"contradictions": [["dusk"]]}},
    }))
    return bench, schema


# --- the session cell: a schema of our own ------------------------------------------------
def test_start_with_a_schema_of_our_own(tmp_path, heron):
    bench, schema = heron
    nb = started(tmp_path, bench, schema)
    assert nb.signatures[-1] == load_scoring_schema(schema, _bench(bench)).signature()
    assert nb.signatures[-1].startswith(f"schema|sha256:{file_sha256(schema)[:12]}|fp:0.5|")
    assert set(nb.inputs.values()) == {file_sha256(bench), file_sha256(schema)}


def _bench(path):
    from recallscore_nb.io.benchmarks import load_benchmark

    return load_benchmark(path)


# --- the shipped benchmark -----------------------------------------------------------------
def test_status_table_on_the_shipped_benchmark(tmp_path):
    nb = session(tmp_path)
    table = steps(nb)["matrix"]
    assert table.columns.tolist() == [
        "id", "condition", "status_material", "status_object", "status_location",
        "status_timing", "weighted_score", "facts_present", "facts_total",
        "checklist_full_match"]
    assert table["id"].tolist() == [f"R{i:02d}" for i in range(1, 13)]
    assert table["status_material"].tolist()[8:] == ["missing", "present", "present",
                                                     "contradicted"]
    assert table["status_location"].tolist()[9] == "contradicted"
    assert table["status_timing"].tolist()[10] == "contradicted"
    assert (table["status_object"] == "present").all()
    assert table["weighted_score"].tolist() == pytest.approx([1.0] * 8 + [5 / 6, 3 / 6, 3 / 6, 4.5 / 6])
    assert table["checklist_full_match"].tolist() == [True] * 8 + [False] * 4
    # (8 + 5/6 + 1/2 + 1/2 + 3/4) / 12 = 0.8819...
    assert numbers(nb, "FactStatus").items() >= {
        "VariantCount": "12", "AllPresent": "8", "ChecklistFullMatches": "8",
        "FullWeightedScores": "8", "MeanWeightedScore": "0.882"}.items()
    assert written(tmp_path, "matrix")


def numbers(nb, prefix: str) -> dict[str, str]:
    """The paper numbers ``nb`` wrote whose names start with ``prefix``, without it."""
    return {k.removeprefix(prefix): v for k, v in nb.numbers.items() if k.startswith(prefix)}


def test_counts_table_on_the_shipped_benchmark(tmp_path):
    nb = session(tmp_path)
    counts = steps(nb)["counts"].set_index("fact")
    assert counts.columns.tolist() == list(STATUSES)
    assert counts.loc["material"].tolist() == [10, 1, 1, 0, 0]
    assert counts.loc["object"].tolist() == [12, 0, 0, 0, 0]
    assert counts.loc["location"].tolist() == [11, 0, 1, 0, 0]
    assert counts.loc["timing"].tolist() == [11, 0, 1, 0, 0]
    assert counts.loc["total"].tolist() == [44, 1, 3, 0, 0]
    assert numbers(nb, "FactStatus").items() >= {
        "Contradicted": "3", "MissingMaterial": "1", "NegatedTiming": "0",
        "Present": "44"}.items()
    assert written(tmp_path, "counts")


def test_explanations_table_on_the_shipped_benchmark(tmp_path):
    nb = session(tmp_path)
    table = steps(nb)["explanations"]
    assert table.to_dict("records") == [
        {"id": "R09", "fact": "material", "status": "missing", "matched": "", "terms": "",
         "spans": "", "cue": "", "conflict": ""},
        # "The copper token goes in the east drawer": east 29-33, drawer 34-40
        {"id": "R10", "fact": "location", "status": "contradicted", "matched": "contradiction[0]",
         "terms": "east; drawer", "spans": "29-33; 34-40", "cue": "", "conflict": ""},
        {"id": "R11", "fact": "timing", "status": "contradicted", "matched": "contradiction[0]",
         "terms": "after; museum", "spans": "41-46; 51-57", "cue": "", "conflict": ""},
        {"id": "R12", "fact": "material", "status": "contradicted", "matched": "contradiction[0]",
         "terms": "silver", "spans": "4-10", "cue": "", "conflict": ""},
    ]
    assert nb.numbers["FactStatusExplainedFacts"] == "4"


def test_schema_and_settings_tables(tmp_path):
    nb = session(tmp_path)
    t = steps(nb)
    facts = t["schema"].set_index("fact")
    assert facts.loc["location"].tolist() == [
        "2", "west + drawer", "west-drawer", "east + drawer; north + drawer; south + drawer"]
    assert facts.loc["object", "equivalents"] == "coin"
    assert facts.loc["material", "contradictions"].startswith("silver; gold; ")
    settings = t["settings"]
    assert settings["setting"].iloc[0] == "disagreement note"
    assert settings["value"].iloc[0] == ("One curator's reading of the four-fact answer, not "
                                         "the only defensible one.")
    rows = dict(zip(settings["setting"], settings["value"]))
    assert rows["false-positive penalty"] == "0.5"
    assert rows["negation cues"] == "not; no; never; without"
    assert rows["negation window (tokens)"] == "12"
    assert rows["signature"] == load_scoring_schema(DEFAULT_SCHEMA_PATH).signature()
    assert written(tmp_path, "schema") and written(tmp_path, "settings")


def test_status_figure_is_written_and_signed(tmp_path, svg_only):
    nb = started(tmp_path)
    matrix = rs.status_matrix(scored_of(nb), nb.benchmark.facts)
    nb.save("matrix", rs.fact_status_figure(matrix, nb.benchmark.facts))  # into its work folder until finish()
    assert written(nb.work_dir, "matrix", "figures")
    svg = (nb.work_dir / "figures" / f"{STEM}__matrix.svg").read_text()
    assert f"signature: {nb.signatures[-1]}" in svg


# --- a benchmark and schema of our own -----------------------------------------------------
def test_own_benchmark_statuses_and_scores(tmp_path, heron, svg_only):
    bench, schema = heron
    nb = started(tmp_path, bench, schema)
    t = steps(nb)
    table = t["matrix"]
    assert table["condition"].tolist() == [""] * 5
    assert [table[f"status_{f}"].tolist() for f in ("bird", "place", "time")] == [
        ["present", "present", "present", "present", "missing"],
        ["present", "present", "negated", "contradicted", "missing"],
        ["present", "present", "negated", "contradicted", "missing"],  # "not at the pond at dawn"
    ]
    assert table["weighted_score"].tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert table["facts_present"].tolist() == [3, 2, 3, 1, 0]
    assert table["checklist_full_match"].tolist() == [True, False, True, False, False]
    assert nb.numbers["FactStatusMeanWeightedScore"] == "0.400"  # 2 / 5
    assert nb.numbers["FactStatusAllPresent"] == "2"
    explained = t["explanations"].set_index(["id", "fact"])
    assert explained.loc[("h2", "place"), "matched"] == "equivalent[0]"
    assert explained.loc[("h2", "place"), "status"] == "present"
    # "The heron is not at the pond": "not" at 13-16, "pond" at 24-28
    assert explained.loc[("h3", "place")].tolist() == ["negated", "required", "pond", "24-28",
                                                       "not at 13-16", ""]
    assert explained.loc[("h3", "time"), "cue"] == "not at 13-16"  # the same clause
    assert explained.loc[("h4", "time"), "terms"] == "dusk"
    assert ("h1", "bird") not in explained.index
    counts = t["counts"].set_index("fact")
    assert counts.loc["total"].tolist() == [8, 3, 2, 2, 0]
    assert nb.numbers["FactStatusNegatedPlace"] == "1"
    assert t["schema"].set_index("fact")["weight"].tolist() == ["1", "2", "1"]
    assert t["settings"]["value"].tolist()[:2] == [
        "A lake is a pond for this test.", "Another curator would disagree."]
    nb.save("matrix", rs.fact_status_figure(table, nb.benchmark.facts))
    assert written(nb.work_dir, "matrix", "figures")
    fragment_numbers = nb.fragment()["numbers"]
    assert all(name.startswith("FactStatus") and name.isalpha() for name in fragment_numbers)
