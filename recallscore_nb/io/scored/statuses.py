"""The schema-aware columns of ``recallscore score --schema``: each attempt's fact statuses
and weighted score, with each basis as compact JSON text.

Pure functions of the attempts they are given (:func:`status_frame` against a benchmark,
:func:`item_status_frame` against an items file), so the streaming ``score`` calls them once
per chunk.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from ...core.engine import STRING
from ...core.status import fact_status
from ..jsondocs import plain

__all__ = ["status_frame", "item_status_frame"]

def status_frame(attempts, benchmark, schema) -> pd.DataFrame:
    """Each attempt's fact statuses and weighted score, as ``recallscore score --schema``
    writes them: the columns of :func:`recallscore_nb.core.status.status_columns`, each basis as
    compact JSON text. Aligned with ``attempts`` (a Series or sequence of strings), indexed
    from 0.
    """
    statuses = fact_status(attempts, benchmark, schema).reset_index(drop=True)
    columns: dict[str, Any] = {}
    for name in benchmark.fact_names:
        columns[f"status_{name}"] = pd.array(statuses[f"status_{name}"].to_numpy(dtype=object),
                                             dtype=STRING)
    columns["weighted_score"] = statuses["weighted_score"].astype("float64").to_numpy()
    for name in benchmark.fact_names:
        columns[f"basis_{name}"] = pd.array(
            _compact_each(statuses[f"basis_{name}"].to_numpy(dtype=object)), dtype=STRING)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(statuses)))


def _compact_each(bases: np.ndarray) -> list[str]:
    """:func:`_compact` of each basis, once per distinct basis object (attempts with the same
    text share one)."""
    texts: dict[int, str] = {}
    out = []
    for basis in bases.tolist():
        text = texts.get(id(basis))
        if text is None:
            text = texts[id(basis)] = _compact(basis)
        out.append(text)
    return out


def _compact(value) -> str:
    return json.dumps(plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def item_status_frame(attempts, item_ids, items, schema) -> pd.DataFrame:
    """:func:`status_frame` for an items file: each attempt against its own item
    (:func:`recallscore_nb.core.status.item_fact_status`), over the union of the items' facts;
    a fact the row's item does not have is empty (its status and basis missing), as is the
    weighted score of an item with no checklist. A pure function of the chunk it is given:
    the streaming ``score`` calls it once per chunk."""
    from ...core.status import item_fact_names, item_fact_status

    statuses = item_fact_status(attempts, item_ids, items, schema).reset_index(drop=True)
    names = item_fact_names(items)
    columns: dict[str, Any] = {}
    for name in names:
        columns[f"status_{name}"] = pd.array(statuses[f"status_{name}"].to_numpy(dtype=object),
                                             dtype=STRING)
    columns["weighted_score"] = statuses["weighted_score"].astype("float64").to_numpy()
    for name in names:
        bases = statuses[f"basis_{name}"].to_numpy(dtype=object)
        texts = np.full(len(bases), None, dtype=object)
        has = np.flatnonzero(pd.notna(bases))
        texts[has] = _compact_each(bases[has])
        columns[f"basis_{name}"] = pd.array(texts.tolist(), dtype=STRING)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(statuses)))
