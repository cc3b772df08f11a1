"""The public entry points run as the command runs them: worker processes give the table one
process gives, and the collector is left as it was."""

from __future__ import annotations

import gc
import json
import random

import pandas as pd
import pytest

from recallscore_nb.core.errors import ItemsFormatError, UsageError
from recallscore_nb.core.facts import Fact
from recallscore_nb.core.items import Item, Items
from recallscore_nb.execution import processes
from recallscore_nb.execution.api import load_items, score_all, score_items


@pytest.fixture
def small_chunks(monkeypatch):
    """Two processes from 10 distinct values on, in chunks of 7."""
    monkeypatch.setattr(processes, "PARALLEL_ROWS", 10)
    monkeypatch.setattr(processes, "CHUNK_ROWS", 7)


def test_two_processes_give_the_same_table(small_chunks):
    rng = random.Random(3)
    words = ["the", "west", "Drawer", "é", "copper", "token", "", "  ", "\x1f"]
    attempts = [" ".join(rng.choice(words) for _ in range(rng.randrange(6))) for _ in range(60)]
    facts = {"place": ["west drawer"], "metal": ["copper"]}
    seen = []
    one = score_all(attempts, "the west drawer", facts=facts)
    two = score_all(attempts, "the west drawer", facts=facts, processes=2,
                    progress=lambda done, total: seen.append((done, total)))
    pd.testing.assert_frame_equal(one, two)
    assert seen[-1] == (60, 60) and len(seen) > 2


def test_two_processes_score_items_to_the_same_table(small_chunks):
    items = Items("t", "", (Item("a", ("The west drawer.",), (Fact("place", ("west",)),)),
                            Item("b", ("Paris", "Lutetia"), None)))
    texts = ["west drawer", "paris", "the West", "lutetia!", "", "east", "Paris is it"] * 9
    frame = pd.DataFrame({"item": ["a", "b"] * 31 + ["a"], "attempt": texts})
    pd.testing.assert_frame_equal(score_items(items, frame),
                                  score_items(items, frame, processes=2))


@pytest.mark.parametrize("processes_", [0, -1, 1.5, True])
def test_processes_must_be_a_whole_number_from_one(processes_):
    with pytest.raises(UsageError, match="'processes' must be an integer >= 1"):
        score_all(["x"], "x", facts={"p": ["x"]}, processes=processes_)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_left_as_it_was_even_after_an_error(tmp_path, monkeypatch,
                                                                     enabled):
    from recallscore_nb.io import items as items_io

    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(json.dumps({"item": "q1", "referenceAnswer": ["Paris"]}) + "\n")
    bad.write_text(json.dumps({"item": "q1", "referenceAnswer": 3}) + "\n")

    def interrupted(block):
        raise KeyboardInterrupt

    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        load_items(good)
        assert gc.isenabled() is enabled
        with pytest.raises(ItemsFormatError, match="referenceAnswer"):
            load_items(bad)
        assert gc.isenabled() is enabled
        monkeypatch.setattr(items_io, "_fast_block", interrupted)  # stopped while reading
        with pytest.raises(KeyboardInterrupt):
            load_items(good)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_by_default_the_public_functions_use_the_default_processes(small_chunks, monkeypatch):
    forked = []
    fork = processes.fork_workers

    def counted(function, count):
        forked.append(count)
        return fork(function, count)

    monkeypatch.setattr(processes, "fork_workers", counted)
    attempts = [f"west drawer {i % 40}" for i in range(60)]
    facts = {"place": ["west drawer"]}
    monkeypatch.setattr(processes, "default_processes", lambda: 1)
    one = score_all(attempts, "the west drawer", facts=facts)
    monkeypatch.setattr(processes, "default_processes", lambda: 3)
    three = score_all(attempts, "the west drawer", facts=facts)
    pd.testing.assert_frame_equal(one, three)
    assert forked == [2]  # this process and two workers
