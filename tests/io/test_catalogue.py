"""The suite catalogue: the shipped file and its curated flags, the frames, and every kind
of bad file reported with its file, JSON path, suite id and field."""

from __future__ import annotations

import copy
import json

import pytest

from recallscore_nb.core.errors import CatalogueFormatError, InputFileError
from recallscore_nb.io.catalogue import load_catalogue
from recallscore_nb.io.data import DEFAULT_CATALOGUE


# The curation, pinned: every suite's flags as (flag, other suite or None).
CURATED = {
    "synthesis": [("floor", None)],  # every model scores 0/10 on one arm
    "screening": [("saturated", None)],
    "grounding": [("void", None)],
    "nullschema": [("void", None)],
    "tagger": [("unchecked-gold", None)],  # its pairing is recorded on tagger_nullable
    "tagger_nullable": [("paired", "tagger")],
    "epistemics": [("saturated", None)],
    "enrichment": [("small-n", None)],
    "tools": [("superseded", "toolscale")],
    "toolscale": [("ceiling", None)],  # a model that clears every rung: out of steps
    "chainwalk": [("confound", None)],  # the running total is arithmetic, not chaining
    "contract": [("grader-bug", None), ("void", None)],
    "toolcall": [("confound", None)],  # the serving runtime
    "shapegen": [("confound", None)],  # knowing @scope syntax
    "sitebuild": [("void", None)],
}


@pytest.fixture(scope="module")
def shipped():
    return load_catalogue()


@pytest.fixture
def data():
    return json.loads(DEFAULT_CATALOGUE.read_text(encoding="utf-8"))


def write(tmp_path, data, name="cat.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def load_error(path) -> CatalogueFormatError:
    with pytest.raises(CatalogueFormatError) as info:
        load_catalogue(path)
    return info.value


# --- the shipped catalogue ----------------------------------------------------------------------
def test_shipped_catalogue(shipped):
    assert shipped.generated == "2026-09-09"
    assert len(shipped.suites) == 15
    assert shipped.path == str(DEFAULT_CATALOGUE)
    assert [s.id for s in shipped.suites] == list(CURATED)


def test_shipped_flags_are_the_curated_ones(shipped):
    got = {s.id: [(f.flag, f.suite) for f in s.flags] for s in shipped.suites}
    assert got == CURATED


def test_every_shipped_evidence_is_the_suites_own_words(shipped):
    for suite in shipped.suites:
        for flag in suite.flags:
            assert flag.evidence in suite.caveat or flag.evidence in suite.method


def test_shipped_file_is_the_source_plus_flags(data, shipped):
    assert set(data) == {"generated", "suites"}
    for raw, suite in zip(data["suites"], shipped.suites):
        assert set(raw) == {"id", "title", "version", "question", "method", "grading",
                            "caveat", "cases", "runs", "flags"}
        assert (raw["cases"], raw["runs"]) == (suite.cases, suite.runs)


def test_unknown_suite_fields_are_kept(tmp_path, data):
    data["suites"][0]["owner"] = "someone"
    suite = load_catalogue(write(tmp_path, data)).suites[0]
    assert suite.extra == {"owner": "someone"}


# --- bad files: where and what --------------------------------------------------------------------
def _edit(data, index, **fields):
    out = copy.deepcopy(data)
    out["suites"][index].update(fields)
    return out


@pytest.mark.parametrize(
    ("edit", "location", "field", "row_id", "expected", "got"),
    [
        # evidence that is not the suite's own words (here: paraphrased)
        (lambda d: _edit(d, 1, flags=[{"flag": "saturated", "evidence": "nearly saturated"}]),
         "$.suites[1].flags[0]", "evidence", "screening",
         "a verbatim substring of the suite's caveat or method", '"nearly saturated"'),
        # evidence from the question does not count
        (lambda d: _edit(d, 6, flags=[{"flag": "saturated", "evidence": "Does the model answer"}]),
         "$.suites[6].flags[0]", "evidence", "epistemics",
         "a verbatim substring of the suite's caveat or method", '"Does the model answer"'),
        # a flag outside the vocabulary
        (lambda d: _edit(d, 1, flags=[{"flag": "stale", "evidence": "This suite"}]),
         "$.suites[1].flags[0]", "flag", "screening",
         "one of saturated, superseded, paired, void, floor, ceiling, small-n, confound, "
         "unchecked-gold, grader-bug", '"stale"'),
        # a repeated id
        (lambda d: _edit(d, 2, id="synthesis"),
         "$.suites[2]", "id", "synthesis", "a unique id",
         '"synthesis", a duplicate (already the id of $.suites[0])'),
        # paired without naming the other suite
        (lambda d: _edit(d, 5, flags=[{"flag": "paired", "evidence": "Paired with tagger"}]),
         "$.suites[5].flags[0]", "suite", "tagger_nullable",
         "the id of the other suite (a paired flag names one)", "nothing"),
        # superseded by a suite that is not in the catalogue
        (lambda d: _edit(d, 8, flags=[{"flag": "superseded", "suite": "toolz",
                                       "evidence": "Superseded"}]),
         "$.suites[8].flags[0]", "suite", "tools", "the id of another suite in the catalogue",
         '"toolz"'),
        # a flag that names a suite it has no business naming
        (lambda d: _edit(d, 3, flags=[{"flag": "void", "suite": "grounding",
                                       "evidence": "the run is void"}]),
         "$.suites[3].flags[0]", "suite", "nullschema",
         "nothing (only paired and superseded flags name a suite)", '"grounding"'),
        # the same flag twice
        (lambda d: _edit(d, 3, flags=[{"flag": "void", "evidence": "the run is void"},
                                      {"flag": "void", "evidence": "The three arms must differ."}]),
         "$.suites[3].flags[1]", "flag", "nullschema",
         "a flag not already given to this suite", '"void"'),
        # issue 12: a grader bug without its fix date, with one its text does not state, and
        # a date on a flag that carries none
        (lambda d: _edit(d, 11, flags=[{"flag": "grader-bug", "evidence": "A grader bug"}]),
         "$.suites[11].flags[0]", "fixed", "contract",
         "the date the bug was fixed, YYYY-MM-DD (a grader-bug flag carries one)", "nothing"),
        (lambda d: _edit(d, 11, flags=[{"flag": "grader-bug", "evidence": "A grader bug",
                                        "fixed": "2026-09-10"}]),
         "$.suites[11].flags[0]", "fixed", "contract",
         "a date the suite's caveat or method states", '"2026-09-10"'),
        (lambda d: _edit(d, 11, flags=[{"flag": "grader-bug", "evidence": "A grader bug",
                                        "fixed": "9 Sept 2026"}]),
         "$.suites[11].flags[0]", "fixed", "contract",
         "a date YYYY-MM-DD (the day the grader bug was fixed)", '"9 Sept 2026"'),
        (lambda d: _edit(d, 3, flags=[{"flag": "void", "evidence": "the run is void",
                                       "fixed": "2026-09-09"}]),
         "$.suites[3].flags[0]", "fixed", "nullschema",
         "nothing (only grader-bug flags carry a date)", '"2026-09-09"'),
        # a negative count
        (lambda d: _edit(d, 0, cases=-1),
         "$.suites[0]", "cases", "synthesis", "an integer >= 0", "-1"),
        # the bad date
        (lambda d: {**d, "generated": "9 Sept"},
         "$", "generated", None, "a date YYYY-MM-DD", '"9 Sept"'),
    ],
)
def test_bad_catalogue_is_located(tmp_path, data, edit, location, field, row_id, expected, got):
    path = write(tmp_path, edit(data))
    err = load_error(path)
    assert isinstance(err, InputFileError)
    assert (err.file, err.location, err.field, err.row_id) == (str(path), location, field, row_id)
    assert (err.expected, err.got) == (expected, got)


def test_missing_flags_is_an_error_not_an_empty_list(tmp_path, data):
    del data["suites"][0]["flags"]
    err = load_error(write(tmp_path, data))
    assert (err.location, err.field, err.got) == ("$.suites[0]", "flags", "nothing")
    assert str(err).endswith("$.suites[0] (id synthesis): flags: expected an array, got nothing")


def test_every_problem_is_collected(tmp_path, data):
    data["suites"][1]["flags"][0]["evidence"] = "not there"
    data["suites"][6]["flags"][0]["evidence"] = "nor this"
    err = load_error(write(tmp_path, data))
    assert [e.row_id for e in err.errors] == ["screening", "epistemics"]


@pytest.mark.parametrize(
    ("content", "location", "message"),
    [
        (b"{\"generated\": ", "line 1 column 15", "not valid JSON: Expecting value"),
        (b"\xff{}", "byte 0", "not UTF-8 text (byte 0xff)"),
        (b"[]", "$", "expected an object, got []"),
        (b'{"generated": "2026-01-01", "generated": "2026-01-02", "suites": []}', "$",
         "duplicate key"),
    ],
)
def test_unreadable_files(tmp_path, content, location, message):
    path = tmp_path / "cat.json"
    path.write_bytes(content)
    err = load_error(path)
    assert (err.location, err.message) == (location, message)


def test_missing_file(tmp_path):
    err = load_error(tmp_path / "none.json")
    assert err.message == "no such file" and err.file == str(tmp_path / "none.json")


# --- issue 12: results files, read against the fix dates -----------------------------------
def test_results_files_are_read_as_text_and_their_dates_checked(tmp_path):
    from recallscore_nb.core.errors import InputFileError
    from recallscore_nb.io.catalogue import load_results

    good = tmp_path / "results.csv"
    good.write_text("suite,date,score\ncontract,2026-09-01,007\n", encoding="utf-8")
    assert load_results(good).values.tolist() == [["contract", "2026-09-01", "007"]]
    bad = tmp_path / "bad.csv"
    bad.write_text("suite,date\ncontract,2026-9-1\ntools,2026-02-30\n", encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        load_results(bad)
    assert [str(e) for e in info.value.errors] == [
        f"{bad}: line 2 (id contract): date: expected a date YYYY-MM-DD, got '2026-9-1'",
        f"{bad}: line 3 (id tools): date: expected a date YYYY-MM-DD, got '2026-02-30'"]
    (tmp_path / "nodate.csv").write_text("suite\nx\n", encoding="utf-8")
    with pytest.raises(InputFileError, match="missing column 'date'"):
        load_results(tmp_path / "nodate.csv")
