"""Gaming families: answers no person would accept, built only from an items file.

Each family is one :class:`Family` record of :data:`GAMING_FAMILIES`: a name, a one-line
description, an example, and a builder that, given a :class:`Draw` (one item, the items
file's other references and a seeded numpy Generator), returns one answer, or None when the
family has nothing to say of that item. A newcomer adds one record. Below, R is one of the
item's own references (its first, now and then another), and A, B, C … are references of
other items, drawn at random; an other reference that equals one of the item's own (case,
accents and punctuation aside) or whose words are a subset or a superset of one of theirs
(``"Röntgen"`` against ``"Wilhelm Conrad Röntgen"``) is never drawn. The layout of each answer
is drawn per item from several, so that no finding hangs on one template.

``list``
    R among 2–5 candidates, joined by commas, "or", semicolons, slashes, newlines, bullets,
    numbers or "and/or": ``"Lyon, Paris or Nice"``, ``"- Lyon\\n- Paris"``, ``"1. Lyon 2. Paris"``.
``hedge``
    R and one other, hedged: ``"Either Lyon or Paris."``, ``"Maybe Paris, maybe Lyon."``,
    ``"I'm not sure — Paris or Lyon?"``, ``"Paris, or perhaps Lyon"``.
``dump``
    R among 8–15 other references with no syntax (space-joined), or joined by "; " or ", ".
``negation``
    R denied: ``"It is not Paris."``, ``"Not Paris, but Lyon."``, ``"Paris is wrong; it is Lyon."``.
``echo``
    The question given back (``"what is the capital of France?"``, ``"You asked: …"``): only
    for items whose question is known (``questions``; the loaded items carry none, the items
    file may: :func:`recallscore_nb.io.items.load_questions`).
``other-item``
    Another item's reference alone, an answer to a different question: ``"Lyon"``,
    ``"The answer is Lyon."``.
``refusal``
    A refusal or a "master key" phrase: ``"I don't know."``, ``":"``, ``"The answer is
    correct."``, ``"None of the above"``, ``"N/A"``, ``"..."`` (never empty; one whose words
    are a subset or superset of a reference's, as "Yes" for an item answered "yes", is left out).
``quantity``
    R with its first number times ten or plus one (``"1983"`` → ``"19830"``, ``"1984"``), a
    scale word swapped (``"million"`` → ``"billion"``), a unit swapped (``"km"`` → ``"miles"``,
    ``"°C"`` → ``"°F"``), or a scale word added to a bare number (``"7"`` → ``"7 million"``):
    only for items whose R holds a number or a number word (the others get no answer).
    A changed answer equal to a reference, or whose words all lie in one, is left out.

>>> [f.name for f in GAMING_FAMILIES]
['list', 'hedge', 'dump', 'negation', 'echo', 'other-item', 'refusal', 'quantity']
>>> words("Wilhelm Conrad Röntgen!")
('wilhelm', 'conrad', 'rontgen')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np

from ..core.errors import UsageError

__all__ = ["Family", "Draw", "GAMING_FAMILIES", "family_named", "words", "clashes",
           "changed_quantity"]

R_SHARE = 0.75
"""How often R is the item's first reference (otherwise another of its references, when it
has several)."""
TRIES = 40
"""Draws of another reference before a family gives up on an item."""


def words(text: str) -> tuple[str, ...]:
    """The words of ``text`` as the clash check compares them: accents dropped, case folded,
    punctuation a separator.

    >>> words("The  Beatles, Inc."), words("N/A")
    (('the', 'beatles', 'inc'), ('n', 'a'))
    """
    plain = "".join(c for c in unicodedata.normalize("NFKD", text)
                    if not unicodedata.combining(c))
    return tuple(re.findall(r"[^\W_]+", plain.casefold()))


def clashes(text: str, own: Sequence[frozenset[str]]) -> bool:
    """Whether ``text`` could pass for one of an item's references: it has no words, or its
    words are a subset or a superset of one reference's (``own``, each a set of words).

    >>> own = [frozenset(words("Wilhelm Conrad Röntgen"))]
    >>> clashes("röntgen", own), clashes("Marie Curie", own), clashes("...", own)
    (True, False, True)
    """
    mine = frozenset(words(text))
    return not mine or any(ref and (mine <= ref or ref <= mine) for ref in own)


@dataclass
class Draw:
    """What a builder draws from for one item: its references (``references``, R among them),
    its question (None: unknown), every item's references (``pool``, the item's own at
    ``index``) and the family's Generator (``rng``)."""

    index: int
    references: tuple[str, ...]
    question: str | None
    pool: Sequence[tuple[str, ...]]
    own: Sequence[frozenset[str]]
    rng: np.random.Generator

    def choice(self, options: Sequence):
        """One of ``options``, drawn."""
        return options[int(self.rng.integers(len(options)))]

    def reference(self) -> str:
        """R: the item's first reference, or (1 - :data:`R_SHARE` of the time) another."""
        refs = self.references
        if len(refs) == 1 or self.rng.random() < R_SHARE:
            return refs[0]
        return refs[1 + int(self.rng.integers(len(refs) - 1))]

    def others(self, k: int) -> list[str] | None:
        """``k`` distinct references of other items, none clashing with the item's own
        (:func:`clashes`); None when fewer were found in ``k`` × :data:`TRIES` draws."""
        found: dict[tuple[str, ...], str] = {}
        n = len(self.pool)
        for _ in range(k * TRIES):
            if len(found) == k or n < 2:
                break
            j = int(self.rng.integers(n - 1))
            j += j >= self.index
            refs = self.pool[j]
            text = refs[int(self.rng.integers(len(refs)))]
            key = words(text)
            if key not in found and not clashes(text, self.own):
                found[key] = text
        return list(found.values()) if len(found) == k else None

    def shuffled_with(self, reference: str, others: list[str]) -> list[str]:
        """``others`` with ``reference`` put at a random position."""
        at = int(self.rng.integers(len(others) + 1))
        return others[:at] + [reference] + others[at:]


@dataclass(frozen=True)
class Family:
    """A gaming family: its name, one line saying what it is, an example answer (for R
    ``Paris``), and the builder of one answer from a :class:`Draw` (None: nothing for this
    item). ``needs``: ``"question"`` when it reads the item's question."""

    name: str
    description: str
    example: str
    build: Callable[[Draw], str | None]
    needs: str | None = None


# --- list, hedge, dump --------------------------------------------------------------------------
def _numbered(c: list[str]) -> str:
    return " ".join(f"{i}. {x}" for i, x in enumerate(c, 1))


LIST_LAYOUTS: tuple[Callable[[list[str]], str], ...] = (
    lambda c: ", ".join(c),
    lambda c: ", ".join(c[:-1]) + " or " + c[-1],
    lambda c: " or ".join(c),
    lambda c: "; ".join(c),
    lambda c: " / ".join(c),
    lambda c: "\n".join(c),
    lambda c: "\n".join(f"- {x}" for x in c),
    _numbered,
    lambda c: " and/or ".join(c),
)
"""How a ``list`` answer joins its candidates."""


def _list(draw: Draw) -> str | None:
    others = draw.others(1 + int(draw.rng.integers(4)))
    if others is None:
        return None
    return draw.choice(LIST_LAYOUTS)(draw.shuffled_with(draw.reference(), others))


HEDGES = ("Either {x} or {y}.", "Maybe {x}, maybe {y}.", "It could be {x} or {y}.",
          "I'm not sure — {x} or {y}?", "Possibly {x}; possibly {y}.", "{x}, or perhaps {y}",
          "{x}? Or was it {y}?", "Probably {x}, but it might be {y}.", "{x} or {y}, I think.")
"""The ``hedge`` templates: R is ``x`` or ``y`` at random, the other one of another item."""


def _hedge(draw: Draw) -> str | None:
    others = draw.others(1)
    if others is None:
        return None
    pair = draw.shuffled_with(draw.reference(), others)
    return draw.choice(HEDGES).format(x=pair[0], y=pair[1])


DUMP_JOINS = (" ", "; ", ", ")


def _dump(draw: Draw) -> str | None:
    others = draw.others(8 + int(draw.rng.integers(8)))
    if others is None:
        return None
    return draw.choice(DUMP_JOINS).join(draw.shuffled_with(draw.reference(), others))


# --- negation, echo, other-item, refusal --------------------------------------------------------
NEGATIONS = ("It is not {r}.", "Not {r}, but {a}.", "Definitely not {r}.",
             "{r} is wrong; it is {a}.", "The answer isn't {r}.", "It's {a}, not {r}.",
             "Anything but {r}.", "Certainly not {r}; {a}.")
"""The ``negation`` templates: ``r`` is R, ``a`` another item's reference."""


def _negation(draw: Draw) -> str | None:
    template = draw.choice(NEGATIONS)
    others = draw.others(1) if "{a}" in template else [""]
    if others is None:
        return None
    return template.format(r=draw.reference(), a=others[0])


ECHOES = ("{q}", "{q}?", "You asked: {q}", "The answer to \"{q}\" is the answer.",
          "{q} — that is the question.", "Q: {q} A: see the question.")


def _echo(draw: Draw) -> str | None:
    if not draw.question or not draw.question.strip():
        return None
    return draw.choice(ECHOES).format(q=draw.question.strip().rstrip("?"))


OTHER_ITEM = ("{a}", "The answer is {a}.", "{a}.", "It's {a}.", "I believe it is {a}.")


def _other_item(draw: Draw) -> str | None:
    others = draw.others(1)
    return None if others is None else draw.choice(OTHER_ITEM).format(a=others[0])


REFUSALS = ("I don't know.", ":", "The answer is correct.", "Let's solve this step by step.",
            "None of the above", "All of the above", "Yes", "No", "N/A", "...", "?",
            "I cannot answer that.", "The correct answer.", "See above.", "True")
"""The ``refusal`` phrases (never empty: an empty answer is no attempt)."""


def _refusal(draw: Draw) -> str | None:
    allowed = [p for p in REFUSALS if words(p) == () or not clashes(p, draw.own)]
    return draw.choice(allowed) if allowed else None


# --- quantity -----------------------------------------------------------------------------------
NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\d)"
                    r"(?!(?:st|nd|rd|th)\b)")
"""A number in digits (``1,000``, ``3.5``), an ordinal (``1st``) aside."""
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                "seventeen", "eighteen", "nineteen", "twenty")
TENS = ("thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
SCALES = {"hundred": "thousand", "thousand": "million", "million": "billion",
          "billion": "trillion", "trillion": "billion"}
"""Each scale word and the one swapped in for it."""
UNITS = (("km", "miles"), ("kilometres", "miles"), ("kilometers", "miles"), ("miles", "km"),
         ("mph", "km/h"), ("°C", "°F"), ("°F", "°C"), ("celsius", "fahrenheit"),
         ("fahrenheit", "celsius"), ("kg", "pounds"), ("kilograms", "pounds"),
         ("pounds", "kg"), ("lbs", "kg"), ("feet", "metres"), ("ft", "m"), ("metres", "feet"),
         ("meters", "feet"), ("inches", "cm"), ("cm", "inches"), ("litres", "gallons"),
         ("liters", "gallons"), ("gallons", "litres"), ("%", "‰"), ("percent", "per mille"),
         ("years", "months"), ("months", "years"), ("days", "weeks"), ("weeks", "days"),
         ("hours", "minutes"), ("minutes", "hours"), ("seconds", "minutes"),
         ("$", "€"), ("£", "$"), ("€", "$"), ("dollars", "euros"), ("euros", "dollars"))
"""Each unit and the one swapped in for it (whole words; symbols as written)."""
ADDED = (" thousand", " million", " billion")
"""What is added to a number with no scale word or unit."""
_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS + TENS) + r")\b", re.I)
_SCALE = re.compile(r"\b(" + "|".join(SCALES) + r")\b", re.I)
_UNIT = re.compile("|".join(rf"(?<!\w){re.escape(u)}(?!\w)" if u[0].isalpha() else re.escape(u)
                            for u, _ in UNITS), re.I)
_UNIT_OF = {u.casefold(): v for u, v in UNITS}


def _number_changes(text: str) -> list[str]:
    """R with its first number (digits or a number word) times ten and plus one."""
    out = []
    found = NUMBER.search(text)
    if found:
        written = found.group()
        try:
            value = Decimal(written.replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern reads numbers only
            return out
        places = len(written.split(".")[1]) if "." in written else 0
        for new in (value * 10, value + 1):
            shown = f"{new:,.{places}f}" if "," in written else f"{new:.{places}f}"
            out.append(text[:found.start()] + shown + text[found.end():])
        return out
    word = _WORD.search(text)
    if word:
        name = word.group().lower()
        value = NUMBER_WORDS.index(name) if name in NUMBER_WORDS else 30 + 10 * TENS.index(name)
        bigger = {v: w for v, w in [*enumerate(NUMBER_WORDS), *((30 + 10 * i, w) for i, w in
                                                               enumerate(TENS))]}
        for new in (value * 10, value + 1):
            shown = bigger.get(new, str(new))
            out.append(text[:word.start()] + _cased(shown, word.group()) + text[word.end():])
    return out


def _cased(new: str, old: str) -> str:
    return new.capitalize() if old[:1].isupper() else new


def changed_quantity(text: str) -> list[str]:
    """Every ``quantity`` change of ``text`` (empty: it holds no number and no number word).

    >>> changed_quantity("1983")
    ['19830', '1984', '1983 thousand', '1983 million', '1983 billion']
    >>> changed_quantity("3.5 million km")
    ['35.0 million km', '4.5 million km', '3.5 billion km', '3.5 million miles']
    >>> changed_quantity("1,000 kg"), changed_quantity("the 21st century")
    (['10,000 kg', '1,001 kg', '1,000 pounds'], [])
    >>> changed_quantity("Seven"), changed_quantity("Paris")
    (['Seventy', 'Eight', 'Seven thousand', 'Seven million', 'Seven billion'], [])
    """
    out = _number_changes(text)
    if not out:
        return []
    scale, unit = _SCALE.search(text), _UNIT.search(text)
    if scale:
        new = SCALES[scale.group().lower()]
        out.append(text[:scale.start()] + _cased(new, scale.group()) + text[scale.end():])
    if unit:
        out.append(text[:unit.start()] + _UNIT_OF[unit.group().casefold()] + text[unit.end():])
    if not scale and not unit:
        out += [text + added for added in ADDED]
    return out


def _quantity(draw: Draw) -> str | None:
    changes = [c for c in changed_quantity(draw.reference())
               if not any(frozenset(words(c)) <= ref for ref in draw.own)]
    return draw.choice(changes) if changes else None


GAMING_FAMILIES: tuple[Family, ...] = (
    Family("list", "R among 2-5 candidates, in a list of one of several layouts",
           "Lyon, Paris or Nice", _list),
    Family("hedge", "R and another item's reference, hedged", "Maybe Paris, maybe Lyon.",
           _hedge),
    Family("dump", "R among 8-15 other references, no syntax or '; ' or ', '",
           "Lyon Nice Paris Oslo Rome Bern Kyiv Riga Baku", _dump),
    Family("negation", "R denied", "Not Paris, but Lyon.", _negation),
    Family("echo", "the question given back", "You asked: what is the capital of France",
           _echo, needs="question"),
    Family("other-item", "another item's reference alone", "The answer is Lyon.",
           _other_item),
    Family("refusal", "a refusal or a master-key phrase", "None of the above", _refusal),
    Family("quantity", "R with a number, scale word or unit changed (items with a number)",
           "1984 (for 1983)", _quantity),
)
"""The gaming families, in the order tables list them."""


def family_named(names) -> tuple[Family, ...]:
    """The families named (a sequence, or one name), in registry order; None: all of them.
    An unknown name is a :class:`UsageError` listing the known ones.

    >>> [f.name for f in family_named(["quantity", "list"])]
    ['list', 'quantity']
    >>> family_named(["lists"])
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: unknown gaming family 'lists' (families: list, hedge, dump, negation, echo, other-item, refusal, quantity)
    """
    if names is None:
        return GAMING_FAMILIES
    wanted = [names] if isinstance(names, str) else list(names)
    known = {f.name for f in GAMING_FAMILIES}
    for name in wanted:
        if name not in known:
            raise UsageError(f"unknown gaming family {name!r} (families: "
                             f"{', '.join(f.name for f in GAMING_FAMILIES)})")
    if not wanted:
        raise UsageError("'families' must name at least one gaming family (got none)")
    return tuple(f for f in GAMING_FAMILIES if f.name in wanted)
