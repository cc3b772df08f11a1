"""Drafting a benchmark from a reference: fixed kinds of variant, labelled by what was done.

Each kind of variant is a pure function ``(reference, facts, rng, ...)`` that returns the
variant's text, or an :class:`Unavailable` (falsy, carrying the reason) when the reference
gives it nothing to work on, such as no clause to reorder. :data:`KINDS` lists them in the
order of the shipped benchmark's conditions, then the kinds a scoring schema exists for.
:func:`perturb_benchmark` makes every kind that can be made and labels each row from the
transformation it applied (:data:`INTENDED_LABELS`, :data:`CHECKLIST_LOSES`), never by
scoring it: ``recallscore reproduce`` on the draft then tests the scorer against what the
variants are. It returns a schema-version-1 benchmark with the kinds it skipped;
:func:`dumps_benchmark` spells it as the file ``recallscore perturb`` writes
(:func:`recallscore_nb.cli.handlers.perturb_command`).

What each label says: ``literalMatch`` and ``normalizedMatch``, whether the transformation
kept the text, or kept it up to case, ASCII punctuation and spacing; ``fixtureFactsComplete``,
whether the answer still states every fact (a negated, hedged or stuffed answer does not; a
paraphrase does); ``factsPresent`` and ``checklistFullMatch``, what the published checklist,
which sees only the required terms, must give: a paraphrased fact is lost to it, a negated or
hedged one is not.

The heuristics are generic, English-only and small; nothing in them names the shipped
answer's words:

- clauses are split before a subordinating conjunction (:data:`SUBORDINATORS`), else after
  a comma, and the second part is moved first with a comma;
- "telegraphic wording" drops articles, auxiliaries and light prepositions outside the fact
  terms and puts a colon where the first verb was;
- "articles and verb removed" drops the articles and one verb-like word outside the fact
  terms: the first of :data:`COMMON_VERBS`, else the first later word of four or more
  letters ending in -s or -ed;
- "<fact> omitted" removes every occurrence of the fact's terms, with the articles,
  prepositions and conjunctions they leave dangling (only the article when they are a
  subject before its verb);
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

Numbers keep their punctuation (``12%``, ``3.5``, ``1,000``, ``$5``) when punctuation is
removed, and a removed number takes its own punctuation along.

One row is made per fact for "omitted" and "changed" (conditions ``"<fact> omitted"`` and
``"<fact> changed"``), so every fact's omission and change is drafted; the functions choose a
fact with ``rng`` when not told which. A random choice (the leading phrase, the widened gap,
the alternative value, the clause boundary when there are several) is drawn from a
``random.Random`` seeded by the seed and the condition, so a kind skipped or added never
shifts the others.

>>> from recallscore_nb import load_benchmark
>>> bench = load_benchmark()
>>> drop_articles_and_verb(bench.reference, bench.facts, random.Random(0))
'Copper token in west drawer before museum opens.'
>>> reorder_clauses(bench.reference, bench.facts, random.Random(0))
'Before the museum opens, the copper token goes in the west drawer.'
>>> doc, skipped = perturb_benchmark(bench, seed=0)
>>> len(doc["rows"]), skipped[0]
(22, ('object changed', 'no built-in alternative for its terms (token)'))
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from .._version import __version__
from ..core.errors import UsageError
from ..core.facts import Fact
from ..core.normalize import SEED, delete_ascii_punctuation
from ..core.tokens import term_occurs
from .reproduce import ROW_LABELS

__all__ = [
    "Unavailable",
    "KINDS",
    "INTENDED_LABELS",
    "copy_exact",
    "uppercase",
    "remove_punctuation",
    "change_spacing",
    "reorder_clauses",
    "telegraphic",
    "add_leading_context",
    "drop_articles_and_verb",
    "omit_fact",
    "change_fact",
    "negate_fact",
    "paraphrase_fact",
    "hedge_fact",
    "stuffing_attempt",
    "stuff_answer",
    "CHECKLIST_LOSES",
    "perturb_benchmark",
    "dumps_benchmark",
]

Contradictions = Mapping[str, Sequence[Sequence[str]]]

# --- the word lists (lowercase, as the seed normalization leaves words) -------------------
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
_DETERMINERS = ARTICLES | frozenset({
    "this", "that", "these", "those", "its", "their", "his", "her", "my", "our", "your",
})
_DANGLING = _DETERMINERS | LIGHT_PREPOSITIONS | SUBORDINATORS | frozenset({
    "under", "over", "behind", "beside", "near", "inside", "outside", "above", "below",
})
"""Words removed with an omitted fact's terms when they are left dangling before them."""
_PHRASE_ENDS = _DANGLING | frozenset({"and", "or", "but", "then", "so"})
"""Words that start a new phrase: terms followed by one end their phrase."""
_NOT_VERBS = frozenset({
    "this", "thus", "always", "perhaps", "across", "towards", "besides", "unless",
    "whereas", "its", "his", "hers", "ours", "yours", "theirs", "news", "series",
    "bus", "gas", "yes", "less",
})
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
LEADING_PHRASES = (
    "Please remember that",
    "As far as I remember,",
    "I believe",
    "From memory,",
    "If I recall correctly,",
    "My answer is that",
)
_TERMINAL = ".!?"
_CLAUSE_PUNCT = ",;:"


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


# --- words: the reference as whitespace-separated words ----------------------------------
@dataclass(frozen=True)
class _Word:
    text: str
    start: int  # offset of the word in the text
    norm: str  # the word under the seed normalization (empty for punctuation alone)
    lead: str  # punctuation before the word's core
    trail: str  # punctuation after it

    @property
    def core_span(self) -> tuple[int, int]:
        return self.start + len(self.lead), self.start + len(self.text) - len(self.trail)


_EDGES = re.compile(r"^(\W*)(.*?)(\W*)$", re.DOTALL)


def _words(text: str) -> list[_Word]:
    """The words of ``text`` as ``str.split()`` finds them, with their offsets."""
    words, cursor = [], 0
    for piece in text.split():
        start = text.index(piece, cursor)
        cursor = start + len(piece)
        lead, core, trail = _EDGES.match(piece).groups()
        if not core:  # punctuation alone: no core to keep apart
            lead, trail = "", piece
        words.append(_Word(piece, start, SEED(piece), lead, trail))
    return words


def _occurrences(words: Sequence[_Word], normalized_term: str) -> list[tuple[int, ...]]:
    """The word indices of every whole-token occurrence of a normalized term."""
    tokens = normalized_term.split(" ")
    kept = [i for i, word in enumerate(words) if word.norm]
    norms = [words[i].norm for i in kept]
    n = len(tokens)
    return [tuple(kept[k:k + n]) for k in range(len(norms) - n + 1) if norms[k:k + n] == tokens]


def _fact_words(words: Sequence[_Word], facts: Sequence[Fact]) -> set[int]:
    """Indices of the words inside an occurrence of some fact's term."""
    return {i for fact in facts for term in fact.normalized_terms
            for occurrence in _occurrences(words, term) for i in occurrence}


def _present(text: str, fact: Fact) -> bool:
    normalized = SEED(text)
    return all(term_occurs(normalized, term) for term in fact.normalized_terms)


def _fact_named(facts: Sequence[Fact], name: str) -> Fact:
    for fact in facts:
        if fact.name == name:
            return fact
    raise UsageError(f"'fact' must be one of {', '.join(f.name for f in facts)} (got {name!r})")


def _capitalize(word: str) -> str:
    """Uppercase the first letter when the word starts with one, after any punctuation.

    >>> _capitalize("(token"), _capitalize("3rd")
    ('(Token', '3rd')
    """
    for i, ch in enumerate(word):
        if ch.isalnum():
            return word[:i] + ch.upper() + word[i + 1:] if ch.isalpha() else word
    return word


def _decapitalize(word: str) -> str:
    """Lowercase a sentence-initial capital ("The" → "the"); leave "I" and "NASA" alone.

    >>> _decapitalize("The"), _decapitalize("I"), _decapitalize("NASA")
    ('the', 'I', 'NASA')
    """
    lead, core, trail = _EDGES.match(word).groups()
    if len(core) > 1 and core[0].isupper() and core[1:] == core[1:].lower():
        return lead + core[0].lower() + core[1:] + trail
    return word


def _match_case(model: str, new: str) -> str:
    """``new`` in the case of ``model``: UPPER, Title or as given."""
    if len(model) > 1 and model.isupper():
        return new.upper()
    if model[:1].isupper():
        return _capitalize(new)
    return new


def _split_terminal(text: str) -> tuple[str, str]:
    """("The token goes", ".") from "The token goes."."""
    body = text.rstrip(_TERMINAL)
    return body, text[len(body):]


def _without(words: Sequence[_Word], drop: set[int], *, colon_at: int | None = None) -> str:
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
        mark = "".join(ch for ch in word.trail if ch in _TERMINAL + _CLAUSE_PUNCT)
        if i == colon_at and not mark.strip(_CLAUSE_PUNCT):
            mark = ":"
        if not out or not mark:
            continue
        if out[-1][-1] not in _TERMINAL + _CLAUSE_PUNCT:
            out[-1] += mark
        elif mark[-1] in _TERMINAL and out[-1][-1] in _CLAUSE_PUNCT:
            out[-1] = out[-1][:-1] + mark[-1]
    if out and 0 in drop and words[0].text[:1].isupper():
        out[0] = _capitalize(out[0])
    return " ".join(out)


# --- the kinds of variant ----------------------------------------------------------------
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


def _clause_splits(words: Sequence[_Word]) -> list[int]:
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
    body, terminal = _split_terminal(reference.strip())
    words = _words(body)
    splits = _clause_splits(words)
    if not splits:
        return Unavailable("no subordinating conjunction or comma to split a clause at")
    rng.shuffle(splits)
    normalized = SEED(reference)
    keep_capital = 0 in _fact_words(words, facts)  # a name, perhaps: "Paris" stays "Paris"
    for i in splits:
        main = [w.text for w in words[:i]]
        sub = [w.text for w in words[i:]]
        main[-1] = main[-1].rstrip(_CLAUSE_PUNCT)
        main[0] = main[0] if keep_capital else _decapitalize(main[0])
        sub[0] = _capitalize(sub[0])
        sub[-1] = sub[-1].rstrip(_CLAUSE_PUNCT)
        text = " ".join(sub) + ", " + " ".join(main) + terminal
        if SEED(text) != normalized and all(_present(text, fact) for fact in facts):
            return text
    return Unavailable("every clause boundary splits a fact's term")


def _verb_like(word: _Word) -> bool:
    """Whether a word is one of :data:`COMMON_VERBS`, or looks like a verb: four letters or
    more ending in -s or -ed, not a function word."""
    norm = word.norm
    if norm in COMMON_VERBS:
        return True
    return (len(norm) >= 4 and norm.isalpha() and norm not in _NOT_VERBS
            and norm not in _PHRASE_ENDS and not norm.endswith(("ss", "us", "is"))
            and norm.endswith(("s", "ed")))


def _verb(words: Sequence[_Word], protected: set[int]) -> int | None:
    """The first common verb outside the fact terms, else the first verb-like word after
    the first word."""
    free = [i for i in range(len(words)) if i not in protected]
    listed = [i for i in free if words[i].norm in COMMON_VERBS]
    guessed = [i for i in free if i > 0 and _verb_like(words[i])]
    return (listed or guessed or [None])[0]


def telegraphic(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference in note form: articles, auxiliaries, light prepositions and the first
    verb dropped outside the fact terms, a colon where that verb was.

    >>> facts = (Fact("thing", ("kite",)), Fact("place", ("roof",)))
    >>> telegraphic("The kite is resting on the roof.", facts, random.Random(0))
    'Kite: resting roof.'
    """
    words = _words(reference)
    protected = _fact_words(words, facts)
    verb = _verb(words, protected)
    light = ARTICLES | AUXILIARIES | LIGHT_PREPOSITIONS
    drop = {i for i, w in enumerate(words) if i not in protected and w.norm in light}
    if verb is not None:
        drop.add(verb)
    if not drop:
        return Unavailable(
            "no article, auxiliary, light preposition or verb outside the fact terms")
    colon_at = verb if verb is not None and any(i not in drop for i in range(verb)) else None
    text = _without(words, drop, colon_at=colon_at)
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
    words = _words(body)
    if not words:
        return Unavailable("the reference is blank")
    first = words[0].text
    if 0 not in _fact_words(words, facts):  # a fact's first word may be a name: keep it
        first = _decapitalize(first)
    return f"{phrase} {first}{body[len(words[0].text):]}"


def drop_articles_and_verb(reference: str, facts: Sequence[Fact], rng: random.Random) -> Variant:
    """The reference without its articles and one verb-like word (see the module notes),
    none of them inside a fact term.

    >>> facts = (Fact("bird", ("red kite",)),)
    >>> drop_articles_and_verb("The red kite nests on the roof.", facts, random.Random(0))
    'Red kite on roof.'
    """
    words = _words(reference)
    protected = _fact_words(words, facts)
    verb = _verb(words, protected)
    if verb is None:
        return Unavailable("no verb-like word outside the fact terms")
    drop = {i for i, w in enumerate(words) if i not in protected and w.norm in ARTICLES}
    return _without(words, drop | {verb})


def _omitted(words: Sequence[_Word], facts: Sequence[Fact], fact: Fact) -> Variant:
    """The words without every occurrence of ``fact``'s terms and what they leave dangling."""
    drop = {i for term in fact.normalized_terms for occurrence in _occurrences(words, term)
            for i in occurrence}
    n = len(words)
    changed = True
    while changed:  # take along the words left dangling before the removed ones
        changed = False
        for i in range(n - 1):
            if i in drop or words[i].norm not in _DANGLING or i + 1 not in drop:
                continue
            end = i + 1
            while end + 1 < n and end + 1 in drop:
                end += 1
            if end + 1 == n or words[end].trail or words[end + 1].norm in _PHRASE_ENDS:
                dangling = True  # the removed words end a phrase
            else:  # a removed subject before its verb takes only its determiner along
                dangling = _verb_like(words[end + 1]) and words[i].norm in _DETERMINERS
            if dangling:
                drop.add(i)
                changed = True
    text = _without(words, drop)
    if not text:
        return Unavailable("removing its terms leaves nothing")
    if _present(text, fact):
        return Unavailable("its terms still occur after removal")
    lost = [f.name for f in facts if f.name != fact.name and not _present(text, f)]
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
    words = _words(reference)
    candidates = [_fact_named(facts, fact)] if fact is not None else _shuffled(facts, rng)
    reasons = []
    for candidate in candidates:
        result = _omitted(words, facts, candidate)
        if result:
            return result
        reasons.append(result.reason)
    return Unavailable(reasons[0] if fact is not None else "no fact can be omitted alone")


def _shuffled(items: Sequence, rng: random.Random) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


def _replaced(reference: str, words: Sequence[_Word],
              pairs: Sequence[tuple[str, str]]) -> str | None:
    """``reference`` with every occurrence of each normalized old term replaced by its new
    text (in the case of the word it replaces), or None when occurrences overlap."""
    edits = []
    for old, new in pairs:
        for occurrence in _occurrences(words, old):
            first, last = words[occurrence[0]], words[occurrence[-1]]
            start, end = first.core_span[0], last.core_span[1]
            edits.append((start, end, _match_case(reference[start:first.core_span[1]], new)))
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
    return _shuffled(pairs, rng)


def _changed(reference: str, words: Sequence[_Word], facts: Sequence[Fact], fact: Fact,
             pairs: Sequence[tuple[str, str]], required: Sequence[str] = ()) -> str | None:
    """The reference with ``pairs`` replaced, if that loses ``fact``, keeps every other
    fact and contains every ``required`` term; else None."""
    text = _replaced(reference, words, pairs)
    if text is None or _present(text, fact):
        return None
    if not all(_present(text, f) for f in facts if f.name != fact.name):
        return None
    if not all(term_occurs(SEED(text), SEED(term)) for term in required):
        return None
    return text


def _change_one(reference: str, words: Sequence[_Word], facts: Sequence[Fact], fact: Fact,
                contradictions: Contradictions | None, rng: random.Random) -> Variant:
    """A schema contradiction that applies, else a built-in alternative, else the reason."""
    for contradiction in _shuffled((contradictions or {}).get(fact.name, ()), rng):
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
    words = _words(reference)
    if fact is not None:
        return _change_one(reference, words, facts, _fact_named(facts, fact), contradictions, rng)
    for candidate in _shuffled(facts, rng):
        result = _change_one(reference, words, facts, candidate, contradictions, rng)
        if result:
            return result
    return Unavailable("no fact can be changed alone")


def _phrase_start(words: Sequence[_Word], fact: Fact) -> int | None:
    """The word index where the phrase holding the fact's first term occurrence starts: the
    occurrence, with the determiners and prepositions right before it."""
    starts = [occurrence[0] for term in fact.normalized_terms
              for occurrence in _occurrences(words, term)]
    if not starts:
        return None
    start = min(starts)
    while start > 0 and words[start - 1].norm in _DANGLING and not words[start - 1].trail:
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
    words = _words(reference)
    candidates = [_fact_named(facts, fact)] if fact is not None else _shuffled(facts, rng)
    for candidate in candidates:
        start = _phrase_start(words, candidate)
        if start is None:
            continue
        first = words[start]
        at = first.start
        if start == 0:
            text = "Not " + _decapitalize(first.text) + reference[first.start + len(first.text):]
            text = reference[:at] + text
        else:
            text = reference[:at] + "not " + reference[at:]
        if all(_present(text, f) for f in facts):
            return text
    return Unavailable("no term of the fact occurs in the reference")


def _equivalent_edits(reference: str, words: Sequence[_Word], fact: Fact,
                      equivalent: Sequence[str]) -> str | None:
    """The reference with the fact's required terms replaced by ``equivalent`` (as written):
    term for term when the counts agree, else a contiguous run of the terms by the whole
    list; None when neither applies."""
    old = list(fact.normalized_terms)
    if len(old) == len(equivalent):
        edits = []
        for term, new in zip(old, equivalent):
            found = _occurrences(words, term)
            if len(found) != 1:
                return None
            first, last = words[found[0][0]], words[found[0][-1]]
            start, end = first.core_span[0], last.core_span[1]
            edits.append((start, end, _match_case(reference[start:first.core_span[1]], new)))
    else:
        runs = _occurrences(words, " ".join(old))
        if len(runs) != 1:
            return None
        first, last = words[runs[0][0]], words[runs[0][-1]]
        start, end = first.core_span[0], last.core_span[1]
        edits = [(start, end, _match_case(reference[start:first.core_span[1]],
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
    words = _words(reference)
    candidates = [_fact_named(facts, fact)] if fact is not None else _shuffled(facts, rng)
    for candidate in candidates:
        for equivalent in _shuffled((equivalents or {}).get(candidate.name, ()), rng):
            text = _equivalent_edits(reference, words, candidate, equivalent)
            if text is None or _present(text, candidate):
                continue
            if not all(term_occurs(SEED(text), SEED(term)) for term in equivalent):
                continue
            if all(_present(text, f) for f in facts if f.name != candidate.name):
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
    right, end = _split_terminal(reference.strip())
    wrong, _ = _split_terminal(changed.strip())
    words = right.split(" ", 1)
    first = _decapitalize(words[0])
    right = " ".join([first] + words[1:])
    wrong_words = wrong.split(" ", 1)
    wrong = " ".join([_decapitalize(wrong_words[0])] + wrong_words[1:])
    return f"Either {right.rstrip(_CLAUSE_PUNCT)}, or {wrong.rstrip(_CLAUSE_PUNCT)}{end or '.'}"


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


KINDS: dict[str, Callable[..., Variant]] = {
    "reference copied exactly": copy_exact,
    "uppercase": uppercase,
    "punctuation removed": remove_punctuation,
    "spacing changed": change_spacing,
    "clauses reordered": reorder_clauses,
    "telegraphic wording": telegraphic,
    "leading context added": add_leading_context,
    "articles and verb removed": drop_articles_and_verb,
    "fact omitted": omit_fact,
    "fact changed": change_fact,
    "fact negated": negate_fact,
    "fact paraphrased": paraphrase_fact,
    "fact hedged": hedge_fact,
    "answer stuffed": stuff_answer,
}
"""The kinds of variant in the shipped order, by name, then the kinds a scoring schema
exists for; the ``fact …`` ones make one row per fact, with the condition ``"<fact>
omitted"``, ``"<fact> changed"`` and so on."""

PER_FACT = {"fact omitted": "omitted", "fact changed": "changed", "fact negated": "negated",
            "fact paraphrased": "paraphrased", "fact hedged": "hedged"}

INTENDED_LABELS: dict[str, tuple[bool, bool, bool]] = {
    "reference copied exactly": (True, True, True),
    "uppercase": (False, True, True),
    "punctuation removed": (False, True, True),
    "spacing changed": (False, True, True),
    "clauses reordered": (False, False, True),
    "telegraphic wording": (False, False, True),
    "leading context added": (False, False, True),
    "articles and verb removed": (False, False, True),
    "fact omitted": (False, False, False),
    "fact changed": (False, False, False),
    "fact negated": (False, False, False),
    "fact paraphrased": (False, False, True),
    "fact hedged": (False, False, False),
    "answer stuffed": (False, False, False),
}
"""(literalMatch, normalizedMatch, fixtureFactsComplete) each kind has by construction:
whether the text is kept, kept up to case, ASCII punctuation and spacing, and whether the
answer still states every fact."""

CHECKLIST_LOSES = frozenset({"fact omitted", "fact changed", "fact paraphrased"})
"""The kinds whose fact's required terms are gone, so the published checklist must find one
fact fewer (``factsPresent`` n − 1, no full match); every other kind keeps every required
term, and the checklist must find them all, even where the answer is wrong."""


# --- a whole benchmark -------------------------------------------------------------------
def _rng(seed: int, condition: str) -> random.Random:
    return random.Random(f"recallscore-perturb:{seed}:{condition}")


def _check_contradictions(contradictions, facts: Sequence[Fact]) -> dict[str, list[list[str]]]:
    if contradictions is None:
        return {}
    if not isinstance(contradictions, Mapping):
        raise UsageError("'contradictions' must be a mapping of fact names to lists of term "
                         f"lists (got {contradictions!r} that is a {type(contradictions)!r})")
    names = [f.name for f in facts]
    out = {}
    for name, lists in contradictions.items():
        if name not in names:
            raise UsageError(f"'contradictions' names fact {name!r}, which is not in the "
                             f"checklist ({', '.join(names)})")
        if isinstance(lists, str) or any(
                isinstance(terms, str) or not all(isinstance(t, str) for t in terms)
                for terms in lists):
            raise UsageError(f"'contradictions[{name!r}]' must be a list of lists of terms "
                             f"(got {lists!r})")
        # a list with a term that normalizes to nothing can never be matched: leave it out
        out[name] = [list(terms) for terms in lists if terms and all(SEED(t) for t in terms)]
    return out


def _drafts(benchmark, seed: int, contradictions, equivalents=None):
    """(kind, condition, attempt) for every variant made, (condition, reason) for every one
    skipped, and every condition in order."""
    reference, facts = benchmark.reference, benchmark.facts
    made, skipped, conditions = [], [], []
    for kind, function in KINDS.items():
        if kind in PER_FACT:
            jobs = [(f"{fact.name} {PER_FACT[kind]}", {"fact": fact.name}) for fact in facts]
        else:
            jobs = [(kind, {})]
        for condition, options in jobs:
            if function in (change_fact, hedge_fact, stuff_answer):
                options["contradictions"] = contradictions
            if function in (paraphrase_fact, stuff_answer):
                options["equivalents"] = equivalents
            result = function(reference, facts, _rng(seed, condition), **options)
            conditions.append(condition)
            if result:
                made.append((kind, condition, result))
            else:
                skipped.append((condition, result.reason))
    return made, skipped, conditions


def perturb_benchmark(benchmark, *, seed: int = 0,
                      contradictions: Contradictions | None = None,
                      equivalents: Contradictions | None = None,
                      ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Draft a benchmark of variants of ``benchmark``'s reference, labelled by what each
    transformation did (never by scoring them).

    Parameters
    ----------
    benchmark : Benchmark
        Its reference answer and fact checklist are used; its rows are not.
    seed : int
        Seeds every random choice; the same seed gives the same benchmark.
    contradictions : mapping of str to list of list of str, optional
        Per fact, the term lists that count as a wrong value (a scoring schema's
        ``contradictions``); facts left out use :data:`ALTERNATIVES`.
    equivalents : mapping of str to list of list of str, optional
        Per fact, the term lists that count as the fact (a scoring schema's
        ``equivalents``), for the paraphrased and stuffed variants.

    Returns
    -------
    benchmark : dict
        A schema-version-1 benchmark: the reference, the checklist, one row per variant made
        (ids ``P01``, ``P02``, ...) with ``condition``, ``fixtureFactsComplete`` and the labels
        ``literalMatch``, ``normalizedMatch``, ``factsPresent`` and ``checklistFullMatch``
        that its transformation implies (:data:`INTENDED_LABELS`, :data:`CHECKLIST_LOSES`),
        the summary counts, and ``generatedBy`` with the seed and what was skipped.
    skipped : list of (condition, reason)
        The variants that could not be made, in :data:`KINDS` order.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"'seed' must be an integer (got {seed!r} that is a {type(seed)!r})")
    facts = benchmark.facts
    contradictions = _check_contradictions(contradictions, facts)
    equivalents = _check_contradictions(equivalents, facts)
    made, skipped, conditions = _drafts(benchmark, seed, contradictions, equivalents)
    rows = []
    for kind, condition, attempt in made:
        literal, normalized, complete = INTENDED_LABELS[kind]
        lost = kind in CHECKLIST_LOSES
        labels = (literal, normalized, len(facts) - lost, not lost)
        rows.append({
            "id": "",
            "condition": condition,
            "attempt": attempt,
            "fixtureFactsComplete": complete,
            **dict(zip(ROW_LABELS, labels)),
        })
    for i, row in enumerate(rows, start=1):
        row["id"] = f"P{i:02d}"
    skipped.sort(key=lambda item: conditions.index(item[0]))
    return _document(benchmark, rows, skipped, seed, bool(contradictions)), skipped


def _document(benchmark, rows, skipped, seed, with_contradictions) -> dict[str, Any]:
    source = Path(benchmark.path).name
    complete = sum(row["fixtureFactsComplete"] for row in rows)
    title = benchmark.title or source
    return {
        "schemaVersion": 1,
        "title": f"Perturbations of the reference of {title} (draft, seed {seed})",
        "referenceAnswer": benchmark.reference,
        "protocol": {
            "factChecklist": [{"fact": f.name, "requiredTerms": list(f.terms)}
                              for f in benchmark.facts],
        },
        "summary": {
            "variantCount": len(rows),
            "completeFactFixtures": complete,
            "oneFactChangedOrMissingFixtures": len(rows) - complete,
            "literalFullMatches": sum(row["literalMatch"] for row in rows),
            "normalizedFullMatches": sum(row["normalizedMatch"] for row in rows),
            "checklistFullMatches": sum(row["checklistFullMatch"] for row in rows),
        },
        "rows": rows,
        "limitations": [
            "The attempts are generated from the reference by fixed English heuristics, not "
            "written by people; read every row before publishing.",
            "The labels say what each transformation did (fixtureFactsComplete: whether the "
            "answer still states every fact) and what the published rules must then give; "
            "they are not computed by scoring, so recallscore reproduce tests the scorer.",
            "Kinds of variant that could not be made for this reference are left out "
            "(see generatedBy.skipped).",
        ],
        "versionHistory": [{
            "version": "0.1.0",
            "change": f"Drafted by recallscore perturb {__version__} with seed {seed} from "
                      f"{source}.",
        }],
        "generatedBy": {
            "command": "recallscore perturb",
            "version": __version__,
            "seed": seed,
            "source": {"file": source, "sha256": benchmark.sha256},
            "changedValues": ("scoring schema contradictions, else built-in alternatives"
                              if with_contradictions else "built-in alternatives"),
            "skipped": [{"condition": c, "reason": r} for c, r in skipped],
        },
    }


def dumps_benchmark(document: Mapping[str, Any]) -> str:
    """The benchmark as JSON text: two-space indentation, one row per line, final newline.

    >>> print(dumps_benchmark({"schemaVersion": 1, "rows": [{"id": "P01"}]}), end="")
    {
      "schemaVersion": 1,
      "rows": [
        {"id": "P01"}
      ]
    }
    """
    marker = "\u0000rows\u0000"
    text = json.dumps({**document, "rows": marker}, indent=2, ensure_ascii=False)
    rows = ",\n".join("    " + json.dumps(row, ensure_ascii=False) for row in document["rows"])
    block = f"[\n{rows}\n  ]" if rows else "[]"
    return text.replace(f'\n  "rows": {json.dumps(marker)}', f'\n  "rows": {block}', 1) + "\n"
