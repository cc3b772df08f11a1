"""The words of a reference, for drafting variants of it (:mod:`recallscore_nb.analysis.perturb`).

A reference is read as its whitespace-separated words, each with its offset, its seed
normalization and the punctuation around it (:class:`Word`); a fact's terms are found among
them as whole tokens. The helpers here remove words (passing a dropped word's clause or
sentence mark to the word before it), change case the way a sentence needs, and say whether
a text still states a fact. The word lists are lowercase, as the seed normalization leaves
words; they are generic English and name none of the shipped answer's words.

>>> [w.norm for w in split_words("The red-kite, at dawn.")]
['the', 'redkite', 'at', 'dawn']
>>> words_without(split_words("The kite nests at dawn."), {3, 4})
'The kite nests.'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import UsageError
from ..core.facts import Fact
from ..core.normalize import SEED
from ..core.tokens import term_occurs

__all__ = ["ARTICLES", "AUXILIARIES", "COMMON_VERBS", "LIGHT_PREPOSITIONS", "SUBORDINATORS",
           "Unavailable", "Variant", "CLAUSE_PUNCT", "DANGLING", "DETERMINERS", "PHRASE_ENDS",
           "Word", "capitalize", "decapitalize", "fact_named", "fact_present", "fact_words",
           "match_case", "shuffled", "split_terminal", "split_words", "term_occurrences",
           "verb_like", "words_without"]

ARTICLES = frozenset({"a", "an", "the"})
AUXILIARIES = frozenset({
    "am", "is", "are", "was", "were", "be", "been", "being", "has", "have", "had",
    "do", "does", "did", "will", "would", "shall", "should", "can", "could", "may",
    "might", "must",
})
COMMON_VERBS = AUXILIARIES | frozenset({
    "go", "goes", "went", "gone", "put", "puts", "sit", "sits", "sat", "lie", "lies",
    "lay", "lays", "stand", "stands", "stood", "stay", "stays", "keep", "keeps", "kept",
    "belong", "belongs", "hang", "hangs", "hung", "rest", "rests", "live", "lives",
    "get", "gets", "got", "come", "comes", "came", "make", "makes", "made", "take",
    "takes", "took", "give", "gives", "gave", "move", "moves", "need", "needs",
})
"""Words taken as verbs wherever they stand (before the -s/-ed heuristic is tried)."""
LIGHT_PREPOSITIONS = frozenset({
    "in", "on", "at", "into", "onto", "to", "of", "for", "with", "by", "from",
})
"""Prepositions telegraphic wording drops; ones that carry meaning (under, before) stay."""
SUBORDINATORS = frozenset({
    "after", "although", "because", "before", "if", "once", "since", "though", "unless",
    "until", "when", "whenever", "whereas", "while",
})
"""Words a clause can start at, for reordering."""
DETERMINERS = ARTICLES | frozenset({
    "this", "that", "these", "those", "its", "their", "his", "her", "my", "our", "your",
})
DANGLING = DETERMINERS | LIGHT_PREPOSITIONS | SUBORDINATORS | frozenset({
    "under", "over", "behind", "beside", "near", "inside", "outside", "above", "below",
})
"""Words removed with an omitted fact's terms when they are left dangling before them."""
PHRASE_ENDS = DANGLING | frozenset({"and", "or", "but", "then", "so"})
"""Words that start a new phrase: terms followed by one end their phrase."""
_NOT_VERBS = frozenset({
    "this", "thus", "always", "perhaps", "across", "towards", "besides", "unless",
    "whereas", "its", "his", "hers", "ours", "yours", "theirs", "news", "series",
    "bus", "gas", "yes", "less",
})

_TERMINAL = ".!?"
CLAUSE_PUNCT = ",;:"


@dataclass(frozen=True)
class Unavailable:
    """A kind of variant that cannot be made for a reference, and why; falsy, like None.

    >>> bool(Unavailable("no comma")), Unavailable("no comma").reason
    (False, 'no comma')
    """

    reason: str

    def __bool__(self) -> bool:
        return False


Variant = str | Unavailable


@dataclass(frozen=True)
class Word:
    text: str
    start: int  # offset of the word in the text
    norm: str  # the word under the seed normalization (empty for punctuation alone)
    lead: str  # punctuation before the word's core
    trail: str  # punctuation after it

    @property
    def core_span(self) -> tuple[int, int]:
        return self.start + len(self.lead), self.start + len(self.text) - len(self.trail)


_EDGES = re.compile(r"^(\W*)(.*?)(\W*)$", re.DOTALL)


def split_words(text: str) -> list[Word]:
    """The words of ``text`` as ``str.split()`` finds them, with their offsets."""
    words, cursor = [], 0
    for piece in text.split():
        start = text.index(piece, cursor)
        cursor = start + len(piece)
        lead, core, trail = _EDGES.match(piece).groups()
        if not core:  # punctuation alone: no core to keep apart
            lead, trail = "", piece
        words.append(Word(piece, start, SEED(piece), lead, trail))
    return words


def term_occurrences(words: Sequence[Word], normalized_term: str) -> list[tuple[int, ...]]:
    """The word indices of every whole-token occurrence of a normalized term."""
    tokens = normalized_term.split(" ")
    kept = [i for i, word in enumerate(words) if word.norm]
    norms = [words[i].norm for i in kept]
    n = len(tokens)
    return [tuple(kept[k:k + n]) for k in range(len(norms) - n + 1) if norms[k:k + n] == tokens]


def fact_words(words: Sequence[Word], facts: Sequence[Fact]) -> set[int]:
    """Indices of the words inside an occurrence of some fact's term."""
    return {i for fact in facts for term in fact.normalized_terms
            for occurrence in term_occurrences(words, term) for i in occurrence}


def fact_present(text: str, fact: Fact) -> bool:
    normalized = SEED(text)
    return all(term_occurs(normalized, term) for term in fact.normalized_terms)


def fact_named(facts: Sequence[Fact], name: str) -> Fact:
    for fact in facts:
        if fact.name == name:
            return fact
    raise UsageError(f"'fact' must be one of {', '.join(f.name for f in facts)} (got {name!r})")


def capitalize(word: str) -> str:
    """Uppercase the first letter when the word starts with one, after any punctuation.

    >>> capitalize("(token"), capitalize("3rd")
    ('(Token', '3rd')
    """
    for i, ch in enumerate(word):
        if ch.isalnum():
            return word[:i] + ch.upper() + word[i + 1:] if ch.isalpha() else word
    return word


def decapitalize(word: str) -> str:
    """Lowercase a sentence-initial capital ("The" → "the"); leave "I" and "NASA" alone.

    >>> decapitalize("The"), decapitalize("I"), decapitalize("NASA")
    ('the', 'I', 'NASA')
    """
    lead, core, trail = _EDGES.match(word).groups()
    if len(core) > 1 and core[0].isupper() and core[1:] == core[1:].lower():
        return lead + core[0].lower() + core[1:] + trail
    return word


def match_case(model: str, new: str) -> str:
    """``new`` in the case of ``model``: UPPER, Title or as given."""
    if len(model) > 1 and model.isupper():
        return new.upper()
    if model[:1].isupper():
        return capitalize(new)
    return new


def split_terminal(text: str) -> tuple[str, str]:
    """("The token goes", ".") from "The token goes."."""
    body = text.rstrip(_TERMINAL)
    return body, text[len(body):]


def words_without(words: Sequence[Word], drop: set[int], *, colon_at: int | None = None) -> str:
    """The words not in ``drop``, one space apart.

    A dropped word's trailing punctuation moves to the word kept before it (a terminal
    mark replaces a comma there); ``colon_at``, a dropped word, leaves a colon instead when
    the kept word before it ends without punctuation; a dropped capitalized first word
    passes its capital to the new first word.
    """
    out: list[str] = []
    for i, word in enumerate(words):
        if i not in drop:
            out.append(word.text)
            continue
        # a dropped word passes on only the marks that end a clause or a sentence (a number's
        # "%" or a closing quote goes with it)
        mark = "".join(ch for ch in word.trail if ch in _TERMINAL + CLAUSE_PUNCT)
        if i == colon_at and not mark.strip(CLAUSE_PUNCT):
            mark = ":"
        if not out or not mark:
            continue
        if out[-1][-1] not in _TERMINAL + CLAUSE_PUNCT:
            out[-1] += mark
        elif mark[-1] in _TERMINAL and out[-1][-1] in CLAUSE_PUNCT:
            out[-1] = out[-1][:-1] + mark[-1]
    if out and 0 in drop and words[0].text[:1].isupper():
        out[0] = capitalize(out[0])
    return " ".join(out)


def verb_like(word: Word) -> bool:
    """Whether a word is one of :data:`COMMON_VERBS`, or looks like a verb: four letters or
    more ending in -s or -ed, not a function word."""
    norm = word.norm
    if norm in COMMON_VERBS:
        return True
    return (len(norm) >= 4 and norm.isalpha() and norm not in _NOT_VERBS
            and norm not in PHRASE_ENDS and not norm.endswith(("ss", "us", "is"))
            and norm.endswith(("s", "ed")))


def shuffled(items: Sequence, rng: random.Random) -> list:
    items = list(items)
    rng.shuffle(items)
    return items
