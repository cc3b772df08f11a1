"""What the ``equivalent`` rule's read steps need at the least, checked on every open row at
once.

The read steps (:mod:`~recallscore_nb.core.equivalence.checks`) read one answer against one
reference at a time, in Python. Most answers that reach them share no word with their
references, and no step can accept those. :func:`possible` says, with array operations, for
each row, reference and step, whether the step still could: a necessary condition of the
step (never a sufficient one), so a check it rules out is one that would fail. Each read
step names its gate in its record (:data:`~recallscore_nb.core.equivalence.cascade.CASCADE`):
the functions ``*_gate`` below, each of which says what its step needs. Two steps that read
text (glue and spelling) also have a look, read only in rows no other step could take.

>>> from .cascade import CASCADE, READ_STEPS, EquivalenceOptions
>>> steps = [CASCADE.step(name) for name in READ_STEPS]
>>> attempts = Attempts(["in the year 1996", "a red fox", "7 km"])
>>> refs = References.build([["September 15, 1996"], ["blue whale"], ["seven miles"]], 3)
>>> rows = np.arange(3)
>>> maybe = possible(attempts, refs, rows, slot_matrix(refs, rows), steps,
...                  EquivalenceOptions())
>>> [[READ_STEPS[s] for s in np.flatnonzero(row[0])] for row in maybe]
[['date', 'part'], [], ['quantity', 'glue', 'part']]
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..engine import Attempts, References
from ..tokens import pad, spans
from .checks import editable, glue_word
from .forms import ANSWER, ANSWER_NUMBERS, ANSWER_STEMS, NUMBER_WORDS
from .hedges import SCALE_WORDS
from .parts import MONTHS, NEGATION_GUARD_CUES, STOP, SUFFIXES, ReferenceForms, is_year

__all__ = ["possible", "Gate", "reference_forms", "slot_matrix", "date_gate", "quantity_gate",
           "glue_gate", "spelling_gate", "order_gate", "name_part_gate", "part_gate",
           "overlap_gate", "after_negation_cue", "scale_or_month"]

LEVELS = (ANSWER, ANSWER_NUMBERS, ANSWER_STEMS)
"""The normalizers the read steps compare under: ``a0``, ``a1`` and ``a2``."""
_NUMBER_WORDS = pa.array(sorted(NUMBER_WORDS), type=pa.string())
_STOP = pa.array(sorted(STOP), type=pa.string())


def reference_forms(refs: References, index: int) -> ReferenceForms:
    """The reference's forms, made once per reference string (its tokens normalized with
    every other reference's, vectorized)."""
    memo = refs.memoized("answer_forms", dict)
    if index not in memo:
        a0, a1, a2 = (refs.normalized(n)[index] for n in LEVELS)
        memo[index] = ReferenceForms(refs.values[index], a0.split(), a1.split(), a2.split())
    return memo[index]


def slot_matrix(refs: References, rows: np.ndarray) -> np.ndarray:
    """(rows × reference slots): each row's reference indices, -1 where a slot is empty."""
    if not refs.slots:
        return np.full((len(rows), 0), -1, dtype=np.int64)
    return np.stack([slot[rows] for slot in refs.slots], axis=1)


def possible(attempts: Attempts, refs: References, rows: np.ndarray, matrix: np.ndarray,
             steps, options) -> np.ndarray:
    """(rows × slots × steps), ``matrix`` the rows' :func:`slot_matrix`, ``steps`` the read
    steps' records (:class:`~recallscore_nb.core.equivalence.cascade.Step`): could the step
    find the row equivalent to the slot's reference? False only where it cannot. Each step's
    gate says it; a step with a ``look`` is then read on the answer's text where no step
    without one could take the row."""
    gate = Gate(attempts, refs, rows, matrix, options)
    out = np.zeros(matrix.shape + (len(steps),), dtype=bool)
    for s, step in enumerate(steps):
        out[..., s] = step.gate(gate)
    out &= (matrix >= 0)[..., None]
    looks = [s for s, step in enumerate(steps) if step.look is not None]
    if looks:
        _look(attempts, refs, rows, matrix, out, [steps[s] for s in looks], looks, options)
    return out


class Gate:
    """What a gate reads, for the rows and slots of one call of :func:`possible`: the
    ``attempts``, ``refs``, ``rows``, their slot ``matrix`` and the ``options``; ``facts``
    (:class:`_Facts`) indexed by ``ref`` (the matrix, an empty slot the sentinel); and
    ``shared``, the tokens each row shares with each slot's reference."""

    def __init__(self, attempts: Attempts, refs: References, rows: np.ndarray,
                 matrix: np.ndarray, options) -> None:
        self.attempts, self.refs, self.rows, self.matrix = attempts, refs, rows, matrix
        self.options = options
        self.ref = np.where(matrix >= 0, matrix, len(refs.values))
        self.shared = _Shared(attempts, refs, rows, matrix)

    @functools.cached_property
    def facts(self) -> _Facts:
        return _Facts.of(self.refs, self.options)


def date_gate(g: Gate) -> np.ndarray:
    """``date``: a reference with a year, and a token no stop word shared (``answer+numbers``)."""
    return g.facts.year[g.ref] & (g.shared.content(1) >= 1)


def quantity_gate(g: Gate) -> np.ndarray:
    """``quantity``: a reference of quantities only, and a number in the answer."""
    quantities = g.facts.quantities[g.ref]
    if not quantities.any():
        return quantities
    return quantities & _has_number(g.attempts, g.rows)[:, None]


def glue_gate(g: Gate) -> np.ndarray:
    """``glue``: a reference it reads (:func:`~recallscore_nb.core.equivalence.checks.gluable`);
    its look: the reference's first and last words inside the answer's text."""
    return g.facts.gluable[g.ref]


def spelling_gate(g: Gate) -> np.ndarray:
    """``spelling``: as many shared tokens (``answer+numbers``) as the reference has words it
    may not spell otherwise; its look: each of its other words in the answer or near a token
    of it (:func:`~recallscore_nb.core.equivalence.checks.spelling_possible`)."""
    return g.facts.words[g.ref] & (g.shared.tokens(1) >= g.facts.fixed[g.ref])


def order_gate(g: Gate) -> np.ndarray:
    """``order``: every content word of the reference shared (``answer+stems``)."""
    return g.facts.ordered[g.ref] & (g.shared.content(2) >= g.facts.content[g.ref])


def name_part_gate(g: Gate) -> np.ndarray:
    """``name-part``: the reference's last token shared (``answer``), and a person's name (a
    reference of no token: its name read in Python); in cascade 3, whose last name may be
    before a suffix and whose given name may be quoted, also a reference with a suffix or a
    quote."""
    later = g.options.cascade > 2
    ends = g.shared.last(0) | (g.facts.renamed[g.ref] if later else False)
    out = (ends | ~g.facts.a0[g.ref]) & (g.matrix >= 0)
    _people(g.refs, g.matrix, out, "named" if later else "person")
    return out


def part_gate(g: Gate) -> np.ndarray:
    """``part``: an answer of at most ``longest`` content words, one shared (``answer+stems``)."""
    short = _content_counts(g.attempts, g.rows) <= g.options.longest
    return short[:, None] & (g.shared.content(2) >= 1)


def overlap_gate(g: Gate) -> np.ndarray:
    """``overlap``: as many shared content words as the step counts (``answer+stems``)."""
    return g.facts.overlap[g.ref] & (g.shared.content(2) >= g.facts.overlap_need[g.ref])


_NEGATION_GUARD_CUES = pa.array(sorted(NEGATION_GUARD_CUES))


def after_negation_cue(attempts: Attempts, rows: np.ndarray, starts: np.ndarray,
                       found: np.ndarray) -> np.ndarray:
    """Per distinct row of ``found``: is every place a reference was found (``rows``, flat
    token ``starts``) right after a token that is a negation cue? What the ``negation``
    guard needs (:func:`~recallscore_nb.core.equivalence.checks.negation_cue`)."""
    tokens = attempts.tokens(ANSWER, _NEGATION_GUARD_CUES)
    after_cue = (tokens.positions[starts] > 0) & (tokens.ids[np.maximum(starts - 1, 0)] >= 0)
    return ~np.isin(found, rows[~after_cue])


_SCALE_OR_MONTH = pa.array(sorted(SCALE_WORDS | set(MONTHS)), type=pa.string())


def scale_or_month(attempts: Attempts, rows: np.ndarray, starts: np.ndarray,
                   found: np.ndarray) -> np.ndarray:
    """Per distinct row of ``found``: a token (``answer``) that multiplies a number or is a
    month. What the ``scale`` guard needs (:func:`~recallscore_nb.core.equivalence.hedges.scale_added`:
    a scale word after a number, or a month beside a number that is no day)."""
    tokens = attempts.tokens(ANSWER, _SCALE_OR_MONTH)
    return np.isin(found, tokens.rows[tokens.ids >= 0])


@dataclass(frozen=True)
class _Facts:
    """What the gates read of each reference, as arrays one longer than the references
    (the last: an empty slot, which no step accepts)."""

    year: np.ndarray
    """A year among its tokens (``answer+numbers``)."""
    quantities: np.ndarray
    """It says nothing but quantities."""
    gluable: np.ndarray
    """The glue step reads it (:func:`~recallscore_nb.core.equivalence.checks.gluable`)."""
    words: np.ndarray
    """It has tokens under ``answer+numbers``."""
    fixed: np.ndarray
    """Its distinct tokens the spelling step may not change, each to be in the answer."""
    ordered: np.ndarray
    """The order step reads it (two content words or more, no date)."""
    content: np.ndarray
    """Its distinct content tokens (``answer+stems``, no stop word)."""
    overlap: np.ndarray
    """The overlap step reads it."""
    overlap_need: np.ndarray
    """The shared content tokens the overlap step needs at the least."""
    a0: np.ndarray
    """It has tokens under ``answer``."""
    renamed: np.ndarray
    """A suffix among its ``answer`` tokens ("IV") or a quote in its text: its last name may
    not be its last token, or its given name only quoted."""

    @classmethod
    def of(cls, refs: References, options) -> _Facts:
        n = len(refs.values) + 1
        b0, b1, b2 = (refs.bags(level) for level in LEVELS)
        year, fixed, digit = _vocab_flags(b1, is_year, lambda t: not editable(t, options.shortest),
                                          lambda t: t[:1].isdigit())
        (content_word,) = _vocab_flags(b2, lambda t: t not in STOP)
        year = _per_reference(b1, year, n) > 0
        content = _per_reference(b2, content_word, n)
        quantities = np.zeros(n, dtype=bool)  # only a reference with a number says them
        digits = np.flatnonzero(_per_reference(b1, digit, n))
        quantities[digits] = [reference_forms(refs, i).only_quantities for i in digits.tolist()]
        need = np.array([math.ceil(options.share * c) for c in range(int(content.max()) + 1)])
        return cls(year=year, quantities=quantities, gluable=np.append(_glue_ends(b0), False),
                   words=np.append(b1.lengths, 0) > 0, fixed=_per_reference(b1, fixed, n),
                   ordered=(_per_reference(b2, content_word, n, counted=True) >= 2) & ~year,
                   content=content, overlap=(content >= options.least) & ~year & ~quantities,
                   overlap_need=np.maximum(options.least, need[content]),
                   a0=np.append(b0.lengths, 0) > 0,
                   renamed=(_per_reference(b0, *_vocab_flags(b0, SUFFIXES.__contains__), n) > 0)
                   | np.append(pc.match_substring(pa.array(refs.values, pa.string()), '"')
                               .to_numpy(zero_copy_only=False), False))


def _vocab_flags(bags, *predicates) -> list[np.ndarray]:
    """Per predicate: whether it holds of each token of the bags' vocabulary."""
    vocab = bags.vocab.to_pylist()
    return [np.array([predicate(t) for t in vocab], dtype=bool) for predicate in predicates]


def _per_reference(bags, flags: np.ndarray, n: int, counted: bool = False) -> np.ndarray:
    """Per reference: its distinct tokens that ``flags`` marks (``counted``: each as many
    times as it occurs)."""
    size = max(len(bags.vocab), 1)
    owner, token = bags.keys // size, bags.keys % size
    keep = flags[token] if len(token) else np.zeros(0, dtype=bool)
    weights = bags.counts[owner, bags.columns][keep] if counted else None
    return np.bincount(owner[keep], weights=weights, minlength=n).astype(np.int64)


def _glue_ends(bags) -> np.ndarray:
    """Per reference: :func:`~recallscore_nb.core.equivalence.checks.gluable`, read off its first
    and last ``answer`` tokens."""
    flags = np.append(*_vocab_flags(bags, glue_word), False)
    if not bags.sequences.shape[1]:
        return np.zeros(len(bags.lengths), dtype=bool)
    last = bags.sequences[np.arange(len(bags.lengths)), np.maximum(bags.lengths - 1, 0)]
    return flags[bags.sequences[:, 0]] & flags[last]


class _Shared:
    """Per row and slot, under each of :data:`LEVELS`: the distinct tokens the row shares
    with the slot's reference, those no stop word, and whether the reference's last token is
    one. The shared (row, slot, token) triples of a level are found once; each count is a
    (rows × slots) array made when asked for, never kept."""

    def __init__(self, attempts: Attempts, refs: References, rows: np.ndarray,
                 matrix: np.ndarray) -> None:
        self.attempts, self.refs, self.rows, self.matrix = attempts, refs, rows, matrix
        self._hits: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def tokens(self, level: int) -> np.ndarray:
        return self._count(self._at(level)[0])

    def content(self, level: int) -> np.ndarray:
        cells, content, _ = self._at(level)
        return self._count(cells[content])

    def last(self, level: int) -> np.ndarray:
        cells, _, last = self._at(level)
        return self._count(cells[last]) > 0

    def _count(self, cells: np.ndarray) -> np.ndarray:
        counts = np.bincount(cells, minlength=self.matrix.size)
        return counts.astype(np.int32).reshape(self.matrix.shape)

    def _at(self, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if level not in self._hits:
            self._hits[level] = _shared(self.attempts, self.refs, LEVELS[level], self.rows,
                                        self.matrix)
        return self._hits[level]


def _shared(attempts: Attempts, refs: References, normalizer, rows: np.ndarray,
            matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Under ``normalizer``, each distinct (row, slot, token) the row shares with the slot's
    reference: its cell (``row * slots + slot``), whether the token is no stop word, whether
    it is the reference's last."""
    bags = refs.bags(normalizer)
    tokens = attempts.tokens(normalizer, bags.vocab)
    flat = tokens.of_rows(rows)
    local = np.repeat(np.arange(len(rows)), tokens.counts[rows])
    known = tokens.ids[flat] >= 0  # in some reference's vocabulary
    flat, local = flat[known], local[known]
    # each token against each reference of its row (the row's filled slots, in order)
    filled_row, filled_slot = np.nonzero(matrix >= 0)
    per_row = np.bincount(filled_row, minlength=len(rows))
    token = np.repeat(np.arange(len(local)), per_row[local])
    slot = filled_slot[spans((np.cumsum(per_row) - per_row)[local], per_row[local])]
    ref, ids = matrix[local[token], slot], tokens.ids[flat[token]]
    size = max(len(bags.vocab), 1)
    hit = bags.key_lookup.locate(ref * size + ids) >= 0
    cell = local[token[hit]] * matrix.shape[1] + slot[hit]
    cell, first = np.unique(cell * size + ids[hit], return_index=True)
    cell //= size  # each (row, slot, token) once
    ref, ids = ref[hit][first], ids[hit][first]
    stop = pc.is_in(bags.vocab, value_set=_STOP).to_numpy(zero_copy_only=False)
    last = ids == bags.sequences[ref, np.maximum(bags.lengths[ref] - 1, 0)]
    return cell, ~stop[ids], last


def _has_number(attempts: Attempts, rows: np.ndarray) -> np.ndarray:
    """Per row: a token of ``answer+numbers`` that starts with a digit (one did under
    ``answer``, or it is a number word)."""
    text = attempts.normalized(ANSWER).take(pa.array(rows))
    digit = pc.match_substring_regex(text, r"(^| )[0-9]").to_numpy(zero_copy_only=False)
    tokens = attempts.tokens(ANSWER, _NUMBER_WORDS)
    word = np.zeros(len(attempts) + 1, dtype=bool)
    word[tokens.rows[tokens.ids >= 0]] = True
    return digit | word[rows]


def _content_counts(attempts: Attempts, rows: np.ndarray) -> np.ndarray:
    """Per row: its ``answer+stems`` tokens that are no stop word."""
    tokens = attempts.tokens(ANSWER_STEMS, _STOP)
    stops = np.bincount(tokens.rows[tokens.ids >= 0], minlength=len(attempts))
    return tokens.counts[rows] - stops[rows]


def _people(refs: References, matrix: np.ndarray, gate: np.ndarray, read: str) -> None:
    """Keep ``gate`` (rows × slots) only where the slot's reference is a person's name (its
    ``read`` property: ``person`` or ``named``), read for the references the gate still
    holds."""
    person = np.zeros(len(refs.values) + 1, dtype=bool)
    for index in np.unique(matrix[gate]).tolist():
        person[index] = getattr(reference_forms(refs, index), read) is not None
    gate &= person[matrix]


def _look(attempts: Attempts, refs: References, rows: np.ndarray, matrix: np.ndarray,
          out: np.ndarray, steps, at: list[int], options) -> None:
    """Read the text of the rows no step without a look could take, and keep the steps with
    one (``steps``, at ``at`` in ``out``) only where their look still could."""
    others = np.ones(out.shape[2], dtype=bool)
    others[at] = False
    alone = np.flatnonzero(~out[..., others].any(axis=(1, 2)) & out[..., at].any(axis=(1, 2)))
    row, slot, which = np.nonzero(out[alone][..., at])
    take = pa.array(rows[alone])
    texts = {n: pad(attempts.normalized(n).take(take)).to_pylist()
             for n in dict.fromkeys(step.normalizer for step in steps)}
    kept = [steps[w].look(ref, texts[steps[w].normalizer][k], options)
            for k, w, ref in zip(row.tolist(), which.tolist(),
                                 map(functools.partial(reference_forms, refs),
                                     matrix[alone[row], slot].tolist()))]
    out[alone[row], slot, np.asarray(at)[which]] = kept
