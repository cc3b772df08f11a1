"""The steps of notebooks 05 and 08 as their cells make them, on a session of the test's, for
the tests of the modules they call (:mod:`~recallscore_nb.analysis.system_means`,
:mod:`~recallscore_nb.analysis.controls`, :mod:`~recallscore_nb.io.attempts.systems`,
:mod:`~recallscore_nb.analysis.meta_tables`) and for the figures' tests."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import recallscore_nb as rs
from recallscore_nb.workbook.session import Session
from tests.workbook.sessions import session

STEM = "05_reanalysis"
RESAMPLES, SEED = 200, 20260916


def session_05(tmp_path, **parameters) -> Session:
    return session(STEM, tmp_path, **({"seed": SEED, "resamples": RESAMPLES} | parameters))


def read_attempts(nb) -> pd.DataFrame:
    return rs.read_system_attempts(nb.read_input(nb.params.attempts_path or rs.DEFAULT_ATTEMPTS))


def steps(nb) -> dict[str, pd.DataFrame]:
    """Every table of notebook 05, as its cells make them (the controls' check included)."""
    attempts = read_attempts(nb)
    scores = rs.score_with_controls(nb.benchmark, attempts, nb.schema, squad_mode="v1.1")
    intervals = rs.bootstrap_intervals(scores, by="system", seed=nb.params.seed,
                                       resamples=nb.params.resamples, confidence=0.95)
    controls = rs.control_means(scores, schema=nb.schema)
    return {"attempts": attempts, "systems": rs.attempts_per_system(attempts), "scores": scores,
            "controls": controls, "stuffing": rs.stuffing_findings(controls),
            "intervals": intervals,
            "saturation": rs.saturated(rs.without_controls(intervals), by="rule",
                                       threshold=0.95)}


def intervals_figure(nb, intervals, saturation):
    return rs.intervals_figure(
        intervals, rs.saturated_by_rule(saturation), rs.measures_with_schema(),
        controls=rs.CONTROL_SYSTEMS, confidence=0.95, threshold=0.95,
        resamples=nb.params.resamples, seed=nb.params.seed)


@pytest.fixture(scope="module")
def shipped_05(tmp_path_factory):
    nb = session_05(tmp_path_factory.mktemp("out05"))
    tables = steps(nb)
    nb.quote(rs.reanalysis_numbers(tables["systems"], tables["saturation"], tables["stuffing"],
                                   resamples=nb.params.resamples))
    return nb, tables


def write_attempts(tmp_path: Path, rows, header="id,system,attempt") -> Path:
    path = tmp_path / "attempts.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def judged_sets(nb):
    """Notebook 08's reading cell."""
    params = nb.params
    return rs.read_judged_sets(params.sets, items_path=params.items_path,
                               attempts_path=params.attempts_path,
                               judgments_path=params.judgments_path, read=nb.read_input)


def evaluate(nb):
    """Notebook 08's reading and evaluation cells."""
    params = nb.params
    return rs.meta_evaluate_sets(
        judged_sets(nb), reference_judge=params.reference_judge, annotators=params.annotators,
        protocol=params.protocol, seed=params.seed, resamples=params.resamples,
        f1_threshold=0.5)
