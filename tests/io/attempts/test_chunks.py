"""An attempts file read in chunks: the same faults, in the same order, as read whole."""

from __future__ import annotations

import pytest

from tests.attempts_fixtures import BAD_EXPECTED, BAD_LINES, EXPECTED, JSONL, _faults


@pytest.mark.parametrize("rows", [2, 3, 100])  # one row a chunk: types differ, read whole
def test_in_chunks_the_same_errors(tmp_path, rows):
    assert _faults(tmp_path, JSONL, rows) == EXPECTED


@pytest.mark.parametrize("rows", [1, 2, 4, 100])
def test_every_faulty_jsonl_line_in_chunks_too(tmp_path, rows):
    assert _faults(tmp_path, BAD_LINES, rows) == BAD_EXPECTED


def test_ids_used_twice_far_apart_are_found_when_the_hashes_spill_to_disk(tmp_path, monkeypatch):
    from recallscore_nb.core.errors import AttemptsFormatError
    from recallscore_nb.io import id_hashes
    from recallscore_nb.io.attempts.chunks import AttemptChunks

    ids = [f"r{i}" for i in range(300)]
    ids[250], ids[299] = "r3", "r120"
    path = tmp_path / "a.csv"
    path.write_text("id,attempt\n" + "".join(f"{i},x\n" for i in ids), encoding="utf-8")
    monkeypatch.setattr(id_hashes, "HASH_BUDGET", 16)
    with pytest.raises(AttemptsFormatError) as info:
        list(AttemptChunks(str(path), rows=7))
    assert [str(e).split(": ", 1)[1] for e in info.value.errors] == [
        "row 250 (id r3): id: duplicate id (first used at row 3)",
        "row 299 (id r120): id: duplicate id (first used at row 120)"]
