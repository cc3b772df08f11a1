"""Notebook 06's steps: the catalogue's source, suites, flags, fixes and figure, on the shipped
file and on one of our own."""

from __future__ import annotations

import json

import pytest

import recallscore_nb as rs
from recallscore_nb.core.errors import CatalogueFormatError
from recallscore_nb.io.data import DEFAULT_CATALOGUE
from recallscore_nb.workbook.session import Session
from tests.workbook.sessions import session

STEM = "06_suite_catalogue"


def session_06(tmp_path, **parameters) -> Session:
    return session(STEM, tmp_path, **parameters)


def source_of(nb):
    return rs.catalogue_source(nb.catalogue, path=rs.relative_to_repo(nb.catalogue.path))


def fixes_of(nb):
    path = nb.params.results_path
    return rs.grader_fixes(nb.catalogue, rs.load_results(nb.read_input(path)) if path else None)


def test_catalogue_steps_on_the_shipped_file(tmp_path):
    nb = session_06(tmp_path)
    source = source_of(nb)
    assert source.drop(columns="catalogue").values.tolist() == [["2026-09-09", 15, 15, 1317, 184]]
    assert source["catalogue"].item() == "recallscore_nb/data/catalogue/suites.json"
    nb.quote(rs.catalogue_numbers(source))
    assert nb.numbers == {"CatalogueGenerated": "2026-09-09", "CatalogueSuites": "15",
                          "CatalogueFlagged": "15"}
    suites = rs.suites_frame(nb.catalogue)
    assert suites.set_index("id").loc["grounding", "flags"] == "void"
    assert suites.set_index("id").loc["toolscale", "flags"] == "ceiling"
    flags = rs.flags_frame(nb.catalogue)
    assert len(flags) == 16
    fixes = fixes_of(nb)
    assert fixes.values.tolist() == [["contract", "grader-bug", "2026-09-09", "", ""]]
    assert flags.loc[flags["suite"] == "tools", "other"].item() == "toolscale"
    nb.save("suites", rs.suites_figure(suites, nb.catalogue.generated))
    for ext in ("png", "pdf", "svg"):
        assert (tmp_path / "figures" / f"06_suite_catalogue__suites.{ext}").stat().st_size > 0
    assert list(nb.inputs) == ["recallscore_nb/data/catalogue/suites.json"]


def test_catalogue_steps_on_a_catalogue_of_our_own(tmp_path):
    data = {"generated": "2030-01-02", "suites": [
        {"id": "one", "title": "t", "version": "one/1", "question": "q?", "method": "m.",
         "grading": "g.", "caveat": "It is saturated now.", "cases": 3, "runs": 2,
         "flags": [{"flag": "saturated", "evidence": "saturated now"}]},
        {"id": "two", "title": "t", "version": "two/1", "question": "q?", "method": "m.",
         "grading": "g.", "caveat": "Fine.", "cases": 5, "runs": 1, "flags": []},
    ]}
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    nb = session_06(tmp_path, catalogue_path=str(path))
    source = source_of(nb)
    assert source.drop(columns="catalogue").values.tolist() == [["2030-01-02", 2, 1, 8, 3]]
    assert rs.suites_frame(nb.catalogue)["flags"].tolist() == ["saturated", ""]
    assert rs.flags_frame(nb.catalogue).values.tolist() == [
        ["one", "saturated", "", "", "saturated now"]]


def test_catalogue_steps_reports_a_bad_catalogue(tmp_path):
    data = json.loads(DEFAULT_CATALOGUE.read_text(encoding="utf-8"))
    data["suites"][9]["flags"] = [{"flag": "saturated", "evidence": "it is saturated"}]
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    nb = session_06(tmp_path, catalogue_path=str(path))
    with pytest.raises(CatalogueFormatError) as info:
        rs.suites_frame(nb.catalogue)
    assert (info.value.row_id, info.value.field) == ("toolscale", "evidence")


def test_results_dated_before_a_fix_are_counted_out(tmp_path):
    results = tmp_path / "results.csv"
    results.write_text("suite,date,score\ncontract,2026-09-01,1\ncontract,2026-09-09,2\n"
                       "contract,2026-10-01,3\ntools,2020-01-01,4\n", encoding="utf-8")
    nb = session_06(tmp_path, results_path=str(results))
    fixes = fixes_of(nb)
    assert fixes.values.tolist() == [["contract", "grader-bug", "2026-09-09", 3, 1]]
    assert len(nb.inputs) == 2  # the catalogue and the results, each with its hash
    nb.save("fixes", fixes)
    assert "2026-09-09" in (tmp_path / "tables" / "06_suite_catalogue__fixes.csv").read_text()
