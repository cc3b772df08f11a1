"""What several chapters share: the scoring schema a notebook's parameters name."""

from __future__ import annotations

import pytest

from recallscore_nb.core.errors import UsageError
from recallscore_nb.io.data import DEFAULT_SCHEMA_PATH
from recallscore_nb.workbook.chapters.shared import scoring_schema
from recallscore_nb.workbook.session import Session
from tests.conftest import write_benchmark


def _session(tmp_path, **parameters) -> Session:
    return Session(stem="07_fact_status", output_dir=tmp_path,
                   parameters={"output_dir": str(tmp_path), "benchmark_path": "",
                               "schema_path": "", **parameters})


def test_the_shipped_schema_for_the_shipped_benchmark_read_once_and_recorded(tmp_path):
    nb = _session(tmp_path)
    schema = scoring_schema(nb)
    assert schema.path == str(DEFAULT_SCHEMA_PATH) and scoring_schema(nb) is schema
    assert "recallscore_nb/data/benchmarks/four_fact_recall.scoring.json" in nb.inputs


def test_no_schema_for_a_benchmark_of_ones_own(tmp_path):
    nb = _session(tmp_path, benchmark_path=str(write_benchmark(tmp_path)))
    schema = scoring_schema(nb)
    assert schema.is_default and list(schema.facts) == ["bird", "place", "time"]


def test_a_schema_path_that_names_no_file(tmp_path):
    with pytest.raises(UsageError, match="schema_path: no such file: .*nope.json"):
        scoring_schema(_session(tmp_path, schema_path=str(tmp_path / "nope.json")))
