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

from . import cascade
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
           "equivalence", "equivalence_of", "first_veto"]
