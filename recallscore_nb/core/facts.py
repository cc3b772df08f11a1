"""Facts, the checklist's unit, in one place: the :class:`Fact` value, the forms a caller may
give facts in (:func:`as_facts`), the facts of a benchmark (:func:`facts_of`), and the
checklist's partial credit (:func:`partial_credit`), computed here and nowhere else.

>>> as_facts({"place": ["west drawer"]})
(Fact(name='place', terms=('west drawer',)),)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .errors import UsageError
from .normalize import SEED

__all__ = ["Fact", "as_facts", "facts_of", "partial_credit"]


@dataclass(frozen=True)
class Fact:
    """One checklist fact: a name and the terms that must all occur as whole tokens.

    >>> Fact("location", ("west", "drawer")).normalized_terms
    ('west', 'drawer')
    """

    name: str
    terms: tuple[str, ...]

    @property
    def normalized_terms(self) -> tuple[str, ...]:
        """The terms under the checklist's normalization (the seed pipeline)."""
        return tuple(SEED(t) for t in self.terms)


def as_facts(facts) -> tuple[Fact, ...]:
    """Facts from :class:`Fact` objects, ``{"fact", "requiredTerms"}`` dicts, ``(name, terms)``
    pairs or a mapping of names to terms (a single string is one term).

    >>> as_facts({"place": ["west drawer"], "time": "dawn"})
    (Fact(name='place', terms=('west drawer',)), Fact(name='time', terms=('dawn',)))
    """
    if isinstance(facts, Mapping):
        facts = list(facts.items())
    out = []
    for f in facts:
        if isinstance(f, Fact):
            out.append(f)
            continue
        name, terms = (f["fact"], f["requiredTerms"]) if isinstance(f, Mapping) else f
        out.append(Fact(str(name), (terms,) if isinstance(terms, str) else tuple(terms)))
    if not out:
        raise UsageError("'facts' must hold at least one fact (an empty checklist passes vacuously)")
    names = [f.name for f in out]
    if len(set(names)) != len(names):
        raise UsageError(f"fact names must be unique (got {names})")
    for f in out:
        if not f.terms or any(t == "" for t in f.normalized_terms):
            raise UsageError(f"fact {f.name!r}: every term must normalize to at least one token")
    return tuple(out)


def facts_of(benchmark) -> tuple[Fact, ...]:
    """The checklist facts of a Benchmark (anything with ``facts`` holding :class:`Fact`), or
    facts in any form :func:`as_facts` takes.

    >>> facts_of({"time": "dawn"})
    (Fact(name='time', terms=('dawn',)),)
    """
    if benchmark is None:
        raise UsageError("a benchmark (or its facts) is needed: load one with "
                         "recallscore_nb.io.benchmarks.load_benchmark")
    facts = getattr(benchmark, "facts", None)
    if facts is not None and all(isinstance(f, Fact) for f in facts):
        return tuple(facts)
    return as_facts(benchmark)


def partial_credit(present, total) -> np.ndarray:
    """The checklist's partial credit, the share of the facts present (``present / total``),
    as floats: NaN where either is missing or the total is 0 (an item without a checklist).

    ``present`` and ``total`` are aligned sequences, arrays or Series of counts (nullable ones
    included): the checklist's facts present and facts total, as
    :class:`recallscore_nb.core.rules.Checklist` declares them with this measure.

    >>> partial_credit([3, 4, 1], [4, 4, 0]).tolist()
    [0.75, 1.0, nan]
    >>> import pandas as pd
    >>> partial_credit(pd.array([1, None], dtype="Int64"), pd.array([4, None], dtype="Int64")).tolist()
    [0.25, nan]
    """
    present, total = _floats(present), _floats(total)
    valid = ~np.isnan(present) & ~np.isnan(total) & (total > 0)
    return np.divide(present, total, out=np.full(len(present), np.nan), where=valid)


def _floats(values) -> np.ndarray:
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return values.astype(np.float64)
    import pandas as pd  # only for a nullable array: validating a benchmark needs none

    return pd.array(values).astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
