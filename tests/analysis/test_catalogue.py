"""The catalogue's frames and signature, on the shipped catalogue."""

from __future__ import annotations

import pytest

from recallscore_nb import __version__
from recallscore_nb.analysis.catalogue import catalogue_signature, flags_frame, suites_frame
from recallscore_nb.core.catalogue import FLAGS
from recallscore_nb.io.catalogue import load_catalogue


@pytest.fixture(scope="module")
def shipped():
    return load_catalogue()


def test_signature():
    assert catalogue_signature() == (
        "catalogue|flags:saturated+superseded+paired+void+floor+ceiling+small-n+confound"
        f"+unchecked-gold+grader-bug|evidence:verbatim-caveat-or-method|version:{__version__}")
    assert list(FLAGS) == ["saturated", "superseded", "paired", "void", "floor", "ceiling",
                           "small-n", "confound", "unchecked-gold", "grader-bug"]


# --- the frames ---------------------------------------------------------------------------------
def test_suites_frame(shipped):
    frame = suites_frame(shipped)
    assert frame.columns.tolist() == ["id", "version", "question", "grading", "cases", "runs",
                                      "caveat", "flags", "read_with"]
    rows = frame.set_index("id")
    assert rows.loc["chainwalk", ["cases", "runs"]].tolist() == [2, 16]
    assert rows.loc["tools", "flags"] == "superseded by toolscale"
    assert rows.loc["screening", "flags"] == "saturated"
    assert rows.loc["synthesis", "flags"] == "floor"
    assert rows.loc["contract", "flags"] == "grader-bug (fixed 2026-09-09); void"
    # the pairing reads from both sides
    assert rows.loc["tagger", "read_with"] == "tagger_nullable"
    assert rows.loc["tagger_nullable", "read_with"] == "tagger"
    assert (frame["flags"] != "").sum() == 15
    assert int(frame["cases"].sum()) == 1317 and int(frame["runs"].sum()) == 184


def test_flags_frame(shipped):
    frame = flags_frame(shipped)
    assert frame.columns.tolist() == ["suite", "flag", "other", "fixed", "evidence"]
    assert frame["suite"].tolist() == [
        "synthesis", "screening", "grounding", "nullschema", "tagger", "tagger_nullable",
        "epistemics", "enrichment", "tools", "toolscale", "chainwalk", "contract", "contract",
        "toolcall", "shapegen", "sitebuild"]
    assert frame["flag"].value_counts().to_dict() == {
        "void": 4, "confound": 3, "saturated": 2, "floor": 1, "unchecked-gold": 1, "paired": 1,
        "small-n": 1, "superseded": 1, "ceiling": 1, "grader-bug": 1}
    assert frame.set_index("suite").loc["epistemics", "evidence"] == (
        "Several models now score 100 on this suite, so it has stopped discriminating.")


# --- issue 12: every stated limit flagged with its kind; a grader bug's fix date ------------
def test_every_suite_whose_caveat_states_a_limit_is_flagged_with_its_kind():
    from recallscore_nb.analysis.catalogue import flags_frame
    from recallscore_nb.io.catalogue import load_catalogue

    flags = flags_frame(load_catalogue())
    kinds = flags.groupby("suite")["flag"].agg(lambda f: sorted(f)).to_dict()
    assert {suite: kinds.get(suite) for suite in (
        "synthesis", "enrichment", "toolcall", "tagger", "shapegen", "toolscale", "chainwalk",
        "contract")} == {
        "synthesis": ["floor"], "enrichment": ["small-n"], "toolcall": ["confound"],
        "tagger": ["unchecked-gold"], "shapegen": ["confound"], "toolscale": ["ceiling"],
        "chainwalk": ["confound"], "contract": ["grader-bug", "void"]}
    assert set(flags["suite"]) == {s.id for s in load_catalogue().suites}  # all 15
    fixed = flags.set_index(["suite", "flag"])["fixed"]
    assert fixed[("contract", "grader-bug")] == "2026-09-09"
    assert (fixed.drop(("contract", "grader-bug")) == "").all()


def test_results_dated_before_a_grader_bug_fix_are_excluded():
    import pandas as pd

    from recallscore_nb.analysis.catalogue import exclude_before_fix
    from recallscore_nb.io.catalogue import load_catalogue

    results = pd.DataFrame({"suite": ["contract", "contract", "contract", "tagger"],
                            "date": ["2026-09-08", "2026-09-09", "2026-10-01", "2020-01-01"],
                            "score": ["1", "2", "3", "4"]})
    kept, excluded = exclude_before_fix(results, load_catalogue())
    assert kept["score"].tolist() == ["2", "3", "4"]
    assert excluded[["suite", "date", "fixed"]].values.tolist() == [
        ["contract", "2026-09-08", "2026-09-09"]]
