"""The scoring rules and their registry: the one place a rule, its columns and its measures
are named.

A rule is a small frozen object. It declares its ``name`` (its signature's first field), the
normalizer it compares under (``normalizer``, a name of
:data:`~recallscore_nb.core.normalize.NORMALIZERS`; None: the text as written), the
:class:`Column` values it adds to a scored table (in output order, each binary, graded or a
count), the :class:`Measure` values a summary, a table or a figure shows of it (each binary or
graded, with its labels; a derived measure, such as the checklist's partial credit, says which
columns it is computed from and how), and ``fields()`` for its signature. Every rule scores
through one interface, ``compute(attempts, target)``: the prepared attempts of
:mod:`recallscore_nb.core.engine` against a :class:`Target`, of which each rule reads its part
(the references, or the checklist's facts), returning its columns by name.

:data:`RULES` lists the rule classes in output order (:func:`register_rule` adds one);
everything else asks the functions below, at call time, so that a new rule is one class
registered (and its tests):
:func:`rules_for` (the rules of a SQuAD mode), :func:`output_columns` (every output column for
a set of facts), :func:`stored_columns` and :func:`column_of` (what a scored file's columns
hold), :func:`measures`, :func:`binary_measures` and :func:`measure` (lookup by column, naming
the valid ones), and :func:`verdict_columns` (each rule's own value).

A rule's ``signature()`` records every choice that changes its scores, in one grammar,
``name|key:value|…|version:X``, as sacrebleu does; cite it beside the numbers.

>>> TokenF1(mode="v2.0").signature()  # doctest: +ELLIPSIS
'token_f1|mode:v2.0|norm:squad|tok:ws|bag:multiset|empty:both-one|version:...'
>>> [m.column for m in measures()]  # doctest: +NORMALIZE_WHITESPACE
['literal_match', 'normalized_match', 'squad_exact_match', 'token_f1', 'contains',
 'checklist_full_match', 'partial_credit', 'equivalent']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa

from .._version import __version__
from . import engine, item_tables
from .equivalence import LABELS as EQUIVALENCE_LABELS
from .equivalence import NORMALIZERS as EQUIVALENCE_NORMALIZERS
from .equivalence import EquivalenceOptions, equivalence
from .errors import UsageError
from .facts import Fact, partial_credit
from .normalize import Normalizer, normalizer_named

__all__ = ["BINARY", "GRADED", "COUNT", "LABEL", "Column", "Measure", "Target", "Rule",
           "LiteralMatch", "NormalizedMatch", "SquadExactMatch", "TokenF1", "Contains",
           "Checklist", "Equivalent", "RULES", "register_rule", "SQUAD_MODES", "rules_for",
           "rule_names", "output_columns", "stored_columns", "column_of", "measures",
           "binary_measures", "measure", "verdict_columns"]

SQUAD_MODES = engine.SQUAD_MODES
BINARY, GRADED, COUNT, LABEL = "binary", "graded", "count", "label"
"""What a column holds: true/false, a number from 0 to 1, an integer >= 0, or one of a few
names (``Column.labels``)."""


def _check_mode(mode: str) -> str:
    if mode not in SQUAD_MODES:
        raise ValueError(f"'mode' must be one of {', '.join(SQUAD_MODES)} (got {mode!r})")
    return mode


@dataclass(frozen=True)
class Column:
    """A column a rule adds to a scored table: its name, what it holds (:data:`BINARY`,
    :data:`GRADED`, :data:`COUNT` or :data:`LABEL`), whether it may be missing (``optional``: an item without
    a checklist), and the column it may not exceed (``at_most``)."""

    name: str
    kind: str
    optional: bool = False
    at_most: str | None = None
    labels: tuple[str, ...] = ()
    """The names a :data:`LABEL` column may hold."""


@dataclass(frozen=True)
class Measure:
    """One number a rule gives each attempt, as summaries, tables and figures show it.

    ``column`` names it in scored tables and summaries; ``name`` in the tables that compare
    rules (a rule's own verdict: the rule's name); ``label`` is its text in tables, ``short``
    in figures, ``tag`` in paper macros. ``kind`` is :data:`BINARY` (0 or 1 per attempt) or
    :data:`GRADED`. A derived measure ``reads`` other columns and ``derive`` computes it from
    them (as float arrays); ``optional``: missing for an item without a checklist.
    """

    column: str
    kind: str
    label: str
    short: str
    tag: str
    name: str | None = None
    reads: tuple[str, ...] = ()
    derive: Callable[..., np.ndarray] | None = None
    optional: bool = False

    @property
    def binary(self) -> bool:
        return self.kind == BINARY

    @property
    def inputs(self) -> tuple[str, ...]:
        """The scored columns the measure is computed from."""
        return self.reads or (self.column,)

    def values(self, scores: pd.DataFrame) -> np.ndarray:
        """The measure of every row of a scored table (a derived one computed here)."""
        if self.derive is not None:
            return self.derive(*(scores[c] for c in self.reads))
        return scores[self.column].to_numpy()


@dataclass(frozen=True, eq=False)
class Target:
    """What attempts are scored against; each rule reads its part.

    ``references`` (:class:`~recallscore_nb.core.engine.References`, aligned with the
    attempts) for the reference rules; for the checklist either ``facts``, one checklist for
    every attempt (a benchmark), or ``checklists`` with ``row_item``, each attempt its own
    item's checklist (an items file).
    """

    references: engine.References | None = None
    facts: tuple[Fact, ...] | None = None
    checklists: item_tables.ItemChecklists | None = None
    row_item: np.ndarray | None = None


class Rule:
    """Base of the rules: a name, the columns, the measures, and the signature's fields.

    ``column`` is the rule's own verdict: the column of its first measure. A subclass lists
    its ``measures``; its ``columns`` default to one per measure that is not derived.
    """

    name: ClassVar[str]
    normalizer: ClassVar[str | None] = None
    columns: ClassVar[tuple[Column, ...]]
    measures: ClassVar[tuple[Measure, ...]]
    column: ClassVar[str]

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        own = tuple(dataclasses.replace(m, name=m.name or cls.name) for m in cls.measures)
        cls.measures = own
        cls.column = own[0].column
        if "columns" not in cls.__dict__:
            cls.columns = tuple(Column(m.column, m.kind, m.optional) for m in own
                                if m.derive is None)

    def fields(self) -> list[tuple[str, str]]:
        """The (key, value) pairs of the signature, version excluded: the normalizer first,
        then what :meth:`options` adds."""
        return [("norm", self.normalizer or "none"), *self.options()]

    def options(self) -> list[tuple[str, str]]:
        """The rule's own choices that change a score, as (key, value) pairs."""
        return []

    def normalizers_used(self) -> tuple[str, ...]:
        """The names of the registered normalizers the rule compares under (its own, and any
        it derives from it)."""
        return (self.normalizer,) if self.normalizer else ()

    @property
    def normalization(self) -> Normalizer:
        """The registered normalizer the rule names."""
        return normalizer_named(self.normalizer)

    def signature(self) -> str:
        parts = [self.name] + [f"{k}:{v}" for k, v in self.fields()]
        return "|".join(parts + [f"version:{__version__}"])

    def output_columns(self, facts=None) -> list[str]:
        """The columns ``compute`` returns, in order (``facts``: a benchmark's checklist, or
        None for an items file, each attempt its item's)."""
        return [c.name for c in self.columns]

    def compute(self, attempts: engine.Attempts, target: Target) -> dict[str, np.ndarray]:
        """The rule's columns for every attempt, by name, in output order."""
        raise NotImplementedError


@dataclass(frozen=True)
class LiteralMatch(Rule):
    """The attempt equals a reference character for character.

    >>> LiteralMatch().signature()  # doctest: +ELLIPSIS
    'literal|norm:none|version:...'
    """

    name: ClassVar[str] = "literal"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("literal_match", BINARY, "literal", "literal", "Literal"),)

    def compute(self, attempts, target):
        refs = target.references
        return {self.column: engine.equal_any(attempts.raw, refs.values, refs)}


@dataclass(frozen=True)
class NormalizedMatch(Rule):
    """The seed-normalized attempt equals a seed-normalized reference.

    >>> NormalizedMatch().signature()  # doctest: +ELLIPSIS
    'normalized|norm:seed|version:...'
    """

    name: ClassVar[str] = "normalized"
    normalizer: ClassVar[str] = "seed"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("normalized_match", BINARY, "normalized", "normalized", "Normalized"),)

    def compute(self, attempts, target):
        refs, norm = target.references, self.normalization
        return {self.column: engine.equal_any(attempts.normalized(norm), refs.normalized(norm),
                                              refs)}


@dataclass(frozen=True)
class SquadExactMatch(Rule):
    """SQuAD exact match after SQuAD normalization, as the official script of ``mode``.

    >>> SquadExactMatch().signature()  # doctest: +ELLIPSIS
    'squad_exact_match|mode:v1.1|norm:squad|version:...'
    """

    name: ClassVar[str] = "squad_exact_match"
    normalizer: ClassVar[str] = "squad"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("squad_exact_match", BINARY, "SQuAD exact match", "SQuAD EM", "Squad"),)
    mode: str = "v1.1"

    def __post_init__(self):
        _check_mode(self.mode)

    def fields(self):
        return [("mode", self.mode), ("norm", self.normalizer)]

    def compute(self, attempts, target):
        refs = target.references.for_squad(self.mode)
        return {self.column: engine.sequence_match(attempts, refs, self.normalization)}


@dataclass(frozen=True)
class TokenF1(Rule):
    """SQuAD token F1 over whitespace tokens counted as a bag, as the script of ``mode``.

    ``v1.1``: 0 when either side normalizes to no token. ``v2.0``: 1 when both do, else 0.
    ``norm``: ``squad`` (the default, the official scripts') or ``seed``, a named variant
    that keeps the articles a/an/the as tokens (seed 003's worked example: "the quick brown
    fox" against "the quick fox" is 6/7 ≈ 0.857 under ``seed``, 0.8 under ``squad``); the
    references each mode compares against are chosen as the official script chooses them.

    >>> TokenF1().signature()  # doctest: +ELLIPSIS
    'token_f1|mode:v1.1|norm:squad|tok:ws|bag:multiset|empty:zero|version:...'
    >>> TokenF1(norm="seed").signature()  # doctest: +ELLIPSIS
    'token_f1|mode:v1.1|norm:seed|tok:ws|bag:multiset|empty:zero|version:...'
    """

    name: ClassVar[str] = "token_f1"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("token_f1", GRADED, "token F1", "token F1", "TokenF"),)
    mode: str = "v1.1"
    norm: str = "squad"

    def __post_init__(self):
        _check_mode(self.mode)
        if self.norm not in TOKEN_F1_NORMS:
            raise ValueError(f"'norm' must be one of {', '.join(TOKEN_F1_NORMS)} "
                             f"(got {self.norm!r})")

    @property
    def normalizer(self) -> str:
        return self.norm

    def fields(self):
        empty = "zero" if self.mode == "v1.1" else "both-one"
        return [("mode", self.mode), ("norm", self.norm), ("tok", "ws"), ("bag", "multiset"),
                ("empty", empty)]

    def compute(self, attempts, target):
        return {self.column: engine.token_f1(attempts, target.references, self.mode,
                                             self.normalization)}


TOKEN_F1_NORMS = ("squad", "seed")
"""The normalizations token F1 can count tokens under: the official scripts' (default), or
the seed normalization (articles kept)."""


@dataclass(frozen=True)
class Contains(Rule):
    """Some reference occurs in the attempt as consecutive whole tokens, both sides under the
    SQuAD normalization: the "lexical match" open-domain QA papers use for long answers.

    Its column is ``contains``. A reference that normalizes to nothing never matches (so an
    empty attempt matches nothing); the SQuAD mode plays no part. "Paris" is in "It is
    Paris, France." but not in "Parisian"; "the Beatles" is in "Beatles" (articles removed on
    both sides).

    >>> Contains().signature()  # doctest: +ELLIPSIS
    'contains|norm:squad|tok:ws|match:whole-token|version:...'
    """

    name: ClassVar[str] = "contains"
    normalizer: ClassVar[str] = "squad"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("contains", BINARY, "contains a reference", "contains", "Contains"),)

    def options(self):
        return [("tok", "ws"), ("match", "whole-token")]

    def compute(self, attempts, target):
        return {self.column: engine.contains_any(attempts, target.references,
                                                 self.normalization)}


@dataclass(frozen=True)
class Checklist(Rule):
    """A fact is present when each of its terms occurs as whole consecutive tokens.

    Its columns: the facts present, the facts total, and the full match (every fact present);
    then, against one checklist, a true/false ``fact_<name>`` column per fact, or, each
    attempt against its own item's, the absent facts' names joined by ";" (missing, like the
    counts, for an item without a checklist). Its measures: the full match, and the partial
    credit (the share of the facts present).

    >>> Checklist().signature()  # doctest: +ELLIPSIS
    'checklist|norm:seed|tok:ws|match:whole-token|full:all-facts|version:...'
    >>> Checklist().output_columns((Fact("place", ("west",)),))
    ['facts_present', 'facts_total', 'checklist_full_match', 'fact_place']
    """

    name: ClassVar[str] = "checklist"
    normalizer: ClassVar[str] = "seed"
    present: ClassVar[str] = "facts_present"
    total: ClassVar[str] = "facts_total"
    missing: ClassVar[str] = "facts_missing"
    fact_prefix: ClassVar[str] = "fact_"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("checklist_full_match", BINARY, "checklist, all facts", "checklist full",
                "Checklist", optional=True),
        Measure("partial_credit", GRADED, "checklist, share of facts", "partial credit",
                "PartialCredit", name="partial_credit", reads=(present, total),
                derive=partial_credit, optional=True),
    )
    columns: ClassVar[tuple[Column, ...]] = (
        Column(present, COUNT, optional=True, at_most=total),
        Column(total, COUNT, optional=True),
        Column(measures[0].column, BINARY, optional=True),
    )

    def options(self):
        return [("tok", "ws"), ("match", "whole-token"), ("full", "all-facts")]

    @classmethod
    def fact_column(cls, name: str) -> str:
        """The column of one fact: ``fact_<name>``."""
        return f"{cls.fact_prefix}{name}"

    @classmethod
    def is_fact_column(cls, column) -> bool:
        return str(column).startswith(cls.fact_prefix)

    def output_columns(self, facts=None) -> list[str]:
        fixed = [c.name for c in self.columns]
        if facts is None:
            return fixed + [self.missing]
        return fixed + [self.fact_column(f.name) for f in facts]

    def compute(self, attempts, target):
        if target.facts is not None:
            return self._against_facts(attempts, target.facts)
        if target.checklists is None:
            raise UsageError("the checklist needs facts: a benchmark's, or each item's")
        return self._against_items(attempts, target.checklists, target.row_item)

    def _against_facts(self, attempts, facts) -> dict[str, np.ndarray]:
        matrix = engine.checklist_matrix(attempts, facts, self.normalization)
        present = matrix.sum(axis=1, dtype=np.int64)
        out = {self.present: present,
               self.total: np.full(len(present), len(facts), dtype=np.int64),
               self.column: present == len(facts)}
        out.update({self.fact_column(f.name): matrix[:, j] for j, f in enumerate(facts)})
        return out

    def _against_items(self, attempts, lists, row_item) -> dict[str, np.ndarray]:
        rows, facts = item_tables.item_checklist(attempts, row_item, lists)
        present = np.bincount(rows, minlength=len(attempts))
        total = lists.item_fact_count[row_item]
        out = {self.present: pd.array(present, dtype="Int64"),
               self.total: pd.array(total, dtype="Int64"),
               self.column: pd.array(present == total, dtype="boolean"),
               self.missing: item_tables.missing_fact_names(rows, facts, row_item, lists,
                                                             len(attempts))}
        without = ~lists.item_has_checklist[row_item]
        for values in out.values():
            values[without] = pd.NA
        return out


@dataclass(frozen=True)
class Equivalent(EquivalenceOptions, Rule):
    """The attempt says one of its references, read past the forms people read past: a
    cascade of named steps under the ``answer`` normalizers (:mod:`~recallscore_nb.core.
    equivalence`), each option a field of the signature in a fixed order.

    Its columns: ``equivalent``, and ``equivalent_step``, the step that accepted the attempt,
    the guard that vetoed it, or ``none``.

    >>> Equivalent().signature()  # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    'equivalent|norm:answer|cascade:3|steps:exact+contains+number+plural+date+quantity+glue+\
spelling+order+name-part+part+overlap|guards:negation+alternatives+list+bag+denial+scale|\
tolerance:0.05|shortest:5|window:3|longest:4|share:2/3|least:2|widest:4|version:...'
    """

    name: ClassVar[str] = "equivalent"
    normalizer: ClassVar[str] = "answer"
    step_column: ClassVar[str] = "equivalent_step"
    measures: ClassVar[tuple[Measure, ...]] = (
        Measure("equivalent", BINARY, "equivalent to a reference", "equivalent", "Equivalent"),)
    columns: ClassVar[tuple[Column, ...]] = (
        Column("equivalent", BINARY), Column(step_column, LABEL, labels=EQUIVALENCE_LABELS))

    def options(self):
        return self.option_fields()

    def normalizers_used(self):
        return tuple(n.name for n in EQUIVALENCE_NORMALIZERS)

    def compute(self, attempts, target):
        verdict, step = equivalence(attempts, target.references, self)
        return {self.column: verdict,
                self.step_column: pd.array(step, dtype=pd.ArrowDtype(pa.string()))}


RULES: dict[str, type[Rule]] = {
    r.name: r for r in (LiteralMatch, NormalizedMatch, SquadExactMatch, TokenF1, Contains,
                        Checklist, Equivalent)
}
"""The rule classes by name, in output order: the registry every list of rules derives from."""


def register_rule(cls: type[Rule]) -> type[Rule]:
    """Add a rule class to :data:`RULES` (after the others; its name and columns new, its
    normalizer registered); usable as a class decorator."""
    if cls.name in RULES:
        raise UsageError(f"a rule named {cls.name!r} is already registered")
    taken = {c.name for rule in RULES.values() for c in rule.columns}
    taken |= {m.column for rule in RULES.values() for m in rule.measures}
    clash = [m.column for m in cls.measures if m.column in taken]
    if clash:
        raise UsageError(f"rule {cls.name!r}: column {clash[0]!r} is another rule's")
    if isinstance(cls.normalizer, str):
        normalizer_named(cls.normalizer)
    RULES[cls.name] = cls
    return cls


# --- the registry's questions ---------------------------------------------------------------
def rule_names(rules=None) -> tuple[str, ...]:
    """The rule names ``rules`` selects (None: every rule; names, or one string of them
    separated by commas), in output order; an unknown name or none refused, listing them.

    >>> rule_names("equivalent, literal")
    ('literal', 'equivalent')
    >>> rule_names(["nope"])
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: unknown rule 'nope' (known: literal, normalized, squad_exact_match, token_f1, contains, checklist, equivalent)
    """
    if rules is None:
        return tuple(RULES)
    names = [n.strip() for n in (rules.split(",") if isinstance(rules, str) else rules)]
    names = [n for n in names if n]
    unknown = [n for n in names if n not in RULES]
    if unknown:
        raise UsageError(f"unknown rule {unknown[0]!r} (known: {', '.join(RULES)})")
    if not names:
        raise UsageError(f"name at least one rule (known: {', '.join(RULES)})")
    return tuple(n for n in RULES if n in names)


def rules_for(squad_mode: str = "v1.1", rules=None) -> tuple[Rule, ...]:
    """Every rule (or those ``rules`` names: :func:`rule_names`), in output order, those with
    a ``mode`` in the given SQuAD mode.

    >>> [r.name for r in rules_for()]
    ['literal', 'normalized', 'squad_exact_match', 'token_f1', 'contains', 'checklist',
     'equivalent']
    >>> [r.name for r in rules_for(rules="contains,literal")]
    ['literal', 'contains']
    """
    _check_mode(squad_mode)
    chosen = rule_names(rules)
    return tuple(cls(mode=squad_mode) if "mode" in {f.name for f in dataclasses.fields(cls)}
                 else cls() for name, cls in RULES.items() if name in chosen)


def output_columns(facts=None, rules=None) -> list[str]:
    """Every column the rules (or those ``rules`` names) add for ``facts`` (one checklist for
    every attempt) or an items file (None: each attempt its own item's), in output order."""
    return [c for rule in rules_for(rules=rules) for c in rule.output_columns(facts)]


def stored_columns() -> tuple[Column, ...]:
    """Every rule's declared columns, in output order (the ``fact_<name>`` ones aside)."""
    return tuple(c for cls in RULES.values() for c in cls.columns)


def column_of(name) -> Column | None:
    """What a scored table's column holds: its :class:`Column`; an optional binary one for
    a ``fact_<name>`` column; None for a column no rule writes."""
    for column in stored_columns():
        if column.name == name:
            return column
    if Checklist.is_fact_column(name):
        return Column(str(name), BINARY, optional=True)
    return None


def measures() -> tuple[Measure, ...]:
    """Every measure of every rule, in output order."""
    return tuple(m for cls in RULES.values() for m in cls.measures)


def binary_measures() -> tuple[Measure, ...]:
    """The measures that are 0 or 1 per attempt, in output order."""
    return tuple(m for m in measures() if m.binary)


def measure(column: str) -> Measure:
    """The measure named ``column``; an unknown name lists the valid ones.

    >>> measure("token_f1").kind
    'graded'
    >>> measure("nope")
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: unknown rule 'nope' (rules: literal_match, normalized_match, squad_exact_match, token_f1, contains, checklist_full_match, partial_credit, equivalent)
    """
    known = measures()
    for m in known:
        if m.column == column:
            return m
    raise UsageError(f"unknown rule {column!r} (rules: {', '.join(m.column for m in known)})")


def verdict_columns() -> list[str]:
    """Each rule's own value, in output order: what a report lists per attempt."""
    return [cls.column for cls in RULES.values()]


def with_derived(scores: pd.DataFrame) -> pd.DataFrame:
    """A scored table with every derived measure (partial credit) beside its rule's columns:
    a copy, each derived column inserted after the last column of the rule declaring it.

    >>> scores = pd.DataFrame({"facts_present": [1, 4], "facts_total": [4, 4],
    ...                        "checklist_full_match": [False, True], "system": ["a", "b"]})
    >>> with_derived(scores).columns.tolist()
    ['facts_present', 'facts_total', 'checklist_full_match', 'partial_credit', 'system']
    """
    out = scores.copy()
    for cls in RULES.values():
        for m in cls.measures:
            if m.derive is None or m.column in out.columns:
                continue
            own = [out.columns.get_loc(c.name) for c in cls.columns if c.name in out.columns]
            out.insert(max(own) + 1 if own else len(out.columns), m.column, m.values(out))
    return out
