"""IdHashes: the repeated values of any number of hashes, in a fixed budget of memory."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.io.id_hashes import IdHashes


def _expected(chunks) -> list[int]:
    values, counts = np.unique(np.concatenate(chunks), return_counts=True)
    return values[counts > 1].tolist()


@settings(max_examples=80, deadline=None)
@given(chunks=st.lists(st.lists(st.integers(0, 40), max_size=30), max_size=8),
       budget=st.integers(2, 20))
def test_repeated_values_are_those_of_the_whole_whatever_the_budget(chunks, budget):
    arrays = [np.array(c, dtype=np.uint64) for c in chunks] or [np.empty(0, np.uint64)]
    hashes = IdHashes(budget=budget)
    for array in arrays:
        hashes.extend(array)
    assert len(hashes) == sum(map(len, arrays))
    assert hashes.repeated().tolist() == _expected(arrays)
    hashes.close()


def test_memory_stays_at_the_budget_and_the_rest_goes_to_runs_on_disk():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 2**63, 50_000, dtype=np.uint64)
    values[[10, 40_000]] = values[[30_000, 49_999]]  # two repeats, across runs
    hashes = IdHashes(budget=4_096)
    for start in range(0, len(values), 3_000):
        hashes.extend(values[start:start + 3_000])
    assert hashes._buffer.nbytes == 4_096 * 8 and hashes.runs == 12
    assert hashes.repeated().tolist() == sorted(values[[30_000, 49_999]].tolist())
    hashes.close()


def test_large_values_sort_as_unsigned():
    hashes = IdHashes(budget=2)
    hashes.extend(np.array([2**64 - 1, 1, 2**63, 2**64 - 1], dtype=np.uint64))
    assert hashes.repeated().tolist() == [2**64 - 1]


@pytest.mark.parametrize("budget", [2, 3, 1000])
def test_no_values_no_repeats(budget):
    assert IdHashes(budget=budget).repeated().tolist() == []
