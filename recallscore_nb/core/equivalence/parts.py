"""What the ``equivalent`` rule's read steps see of an answer and of a reference: their
tokens under the ``answer`` normalizers (:mod:`~recallscore_nb.core.equivalence.forms`) and what
is read of them once (dates, quantities, a person's name, the parts of a reference).

``a0`` are the tokens as written, ``a1`` with numbers as digits, ``a2`` also singular. What a
step needs beyond the tokens is computed the first time a step asks for it, once per answer
or reference: most answers are decided before it is needed.

>>> dates("born 15 sep 1996 and in march 2001".split())
[(1996, 9, 15), (2001, 3, None)]
>>> ReferenceForms.of("Karen Sheila Gillan").person
(('karen', 'sheila'), 'gillan')
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cached_property

from .forms import (
    ANSWER,
    ANSWER_NUMBERS,
    ANSWER_STEMS,
    fold_accents,
    repair_mojibake,
)

__all__ = ["AnswerForms", "ReferenceForms", "STOP", "NEGATION_GUARD_CUES", "contains", "content",
           "dates", "is_year", "quantities", "glued_to", "surface", "value", "UNITS", "units",
           "bad_day", "stated", "NICKNAMES", "DESIGNATORS", "HONORIFICS", "MONTHS", "PREPOSITIONS",
           "SCALE", "SUFFIXES"]

STOP = frozenset(
    "a an the of in on at to for by and or is was were be been are as with from that this it "
    "its his her their which who whom whose what when where why how into during about than"
    .split())
"""Words that carry no content of their own (a reference's content is its other tokens)."""
HONORIFICS = frozenset(
    "sir dame dr mr mrs ms miss saint st lord lady president general captain".split())
"""Titles before a name, never part of it (a royal title is kept: "King" is a surname too)."""
NOT_PEOPLE = frozenset(
    "ocean sea river lake bay gulf island islands mountain mountains valley desert canal "
    "stadium city county province district state states republic kingdom empire union "
    "university college school church cathedral park street road bridge hall palace castle "
    "tower museum library hospital airport station center centre company corporation club "
    "party army navy war battle act award awards cup league festival records band".split())
"""Words that make a capitalized reference a place or a body, not a person."""
DESIGNATORS = frozenset(
    "state province county city town mountain range river lake island sea ocean desert "
    "valley region district peninsula".split())
"""Words (as stems) that say what kind of place a name is: a name without them names the
same place ("Lagos" for "Lagos State", "Caucasus" for "the Caucasus Mountains"), which
cascade 3's part step reads."""
NOT_FIRST = frozenset("north south east west new upper lower great united central the".split())
"""First words that make a capitalized reference a place ("North Korea", "New York")."""
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "2", "3", "4"})
_SHORT_FORMS = {
    "william": "bill billy will willy liam", "robert": "bob bobby rob robbie bert",
    "james": "jim jimmy jamie", "john": "jack johnny", "richard": "dick rick ricky rich",
    "edward": "ed eddie ted teddy ned", "thomas": "tom tommy", "michael": "mike mikey mick",
    "charles": "charlie chuck chas", "joseph": "joe joey", "daniel": "dan danny",
    "david": "dave davy", "anthony": "tony", "henry": "harry hank", "lawrence": "larry",
    "peter": "pete", "samuel": "sam sammy", "benjamin": "ben benny", "alexander": "alex",
    "frederick": "fred freddie", "francis": "frank frankie", "gerald": "jerry",
    "leonard": "len lenny leo", "nicholas": "nick nicky", "patrick": "pat paddy",
    "raymond": "ray", "ronald": "ron ronnie", "donald": "don donnie", "douglas": "doug",
    "stephen": "steve stevie", "steven": "steve stevie", "timothy": "tim timmy",
    "walter": "walt wally", "zachary": "zach zack", "andrew": "andy drew",
    "matthew": "matt", "christopher": "chris kit", "gregory": "greg", "kenneth": "ken kenny",
    "jonathan": "jon jonny", "philip": "phil", "terence": "terry", "vincent": "vince",
    "katherine": "kate katie kathy kat", "catherine": "cathy cate kate katie",
    "elizabeth": "liz lizzie beth betty betsy eliza", "margaret": "maggie meg peggy marge",
    "rebecca": "becky becca", "susan": "sue susie", "deborah": "debbie deb",
    "patricia": "patty pat trish", "jennifer": "jen jenny", "jessica": "jess jessie",
    "christine": "chris chrissy", "abigail": "abby gail", "victoria": "vicky tori",
    "dorothy": "dot dottie", "eleanor": "ellie nell nora", "barbara": "barb babs",
    "frances": "fran frankie", "alexandra": "alex sandra", "samantha": "sam",
    "theodore": "ted teddy theo", "albert": "al bert", "alfred": "alf fred",
}


def _formal_names(short_forms: dict[str, str]) -> dict[str, frozenset[str]]:
    names: dict[str, frozenset[str]] = {}
    for formal, shorts in short_forms.items():
        for name in (formal, *shorts.split()):
            names[name] = names.get(name, frozenset()) | {formal}
    return names


NICKNAMES = _formal_names(_SHORT_FORMS)
"""Each English given name of a shipped word list, formal or short, and the formal names it
may be ("jimmy": james; "chris": christopher or christine); cascade 3's name-part step reads
two given names as one when they may be the same ("Jimmy" for "James")."""
PARTICLES = frozenset({"de", "van", "von", "da", "del", "der", "la", "le", "bin", "ibn", "al"})
PREPOSITIONS = frozenset({"of", "in", "for", "on", "at", "by", "from", "with", "during", "to"})
NEGATION_GUARD_CUES = frozenset({"not", "no", "never", "nor", "neither", "without", "isnt",
                                 "wasnt", "arent", "werent", "doesnt", "didnt", "dont",
                                 "cannot", "cant"})
"""The ``answer`` tokens that, right before a reference found inside an answer, negate it for
the ``negation`` guard of the ``equivalent`` rule ("not Paris", "isn't Paris";
:func:`~recallscore_nb.core.equivalence.checks.negation_cue`). The ``denial`` guard reads
these and two more (:data:`~recallscore_nb.core.equivalence.hedges.DENIALS`, a few tokens
before, "except Paris"). A scoring schema's negation is another thing, with its own default
cues (:data:`~recallscore_nb.core.schema.DEFAULT_NEGATION_CUES`: four, a scope of tokens
after them, written into the checklist's signature and chosen in the schema file); neither
list follows the other."""
MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december"
    .split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())} | {"sept": 9})
SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "lakh": 1e5,
         "crore": 1e7}
APPROXIMATE = frozenset({"about", "around", "approximately", "nearly", "roughly", "almost",
                         "circa", "c", "estimated", "some", "approx"})
UNIT_WORDS = frozenset({"year", "kilometer", "mile", "foot", "inch", "pound", "kilogram",
                        "hour", "minute", "second", "meter", "centimeter", "millimeter",
                        "percent", "dollar", "euro", "rupee", "yen", "mph", "degree",
                        "celsius", "fahrenheit", "c", "f", "h", "s", "m", "g", "l", "kph",
                        "mg", "ml", "gb", "mb"})
UNITS = {
    **dict.fromkeys(("kilometer", "kilometre", "km"), "km"), **dict.fromkeys(("mile", "mi"),
                                                                            "mile"),
    **dict.fromkeys(("meter", "metre"), "m"), **dict.fromkeys(("centimeter", "centimetre",
                                                                "cm"), "cm"),
    **dict.fromkeys(("millimeter", "millimetre", "mm"), "mm"),
    **dict.fromkeys(("foot", "feet", "ft"), "ft"), "inch": "inch",
    **dict.fromkeys(("yard", "yd"), "yard"), **dict.fromkeys(("kilogram", "kg"), "kg"),
    "gram": "g", **dict.fromkeys(("pound", "lb", "lbs"), "lb"),
    **dict.fromkeys(("ounce", "oz"), "oz"), **dict.fromkeys(("ton", "tonne"), "t"),
    "celsius": "degree c", "fahrenheit": "degree f", "kelvin": "kelvin",
    **dict.fromkeys(("liter", "litre"), "l"), "gallon": "gallon",
    **dict.fromkeys(("milliliter", "millilitre", "ml"), "ml"), "pint": "pint", "mph": "mph",
    "kph": "kph", "knot": "knot", "dollar": "dollar", "euro": "euro", "rupee": "rupee",
    "yen": "yen", "year": "year", "month": "month", "week": "week", "day": "day",
    "hour": "hour", "minute": "minute", "decade": "decade", "century": "century",
    "percent": "percent"}
"""Unit words (as :data:`~recallscore_nb.core.equivalence.forms.ANSWER_STEMS` writes them)
and the unit each names: "8,850 km" and "8,850 miles" say different things."""


def units(tokens: list[str]) -> frozenset[str]:
    """The units the tokens name (:data:`UNITS`; "degree c" and "degree f" told apart).

    >>> sorted(units("100 degree c or 212 degree f".split())), units("8850 mile".split())
    (['degree c', 'degree f'], frozenset({'mile'}))
    """
    out = {UNITS[t] for t in tokens if t in UNITS}
    out |= {f"degree {b}" for a, b in zip(tokens, tokens[1:]) if a == "degree" and b in ("c", "f", "k")}
    return frozenset(out)


RANGE_WORDS = frozenset({"to", "until", "through"})
_YEAR = re.compile(r"1[0-9]{3}|20[0-9]{2}")
_DAY = re.compile(r"[0-9]{1,2}")


def is_year(token: str) -> bool:
    """Whether the token is a year :func:`dates` reads (1000 to 2099)."""
    return _YEAR.fullmatch(token) is not None


def contains(tokens: list[str], phrase: list[str]) -> bool:
    """Whether ``phrase`` occurs in ``tokens`` as consecutive whole tokens."""
    k = len(phrase)
    if not k:
        return False
    first = phrase[0]
    return any(tokens[i:i + k] == phrase for i, t in enumerate(tokens[:len(tokens) - k + 1])
               if t == first)


def content(tokens: list[str]) -> list[str]:
    """The tokens that are not :data:`STOP` words."""
    return [t for t in tokens if t not in STOP]


def surface(raw: str) -> str:
    """Text with mojibake repaired and accents folded, its case and punctuation kept."""
    return fold_accents(repair_mojibake(raw))


def _stems(text: str) -> list[str]:
    return ANSWER_STEMS(text).split()


# --- dates and quantities --------------------------------------------------------------------
def _day(token: str) -> int | None:
    return int(token) if _DAY.fullmatch(token) and 1 <= int(token) <= 31 else None


def bad_day(tokens: list[str]) -> bool:
    """Whether a month is written beside a number that is no day of it nor a year ("May
    310, 2012", "80 September 2010").

    >>> bad_day("may 310 2012".split()), bad_day("may 31 2012".split())
    (True, False)
    """
    for i, token in enumerate(tokens):
        if token not in MONTHS:
            continue
        for near in tokens[max(0, i - 1):i] + tokens[i + 1:i + 2]:
            if near.isdigit() and not _YEAR.fullmatch(near) and _day(near) is None:
                return True
    return False


def dates(tokens: list[str]) -> list[tuple]:
    """(year, month or None, day or None) of each year in ``tokens`` (numbers as digits):
    "september 15 1996", "15 september 1996", "september 1996", "1996"."""
    out = []
    for i, token in enumerate(tokens):
        if not _YEAR.fullmatch(token):
            continue
        month = day = None
        if i >= 2 and tokens[i - 2] in MONTHS and _day(tokens[i - 1]):
            month, day = MONTHS[tokens[i - 2]], _day(tokens[i - 1])
        elif i >= 2 and tokens[i - 1] in MONTHS and _day(tokens[i - 2]):
            month, day = MONTHS[tokens[i - 1]], _day(tokens[i - 2])
        elif i >= 1 and tokens[i - 1] in MONTHS:
            month = MONTHS[tokens[i - 1]]
        out.append((int(token), month, day))
    return out


def value(token: str) -> float | None:
    """The number a token writes, or None."""
    if not token[:1].isdigit():
        return None
    try:
        return float(token)
    except ValueError:
        return None


def _scale(tokens: list[str], j: int) -> tuple[float, int]:
    if j < len(tokens) and tokens[j] in SCALE:
        return SCALE[tokens[j]], j + 1
    return 1.0, j


def quantities(tokens: list[str]) -> list[tuple]:
    """(low, high, approximate, scaled) of each number in tokens, a scale word applied; an
    explicit range ("50 to 90 million") is one quantity.

    >>> quantities("about 2.45 billion and 50 to 90 million".split())
    [(2450000000.0, 2450000000.0, True, True), (50000000.0, 90000000.0, False, True)]
    """
    out, i = [], 0
    while i < len(tokens):
        number = value(tokens[i])
        if number is None:
            i += 1
            continue
        scale, j = _scale(tokens, i + 1)
        low = high = number * scale
        approximate = i > 0 and tokens[i - 1] in APPROXIMATE
        scaled = scale != 1.0 or "." in tokens[i]
        upper = value(tokens[j + 1]) if j + 1 < len(tokens) and tokens[j] in RANGE_WORDS \
            else None
        if upper is not None:
            scale2, k = _scale(tokens, j + 2)
            if scale == 1.0 and scale2 != 1.0:
                low = number * scale2
            high, scaled, j = upper * (scale2 if scale2 != 1.0 else scale), \
                scaled or scale2 != 1.0, k
        out.append((low, high, approximate, scaled))
        i = j
    return out


_WRITTEN = re.compile(r"\d+(?:\.\d+)?")


def stated(tokens: list[str]) -> list[tuple[Fraction, Fraction]]:
    """(value, unit) of each number written in digits in ``tokens``, exactly, a scale word
    applied: the unit is the place of its last digit ("62.3 million": 62,300,000, to the
    100,000). The precision the number states, for :func:`~recallscore_nb.core.equivalence.
    checks.within_precision`.

    >>> stated("about 62.3 million and 4".split())
    [(Fraction(62300000, 1), Fraction(100000, 1)), (Fraction(4, 1), Fraction(1, 1))]
    """
    out = []
    for i, token in enumerate(tokens):
        if not _WRITTEN.fullmatch(token):
            continue
        scale = Fraction(SCALE[tokens[i + 1]]) if i + 1 < len(tokens) and \
            tokens[i + 1] in SCALE else Fraction(1)
        places = len(token.partition(".")[2])
        out.append((Fraction(token) * scale, Fraction(1, 10 ** places) * scale))
    return out


# --- an answer --------------------------------------------------------------------------------
class AnswerForms:
    """An answer's tokens (``a0``, ``a1``, ``a2``), their sets, and what is read of them on
    demand."""

    def __init__(self, a0: list[str], a1: list[str], a2: list[str]) -> None:
        self.a0, self.a1, self.a2 = a0, a1, a2
        self.s0, self.s1, self.s2 = set(a0), set(a1), set(a2)

    @classmethod
    def of(cls, raw: str) -> AnswerForms:
        return cls(ANSWER(raw).split(), ANSWER_NUMBERS(raw).split(), ANSWER_STEMS(raw).split())

    @cached_property
    def text0(self) -> str:
        """``a0`` as one string, a space before and after each token."""
        return f" {' '.join(self.a0)} "

    @cached_property
    def text1(self) -> str:
        """``a1`` as one string, a space before and after each token."""
        return f" {' '.join(self.a1)} "

    @cached_property
    def dates(self) -> list[tuple]:
        return dates(self.a1)

    @cached_property
    def numbers(self) -> list[float]:
        """The single numbers of the answer (ranges aside), a scale word applied."""
        return [low for low, high, _, _ in quantities(self.a1) if low == high]

    @cached_property
    def content2(self) -> list[str]:
        return content(self.a2)

    @cached_property
    def stated(self) -> list[tuple[Fraction, Fraction]]:
        """Each number of ``a1`` with the precision it states (:func:`stated`)."""
        return stated(self.a1)

    @cached_property
    def words_by_length(self) -> dict[int, list[str]]:
        """The distinct tokens of ``a1`` that are no number, by length."""
        out: dict[int, list[str]] = {}
        for token in self.s1:
            if not token.isdigit():
                out.setdefault(len(token), []).append(token)
        return out


# --- a reference ------------------------------------------------------------------------------
class ReferenceForms:
    """A reference's tokens under the three normalizers (``raw``: as written), and what the
    steps read of it, each computed once when first asked for."""

    def __init__(self, raw: str, a0: list[str], a1: list[str], a2: list[str]) -> None:
        self.raw, self.a0, self.a1, self.a2 = raw, a0, a1, a2

    @classmethod
    def of(cls, raw: str) -> ReferenceForms:
        return cls(raw, ANSWER(raw).split(), ANSWER_NUMBERS(raw).split(),
                   ANSWER_STEMS(raw).split())

    @cached_property
    def dates(self) -> list[tuple]:
        return dates(self.a1)

    @cached_property
    def quantities(self) -> list[tuple]:
        return quantities(self.a1)

    @cached_property
    def stated(self) -> list[tuple[Fraction, Fraction]]:
        """Each number of ``a1`` with the precision it states (:func:`stated`)."""
        return stated(self.a1)

    @cached_property
    def only_quantities(self) -> bool:
        """Whether the reference says nothing but quantities (numbers, scale and unit words,
        stop words, "about")."""
        return bool(self.quantities) and all(
            value(t) is not None or t in STOP or t in SCALE or t in APPROXIMATE
            or t in UNIT_WORDS or t in RANGE_WORDS for t in self.a1)

    @cached_property
    def content2(self) -> list[str]:
        return content(self.a2)

    @cached_property
    def numbers2(self) -> list[str]:
        return [t for t in self.a2 if any(ch.isdigit() for ch in t)]

    @cached_property
    def person(self) -> tuple | None:
        """(given names and nicknames, last name) when the reference reads as a person's
        name: two to five capitalized words (particles aside), no digit, no comma; None
        otherwise."""
        return _person(self.raw, self.a0)

    @cached_property
    def named(self) -> tuple | None:
        """:attr:`person`, or, for a name whose given name is only quoted ("\"Kate\"
        Mulgrew"), the name the quoted word gives: what cascade 3's name-part step reads."""
        if self.person is not None or '"' not in self.raw:
            return self.person
        unquoted = self.raw.replace('"', " ")
        return _person(unquoted, ANSWER(unquoted).split())

    @cached_property
    def components(self) -> list[str]:
        """The reference cut at , ; ( ) /."""
        return [c for c in re.split(r",|;|\(|\)|/", self.raw) if c.strip()]

    @cached_property
    def sides(self) -> list[list[str]]:
        """The content tokens of each side of a reference that is alternatives joined by
        "or" ("physical layer or layer 1"); none when it has no "or"."""
        parts = re.split(r"\s+or\s+", surface(self.raw), flags=re.I)
        return [content(_stems(p)) for p in parts] if len(parts) > 1 else []

    @cached_property
    def component_stems(self) -> list[list[str]]:
        """The ``answer+stems`` tokens of each component (each read by several parts)."""
        return [_stems(c) for c in self.components]

    @cached_property
    def component_runs(self) -> list[list[str]]:
        """The content tokens of every run of consecutive components but the whole ("Dodger
        Stadium" and "Los Angeles" of "Dodger Stadium, Los Angeles")."""
        parts = [content(stems) for stems in self.component_stems]
        return [sum(parts[i:j], []) for i in range(len(parts))
                for j in range(i + 1, len(parts) + 1) if j - i < len(parts)]

    @cached_property
    def segments(self) -> list[list[str]]:
        """The components cut again before prepositions, as content tokens."""
        out = []
        for stems in self.component_stems:
            current: list[str] = []
            for token in stems:
                if token in PREPOSITIONS and current:
                    out.append(content(current))
                    current = []
                elif token not in PREPOSITIONS:
                    current.append(token)
            if current:
                out.append(content(current))
        return [s for s in out if s]

    @cached_property
    def names(self) -> list[list[str]]:
        """The content tokens of each run of consecutive capitalized words (a name): "North
        Korea" and "Carl Linnaeus" of "North Korea's Carl Linnaeus"."""
        runs, current = [], []
        for word in re.findall(r"[\w'\-.]+", surface(self.raw)):
            if word[:1].isupper():
                current.append(word)
                continue
            runs, current = runs + [current] if current else runs, []
        runs += [current] if current else []
        return [c for c in (content(_stems(" ".join(run))) for run in runs) if c]

    @cached_property
    def capital_runs(self) -> list[tuple[list[str], list[str]]]:
        """Per component: (its capitalized words' tokens, its content tokens)."""
        out = []
        for component, stems in zip(self.components, self.component_stems):
            words = re.findall(r"[\w'\-]+", surface(component))
            if words and words[0].lower() in ("the", "a", "an"):
                words = words[1:]
            capitals = " ".join(w for w in words if w[:1].isupper())
            out.append((_stems(capitals), content(stems)))
        return out


_GLUE = frozenset(("", "in", "on", "at", "to", "of", "by", "for", "and", "or", "is", "was",
                   "the", "from", "with", "as", "into", "are", "were"))


def glued_to(token: str, word: str) -> bool:
    """Whether ``token`` is ``word`` with a short word glued before it, after it, or both
    ("inparis", "parisin"), or ``word`` itself.

    >>> glued_to("cellaornaos", "cella"), glued_to("nelsonin", "nelson"), glued_to("x", "x")
    (False, True, True)
    """
    at = token.find(word)
    while at >= 0:
        if token[:at] in _GLUE and token[at + len(word):] in _GLUE:
            return True
        at = token.find(word, at + 1)
    return False


def _person(raw: str, a0: list[str]) -> tuple | None:
    """:attr:`ReferenceForms.person` of ``raw``, whose ``answer`` tokens are ``a0``."""
    if "," in raw or any(ch.isdigit() for ch in raw):
        return None
    words = re.sub(r'"[^"]*"', " ", surface(raw)).replace(".", ". ").split()
    words = [w for w in words if w.lower().strip(".,") not in HONORIFICS]
    if not 2 <= len(words) <= 5 or sum(w[:1].isupper() for w in words) < 2:
        return None
    lowered = [w.lower().strip(".,") for w in words]
    if lowered[0] in NOT_FIRST or NOT_PEOPLE.intersection(lowered):
        return None
    if not all(w[:1].isupper() or w.lower() in PARTICLES for w in words):
        return None
    nicknames = [t for n in re.findall(r'"([^"]+)"', raw) for t in ANSWER(n).split()]
    unquoted = re.sub(r'"[^"]*"', " ", raw)
    names = [t for t in (ANSWER(unquoted).split() if unquoted != raw else a0)
             if t not in HONORIFICS and t not in SUFFIXES]
    if len(names) < 2:
        return None
    return tuple(names[:-1] + nicknames), names[-1]
