"""Sums of floats that are the same on every machine: exact, then rounded once.

A float sum's last bits depend on the order of its additions, and that order depends on
the machine: numpy's pairwise summation on the row order, a BLAS matrix product on the CPU's
kernel (``OPENBLAS_CORETYPE``), its blocking and its thread count. So every published mean,
weighted sum or bootstrap mean of non-integer scores (token F1, a checklist's fraction, a
schema's weighted score) is computed here, exactly:

1. each value is split into *limbs*: integers below ``2**B``, held as float64, such that
   the value is ``sum(limb[l] * 2**(E + B*l))`` exactly (``E``: the lowest bit any value of
   its column sets);
2. the limbs are summed, weighted, by any means (``numpy.bincount``, a BLAS product):
   ``B`` is chosen so that every partial sum is an integer below ``2**53``, which float64
   holds exactly, so the order of the additions, the kernel and the threads change nothing;
3. the limb sums are joined into one Python integer per result, and divided by its
   denominator with Python's correctly rounded ``int / int``.

The result is the float nearest the exact rational result: the same on every machine, for
any order of the rows. It costs a few limbs per column in the product (two or three for
token F1, one for a 0/1 verdict) and one Python division per result.

>>> weighted_sums(np.ones((1, 10)), np.full(10, 0.1)).ratio(10)[0].tolist()
[0.1]
>>> sum([0.1] * 10) / 10  # a float sum rounds on the way, in an order of its own
0.09999999999999999
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import UsageError

__all__ = ["ExactSums", "weighted_sums", "group_sums", "exact_means", "exact_mean"]

_HOLD = 53  # float64 holds every integer below 2**53 exactly


@dataclass(frozen=True)
class ExactSums:
    """Exact weighted sums, one per (weight row, value column): ``numerators[r, c] *
    2**exponents[c]``, the numerators Python integers in an object array."""

    numerators: np.ndarray
    exponents: np.ndarray

    def ratio(self, denominators=1) -> np.ndarray:
        """The sums divided by ``denominators`` (integers, broadcast to the sums' shape),
        each correctly rounded to float64; NaN where a denominator is 0.

        >>> sums = weighted_sums(np.array([[1, 2], [0, 0]]), np.array([0.5, 0.25]))
        >>> sums.ratio(np.array([[3], [0]])).tolist()
        [[0.3333333333333333], [nan]]
        """
        shape = self.numerators.shape
        den = np.broadcast_to(_as_integers(denominators, "denominators"), shape)
        given = den != 0
        whole = np.where(given, den, 1).astype(np.int64).astype(object)
        out = np.empty(shape)
        for c, exponent in enumerate(int(e) for e in self.exponents):  # a column's own E
            numerators = self.numerators[..., c]
            out[..., c] = (numerators << exponent) / whole[..., c] if exponent >= 0 else \
                numerators / (whole[..., c] << -exponent)  # int / int: correctly rounded
        return np.where(given, out, np.nan)


def _column_exponents(mantissa: np.ndarray, exponent: np.ndarray) -> tuple[np.ndarray, int]:
    """Per column, the lowest bit a value sets (``E``), and the widest column's span in bits
    from ``E`` to its highest bit."""
    nonzero = mantissa != 0
    trailing = np.frexp((mantissa & -mantissa).astype(np.float64))[1].astype(np.int64) - 1
    lowest = np.where(nonzero, exponent - _HOLD + trailing, np.iinfo(np.int64).max)
    highest = np.where(nonzero, exponent, np.iinfo(np.int64).min)
    any_set = nonzero.any(axis=0)
    low = np.where(any_set, lowest.min(axis=0, initial=np.iinfo(np.int64).max), 0)
    high = np.where(any_set, highest.max(axis=0, initial=np.iinfo(np.int64).min), 0)
    return low, int((high - low).max(initial=0))


def _limbs(values: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``(limbs, exponents)``: ``(n, k, L)`` integer-valued float64 limbs below ``2**bits``
    (signed as their value) with ``values[i, c] == sum(limbs[i, c, l] * 2**(exponents[c] +
    bits*l))`` exactly."""
    fraction, exponent = np.frexp(values)
    mantissa = np.abs(np.ldexp(fraction, _HOLD)).astype(np.int64)  # exact: 53 bits
    exponents, span = _column_exponents(mantissa, exponent.astype(np.int64))
    count = max(1, -(-span // bits))
    shift = exponent.astype(np.int64) - _HOLD - exponents  # value = mantissa << shift, >= 0
    unsigned, mask = mantissa.astype(np.uint64), np.uint64((1 << bits) - 1)
    sign = np.where(values < 0, -1.0, 1.0)
    limbs = np.empty((*values.shape, count))
    for l in range(count):
        k = shift - bits * l
        up = np.left_shift(unsigned, np.clip(k, 0, 63).astype(np.uint64))
        down = np.right_shift(unsigned, np.clip(-k, 0, 63).astype(np.uint64))
        part = np.where(k >= bits, 0, np.where(k >= 0, up, np.where(k > -64, down, 0)))
        limbs[..., l] = (part.astype(np.uint64) & mask).astype(np.float64) * sign
    return limbs, exponents


def _as_integers(array, name: str) -> np.ndarray:
    out = np.asarray(array, dtype=np.float64)
    if not np.isfinite(out).all() or not np.array_equal(out, np.rint(out)):
        raise UsageError(f"'{name}' must be whole numbers")
    return out


def _values(values) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    values = values[:, None] if values.ndim == 1 else values
    if values.ndim != 2:
        raise UsageError("'values' must be one- or two-dimensional")
    if not np.isfinite(values).all():
        raise UsageError("'values' must be finite numbers (got NaN or infinity)")
    return values


def _bits(heaviest: float) -> int:
    """Limb width such that ``heaviest`` limbs below ``2**bits`` sum below ``2**53``."""
    bits = _HOLD - max(1, int(heaviest).bit_length())
    if bits < 1 or heaviest >= 2.0 ** _HOLD:
        raise UsageError(f"weights too large for exact sums (a total weight of {heaviest:g})")
    return bits


def _group_limbs(values: np.ndarray, groups: np.ndarray, n_groups: int, bits: int):
    """Each group's limb sums ``(n_groups, k, L)`` (exact: whole numbers below 2**53)."""
    limbs, exponents = _limbs(values, bits)
    n, k, count = limbs.shape
    flat = limbs.reshape(n, k * count)
    summed = np.stack([np.bincount(groups, weights=column, minlength=n_groups)
                       for column in flat.T], axis=1) if n else np.zeros((n_groups, k * count))
    return summed.reshape(n_groups, k, count), exponents, bits


def _joined(totals: np.ndarray, exponents: np.ndarray, bits: int) -> ExactSums:
    """One Python integer per result from its limb sums ``(…, k, L)``."""
    whole = totals.astype(np.int64).astype(object)
    numerators = whole[..., -1]
    for l in range(whole.shape[-1] - 2, -1, -1):
        numerators = (numerators << bits) + whole[..., l]
    return ExactSums(np.asarray(numerators, dtype=object).reshape(totals.shape[:-1]), exponents)


def _groups(groups, n_groups, n: int) -> tuple[np.ndarray, int]:
    if groups is None:
        return np.arange(n), n
    groups = np.asarray(groups, dtype=np.int64)
    if len(groups) != n or (n and (groups.min() < 0 or groups.max() >= n_groups)):
        raise UsageError(f"'groups' must be {n} codes in range({n_groups})")
    return groups, int(n_groups)


def group_sums(values, groups, n_groups: int) -> ExactSums:
    """Exact sums of ``values`` within each group: shape ``(n_groups, k)``.

    >>> sums = group_sums([0.1, 0.2, 0.7], [1, 1, 0], 2)
    >>> sums.ratio([[1], [2]]).tolist()
    [[0.7], [0.15000000000000002]]
    """
    values = _values(values)
    groups, n_groups = _groups(groups, n_groups, len(values))
    heaviest = float(np.bincount(groups, minlength=n_groups).max(initial=0))
    return _joined(*_group_limbs(values, groups, n_groups, _bits(heaviest)))


def weighted_sums(weights, values, *, groups=None, n_groups: int | None = None) -> ExactSums:
    """Exact ``weights @ values``: for each row ``r`` of the integer ``weights`` and each
    column ``c`` of ``values``, the sum of ``weights[r, i] * values[i, c]``.

    Parameters
    ----------
    weights : array of shape (R, m)
        Whole numbers (counts of a bootstrap resample, 0/1 masks, ones for a plain sum).
    values : array of shape (n,) or (n, k)
        Finite floats.
    groups, n_groups : optional
        With ``groups`` (``n`` codes in ``range(n_groups)``, ``m == n_groups``), value ``i``
        is weighted by ``weights[r, groups[i]]``: the sums over groups of the per-group sums,
        without a product of size ``R × n``.

    Returns
    -------
    ExactSums
        Of shape ``(R, k)`` (``(R, 1)`` for one-dimensional values); ``.ratio(d)`` divides.

    Examples
    --------
    >>> sums = weighted_sums([[1, 0, 1]], [0.1, 0.7, 0.2])
    >>> sums.ratio(1).tolist(), 0.1 + 0.2
    ([[0.30000000000000004]], 0.30000000000000004)
    >>> weighted_sums([[1, 1]], [1e-300, 1.0]).numerators.shape
    (1, 1)
    """
    weights = _as_integers(weights, "weights")
    values = _values(values)
    if weights.ndim != 2:
        raise UsageError("'weights' must be two-dimensional")
    groups, n_groups = _groups(groups, n_groups, len(values))
    if weights.shape[1] != n_groups:
        raise UsageError(f"'weights' has {weights.shape[1]} columns for {n_groups} groups "
                         f"of {len(groups)} values")
    members = np.bincount(groups, minlength=n_groups).astype(np.float64)
    heaviest = max(float((np.abs(weights) @ members).max(initial=0)),  # exact: whole numbers
                   float(members.max(initial=0)))  # each group's own sums, too
    limbs, exponents, bits = _group_limbs(values, groups, n_groups, _bits(heaviest))
    n_groups, k, count = limbs.shape
    totals = weights @ limbs.reshape(n_groups, k * count)  # whole numbers below 2**53
    return _joined(totals.reshape(len(weights), k, count), exponents, bits)


def exact_means(values, *, axis: int = 0) -> np.ndarray:
    """The mean of each column (``axis=0``) or row (``axis=1``) of a 2-D ``values``,
    correctly rounded: the same for any order of the values. NaN for none.

    >>> exact_means(np.array([[0.1, 0.3], [0.2, 0.3], [0.3, 0.3]])).tolist()
    [0.2, 0.3]
    """
    matrix = np.asarray(values, dtype=np.float64)
    matrix = matrix.T if axis == 1 else matrix
    n = matrix.shape[0]
    return weighted_sums(np.ones((1, n)), matrix).ratio(n)[0]


def exact_mean(values) -> float:
    """The correctly rounded mean of ``values`` (NaN for none), whatever their order.

    >>> exact_mean([0.1] * 10), sum([0.1] * 10) / 10
    (0.1, 0.09999999999999999)
    """
    column = np.asarray(values, dtype=np.float64).reshape(-1, 1)
    return float(exact_means(column)[0])
