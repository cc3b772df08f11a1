"""Answer equivalence: is a free-text answer one of its references said another way?

A cascade of named steps, each of which may decide that an answer is equivalent; the first
that does names the verdict (``step``), and an answer no step accepts is not (``none``). The
steps that find a reference inside the answer (``exact``, ``contains``, ``number``,
``plural``) run over every row at once on the tokens of the ``answer`` normalizers
(:mod:`~recallscore_nb.core.answer_forms`); the others (:mod:`~recallscore_nb.core.answer_checks`)
read, in Python, only the rows still undecided, each distinct answer and reference list once,
and only the checks array operations could not rule out (:mod:`~recallscore_nb.core.read_gates`).

Guards veto a reference found inside the answer: ``negation`` (the reference right after a
"not", "never", …), ``candidates`` (the answer is a short list of alternatives, one of them
not a reference) and ``longer-name`` (the reference is part of a longer capitalized name in
the answer). A vetoed row is decided not equivalent, and the guard names it.

>>> options = EquivalenceOptions()
>>> verdict, step = equivalence(Attempts(["Not Paris, but Lyon", "a Beatle song", "Seven"]),
...                             References.build([["Paris"], ["The Beatles"], ["7"]], 3),
...                             options)
>>> verdict.tolist(), step.tolist()
([False, True, True], ['negation', 'plural', 'number'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import answer_checks as checks
from .answer_forms import ANSWER, ANSWER_NUMBERS, ANSWER_STEMS
from .answer_parts import NEGATIONS, AnswerForms, ReferenceForms, contains
from .engine import Attempts, References, reference_starts, sequence_match
from .read_gates import possible, reference_forms, slot_matrix

__all__ = ["PHRASE_STEPS", "READ_STEPS", "STEPS", "GUARDS", "LABELS", "NONE", "NORMALIZERS",
           "CHECKS", "EquivalenceOptions", "equivalence", "equivalence_of"]

PHRASE_STEPS = {"exact": ANSWER, "contains": ANSWER, "number": ANSWER_NUMBERS,
                "plural": ANSWER_STEMS}
"""The steps that find a reference's tokens in the answer's, by the normalizer of both."""
READ_STEPS = ("date", "quantity", "glue", "spelling", "order", "name-part", "part", "overlap")
"""The steps read in Python on the rows no earlier step decided, in order."""
STEPS = tuple(PHRASE_STEPS) + READ_STEPS
NORMALIZERS = (ANSWER, ANSWER_NUMBERS, ANSWER_STEMS)
"""The normalizers the steps compare under."""
GUARDS = ("negation", "candidates", "longer-name")
NONE = "none"
LABELS = STEPS + GUARDS + (NONE,)
"""Every value of a step column: a step, a guard that vetoed, or none."""


@dataclass(frozen=True)
class EquivalenceOptions:
    """Every choice of the cascade: the steps in order, the guards on, and each threshold.

    ``tolerance``: the relative distance an approximate scaled quantity may be off;
    ``shortest``: the shortest word the spelling step lets differ by one edit; ``window``: the
    words before a last name its given name may be; ``longest``: the most content words a part
    of a reference may have; ``share`` and ``least``: the content words of a reference the
    overlap step needs; ``widest``: the most content words of a reference whose missing words
    the overlap step does not check for a replacement (a fact changed, not left out).
    """

    steps: tuple[str, ...] = STEPS
    guards: tuple[str, ...] = ("negation",)
    tolerance: float = 0.05
    shortest: int = 5
    window: int = 3
    longest: int = 4
    share: Fraction = field(default=Fraction(2, 3))
    least: int = 2
    widest: int = 4

    def __post_init__(self):
        for value, known, what in ((self.steps, STEPS, "step"), (self.guards, GUARDS, "guard")):
            unknown = [v for v in value if v not in known]
            if unknown:
                raise ValueError(f"unknown {what} {unknown[0]!r} (known: {', '.join(known)})")
        object.__setattr__(self, "steps", tuple(s for s in STEPS if s in self.steps))
        object.__setattr__(self, "guards", tuple(g for g in GUARDS if g in self.guards))

    def option_fields(self) -> list[tuple[str, str]]:
        """The options as signature fields, in a fixed order."""
        return [("steps", "+".join(self.steps) or "none"),
                ("guards", "+".join(self.guards) or "none"),
                ("tolerance", f"{self.tolerance:g}"), ("shortest", str(self.shortest)),
                ("window", str(self.window)), ("longest", str(self.longest)),
                ("share", str(self.share)), ("least", str(self.least)),
                ("widest", str(self.widest))]


def equivalence(attempts: Attempts, refs: References,
                options: EquivalenceOptions) -> tuple[np.ndarray, np.ndarray]:
    """Per row: (equivalent to one of its references, the name of the step or guard that
    decided, ``none`` if nothing did)."""
    n = len(attempts)
    label = np.full(n, len(LABELS) - 1, dtype=np.int64)
    open_ = np.ones(n, dtype=bool) if refs.values else np.zeros(n, dtype=bool)

    def decide(rows: np.ndarray, name: str) -> None:
        rows = rows[open_[rows]]
        label[rows] = LABELS.index(name)
        open_[rows] = False

    for step in options.steps:
        if not open_.any():
            break
        if step == "exact":
            said = pc.not_equal(attempts.normalized(ANSWER), "").to_numpy(zero_copy_only=False)
            decide(np.flatnonzero(sequence_match(attempts, refs, ANSWER) & said & open_), step)
        elif step in PHRASE_STEPS:
            found, vetoed = _found(attempts, refs, PHRASE_STEPS[step], options, open_)
            for guard, rows in vetoed.items():
                decide(rows, guard)
            decide(found, step)
        else:
            _read(attempts, refs, options, open_, decide)
            break
    labels = np.array(LABELS, dtype=object)[label]
    return label < len(STEPS), labels


def equivalence_of(answer: str, references: Sequence[str],
                   options: EquivalenceOptions = EquivalenceOptions()) -> tuple[bool, str]:
    """One answer against its references, step by step in Python: what :func:`equivalence`
    computes for each row, without the kernels or the vectorized matching (the tests hold
    the two equal).

    >>> equivalence_of("He was born on 4 July 1776.", ["July 4, 1776"])
    (True, 'date')
    """
    forms = AnswerForms.of(answer)
    refs = [ReferenceForms.of(r) for r in references]
    for step in options.steps:
        if step == "exact":
            if forms.a0 and any(forms.a0 == r.a0 for r in refs):
                return True, step
        elif step in PHRASE_STEPS:
            level = _LEVEL[step]
            tokens = getattr(forms, level)
            starts = [i for r in refs for i in _starts(tokens, getattr(r, level))]
            if not starts:
                continue
            if "negation" in options.guards and all(
                    checks.negation_cue(answer, forms.a0, i) for i in starts):
                return False, "negation"
            if "candidates" in options.guards and checks.candidate_list(answer, refs):
                return False, "candidates"
            if "longer-name" in options.guards and _in_longer_names(answer, forms.a0, refs):
                return False, "longer-name"
            return True, step
        else:
            found = _first_step([s for s in options.steps if s in READ_STEPS], forms, refs,
                                options)
            return (True, found) if found else (False, NONE)
    return False, NONE


_LEVEL = {"exact": "a0", "contains": "a0", "number": "a1", "plural": "a2"}


def _starts(tokens: list[str], phrase: list[str]) -> list[int]:
    k = len(phrase)
    return [i for i in range(len(tokens) - k + 1) if k and tokens[i:i + k] == phrase]


# --- phrase steps and guards -------------------------------------------------------------
def _found(attempts: Attempts, refs: References, normalizer, options: EquivalenceOptions,
           open_: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The open rows where a reference occurs in the answer under ``normalizer`` and no guard
    vetoes it, and the rows each guard vetoed."""
    rows, starts = reference_starts(attempts, refs, normalizer, np.flatnonzero(open_))
    vetoed: dict[str, np.ndarray] = {}
    if "negation" in options.guards and len(rows):
        negated = _negated(attempts, rows, starts)
        clean = np.unique(rows[~negated])
        vetoed["negation"] = np.setdiff1d(np.unique(rows[negated]), clean)
        rows = clean
    rows = np.unique(rows)
    for guard, check in (("candidates", _candidates), ("longer-name", _longer_name)):
        if guard in options.guards and len(rows):
            hit = check(attempts, refs, rows)
            vetoed[guard], rows = rows[hit], rows[~hit]
    return rows, vetoed


_NEGATIONS = pa.array(sorted(NEGATIONS))


def _negated(attempts: Attempts, rows: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per found place: is the reference right after a negation cue (:func:`negation_cue`)?"""
    tokens = attempts.tokens(ANSWER, _NEGATIONS)
    after_cue = (tokens.positions[starts] > 0) & (tokens.ids[np.maximum(starts - 1, 0)] >= 0)
    out = np.zeros(len(rows), dtype=bool)
    if after_cue.any():
        which = np.flatnonzero(after_cue)
        raw = attempts.raw.take(pa.array(rows[which])).to_pylist()
        text = attempts.normalized(ANSWER).take(pa.array(rows[which])).to_pylist()
        at = tokens.positions[starts[which]]
        out[which] = [checks.negation_cue(r, t.split(), int(p)) for r, t, p in zip(raw, text, at)]
    return out


def _row_forms(refs: References, rows: np.ndarray) -> list[list[ReferenceForms]]:
    """Each row's references' forms, in slot order."""
    return [[reference_forms(refs, i) for i in row if i >= 0]
            for row in slot_matrix(refs, rows).tolist()]


def _candidates(attempts: Attempts, refs: References, rows: np.ndarray) -> np.ndarray:
    raw = attempts.raw.take(pa.array(rows)).to_pylist()
    return np.array([checks.candidate_list(r, forms)
                     for r, forms in zip(raw, _row_forms(refs, rows))], dtype=bool)


def _longer_name(attempts: Attempts, refs: References, rows: np.ndarray) -> np.ndarray:
    raw = attempts.raw.take(pa.array(rows)).to_pylist()
    tokens = attempts.normalized(ANSWER).take(pa.array(rows)).to_pylist()
    return np.array([_in_longer_names(r, t.split(), forms)
                     for r, t, forms in zip(raw, tokens, _row_forms(refs, rows))], dtype=bool)


def _in_longer_names(raw: str, a0: list[str], forms: list[ReferenceForms]) -> bool:
    """Whether the references found in the answer as written are each only inside a longer
    name (one at least found)."""
    found = [f for f in forms if contains(a0, f.a0)]
    return bool(found) and all(checks.in_longer_name(raw, f) for f in found)


# --- steps read in Python ----------------------------------------------------------------------
def _read(attempts: Attempts, refs: References, options: EquivalenceOptions,
          open_: np.ndarray, decide) -> None:
    """The read steps on the open rows, each distinct (answer, references) pair once, each
    step only against the references it could accept (:func:`possible`)."""
    steps = [s for s in options.steps if s in READ_STEPS]
    rows = np.flatnonzero(open_)
    if not steps or not len(rows):
        return
    matrix = slot_matrix(refs, rows)
    maybe = possible(attempts, refs, rows, matrix, steps, options)
    keep = maybe.any(axis=(1, 2))
    rows, matrix, maybe = rows[keep], matrix[keep], maybe[keep]
    if not len(rows):
        return
    text = attempts.normalized(ANSWER).take(pa.array(rows))
    # the steps read the three forms of an answer, all made of its ``answer`` tokens: rows
    # with the same tokens and references are read once
    code = pc.dictionary_encode(text).indices.to_numpy(zero_copy_only=False)
    _, first, pair = np.unique(np.column_stack([code, matrix]), axis=0, return_index=True,
                               return_inverse=True)
    # each pair's checks, step by step in order and reference by reference in slot order
    owner, step_at, slot = np.nonzero(np.transpose(maybe[first], (0, 2, 1)))
    ref = matrix[first[owner], slot].tolist()
    bounds = np.searchsorted(owner, np.arange(len(first) + 1)).tolist()
    taken = pa.array(rows[first])
    answers = zip(*(attempts.normalized(n).take(taken).to_pylist() for n in NORMALIZERS))
    accepted = np.full(len(first), NONE, dtype=object)
    for p, (a0, a1, a2) in enumerate(answers):
        forms = AnswerForms(a0.split(), a1.split(), a2.split())
        for k in range(bounds[p], bounds[p + 1]):
            name = steps[step_at[k]]
            if CHECKS[name](forms, reference_forms(refs, ref[k]), options):
                accepted[p] = name
                break
    accepted = accepted[pair.ravel()]
    for name in steps:
        decide(rows[accepted == name], name)


def _first_step(steps, answer: AnswerForms, forms, options: EquivalenceOptions) -> str | None:
    """The first read step that finds the answer equivalent to one of the references."""
    for step in steps:
        check = CHECKS[step]
        if any(check(answer, r, options) for r in forms):
            return step
    return None


CHECKS = {
    "date": lambda a, r, o: checks.date_matches(a, r),
    "quantity": lambda a, r, o: checks.quantity_matches(a, r, o.tolerance),
    "glue": lambda a, r, o: checks.glue_matches(a, r),
    "spelling": lambda a, r, o: checks.spelling_matches(a, r, o.shortest),
    "order": lambda a, r, o: checks.order_matches(a, r),
    "name-part": lambda a, r, o: checks.name_part_matches(a, r, o.window),
    "part": lambda a, r, o: checks.part_matches(a, r, o.longest),
    "overlap": lambda a, r, o: checks.overlap_matches(a, r, o.share, o.least, o.widest),
}
"""Each read step's check of one answer's forms against one reference's, under the options."""
