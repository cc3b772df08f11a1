"""Notebook 06's chapter: the catalogue's source, suites, flags and figure, on the shipped file and
on one of our own."""

from __future__ import annotations

import json

import pytest

from recallscore_nb import __version__
from recallscore_nb.core.errors import CatalogueFormatError, UsageError
from recallscore_nb.io.data import DEFAULT_CATALOGUE
from recallscore_nb.workbook.chapters import suite_catalogue
from recallscore_nb.workbook.session import Session
from tests.workbook.chapters.sessions import session


def session_06(tmp_path, **parameters) -> Session:
    return session(suite_catalogue, tmp_path, **parameters)


# --- 06 ------------------------------------------------------------------------------------------
def test_catalogue_chapter_on_the_shipped_file(tmp_path):
    nb = session_06(tmp_path)
    source = suite_catalogue.source(nb)
    assert source.drop(columns="catalogue").values.tolist() == [["2026-09-09", 15, 15, 1317, 184]]
    assert source["catalogue"].item() == "recallscore_nb/data/catalogue/suites.json"
    nb.quote(suite_catalogue.numbers(source))
    assert nb.numbers == {"CatalogueGenerated": "2026-09-09", "CatalogueSuites": "15",
                          "CatalogueFlagged": "15"}
    suites = suite_catalogue.suites(nb)
    assert suites.set_index("id").loc["grounding", "flags"] == "void"
    assert suites.set_index("id").loc["toolscale", "flags"] == "ceiling"
    flags = suite_catalogue.flags(nb)
    assert len(flags) == 16
    fixes = suite_catalogue.fixes(nb)
    assert fixes.values.tolist() == [["contract", "grader-bug", "2026-09-09", "", ""]]
    assert flags.loc[flags["suite"] == "tools", "other"].item() == "toolscale"
    nb.save("suites", suite_catalogue.suites_figure(nb, suites))
    for ext in ("png", "pdf", "svg"):
        assert (tmp_path / "figures" / f"06_suite_catalogue__suites.{ext}").stat().st_size > 0
    assert list(nb.inputs) == ["recallscore_nb/data/catalogue/suites.json"]


def test_catalogue_chapter_on_a_catalogue_of_our_own(tmp_path):
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
    source = suite_catalogue.source(nb)
    assert source.drop(columns="catalogue").values.tolist() == [["2030-01-02", 2, 1, 8, 3]]
    assert suite_catalogue.suites(nb)["flags"].tolist() == ["saturated", ""]
    assert suite_catalogue.flags(nb).values.tolist() == [
        ["one", "saturated", "", "", "saturated now"]]


def test_catalogue_chapter_reports_a_bad_catalogue(tmp_path):
    data = json.loads(DEFAULT_CATALOGUE.read_text(encoding="utf-8"))
    data["suites"][9]["flags"] = [{"flag": "saturated", "evidence": "it is saturated"}]
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    nb = session_06(tmp_path, catalogue_path=str(path))
    with pytest.raises(CatalogueFormatError) as info:
        suite_catalogue.suites(nb)
    assert (info.value.row_id, info.value.field) == ("toolscale", "evidence")


def test_catalogue_start_signs_and_checks_the_path(tmp_path):
    namespace = {"__annotations__": {"output_dir": str, "catalogue_path": str,
                                     "results_path": str},
                 "output_dir": str(tmp_path), "catalogue_path": "", "results_path": ""}
    nb = suite_catalogue.start(namespace)
    assert nb.signatures == [
        "catalogue|flags:saturated+superseded+paired+void+floor+ceiling+small-n+confound"
        f"+unchecked-gold+grader-bug|evidence:verbatim-caveat-or-method|version:{__version__}"]
    assert list(nb.inputs) == ["recallscore_nb/data/catalogue/suites.json"]  # read at start
    nb.discard()
    namespace["catalogue_path"] = str(tmp_path / "missing.json")
    with pytest.raises(UsageError, match="catalogue_path: no such file"):
        suite_catalogue.start(namespace)


def test_results_dated_before_a_fix_are_counted_out(tmp_path):
    results = tmp_path / "results.csv"
    results.write_text("suite,date,score\ncontract,2026-09-01,1\ncontract,2026-09-09,2\n"
                       "contract,2026-10-01,3\ntools,2020-01-01,4\n", encoding="utf-8")
    nb = session_06(tmp_path, results_path=str(results))
    fixes = suite_catalogue.fixes(nb)
    assert fixes.values.tolist() == [["contract", "grader-bug", "2026-09-09", 3, 1]]
    assert len(nb.inputs) == 2  # the catalogue and the results, each with its hash
    nb.save("fixes", fixes)
    assert "2026-09-09" in (tmp_path / "tables" / "06_suite_catalogue__fixes.csv").read_text()
