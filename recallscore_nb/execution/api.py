"""The package's public entry points for loading and scoring, run as the command runs them:
the core's pure functions, their chunks scored by worker processes (``processes=``, by
default :func:`~recallscore_nb.execution.processes.default_processes`: the machine's cores,
1 where forking is unsafe, as in a notebook's kernel) and Python's collector paused while
records are built in bulk (:mod:`.memory`). Each gives the rows the core's function gives,
whatever the number of processes.

>>> from recallscore_nb.core.rules import Checklist
>>> from recallscore_nb.io.benchmarks import load_benchmark
>>> int(score_benchmark(load_benchmark(), processes=2)[Checklist.column].sum())
8
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pyarrow as pa

from ..core import scoring, status
from ..io import items as items_io
from .memory import with_collector_paused
from .processes import ForkedChunks

__all__ = ["load_items", "fact_status", "item_fact_status", "score_all", "score_benchmark",
           "score_items", "prepare_items", "warmed"]

load_items = with_collector_paused(items_io.load_items)
fact_status = with_collector_paused(status.fact_status)
item_fact_status = with_collector_paused(status.item_fact_status)


def score_all(attempts, references, *, facts, squad_mode: str = "v1.1", progress=None,
              processes: int | None = None, memo=None, rules=None) -> pd.DataFrame:
    """:func:`recallscore_nb.core.scoring.score_all`, its chunks scored in ``processes``
    processes (:class:`~recallscore_nb.execution.processes.ForkedChunks`)."""
    return scoring.score_all(attempts, references, facts=facts, squad_mode=squad_mode,
                             progress=progress, memo=memo, runner=ForkedChunks(processes),
                             rules=rules)


def score_benchmark(benchmark, attempts=None, *, squad_mode: str = "v1.1", progress=None,
                    processes: int | None = None, rules=None) -> pd.DataFrame:
    """:func:`recallscore_nb.core.scoring.score_benchmark`, its chunks scored in
    ``processes`` processes; ``rules``: the rules by name (None: every rule)."""
    return scoring.score_benchmark(benchmark, attempts, squad_mode=squad_mode,
                                   progress=progress, runner=ForkedChunks(processes),
                                   rules=rules)


def prepare_items(items) -> scoring.PreparedItems:
    """:func:`recallscore_nb.core.scoring.prepare_items`, the references and the checklists
    built in two threads (Arrow and numpy let the GIL go while they work; the thread is
    joined before any fork)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        checklists = pool.submit(scoring.item_checklists, items)
        references = scoring.item_references(items)
        return warmed(scoring.PreparedItems(pa.array(items.ids, type=pa.string()), references,
                                            checklists.result()))


def warmed(prepared: scoring.PreparedItems) -> scoring.PreparedItems:
    """``prepared`` with the hash tables of its key lookups built now: workers forked later
    share them instead of each building its own."""
    probes = [prepared.references.references.squad_bags.key_lookup,
              prepared.checklists.term_starts[0]]
    for lookup in probes:
        lookup.locate(lookup.keys[:1])
    return prepared


def score_items(items, attempts: pd.DataFrame, *, squad_mode: str = "v1.1", progress=None,
                prepared: scoring.PreparedItems | None = None,
                processes: int | None = None, rules=None) -> pd.DataFrame:
    """:func:`recallscore_nb.core.scoring.score_items`, the items prepared in two threads and
    the chunks scored in ``processes`` processes; ``rules``: the rules by name (None: every
    rule)."""
    if prepared is None and isinstance(items, scoring.Items):
        prepared = prepare_items(items)
    return scoring.score_items(items, attempts, squad_mode=squad_mode, progress=progress,
                               prepared=prepared, runner=ForkedChunks(processes), rules=rules)
