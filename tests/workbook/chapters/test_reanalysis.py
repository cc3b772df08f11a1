"""Notebook 05's chapter: several systems' attempts under every rule, bootstrap intervals, negative
controls and saturation."""

from __future__ import annotations

import json
import sys

import pandas as pd
import pytest

from recallscore_nb import __version__
from recallscore_nb.analysis.stats import bootstrap_ci
from recallscore_nb.core.errors import AttemptsFormatError, UsageError, VacuousControlError
from recallscore_nb.workbook.chapters import reanalysis
from recallscore_nb.workbook.session import Session
from tests.conftest import DELETE, write_benchmark
from tests.workbook.chapters.sessions import session


RESAMPLES, SEED = 200, 20260916


def session_05(tmp_path, **parameters) -> Session:
    return session(reanalysis, tmp_path, **({"seed": SEED, "resamples": RESAMPLES} | parameters))


def steps(nb) -> dict[str, pd.DataFrame]:
    """Every table of notebook 05, as its cells make them (the controls' check included)."""
    attempts = reanalysis.attempts(nb)
    scores = reanalysis.scores(nb, attempts)
    intervals = reanalysis.intervals(nb, scores)
    controls = reanalysis.controls(nb, scores)
    return {"attempts": attempts, "systems": reanalysis.systems(attempts), "scores": scores,
            "controls": controls, "stuffing": reanalysis.stuffing(controls),
            "intervals": intervals, "saturation": reanalysis.saturation(intervals)}


@pytest.fixture(scope="module")
def shipped_05(tmp_path_factory):
    nb = session_05(tmp_path_factory.mktemp("out05"))
    tables = steps(nb)
    nb.quote(reanalysis.numbers(nb, tables["systems"], tables["saturation"],
                                tables["stuffing"]))
    return nb, tables


# --- 05: the shipped example ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "rule", "expected"),
    [
        ("sys-a", "literal_match", 19 / 24),
        ("sys-a", "normalized_match", 22 / 24),
        ("sys-a", "checklist_full_match", 23 / 24),
        ("sys-a", "partial_credit", 95 / 96),
        ("sys-b", "literal_match", 1 / 24),
        ("sys-b", "normalized_match", 2 / 24),
        ("sys-b", "checklist_full_match", 1),
        ("sys-c", "literal_match", 7 / 24),
        ("sys-c", "checklist_full_match", 9 / 24),
        ("sys-c", "partial_credit", 80 / 96),
        ("sys-d", "literal_match", 0),
        ("sys-d", "checklist_full_match", 20 / 24),
        ("sys-d", "partial_credit", 92 / 96),
        ("sys-e", "checklist_full_match", 6 / 24),
        ("sys-e", "partial_credit", 59 / 96),
        ("control:empty", "token_f1", 0),
        ("control:idk", "checklist_full_match", 0),
    ],
)
def test_shipped_means(shipped_05, system, rule, expected):
    table = shipped_05[1]["intervals"].set_index(["system", "rule"])
    assert table.loc[(system, rule), "mean"] == pytest.approx(expected, abs=1e-12)
    assert table.loc[(system, rule), "n"] == 24


def test_intervals_layout_and_bracketing(shipped_05):
    flat = shipped_05[1]["intervals"]
    assert flat.columns.tolist() == ["system", "rule", "n", "mean", "low", "high"]
    assert flat["system"].unique().tolist() == ["sys-a", "sys-b", "sys-c", "sys-d", "sys-e",
                                                "control:empty", "control:idk",
                                                "control:stuffing"]
    assert flat["rule"].unique().tolist() == list(reanalysis.measures())
    # a constant's mean may differ from the constant in its last bit (the stuffing control)
    assert (flat["low"] <= flat["mean"] + 1e-12).all()
    assert (flat["mean"] <= flat["high"] + 1e-12).all()


def test_a_systems_interval_is_bootstrap_ci_of_its_own_scores(shipped_05):
    table = shipped_05[1]["intervals"].set_index(["system", "rule"])
    scores = shipped_05[1]["scores"]
    values = scores.loc[scores["system"] == "sys-c", "token_f1"]
    expected = bootstrap_ci(values, resamples=RESAMPLES, seed=SEED)
    assert tuple(table.loc[("sys-c", "token_f1"), ["low", "high"]]) == expected


def test_saturation_on_the_shipped_example(shipped_05):
    nb, tables = shipped_05
    table = tables["saturation"].set_index("rule")
    assert table.index.tolist() == list(reanalysis.measures())
    assert table.index[table["saturated"]].tolist() == [
        "checklist_full_match", "partial_credit", "schema_full_match", "weighted_score"]
    assert table.loc["checklist_full_match", ["best", "second"]].tolist() == ["sys-b", "sys-a"]
    assert table.loc["literal_match", ["best", "second"]].tolist() == ["sys-a", "sys-c"]
    assert not table.loc["literal_match", "overlap"]
    assert nb.numbers["ReanalysisSaturatedRules"] == "4"


def test_controls_score_zero_everywhere(shipped_05):
    table = shipped_05[1]["controls"]
    assert table["control"].tolist() == ["control:empty", "control:idk", "control:stuffing"]
    assert table["attempt"].tolist()[:2] == ["", "I don't know"]
    assert table["attempts"].tolist() == [24, 24, 24]
    assert (table[list(reanalysis.measures())][:2] == 0).all().all()


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
    checklist = reanalysis.measures()["checklist_full_match"]
    assert table.loc[checklist, ["score", "finding"]].tolist() == [
        1.0, "credits an answer that lists every candidate"]
    assert nb.numbers["ReanalysisStuffingPassedMeasures"] == str(
        int(((table["must be 0"] != "yes") & (table["score"] > 0)).sum()))


def test_systems_table_and_numbers(shipped_05):
    nb, tables = shipped_05
    table = tables["systems"]
    assert table.values.tolist() == [["sys-a", 24, 6], ["sys-b", 24, 24], ["sys-c", 24, 18],
                                     ["sys-d", 24, 24], ["sys-e", 24, 22]]
    assert nb.numbers["ReanalysisSystems"] == "5" and nb.numbers["ReanalysisAttempts"] == "120"


def test_scores_table_has_every_attempt_and_the_controls(shipped_05):
    scores = shipped_05[1]["scores"]
    assert len(scores) == 120 + 3 * 24
    assert scores["id"].is_unique
    assert scores.loc[scores["id"] == "control:idk-01", "attempt"].item() == "I don't know"
    assert shipped_05[1]["attempts"].columns.tolist() == ["id", "system", "attempt"]


def test_the_figure_shows_the_saturated_rules_and_is_saved(shipped_05):
    nb, tables = shipped_05
    fig = reanalysis.intervals_figure(nb, tables["intervals"], tables["saturation"])
    shown = nb.save("intervals", fig)
    for ext in ("png", "pdf", "svg"):
        assert (nb.output_dir / "figures" / f"05_reanalysis__intervals.{ext}").stat().st_size > 0
    assert shown._repr_png_() == (nb.output_dir / "figures" / "05_reanalysis__intervals.png").read_bytes()
    assert nb.numbers["ReanalysisResamples"] == str(RESAMPLES)


def test_start_signs_the_rules_and_the_bootstrap(tmp_path):
    namespace = {"__annotations__": {"output_dir": str, "benchmark_path": str,
                                     "schema_path": str, "attempts_path": str, "seed": int,
                                     "resamples": int},
                 "output_dir": str(tmp_path), "benchmark_path": "", "schema_path": "",
                 "attempts_path": "", "seed": 7, "resamples": 300}
    nb = reanalysis.start(namespace)
    assert nb.signatures[-1] == (
        f"bootstrap|ci:percentile-95|unit:attempt|n:300|seed:7|version:{__version__}")
    assert nb.signatures[-2].startswith("schema|")
    assert len(nb.signatures) == 8  # the six rules, the schema and the bootstrap
    assert (nb.params.seed, nb.params.resamples) == (7, 300)
    assert sorted(nb.inputs) == ["recallscore_nb/data/benchmarks/four_fact_recall.json",
                                 "recallscore_nb/data/benchmarks/four_fact_recall.scoring.json"]
    reanalysis.attempts(nb)  # the notebook's next cell: read before any output
    assert sorted(nb.inputs) == ["recallscore_nb/data/attempts/four_fact_systems.csv",
                                 "recallscore_nb/data/benchmarks/four_fact_recall.json",
                                 "recallscore_nb/data/benchmarks/four_fact_recall.scoring.json"]
    nb.discard()


def test_start_refuses_zero_resamples(tmp_path):
    namespace = {"__annotations__": {"output_dir": str, "benchmark_path": str,
                                     "schema_path": str, "attempts_path": str, "seed": int,
                                     "resamples": int},
                 "output_dir": str(tmp_path), "benchmark_path": "", "schema_path": "",
                 "attempts_path": "", "seed": 7, "resamples": 0}
    with pytest.raises(UsageError, match="'resamples' must be an int >= 1"):
        reanalysis.start(namespace)


# --- 05: files of our own ------------------------------------------------------------------------
def write_attempts(tmp_path, rows, header="id,system,attempt"):
    path = tmp_path / "attempts.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def test_own_attempts_on_the_kite_benchmark(tmp_path, bench_path):
    # conftest's kite benchmark: K1 copied (3 facts), K5 one fact of three
    attempts = write_attempts(tmp_path, [
        "x1,x,The red kite nests on the mill roof at dawn.",
        "x2,x,The red kite nests on the barn roof at dusk.",
        "y1,y,At dawn.",
    ])
    nb = session_05(tmp_path, benchmark_path=str(bench_path), attempts_path=str(attempts))
    tables = steps(nb)
    table = tables["intervals"].set_index(["system", "rule"])
    assert table.loc[("x", "checklist_full_match"), "mean"] == 1 / 2
    assert table.loc[("x", "partial_credit"), "mean"] == pytest.approx((3 / 3 + 1 / 3) / 2)
    assert table.loc[("y", "partial_credit"), ["n", "mean", "low", "high"]].tolist() == [
        1, 1 / 3, 1 / 3, 1 / 3]  # n = 1: the value twice
    assert tables["controls"]["attempts"].tolist() == [1, 1, 1]  # as many as the smallest system


def test_a_vacuous_pass_stops_the_chapter(tmp_path):
    # a reference that is itself "I don't know": every rule credits control:idk
    bench = write_benchmark(tmp_path, referenceAnswer="I don't know",
                            protocol={"factChecklist": [{"fact": "stance",
                                                         "requiredTerms": ["know"]}]},
                            rows=[{"id": "R1", "attempt": "I don't know"}], summary=DELETE)
    attempts = write_attempts(tmp_path, ["a1,a,I do not know"])
    nb = session_05(tmp_path, benchmark_path=str(bench), attempts_path=str(attempts))
    with pytest.raises(VacuousControlError) as info:
        steps(nb)
    failures = info.value.failures
    assert ("control:idk", "checklist_full_match", 1.0) in failures
    assert {control for control, _, _ in failures} == {"control:idk"}
    assert "negative control 'control:idk' scores 1 under checklist_full_match" in str(info.value)
    assert "vacuous pass" in str(info.value)


def test_squad_normalizing_the_reference_away_is_caught_by_the_empty_control(tmp_path):
    # "The." has no SQuAD token left, so SQuAD exact match credits the empty attempt
    bench = write_benchmark(tmp_path, referenceAnswer="The.",
                            protocol={"factChecklist": [{"fact": "word",
                                                         "requiredTerms": ["the"]}]},
                            rows=[{"id": "R1", "attempt": "The."}], summary=DELETE)
    attempts = write_attempts(tmp_path, ["a1,a,The."])
    nb = session_05(tmp_path, benchmark_path=str(bench), attempts_path=str(attempts))
    with pytest.raises(VacuousControlError) as info:
        steps(nb)
    assert ("control:empty", "squad_exact_match", 1.0) in info.value.failures


@pytest.mark.parametrize(
    ("header", "rows", "field", "location"),
    [
        ("id,attempt", ["a1,The copper token."], "system", ""),
        ("id,system,attempt", ["a1,s,x", "a2,control:me,y"], "system", "row 1"),
    ],
)
def test_bad_attempts_files(tmp_path, header, rows, field, location):
    attempts = write_attempts(tmp_path, rows, header=header)
    nb = session_05(tmp_path, attempts_path=str(attempts))
    with pytest.raises(AttemptsFormatError) as info:
        reanalysis.attempts(nb)
    assert (info.value.file, info.value.field, info.value.location) == (
        str(attempts), field, location)


def test_a_null_system_is_located(tmp_path):
    path = tmp_path / "attempts.jsonl"
    path.write_text('{"id": "a1", "system": "s", "attempt": "x"}\n'
                    '{"id": "a2", "system": null, "attempt": "y"}\n', encoding="utf-8")
    nb = session_05(tmp_path, attempts_path=str(path))
    with pytest.raises(AttemptsFormatError) as info:
        reanalysis.attempts(nb)
    assert (info.value.location, info.value.row_id, info.value.got) == ("row 1", "a2", "null")


def test_vacuous_passes_sorts_worst_first():
    table = pd.DataFrame({"control": ["c1", "c2"], "token_f1": [0.25, 0.5],
                          "literal_match": [0.0, 1.0]})
    assert reanalysis.vacuous_passes(table) == [("c2", "literal_match", 1.0),
                                                ("c2", "token_f1", 0.5),
                                                ("c1", "token_f1", 0.25)]
