"""The scoring rules as small frozen objects with a signature; the RULES registry.

A rule's ``signature()`` records every choice that changes its scores, in one grammar,
``name|key:value|…|version:X``, as sacrebleu does; cite it beside the numbers.

>>> TokenF1(mode="v2.0").signature()  # doctest: +ELLIPSIS
'token_f1|mode:v2.0|norm:squad|tok:ws|bag:multiset|empty:both-one|version:...'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._version import __version__
from . import engine
from .normalize import SEED

__all__ = [
    "Rule",
    "LiteralMatch",
    "NormalizedMatch",
    "SquadExactMatch",
    "TokenF1",
    "Checklist",
    "RULES",
    "SQUAD_MODES",
    "rules_for",
]

SQUAD_MODES = engine.SQUAD_MODES


def _check_mode(mode: str) -> str:
    if mode not in SQUAD_MODES:
        raise ValueError(f"'mode' must be one of {', '.join(SQUAD_MODES)} (got {mode!r})")
    return mode


class Rule:
    """Base of the rules: a name, the output column, and the signature's fields."""

    name: ClassVar[str]
    column: ClassVar[str]

    def fields(self) -> list[tuple[str, str]]:
        """The (key, value) pairs of the signature, version excluded."""
        return []

    def signature(self) -> str:
        parts = [self.name] + [f"{k}:{v}" for k, v in self.fields()]
        return "|".join(parts + [f"version:{__version__}"])


@dataclass(frozen=True)
class LiteralMatch(Rule):
    """The attempt equals a reference character for character.

    >>> LiteralMatch().signature()  # doctest: +ELLIPSIS
    'literal|norm:none|version:...'
    """

    name: ClassVar[str] = "literal"
    column: ClassVar[str] = "literal_match"

    def fields(self):
        return [("norm", "none")]

    def compute(self, attempts: engine.Attempts, refs: engine.References) -> np.ndarray:
        return engine.equal_any(attempts.raw, refs.values, refs)


@dataclass(frozen=True)
class NormalizedMatch(Rule):
    """The seed-normalized attempt equals a seed-normalized reference.

    >>> NormalizedMatch().signature()  # doctest: +ELLIPSIS
    'normalized|norm:seed|version:...'
    """

    name: ClassVar[str] = "normalized"
    column: ClassVar[str] = "normalized_match"

    def fields(self):
        return [("norm", SEED.name)]

    def compute(self, attempts: engine.Attempts, refs: engine.References) -> np.ndarray:
        return engine.equal_any(attempts.seed, refs.seed, refs)


@dataclass(frozen=True)
class SquadExactMatch(Rule):
    """SQuAD exact match after SQuAD normalization, as the official script of ``mode``.

    >>> SquadExactMatch().signature()  # doctest: +ELLIPSIS
    'squad_exact_match|mode:v1.1|norm:squad|version:...'
    """

    name: ClassVar[str] = "squad_exact_match"
    column: ClassVar[str] = "squad_exact_match"
    mode: str = "v1.1"

    def __post_init__(self):
        _check_mode(self.mode)

    def fields(self):
        return [("mode", self.mode), ("norm", "squad")]

    def compute(self, attempts: engine.Attempts, refs: engine.References) -> np.ndarray:
        return engine.squad_exact_match(attempts, refs, self.mode)


@dataclass(frozen=True)
class TokenF1(Rule):
    """SQuAD token F1 over whitespace tokens counted as a bag, as the script of ``mode``.

    ``v1.1``: 0 when either side normalizes to no token. ``v2.0``: 1 when both do, else 0.

    >>> TokenF1().signature()  # doctest: +ELLIPSIS
    'token_f1|mode:v1.1|norm:squad|tok:ws|bag:multiset|empty:zero|version:...'
    """

    name: ClassVar[str] = "token_f1"
    column: ClassVar[str] = "token_f1"
    mode: str = "v1.1"

    def __post_init__(self):
        _check_mode(self.mode)

    def fields(self):
        empty = "zero" if self.mode == "v1.1" else "both-one"
        return [("mode", self.mode), ("norm", "squad"), ("tok", "ws"), ("bag", "multiset"),
                ("empty", empty)]

    def compute(self, attempts: engine.Attempts, refs: engine.References) -> np.ndarray:
        return engine.token_f1(attempts, refs, self.mode)


@dataclass(frozen=True)
class Checklist(Rule):
    """A fact is present when each of its terms occurs as whole consecutive tokens.

    >>> Checklist().signature()  # doctest: +ELLIPSIS
    'checklist|norm:seed|tok:ws|match:whole-token|full:all-facts|version:...'
    """

    name: ClassVar[str] = "checklist"
    column: ClassVar[str] = "checklist_full_match"

    def fields(self):
        return [("norm", SEED.name), ("tok", "ws"), ("match", "whole-token"),
                ("full", "all-facts")]

    def compute(self, attempts: engine.Attempts, facts) -> np.ndarray:
        return engine.checklist_matrix(attempts, facts)


RULES: dict[str, type[Rule]] = {
    r.name: r for r in (LiteralMatch, NormalizedMatch, SquadExactMatch, TokenF1, Checklist)
}


def rules_for(squad_mode: str = "v1.1") -> tuple[Rule, ...]:
    """The five rules, in output order, with the given SQuAD mode.

    >>> [r.name for r in rules_for()]
    ['literal', 'normalized', 'squad_exact_match', 'token_f1', 'checklist']
    """
    return (
        LiteralMatch(),
        NormalizedMatch(),
        SquadExactMatch(mode=squad_mode),
        TokenF1(mode=squad_mode),
        Checklist(),
    )
