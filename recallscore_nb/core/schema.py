"""A scoring schema as a value: how much each fact weighs, its equivalent and contradicting
term lists, the negation cues and the numeric policy, and its signature.

:func:`recallscore_nb.io.scoring_schemas.load_scoring_schema` reads and validates a schema
file into a :class:`ScoringSchema`; :func:`default_schema` is the reading with no schema;
:func:`recallscore_nb.core.status.fact_status` applies either.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._version import __version__
from .errors import UsageError
from .facts import Fact, facts_of
from .numeric import NumericPolicy

__all__ = [
    "FactRule",
    "NumericPolicy",
    "ScoringSchema",
    "ItemsSchema",
    "default_schema",
    "check_schema_facts",
    "DEFAULT_NEGATION_CUES",
    "DEFAULT_NEGATION_WINDOW",
    "DEFAULT_FALSE_POSITIVE_PENALTY",
    "NEGATION_SCOPE",
    "CONFLICT_POLICY",
]

DEFAULT_NEGATION_CUES = ("not", "no", "never", "without")
"""The negation cues of a scoring schema that names none (:func:`default_schema`): a cue
opens a scope of tokens after it (:data:`NEGATION_SCOPE`) in which a fact's term does not
count as present, for the checklist's statuses. A schema file chooses its own, and they are
written into the signature (``neg:not,no,never,without/12/clause``), so these four stay as
they are. The ``equivalent`` rule's guards read longer lists, of their own purpose:
:data:`~recallscore_nb.core.equivalence.parts.NEGATION_GUARD_CUES` (a cue right before the
reference) and :data:`~recallscore_nb.core.equivalence.hedges.DENIALS`."""
DEFAULT_NEGATION_WINDOW = 12
DEFAULT_FALSE_POSITIVE_PENALTY = 0.5
NEGATION_SCOPE = "clause"
"""A cue negates the tokens after it up to the end of its clause (``, ; : . ! ?`` or "but"),
at most ``window`` tokens: the signature's ``neg:<cues>/<window>/clause``."""
CONFLICT_POLICY = "penalized"
"""A fact with an accepted match and a contradiction, both outside any cue's scope, is
``conflicting``: not present, penalized as a contradiction (``conflict:penalized``)."""


@dataclass(frozen=True)
class FactRule:
    """How one fact is scored: its weight (> 0) and its alternative term lists.

    Each list in ``equivalents`` counts as the fact when all its terms occur; each list in
    ``contradictions`` marks the fact contradicted when all its terms occur and the fact is
    not present. Terms are kept as written; they are matched after seed normalization.
    """

    name: str
    weight: float = 1.0
    equivalents: tuple[tuple[str, ...], ...] = ()
    contradictions: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class ScoringSchema:
    """A scoring schema: one rule per fact of the benchmark (in checklist order) and the
    settings shared by all facts.

    ``path`` is the file as the caller named it and ``sha256`` the hash of its bytes (both
    None for :func:`default_schema`). ``negation_cues`` empty means no negation.
    """

    path: str | None
    sha256: str | None
    disagreement_note: str
    false_positive_penalty: float
    negation_cues: tuple[str, ...]
    negation_window: int
    facts: dict[str, FactRule]
    numeric: NumericPolicy = field(default_factory=NumericPolicy)

    @property
    def is_default(self) -> bool:
        """Whether this is the "no schema" reading (:func:`default_schema`)."""
        return self.path is None and self.sha256 is None and self.disagreement_note == ""

    def fields(self) -> list[tuple[str, str]]:
        """The signature's (key, value) pairs, version excluded.

        Weights, term lists and units are not spelled out; the file's hash stands for them.
        """
        sha = self.sha256[:12] if self.sha256 else "none"
        cues = ",".join(self.negation_cues)
        negation = (f"{cues}/{self.negation_window}/{NEGATION_SCOPE}" if self.negation_cues
                    else "none")
        return [
            ("sha256", sha),
            ("fp", f"{self.false_positive_penalty:g}"),
            ("neg", negation),
            ("conflict", CONFLICT_POLICY),
            ("num", self.numeric.fields()),
        ]

    def signature(self) -> str:
        """Every choice that changes a status or a weighted score, version last.

        >>> from recallscore_nb import load_benchmark
        >>> default_schema(load_benchmark()).signature()  # doctest: +ELLIPSIS
        'schema|sha256:none|fp:0|neg:none|conflict:penalized|num:abs0,rel0,pct-no|version:...'
        """
        parts = ["schema"] + [f"{key}:{value}" for key, value in self.fields()]
        return "|".join(parts + [f"version:{__version__}"])


@dataclass(frozen=True)
class ItemsSchema:
    """A scoring schema for an items file: the shared settings (``shared``, a
    :class:`ScoringSchema` with no fact rules) and, per item it names, that item's
    :class:`ScoringSchema` (the shared settings with the item's overrides and fact rules).

    An item the schema does not name is scored with ``shared``: its required terms alone,
    every fact weighing 1, under the shared negation, penalty and numbers.

    >>> shared = ScoringSchema("s.json", "ab" * 32, "A reading.", 0.5, ("not",), 12, {})
    >>> schema = ItemsSchema(shared, {"q1": shared})
    >>> schema.for_item("q2") is shared, schema.signature()  # doctest: +ELLIPSIS
    (True, 'schema|sha256:abababababab|fp:0.5|neg:not/12/clause|conflict:penalized|num:...|items:1|version:...')
    """

    shared: ScoringSchema
    items: dict[str, ScoringSchema]

    @property
    def path(self) -> str | None:
        return self.shared.path

    @property
    def sha256(self) -> str | None:
        return self.shared.sha256

    @property
    def disagreement_note(self) -> str:
        return self.shared.disagreement_note

    def for_item(self, item_id: str) -> ScoringSchema:
        """The schema an item is scored with."""
        return self.items.get(item_id, self.shared)

    def fields(self) -> list[tuple[str, str]]:
        """The shared settings' fields and how many items have rules of their own (the
        per-item overrides are in the file's hash)."""
        return self.shared.fields() + [("items", str(len(self.items)))]

    def signature(self) -> str:
        parts = ["schema"] + [f"{key}:{value}" for key, value in self.fields()]
        return "|".join(parts + [f"version:{__version__}"])


def default_schema(benchmark) -> ScoringSchema:
    """The reading with no schema at all: every fact weighs 1, no equivalents,
    contradictions, negation or penalty, so every status is present or missing.

    Numbers in required terms are still compared as numbers, with zero tolerance.

    >>> from recallscore_nb import load_benchmark
    >>> schema = default_schema(load_benchmark())
    >>> schema.facts["location"], schema.negation_cues, schema.false_positive_penalty
    (FactRule(name='location', weight=1.0, equivalents=(), contradictions=()), (), 0.0)
    """
    facts = facts_of(benchmark)
    return ScoringSchema(
        path=None,
        sha256=None,
        disagreement_note="",
        false_positive_penalty=0.0,
        negation_cues=(),
        negation_window=0,
        facts={f.name: FactRule(f.name) for f in facts},
        numeric=NumericPolicy(),
    )


def check_schema_facts(schema: ScoringSchema, facts: tuple[Fact, ...]) -> None:
    """Refuse a schema built in code that names a fact the checklist does not have."""
    names = [f.name for f in facts]
    unknown = [n for n in schema.facts if n not in names]
    if unknown:
        raise UsageError(f"the scoring schema names fact(s) {', '.join(map(repr, unknown))} "
                         f"that the benchmark's checklist does not have ({', '.join(names)})")
