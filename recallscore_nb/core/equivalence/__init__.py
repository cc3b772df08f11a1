"""The ``equivalent`` rule's machinery: is a free-text answer one of its references said
another way?

- :mod:`.forms`: the ``answer`` normalizers the steps compare under;
- :mod:`.parts`: what is read of an answer and of a reference (dates, quantities, names);
- :mod:`.checks`: each read step's and guard's check of one answer against one reference;
- :mod:`.gates`: what each read step needs at the least, on every open row at once;
- :mod:`.cascade`: the steps and guards as records (:data:`CASCADE`), the options, and the
  two ways to run them (vectorized :func:`equivalence`, per row :func:`equivalence_of`).

>>> equivalence_of("Not Paris, but Lyon", ["Paris"])
(False, 'negation')
"""

from . import cascade, checks, forms, gates, hedges, parts
from .cascade import (
    CASCADE,
    CHECKS,
    GUARDS,
    LABELS,
    NONE,
    NORMALIZERS,
    PHRASE_STEPS,
    READ_STEPS,
    STEPS,
    Cascade,
    EquivalenceOptions,
    Found,
    Guard,
    Step,
    equivalence,
    equivalence_of,
    first_veto,
)

__all__ = ["cascade", "CASCADE", "CHECKS", "GUARDS", "LABELS", "NONE", "NORMALIZERS", "PHRASE_STEPS",
           "READ_STEPS", "STEPS", "Cascade", "EquivalenceOptions", "Found", "Guard", "Step",
           "equivalence", "equivalence_of", "first_veto", "clear_caches"]


def clear_caches() -> int:
    """Empty every memo of the machinery's functions (what a new process starts with), so
    that a benchmark times each round cold; the number of caches emptied.

    >>> clear_caches() >= 3
    True
    """
    emptied = 0
    for module in (cascade, checks, forms, gates, hedges, parts):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
                emptied += 1
    return emptied
