"""How an answer is laid out: its segments, the candidates it offers, whether it hedges
between alternatives, denies its reference or multiplies it, rather than saying one answer.

An answer is cut at the marks people write between alternatives: commas, semicolons,
slashes, bars, line breaks, tabs, bullets and numbers, dashes, sentence ends, and the words
"or", "nor", "either", "and/or", "versus". A reference found in the answer is never cut (its
own commas are kept whole: "Vancouver, British Columbia"). A segment opened by an
alternative ("or was it Lyon") or opening the answer ("It could be Lyon") is read past the
words of its lead-in; any other past its hedge words ("maybe Lyon").

>>> from .parts import ReferenceForms
>>> refs = [ReferenceForms.of("Paris")]
>>> offers_alternatives("Lyon, Paris or Marseille", refs)
True
>>> offers_alternatives("Either Lyon or Paris.", refs)
True
>>> offers_alternatives("Paris? Or was it Lyon?", refs)
True
>>> offers_alternatives("Paris, the capital of France.", refs)
False
>>> offers_alternatives("The festival was held in Paris. It is the capital of France.", refs)
False
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import dataclass

import pyarrow as pa

from ..normalize import normalize_array
from .forms import ANSWER
from .parts import (
    NEGATION_GUARD_CUES,
    PREPOSITIONS,
    STOP,
    ReferenceForms,
    bad_day,
    contains,
    surface,
)
from .places import qualifies

__all__ = ["segments", "Segment", "offers_alternatives", "lists_candidates", "bags_words",
           "denies_reference", "scale_added", "primed", "OPENERS",
           "MARKS", "HEDGE_WORDS", "LEAD_WORDS", "VERBS", "LONGEST", "DENIALS", "NEAR",
           "SCALE_WORDS"]

_ABBREVIATION = "".join(rf"(?<!\b{a})" for a in (
    "[A-Z]", "Dr", "Mr", "Mrs", "Ms", "St", "Jr", "Sr", "Lt", "Mt", "Co", "No", "vs", "Inc",
    "Ltd", "Gen", "Col", "Sgt", "Pt"))
"""A full stop after an initial or one of these does not end a sentence ("Gerald R. Ford")."""
_CUT = re.compile(  # each lookbehind after the mark it tests: 6x faster than before it
    r",(?<!\d,)(?<!\d\s,)|,(?!\d)(?!\s?\d{4}\b)"      # , (not 1,000 nor 4 July, 1960)
    r"|[;|\n\r\t\u2022\u00b7]|/(?<!\d/)|/(?!\d)"                          # ; | / …
    r"|(?:^|\s(?<!\d\s))[-\u2013\u2014*+>](?=\s)|\s(?<!\d\s)[\u2013\u2014]\s"  # bullets,
    r"|\s[\u2013\u2014]\s(?!\d)"                                   # dashes (not 14 – 18)
    r"|(?:^|\s)\d{1,2}[.)](?=\s)"                                                 # 1. 2)
    r"|(?=[.!?])" + _ABBREVIATION + r"[.!?](?=\s|$)")                     # sentence ends
CUT = "\u2016"
OPEN = "\u2017"
"""A cut made by a word offering an alternative: the segment after it is one."""
MARKS = frozenset({"or", "nor", "either", "versus", "vs", "andor"})
"""Words that offer an alternative: a segment ends before each."""
HEDGE_WORDS = frozenset({"or", "either", "nor", "maybe", "perhaps", "possibly", "probably",
                         "likely", "might", "could", "unsure", "guess", "versus", "vs",
                         "andor"})
"""Words that hedge: an answer with one of them, or a question mark or a slash, offers its
candidates as alternatives."""
LEAD_WORDS = frozenset(
    "either or nor and but maybe perhaps possibly probably likely might could may would can "
    "it its it s is was are were be i im am think guess believe not sure unsure also well so "
    "then the a an answer answers correct which one of these this that option options "
    "candidate candidates definitely certainly way my final yes no ok okay sure indeed".split())
"""Words that open (or make up) a hedge or a lead-in ("It could be", "I think it is")."""
VERBS = frozenset(
    "is was are were be been being has have had do does did can will would shall should must "
    "may might could became become becomes won wrote called known named located made played "
    "sang directed means refers goes go went came took said born died held built written "
    "sung".split())
"""Words that make a segment a clause: a sentence that says something, not a candidate."""
def _verb(token: str) -> bool:
    """A word of :data:`VERBS`, or one that looks like a past participle ("moved"; not
    "speed")."""
    return token in VERBS or (len(token) >= 5 and token.endswith("ed")
                              and not token.endswith("eed"))


LONGEST = 6
"""The most words a candidate has, past its lead-in."""


@dataclass(frozen=True)
class Segment:
    """One segment: its ``answer`` tokens, the ones past its lead-in (``said``), and whether a
    reference was found in it."""

    tokens: tuple[str, ...]
    said: tuple[str, ...]
    found: bool

    @property
    def filler(self) -> bool:
        """Only a hedge or a lead-in ("I am not sure which"): no candidate."""
        return all(t in LEAD_WORDS or t in STOP for t in self.tokens)

    @property
    def candidate(self) -> bool:
        """Short enough to be one candidate, no clause, and saying something."""
        return 0 < len(self.said) <= LONGEST and not any(t in VERBS for t in self.said) \
            and any(t not in STOP for t in self.said)


_PLACE = "qqcutqq"
"""What stands for a cut while the ``answer`` normalizer reads the text once, whole: a
word it leaves as it is (the tokens are those of each segment normalized on its own: the
same on all 25,039 distinct answers of the three shipped judged sets)."""


def _cut_text(raw: str) -> str:
    """The answer as written, :data:`_PLACE` at each of its cuts."""
    return _CUT.sub(f" {_PLACE} ", surface(raw))


_PRIMED: dict[str, str] = {}
"""The cut texts of the answers :func:`primed` holds, normalized by ``answer`` at once."""


@contextlib.contextmanager
def primed(raws: list[str]):
    """Within the block, the guards read the cut text of each of ``raws`` normalized in one
    vectorized pass (:func:`~recallscore_nb.core.normalize.normalize_array`, equal row by
    row to the normalizer): 1.0 s of the guards' 2.0 s on EVOUNA NQ's 7,126 found rows was
    ``answer`` run once per answer.

    >>> with primed(["Lyon, Paris or Nice?"]):
    ...     offers_alternatives("Lyon, Paris or Nice?", [ReferenceForms.of("Paris")])
    True
    """
    global _PRIMED
    distinct = list(dict.fromkeys(raws))
    texts = pa.array([_cut_text(r) for r in distinct], type=pa.string())
    _PRIMED = dict(zip(distinct, normalize_array(texts, ANSWER).to_pylist()))
    try:
        yield
    finally:
        _PRIMED = {}


@functools.lru_cache(maxsize=1 << 15)
def _cut_tokens(raw: str) -> tuple[str, ...]:
    """The answer's ``answer`` tokens with :data:`CUT` between its segments, and each word
    offering an alternative marked with :data:`OPEN` before it (it cuts, unless it is part
    of a reference: "hit points or health points")."""
    out: list[str] = []
    part: list[str] = []
    text = _PRIMED.get(raw)
    for t in (ANSWER(_cut_text(raw)) if text is None else text).split() + [_PLACE]:
        if t != _PLACE:
            part.append(t)
            continue
        out.append(CUT)
        out.extend(OPEN + w if w in MARKS else w for w in _joined_andor(part))
        part = []
    return tuple(out)


@functools.lru_cache(maxsize=1 << 15)  # alternatives and list both ask, per row
def _one_segment(raw: str) -> bool:
    """Whether the answer is one segment at the most, whatever its references: no word
    offering an alternative, and words between two cuts once at the most (what each guard
    that reads segments checks first: a guard needs two segments, or none)."""
    tokens = _cut_tokens(raw)
    runs = sum(t == CUT and i + 1 < len(tokens) and tokens[i + 1] != CUT
               for i, t in enumerate(tokens))
    return runs <= 1 and not any(t.startswith(OPEN) for t in tokens)


def _words(raw: str) -> set[str]:
    """The words of the answer's cut tokens."""
    return {t.lstrip(OPEN) for t in _cut_tokens(raw) if t != CUT}


def _joined_andor(tokens: list[str]) -> list[str]:
    out: list[str] = []
    for t in tokens:
        if t == "or" and out[-1:] == ["and"]:
            out[-1] = "andor"
        else:
            out.append(t)
    return out


def _past(tokens: list[str], words: frozenset[str]) -> tuple[str, ...]:
    i = 0
    while i < len(tokens) and tokens[i] in words:
        i += 1
    return tuple(tokens[i:])


_HEDGES_ONLY = HEDGE_WORDS | {"and", "but"}


def segments(raw: str, refs: list[ReferenceForms]) -> list[Segment]:
    """The answer's segments, in order, a reference found in it kept whole.

    >>> [(s.said, s.found) for s in segments("Maybe Lyon, or Paris, France?",
    ...                                       [ReferenceForms.of("Paris, France")])]
    [(('lyon',), False), (('paris', 'france'), True)]
    """
    return list(_segments(raw, tuple(tuple(r.a0) for r in refs)))


# Each guard reads the segments of the same rows: read once per answer and references (the
# cut tokens once per answer).
@functools.lru_cache(maxsize=1 << 15)
def _segments(raw: str, refs: tuple[tuple[str, ...], ...]) -> tuple[Segment, ...]:
    tokens = _cut_tokens(raw)
    words = [(i, t.lstrip(OPEN)) for i, t in enumerate(tokens) if t != CUT]
    flat = [t for _, t in words]
    inside = [False] * len(tokens)
    for ref in refs:
        k = len(ref)
        for s in range(len(flat) - k + 1):
            if k and tuple(flat[s:s + k]) == ref:
                for j in range(words[s][0], words[s + k - 1][0] + 1):
                    inside[j] = True
    out: list[Segment] = []
    current: list[str] = []
    found, opened = False, True
    for j, t in enumerate(tokens + (CUT,)):
        mark = t == CUT or t.startswith(OPEN)
        if mark and not (j < len(tokens) and inside[j]):
            if current:
                opened = opened or not out or current[0] in _HEDGES_ONLY
                lead = LEAD_WORDS if opened else _HEDGES_ONLY
                out.append(Segment(tuple(current), _past(current, lead), found))
                current, found, opened = [], False, False
            opened = opened or t != CUT
        elif t != CUT:
            current.append(t.lstrip(OPEN))
            found = found or inside[j]
    return tuple(out)


def _about_reference(segment: Segment, refs: list[ReferenceForms]) -> bool:
    """A segment that is a reference, part of one, or shares a content word with one."""
    own = {t for r in refs for t in r.a0 if t not in STOP}
    return segment.found or any(contains(r.a0, list(segment.said)) for r in refs) or bool(
        own & set(segment.said))


def _rest(segment: Segment, refs: list[ReferenceForms]) -> list[str]:
    """A segment's words past its lead-in, the longest reference found in them taken out (or,
    when the lead-in took a word of it, what follows it: "May 29, 2018", "may" being also a
    lead-in word)."""
    said = list(segment.said)
    found = _longest_in(said, refs)
    if found:
        return said[:found[0]] + said[sum(found):]
    found = _longest_in(list(segment.tokens), refs)
    return list(segment.tokens[sum(found):]) if found else said


def _longest_in(words: list[str], refs: list[ReferenceForms]) -> tuple[int, int] | None:
    """(start, length) of the longest reference found in ``words``, or None."""
    for ref in sorted(refs, key=lambda r: -len(r.a0)):
        k = len(ref.a0)
        for i in range(len(words) - k + 1):
            if k and words[i:i + k] == ref.a0:
                return i, k
    return None


def _short(segment: Segment, refs: list[ReferenceForms]) -> bool:
    """A segment holding a reference that says little else: no clause past its lead-in, and
    at most :data:`LONGEST` words beside the reference."""
    said = _rest(segment, refs)
    return len(said) <= LONGEST and not any(map(_verb, said))


def offers_alternatives(raw: str, refs: list[ReferenceForms]) -> bool:
    """Whether the answer is a list of candidates, one of them no reference: every segment
    but the references' a candidate (short, no clause) or a filler ("I am not sure which"),
    as many at least sharing no content word with any reference as hold one, and the answer
    hedged: an "or", a "maybe", a "?", a "/" … ("Lyon, Paris or Marseille"; not "It was held
    in Paris, Lyon and Nice", nor "Paris, France"). A plain list ("Lyon, Paris, Nice") is not
    refused: on EVOUNA NQ it would cost 64 answers people accepted."""
    if _one_segment(raw) or not _offers(raw):
        return False
    parts = [s for s in segments(raw, refs) if not s.filler]
    held = sum(s.found for s in parts)
    if len(parts) < 2 or not held:
        return False
    others = [s for s in parts if not s.found]
    if not all(s.candidate for s in others) or not all(
            _short(s, refs) for s in parts if s.found):
        return False
    strangers = sum(not _about_reference(s, refs) for s in others)
    if not strangers or strangers < held:
        return False
    return _offers(raw)


def _offers(raw: str) -> bool:
    """Whether the answer hedges: a word of :data:`HEDGE_WORDS`, a slash or a question mark
    (read off the answer's cut tokens, not normalized again)."""
    return "/" in raw or "?" in raw or any(t.lstrip(OPEN) in HEDGE_WORDS
                                           for t in _cut_tokens(raw))


MONTH_VERBS = frozenset({"may", "march"})
"""Verbs that are also months."""
OPENERS = PREPOSITIONS | frozenset(
    "into near about after before since under over until through".split())
"""Words that open a phrase continuing a clause ("in 1968"), not a candidate: the
prepositions of :mod:`.parts` and more."""
_LAYOUT = re.compile(r"[;|\n\u2022]|(?:^|\s)\d{1,2}[.)]\s|(?:^|\n)\s*[-*+\u2013\u2014]\s")
"""The marks of a list laid out as one: semicolons, bars, lines, bullets, numbers."""


def _item(segment: Segment) -> bool:
    """A candidate that reads as a name: short, no clause, not a phrase opened by a
    preposition."""
    said = segment.said
    dated = any(t.isdigit() for t in said)  # "15 May 1940": a month, not a verb
    return 0 < len(said) <= LONGEST and not any(
        _verb(t) and not (dated and t in MONTH_VERBS) for t in said) and any(
        t not in STOP for t in said) and said[0] not in OPENERS


def _bare(segment: Segment, refs: list[ReferenceForms]) -> bool:
    """A segment that is a reference and at most one other content word ("singer Mary
    Foster"): no clause, no phrase opened by a preposition."""
    rest = _rest(segment, refs)
    if any(map(_verb, rest)) or rest[:1] and rest[0] in OPENERS:
        return False
    return sum(t not in STOP for t in rest) <= 1


def _placed(parts: list[Segment]) -> list[Segment]:
    """The segments, each place (:data:`~.places.PLACES`) that qualifies the segment before
    it read as one candidate with it: the place is left out, or, when it holds a reference,
    the segment it qualifies ("Atlanta, Georgia" for "Georgia")."""
    out: list[Segment] = []
    for s in parts:
        if out and qualifies(s.said):
            if not s.found:
                continue
            out.pop()
        out.append(s)
    return out


MANY = 8
"""From this many segments, a list whose other segments are three in four names is a dump
of candidates, whatever the others are."""


def lists_candidates(raw: str, refs: list[ReferenceForms]) -> bool:
    """Whether the answer is a bare list of candidates, hedged or not: each segment holding a
    reference is that reference and at most one other word, the other segments are names
    (or short items of a list laid out with semicolons, lines, bullets or numbers; or, in a
    dump of :data:`MANY` segments or more that opens with one, three in four of them names),
    and as many at least share no content word with any reference as hold one ("Lyon, Paris,
    Nice"; "1. Lyon 2. Paris"). Not "Atlanta, Georgia", "Paris, France", "It was held in
    Paris, Lyon and Nice", nor a list of two references or more ("Paris; Lyon" for both),
    nor two names side by side with no hedge ("Smith, John" for "Smith"), nor a lead-in and,
    past its last colon, one reference ("Whisky, honey, egg: Atholl Brose").

    >>> refs = [ReferenceForms.of("Paris")]
    >>> [lists_candidates(a, refs) for a in ("Lyon, Paris, Nice", "1. Lyon 2. Paris",
    ...  "Paris, France", "Paris, the capital", "It was held in Paris, Lyon and Nice.")]
    [True, True, False, False, False]
    """
    if _one_segment(raw):
        return False
    text = surface(raw)
    head, colon, tail = text.rpartition(":")
    answer = [s for s in segments(tail, refs) if not s.filler] if colon else []
    if len(answer) == 1 and answer[0].found and _bare(answer[0], refs):
        return False  # "Whisky, honey, egg: Atholl Brose": what comes before leads in
    parts = _placed([s for s in segments(raw, refs) if not s.filler])
    held = [s for s in parts if s.found]
    others = [s for s in parts if not s.found and s.said[0] not in DENIALS]  # "not Lyon"
    if not held or not others or not all(_bare(s, refs) for s in held):
        return False
    if len(held) > 1 and len({tuple(r.a0) for s in held for r in refs
                              if contains(list(s.tokens), r.a0)}) > 1:
        return False  # several references, each its own item: a list asked for
    laid_out = _LAYOUT.search(raw) and all(len(s.said) <= LONGEST for s in others)
    if len(parts) == 2 and not laid_out and not _offers(raw):
        return False  # "Smith, John", "enemy, stranger": one thing named twice, as often
    items = sum(map(_item, others))
    dump = len(parts) >= MANY and items >= len(others) * 3 / 4 and (
        parts[0].found or _item(parts[0]))  # not prose that lists: "It borders A, B, …"
    if not laid_out and not dump and items < len(others):
        return False
    strangers = sum(not _about_reference(s, refs) for s in others)
    return strangers - len(_DESCRIBED.findall(text)) >= len(held)


_DESCRIBED = re.compile(r"(?:^|[,;(]\s*)(?:the|a|an)\s+[a-z]")
"""A segment that describes, not names: "Paris, the capital" (each is one stranger fewer)."""


BAG = 16
"""The fewest words beside a reference that make a bag of words, when few are function words."""


def bags_words(raw: str, refs: list[ReferenceForms]) -> bool:
    """Whether each segment holding a reference is a bag of words: :data:`BAG` words or more
    beside it, at most one in ten of them a function word or a verb ("Lyon Nice Paris Oslo
    Rome …"; not a sentence, which has its "of", "in", "is" …).

    >>> refs = [ReferenceForms.of("Paris")]
    >>> bags_words(" ".join(["Lyon Nice Paris Oslo Rome Bern Kyiv Riga Baku"] * 2), refs)
    True
    >>> bags_words("Paris is the capital and largest city of France, on the Seine, with "
    ...            "its museums, its cafés and its long boulevards of stone", refs)
    False
    """
    if sum(t != CUT for t in _cut_tokens(raw)) < BAG:  # fewer words than a bag has
        return False
    held = [s for s in segments(raw, refs) if s.found]
    if not held:
        return False
    for segment in held:
        rest = _rest(segment, refs)
        if len(rest) < BAG or sum(t in STOP or _verb(t) for t in rest) * 10 > len(rest):
            return False
    return True


DENIALS = NEGATION_GUARD_CUES | {"except", "excluding"}
"""Words that deny what follows them in their segment, for the ``denial`` guard ("definitely not
Paris", "except Paris"): the ``negation`` guard's cues
(:data:`~recallscore_nb.core.equivalence.parts.NEGATION_GUARD_CUES`, which that guard reads
only right before a reference) and "except" and "excluding", which deny what follows but are
no negation of the word after them alone."""
DENYING_PAIRS = frozenset({("anything", "but"), ("other", "than"), ("rather", "than"),
                           ("instead", "of"), ("apart", "from")})
WRONG = frozenset({"wrong", "incorrect", "false", "not", "isnt", "wasnt", "mistaken"})
"""Words that, right after a reference and its "is", deny it ("Paris is wrong")."""
_TURNS = frozenset({"but", "instead", "rather", "however", "yet"})


def _denied(tokens: tuple[str, ...], start: int, k: int) -> bool:
    """Whether the reference at ``start`` (``k`` tokens) is denied: a denial among the
    :data:`NEAR` tokens right before it, no turn ("but") between, or a denying pair right
    before it, or "is wrong" … right after it."""
    before = tokens[max(0, start - NEAR):start]
    if tuple(before[-2:]) in DENYING_PAIRS:
        return True
    turn = max((i for i, t in enumerate(before) if t in _TURNS), default=-1)
    if any(t in DENIALS for t in before[turn + 1:]):
        return True
    after = tokens[start + k:start + k + 2]
    return bool(after) and (after[0] in WRONG or (
        after[0] in ("is", "was", "are") and len(after) > 1 and after[1] in WRONG))


_DENYING = DENIALS | WRONG | {pair[0] for pair in DENYING_PAIRS}
"""A word of one of these: what any denial needs."""
NEAR = 2
"""How many tokens before a reference a denial of it may be ("definitely not", "is not")."""


def denies_reference(raw: str, refs: list[ReferenceForms]) -> bool:
    """Whether every segment holding a reference denies it: a denial before it in its segment
    ("definitely not Paris", "anything but Paris"; not "not Lyon but Paris"), or "is wrong",
    "is not" … right after it ("Paris is wrong; it is Lyon").

    >>> refs = [ReferenceForms.of("Paris")]
    >>> [denies_reference(a, refs) for a in ("Anything but Paris.", "Paris is wrong; Lyon.",
    ...  "It's Lyon, not Paris.", "Not Lyon but Paris.", "No, it is Paris.")]
    [True, True, True, False, False]
    """
    if _DENYING.isdisjoint(_words(raw)):
        return False
    held = [s for s in segments(raw, refs) if s.found]
    if not held:
        return False
    for segment in held:
        places = _widest([(i, len(r.a0)) for r in refs for i in range(len(segment.tokens))
                          if r.a0 and segment.tokens[i:i + len(r.a0)] == tuple(r.a0)])
        if not places or not all(_denied(segment.tokens, i, k) for i, k in places):
            return False
    return True


def _widest(places: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The places (start, length) not inside another: "turkey" is read in "a large roasted
    turkey" where both are references."""
    return [(i, k) for i, k in places
            if not any(j <= i and i + k <= j + m and (j, m) != (i, k) for j, m in places)]


SCALE_WORDS = frozenset({"hundred", "thousand", "million", "billion", "trillion", "k", "m",
                         "bn", "mn"})
"""Words that multiply the number before them ("9 billion")."""


def scale_added(a0: list[str], starts: list[int], refs: list[ReferenceForms]) -> bool:
    """Whether the answer multiplies a number of a reference found in it: a scale word right
    after it that the reference lacks ("9 billion" for "9", "291 episodes billion" for "291
    episodes"; "9 billion" for "9 billion" is the reference), or breaks a date ("July 140,
    1976": :func:`~.parts.bad_day`).

    >>> scale_added("it was 9 billion".split(), [2], [ReferenceForms.of("9")])
    True
    >>> scale_added("9 points".split(), [0], [ReferenceForms.of("9")])
    False
    >>> scale_added("season seven thousand".split(), [0], [ReferenceForms.of("season seven")])
    True
    """
    found: dict[tuple[int, int], bool] = {}  # each place: a reference with a number there
    for s in starts:
        for r in refs:
            if r.a0 and a0[s:s + len(r.a0)] == r.a0:
                found[s, len(r.a0)] = found.get((s, len(r.a0)), False) or any(
                    map(_numeric, r.a1))
    return any(found[s, k] and s + k < len(a0) and a0[s + k] in SCALE_WORDS
               for s, k in _widest(sorted(found))) or bad_day(a0)


def _numeric(token: str) -> bool:
    return token.replace(".", "", 1).isdigit()
