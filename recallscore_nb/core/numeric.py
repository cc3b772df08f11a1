"""Numbers in attempts and terms: found, converted to a base unit, and compared as numbers.

Pure computation, no file I/O. A scoring schema's numeric terms are not matched as tokens
but as values, because the seed normalization mangles numbers (``3.5`` becomes ``35``,
``-5`` becomes ``5``). The number tokenizer runs on the lowercased original text, before
any punctuation is removed, and reads:

- numerals: ``1000``, ``1,000`` (groups of three digits only), ``3.50``, ``.5``, ``-5``
  (a sign directly before the digits, not after a letter or digit); a numeral glued to
  letters (``5th``, ``r2d2``) or to further digits (``3.5.2``, ``1,00``) is not a number;
- number words: zero to twenty, hundred, thousand, million (:data:`CARDINALS`,
  :data:`SCALES`; not the tens from thirty, :data:`TENS`), joined by spaces, hyphens or
  ``and`` (``one thousand``, ``twenty-one``, ``one hundred and five``), and a numeral with a
  scale word (``1.5 million``); a run that does not read as one number is several
  (``one two`` is 1 and 2);
- a suffix: ``%``, ``percent`` or ``per cent``, or a unit of the policy's table, with or
  without a space (``5km``, ``5 km``).

Values are exact decimals, converted to the base unit through the table (``5 km`` is
``5000 m`` when the table says ``"km": ["m", 1000]``). A percentage is a value in unit
``%`` unless the policy reads percentages as fractions, when ``12%`` is ``0.12``. Two
numbers are equal when their units agree and they differ by at most
``max(abs_tol, rel_tol * max(|a|, |b|))`` (both bounds inclusive); a number without a
unit never equals one with a unit. Unknown units are not read: ``5 kg`` without ``kg`` in
the table is the plain number 5.

Each conversion applied is kept as a short text, for the match basis.

>>> [(n.text, n.value, n.unit) for n in find_numbers("Add 1,000 g or -3.5 km.", NumericPolicy(
...     units={"km": ("m", 1000)}))]
[('1,000', 1000.0, ''), ('-3.5 km', -3500.0, 'm')]
>>> numbers_equal(parse_number_term("one thousand", None), parse_number_term("1,000", None),
...               None)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

__all__ = [
    "NumericPolicy",
    "NumberTerm",
    "FoundNumber",
    "parse_number_term",
    "find_numbers",
    "numbers_equal",
    "CARDINALS",
    "TENS",
    "SCALES",
    "number_word_values",
]


@dataclass(frozen=True)
class NumericPolicy:
    """How numbers are compared: tolerances, percentages and the unit table.

    ``units`` maps a unit to ``(base unit, factor)``: one unit is ``factor`` base units.
    Base units are read too (factor 1). Unit names are matched lowercased.
    """

    abs_tol: float = 0.0
    rel_tol: float = 0.0
    percent_as_fraction: bool = False
    units: dict[str, tuple[str, float]] = field(default_factory=dict)

    def fields(self) -> str:
        """The tolerances and percent policy as the signature shows them: ``abs0,rel0,pct-no``."""
        pct = "yes" if self.percent_as_fraction else "no"
        return f"abs{self.abs_tol:g},rel{self.rel_tol:g},pct-{pct}"


_DEFAULT_POLICY = NumericPolicy()


@dataclass(frozen=True)
class NumberTerm:
    """A number read from a term: its value in the base unit and how it got there.

    ``unit`` is the base unit, ``"%"`` for a percentage kept as such, or ``""``; ``exact``
    is the value as an exact decimal (comparisons use it; ``value`` is its float).
    """

    text: str
    value: float
    unit: str
    conversions: tuple[str, ...]
    exact: Decimal = field(repr=False, compare=True)


@dataclass(frozen=True)
class FoundNumber(NumberTerm):
    """A number found in a text; ``span`` is its ``(start, end)`` in that text, ``text``
    the characters there (suffix included)."""

    span: tuple[int, int] = (0, 0)


# --- the number words ----------------------------------------------------------------------
CARDINALS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
"""The number words from zero to twenty, each with its value, for both readers of number
words in the package: the tokenizer here, in runs and with :data:`SCALES`, and the
``answer+numbers`` normalizer, a token at a time and with :data:`TENS`
(:func:`~recallscore_nb.core.equivalence.forms.number_token`)."""
TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
"""The tens from thirty to ninety. Only ``answer+numbers`` reads them, one token at a time
("thirty" as "30"); the tokenizer does not ("thirty-one" is the number 1 to it), as it never
has: a schema's statuses stay what they were."""
SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
"""The scale words the tokenizer reads, after a numeral ("1.5 million") or in a run of number
words ("one hundred and five"); ``answer+numbers`` leaves them as words."""


def number_word_values(*, tens: bool = False, scales: bool = False) -> dict[str, int]:
    """The number words a reader reads, each with its value: :data:`CARDINALS`, with ``tens``
    :data:`TENS` too, with ``scales`` :data:`SCALES` too. The tokenizer reads
    ``number_word_values(scales=True)``, ``answer+numbers`` ``number_word_values(tens=True)``.

    >>> words = number_word_values(tens=True)
    >>> words["twenty"], words["ninety"], "hundred" in words, len(number_word_values())
    (20, 90, False, 21)
    >>> number_word_values(scales=True)["million"]
    1000000
    """
    return {**CARDINALS, **(TENS if tens else {}), **(SCALES if scales else {})}


# --- the tokenizer -----------------------------------------------------------------------
_WORD = "(?:" + "|".join(sorted(number_word_values(scales=True), key=len, reverse=True)) + ")"
_NUMERAL = (
    r"(?P<sign>[-+\u2212])?"
    r"(?P<num>[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
)
_SCALE = rf"(?:[\s-]+(?P<scale>{'|'.join(SCALES)})\b)?"
_WORDS = rf"(?P<words>{_WORD}(?:[\s-]+(?:and[\s-]+)?{_WORD})*)\b"
_WORD_TOKEN = re.compile(r"[a-z]+")


@lru_cache(maxsize=64)
def _pattern(units: tuple[str, ...]) -> re.Pattern[str]:
    suffixes = [r"\s*(?P<pct>%|percent\b|per\s+cent\b)"]
    if units:
        names = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
        suffixes.append(rf"\s*(?P<unit>{names})(?!\w)")
    suffix = "(?:" + "|".join(suffixes) + ")?"
    body = rf"(?:{_NUMERAL}{_SCALE}|{_WORDS})"
    return re.compile(rf"(?<![\w.,]){body}{suffix}(?!\w)(?![.,][0-9])")


def _unit_table(policy: NumericPolicy) -> dict[str, tuple[str, Decimal]]:
    table = {name.lower(): (base.lower(), _decimal(factor))
             for name, (base, factor) in policy.units.items()}
    for base, _ in list(table.values()):
        table.setdefault(base, (base, Decimal(1)))
    return table


def _decimal(x: float | int | Decimal) -> Decimal:
    return x if isinstance(x, Decimal) else Decimal(repr(x) if isinstance(x, float) else x)


def _plain(d: Decimal) -> str:
    """A decimal without exponent or trailing zeros: ``Decimal("5.000E+3")`` is ``5000``."""
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "+0") else text


def _word_groups(words: list[str]) -> list[tuple[int, int, int]]:
    """Split a run of number words into numbers: ``(first word, last word, value)``."""
    groups = []
    i = 0
    while i < len(words):
        if words[i] == "and":
            i += 1
            continue
        total = current = 0
        last, prev_small, biggest = None, 0, None
        end = i
        j = i
        while j < len(words):
            word = words[j]
            if word == "and":
                follows = (j + 1 < len(words) and words[j + 1] in CARDINALS
                           and words[j + 1] != "zero")
                if last in ("hundred", "big") and follows:
                    j += 1
                    continue
                break
            if word == "zero":
                if last is None:
                    end, last = j, "zero"
                break
            if word in CARDINALS:
                value = CARDINALS[word]
                tens = last == "small" and prev_small == 20 and value < 10
                if not (last in (None, "hundred", "big") or tens):
                    break
                current += value
                last, prev_small = "small", value
            elif word == "hundred":
                if last not in (None, "small") or current >= 100:
                    break
                current = (current or 1) * 100
                last = "hundred"
            else:
                scale = SCALES[word]
                if last not in (None, "small", "hundred") or (biggest and scale >= biggest):
                    break
                total += (current or 1) * scale
                current, last, biggest = 0, "big", scale
            end = j
            j += 1
        groups.append((i, end, total + current))
        i = end + 1
    return groups


def _lowered(text: str) -> tuple[str, list[int] | None]:
    """The lowercased text and, when lowercasing changed its length, each character's origin."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered, None
    parts, origin = [], []
    for i, ch in enumerate(text):
        low = ch.lower()
        parts.append(low)
        origin.extend([i] * len(low))
    return "".join(parts), origin


def _scan(text: str, policy: NumericPolicy) -> list[FoundNumber]:
    table = _unit_table(policy)
    lowered, origin = _lowered(text)

    def span(start: int, end: int) -> tuple[int, int]:
        if origin is None:
            return start, end
        return origin[start], origin[end - 1] + 1

    found: list[FoundNumber] = []
    for match in _pattern(tuple(sorted(table))).finditer(lowered):
        pieces: list[tuple[int, int, Decimal, list[str]]] = []  # start, end, value, notes
        if match["num"] is not None:
            num = match["num"]
            value = Decimal(num.replace(",", ""))
            notes = []
            if "," in num:
                notes.append(f"thousands separators: {num} = {_plain(value)}")
            if match["sign"] in ("-", "\u2212"):
                value = -value
            if match["scale"]:
                scaled = value * SCALES[match["scale"]]
                notes.append(f"scale word: {_plain(value)} {match['scale']} = {_plain(scaled)}")
                value = scaled
            end = match.end("scale") if match["scale"] else match.end("num")
            pieces.append((match.start(), end, value, notes))
        else:
            tokens = list(_WORD_TOKEN.finditer(match["words"]))
            base = match.start("words")
            for first, last, value in _word_groups([t[0] for t in tokens]):
                start, end = base + tokens[first].start(), base + tokens[last].end()
                words = " ".join(t[0] for t in tokens[first:last + 1])
                pieces.append((start, end, Decimal(value),
                               [f"number words: {words} = {value}"]))
        *plain, (start, end, value, notes) = pieces
        for p_start, p_end, p_value, p_notes in plain:
            found.append(_number(text, span(p_start, p_end), p_value, "", p_notes))
        value, unit, notes = _suffix(match, value, notes, table, policy)
        found.append(_number(text, span(start, match.end()), value, unit, notes))
    return found


def _suffix(match, value: Decimal, notes: list[str], table, policy: NumericPolicy):
    groups = match.groupdict()
    if groups["pct"]:
        if policy.percent_as_fraction:
            fraction = value / 100
            note = f"percent as fraction: {_plain(value)}% = {_plain(fraction)}"
            return fraction, "", notes + [note]
        return value, "%", notes
    if groups.get("unit"):
        base, factor = table[match["unit"]]
        if match["unit"] == base:
            return value, base, notes
        converted = value * factor
        note = (f"unit: {_plain(value)} {match['unit']} = {_plain(converted)} {base} "
                f"(1 {match['unit']} = {_plain(factor)} {base})")
        return converted, base, notes + [note]
    return value, "", notes


def _number(text: str, span: tuple[int, int], value: Decimal, unit: str, notes) -> FoundNumber:
    return FoundNumber(text=text[span[0]:span[1]], value=float(value), unit=unit,
                       conversions=tuple(notes), exact=value, span=span)


# --- the public functions ----------------------------------------------------------------
def find_numbers(text: str, policy: NumericPolicy | None = None) -> list[FoundNumber]:
    """Every number in ``text``, in order, with its span in ``text`` (not the lowercased copy).

    >>> [(n.span, n.value) for n in find_numbers("Three coins, 12 tokens.")]
    [((0, 5), 3.0), ((13, 15), 12.0)]
    >>> find_numbers("3.5.2 or 5th") == []
    True
    """
    return _scan(text, policy or _DEFAULT_POLICY)


def parse_number_term(term: str, policy: NumericPolicy | None = None) -> NumberTerm | None:
    """The number a whole term spells (a numeral or number words, with an optional unit or
    %), or None when the term is not exactly one number.

    >>> parse_number_term("5 km", NumericPolicy(units={"km": ("m", 1000)})).value
    5000.0
    >>> parse_number_term("5 km", None) is None, parse_number_term("west", None) is None
    (True, True)
    """
    stripped = term.strip()
    numbers = _scan(stripped, policy or _DEFAULT_POLICY)
    if len(numbers) != 1 or numbers[0].span != (0, len(stripped)):
        return None
    n = numbers[0]
    return NumberTerm(text=term, value=n.value, unit=n.unit, conversions=n.conversions,
                      exact=n.exact)


def _as_pair(x) -> tuple[Decimal, str]:
    if isinstance(x, NumberTerm):
        return x.exact, x.unit
    if isinstance(x, (int, float, Decimal)) and not isinstance(x, bool):
        return _decimal(x), ""
    raise TypeError(f"expected a NumberTerm, FoundNumber or number (got {type(x).__name__})")


def numbers_equal(a, b, policy: NumericPolicy | None = None) -> bool:
    """Whether two numbers (terms, found numbers or plain numbers) are equal under ``policy``.

    >>> numbers_equal(10, 10.5, NumericPolicy(abs_tol=0.5)), numbers_equal(10, 10.51,
    ...     NumericPolicy(abs_tol=0.5))
    (True, False)
    """
    policy = policy or _DEFAULT_POLICY
    (x, unit_x), (y, unit_y) = _as_pair(a), _as_pair(b)
    if unit_x != unit_y:
        return False
    if x == y:
        return True
    bound = max(_decimal(policy.abs_tol), _decimal(policy.rel_tol) * max(abs(x), abs(y)))
    return abs(x - y) <= bound
