"""The ``equivalent`` rule's read steps and guards: each a check of one answer against one
reference (:class:`~recallscore_nb.core.equivalence.parts.AnswerForms`,
:class:`~recallscore_nb.core.equivalence.parts.ReferenceForms`), read in Python for the answers no
earlier step decided.

>>> ref = ReferenceForms.of("September 15, 1996")
>>> date_matches(AnswerForms.of("It came out in 1996."), ref)
True
>>> date_matches(AnswerForms.of("It came out on October 3, 1996."), ref)
False
>>> name_part_matches(AnswerForms.of("Mary Todd Lincoln"), ReferenceForms.of("Abraham Lincoln"), 3)
False
"""

from __future__ import annotations

import functools
import re

from .forms import ANSWER
from .parts import (
    DESIGNATORS,
    HONORIFICS,
    NEGATION_GUARD_CUES,
    NICKNAMES,
    SCALE,
    SUFFIXES,
    STOP,
    AnswerForms,
    ReferenceForms,
    bad_day,
    contains,
    glued_to,
    surface,
    units,
)

__all__ = ["date_matches", "units_differ", "quantity_matches", "glue_word", "gluable",
           "glue_possible", "glue_matches", "editable", "spelling_possible", "spelling_matches",
           "order_matches",
           "name_part_matches", "part_matches", "overlap_matches", "negation_cue",
           "in_longer_name", "candidate_list"]


def date_matches(answer: AnswerForms, ref: ReferenceForms, strict: bool = False) -> bool:
    """A date of the reference in the answer: the same day, or the same year with no month or
    day that differs ("1996" and "September 1996" for "September 15, 1996"). ``strict``
    (cascade 2): every date of the reference, and no month beside a number that is no day
    ("May 310, 2012" is no date of 2012; "1830" alone is not "1780–1830")."""
    if not ref.dates or strict and bad_day(answer.a1):
        return False
    found = answer.dates
    matched = [_date_in(found, year, month, day) for year, month, day in ref.dates]
    return all(matched) if strict else any(matched)


def _date_in(found: list[tuple], year: int, month, day) -> bool:
    same_year = [(m, d) for y, m, d in found if y == year]
    if any(m == month and d == day for m, d in same_year):
        return True
    return bool(same_year) and not any((m is not None and month is not None and m != month)
                                       or (d is not None and day is not None and d != day)
                                       for m, d in same_year)


ROUNDING = 0.001
"""How far (relatively) a more precise number may be from the whole number it rounds to."""


def units_differ(answer: AnswerForms, ref: ReferenceForms) -> bool:
    """Whether the answer and the reference each name units (:func:`~.parts.units`), none of
    them the same ("8,850 miles" for "8,850 km", "100 °F" for "100 °C")."""
    mine, theirs = units(answer.a2), units(ref.a2)
    return bool(mine) and bool(theirs) and not mine & theirs


def within_precision(one: tuple[Fraction, Fraction], other: tuple[Fraction, Fraction]) -> bool:
    """Whether two numbers (value, unit: :func:`~recallscore_nb.core.equivalence.parts.stated`)
    of different precision are one number to the precision of the coarser: the finer is
    less than half the coarser's unit from it (so it rounds to it, an exact half never), and
    the coarser has two significant digits or more. "62.3" for "62", "4.01" for "4.0129",
    "2.19 billion" for "2.187 billion"; never "62.5" for "62", "2.4" for "2", nor a number
    of the same precision that differs.

    >>> from fractions import Fraction as F
    >>> within_precision((F("62.3"), F("0.1")), (F(62), F(1)))
    True
    >>> within_precision((F("62.5"), F("0.1")), (F(62), F(1)))
    False
    >>> within_precision((F("2.4"), F("0.1")), (F(2), F(1)))
    False
    """
    (a, unit_a), (b, unit_b) = one, other
    if unit_a == unit_b:
        return False
    coarse, unit, fine = (a, unit_a, b) if unit_a > unit_b else (b, unit_b, a)
    return abs(coarse) >= 10 * unit and 2 * abs(fine - coarse) < unit


def quantity_matches(answer: AnswerForms, ref: ReferenceForms, tolerance: float,
                     strict: bool = False, precise: bool = False) -> bool:
    """Every quantity of a reference that says only quantities is in the answer: the same
    number, a number inside the range it gives, a more precise number that rounds to a whole
    one and is within :data:`ROUNDING` of it ("1227.986" for "1,228"; never "12.5" for
    "12"), or, for an approximate one with a scale word or a decimal, a number within
    ``tolerance`` of it. ``strict`` (cascade 2): and no unit other than the reference's
    (:func:`units_differ`). ``precise`` (cascade 3): a number the same as the reference's
    to the precision the coarser of the two states also counts (:func:`within_precision`:
    "62.3" for "62", "4.01" for "4.0129"); an answer more precise than a reference with a
    scale word does not ("13.6 billion" for "14 billion", which another reference of the
    item may give as "12.6 billion")."""
    if not ref.only_quantities or strict and units_differ(answer, ref):
        return False
    numbers = answer.numbers

    def found(low, high, approximate, scaled):
        tol = tolerance if approximate and scaled else 0.0
        return any(low * (1 - tol) <= n <= high * (1 + tol)
                   or (low == high and round(n) == low != n
                       and abs(n - low) <= ROUNDING * abs(low)) for n in numbers) or (
            precise and low == high and any(
                within_precision(a, r) and (a[1] >= r[1] or r[1] <= 1) for r in ref.stated
                if float(r[0]) == low for a in answer.stated))
    return all(found(*q) for q in ref.quantities)


def glue_word(token: str) -> bool:
    """Whether the glue step looks for the token glued: a word of three letters or more."""
    return token.isalpha() and len(token) >= 3


def gluable(ref: ReferenceForms) -> bool:
    """Whether the glue step reads the reference: its first and last tokens are
    :func:`glue_word` s."""
    r = ref.a0
    return bool(r) and glue_word(r[0]) and glue_word(r[-1])


def glue_possible(ref: ReferenceForms, text0: str) -> bool:
    """What :func:`glue_matches` needs at the least: a reference it reads whose first and
    last words are inside the answer's ``answer`` tokens (``text0``,
    :attr:`~recallscore_nb.core.equivalence.parts.AnswerForms.text0`)."""
    r = ref.a0
    return gluable(ref) and r[0] in text0 and r[-1] in text0


def glue_matches(answer: AnswerForms, ref: ReferenceForms) -> bool:
    """The reference in the answer, its first and last words glued to a short word ("in
    Paris" written "inParis", "Nelsonin")."""
    if not glue_possible(ref, answer.text0):
        return False
    r, a0 = ref.a0, answer.a0
    k = len(r)
    for i in range(len(a0) - k + 1):
        if not glued_to(a0[i], r[0]):
            continue
        if k == 1 or (a0[i + 1:i + k - 1] == r[1:-1] and glued_to(a0[i + k - 1], r[-1])):
            return True
    return False


def _one_edit(a: str, b: str) -> bool:
    """Whether two different strings are one insertion, deletion or substitution apart."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


def editable(word: str, shortest: int, strict: bool = False) -> bool:
    """Whether the spelling step lets the word differ by one edit: a word of at least
    ``shortest`` characters, never a number; ``strict`` (cascade 2): nor a word with a digit
    ("1840s") or a scale word ("million" is not "billion")."""
    if strict and (any(c.isdigit() for c in word) or word in SCALE):
        return False
    return len(word) >= shortest and not word.isdigit()


def _halves_in(word: str, text: str) -> bool:
    """Whether a token of ``text`` (:attr:`AnswerForms.text1`) starts with the first half of
    ``word`` or ends with the rest: what a token one edit from ``word`` does, the edit being
    in the other half."""
    half = len(word) // 2
    return f" {word[:half]}" in text or f"{word[half:]} " in text


def spelling_possible(ref: ReferenceForms, text1: str, shortest: int) -> bool:
    """What :func:`spelling_matches` needs at the least: each word of the reference a token
    of the answer's ``answer+numbers`` tokens (``text1``,
    :attr:`~recallscore_nb.core.equivalence.parts.AnswerForms.text1`) or, if :func:`editable`,
    with a token one edit could have made of it."""
    return bool(ref.a1) and all(f" {w} " in text1 or (editable(w, shortest)
                                                     and _halves_in(w, text1)) for w in ref.a1)


def spelling_matches(answer: AnswerForms, ref: ReferenceForms, shortest: int,
                     strict: bool = False) -> bool:
    """The reference in the answer, a word of at least ``shortest`` letters (never a number)
    allowed one edit ("Narsingh" for "Narsing")."""
    if not spelling_possible(ref, answer.text1, shortest):
        return False
    r = ref.a1
    near: list[set[str]] = []
    for word in r:
        alike = {word} & answer.s1
        if editable(word, shortest, strict):
            by_length = answer.words_by_length
            alike |= {t for n in (len(word) - 1, len(word), len(word) + 1) if n >= shortest
                      for t in by_length.get(n, ())
                      if (t[0] == word[0] or t[-1] == word[-1]) and _one_edit(t, word)}
        if not alike:
            return False
        near.append(alike)
    a1, k = answer.a1, len(r)
    return any(all(a1[i + j] in near[j] for j in range(k)) for i in range(len(a1) - k + 1))


def order_matches(answer: AnswerForms, ref: ReferenceForms) -> bool:
    """Every content word of a reference of two or more, in any order (a date aside: the
    date step reads those)."""
    c = ref.content2
    return len(c) >= 2 and not ref.dates and all(t in answer.s2 for t in c)


def _given(a: str, g: str, forms: bool = False) -> bool:
    """An answer's given name against a reference's: equal, an initial, or a short form
    sharing the first three letters (Dave and David); ``forms`` (cascade 3): or one is a
    short form of the other, or both of one name (:data:`~recallscore_nb.core.equivalence.
    parts.NICKNAMES`: Jimmy and James).

    >>> _given("jimmy", "james"), _given("jimmy", "james", forms=True)
    (False, True)
    """
    if a == g:
        return True
    if len(a) == 1 or len(g) == 1:
        return a[0] == g[0]
    if forms and NICKNAMES.get(a, frozenset((a,))) & NICKNAMES.get(g, frozenset((g,))):
        return True
    return len(a) >= 3 and len(g) >= 3 and a[:3] == g[:3]


def _dropped_suffix(a0: list[str]) -> bool:
    """Whether an answer may leave out the reference's last word: "Jr." or "Sr.", or a
    numeral after a name of three words or more ("Robert Gillespie Adamson IV"; "Harry Potter
    III" is no person's name).

    >>> _dropped_suffix("harry potter iii".split()), _dropped_suffix("alan autry jr".split())
    (False, True)
    """
    return a0[-1] in ("jr", "sr") or a0[-1] in SUFFIXES and len(a0) >= 4


def name_part_matches(answer: AnswerForms, ref: ReferenceForms, window: int,
                      forms: bool = False) -> bool:
    """A person's last name in the answer, one of their given names (or its initial or short
    form) at most ``window`` words before it. ``forms`` (cascade 3): the last name is the
    name's, not the reference's last word ("Robert Adamson" for "Robert Gillespie Adamson
    IV"), a given name only quoted counts ("\"Kate\" Mulgrew"), and a short form of a given
    name is read as it (:func:`_given`)."""
    person = ref.named if forms else ref.person
    if person is None or ref.a0[-1:] and ref.a0[-1] not in answer.s0 and not (
            forms and _dropped_suffix(ref.a0)):
        return False
    given, last = person
    a0 = answer.a0
    return any(token == last and any(_given(b, g, forms) for b in a0[max(0, i - window):i]
                                     for g in given) for i, token in enumerate(a0))


def _designated(a: list[str], ref: ReferenceForms) -> bool:
    """Cascade 3's parts: ``a`` (content tokens) is one side of a reference of alternatives
    joined by "or", or names the place of one of its components or names without the words
    that say what kind of place it is, on either side ("Lagos" of "Lagos State", "the city
    of Oslo" of "Oslo, Norway")."""
    if any(a == side for side in ref.sides):
        return True
    bare = [t for t in a if t not in DESIGNATORS]
    return bool(bare) and any(bare == [t for t in run if t not in DESIGNATORS] and run != a
                              for run in ref.names + ref.component_runs)


def part_matches(answer: AnswerForms, ref: ReferenceForms, longest: int,
                 forms: bool = False) -> bool:
    """A short answer (at most ``longest`` content words) that is a part of the reference
    standing on its own: one or more of its comma-separated components ("Dhaka" of "Dhaka,
    Bangladesh"); a person's last name included; every capitalized word of a component; or
    the end of one of its segments ("prophase I" of "prophase I of meiosis"), unless it is
    a part of a name, a run of capitalized words, and not the whole ("Korea" of "North
    Korea"; "Carl Linnaeus" of "Swedish botanist Carl Linnaeus" is a whole name). ``forms``
    (cascade 3): also one side of a reference of alternatives joined by "or" ("physical
    layer" of "physical layer or layer 1"), and a place's name without the words that say
    what kind of place it is (:data:`~recallscore_nb.core.equivalence.parts.DESIGNATORS`:
    "Lagos" of "Lagos State"; still never "Korea" of "North Korea")."""
    a = answer.content2
    if not a or len(a) > longest:
        return False
    if forms and _designated(a, ref):
        return True
    if not contains(ref.a2, a):
        return False
    if any(a == run for run in ref.component_runs):
        return True
    if ref.person is not None:
        return ref.person[1] in answer.s2
    for capitals, words in ref.capital_runs:
        if capitals and all(t in a for t in capitals) and contains(words, a):
            return True
    if any(contains(run, a) and run != a for run in ref.names):
        return False  # a part of a name is no name of its own ("Korea" of "North Korea")
    return any(s[-1] == a[-1] and contains(s, a) for s in ref.segments)


def overlap_matches(answer: AnswerForms, ref: ReferenceForms, share, least: int,
                    widest: int, strict: bool = False) -> bool:
    """At least ``least`` and ``share`` of the reference's content words in the answer, and
    every number of it (a date or a reference of quantities aside: their own steps read
    those). Of a reference of more than ``widest`` content words (a sentence), no missing
    word may be replaced by another between the same neighbours ("east drawer" for "west
    drawer": a fact changed, not left out). ``strict`` (cascade 2): and no unit other than
    the reference's (:func:`units_differ`: "5 gallons" for "approximately 5 liters"), and,
    of a sentence, no alternatives offered for one of its words ("west drawer … east
    drawer")."""
    c = set(ref.content2)
    if len(c) < least or ref.dates or ref.only_quantities or strict and units_differ(answer,
                                                                                     ref):
        return False
    found = len(c & answer.s2)
    if found < least or found < share * len(c) or not all(
            t in answer.s2 for t in ref.numbers2):
        return False
    return len(c) <= widest or not (_replaced(answer, ref) or strict and _slot_offered(answer,
                                                                                       ref))


def _slot_offered(answer: AnswerForms, ref: ReferenceForms) -> bool:
    """Whether the answer offers alternatives for a word of the reference: two words of the
    reference side by side in the answer, and the same second word after another content word
    that is no word of the reference ("west drawer … east drawer").

    >>> _slot_offered(AnswerForms.of("the west drawer or the east drawer"),
    ...               ReferenceForms.of("in the west drawer"))
    True
    >>> _slot_offered(AnswerForms.of("in the west drawer, by the door"),
    ...               ReferenceForms.of("in the west drawer"))
    False
    """
    r, a = ref.a2, answer.a2
    own = set(r)
    pairs = set(zip(a, a[1:]))
    for w, n in set(zip(r, r[1:])) & pairs:
        if w in STOP or n in STOP:
            continue
        if any(x == n and v not in own and v not in STOP for v, x in pairs):
            return True
    return False


def _replaced(answer: AnswerForms, ref: ReferenceForms) -> bool:
    """Whether a content word of the reference missing from the answer has another word in
    its place: between its two neighbours, or beside its one neighbour at either end."""
    r, a = ref.a2, answer.a2
    for i, word in enumerate(r):
        if word in answer.s2 or word in STOP:
            continue
        before, after = r[i - 1:i], r[i + 1:i + 2]
        window = before + ["?"] + after
        for j in range(len(a) - len(window) + 1):
            got = a[j:j + len(window)]
            if got[:len(before)] == before and got[len(before) + 1:] == after \
                    and got[len(before)] not in r:
                return True
    return False


# --- guards -----------------------------------------------------------------------------------
def negation_cue(raw_answer: str, a0: list[str], start: int) -> bool:
    """Whether the reference found at token ``start`` follows a negation cue ("not Paris"),
    the cue written in lowercase or opening the answer or a sentence (a title's "Not" is
    none), and not ending its own clause ("No, Paris")."""
    if start == 0 or a0[start - 1] not in NEGATION_GUARD_CUES:
        return False
    text = surface(raw_answer).replace("'", "").replace("\u2019", "")
    for match in re.finditer(rf"(?i)\b{a0[start - 1]}\b", text):
        word, before = match.group(), text[:match.start()].rstrip()
        if text[match.end():].lstrip()[:1] in tuple(",;:.!?"):
            continue
        if word.islower() or not before or before[-1] in ".!?:":
            return True
    return False


TITLES = HONORIFICS | {"mount", "mt", "lake", "river"}


@functools.lru_cache(maxsize=2**16)
def _word_tokens(word: str) -> tuple[str, ...]:
    return tuple(ANSWER(word).split())


def _words(raw_answer: str) -> list[tuple[str, str]]:
    """(token, the word as written) for each ``answer`` token, word by word (each distinct
    word normalized once: answers share most of their words)."""
    return [(token, word) for word in surface(raw_answer).split()
            for token in _word_tokens(word)]


def in_longer_name(raw_answer: str, ref: ReferenceForms) -> bool:
    """Whether every place the reference occurs in the answer is inside a longer capitalized
    name: a capitalized word right before or after it, not the reference's, not a title or a
    stop word, not opening a sentence, no comma between ("Mary Todd Lincoln" for "Lincoln")."""
    words = _words(raw_answer)
    tokens = [t for t, _ in words]
    k = len(ref.a0)
    starts = [i for i in range(len(tokens) - k + 1) if k and tokens[i:i + k] == ref.a0]
    own = set(ref.a0)

    def capital(i: int) -> bool:
        if not 0 <= i < len(words):
            return False
        token, word = words[i]
        if not word[:1].isupper() or token in TITLES or token in own or token in STOP:
            return False
        return not (i > 0 and words[i - 1][1][-1:] in ".!?")

    def longer(i: int) -> bool:
        before = i > 0 and capital(i - 1) and words[i - 1][1][-1:] not in ",;:"
        after = capital(i + k) and words[i + k - 1][1][-1:] not in ",;:"
        return before or after
    return bool(starts) and all(longer(i) for i in starts)


def candidate_list(raw_answer: str, refs: list[ReferenceForms], longest: int = 8) -> bool:
    """Whether the answer is a short list of alternatives (at most ``longest`` tokens, items
    separated by "or", "and" or commas, with an "or" or three items at least) of which one is
    no reference ("Paris, Lyon or Marseille"; not "Paris, France")."""
    words = _words(raw_answer)
    if len(words) > longest:
        return False
    commas = sum("," in w for _, w in words[:-1])
    if not any(t == "or" for t, _ in words) and commas < 2:
        return False  # "Paris, France" is one place, not two candidates
    items: list[list[str]] = []
    current: list[str] = []
    for token, word in words:
        if token in ("or", "and"):
            items, current = items + [current] if current else items, []
            continue
        current.append(token)
        if word.endswith(","):
            items, current = items + [current], []
    items += [current] if current else []
    return len(items) >= 2 and any(
        not any(contains(item, r.a0) or contains(r.a0, item) for r in refs) for item in items)
