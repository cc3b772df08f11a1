"""Reading JSON documents and naming what is wrong in them: the shared first two stages of
every JSON file the package validates (benchmarks, scoring schemas, the suite catalogue, items
and SQuAD files), and the checks other readers of JSON text share.

Stage 1 reads the bytes and refuses what is not plain JSON data, each problem named by where
it is: a file that is not a regular file (:func:`read_document`), bytes that are not UTF-8,
nesting deeper than :data:`MAX_DEPTH` (refused by a scan of the text before any parser, which
would recurse that deep, sees it), invalid JSON, a key repeated in one object, ``NaN`` and
``Infinity`` tokens or a number too large for a float (not finite), an integer outside the
64-bit range (Python's digit limit for integers lies far beyond it), and a lone surrogate
escape such as ``"\\ud800"`` (not Unicode text: it cannot be written out as UTF-8). Every
stage-1 problem of a file is collected; what is found by a scan of the text
(:func:`check_json_text`) is named by line and column, the others by JSON path and field.
Stage 2 translates JSON Schema errors into (path, expected, got) problems sorted by path.
Each caller raises its own error type.

>>> json_path(("rows", 2, "attempt")), split_path(("rows", 2, "attempt"))
('$.rows[2].attempt', ('$.rows[2]', 'attempt'))
>>> load_json(b'{"weight": NaN}', "s.json", InputFileError)
Traceback (most recent call last):
...
recallscore_nb.core.errors.InputFileError: s.json: $: weight: expected a finite number, got NaN
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import numpy as np

from ..core.errors import InputFileError
from .data import SCHEMAS_DIR
from .files import read_input

__all__ = ["JsonPath", "MAX_DEPTH", "read_document", "load_json", "load_json_line",
           "parse_object", "accepted_scalar", "check_json_text", "lone_surrogate_escapes",
           "json_path", "split_path", "render", "printable", "validator", "schema_problems",
           "expected_phrase", "plain", "json_reason"]

JsonPath = tuple[str | int, ...]  # a JSON path as its parts: ("rows", 2, "attempt")
RowId = Callable[[Any, JsonPath], str | None]

MAX_DEPTH = 512
"""The deepest nesting of arrays and objects a JSON input may have. Real files nest a few
levels; Python's parser recurses once per level and fails near its recursion limit (1,000
frames, shared with the caller's), so this leaves room for it and for every later step."""

def json_reason(error: json.JSONDecodeError) -> str:
    """What Python's JSON parser found, without its position: some of its messages end in
    "at", expecting the position to follow, which the caller gives in its own words.

    >>> try:
    ...     json.loads('"abc')
    ... except json.JSONDecodeError as error:
    ...     json_reason(error)
    'Unterminated string starting'
    """
    return error.msg.removesuffix(" at")


INT_RANGE = (-(2**63), 2**63 - 1)
"""The integers a JSON input may hold: those of a 64-bit column (pandas, Arrow)."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_RENDER_LIMIT = 80
_TYPE_PHRASES = {"string": "a string", "boolean": "a boolean", "integer": "an integer",
                 "object": "an object", "array": "an array"}
_INT_EXPECTED = "an integer from -2**63 to 2**63-1 (a larger number needs an exponent)"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_HINT = re.compile(r"\\u[dD][89a-fA-F]")


def read_document(name: str, error: type[InputFileError]) -> bytes:
    """The bytes of a regular file, or ``error`` naming it (missing, unreadable, a device,
    a pipe or a folder: never read without end)."""
    return read_input(name, error)


# --- stage 1: the text and its values ------------------------------------------------------
def load_json(content: bytes, name: str, error: type[InputFileError],
              row_id: RowId = lambda data, parts: None) -> Any:
    """Any JSON value, from UTF-8 bytes that hold plain JSON data (see the module docstring).

    Every problem is collected; the first is raised, carrying all of them in ``errors``,
    each naming ``name``, the JSON path, the field and ``row_id(data, path)`` when given.

    >>> load_json(b'[1, {"a": "\\\\u00e9"}]', "x.json", InputFileError)
    [1, {'a': 'é'}]
    >>> load_json(b'{"a": 1, "a": 2}', "x.json", InputFileError)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: x.json: $: a: duplicate key
    """
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as err:
        bad = content[err.start]
        raise error(name, f"byte {err.start}",
                    message=f"not UTF-8 text (byte 0x{bad:02x})") from None
    check_json_text(content, name, error, values=False)
    try:
        data, problems = _parse(text)
    except json.JSONDecodeError as err:
        raise error(name, f"line {err.lineno} column {err.colno}",
                    message=f"not valid JSON: {json_reason(err)}") from None
    if problems:
        errors = []
        for parts, field, kwargs in problems:
            location, field = (json_path(parts), field) if field is not None else split_path(parts)
            errors.append(error(name, location, printable(field),
                                row_id=_printable_id(row_id(data, parts)), **kwargs))
        raise InputFileError.first_of(errors)
    return data


def load_json_line(line: bytes | str, name: str, error: type[InputFileError], number: int,
                   row_id: Callable[[Any], str | None] = lambda data: None) -> Any:
    """One line of a JSONL file, checked as :func:`load_json` checks a document; problems
    are located at ``line <number>`` and the field is the path within the line.

    >>> load_json_line('{"item": "q1", "n": Infinity}', "i.jsonl", InputFileError, 3,
    ...                lambda data: data.get("item"))
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: i.jsonl: line 3 (id q1): n: expected a finite number, got Infinity
    """
    where = f"line {number}"
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as err:
            raise error(name, where,
                        message=f"not UTF-8 text (byte {err.start} of the line)") from None
    else:
        text = line
    check_json_text(line, name, error, values=False, first_line=number)
    try:
        data, problems = _parse(text)
    except json.JSONDecodeError as err:
        raise error(name, where,
                    message=f"not valid JSON ({json_reason(err)} at column {err.colno})") from None
    if problems:
        ident = _printable_id(row_id(data) if isinstance(data, dict) else None)
        raise InputFileError.first_of([
            error(name, where, printable(_line_field(parts, field)), row_id=ident, **kwargs)
            for parts, field, kwargs in problems])
    return data


def parse_object(name: str, content: bytes, error: type[InputFileError],
                 row_id: RowId = lambda data, parts: None) -> dict[str, Any]:
    """:func:`load_json` of a document whose top level must be an object."""
    data = load_json(content, name, error, row_id)
    if not isinstance(data, dict):
        raise error(name, "$", expected="an object", got=render(data))
    return data


class _Refused:
    """A number stage 1 refuses, standing in its place until it is reported."""

    __slots__ = ("expected", "got")

    def __init__(self, expected: str, got: str) -> None:
        self.expected, self.got = expected, got


class _RepeatedKeys(dict):
    """A JSON object that repeated some keys (the last value kept, as ``json`` does); it
    lives only until they are reported. ``pairs`` keeps every (key, value) as written."""

    def __init__(self, kept: dict[str, Any], pairs: list[tuple[str, Any]]) -> None:
        super().__init__(kept)
        self.pairs = pairs


class _Hooks:
    """The parser's hooks: they mark what stage 1 refuses, so that one walk can name it."""

    def __init__(self) -> None:
        self.marked = False

    def object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        kept = dict(pairs)
        if len(kept) == len(pairs):
            return kept
        self.marked = True
        return _RepeatedKeys(kept, pairs)

    def constant(self, token: str) -> _Refused:
        self.marked = True
        return _Refused("a finite number", token)

    def float(self, token: str) -> float | _Refused:
        value = float(token)
        if math.isinf(value):
            self.marked = True
            return _Refused("a finite number", token)
        return value

    def int(self, token: str) -> int | _Refused:
        if len(token) < 19:
            return int(token)
        digits = len(token.lstrip("-"))
        if digits <= 20:
            value = int(token)
            if INT_RANGE[0] <= value <= INT_RANGE[1]:
                return value
        self.marked = True
        got = token if len(token) <= 40 else f"{token[:40]}... ({digits} digits)"
        return _Refused(_INT_EXPECTED, got)


def accepted_scalar(value: Any) -> bool:
    """Whether a value that plain ``json.loads`` parsed is a scalar stage 1 accepts as it
    stands: a string, a boolean, null, a 64-bit integer or a finite number (the others are
    what the parser's hooks refuse; lone surrogates in a string are found in the text, by
    :func:`lone_surrogate_escapes`). For readers that parse without the hooks.

    >>> [accepted_scalar(v) for v in ("a", True, None, -2**63, 2**63, 0.5, float("nan"), [])]
    [True, True, True, True, False, True, False, False]
    """
    kind = type(value)
    return (kind is str or value is None or kind is bool
            or (kind is int and INT_RANGE[0] <= value <= INT_RANGE[1])
            or (kind is float and math.isfinite(value)))


# (path, key or None, keyword arguments of the error): the key names a problem of the object
# at path (a repeated key, a key that is not Unicode), None a problem of the value at path.
Problem = tuple[JsonPath, str | None, dict[str, str]]


def _parse(text: str) -> tuple[Any, list[Problem]]:
    hooks = _Hooks()
    try:
        data = json.loads(text, object_pairs_hook=hooks.object, parse_constant=hooks.constant,
                          parse_float=hooks.float, parse_int=hooks.int)
    except RecursionError:  # only when the caller's own stack is already deep
        raise json.JSONDecodeError("nested too deeply for the parser here", text, 0) from None
    strings = _SURROGATE_HINT.search(text) is not None
    if not (hooks.marked or strings):
        return data, []
    return data, list(_problems(data, strings))


def _problems(data: Any, strings: bool) -> Iterator[Problem]:
    """Stage-1 problems in document order (a walk with its own stack: no recursion)."""
    stack: list[tuple[JsonPath, Any]] = [((), data)]
    while stack:
        parts, value = stack.pop()
        if isinstance(value, dict):
            pairs = value.pairs if isinstance(value, _RepeatedKeys) else list(value.items())
            if isinstance(value, _RepeatedKeys):
                counts = Counter(key for key, _ in pairs)
                yield from ((parts, key, {"message": "duplicate key"})
                            for key, n in counts.items() if n > 1)
            if strings:
                yield from ((parts, key, _surrogate(key)) for key, _ in pairs
                            if _has_surrogate(key))
            stack.extend(((*parts, key), child) for key, child in reversed(pairs))
        elif isinstance(value, list):
            stack.extend(((*parts, i), value[i]) for i in range(len(value) - 1, -1, -1))
        elif isinstance(value, _Refused):
            yield parts, None, {"expected": value.expected, "got": value.got}
        elif strings and isinstance(value, str) and _has_surrogate(value):
            yield parts, None, _surrogate(value)


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _LONE_SURROGATE.search(text) is not None


def _surrogate(text: str) -> dict[str, str]:
    code = ord(_LONE_SURROGATE.search(text).group())
    return {"message": f"contains a lone surrogate (\\u{code:04x}): not Unicode text"}


def _line_field(parts: JsonPath, key: str | None) -> str:
    """The path within a JSONL line, without ``$``: ``factChecklist[0].fact``."""
    path = json_path((*parts, key) if key is not None else parts)[1:]
    return path[1:] if path.startswith(".") else path


def _printable_id(row_id: str | None) -> str | None:
    return None if row_id is None else printable(row_id)


# --- stage 1, by a scan of the text --------------------------------------------------------
_CHUNK = 1 << 24
_STEPS = np.zeros(256, dtype=np.int8)
_STEPS[[ord("["), ord("{")]] = 1
_STEPS[[ord("]"), ord("}")]] = -1
_NON_FINITE = re.compile(rb"-?Infinity|NaN")
_SHAPE = bytes(ord("0") if chr(c).isdigit() and c < 128 else ord("e") if chr(c) in "eE"
               else ord("+") if chr(c) in "+-" else ord(" ") for c in range(256))
_SURROGATE_BYTES_HINT = re.compile(rb"\\u[dD][89a-fA-F]")
_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SURROGATE_ESCAPE = re.compile(
    rb"(?<!\\)(?:\\\\)*\\u(?:(?P<high>[dD][89abAB][0-9a-fA-F]{2})"
    rb"(?P<low>\\u[dD][c-fC-F][0-9a-fA-F]{2})?|(?P<lone>[dD][c-fC-F][0-9a-fA-F]{2}))")


def check_json_text(content: bytes | str, name: str, error: type[InputFileError], *,
                    lines: bool = False, values: bool = True, first_line: int = 1) -> None:
    """Refuse JSON text that would crash or mislead a parser, before one sees it.

    Nesting deeper than :data:`MAX_DEPTH` is always refused; with ``values``, so are a
    number with more digits than Python's limit for integers (``sys.get_int_max_str_digits()``,
    4300), an integer outside the 64-bit range, ``NaN`` and ``Infinity`` tokens, numbers too
    large for a float, and lone surrogate escapes (``"\\ud800"``); :func:`load_json` finds
    those by their JSON path instead. One
    linear scan of the bytes ignores brackets and digits inside strings; it runs only where a
    quick look finds something to check. With
    ``lines`` (JSONL) each line is checked on its own. Every problem is one ``error`` naming
    ``name``, ``line L column C`` (lines counted from ``first_line``) and the limit; the
    first is raised, carrying all of them in ``errors``.

    Readers that hand JSON text to another parser (pyarrow) call this first.

    >>> check_json_text(b'{"a": "[[[["}', "a.json", InputFileError)
    >>> check_json_text(b'{"a": 1}\\n{"a": NaN}', "a.jsonl", InputFileError, lines=True)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: a.jsonl: line 2 column 7: NaN: not a finite number
    """
    data = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
    found: list[tuple[int, str]] = []  # (byte offset, message)
    candidates: list[tuple[int, str]] = []  # the same, if the offset lies outside strings
    if values:
        # Quick looks first (substring searches); the regular expressions only where they hit.
        shape = data.translate(_SHAPE)  # digits as 0, e/E as e, signs as +, the rest blank
        limit = sys.get_int_max_str_digits() or sys.int_info.default_max_str_digits
        if b"0" * (limit + 1) in shape:
            candidates += [(m.start(), f"a number of {m.end() - m.start()} digits (the limit "
                                       f"is {limit})")
                           for m in re.finditer(rb"\d{%d,}" % (limit + 1), data)]
        if b"NaN" in data or b"Infinity" in data:
            candidates += [(m.start(), f"{m.group().decode()}: not a finite number")
                           for m in _NON_FINITE.finditer(data)]
        if b"0" * 19 in shape or b"e000" in shape or b"e+000" in shape:
            candidates += [(m.start(), problem) for m in _NUMBER.finditer(data)
                           if (problem := _number_problem(m.group(), limit))]
        found += [(at, f"a lone surrogate ({data[at:at + 6].decode()}): not Unicode text")
                  for at in lone_surrogate_escapes(data)]
    deep = _may_be_too_deep(data, lines)
    if deep or candidates:
        offsets = np.array([offset for offset, _ in candidates], dtype=np.int64)
        too_deep, outside = _scan(data, lines=lines, queries=offsets)
        if too_deep is not None:
            found.append((too_deep, f"nested more than {MAX_DEPTH} levels deep (the limit)"))
        found += [c for c, keep in zip(candidates, outside) if keep]
    if found:
        found.sort()
        raise InputFileError.first_of([error(name, where, message=message) for where, message
                                       in zip(_line_columns(data, [o for o, _ in found],
                                                            first_line), (m for _, m in found))])


def lone_surrogate_escapes(data: bytes) -> list[int]:
    r"""The byte offsets of the ``\u`` escapes in JSON text that stand for a lone surrogate
    (a high one without a low one after it, or a low one alone): not Unicode text. A pair
    (an emoji written in escapes) is fine; a quick look first, the regular expression only
    where it hits.

    >>> lone_surrogate_escapes(rb'["\ud83d\ude00", "\ud800", "\\ud800", "\uDC00"]')
    [18, 39]
    """
    if not _SURROGATE_BYTES_HINT.search(data):
        return []
    return [(m.start("lone") if m.group("lone") else m.start("high")) - 2
            for m in _SURROGATE_ESCAPE.finditer(data) if m.group("lone") or not m.group("low")]


def _number_problem(token: bytes, limit: int) -> str | None:
    """What is wrong with a number token, if anything (digit runs past ``limit`` aside)."""
    text = token.decode()
    shown = text if len(text) <= 40 else f"{text[:40]}..."
    if any(c in text for c in ".eE"):
        return f"{shown}: not a finite number" if math.isinf(float(text)) else None
    digits = len(text.lstrip("-"))
    if digits > limit or (digits < 19 or INT_RANGE[0] <= int(text) <= INT_RANGE[1]):
        return None
    return f"{shown}: an integer outside -2**63 to 2**63-1 (a larger number needs an exponent)"


def _may_be_too_deep(data: bytes, lines: bool) -> bool:
    """Whether some line (with ``lines``) or the whole text opens more than MAX_DEPTH
    arrays and objects: only then can it nest that deep."""
    total = data.count(b"[") + data.count(b"{")
    if total <= MAX_DEPTH or not lines:
        return total > MAX_DEPTH
    return any(line.count(b"[") + line.count(b"{") > MAX_DEPTH
               for line in data.split(b"\n"))


def _scan(data: bytes, *, lines: bool, queries: np.ndarray) -> tuple[int | None, np.ndarray]:
    """(the offset where nesting first passes MAX_DEPTH or None, whether each offset of
    ``queries`` lies outside strings), in one pass over the bytes, a chunk at a time.

    Only quotes, brackets and newlines are looked at: a quote is escaped when an odd run of
    backslashes precedes it; a bracket counts when an even number of quotes precedes it (on
    its line, with ``lines``). Text that is not JSON may be misread past its first fault,
    where the parser stops anyway.
    """
    arr = np.frombuffer(data, dtype=np.uint8)
    outside = np.ones(len(queries), dtype=bool)
    too_deep = None
    parity = depth = 0  # at the end of the chunk before: quotes (mod 2) and nesting
    for start in range(0, len(arr), _CHUNK):
        a = arr[start:start + _CHUNK]
        quotes = np.flatnonzero(a == 0x22) + start
        quotes = quotes[~_escaped(arr, quotes)]
        newlines = np.flatnonzero(a == 0x0A) + start if lines else np.empty(0, np.int64)

        def quotes_before(at: np.ndarray) -> np.ndarray:
            """Unescaped quotes before each offset, since its line began (with ``lines``)."""
            count = np.searchsorted(quotes, at) + parity
            if len(newlines):
                line = np.searchsorted(newlines, at)
                began = line > 0
                count[began] -= np.searchsorted(quotes, newlines[line[began] - 1]) + parity
            return count

        steps = _STEPS[a]
        brackets = np.flatnonzero(steps) + start
        brackets = brackets[quotes_before(brackets) % 2 == 0]
        total = np.cumsum(steps[brackets - start], dtype=np.int64)
        line = np.searchsorted(newlines, brackets)
        first = np.searchsorted(line, line)  # the first bracket of each bracket's line
        level = total - np.where(first > 0, total[first - 1], 0) + np.where(line == 0, depth, 0)
        over = np.flatnonzero(level > MAX_DEPTH)
        if too_deep is None and len(over):
            too_deep = int(brackets[over[0]])
        mine = (queries >= start) & (queries < start + len(a))
        outside[mine] = quotes_before(queries[mine]) % 2 == 0
        if len(newlines):
            parity = 0
            depth = 0
        last_line = len(newlines)
        in_last = line == last_line
        depth = int(level[in_last][-1]) if in_last.any() else depth
        after = quotes[quotes > newlines[-1]] if len(newlines) else quotes
        parity = (parity + len(after)) % 2
        if not lines:
            depth = max(depth, 0)  # below 0 the parser fails first
    return too_deep, outside


def _escaped(arr: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Whether an odd run of backslashes precedes each offset (one step per run length)."""
    escaped = np.zeros(len(at), dtype=bool)
    run = 0
    pending = np.arange(len(at))  # those whose run is at least ``run`` long
    while len(pending):
        before = at[pending] - run - 1
        more = before >= 0
        more[more] = arr[before[more]] == 0x5C
        escaped[pending[~more]] = run % 2 == 1
        pending = pending[more]
        run += 1
    return escaped


def _line_columns(data: bytes, offsets: list[int], first_line: int) -> list[str]:
    """``line L column C`` of each byte offset (columns count characters, from 1)."""
    newlines = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 0x0A)
    where = []
    for offset in offsets:
        line = int(np.searchsorted(newlines, offset))
        start = int(newlines[line - 1]) + 1 if line else 0
        column = len(data[start:offset].decode("utf-8", "replace")) + 1
        where.append(f"line {first_line + line} column {column}")
    return where


# --- locations and renderings ------------------------------------------------------------
def json_path(parts: JsonPath) -> str:
    """``("rows", 2, "attempt")`` as ``$.rows[2].attempt``."""
    steps = []
    for part in parts:
        if isinstance(part, int):
            steps.append(f"[{part}]")
        elif _NAME.match(part):
            steps.append(f".{part}")
        else:
            steps.append(f"[{printable(json.dumps(part, ensure_ascii=False))}]")
    return "$" + "".join(steps)


def split_path(parts: JsonPath) -> tuple[str, str]:
    """(JSON path of the object holding the last property, that property and any indices
    after it): ``("limitations", 1)`` gives ``("$", "limitations[1]")``."""
    names = [i for i, part in enumerate(parts) if isinstance(part, str)]
    if not names:
        return json_path(parts), ""
    last = names[-1]
    return json_path(parts[:last]), parts[last] + "".join(f"[{i}]" for i in parts[last + 1:])


def render(value: Any) -> str:
    """A value as JSON, cut short past a few dozen characters (printable: see
    :func:`printable`)."""
    text = printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= _RENDER_LIMIT else text[: _RENDER_LIMIT - 3] + "..."


def printable(text: str) -> str:
    """``text`` with any lone surrogate written as its escape, so it can be printed.

    >>> printable("R\\ud800")
    'R\\\\ud800'
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# --- stage 2: JSON Schema errors, translated ---------------------------------------------
@cache
def validator(schema_file: str):
    """The validator of a JSON Schema shipped in ``data/schemas/`` (built once per process).

    Its ``integer`` is a JSON integer as written: ``1.0`` is a number, not an integer (JSON
    Schema would accept it), so ``"schemaVersion": 1.0`` is refused like ``true``.
    """
    from ._jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    schema = json.loads((SCHEMAS_DIR / schema_file).read_text(encoding="utf-8"))
    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool))
    return extend(Draft202012Validator, type_checker=checker)(schema)


def schema_problems(validator, data: Any) -> list[tuple[JsonPath, str, str]]:
    """Every (path, expected, got) the validator finds, sorted by path, each once; an unknown
    field (where the schema forbids them) gives one problem each."""
    problems = [p for error in validator.iter_errors(data) for p in _translate(error)]
    return sorted(dict.fromkeys(problems),
                  key=lambda p: [(isinstance(part, str), part) for part in p[0]])


def _translate(error) -> list[tuple[JsonPath, str, str]]:
    parts = tuple(error.absolute_path)
    if error.validator == "additionalProperties":
        known = list(error.schema.get("properties", {}))
        expected = f"a known field ({', '.join(known)})" if known else "no further fields"
        return [((*parts, key), expected, "an unknown field")
                for key in error.instance if key not in known]
    if error.validator == "propertyNames":  # the name itself is at fault
        expected = error.schema["propertyNames"].get("x-expected", "a valid name")
        return [((*parts, error.instance), expected, "an invalid name")]
    if error.validator == "required":
        # jsonschema reports each missing key in an error of its own, naming it in the message.
        missing = [key for key in error.validator_value if key not in error.instance]
        key = next(key for key in missing if error.message.startswith(repr(key)))
        return [((*parts, key), expected_phrase(error.schema["properties"][key]), "nothing")]
    return [(parts, expected_phrase(error.schema), render(error.instance))]


def expected_phrase(schema: dict[str, Any]) -> str:
    """What a schema asks for, as a short phrase: "a string", "an integer >= 0", ..."""
    if "x-expected" in schema:
        return schema["x-expected"]
    if "const" in schema:
        return render(schema["const"])
    if schema.get("minLength") == 1:
        return "a non-empty string"
    phrase = _TYPE_PHRASES.get(schema.get("type"))
    if phrase is None:
        return "a valid value"
    return f"{phrase} >= {schema['minimum']}" if "minimum" in schema else phrase


def plain(value):
    """``value`` with numpy scalars, tuples and pandas missing values made plain JSON values.

    >>> import pandas as pd
    >>> plain({"n": np.int64(3), "t": (1, pd.NA)})
    {'n': 3, 't': [1, None]}
    """
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    pandas = sys.modules.get("pandas")  # not imported: no value is its NA (validate needs none)
    if pandas is not None and value is pandas.NA:
        return None
    return value
