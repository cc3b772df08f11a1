"""What the package can score with, listed: every registered rule and normalizer, each with
its name, its signature (what to cite beside a number) and a line on what it does.

>>> len(rules()), [(entry.name, entry.normalizer) for entry in rules()][-2:]
(7, [('checklist', 'seed'), ('equivalent', 'answer')])
>>> [(entry.name, entry.steps) for entry in normalizers()][:2]
[('seed', ('lowercase', 'punctuation', 'whitespace')), ('squad', ('lowercase', 'punctuation', 'articles', 'whitespace'))]
>>> [entry.name for entry in normalizers()][2:]
['answer', 'answer+numbers', 'answer+stems']
"""

from __future__ import annotations

from dataclasses import dataclass

from . import rules as rule_registry
from .normalize import NORMALIZERS, STEPS

__all__ = ["RuleEntry", "NormalizerEntry", "rules", "normalizers", "signatures",
           "normalizer_signatures"]


@dataclass(frozen=True)
class RuleEntry:
    """One registered rule: its name, its signature, the normalizer it names (``none``: the
    text as written) and the first paragraph of its docstring."""

    name: str
    signature: str
    normalizer: str
    summary: str


@dataclass(frozen=True)
class NormalizerEntry:
    """One registered normalizer: its name, its signature, its steps in order, and what each
    step does."""

    name: str
    signature: str
    steps: tuple[str, ...]
    summary: str


def _summary(cls) -> str:
    return " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())


def rules(squad_mode: str = "v1.1", names=None) -> list[RuleEntry]:
    """Every registered rule (or those ``names`` names, :func:`~recallscore_nb.core.rules.
    rule_names`), in output order, those with a SQuAD mode in ``squad_mode``."""
    return [RuleEntry(rule.name, rule.signature(), rule.normalizer or "none",
                      _summary(type(rule)))
            for rule in rule_registry.rules_for(squad_mode, names)]


def normalizers() -> list[NormalizerEntry]:
    """Every registered normalizer, in the order registered."""
    return [NormalizerEntry(n.name, n.signature(), n.steps,
                            "; ".join(STEPS[s].description for s in n.steps)
                            or "the text as written")
            for n in NORMALIZERS.values()]


def normalizer_signatures(rules) -> list[str]:
    """The signatures of the normalizers ``rules`` (rule objects, variants included) compare
    under, in the order the normalizers are registered: what to cite beside the rules'.

    >>> from recallscore_nb.core.rules import Contains, NormalizedMatch
    >>> [line.split("|")[1] for line in normalizer_signatures([Contains(), NormalizedMatch()])]
    ['name:seed', 'name:squad']
    """
    used = {name for rule in rules for name in rule.normalizers_used()}
    return [entry.signature for entry in normalizers() if entry.name in used]


def signatures(squad_mode: str = "v1.1", names=None) -> list[str]:
    """The rules' signatures (every rule's, or those ``names`` names), then those of the
    normalizers they compare under: the lines to cite.

    >>> [line.split("|")[1] for line in signatures()[-5:]]
    ['name:seed', 'name:squad', 'name:answer', 'name:answer+numbers', 'name:answer+stems']
    >>> [line.split("|")[:2] for line in signatures(names="contains,literal")]
    [['literal', 'norm:none'], ['contains', 'norm:squad'], ['normalizer', 'name:squad']]
    """
    chosen = rule_registry.rules_for(squad_mode, names)  # made once, for both parts
    return [rule.signature() for rule in chosen] + normalizer_signatures(chosen)
