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

import os
import re

import pyarrow as pa

from ..core.errors import InputFileError, ItemsFormatError
from ..core.facts import Fact
from ..core.items import Item, Items
from ..core.normalize import SEED, normalize_array
from ..core.tokens import term_occurs
from .files import read_input, sha256
from .jsondocs import load_json_line, render

__all__ = ["load_items"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def _line_errors(name: str, number: int, record, seed=SEED) -> list[ItemsFormatError]:
    where = f"line {number}"
    if not isinstance(record, dict):
        return [ItemsFormatError(name, where, expected="a JSON object", got=render(record))]
    item = record.get("item")
    row_id = item if isinstance(item, str) and item else None

    def error(field: str, expected: str, got) -> ItemsFormatError:
        return ItemsFormatError(name, where, field, row_id=row_id, expected=expected,
                                got="nothing" if got is _ABSENT else render(got))

    errors = []
    if not isinstance(item, str) or not item:
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
        for text in [reference] if isinstance(reference, str) else reference or ():
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


_BLOCK_LINES = 10_000
"""Lines parsed at a time (their references and terms normalized together)."""


def _parsed(content: bytes, name: str):
    """(line number, record or its JSON fault, the seed lookup of its block) for each line
    with text, a block of :data:`_BLOCK_LINES` lines at a time: the parsed records of a
    large file are never all held at once."""
    lines = content.splitlines()
    for start in range(0, len(lines), _BLOCK_LINES):
        block = []
        for number, raw in enumerate(lines[start:start + _BLOCK_LINES], start=start + 1):
            if not raw.strip():
                continue
            try:
                block.append((number, load_json_line(raw, name, ItemsFormatError, number,
                                                     _item_id)))
            except InputFileError as err:
                block.append((number, err))
        seed = _seed_lookup(record for _, record in block)
        for number, record in block:
            yield number, record, seed


def load_items(path: str | os.PathLike[str]) -> Items:
    """Read and validate an items file (JSONL); every error is collected, the first raised.

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
    for number, record, seed in _parsed(content, name):
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
    if errors:
        raise ItemsFormatError.first_of(errors)
    if not items:
        raise ItemsFormatError(name, message="no items: expected one JSON object per line")
    return Items(name, sha256(content), tuple(items))
