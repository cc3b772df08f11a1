"""Variants of a reference that lose, change, deny or restate one fact, or stuff every term.

Each is a pure function ``(reference, facts, rng, *, fact=None, ...)`` that returns the
variant's text, or an :class:`~recallscore_nb.analysis.perturb_text.Unavailable` (falsy,
carrying the reason); without ``fact`` it chooses one with ``rng``. The heuristics are
generic, English-only and small:

- "<fact> omitted" removes every occurrence of the fact's terms, with the articles,
  prepositions and conjunctions they leave dangling (only the article when they are a
  subject before its verb); a removed number takes its own punctuation along;
- "<fact> changed" turns one of the fact's terms into a contradiction from the scoring
  schema when it lists one for that fact, otherwise into another member of a built-in
  group of mutually exclusive words (:data:`ALTERNATIVES`) or another number;
- "<fact> negated" puts "not" before the phrase holding the fact's first term (with the
  determiners and prepositions it starts with);
- "<fact> paraphrased" replaces the fact's required terms by one of the scoring schema's
  ``equivalents`` for it (term for term, or a contiguous run of terms by the whole list);
- "<fact> hedged" gives the right and a wrong value: "Either <reference>, or <the fact
  changed>";
- "answer stuffed" lists every required term, equivalent and contradiction of every fact
  (:func:`stuffing_attempt`); it needs contradictions to list.

>>> facts = (Fact("bird", ("red kite",)), Fact("time", ("dawn",)))
>>> omit_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="time")
'The red kite leaves.'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from ..core.facts import Fact
from ..core.normalize import SEED
from ..core.tokens import term_occurs
from .perturb_text import (CLAUSE_PUNCT, DANGLING, DETERMINERS, PHRASE_ENDS, Unavailable,
                           Variant, decapitalize, fact_named, match_case, term_occurrences,
                           fact_present, shuffled, split_terminal, verb_like, words_without, Word,
                           split_words)

__all__ = ["Contradictions", "ALTERNATIVES", "omit_fact", "change_fact", "negate_fact",
           "paraphrase_fact", "hedge_fact", "stuffing_attempt", "stuff_answer"]

Contradictions = Mapping[str, Sequence[Sequence[str]]]

ALTERNATIVES: tuple[tuple[str, ...], ...] = (
    ("north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"),
    ("left", "right"),
    ("up", "down"),
    ("upper", "lower"),
    ("top", "bottom"),
    ("front", "back"),
    ("above", "below"),
    ("inside", "outside"),
    ("before", "after"),
    ("first", "last"),
    ("early", "late"),
    ("open", "closed"),
    ("opens", "closes"),
    ("red", "orange", "yellow", "green", "blue", "purple", "black", "white", "grey", "brown"),
    ("copper", "silver", "gold", "bronze", "brass", "iron", "tin", "zinc", "steel"),
    ("dawn", "dusk", "noon", "midnight"),
    ("morning", "afternoon", "evening", "night"),
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    ("spring", "summer", "autumn", "winter"),
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
)
"""Groups of mutually exclusive words: a term word in a group is changed to another member."""


def _omitted(words: Sequence[Word], facts: Sequence[Fact], fact: Fact) -> Variant:
    """The words without every occurrence of ``fact``'s terms and what they leave dangling."""
    drop = {i for term in fact.normalized_terms for occurrence in term_occurrences(words, term)
            for i in occurrence}
    n = len(words)
    changed = True
    while changed:  # take along the words left dangling before the removed ones
        changed = False
        for i in range(n - 1):
            if i in drop or words[i].norm not in DANGLING or i + 1 not in drop:
                continue
            end = i + 1
            while end + 1 < n and end + 1 in drop:
                end += 1
            if end + 1 == n or words[end].trail or words[end + 1].norm in PHRASE_ENDS:
                dangling = True  # the removed words end a phrase
            else:  # a removed subject before its verb takes only its determiner along
                dangling = verb_like(words[end + 1]) and words[i].norm in DETERMINERS
            if dangling:
                drop.add(i)
                changed = True
    text = words_without(words, drop)
    if not text:
        return Unavailable("removing its terms leaves nothing")
    if fact_present(text, fact):
        return Unavailable("its terms still occur after removal")
    lost = [f.name for f in facts if f.name != fact.name and not fact_present(text, f)]
    if lost:
        return Unavailable(f"removing its terms also removes fact(s) {', '.join(lost)}")
    return text


def omit_fact(reference: str, facts: Sequence[Fact], rng: random.Random, *,
              fact: str | None = None) -> Variant:
    """The reference without the terms of one fact (``fact``, or one chosen by ``rng``);
    every other fact stays present.

    >>> facts = (Fact("bird", ("kite",)), Fact("place", ("mill", "roof")))
    >>> omit_fact("The kite nests on the mill roof.", facts, random.Random(0), fact="place")
    'The kite nests.'
    """
    words = split_words(reference)
    candidates = [fact_named(facts, fact)] if fact is not None else shuffled(facts, rng)
    reasons = []
    for candidate in candidates:
        result = _omitted(words, facts, candidate)
        if result:
            return result
        reasons.append(result.reason)
    return Unavailable(reasons[0] if fact is not None else "no fact can be omitted alone")


def _replaced(reference: str, words: Sequence[Word],
              pairs: Sequence[tuple[str, str]]) -> str | None:
    """``reference`` with every occurrence of each normalized old term replaced by its new
    text (in the case of the word it replaces), or None when occurrences overlap."""
    edits = []
    for old, new in pairs:
        for occurrence in term_occurrences(words, old):
            first, last = words[occurrence[0]], words[occurrence[-1]]
            start, end = first.core_span[0], last.core_span[1]
            edits.append((start, end, match_case(reference[start:first.core_span[1]], new)))
    edits.sort()
    if not edits or any(a[1] > b[0] for a, b in zip(edits, edits[1:])):
        return None
    for start, end, new in reversed(edits):
        reference = reference[:start] + new + reference[end:]
    return reference


def _contradiction_pairs(fact: Fact, contradiction: Sequence[str]) -> list[tuple[str, str]] | None:
    """(old term, new text) pairs that turn the fact's terms into the contradiction's,
    aligned on the terms they share; None when a new term has nothing to replace."""
    old = list(fact.normalized_terms)
    new = [SEED(term) for term in contradiction]
    pairs = []
    for op, i1, i2, j1, j2 in SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "insert":
            return None
        if op == "replace":
            k = min(i2 - i1, j2 - j1)
            replacements = new[j1:j1 + k - 1] + [" ".join(new[j1 + k - 1:j2])]
            pairs += list(zip(old[i1:i1 + k], replacements))
    return pairs or None


def _alternatives(fact: Fact, rng: random.Random) -> list[tuple[str, str]]:
    """(old word, new word) pairs from :data:`ALTERNATIVES`, or another number."""
    pairs = []
    for term in fact.normalized_terms:
        for token in term.split(" "):
            if token.isdigit():
                pairs.append((token, str(int(token) + rng.randint(1, 9))))
            for group in ALTERNATIVES:
                if token in group:
                    pairs += [(token, other) for other in group if other != token]
    return shuffled(pairs, rng)


def _changed(reference: str, words: Sequence[Word], facts: Sequence[Fact], fact: Fact,
             pairs: Sequence[tuple[str, str]], required: Sequence[str] = ()) -> str | None:
    """The reference with ``pairs`` replaced, if that loses ``fact``, keeps every other
    fact and contains every ``required`` term; else None."""
    text = _replaced(reference, words, pairs)
    if text is None or fact_present(text, fact):
        return None
    if not all(fact_present(text, f) for f in facts if f.name != fact.name):
        return None
    if not all(term_occurs(SEED(text), SEED(term)) for term in required):
        return None
    return text


def _change_one(reference: str, words: Sequence[Word], facts: Sequence[Fact], fact: Fact,
                contradictions: Contradictions | None, rng: random.Random) -> Variant:
    """A schema contradiction that applies, else a built-in alternative, else the reason."""
    for contradiction in shuffled((contradictions or {}).get(fact.name, ()), rng):
        pairs = _contradiction_pairs(fact, contradiction)
        text = pairs and _changed(reference, words, facts, fact, pairs, contradiction)
        if text:
            return text
    for old, new in _alternatives(fact, rng):
        text = _changed(reference, words, facts, fact, [(old, new)])
        if text:
            return text
    listed = "no usable contradiction in the scoring schema and " if (
        contradictions and contradictions.get(fact.name)) else ""
    terms = ", ".join(fact.terms)
    return Unavailable(f"{listed}no built-in alternative for its terms ({terms})")


def change_fact(reference: str, facts: Sequence[Fact], rng: random.Random, *,
                fact: str | None = None, contradictions: Contradictions | None = None) -> Variant:
    """The reference with one fact (``fact``, or one chosen by ``rng``) changed to a wrong
    value, every other fact still present.

    A contradiction of ``contradictions[fact]`` (term lists, as a scoring schema gives
    them; one chosen by ``rng`` among those that apply) is used when there is one: the
    fact's terms it does not share are replaced by its own, and all its terms must then
    occur. Otherwise one term word is replaced by another member of its group in
    :data:`ALTERNATIVES` (or a number by another number).

    >>> facts = (Fact("bird", ("red kite",)), Fact("time", ("dawn",)))
    >>> change_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="time")
    'The red kite leaves at dusk.'
    >>> change_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="bird",
    ...             contradictions={"bird": [["black kite"]]})
    'The black kite leaves at dawn.'
    """
    words = split_words(reference)
    if fact is not None:
        return _change_one(reference, words, facts, fact_named(facts, fact), contradictions, rng)
    for candidate in shuffled(facts, rng):
        result = _change_one(reference, words, facts, candidate, contradictions, rng)
        if result:
            return result
    return Unavailable("no fact can be changed alone")


def _phrase_start(words: Sequence[Word], fact: Fact) -> int | None:
    """The word index where the phrase holding the fact's first term occurrence starts: the
    occurrence, with the determiners and prepositions right before it."""
    starts = [occurrence[0] for term in fact.normalized_terms
              for occurrence in term_occurrences(words, term)]
    if not starts:
        return None
    start = min(starts)
    while start > 0 and words[start - 1].norm in DANGLING and not words[start - 1].trail:
        start -= 1
    return start


def negate_fact(reference: str, facts: Sequence[Fact], rng: random.Random, *,
                fact: str | None = None) -> Variant:
    """The reference with "not" before the phrase holding one fact's first term (``fact``,
    or one chosen by ``rng``): that fact is denied, its terms all still there.

    >>> facts = (Fact("bird", ("red kite",)), Fact("time", ("dawn",)))
    >>> negate_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="time")
    'The red kite leaves not at dawn.'
    >>> negate_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="bird")
    'Not the red kite leaves at dawn.'
    """
    words = split_words(reference)
    candidates = [fact_named(facts, fact)] if fact is not None else shuffled(facts, rng)
    for candidate in candidates:
        start = _phrase_start(words, candidate)
        if start is None:
            continue
        first = words[start]
        at = first.start
        if start == 0:
            text = "Not " + decapitalize(first.text) + reference[first.start + len(first.text):]
            text = reference[:at] + text
        else:
            text = reference[:at] + "not " + reference[at:]
        if all(fact_present(text, f) for f in facts):
            return text
    return Unavailable("no term of the fact occurs in the reference")


def _equivalent_edits(reference: str, words: Sequence[Word], fact: Fact,
                      equivalent: Sequence[str]) -> str | None:
    """The reference with the fact's required terms replaced by ``equivalent`` (as written):
    term for term when the counts agree, else a contiguous run of the terms by the whole
    list; None when neither applies."""
    old = list(fact.normalized_terms)
    if len(old) == len(equivalent):
        edits = []
        for term, new in zip(old, equivalent):
            found = term_occurrences(words, term)
            if len(found) != 1:
                return None
            first, last = words[found[0][0]], words[found[0][-1]]
            start, end = first.core_span[0], last.core_span[1]
            edits.append((start, end, match_case(reference[start:first.core_span[1]], new)))
    else:
        runs = term_occurrences(words, " ".join(old))
        if len(runs) != 1:
            return None
        first, last = words[runs[0][0]], words[runs[0][-1]]
        start, end = first.core_span[0], last.core_span[1]
        edits = [(start, end, match_case(reference[start:first.core_span[1]],
                                          " ".join(equivalent)))]
    edits.sort()
    if any(a[1] > b[0] for a, b in zip(edits, edits[1:])):
        return None
    for start, end, new in reversed(edits):
        reference = reference[:start] + new + reference[end:]
    return reference


def paraphrase_fact(reference: str, facts: Sequence[Fact], rng: random.Random, *,
                    fact: str | None = None,
                    equivalents: Contradictions | None = None) -> Variant:
    """The reference with one fact's required terms replaced by one of its ``equivalents``
    (term lists a scoring schema accepts for the fact): the fact is still stated, in words
    the published checklist does not know. Unavailable without an equivalent that applies.

    >>> facts = (Fact("bird", ("red kite",)), Fact("time", ("dawn",)))
    >>> paraphrase_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="time",
    ...                 equivalents={"time": [["daybreak"]]})
    'The red kite leaves at daybreak.'
    """
    words = split_words(reference)
    candidates = [fact_named(facts, fact)] if fact is not None else shuffled(facts, rng)
    for candidate in candidates:
        for equivalent in shuffled((equivalents or {}).get(candidate.name, ()), rng):
            text = _equivalent_edits(reference, words, candidate, equivalent)
            if text is None or fact_present(text, candidate):
                continue
            if not all(term_occurs(SEED(text), SEED(term)) for term in equivalent):
                continue
            if all(fact_present(text, f) for f in facts if f.name != candidate.name):
                return text
    if not (equivalents or {}).get(fact or ""):
        return Unavailable("no equivalent in the scoring schema")
    return Unavailable("no equivalent in the scoring schema applies")


def hedge_fact(reference: str, facts: Sequence[Fact], rng: random.Random, *,
               fact: str | None = None, contradictions: Contradictions | None = None) -> Variant:
    """The right value and a wrong one for one fact: "Either <reference>, or <the reference
    with the fact changed>" (the change as :func:`change_fact` makes it).

    >>> facts = (Fact("bird", ("red kite",)), Fact("time", ("dawn",)))
    >>> hedge_fact("The red kite leaves at dawn.", facts, random.Random(0), fact="time")
    'Either the red kite leaves at dawn, or the red kite leaves at dusk.'
    """
    changed = change_fact(reference, facts, rng, fact=fact, contradictions=contradictions)
    if not changed:
        return changed
    right, end = split_terminal(reference.strip())
    wrong, _ = split_terminal(changed.strip())
    words = right.split(" ", 1)
    first = decapitalize(words[0])
    right = " ".join([first] + words[1:])
    wrong_words = wrong.split(" ", 1)
    wrong = " ".join([decapitalize(wrong_words[0])] + wrong_words[1:])
    return f"Either {right.rstrip(CLAUSE_PUNCT)}, or {wrong.rstrip(CLAUSE_PUNCT)}{end or '.'}"


def stuffing_attempt(facts: Sequence[Fact], equivalents: Contradictions | None = None,
                     contradictions: Contradictions | None = None) -> str:
    """Every required term, equivalent and contradiction of every fact, in checklist order,
    one space apart: the oldest trick against keyword graders (seed 001's vacuous pass).

    >>> stuffing_attempt((Fact("time", ("dawn",)),), {"time": [["daybreak"]]},
    ...                  {"time": [["dusk"], ["noon"]]})
    'dawn daybreak dusk noon'
    """
    words: list[str] = []
    for f in facts:
        words += list(f.terms)
        for lists in ((equivalents or {}).get(f.name, ()), (contradictions or {}).get(f.name, ())):
            for terms in lists:
                words += list(terms)
    return " ".join(words)


def stuff_answer(reference: str, facts: Sequence[Fact], rng: random.Random, *,
                 equivalents: Contradictions | None = None,
                 contradictions: Contradictions | None = None) -> Variant:
    """:func:`stuffing_attempt` as a variant; unavailable without a contradiction to list
    (the required terms alone would be no stuffing)."""
    if not any((contradictions or {}).values()):
        return Unavailable("no contradictions to list (give a scoring schema)")
    return stuffing_attempt(facts, equivalents, contradictions)
