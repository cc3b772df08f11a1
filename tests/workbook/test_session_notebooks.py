"""Each notebook's session cell, run as the kernel runs it (no kernel): the session it opens
signs its outputs with what the notebook computes with, and has read the inputs its
parameters name before any output."""

from __future__ import annotations

import pytest

import recallscore_nb as rs
from recallscore_nb import __version__
from recallscore_nb.analysis.ablation import ABLATIONS, pipeline_signature
from recallscore_nb.core.errors import SchemaFormatError, UsageError
from recallscore_nb.core.registry import signatures
from recallscore_nb.io.data import DEFAULT_BENCHMARK, DEFAULT_SCHEMA_PATH
from recallscore_nb.io.files import sha256 as file_sha256
from recallscore_nb.io.scoring_schemas import load_scoring_schema
from recallscore_nb.workbook.session import relative_to_repo
from tests.conftest import NOTELESS_SCHEMA
from tests.workbook.sessions import started

PATHS_07 = {"output_dir": str, "benchmark_path": str, "schema_path": str}
PATHS_05 = {"output_dir": str, "benchmark_path": str, "schema_path": str, "attempts_path": str,
            "seed": int, "resamples": int, "confidence": float, "threshold": float,
            "squad_mode": str}
OPTIONS_05 = {"confidence": 0.95, "threshold": 0.95, "squad_mode": "v1.1"}


def namespace(annotations: dict, **values) -> dict:
    """A parameters cell's names as the kernel holds them."""
    return {"__annotations__": annotations, **values}


# --- 01 ------------------------------------------------------------------------------------------
def test_01_reads_the_benchmark_and_signs_the_rules_of_its_squad_mode(tmp_path):
    nb = started("01_reproduce_benchmark", namespace(
        {"output_dir": str, "benchmark_path": str, "squad_mode": str},
        output_dir=str(tmp_path), benchmark_path="", squad_mode="v2.0"))
    assert nb.params.squad_mode == "v2.0"
    assert list(nb.inputs) == ["recallscore_nb/data/benchmarks/four_fact_recall.json"]
    assert "squad_exact_match|mode:v2.0|norm:squad|version:" in "\n".join(nb.signatures)
    nb.discard()


# --- 03 ------------------------------------------------------------------------------------------
def test_03_signs_every_pipeline(tmp_path):
    nb = started("03_normalization_ablation", namespace(
        PATHS_07, output_dir=str(tmp_path), benchmark_path="", schema_path=""))
    for normalizer in ABLATIONS.values():
        assert pipeline_signature(normalizer) in nb.signatures
    assert nb.signatures[-1] == nb.schema.signature()
    nb.discard()


# --- 05 ------------------------------------------------------------------------------------------
def test_05_signs_the_rules_and_the_bootstrap(tmp_path):
    nb = started("05_reanalysis", namespace(
        PATHS_05, output_dir=str(tmp_path), benchmark_path="", schema_path="", attempts_path="",
        seed=7, resamples=300, **OPTIONS_05))
    assert nb.signatures[-1] == (
        f"bootstrap|ci:percentile-95|unit:attempt|n:300|seed:7|version:{__version__}")
    assert nb.signatures[-2].startswith("schema|")
    assert [s.split("|")[1] for s in nb.signatures[-7:-2]] == [
        "name:seed", "name:squad", "name:answer", "name:answer+numbers", "name:answer+stems"]
    assert nb.signatures[-8].startswith("equivalent|norm:answer|cascade:3|steps:exact+")
    assert len(nb.signatures) == 14  # seven rules, five normalizers, schema, bootstrap
    assert (nb.params.seed, nb.params.resamples) == (7, 300)
    assert sorted(nb.inputs) == ["recallscore_nb/data/benchmarks/four_fact_recall.json",
                                 "recallscore_nb/data/benchmarks/four_fact_recall.scoring.json"]
    # the notebook's next cell: read before any output
    rs.read_system_attempts(nb.read_input(nb.params.attempts_path or rs.DEFAULT_ATTEMPTS))
    assert sorted(nb.inputs) == ["recallscore_nb/data/attempts/four_fact_systems.csv",
                                 "recallscore_nb/data/benchmarks/four_fact_recall.json",
                                 "recallscore_nb/data/benchmarks/four_fact_recall.scoring.json"]
    nb.discard()


def test_05_refuses_zero_resamples(tmp_path):
    with pytest.raises(UsageError, match="'resamples' must be an int >= 1"):
        started("05_reanalysis", namespace(
            PATHS_05, output_dir=str(tmp_path), benchmark_path="", schema_path="",
            attempts_path="", seed=7, resamples=0, **OPTIONS_05))


# --- 06 ------------------------------------------------------------------------------------------
def test_06_signs_and_checks_the_path(tmp_path):
    values = namespace({"output_dir": str, "catalogue_path": str, "results_path": str},
                       output_dir=str(tmp_path), catalogue_path="", results_path="")
    nb = started("06_suite_catalogue", dict(values))
    assert nb.signatures == [
        "catalogue|flags:saturated+superseded+paired+void+floor+ceiling+small-n+confound"
        f"+unchecked-gold+grader-bug|evidence:verbatim-caveat-or-method|version:{__version__}"]
    assert list(nb.inputs) == ["recallscore_nb/data/catalogue/suites.json"]  # read at start
    nb.discard()
    values["catalogue_path"] = str(tmp_path / "missing.json")
    with pytest.raises(UsageError, match="catalogue_path: no such file"):
        started("06_suite_catalogue", values)


# --- 07 ------------------------------------------------------------------------------------------
def started_07(tmp_path, benchmark_path="", schema_path=""):
    return started("07_fact_status", namespace(
        PATHS_07, output_dir=str(tmp_path), benchmark_path=str(benchmark_path),
        schema_path=str(schema_path)))


def test_07_signs_with_the_rules_and_the_schema(tmp_path):
    nb = started_07(tmp_path)
    schema = load_scoring_schema(DEFAULT_SCHEMA_PATH)
    assert nb.signatures == signatures() + [schema.signature()]
    assert nb.inputs == {relative_to_repo(DEFAULT_BENCHMARK): file_sha256(DEFAULT_BENCHMARK),
                         relative_to_repo(DEFAULT_SCHEMA_PATH): file_sha256(DEFAULT_SCHEMA_PATH)}


def test_07_with_a_missing_schema_file(tmp_path):
    with pytest.raises(UsageError, match="schema_path: no such file: .*nope.json"):
        started_07(tmp_path, schema_path=tmp_path / "nope.json")


def test_07_with_an_invalid_schema(tmp_path):
    with pytest.raises(SchemaFormatError) as caught:
        started_07(tmp_path, schema_path=NOTELESS_SCHEMA)
    assert caught.value.field == "disagreementNote"
