"""Variants of a reference that keep every fact and change only its wording.

Each is a pure function ``(reference, facts, rng)`` that returns the variant's text, or an
:class:`~recallscore_nb.analysis.perturb_text.Unavailable` (falsy, carrying the reason) when
the reference gives it nothing to work on. The heuristics are generic, English-only and small:

- clauses are split before a subordinating conjunction (:data:`SUBORDINATORS`), else after
  a comma, and the second part is moved first with a comma;
- "telegraphic wording" drops articles, auxiliaries and light prepositions outside the fact
  terms and puts a colon where the first verb was;
- "articles and verb removed" drops the articles and one verb-like word outside the fact
  terms: the first of :data:`COMMON_VERBS`, else the first later word of four or more
  letters ending in -s or -ed.

Numbers keep their punctuation (``12%``, ``3.5``, ``1,000``, ``$5``) when punctuation is
removed.

>>> from recallscore_nb import load_benchmark
>>> bench = load_benchmark()
>>> drop_articles_and_verb(bench.reference, bench.facts, random.Random(0))
'Copper token in west drawer before museum opens.'
>>> reorder_clauses(bench.reference, bench.facts, random.Random(0))
'Before the museum opens, the copper token goes in the west drawer.'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from ..core.facts import Fact
from ..core.normalize import SEED, delete_ascii_punctuation
from .perturb_text import (ARTICLES, AUXILIARIES, COMMON_VERBS, LIGHT_PREPOSITIONS, SUBORDINATORS,
                           CLAUSE_PUNCT, Unavailable, Variant, capitalize, decapitalize,
                           fact_words, fact_present, split_terminal, verb_like, words_without, Word,
                           split_words)

__all__ = ["LEADING_PHRASES", "copy_exact", "uppercase", "remove_punctuation",
           "change_spacing", "reorder_clauses", "telegraphic",
           "add_leading_context", "drop_articles_and_verb"]

LEADING_PHRASES = (
    "Please remember that",
    "As far as I remember,",
    "I believe",
    "From memory,",
    "If I recall correctly,",
    "My answer is that",
)


def copy_exact(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference itself.

    >>> copy_exact("The token.", (), random.Random(0))
    'The token.'
    """
    return reference


def uppercase(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference in capitals; unavailable when that changes nothing or changes more
    than case under the seed normalization (as "ß" → "SS" does).

    >>> uppercase("The token.", (), random.Random(0))
    'THE TOKEN.'
    """
    upper = reference.upper()
    if upper == reference:
        return Unavailable("the reference has no lowercase letter")
    if SEED(upper) != SEED(reference):
        return Unavailable("uppercasing changes the reference beyond case (e.g. 'ß' to 'SS')")
    return upper


_NUMBER_PUNCT = re.compile(r"(?<=\d)[.,](?=\d)|(?<=\d)%|[$+-](?=\d)")
"""ASCII punctuation that is part of a number: a decimal point or thousands separator
between digits, a percent sign after one, a currency or sign before one."""


def _without_punctuation(word: str) -> str:
    """A word without its ASCII punctuation, but for what belongs to a number in it."""
    kept = {m.start() for m in _NUMBER_PUNCT.finditer(word)}
    return "".join(ch for i, ch in enumerate(word)
                   if i in kept or ch == delete_ascii_punctuation(ch))


def remove_punctuation(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference without ASCII punctuation, one space between words (a word that was
    punctuation alone goes), but for the punctuation of numbers (``12%``, ``3.5``,
    ``1,000``, ``$5``): removing it would change the value. Other punctuation stays, as the
    seed normalization keeps it.

    >>> remove_punctuation("The west-drawer token, - there.", (), random.Random(0))
    'The westdrawer token there'
    >>> remove_punctuation("It costs $1,000.50, or 12%.", (), random.Random(0))
    'It costs $1,000.50 or 12%'
    """
    kept = [w for w in (_without_punctuation(w) for w in reference.split()) if w]
    if " ".join(kept) == reference:
        return Unavailable("the reference has no ASCII punctuation outside its numbers")
    if not kept:
        return Unavailable("the reference is punctuation alone")
    return " ".join(kept)


def change_spacing(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference padded with two spaces at each end and one gap, chosen by ``rng``,
    widened by two spaces.

    >>> change_spacing("The copper token.", (), random.Random(0))
    '  The   copper token.  '
    """
    body = reference.strip()
    gaps = [m.span() for m in re.finditer(r"\s+", body)]
    if gaps:
        _, end = rng.choice(gaps)
        body = body[:end] + "  " + body[end:]
    spaced = f"  {body}  "
    if spaced == reference:
        return Unavailable("the reference already has this spacing")
    return spaced


def _clause_splits(words: Sequence[Word]) -> list[int]:
    """Indices a second clause can start at: a subordinating conjunction (preferred), else
    the word after a comma; each leaves two words or more on either side."""
    n = len(words)
    conjunctions = [i for i in range(2, n - 1)
                    if words[i].norm in SUBORDINATORS and not words[i].lead]
    if conjunctions:
        return conjunctions
    return [i + 1 for i in range(1, n - 2) if words[i].trail.startswith(",")]


def reorder_clauses(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The second clause moved first, followed by a comma: split before a subordinating
    conjunction, else after a comma (``rng`` chooses when there are several places); every
    fact must survive the split.

    >>> reorder_clauses("The kite nests on the roof when the sun sets.", (), random.Random(0))
    'When the sun sets, the kite nests on the roof.'
    >>> reorder_clauses("At dawn, the kite leaves.", (), random.Random(0))
    'The kite leaves, at dawn.'
    """
    body, terminal = split_terminal(reference.strip())
    words = split_words(body)
    splits = _clause_splits(words)
    if not splits:
        return Unavailable("no subordinating conjunction or comma to split a clause at")
    rng.shuffle(splits)
    normalized = SEED(reference)
    keep_capital = 0 in fact_words(words, facts)  # a name, perhaps: "Paris" stays "Paris"
    for i in splits:
        main = [w.text for w in words[:i]]
        sub = [w.text for w in words[i:]]
        main[-1] = main[-1].rstrip(CLAUSE_PUNCT)
        main[0] = main[0] if keep_capital else decapitalize(main[0])
        sub[0] = capitalize(sub[0])
        sub[-1] = sub[-1].rstrip(CLAUSE_PUNCT)
        text = " ".join(sub) + ", " + " ".join(main) + terminal
        if SEED(text) != normalized and all(fact_present(text, fact) for fact in facts):
            return text
    return Unavailable("every clause boundary splits a fact's term")


def _verb(words: Sequence[Word], protected: set[int]) -> int | None:
    """The first common verb outside the fact terms, else the first verb-like word after
    the first word."""
    free = [i for i in range(len(words)) if i not in protected]
    listed = [i for i in free if words[i].norm in COMMON_VERBS]
    guessed = [i for i in free if i > 0 and verb_like(words[i])]
    return (listed or guessed or [None])[0]


def telegraphic(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference in note form: articles, auxiliaries, light prepositions and the first
    verb dropped outside the fact terms, a colon where that verb was.

    >>> facts = (Fact("thing", ("kite",)), Fact("place", ("roof",)))
    >>> telegraphic("The kite is resting on the roof.", facts, random.Random(0))
    'Kite: resting roof.'
    """
    words = split_words(reference)
    protected = fact_words(words, facts)
    verb = _verb(words, protected)
    light = ARTICLES | AUXILIARIES | LIGHT_PREPOSITIONS
    drop = {i for i, w in enumerate(words) if i not in protected and w.norm in light}
    if verb is not None:
        drop.add(verb)
    if not drop:
        return Unavailable(
            "no article, auxiliary, light preposition or verb outside the fact terms")
    colon_at = verb if verb is not None and any(i not in drop for i in range(verb)) else None
    text = words_without(words, drop, colon_at=colon_at)
    if not text:
        return Unavailable("nothing would be left")
    return text


def add_leading_context(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference after a lead-in phrase chosen by ``rng`` from :data:`LEADING_PHRASES`;
    a capitalized first word is lowercased unless it belongs to a fact term.

    >>> add_leading_context("The token goes in the drawer.", (), random.Random(1))
    'As far as I remember, the token goes in the drawer.'
    """
    phrase = rng.choice(LEADING_PHRASES)
    body = reference.lstrip()
    words = split_words(body)
    if not words:
        return Unavailable("the reference is blank")
    first = words[0].text
    if 0 not in fact_words(words, facts):  # a fact's first word may be a name: keep it
        first = decapitalize(first)
    return f"{phrase} {first}{body[len(words[0].text):]}"


def drop_articles_and_verb(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference without its articles and one verb-like word (see the module notes),
    none of them inside a fact term.

    >>> facts = (Fact("bird", ("red kite",)),)
    >>> drop_articles_and_verb("The red kite nests on the roof.", facts, random.Random(0))
    'Red kite on roof.'
    """
    words = split_words(reference)
    protected = fact_words(words, facts)
    verb = _verb(words, protected)
    if verb is None:
        return Unavailable("no verb-like word outside the fact terms")
    drop = {i for i, w in enumerate(words) if i not in protected and w.norm in ARTICLES}
    return words_without(words, drop | {verb})
