"""How many bootstrap resamples fit in this machine's memory, checked before any is drawn.

A bootstrap holds matrices with one row per resample, so its memory grows with the count
asked for: a count whose matrices would not fit is refused here as a
:class:`~recallscore_nb.core.errors.UsageError` that says what it would need, what is
available and how many resamples fit, before the attempts are scored, rather than as a
``MemoryError`` minutes later. The memory available is psutil's (``virtual_memory().available``,
which ignores a container's cgroup limit).

What a resample costs, measured as the growth of the peak resident memory between two counts
(``recallscore agree`` on the shipped sets, ``bootstrap_means`` on 1,000 values):

- :func:`agree_bytes` (the meta-evaluation): the ``(resamples, items)`` item weights (8 bytes
  an item), and beside them the larger of the systems table's ``(resamples, columns)`` ratios
  (a column per system and measure, 6 floats each) and the agreement table's confusion
  counts and statistics (20 floats a rule–judge pair). EVOUNA NQ (3,020 items, 5 systems,
  1 judge): 24.8 to 25.8 KB measured, 26.3 KB estimated; OpenQA-eval NQ301 (301 items, 12
  systems, 7 judges): 7.7 to 8.7 KB measured, 11.4 KB estimated. The estimate counts the 8
  rules of the registry, before scoring tells which apply.
- :func:`~recallscore_nb.analysis.bootstrap.bootstrap_means`: the ``(resamples, n)`` index
  matrix and the values it picks, 16 bytes a value: 16.0 KB measured for 1,000 values.
"""

from __future__ import annotations

from ..core.errors import UsageError

__all__ = ["available_memory", "check_resamples_fit", "agree_bytes", "size_text"]


def size_text(nbytes: int) -> str:
    """A byte count for a message, three significant digits.

    >>> size_text(8 * 10**9), size_text(23_700_000_000), size_text(512)
    ('8 GB', '23.7 GB', '512 bytes')
    """
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes:,} bytes"


def available_memory() -> int:
    """The bytes of memory a new allocation can take now without swapping (psutil's
    ``virtual_memory().available``)."""
    import psutil

    return int(psutil.virtual_memory().available)


def check_resamples_fit(resamples: int, per_resample: int, what: str, *,
                        available: int | None = None) -> None:
    """Refuse ``resamples`` when ``resamples * per_resample`` bytes exceed the memory available
    (``available``, or :func:`available_memory`); ``what`` says what is resampled.

    >>> check_resamples_fit(2000, 8_000, "1,000 items", available=4 * 10**9)
    >>> check_resamples_fit(10**6, 8_000, "1,000 items", available=4 * 10**9)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: 'resamples' 1,000,000 does not fit in memory: the bootstrap would need 8 GB (8,000 bytes a resample, for 1,000 items); 4 GB of memory is available here: at most 500,000 resamples fit
    """
    free = available_memory() if available is None else available
    need = int(resamples) * int(per_resample)
    if need <= free:
        return
    fit = free // max(1, int(per_resample))
    raise UsageError(f"'resamples' {int(resamples):,} does not fit in memory: the bootstrap "
                     f"would need {size_text(need)} ({int(per_resample):,} bytes a resample, "
                     f"for {what}); {size_text(free)} of memory is available here: at most "
                     f"{fit:,} resamples fit")


def agree_bytes(items: int, systems: int, rules: int, judges: int) -> int:
    """The bytes a resample of the meta-evaluation needs at its peak (see the module's
    docstring): 8 an item, and the larger of 6 floats per system and measure (rule or judge)
    and 20 per rule and judge.

    >>> agree_bytes(items=3020, systems=5, rules=8, judges=1)
    26320
    """
    columns, pairs = systems * (rules + judges), rules * judges
    return 8 * (items + max(6 * columns, 20 * pairs))
