"""The schema-aware columns of `recallscore score --schema`: statuses, weighted scores and
bases as compact JSON text, in CSV and in Parquet with the schema's signature."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from recallscore_nb.core.registry import signatures
from recallscore_nb.core.rules import rules_for
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from tests.conftest import run_cli as run
from tests.report_fixtures import FACTS, IDS, WEIGHTED, sha

pytestmark = pytest.mark.usefixtures("in_tmp")  # every test in its own temporary folder


def test_score_with_a_schema_adds_statuses_scores_and_bases(capsys):
    code, out, err = run(capsys, "score", "--schema", DEFAULT_SCHEMA_PATH)
    assert code == 0
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert err.splitlines() == signatures("v1.1") + [schema.signature()]  # rules', normalizers'
    assert err.splitlines()[:len(rules_for())] == [r.signature() for r in rules_for("v1.1")]
    lines = out.splitlines()
    columns = lines[0].split(",")
    assert columns[-9:] == [*(f"status_{f}" for f in FACTS), "weighted_score",
                            *(f"basis_{f}" for f in FACTS)]
    frame = pd.read_csv(pd.io.common.StringIO(out), dtype=str, keep_default_na=False)
    assert frame["status_location"].tolist() == ["present"] * 9 + ["contradicted", "present", "present"]
    assert frame["status_material"].tolist()[8:] == ["missing", "present", "present", "contradicted"]
    assert frame["weighted_score"].astype(float).tolist() == pytest.approx([WEIGHTED[i] for i in IDS])
    basis = json.loads(frame["basis_location"][9])
    assert basis["matched"] == "contradiction[0]" and basis["spans"] == [[29, 33], [34, 40]]
    assert ": " not in frame["basis_location"][9]  # compact JSON text


def test_score_with_a_schema_to_parquet_records_its_signature(capsys):
    assert run(capsys, "score", "--schema", DEFAULT_SCHEMA_PATH, "--out", "s.parquet")[0] == 0
    table = pq.read_table("s.parquet")
    meta = json.loads(table.schema.metadata[b"recallscore"])
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert meta["signatures"][-1] == schema.signature()
    assert meta["schema_sha256"] == sha(DEFAULT_SCHEMA_PATH)
    assert table.column("weighted_score").type == "double"
    assert table.column("status_timing").to_pylist()[10] == "contradicted"
