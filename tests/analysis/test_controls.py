"""Notebook 05's negative controls: zero under every rule, the stuffing control zero under the
schema and a finding for the checklist, and a vacuous pass that stops the notebook."""

from __future__ import annotations

import pandas as pd
import pytest

import recallscore_nb as rs
from recallscore_nb.analysis.controls import vacuous_passes
from recallscore_nb.core.errors import VacuousControlError
from tests.analysis.notebook_steps import (  # noqa: F401 (shipped_05: a fixture)
    session_05,
    shipped_05,
    steps,
    write_attempts,
)
from tests.conftest import DELETE, write_benchmark


def test_controls_score_zero_everywhere(shipped_05):
    table = shipped_05[1]["controls"]
    assert table["control"].tolist() == ["control:empty", "control:idk", "control:stuffing"]
    assert table["attempt"].tolist()[:2] == ["", "I don't know"]
    assert table["attempts"].tolist() == [24, 24, 24]
    assert (table[list(rs.measures_with_schema())][:2] == 0).all().all()


def test_the_stuffing_control_is_zero_under_the_schema_and_a_finding_for_the_checklist(
        shipped_05):
    """Issue 12: an attempt that lists every required term, equivalent and contradiction."""
    nb, tables = shipped_05
    stuffed = tables["controls"].set_index("control").loc["control:stuffing"]
    assert stuffed["attempt"].startswith("copper silver gold bronze")
    assert (stuffed["schema_full_match"], stuffed["weighted_score"]) == (0, 0)
    assert (stuffed["checklist_full_match"], stuffed["partial_credit"]) == (1, 1)
    table = tables["stuffing"].set_index("measure")
    assert table.loc["weighted score", ["score", "must be 0", "finding"]].tolist() == [
        0.0, "yes", "gives it 0"]
    checklist = rs.measures_with_schema()["checklist_full_match"]
    assert table.loc[checklist, ["score", "finding"]].tolist() == [
        1.0, "credits an answer that lists every candidate"]
    assert nb.numbers["ReanalysisStuffingPassedMeasures"] == str(
        int(((table["must be 0"] != "yes") & (table["score"] > 0)).sum()))


def vacuous(tmp_path, reference: str, term: str, attempt: str) -> VacuousControlError:
    """What notebook 05 raises on a one-row benchmark of ``reference`` (one fact, ``term``)
    and one attempt."""
    bench = write_benchmark(tmp_path, referenceAnswer=reference,
                            protocol={"factChecklist": [{"fact": "f", "requiredTerms": [term]}]},
                            rows=[{"id": "R1", "attempt": reference}], summary=DELETE)
    attempts = write_attempts(tmp_path, [f"a1,a,{attempt}"])
    nb = session_05(tmp_path, benchmark_path=str(bench), attempts_path=str(attempts))
    with pytest.raises(VacuousControlError) as info:
        steps(nb)
    return info.value


def test_a_vacuous_pass_stops_the_notebook(tmp_path):
    # a reference that is itself "I don't know": every rule credits control:idk
    error = vacuous(tmp_path, "I don't know", "know", "I do not know")
    failures = error.failures
    assert ("control:idk", "checklist_full_match", 1.0) in failures
    assert {control for control, _, _ in failures} == {"control:idk"}
    assert "negative control 'control:idk' scores 1 under checklist_full_match" in str(error)
    assert "vacuous pass" in str(error)


def test_squad_normalizing_the_reference_away_is_caught_by_the_empty_control(tmp_path):
    # "The." has no SQuAD token left, so SQuAD exact match credits the empty attempt
    error = vacuous(tmp_path, "The.", "the", "The.")
    assert ("control:empty", "squad_exact_match", 1.0) in error.failures


def test_vacuous_passes_sorts_worst_first():
    table = pd.DataFrame({"control": ["c1", "c2"], "token_f1": [0.25, 0.5],
                          "literal_match": [0.0, 1.0]})
    assert vacuous_passes(table) == [("c2", "literal_match", 1.0),
                                     ("c2", "token_f1", 0.5),
                                     ("c1", "token_f1", 0.25)]
