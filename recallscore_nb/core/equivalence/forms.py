"""The normalization of free-text answers the ``equivalent`` rule compares under: registered
steps for the surface forms people read past, and three normalizers built of them.

- ``answer``: mojibake repaired, NFKC, accents folded, curly quotes, dashes and spaces made
  ASCII, footnote markers dropped ("Gillan1." as "Gillan."), words glued to a link separated
  ("byWaylon" as "by Waylon"), lowercase, possessives dropped, symbols spelt (``& % $ €``),
  numerals plain (thousands separators dropped, "10-12" as "10 to 12"), ASCII punctuation as
  spaces (a decimal point kept), articles dropped, whitespace collapsed;
- ``answer+numbers``: then each token's number as digits (words, ordinals, Roman numerals
  from II) and units in one spelling;
- ``answer+stems``: then each token in the singular.

The first is computed by a vectorized kernel over Arrow (the rows it cannot do exactly, such
as text still non-ASCII once typography is made ASCII, take the Python steps); the other two
map the distinct tokens of the first. Every step is a plain function of one string, tested
alone; the kernel is held to the steps row by row.

>>> ANSWER("The band’s “hit” was written byWaylon Jennings1.")
'band hit was written by waylon jennings'
>>> ANSWER_NUMBERS("Three seasons, 1,250 km")
'3 seasons 1250 kilometer'
>>> ANSWER_STEMS("Three seasons, 1,250 km")
'3 season 1250 kilometer'
"""

from __future__ import annotations

import re
import string
import unicodedata

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..normalize import (
    KERNELS,
    Kernel,
    Normalizer,
    collapse_spaces,
    from_buffers,
    nfkc,
    register_normalizer,
    register_step,
    replace_rows,
    string_buffers,
)
from ..numeric import number_word_values

__all__ = ["ANSWER", "ANSWER_NUMBERS", "ANSWER_STEMS", "NUMBER_WORDS", "repair_mojibake",
           "drop_superscripts", "fold_accents", "ascii_typography", "drop_footnotes",
           "separate_glued_words", "drop_possessives", "spell_symbols", "plain_numerals",
           "punctuation_spaces", "number_words", "singular"]


# --- the steps, each on one string ---------------------------------------------------------
_CONTINUATION = ("\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
                 "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122")
"""What a UTF-8 continuation byte shows as in cp1252 or Latin-1."""
_MOJIBAKE = re.compile(f"[\u00c2\u00c3\u00e2][{_CONTINUATION}]{{1,2}}")
"""A UTF-8 sequence of two or three bytes read as cp1252 or Latin-1 (Ã¡ for á, â€“ for –)."""


def repair_mojibake(text: str) -> str:
    """UTF-8 text that was read as cp1252 or Latin-1, read again as UTF-8, each garbled
    sequence on its own (a correctly written accent elsewhere in the text stays).

    >>> repair_mojibake("DÃ¡in, 10â€“12 years, Röntgen")
    'Dáin, 10–12 years, Röntgen'
    """
    return _MOJIBAKE.sub(_repaired, text) if _MOJIBAKE.search(text) else text


def _repaired(match: re.Match) -> str:
    for codec in ("cp1252", "latin-1"):
        try:
            return match.group().encode(codec).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
    return match.group()


_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
_SPACES = ("\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f"
           "\u3000")
"""Every character ``str.split()`` splits on, as a regex class body of the characters
themselves (RE2 and ``re`` read it alike)."""
_GLUED_SUPERSCRIPTS = re.compile(f"([^{_SUPERSCRIPTS}{_SPACES}])[{_SUPERSCRIPTS}]+")


def drop_superscripts(text: str) -> str:
    """Superscript digits glued to the word before them dropped: footnote markers ("Gaga⁶"),
    as an exponent ("km²") alike.

    >>> drop_superscripts("Lady Gaga⁶⁷. x ²")
    'Lady Gaga. x ²'
    """
    return _GLUED_SUPERSCRIPTS.sub(r"\1", text)


def fold_accents(text: str) -> str:
    """Letters without their accents: the nonspacing marks of the canonical decomposition
    dropped.

    >>> fold_accents("Röntgen, Dáin, Ça")
    'Rontgen, Dain, Ca'
    """
    if text.isascii():  # nothing to fold: 20x faster on the guards' English answers
        return text
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) != "Mn")


_TYPOGRAPHY = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2212": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u00b7": " ", "\u2022": " "})


def ascii_typography(text: str) -> str:
    """Curly quotes, guillemets, primes, dashes, the minus sign and thin or no-break spaces
    as their ASCII forms.

    >>> ascii_typography("“It’s 10–12”")
    '"It\\'s 10-12"'
    """
    return text.translate(_TYPOGRAPHY)


_ASCII_SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f "
"""What ``str.split()`` splits ASCII text on, as a regex class body (RE2 and ``re`` alike)."""
_FOOTNOTE = rf"(1234|123|12|1|234|23|2|34|3|4)([{_ASCII_SPACE}.,;:!?)]|$)"
_WORD_FOOTNOTE = re.compile(r"([A-Za-z)\"']\.?)" + _FOOTNOTE)
_YEAR_FOOTNOTE = re.compile(r"\b(1[5-9][0-9][0-9]|20[0-2][0-9]|[0-9]+,[0-9][0-9][0-9])"
                            + _FOOTNOTE)


def drop_footnotes(text: str) -> str:
    """Footnote markers glued to the end of a word, a year or a number with a thousands
    separator ("Gillan1.", "in 20171.", "Asia123", "$75,0001"), the digits that count up
    from where they start, dropped.

    >>> drop_footnotes("played by Karen Gillan1. In 20171, Asia123 and 1998, $75,0001.")
    'played by Karen Gillan. In 2017, Asia and 1998, $75,000.'
    """
    return _YEAR_FOOTNOTE.sub(r"\1\3", _WORD_FOOTNOTE.sub(r"\1\3", text))


_GLUE_WORDS = "and|are|as|at|by|for|from|in|is|of|on|or|since|the|to|until|was|were|with"
_GLUED_CAPITAL = re.compile(rf"\b({_GLUE_WORDS}|{_GLUE_WORDS.title()})([A-Z][a-z])")
_GLUED_DIGIT_AFTER = re.compile(rf"\b({_GLUE_WORDS})([0-9])")
_GLUED_WORD_AFTER = re.compile(rf"([0-9])({_GLUE_WORDS})\b")
_GLUED_WORD_CAPITAL = re.compile(rf"([0-9])({_GLUE_WORDS})([A-Z])")
_WORD_DIGIT = re.compile(r"\b([a-z][a-z][a-z]+)([0-9])")
_DIGIT_WORD = re.compile(r"([0-9])([a-z][a-z][a-z]+)\b")
_DIGIT_UNIT = re.compile(r"([0-9])(am|pm|ft|cm|mm|km|kg|lb|mi|ml|mg|hr|yr|gb|mb)\b")


def separate_glued_words(text: str) -> str:
    """Words glued together, as answers copied from linked text have them: a short word
    before a capital ("byWaylon") or a number ("in1813"); a number and a lowercase word of
    three letters or more ("about24", "2013after"; "20th" and "1990s" stay) or a unit
    ("6ft", "10am"), "about24".

    >>> separate_glued_words("TheHouston team, byWaylon Jennings in1813, in1996inAtlanta")
    'The Houston team, by Waylon Jennings in 1813, in 1996 in Atlanta'
    >>> separate_glued_words("6ft 1in at 10:30am, 2013after the 20th, 1990s")
    '6 ft 1 in at 10:30 am, 2013 after the 20th, 1990s'
    """
    text = _GLUED_CAPITAL.sub(r"\1 \2", text)
    text = _GLUED_DIGIT_AFTER.sub(r"\1 \2", text)
    text = _GLUED_WORD_CAPITAL.sub(r"\1 \2 \3", text)
    text = _GLUED_WORD_AFTER.sub(r"\1 \2", text)
    text = _WORD_DIGIT.sub(r"\1 \2", text)
    text = _DIGIT_WORD.sub(r"\1 \2", text)
    return _DIGIT_UNIT.sub(r"\1 \2", text)


_POSSESSIVE = re.compile(r"'s\b")


def drop_possessives(text: str) -> str:
    """The possessive "'s" dropped (the text is lowercase by then).

    >>> drop_possessives("children's books and st james's park")
    'children books and st james park'
    """
    return _POSSESSIVE.sub("", text)


_SYMBOLS = (("&", " and "), ("%", " percent "), ("$", " dollar "), ("\u20ac", " euro "),
            ("\u00a3", " pound "), ("\u20b9", " rupee "), ("\u00a5", " yen "),
            ("\u00b0", " degree "))


def spell_symbols(text: str) -> str:
    """``& % $ € £ ₹ ¥ °`` as words.

    >>> spell_symbols("r&b at 50% for $5")
    'r and b at 50 percent  for  dollar 5'
    """
    for symbol, word in _SYMBOLS:
        text = text.replace(symbol, word)
    return text


_THOUSANDS = re.compile(r"([0-9]),([0-9][0-9][0-9])\b")
_RANGE = re.compile(r"([0-9]) *- *([0-9])")


def plain_numerals(text: str) -> str:
    """Thousands separators dropped ("1,250,000"), a range written with "to" ("10-12").

    >>> plain_numerals("1,250,000 and 10-12 years, 3,5")
    '1250000 and 10 to 12 years, 3,5'
    """
    text = _THOUSANDS.sub(r"\1\2", _THOUSANDS.sub(r"\1\2", text))
    return _RANGE.sub(r"\1 to \2", text)


_DECIMAL = re.compile(r"([0-9])\.([0-9])")
_PUNCTUATION = re.compile("[" + re.escape(string.punctuation.replace("'", "")) + "]")


def punctuation_spaces(text: str) -> str:
    """ASCII punctuation as spaces (it separates words), apostrophes deleted (they join
    them), a decimal point between digits kept.

    >>> punctuation_spaces("west-drawer, o'neill: 12.5 (c.)")
    'west drawer  oneill  12.5  c  '
    """
    text = _DECIMAL.sub("\\1\x01\\2", text.replace("'", ""))
    return _PUNCTUATION.sub(" ", text).replace("\x01", ".")


# --- the token maps --------------------------------------------------------------------------
_ORDINALS = ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth "
             "eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth "
             "eighteenth nineteenth twentieth").split()
_ROMAN = "ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx".split()
_UNITS = {"yrs": "year", "yr": "year", "years": "year", "km": "kilometer", "kms": "kilometer",
          "kilometres": "kilometer", "kilometers": "kilometer", "kilometre": "kilometer",
          "mi": "mile", "miles": "mile", "ft": "foot", "feet": "foot", "inches": "inch",
          "lbs": "pound", "lb": "pound", "degrees": "degree", "pounds": "pound", "kg": "kilogram",
          "kgs": "kilogram", "kilograms": "kilogram", "hrs": "hour", "hr": "hour",
          "hours": "hour", "mins": "minute", "minutes": "minute", "secs": "second",
          "metres": "meter", "meters": "meter", "metre": "meter", "cm": "centimeter",
          "centimetres": "centimeter", "centimeters": "centimeter", "mm": "millimeter",
          "millimetres": "millimeter", "millimeters": "millimeter", "pct": "percent",
          "dollars": "dollar", "usd": "dollar", "euros": "euro"}
_NUMBERS = {**{w: str(i) for w, i in number_word_values(tens=True).items()},
            **{w: str(i) for i, w in enumerate(_ORDINALS)},
            **{r: str(i + 2) for i, r in enumerate(_ROMAN)}, **_UNITS}
"""Each token :func:`number_token` rewrites: the number words of
:func:`~recallscore_nb.core.numeric.number_word_values` (zero to twenty and the tens, read one
token at a time, no scale word), the ordinals, the Roman numerals and the units."""
_ORDINAL_SUFFIX = re.compile(r"([0-9]+)(st|nd|rd|th)")
NUMBER_WORDS = frozenset(word for word, digits in _NUMBERS.items() if digits[:1].isdigit())
"""The tokens :func:`number_token` writes as digits without starting with one (words, ordinals,
Roman numerals)."""


def number_token(token: str) -> str:
    """One token's number as digits (a word, an ordinal, a Roman numeral from II; "21st" as
    "21"), a unit in one spelling, any other token as it is.

    >>> [number_token(t) for t in ("seven", "third", "viii", "21st", "yrs", "west")]
    ['7', '3', '8', '21', 'year', 'west']
    """
    found = _NUMBERS.get(token)
    if found is not None:
        return found
    ordinal = _ORDINAL_SUFFIX.fullmatch(token)
    return ordinal.group(1) if ordinal else token


def singular_token(token: str) -> str:
    """One token in the singular, by its ending ("boundaries", "boxes", "terms").

    >>> [singular_token(t) for t in ("boundaries", "boxes", "terms", "glass", "bus")]
    ['boundary', 'box', 'term', 'glass', 'bus']
    """
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 4 and token.endswith("es") and token[-3] in "sxz":
        return token[:-2]
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def number_words(text: str) -> str:
    """Every space-separated token through :func:`number_token`."""
    return " ".join(map(number_token, text.split(" "))) if text else text


def singular(text: str) -> str:
    """Every space-separated token through :func:`singular_token`."""
    return " ".join(map(singular_token, text.split(" "))) if text else text


for _name, _step, _description in (
        ("mojibake", repair_mojibake, "repair UTF-8 text read as cp1252 or Latin-1"),
        ("superscripts", drop_superscripts, "drop superscript digits glued to a word"),
        ("accents", fold_accents, "drop accents (nonspacing marks after NFD)"),
        ("typography", ascii_typography, "curly quotes, dashes and special spaces as ASCII"),
        ("footnotes", drop_footnotes, "drop footnote digits glued to a word or a year"),
        ("glued_words", separate_glued_words, "separate words glued to a capital or a number"),
        ("possessives", drop_possessives, "drop the possessive 's"),
        ("symbols", spell_symbols, "& % $ € £ ₹ ¥ ° as words"),
        ("numerals", plain_numerals, "drop thousands separators, write ranges with 'to'"),
        ("punctuation_spaces", punctuation_spaces,
         "ASCII punctuation as spaces, apostrophes deleted, decimal points kept"),
        ("number_words", number_words, "numbers as digits, units in one spelling"),
        ("singular", singular, "tokens in the singular")):
    register_step(_name, _description)(_step)
del _name, _step, _description

ANSWER = register_normalizer(Normalizer("answer", (
    "mojibake", "superscripts", "nfkc", "accents", "typography", "symbols", "footnotes",
    "glued_words", "lowercase", "possessives", "numerals", "punctuation_spaces", "articles",
    "whitespace")))
ANSWER_NUMBERS = register_normalizer(Normalizer("answer+numbers",
                                                ANSWER.steps + ("number_words",)))
ANSWER_STEMS = register_normalizer(Normalizer("answer+stems",
                                              ANSWER_NUMBERS.steps + ("singular",)))


# --- the vectorized kernel of ``answer`` -------------------------------------------------------
_PATTERNS = (  # (pattern, replacement, matches only where a digit is): what the steps after
    # typography do to ASCII text, before it is lowercase
    (_WORD_FOOTNOTE.pattern, r"\1\3", True), (_YEAR_FOOTNOTE.pattern, r"\1\3", True),
    (_GLUED_CAPITAL.pattern, r"\1 \2", False), (_GLUED_DIGIT_AFTER.pattern, r"\1 \2", True),
    (_GLUED_WORD_CAPITAL.pattern, r"\1 \2 \3", True), (_GLUED_WORD_AFTER.pattern, r"\1 \2", True),
    (_WORD_DIGIT.pattern, r"\1 \2", True), (_DIGIT_WORD.pattern, r"\1 \2", True),
    (_DIGIT_UNIT.pattern, r"\1 \2", True))
_AFTER_LOWER = (  # the same, once it is
    (_POSSESSIVE.pattern, "", False), (_THOUSANDS.pattern, r"\1\2", True),
    (_THOUSANDS.pattern, r"\1\2", True), (_RANGE.pattern, r"\1 to \2", True), ("'", "", False),
    (_DECIMAL.pattern, "\\1\x01\\2", True))
_AS_SPACE = np.arange(256, dtype=np.uint8)
"""Byte by byte, what the punctuation and whitespace steps make of ASCII text once the
decimal points are marked: punctuation and whitespace a space, the mark a point (one pass
over the bytes instead of three regular expressions; other bytes, UTF-8's included, as
they are)."""
_AS_SPACE[[ord(c) for c in string.punctuation.replace("'", "")]] = ord(" ")
_AS_SPACE[[ord(c) for c in "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"]] = ord(" ")
_AS_SPACE[1] = ord(".")
_MAPPED = sorted({chr(c) for c in _TYPOGRAPHY} | {symbol for symbol, _ in _SYMBOLS})
"""Characters the kernel writes as the steps before ``footnotes`` would (each alone, as NFKC,
accents and typography leave it; symbols as their words)."""


def _alone(char: str) -> str:
    text = ascii_typography(fold_accents(nfkc(char)))
    return spell_symbols(text) if text == char else text


def _folds_alone(char: str) -> bool:
    """Whether NFKC, accents and typography make the character ASCII wherever it stands: it
    does alone, and it opens its own decomposition (no mark of it can join the character
    before it; what follows it is ASCII in a row the kernel does, and joins nothing)."""
    return (_alone(char).isascii() and unicodedata.combining(char) == 0
            and unicodedata.combining(unicodedata.normalize("NFKD", char)[0]) == 0)


_MAPPED_ASCII = [c for c in _MAPPED if c.isascii()]
_WIDE = {c: _alone(c) for c in _MAPPED if not c.isascii()} | {
    c: _alone(c) for c in map(chr, [*range(0xA0, 0x250), *range(0x1E00, 0x1F00),
                                    *range(0x2000, 0x2070), *range(0xFB00, 0xFB07)])
    if c not in _MAPPED and _folds_alone(c)}
"""The non-ASCII characters the kernel writes as ASCII: the mapped ones, and the letters
(accented Latin letters, ligatures) and marks that fold to ASCII alone."""


def _wide_present(values: pa.Array) -> list[str]:
    """The characters of :data:`_WIDE` in ``values`` (rows with non-ASCII text: few)."""
    return sorted(set("".join(values.to_pylist())).intersection(_WIDE))


def _answer_kernel(values: pa.Array) -> pa.Array:
    """``answer`` on every row, exact on the rows :func:`_answer_inexact` does not return."""
    wide = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if len(wide):  # the non-ASCII characters, only where a row has one (most rows are ASCII)
        rows = pa.array(wide)
        some = pc.replace_substring_regex(values.take(rows), _GLUED_SUPERSCRIPTS.pattern,
                                          r"\1")  # before the symbols: "&¹" is "&"
        for char in _wide_present(some):
            some = pc.replace_substring(some, char, _WIDE[char])
        values = replace_rows(values, wide, some)
    for char in _MAPPED_ASCII:
        values = pc.replace_substring(values, char, _alone(char))
    # the patterns that need a digit read only the rows with one (no step writes a digit)
    digits = pc.match_substring_regex(values, "[0-9]").to_numpy(zero_copy_only=False)
    parts = [np.flatnonzero(~digits), np.flatnonzero(digits)]
    done = [_ascii_steps(values.take(pa.array(rows)), bool(d)) for d, rows in enumerate(parts)]
    order = np.empty(len(values), dtype=np.int64)
    order[np.concatenate(parts)] = np.arange(len(values))
    return pa.concat_arrays(done).take(pa.array(order))


def _runs(patterns, digits: bool) -> list[list[tuple[str, str]]]:
    """The patterns to apply (those that need a digit only if ``digits``), consecutive ones
    that need a digit as one run."""
    runs: list[list[tuple[str, str]]] = []
    for pattern, replacement, needs_digit in patterns:
        if needs_digit and not digits:
            continue
        if needs_digit and runs and runs[-1][0][2]:
            runs[-1].append((pattern, replacement, needs_digit))
        else:
            runs.append([(pattern, replacement, needs_digit)])
    return [[(p, r) for p, r, _ in run] for run in runs]


def _replace_run(values: pa.Array, run: list[tuple[str, str]]) -> pa.Array:
    """The run's replacements in order, only on the rows one of its patterns matches to
    begin with: a row none matches is left as it is by the first, and so by every one."""
    if len(run) == 1:
        return pc.replace_substring_regex(values, *run[0])
    either = "|".join(f"(?:{pattern})" for pattern, _ in run)
    hit = np.flatnonzero(pc.match_substring_regex(values, either).to_numpy(
        zero_copy_only=False))
    some = values.take(pa.array(hit))
    for pattern, replacement in run:
        some = pc.replace_substring_regex(some, pattern, replacement)
    return replace_rows(values, hit, some) if len(hit) else values


def _ascii_steps(values: pa.Array, digits: bool) -> pa.Array:
    """The steps from ``footnotes`` on, on ASCII text; those that need a digit only where
    ``digits`` (the rows have one)."""
    for run in _runs(_PATTERNS, digits):
        values = _replace_run(values, run)
    values = pc.ascii_lower(values)
    for run in _runs(_AFTER_LOWER, digits):
        values = _replace_run(values, run)
    offsets, data = string_buffers(values)
    values = pc.replace_substring_regex(from_buffers(offsets, _AS_SPACE[data]),
                                        r"\b(a|an|the)\b", " ")
    return collapse_spaces(*string_buffers(values))  # whitespace: spaces by now


def _answer_inexact(values: pa.Array) -> np.ndarray:
    """Rows the kernel cannot do exactly: mojibake, and text still non-ASCII once the
    characters of :data:`_WIDE` are replaced (both only in rows not ASCII to begin with)."""
    wide = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if not len(wide):
        return wide
    some = values.take(pa.array(wide))
    mapped = pc.replace_substring_regex(some, _GLUED_SUPERSCRIPTS.pattern, r"\1")
    for char in _wide_present(mapped):
        mapped = pc.replace_substring(mapped, char, "")
    odd = pc.or_(pc.invert(pc.string_is_ascii(mapped)),
                 pc.match_substring_regex(some, _MOJIBAKE.pattern))
    return wide[odd.to_numpy(zero_copy_only=False)]


KERNELS[ANSWER.steps] = Kernel(_answer_kernel, _answer_inexact)
KERNELS[ANSWER_NUMBERS.steps] = Kernel.of_tokens(ANSWER.steps, number_token)
KERNELS[ANSWER_STEMS.steps] = Kernel.of_tokens(ANSWER_NUMBERS.steps, singular_token)
