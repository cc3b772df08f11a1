"""Items files: many questions, each with its own reference(s) and checklist (JSONL, one a line).

A line is ``{"item": "<id>", "referenceAnswer": "…", "factChecklist": [{"fact": "…",
"requiredTerms": ["…"]}]}``. ``referenceAnswer`` may be a list of alternative references (as
SQuAD has several gold answers); ``factChecklist`` may then be omitted, and the checklist
columns are empty for that item. Lines are validated like benchmark files: every problem is
collected and named by file, line, item id and field; a line that is not JSON data (a key
repeated, a number not finite, a lone surrogate, nesting too deep: see
:mod:`recallscore_nb.io.jsondocs`) and a repeated item id are refused. A line with other problems
still claims its item id, so a later line repeating it is named too.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from itertools import chain, compress, islice, repeat
from operator import is_not, itemgetter

import numpy as np
import pyarrow as pa

from ..core.errors import InputFileError, ItemsFormatError
from ..core.facts import Fact
from ..core.items import Item, Items
from ..core.normalize import SEED, normalize_array
from ..core.tokens import pad, term_occurs
from .files import read_input, sha256
from .jsondocs import accepted_scalar, load_json_line, lone_surrogate_escapes, render

__all__ = ["load_items", "load_questions", "is_items_file", "scorer_role"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def _line_errors(name: str, number: int, record, seed) -> list[ItemsFormatError]:
    where = f"line {number}"
    if not isinstance(record, dict):
        return [ItemsFormatError(name, where, expected="a JSON object", got=render(record))]
    row_id = _item_id(record)

    def error(field: str, expected: str, got) -> ItemsFormatError:
        return ItemsFormatError(name, where, field, row_id=row_id, expected=expected,
                                got="nothing" if got is _ABSENT else render(got))

    errors = []
    if row_id is None:
        errors.append(error("item", "a non-empty string", record.get("item", _ABSENT)))
    reference = record.get("referenceAnswer", _ABSENT)
    alternatives = [reference] if isinstance(reference, str) else reference
    if not (isinstance(reference, str) and reference) and not (
        isinstance(reference, list) and reference
        and all(isinstance(r, str) and r for r in reference)
    ):
        errors.append(error("referenceAnswer",
                            "a non-empty string or a non-empty list of non-empty strings", reference))
        alternatives = []
    checklist = record.get("factChecklist", _ABSENT)
    if checklist is _ABSENT:
        if isinstance(reference, str):
            errors.append(error("factChecklist", "a checklist (it may be omitted only when "
                                "referenceAnswer is a list)", checklist))
        return errors
    if not isinstance(checklist, list) or not checklist:
        return errors + [error("factChecklist", "a list of at least one fact", checklist)]
    seen: dict[str, int] = {}
    for i, fact in enumerate(checklist):
        field = f"factChecklist[{i}]"
        if not isinstance(fact, dict):
            errors.append(error(field, "an object with fact and requiredTerms", fact))
            continue
        fact_name, terms = fact.get("fact", _ABSENT), fact.get("requiredTerms", _ABSENT)
        if not isinstance(fact_name, str) or not _NAME.match(fact_name):
            errors.append(error(f"{field}.fact", "an identifier matching ^[A-Za-z][A-Za-z0-9_]*$",
                                fact_name))
        elif fact_name.casefold() in seen:
            errors.append(error(f"{field}.fact", "a name unique ignoring case", fact_name))
        else:
            seen[fact_name.casefold()] = i
        if not isinstance(terms, list) or not terms or not all(isinstance(t, str) for t in terms):
            errors.append(error(f"{field}.requiredTerms", "a list of at least one string", terms))
            continue
        for j, term in enumerate(terms):
            normalized = seed(term)
            if not normalized:
                errors.append(error(f"{field}.requiredTerms[{j}]",
                                    "a term that keeps some text after normalization", term))
            for reference_text in alternatives:
                if normalized and not term_occurs(seed(reference_text), normalized):
                    errors.append(error("referenceAnswer", f"the term {render(term)} of fact "
                                        f"{fact_name}", reference_text))
    return errors


_ABSENT = object()


def _item_id(record: dict) -> str | None:
    item = record.get("item")
    return item if isinstance(item, str) and item else None


def _item(record: dict) -> Item:
    reference = record["referenceAnswer"]
    checklist = record.get("factChecklist")
    facts = None if checklist is None else tuple(
        Fact(f["fact"], tuple(f["requiredTerms"])) for f in checklist)
    references = (reference,) if isinstance(reference, str) else tuple(reference)
    return Item(record["item"], references, facts)


def _seed_lookup(records):
    """``SEED`` of every reference and term of the records, normalized as one Arrow array
    (the vectorized path, equal to ``SEED`` string by string); a dict's ``__getitem__``, with
    ``SEED`` itself for anything else."""
    texts: dict[str, None] = {}
    for record in records:
        if not isinstance(record, dict):
            continue
        reference = record.get("referenceAnswer")
        for text in ([reference] if isinstance(reference, str)
                     else reference if isinstance(reference, list) else ()):
            if isinstance(text, str):
                texts[text] = None
        checklist = record.get("factChecklist")
        for fact in checklist if isinstance(checklist, list) else ():
            terms = fact.get("requiredTerms") if isinstance(fact, dict) else None
            for term in terms if isinstance(terms, list) else ():
                if isinstance(term, str):
                    texts[term] = None
    keys = list(texts)
    normalized = normalize_array(pa.array(keys, type=pa.string()), SEED).to_pylist()
    table = dict(zip(keys, normalized))
    return lambda text: table[text] if text in table else SEED(text)


_BLOCK_LINES = 1_000
"""Lines parsed at a time (their references and terms normalized together): the quickest
size tried (benchmarks/README.md)."""


def _blocks(content: bytes):
    """The lines with text, as (line number, bytes), a block of :data:`_BLOCK_LINES`
    lines at a time: the parsed records of a large file are never all held at once."""
    lines = content.splitlines()
    for start in range(0, len(lines), _BLOCK_LINES):
        yield [(number, raw) for number, raw in
               enumerate(lines[start:start + _BLOCK_LINES], start=start + 1) if raw.strip()]


# --- the fast path: a block of plain, valid lines at once -------------------------------------
_SEPARATOR = b"\n,0,\n"
_SPACED_KEY = re.compile(rb'"[ \t]+:')
_KEY_END = re.compile(rb'(?<!\\)(?:\\\\)*"[ \t]*:')
_ITEM, _REFERENCE = itemgetter("item"), itemgetter("referenceAnswer")
_FACT, _TERMS = itemgetter("fact"), itemgetter("requiredTerms")
_NUMBER = itemgetter(0)


def _fast_block(block) -> tuple[list[str], list[Item]] | None:
    r"""The ids and items of a block of lines when every line is plainly valid; None when
    anything is unusual (the block then takes the exact path, which names every fault).

    The lines are parsed in one ``json.loads`` of ``[line1\n,0,\nline2 …]``. A raw newline
    cannot sit inside a JSON string, ``,0`` cannot continue an object, and an array that
    swallowed a separator would hold the number 0, which no array taken here holds: so
    when the parse has one element per line and a separator between each two, each line is
    a JSON value on its own, the one the exact path parses. The parser's hooks are not
    needed: a record's own fields hold only strings, lists and objects, any other field
    must hold a plain value (:func:`_plain_extras`), a lone surrogate escape sends the
    block to the exact path, and a repeated key shows as fewer keys parsed than key ends
    (``"`` then ``:``) in the text, a count that is never too low. Each field is then read
    and checked for the whole block at once.

    >>> ids, items = _fast_block([(1, b'{"item": "q", "referenceAnswer": ["Paris"]}')])
    >>> ids, items[0].references
    (['q'], ('Paris',))
    >>> _fast_block([(1, b'{"item": "q", "item": "r", "referenceAnswer": ["Paris"]}')])
    """
    joined = _SEPARATOR.join(raw for _, raw in block)
    if not block or lone_surrogate_escapes(joined):
        return None
    try:
        records = json.loads(b"".join((b"[", joined, b"]")).decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        return None
    separators = records[1::2]
    if len(records) != 2 * len(block) - 1 or any(separators) or not _only(int, separators):
        return None
    records = records[::2]
    try:
        return _fast_items(records, joined)
    except (KeyError, TypeError):  # a field missing, or a record or fact not an object
        return None


_RECORD = {
    "type": "object", "required": ["item", "referenceAnswer"],
    "properties": {
        "item": {"type": "string", "minLength": 1},
        "referenceAnswer": {"anyOf": [
            {"type": "string", "minLength": 1},
            {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}]},
        "factChecklist": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["fact", "requiredTerms"],
            "additionalProperties": False,
            "properties": {
                "fact": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$"},
                "requiredTerms": {"type": "array", "minItems": 1,
                                  "items": {"type": "string"}}}}}},
    "if": {"properties": {"referenceAnswer": {"type": "string"}}},
    "then": {"required": ["factChecklist"]},
}
"""The shape of a plainly valid record (its own fields' types, lengths and fact names), for
the whole block at once: what the exact path checks field by field, less what needs the
other fields (unique ids and names, terms in the references) or the text (repeated keys)."""


@cache
def _block_shape():
    """``is_valid(records)`` of a block's records against :data:`_RECORD` (jsonschema-rs:
    the whole block checked in one call, in Rust)."""
    import jsonschema_rs

    return jsonschema_rs.validator_for({"type": "array", "items": _RECORD}).is_valid


def _fast_items(records: list, joined: bytes) -> tuple[list[str], list[Item]] | None:
    """The ids and items of :func:`_fast_block`'s parsed records, or None: the records'
    shape checked at once (:data:`_RECORD`), then what needs several fields or the text."""
    try:
        if not _block_shape()(records):
            return None
    except (ValueError, OverflowError):  # a value the validator cannot read (a huge integer)
        return None
    n = len(records)
    ids = list(map(_ITEM, records))
    references = list(map(_REFERENCE, records))
    checklists = list(map(dict.get, records, repeat("factChecklist")))
    has = np.fromiter(map(is_not, checklists, repeat(None)), bool, n)
    lengths = np.fromiter(map(len, records), np.int64, n)
    if not all(map(_plain_extras, compress(records, lengths != 2 + has))):
        return None
    alternatives = [(r,) if type(r) is str else tuple(r) for r in references]
    facts = list(chain.from_iterable(compress(checklists, has)))
    names = list(map(_FACT, facts))
    term_lists = list(map(_TERMS, facts))
    # every object has exactly the keys read above, each once: no other object anywhere
    keys = int(lengths.sum()) + 2 * len(facts)
    if joined.count(b":") != keys and _key_ends(joined) != keys:
        return None
    n_facts = np.fromiter(map(len, compress(checklists, has)), np.int64, int(has.sum()))
    if not _fields_valid(ids, alternatives, has, n_facts, names, term_lists):
        return None
    fact_values = map(Fact, names, map(tuple, term_lists))
    item_facts = iter([tuple(islice(fact_values, c)) for c in n_facts.tolist()])
    return ids, list(map(Item, ids, alternatives,
                         [next(item_facts) if h else None for h in has.tolist()]))


_FIELDS = frozenset(("item", "referenceAnswer", "factChecklist"))


def _plain_extras(record: dict) -> bool:
    """Whether a record's fields other than its own (which it may have: they are not read)
    are all plain values the parser's hooks would not refuse (:func:`.jsondocs.accepted_scalar`:
    strings, booleans, nulls, 64-bit integers and finite numbers). A null checklist is not
    one of them.

    >>> _plain_extras({"item": "q", "source": "nq", "n": 3, "w": 0.5, "ok": True})
    True
    >>> _plain_extras({"item": "q", "n": float("nan")}), _plain_extras({"factChecklist": None})
    (False, False)
    """
    for key, value in record.items():
        if key in _FIELDS:
            if key == "factChecklist" and value is None:
                return False
        elif not accepted_scalar(value):
            return False
    return True


def _key_ends(text: bytes) -> int:
    r"""The key ends in JSON text: a quote that is not escaped, then ``:`` (JSON whitespace
    between them aside). No key is missed; a quote that ends no key can be counted too
    (a string that begins with ``:``).

    >>> _key_ends(rb'{"a": 1, "b" :"c:d", "\\": 2, "f": "say \"hi\": twice"}')
    4
    """
    if _SPACED_KEY.search(text) or b'\\"' in text:
        return len(_KEY_END.findall(text))
    return text.count(b'":')


def _only(kind: type, values) -> bool:
    """Whether every value's type is exactly ``kind`` (true of no values), in one C-level pass.

    >>> _only(str, ["a", "b"]), _only(list, []), _only(int, [0, False])
    (True, True, False)
    """
    return set(map(type, values)) <= {kind}


def _fields_valid(ids: list, alternatives: list[tuple], has: np.ndarray, n_facts: np.ndarray,
                  names: list, term_lists: list[list]) -> bool:
    """Whether the fields :func:`_fast_items` read, whose shape is valid, are valid together,
    checked for all the items at once: ids each used once; fact names unique in their item
    ignoring case; terms keeping some text after normalization and occurring as whole
    tokens in every alternative of their item (``has``: which items have a checklist, of
    ``n_facts`` facts).

    >>> _fields_valid(["q"], [("The west door",)], np.array([True]), np.array([1]),
    ...               ["f"], [["West", "door"]])
    True
    >>> _fields_valid(["q"], [("The west door", "north")], np.array([True]), np.array([1]),
    ...               ["f"], [["west"]])
    False
    """
    if len(set(ids)) != len(ids):
        return False
    if not names:
        return True
    terms = list(chain.from_iterable(term_lists))
    n_terms = np.fromiter(map(len, term_lists), np.int64, len(term_lists))
    distinct_names = dict.fromkeys(names)
    distinct_terms = list(dict.fromkeys(terms))
    # names unique in their item ignoring case
    folded: dict[str, int] = {}
    fold = {name: folded.setdefault(name.casefold(), len(folded)) for name in distinct_names}
    fact_item = np.repeat(np.arange(len(n_facts)), n_facts)
    key = fact_item * len(folded) + np.fromiter(map(fold.__getitem__, names), np.int64,
                                                len(names))
    key.sort()
    if (key[1:] == key[:-1]).any():
        return False
    # every distinct term normalized once; each (term, alternative) pair of an item checked
    checked = list(compress(alternatives, has))
    seeds = normalize_array(pa.array(distinct_terms + list(chain.from_iterable(checked)),
                                     type=pa.string()), SEED)
    padded = pad(seeds).to_pylist()
    padded_references = padded[len(distinct_terms):]
    padded_term = dict(zip(distinct_terms, padded))
    if "  " in padded[:len(distinct_terms)]:  # a term that normalizes to nothing
        return False
    # each term paired with each alternative of its item, in turn
    n_alternatives = np.fromiter(map(len, checked), np.int64, len(checked))
    term_item = np.repeat(fact_item, n_terms)
    pairs = n_alternatives[term_item]
    term = np.repeat(np.arange(len(terms)), pairs)
    first_pair = np.cumsum(pairs) - pairs
    first_alternative = np.cumsum(n_alternatives) - n_alternatives
    reference = (np.repeat(first_alternative[term_item] - first_pair, pairs)
                 + np.arange(len(term)))
    return all(map(str.__contains__, map(padded_references.__getitem__, reference.tolist()),
                   map(padded_term.__getitem__, map(terms.__getitem__, term.tolist()))))


def is_items_file(path) -> bool:
    """Whether a scorer file is an items file (JSONL, or gzipped JSONL as the shipped judged
    sets are) rather than a benchmark (JSON): the one place the extension decides.

    >>> is_items_file("items.jsonl"), is_items_file("items.jsonl.gz"), is_items_file("b.json")
    (True, True, False)
    """
    return path is not None and os.fspath(path).endswith((".jsonl", ".jsonl.gz"))


def scorer_role(path) -> str:
    """A scorer file's role in messages and reports: ``items`` or ``benchmark``."""
    return "items" if is_items_file(path) else "benchmark"


def load_items(path: str | os.PathLike[str]) -> Items:
    """Read and validate an items file (JSONL); every error is collected, the first raised.

    A block of lines that is plainly valid is read at once (:func:`_fast_block`); any other
    block is read line by line, each fault named.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "items.jsonl"
    >>> _ = p.write_text('{"item": "q1", "referenceAnswer": ["Paris", "Lutetia"]}\\n')
    >>> load_items(p).items[0]
    Item(id='q1', references=('Paris', 'Lutetia'), facts=None)
    """
    name = os.fspath(path)
    content = read_input(name, ItemsFormatError)
    errors: list[InputFileError] = []
    items: list[Item] = []
    first_line: dict[str, int] = {}
    for block in _blocks(content):
        fast = _fast_block(block)
        if fast is not None and first_line.keys().isdisjoint(fast[0]):
            first_line.update(zip(fast[0], map(_NUMBER, block)))
            items += fast[1]
            continue
        _read_exactly(block, name, errors, items, first_line)
    if errors:
        raise ItemsFormatError.first_of(errors)
    if not items:
        raise ItemsFormatError(name, message="no items: expected one JSON object per line")
    return Items(name, sha256(content), tuple(items))


def load_questions(path: str | os.PathLike[str]) -> dict[str, str]:
    """Each item's ``question``, by item id, from an items file that :func:`load_items` reads
    (the scoring has no use for it, so :class:`~recallscore_nb.core.items.Item` holds none;
    the gaming audit's ``echo`` family gives it back). Items without one are left out; a
    question that is not a string is an :class:`ItemsFormatError` naming line and field.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "items.jsonl"
    >>> _ = p.write_text('{"item": "q1", "question": "Capital of France?", '
    ...                  '"referenceAnswer": ["Paris"]}\\n{"item": "q2", "referenceAnswer": ["7"]}\\n')
    >>> load_questions(p)
    {'q1': 'Capital of France?'}
    """
    name = os.fspath(path)
    out: dict[str, str] = {}
    for number, raw in enumerate(read_input(name, ItemsFormatError).splitlines(), 1):
        if not raw.strip():
            continue
        record = _parse_line(raw, name, number)
        if isinstance(record, InputFileError):
            raise record
        if not isinstance(record, dict) or "question" not in record:
            continue
        question, row_id = record["question"], _item_id(record)
        if not isinstance(question, str):
            raise ItemsFormatError(name, f"line {number}", "question", row_id=row_id,
                                   expected="a string", got=render(question))
        if row_id is not None:
            out[row_id] = question
    return out


def _read_exactly(block, name: str, errors: list, items: list, first_line: dict) -> None:
    """Read a block line by line, each line parsed and checked on its own (the exact path):
    its items appended to ``items``, its faults to ``errors`` in line order."""
    parsed = [(number, _parse_line(raw, name, number)) for number, raw in block]
    seed = _seed_lookup(record for _, record in parsed)
    for number, record in parsed:
        if isinstance(record, InputFileError):
            errors += record.errors
            continue
        problems = _line_errors(name, number, record, seed)
        errors += problems
        item_id = _item_id(record) if isinstance(record, dict) else None
        if item_id is None:
            continue
        if item_id in first_line:
            errors.append(ItemsFormatError(
                name, f"line {number}", "item", row_id=item_id,
                message=f"duplicate item id (first at line {first_line[item_id]})"))
            continue
        first_line[item_id] = number
        if not problems:
            items.append(_item(record))


def _parse_line(raw: bytes, name: str, number: int):
    """The record of a line, or the JSON fault that refuses it."""
    try:
        return load_json_line(raw, name, ItemsFormatError, number, _item_id)
    except InputFileError as err:
        return err
