"""What the ``equivalent`` rule's read steps need at the least, checked on every open row at
once.

The read steps (:mod:`~recallscore_nb.core.answer_checks`) read one answer against one
reference at a time, in Python. Most answers that reach them share no word with their
references, and no step can accept those. :func:`possible` says, with array operations, for
each row, reference and step, whether the step still could: a necessary condition of the
step (never a sufficient one), so a check it rules out is one that would fail. A step needs:

- ``date``: a reference with a year, and a token no stop word shared (``answer+numbers``);
- ``quantity``: a reference of quantities only, and a number in the answer;
- ``glue``: a reference it reads (:func:`~recallscore_nb.core.answer_checks.gluable`)
  whose first and last words are inside the answer's text;
- ``spelling``: as many shared tokens (``answer+numbers``) as the reference has words it
  may not spell otherwise, and each of its other words in the answer or near a token of it
  (:func:`~recallscore_nb.core.answer_checks.spelling_possible`);
- ``order``: every content word of the reference shared (``answer+stems``);
- ``name-part``: the reference's last token shared (``answer``), and a person's name;
- ``part``: an answer of at most ``longest`` content words, one shared (``answer+stems``);
- ``overlap``: as many shared content words as the step counts (``answer+stems``).

The two that read text (glue and spelling) are read only in rows no other step could take.

>>> from .equivalence import EquivalenceOptions, READ_STEPS
>>> attempts = Attempts(["in the year 1996", "a red fox", "7 km"])
>>> refs = References.build([["September 15, 1996"], ["blue whale"], ["seven miles"]], 3)
>>> rows = np.arange(3)
>>> maybe = possible(attempts, refs, rows, slot_matrix(refs, rows), READ_STEPS,
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

from .answer_checks import editable, glue_possible, glue_word, spelling_possible
from .answer_forms import ANSWER, ANSWER_NUMBERS, ANSWER_STEMS, NUMBER_WORDS
from .answer_parts import STOP, ReferenceForms, is_year
from .engine import Attempts, References
from .tokens import pad, spans

__all__ = ["possible", "reference_forms", "slot_matrix"]

LEVELS = (ANSWER, ANSWER_NUMBERS, ANSWER_STEMS)
"""The normalizers the read steps compare under: ``a0``, ``a1`` and ``a2``."""
_NUMBER_WORDS = pa.array(sorted(NUMBER_WORDS), type=pa.string())
_STOP = pa.array(sorted(STOP), type=pa.string())


def reference_forms(refs: References, index: int) -> ReferenceForms:
    """The reference's forms, made once per reference string (its tokens normalized with
    every other reference's, vectorized)."""
    memo = refs._memoized("answer_forms", dict)
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
    """(rows × slots × steps), ``matrix`` the rows' :func:`slot_matrix`: could the step find
    the row equivalent to the slot's reference? False only where it cannot."""
    facts = _Facts.of(refs, options)
    ref = np.where(matrix >= 0, matrix, len(refs.values))  # an empty slot: the sentinel
    shared = _Shared(attempts, refs, rows, matrix)
    out = np.zeros(matrix.shape + (len(steps),), dtype=bool)
    looks = []
    for s, step in enumerate(steps):
        if step == "date":
            out[..., s] = facts.year[ref] & (shared.content(1) >= 1)
        elif step == "quantity" and facts.quantities[ref].any():
            out[..., s] = facts.quantities[ref] & _has_number(attempts, rows)[:, None]
        elif step == "glue":
            out[..., s] = facts.gluable[ref]
            looks.append(s)
        elif step == "spelling":
            out[..., s] = facts.words[ref] & (shared.tokens(1) >= facts.fixed[ref])
            looks.append(s)
        elif step == "order":
            out[..., s] = facts.ordered[ref] & (shared.content(2) >= facts.content[ref])
        elif step == "name-part":  # a reference of no token: its name read in Python
            out[..., s] = (shared.last(0) | ~facts.a0[ref]) & (matrix >= 0)
            _people(refs, matrix, out[..., s])
        elif step == "part":
            short = _content_counts(attempts, rows) <= options.longest
            out[..., s] = short[:, None] & (shared.content(2) >= 1)
        elif step == "overlap":
            out[..., s] = facts.overlap[ref] & (shared.content(2) >= facts.overlap_need[ref])
    out &= (matrix >= 0)[..., None]
    if looks:
        _look(attempts, refs, rows, matrix, out, [steps[s] for s in looks], looks, options)
    return out


@dataclass(frozen=True)
class _Facts:
    """What the gates read of each reference, as arrays one longer than the references
    (the last: an empty slot, which no step accepts)."""

    year: np.ndarray
    """A year among its tokens (``answer+numbers``)."""
    quantities: np.ndarray
    """It says nothing but quantities."""
    gluable: np.ndarray
    """The glue step reads it (:func:`~recallscore_nb.core.answer_checks.gluable`)."""
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
                   a0=np.append(b0.lengths, 0) > 0)


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
    """Per reference: :func:`~recallscore_nb.core.answer_checks.gluable`, read off its first
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


def _people(refs: References, matrix: np.ndarray, gate: np.ndarray) -> None:
    """Keep ``gate`` (rows × slots) only where the slot's reference is a person's name, read
    for the references the gate still holds."""
    person = np.zeros(len(refs.values) + 1, dtype=bool)
    for index in np.unique(matrix[gate]).tolist():
        person[index] = reference_forms(refs, index).person is not None
    gate &= person[matrix]


def _look(attempts: Attempts, refs: References, rows: np.ndarray, matrix: np.ndarray,
          out: np.ndarray, names: list[str], at: list[int], options) -> None:
    """Read the text of the rows no step but glue and spelling could take, and keep those
    two (``at``, in ``out``) only where they still could."""
    others = np.ones(out.shape[2], dtype=bool)
    others[at] = False
    alone = np.flatnonzero(~out[..., others].any(axis=(1, 2)) & out[..., at].any(axis=(1, 2)))
    row, slot, which = np.nonzero(out[alone][..., at])
    take = pa.array(rows[alone])
    texts = [pad(attempts.normalized(n).take(take)).to_pylist() for n in (ANSWER, ANSWER_NUMBERS)]
    glue = [name == "glue" for name in names]
    kept = [glue_possible(ref, texts[0][k]) if glue[w] else
            spelling_possible(ref, texts[1][k], options.shortest)
            for k, w, ref in zip(row.tolist(), which.tolist(),
                                 map(functools.partial(reference_forms, refs),
                                     matrix[alone[row], slot].tolist()))]
    out[alone[row], slot, np.asarray(at)[which]] = kept
