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
        "catalogue|flags:saturated+superseded+paired+void|evidence:verbatim-caveat-or-method"
        f"|version:{__version__}")
    assert list(FLAGS) == ["saturated", "superseded", "paired", "void"]


# --- the frames ---------------------------------------------------------------------------------
def test_suites_frame(shipped):
    frame = suites_frame(shipped)
    assert frame.columns.tolist() == ["id", "version", "question", "grading", "cases", "runs",
                                      "caveat", "flags", "read_with"]
    rows = frame.set_index("id")
    assert rows.loc["chainwalk", ["cases", "runs"]].tolist() == [2, 16]
    assert rows.loc["tools", "flags"] == "superseded by toolscale"
    assert rows.loc["screening", "flags"] == "saturated"
    assert rows.loc["synthesis", "flags"] == ""
    # the pairing reads from both sides
    assert rows.loc["tagger", "read_with"] == "tagger_nullable"
    assert rows.loc["tagger_nullable", "read_with"] == "tagger"
    assert (frame["flags"] != "").sum() == 8
    assert int(frame["cases"].sum()) == 1317 and int(frame["runs"].sum()) == 184


def test_flags_frame(shipped):
    frame = flags_frame(shipped)
    assert frame.columns.tolist() == ["suite", "flag", "other", "evidence"]
    assert frame["suite"].tolist() == ["screening", "grounding", "nullschema", "tagger_nullable",
                                       "epistemics", "tools", "contract", "sitebuild"]
    assert frame["flag"].value_counts().to_dict() == {"void": 4, "saturated": 2, "paired": 1,
                                                      "superseded": 1}
    assert frame.set_index("suite").loc["epistemics", "evidence"] == (
        "Several models now score 100 on this suite, so it has stopped discriminating.")
