"""Answer equivalence: is a free-text answer one of its references said another way?

A cascade of named steps (:data:`CASCADE`, one :class:`Step` record each), each of which may
decide that an answer is equivalent; the first that does names the verdict (``step``), and an
answer no step accepts is not (``none``). The steps that find a reference inside the answer
(``exact``, ``contains``, ``number``, ``plural``) run over every row at once on the tokens of
the ``answer`` normalizers (:mod:`~recallscore_nb.core.equivalence.forms`); the others
(:mod:`~recallscore_nb.core.equivalence.checks`) read, in Python, only the rows still
undecided, each distinct answer and reference list once, and only the checks their gates
could not rule out with array operations (:mod:`~recallscore_nb.core.equivalence.gates`).

Guards (:class:`Guard` records) veto a reference found inside the answer: ``negation`` (the
reference right after a "not", "never", …), ``candidates`` (the answer is a short list of
alternatives, one of them not a reference), ``longer-name`` (the reference is part of a
longer capitalized name in the answer), ``alternatives`` (the answer hedges between
candidates, one of them no reference: "Either Lyon or Paris"), ``list`` (the answer is a bare
list of candidates, hedged or not: "Lyon, Paris, Nice"), ``bag`` (the reference in a bag of
words, no sentence: "Lyon Nice Paris Oslo Rome …"), ``denial`` (every reference
found is denied: "anything but Paris", "Paris is wrong") and ``scale`` (a number the answer
multiplies: "9 billion" for "9"), the last five read in
:mod:`~recallscore_nb.core.equivalence.hedges`. A vetoed row is decided not equivalent, and the guard
names it. One dispatcher, :func:`first_veto`, reads the guards for both paths.

Adding a step or a guard is one record in :data:`CASCADE` and its function; a record without
what its kind needs fails when the module is imported.

>>> options = EquivalenceOptions()
>>> verdict, step = equivalence(Attempts(["Not Paris, but Lyon", "a Beatle song", "Seven"]),
...                             References.build([["Paris"], ["The Beatles"], ["7"]], 3),
...                             options)
>>> verdict.tolist(), step.tolist()
([False, True, True], ['negation', 'plural', 'number'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..engine import Attempts, References, reference_starts, sequence_match
from ..normalize import Normalizer
from . import checks, gates, hedges
from .forms import ANSWER, ANSWER_NUMBERS, ANSWER_STEMS
from .gates import possible, reference_forms, slot_matrix
from .parts import AnswerForms, ReferenceForms, contains

__all__ = ["Step", "Guard", "Found", "Cascade", "CASCADE", "PHRASE_STEPS", "READ_STEPS",
           "STEPS", "GUARDS", "LABELS", "NONE", "NORMALIZERS", "CHECKS", "EquivalenceOptions",
           "equivalence", "equivalence_of", "first_veto", "GUARDS_OF", "CURRENT"]

NORMALIZERS = gates.LEVELS
"""The normalizers the steps compare under: an answer's and a reference's forms ``a0``,
``a1`` and ``a2`` (:class:`~recallscore_nb.core.equivalence.parts.AnswerForms`)."""
NONE = "none"
KINDS = ("equal", "inside", "read")
"""How a step compares: the whole answer is a reference (``equal``); a reference's tokens are
inside the answer's, the guards on (``inside``); read in Python, one answer against one
reference, on the rows no earlier step decided and its gate lets through (``read``)."""


@dataclass(frozen=True)
class Step:
    """One step of the cascade: its ``name`` (a value of the step column), its ``kind``
    (:data:`KINDS`) and the ``normalizer`` whose tokens it compares (one of
    :data:`NORMALIZERS`). A read step also has its ``check`` (answer forms, reference forms,
    options → accepted) and its ``gate`` (a :class:`~recallscore_nb.core.equivalence.gates.Gate`
    → rows × slots: could the check accept? False only where it cannot), and may have a
    ``look``: a necessary condition read on the text of the answer under ``normalizer``
    (reference forms, padded text, options → could accept), for the rows no gate but the
    looks lets through.

    >>> Step("nothing", "read", ANSWER)
    Traceback (most recent call last):
    ...
    ValueError: step 'nothing': a read step needs its check and its gate
    """

    name: str
    kind: str
    normalizer: Normalizer
    check: Callable[[AnswerForms, ReferenceForms, EquivalenceOptions], bool] | None = None
    gate: Callable[[gates.Gate], np.ndarray] | None = None
    look: Callable[[ReferenceForms, str, EquivalenceOptions], bool] | None = None

    def __post_init__(self):
        def fail(why: str):
            raise ValueError(f"step {self.name!r}: {why}")
        if not self.name or self.name == NONE:
            fail("a step needs a name other than 'none'")
        if self.kind not in KINDS:
            fail(f"unknown kind {self.kind!r} (kinds: {', '.join(KINDS)})")
        if self.normalizer not in NORMALIZERS:
            fail(f"it must compare under one of {', '.join(n.name for n in NORMALIZERS)}")
        if self.kind == "read" and not (callable(self.check) and callable(self.gate)):
            fail("a read step needs its check and its gate")
        if self.kind != "read" and (self.check, self.gate, self.look) != (None, None, None):
            fail(f"an {self.kind!r} step is matched on tokens: no check, gate or look")
        if self.look is not None and not callable(self.look):
            fail("its look must be a function")

    @property
    def forms(self) -> str:
        """The attribute of the answer's and the reference's forms it compares (``a0``…)."""
        return f"a{NORMALIZERS.index(self.normalizer)}"


@dataclass(frozen=True)
class Found:
    """What a guard reads of one row where a reference was found inside the answer: the
    answer as written, its ``answer`` tokens, the token positions where a reference starts,
    and the forms of the row's references."""

    raw: str
    a0: list[str]
    starts: list[int]
    refs: list[ReferenceForms]


@dataclass(frozen=True)
class Guard:
    """A veto of a reference found inside the answer: its ``name`` (a value of
    the step column), ``veto`` (a :class:`Found` → vetoed) and, optionally, ``could``: a
    necessary condition of the veto computed on every found row at once (attempts, the rows
    and token starts of each place found, the distinct rows → could veto, per distinct row),
    so that ``veto`` is read only where it could hold.

    >>> Guard("nothing", None)
    Traceback (most recent call last):
    ...
    ValueError: guard 'nothing': a guard needs its veto
    """

    name: str
    veto: Callable[[Found], bool]
    could: Callable[[Attempts, np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None = None

    def __post_init__(self):
        if not self.name or self.name == NONE:
            raise ValueError(f"guard {self.name!r}: a guard needs a name other than 'none'")
        if not callable(self.veto) or not (self.could is None or callable(self.could)):
            raise ValueError(f"guard {self.name!r}: a guard needs its veto")


@dataclass(frozen=True)
class Cascade:
    """The steps, in order (every ``equal`` and ``inside`` step before the read ones), and the
    guards, in the order they are read; every name once."""

    steps: tuple[Step, ...]
    guards: tuple[Guard, ...]

    def __post_init__(self):
        names = [s.name for s in self.steps] + [g.name for g in self.guards]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"the cascade names {twice[0]!r} twice")
        kinds = [s.kind == "read" for s in self.steps]
        if kinds != sorted(kinds):
            raise ValueError("every read step comes after the steps matched on tokens")

    @property
    def step_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.steps)

    @property
    def guard_names(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.guards)

    @property
    def labels(self) -> tuple[str, ...]:
        """Every value of a step column: a step, a guard that vetoed, or none."""
        return self.step_names + self.guard_names + (NONE,)

    def step(self, name: str) -> Step:
        return self.steps[self.step_names.index(name)]

    def guard(self, name: str) -> Guard:
        return self.guards[self.guard_names.index(name)]


def _negated(found: Found) -> bool:
    """Whether every place a reference was found follows a negation cue ("not Paris")."""
    return all(checks.negation_cue(found.raw, found.a0, i) for i in found.starts)


def _candidates(found: Found) -> bool:
    return checks.candidate_list(found.raw, found.refs)


def _longer_names(found: Found) -> bool:
    """Whether the references found in the answer as written are each only inside a longer
    name (one at least found)."""
    inside = [f for f in found.refs if contains(found.a0, f.a0)]
    return bool(inside) and all(checks.in_longer_name(found.raw, f) for f in inside)


def _alternatives(found: Found) -> bool:
    return hedges.offers_alternatives(found.raw, found.refs)


def _list(found: Found) -> bool:
    return hedges.lists_candidates(found.raw, found.refs)


def _bag(found: Found) -> bool:
    return hedges.bags_words(found.raw, found.refs)


def _denial(found: Found) -> bool:
    return hedges.denies_reference(found.raw, found.refs)


def _scale(found: Found) -> bool:
    return hedges.scale_added(found.a0, found.starts, found.refs)


CASCADE = Cascade(
    steps=(
        Step("exact", "equal", ANSWER),
        Step("contains", "inside", ANSWER),
        Step("number", "inside", ANSWER_NUMBERS),
        Step("plural", "inside", ANSWER_STEMS),
        Step("date", "read", ANSWER_NUMBERS,
             lambda a, r, o: checks.date_matches(a, r, o.cascade > 1), gates.date_gate),
        Step("quantity", "read", ANSWER_NUMBERS,
             lambda a, r, o: checks.quantity_matches(a, r, o.tolerance, o.cascade > 1,
                                                     o.cascade > 2),
             gates.quantity_gate),
        Step("glue", "read", ANSWER, lambda a, r, o: checks.glue_matches(a, r),
             gates.glue_gate, lambda r, text, o: checks.glue_possible(r, text)),
        Step("spelling", "read", ANSWER_NUMBERS,
             lambda a, r, o: checks.spelling_matches(a, r, o.shortest, o.cascade > 1),
             gates.spelling_gate,
             lambda r, text, o: checks.spelling_possible(r, text, o.shortest)),
        Step("order", "read", ANSWER_STEMS, lambda a, r, o: checks.order_matches(a, r),
             gates.order_gate),
        Step("name-part", "read", ANSWER,
             lambda a, r, o: checks.name_part_matches(a, r, o.window, o.cascade > 2),
             gates.name_part_gate),
        Step("part", "read", ANSWER_STEMS,
             lambda a, r, o: checks.part_matches(a, r, o.longest, o.cascade > 2),
             gates.part_gate),
        Step("overlap", "read", ANSWER_STEMS,
             lambda a, r, o: checks.overlap_matches(a, r, o.share, o.least, o.widest,
                                                    o.cascade > 1),
             gates.overlap_gate),
    ),
    guards=(
        Guard("negation", _negated, gates.after_negation_cue),
        Guard("candidates", _candidates),
        Guard("longer-name", _longer_names),
        Guard("alternatives", _alternatives),
        Guard("list", _list),
        Guard("bag", _bag),
        Guard("denial", _denial),
        Guard("scale", _scale, gates.scale_or_month),
    ))
"""The ``equivalent`` rule's steps and guards, in order. The names below are read off it; the
functions read the module's ``CASCADE`` when called."""

STEPS = CASCADE.step_names
PHRASE_STEPS = {s.name: s.normalizer for s in CASCADE.steps if s.kind != "read"}
"""The steps that find a reference's tokens in the answer's, by the normalizer of both."""
READ_STEPS = tuple(s.name for s in CASCADE.steps if s.kind == "read")
"""The steps read in Python on the rows no earlier step decided, in order."""
GUARDS = CASCADE.guard_names
LABELS = CASCADE.labels
"""Every value of a step column: a step, a guard that vetoed, or none."""
CHECKS = {s.name: s.check for s in CASCADE.steps if s.kind == "read"}
"""Each read step's check of one answer's forms against one reference's, under the options."""


GUARDS_OF = {1: ("negation",),
             2: ("negation", "alternatives", "list", "bag", "denial", "scale"),
             3: ("negation", "alternatives", "list", "bag", "denial", "scale")}
"""The guards each version of the cascade has on by default. Version 1 is the cascade as
published before the gaming audit (its figures stay reproducible with ``cascade=1``); version
2 also refuses hedges, bare lists of candidates, bags of words, denials and multiplied
numbers; version 3 has version 2's guards, and its ``quantity``, ``name-part`` and ``part``
steps read more forms of the same answer: a number to the precision the coarser of the two
states ("62.3" for "62"), a name without its middle names or suffix, or by a short form of
its given name ("Jimmy Flynn" for "James P. Flynn"), one side of a reference of alternatives
joined by "or", and a place without the word that says what kind it is ("Lagos" for "Lagos
State")."""
CURRENT = max(GUARDS_OF)


@dataclass(frozen=True)
class EquivalenceOptions:
    """Every choice of the cascade: its version, the steps in order, the guards on, and each
    threshold.

    ``cascade``: the version (:data:`GUARDS_OF`), whose guards are on when ``guards`` is not
    given; ``tolerance``: the relative distance an approximate scaled quantity may be off;
    ``shortest``: the shortest word the spelling step lets differ by one edit; ``window``: the
    words before a last name its given name may be; ``longest``: the most content words a part
    of a reference may have; ``share`` and ``least``: the content words of a reference the
    overlap step needs; ``widest``: the most content words of a reference whose missing words
    the overlap step does not check for a replacement (a fact changed, not left out).

    >>> EquivalenceOptions(cascade=1).guards, EquivalenceOptions(guards=()).guards
    (('negation',), ())
    >>> EquivalenceOptions(cascade=4)
    Traceback (most recent call last):
    ...
    ValueError: unknown cascade version 4 (known: 1, 2, 3)
    """

    steps: tuple[str, ...] = STEPS
    guards: tuple[str, ...] | None = None
    tolerance: float = 0.05
    shortest: int = 5
    window: int = 3
    longest: int = 4
    share: Fraction = field(default=Fraction(2, 3))
    least: int = 2
    widest: int = 4
    cascade: int = CURRENT

    def __post_init__(self):
        cascade = CASCADE
        if self.cascade not in GUARDS_OF:
            raise ValueError(f"unknown cascade version {self.cascade!r} "
                             f"(known: {', '.join(map(str, GUARDS_OF))})")
        if self.guards is None:
            object.__setattr__(self, "guards", GUARDS_OF[self.cascade])
        for value, known, what in ((self.steps, cascade.step_names, "step"),
                                   (self.guards, cascade.guard_names, "guard")):
            unknown = [v for v in value if v not in known]
            if unknown:
                raise ValueError(f"unknown {what} {unknown[0]!r} (known: {', '.join(known)})")
        object.__setattr__(self, "steps", tuple(s for s in cascade.step_names
                                                if s in self.steps))
        object.__setattr__(self, "guards", tuple(g for g in cascade.guard_names
                                                 if g in self.guards))

    def option_fields(self) -> list[tuple[str, str]]:
        """The options as signature fields, in a fixed order (``cascade`` first)."""
        return [("cascade", str(self.cascade)), ("steps", "+".join(self.steps) or "none"),
                ("guards", "+".join(self.guards) or "none"),
                ("tolerance", f"{self.tolerance:g}"), ("shortest", str(self.shortest)),
                ("window", str(self.window)), ("longest", str(self.longest)),
                ("share", str(self.share)), ("least", str(self.least)),
                ("widest", str(self.widest))]


def first_veto(guards: Sequence[Guard], found: Found) -> str | None:
    """The name of the first guard that vetoes the found reference, or None: the one
    dispatch of both :func:`equivalence` and :func:`equivalence_of`."""
    for guard in guards:
        if guard.veto(found):
            return guard.name
    return None


def equivalence(attempts: Attempts, refs: References,
                options: EquivalenceOptions) -> tuple[np.ndarray, np.ndarray]:
    """Per row: (equivalent to one of its references, the name of the step or guard that
    decided, ``none`` if nothing did)."""
    cascade = CASCADE
    labels = cascade.labels
    n = len(attempts)
    label = np.full(n, len(labels) - 1, dtype=np.int64)
    open_ = np.ones(n, dtype=bool) if refs.values else np.zeros(n, dtype=bool)
    guards = [cascade.guard(g) for g in options.guards]

    def decide(rows: np.ndarray, name: str) -> None:
        rows = rows[open_[rows]]
        label[rows] = labels.index(name)
        open_[rows] = False

    for step in map(cascade.step, options.steps):
        if not open_.any():
            break
        if step.kind == "equal":
            said = pc.not_equal(attempts.normalized(step.normalizer), "").to_numpy(
                zero_copy_only=False)
            match = sequence_match(attempts, refs, step.normalizer)
            decide(np.flatnonzero(match & said & open_), step.name)
        elif step.kind == "inside":
            found, vetoed = _found(attempts, refs, step, guards, open_)
            for guard, rows in vetoed.items():
                decide(rows, guard)
            decide(found, step.name)
        else:
            _read(attempts, refs, options, open_, decide,
                  [s for s in map(cascade.step, options.steps) if s.kind == "read"])
            break
    return label < len(cascade.steps), np.array(labels, dtype=object)[label]


def equivalence_of(answer: str, references: Sequence[str],
                   options: EquivalenceOptions = EquivalenceOptions()) -> tuple[bool, str]:
    """One answer against its references, step by step in Python: what :func:`equivalence`
    computes for each row, without the kernels or the vectorized matching (the tests hold
    the two equal).

    >>> equivalence_of("He was born on 4 July 1776.", ["July 4, 1776"])
    (True, 'date')
    """
    cascade = CASCADE
    forms = AnswerForms.of(answer)
    refs = [ReferenceForms.of(r) for r in references]
    guards = [cascade.guard(g) for g in options.guards]
    for step in map(cascade.step, options.steps):
        tokens = getattr(forms, step.forms)
        if step.kind == "equal":
            if tokens and any(tokens == getattr(r, step.forms) for r in refs):
                return True, step.name
        elif step.kind == "inside":
            starts = [i for r in refs for i in _starts(tokens, getattr(r, step.forms))]
            if not starts:
                continue
            vetoed = first_veto(guards, Found(answer, forms.a0, starts, refs))
            return (False, vetoed) if vetoed else (True, step.name)
        else:
            read = [s for s in map(cascade.step, options.steps) if s.kind == "read"]
            found = _first_step(read, forms, refs, options)
            return (True, found) if found else (False, NONE)
    return False, NONE


def _starts(tokens: list[str], phrase: list[str]) -> list[int]:
    k = len(phrase)
    return [i for i in range(len(tokens) - k + 1) if k and tokens[i:i + k] == phrase]


# --- steps matched on tokens, and their guards ---------------------------------------------
def _found(attempts: Attempts, refs: References, step: Step, guards: Sequence[Guard],
           open_: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The open rows where a reference occurs in the answer under the step's normalizer and
    no guard vetoes it, and the rows each guard vetoed (:func:`first_veto` on the rows some
    guard could veto)."""
    rows, starts = reference_starts(attempts, refs, step.normalizer, np.flatnonzero(open_))
    found = np.unique(rows)
    if not guards or not len(found):
        return found, {}
    could = np.array([np.ones(len(found), dtype=bool) if g.could is None
                      else g.could(attempts, rows, starts, found) for g in guards])
    read = np.flatnonzero(could.any(axis=0))
    if not len(read):
        return found, {}
    # each read row's places, as token positions, in the order found
    tokens = attempts.tokens(step.normalizer, refs.bags(step.normalizer).vocab)
    order = np.argsort(rows, kind="stable")
    at = tokens.positions[starts[order]].tolist()
    bounds = np.searchsorted(rows[order], found[read]).tolist()
    ends = np.searchsorted(rows[order], found[read], side="right").tolist()
    taken = pa.array(found[read])
    raw = attempts.raw.take(taken).to_pylist()
    text = attempts.normalized(ANSWER).take(taken).to_pylist()
    vetoes = np.full(len(found), None, dtype=object)
    with hedges.primed(raw):
        for k, (r, t, forms) in enumerate(zip(raw, text, _row_forms(refs, found[read]))):
            which = [g for g, c in zip(guards, could[:, read[k]]) if c]
            vetoes[read[k]] = first_veto(which, Found(r, t.split(), at[bounds[k]:ends[k]],
                                                      forms))
    vetoed = {g.name: found[vetoes == g.name] for g in guards}
    return found[vetoes == None], vetoed  # noqa: E711 (an object array, element-wise)


def _row_forms(refs: References, rows: np.ndarray) -> list[list[ReferenceForms]]:
    """Each row's references' forms, in slot order."""
    return [[reference_forms(refs, i) for i in row if i >= 0]
            for row in slot_matrix(refs, rows).tolist()]


# --- steps read in Python ----------------------------------------------------------------------
def _read(attempts: Attempts, refs: References, options: EquivalenceOptions,
          open_: np.ndarray, decide, steps: list[Step]) -> None:
    """The read steps on the open rows, each distinct (answer, references) pair once, each
    step only against the references its gate lets through (:func:`possible`)."""
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
            step = steps[step_at[k]]
            if step.check(forms, reference_forms(refs, ref[k]), options):
                accepted[p] = step.name
                break
    accepted = accepted[pair.ravel()]
    for step in steps:
        decide(rows[accepted == step.name], step.name)


def _first_step(steps: list[Step], answer: AnswerForms, forms, options: EquivalenceOptions
                ) -> str | None:
    """The first read step that finds the answer equivalent to one of the references."""
    for step in steps:
        if any(step.check(answer, r, options) for r in forms):
            return step.name
    return None
