"""Reading JSON documents and naming what is wrong in them: the shared first two stages of
every JSON file the package validates (benchmarks, scoring schemas, the suite catalogue).

Stage 1 reads the bytes (missing file, not UTF-8, invalid JSON, a key repeated in one object,
a top level that is not an object); stage 2 translates JSON Schema errors into (path,
expected, got) problems sorted by path. Each caller raises its own error type.

>>> json_path(("rows", 2, "attempt")), split_path(("rows", 2, "attempt"))
('$.rows[2].attempt', ('$.rows[2]', 'attempt'))
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from .errors import InputFileError
from .paths import SCHEMAS_DIR

__all__ = ["JsonPath", "read_document", "parse_object", "json_path", "split_path", "render",
           "validator", "schema_problems", "expected_phrase"]

JsonPath = tuple[str | int, ...]  # a JSON path as its parts: ("rows", 2, "attempt")
RowId = Callable[[Any, JsonPath], str | None]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_RENDER_LIMIT = 80
_TYPE_PHRASES = {"string": "a string", "boolean": "a boolean", "integer": "an integer",
                 "object": "an object", "array": "an array"}


def read_document(name: str, error: type[InputFileError]) -> bytes:
    """The bytes of a file, or ``error`` naming it when it is missing or unreadable."""
    try:
        with open(name, "rb") as file:
            return file.read()
    except FileNotFoundError:
        raise error(name, message="no such file") from None
    except OSError as err:
        raise error(name, message=f"cannot be read: {err.strerror}") from None


def parse_object(name: str, content: bytes, error: type[InputFileError],
                 row_id: RowId = lambda data, parts: None) -> dict[str, Any]:
    """UTF-8 JSON whose top level is an object, with no key repeated in any object."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as err:
        bad = content[err.start]
        raise error(name, f"byte {err.start}",
                    message=f"not UTF-8 text (byte 0x{bad:02x})") from None
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        raise error(name, f"line {err.lineno} column {err.colno}",
                    message=f"not valid JSON: {err.msg}") from None
    repeated = [error(name, json_path(parts), key, message="duplicate key",
                      row_id=row_id(data, parts)) for parts, key in _repeated_keys(data)]
    if repeated:
        raise InputFileError.first_of(repeated)
    if not isinstance(data, dict):
        raise error(name, "$", expected="an object", got=render(data))
    return data


class _RepeatedKeys(dict):
    """A JSON object that repeated some keys; it lives only until they are reported."""

    def __init__(self, pairs: list[tuple[str, Any]], repeated: list[str]) -> None:
        super().__init__(pairs)
        self.repeated = repeated


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    counts = Counter(key for key, _ in pairs)
    if len(counts) == len(pairs):
        return dict(pairs)
    return _RepeatedKeys(pairs, [key for key, n in counts.items() if n > 1])


def _repeated_keys(value: Any, parts: JsonPath = ()) -> Iterator[tuple[JsonPath, str]]:
    """(path of the object, key) for every key an object of ``value`` repeats."""
    if isinstance(value, _RepeatedKeys):
        yield from ((parts, key) for key in value.repeated)
    if isinstance(value, dict):
        children = value.items()
    elif isinstance(value, list):
        children = enumerate(value)
    else:
        return
    for key, child in children:
        yield from _repeated_keys(child, (*parts, key))


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
            steps.append(f"[{json.dumps(part, ensure_ascii=False)}]")
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
    """A value as JSON, cut short past a few dozen characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _RENDER_LIMIT else text[: _RENDER_LIMIT - 3] + "..."


# --- stage 2: JSON Schema errors, translated ---------------------------------------------
@cache
def validator(schema_file: str):
    """The validator of a JSON Schema shipped in ``data/schemas/`` (built once per process)."""
    from ._jsonschema import Draft202012Validator

    schema = json.loads((SCHEMAS_DIR / schema_file).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def schema_problems(validator, data: Any) -> list[tuple[JsonPath, str, str]]:
    """Every (path, expected, got) the validator finds, sorted by path; an unknown field
    (where the schema forbids them) gives one problem each."""
    problems = [p for error in validator.iter_errors(data) for p in _translate(error)]
    return sorted(problems, key=lambda p: [(isinstance(part, str), part) for part in p[0]])


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
