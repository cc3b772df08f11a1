"""Notebook 05's steps: several systems' attempts under every rule, their bootstrap intervals
and saturation, with the controls beside them, the figure and the numbers."""

from __future__ import annotations

import pytest

import recallscore_nb as rs
from recallscore_nb.analysis.bootstrap import bootstrap_ci
from tests.analysis.notebook_steps import (  # noqa: F401 (shipped_05: a fixture)
    RESAMPLES,
    SEED,
    intervals_figure,
    session_05,
    shipped_05,
    steps,
    write_attempts,
)


# --- 05: the shipped example ---------------------------------------------------------------------
EQUIVALENT_MEANS = {
    "sys-a": 23 / 24, "sys-b": 23 / 24,  # a fact changed in one attempt of each
    "sys-c": 12 / 24, "sys-d": 19 / 24, "sys-e": 7 / 24, "control:idk": 0,
    # the stuffed list offers alternatives for words of the reference ("west drawer … east
    # drawer"): cascade 2's overlap step refuses it (cascade 1's accepted it)
    "control:stuffing": 0,
}


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
        *[(system, "equivalent", mean) for system, mean in EQUIVALENT_MEANS.items()],
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
    assert flat["rule"].unique().tolist() == list(rs.measures_with_schema())
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
    assert table.index.tolist() == list(rs.measures_with_schema())
    assert table.index[table["saturated"]].tolist() == [
        "checklist_full_match", "partial_credit", "equivalent", "schema_full_match",
        "weighted_score"]
    assert table.loc["equivalent", ["best", "second", "best_mean", "second_mean"]].tolist() == [
        "sys-a", "sys-b", 23 / 24, 23 / 24]
    assert table.loc["checklist_full_match", ["best", "second"]].tolist() == ["sys-b", "sys-a"]
    assert table.loc["literal_match", ["best", "second"]].tolist() == ["sys-a", "sys-c"]
    assert not table.loc["literal_match", "overlap"]
    assert nb.numbers["ReanalysisSaturatedRules"] == "5"


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
    fig = intervals_figure(nb, tables["intervals"], tables["saturation"])
    shown = nb.save("intervals", fig)
    for ext in ("png", "pdf", "svg"):
        assert (nb.output_dir / "figures" / f"05_reanalysis__intervals.{ext}").stat().st_size > 0
    assert shown._repr_png_() == (nb.output_dir / "figures" / "05_reanalysis__intervals.png").read_bytes()
    assert nb.numbers["ReanalysisResamples"] == str(RESAMPLES)


# --- 05: files of our own ------------------------------------------------------------------------
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
