"""Loading and validating benchmark files: the edge between a JSON file and the scorers.

A benchmark file is checked in stages, and every problem found is reported, each as a
:class:`~recallscore_nb.core.errors.BenchmarkFormatError` naming the file (as the caller gave it),
the JSON path, the row id, the field, what was expected and what was found:

1. the bytes: a regular file of UTF-8 JSON data holding an object (no repeated key, no
   nesting past :data:`~recallscore_nb.io.jsondocs.MAX_DEPTH`, every number finite and every
   string Unicode: see :mod:`recallscore_nb.io.jsondocs`); problems here stop the validation;
2. the JSON Schema ``data/schemas/benchmark.schema.json`` (draft 2020-12);
3. what a schema cannot say: unique row ids, fact names unique ignoring case, terms that keep
   some text under the seed normalization, a reference answer that passes its own checklist,
   and ``factsPresent`` no larger than the number of facts. These run beside stage 2, on
   every part whose type is right, so one fix never uncovers an error that was already there.

Whether the published labels agree with the rules is not a format question; reproducing
the benchmark answers it.
"""

from __future__ import annotations

import os
from typing import Any

from ..core.benchmark import LABELS, Benchmark, Row
from ..core.errors import BenchmarkFormatError, InputFileError
from ..core.facts import Fact
from ..core.normalize import SEED
from ..core.tokens import term_occurs
from .data import DEFAULT_BENCHMARK
from .files import sha256
from .jsondocs import (
    JsonPath,
    parse_object,
    read_document,
    render,
    schema_problems,
    split_path,
    validator,
)

__all__ = ["load_benchmark"]

_ROW_FIELDS = {"id", "attempt", "condition", *LABELS}


def load_benchmark(path: str | os.PathLike[str] | None = None) -> Benchmark:
    """Read and validate a benchmark file.

    Parameters
    ----------
    path : str or path-like, optional
        The file to read; the shipped four-fact benchmark when omitted.

    Returns
    -------
    Benchmark
        The benchmark, its ``path`` the file as named here.

    Raises
    ------
    BenchmarkFormatError
        The first problem found; ``errors`` holds all of them.

    Examples
    --------
    >>> b = load_benchmark()
    >>> len(b.rows), [f.name for f in b.facts]
    (12, ['material', 'object', 'location', 'timing'])
    >>> b.rows[8].condition, b.rows[8].expected["factsPresent"]
    ('material omitted', 3)
    """
    name = os.fspath(DEFAULT_BENCHMARK if path is None else path)
    content = read_document(name, BenchmarkFormatError)
    data = parse_object(name, content, BenchmarkFormatError, _row_id)
    errors = _schema_errors(name, data) + _checklist_errors(name, data) + _row_errors(name, data)
    if errors:
        raise InputFileError.first_of(errors)
    return _benchmark(name, sha256(content), data)


# --- stages 1 and 2: bytes, JSON, the JSON Schema ------------------------------------------
def _schema_errors(name: str, data: dict[str, Any]) -> list[InputFileError]:
    return [
        BenchmarkFormatError(name, *split_path(parts), expected=expected, got=got,
                             row_id=_row_id(data, parts))
        for parts, expected, got in schema_problems(validator("benchmark.schema.json"), data)
    ]


# --- stage 3: what the schema cannot say -------------------------------------------------
# Each check reads only the parts whose type is right; stage 2 names the others.
def _checklist(data: dict[str, Any]) -> list[Any]:
    protocol = data.get("protocol")
    checklist = protocol.get("factChecklist") if isinstance(protocol, dict) else None
    return checklist if isinstance(checklist, list) else []


def _checklist_errors(name: str, data: dict[str, Any]) -> list[InputFileError]:
    reference = data.get("referenceAnswer")
    normalized_reference = SEED(reference) if isinstance(reference, str) and reference else None
    first_use: dict[str, str] = {}
    errors: list[InputFileError] = []
    for i, fact in enumerate(_checklist(data)):
        if not isinstance(fact, dict):
            continue
        where = f"$.protocol.factChecklist[{i}]"
        fact_name = fact.get("fact")
        if isinstance(fact_name, str):
            folded = fact_name.casefold()
            if folded in first_use:
                expected = "a name unique ignoring case"
                got = f"{render(fact_name)}, already named at {first_use[folded]}"
                errors.append(BenchmarkFormatError(name, where, "fact", expected=expected,
                                                   got=got))
            first_use.setdefault(folded, where)
        terms = fact.get("requiredTerms")
        for j, term in enumerate(terms if isinstance(terms, list) else ()):
            if not isinstance(term, str) or not term:
                continue
            normalized = SEED(term)
            if not normalized:
                expected = "a term that keeps some text after normalization"
                errors.append(
                    BenchmarkFormatError(
                        name, where, f"requiredTerms[{j}]", expected=expected, got=render(term)
                    )
                )
            elif normalized_reference is not None and not term_occurs(normalized_reference,
                                                                       normalized):
                expected = f"the term {render(term)} of fact {fact_name}"
                errors.append(
                    BenchmarkFormatError(
                        name, "$", "referenceAnswer", expected=expected, got=render(reference)
                    )
                )
    return errors


def _row_errors(name: str, data: dict[str, Any]) -> list[InputFileError]:
    checklist = _checklist(data)
    n_facts = len(checklist) if checklist else None
    rows = data.get("rows")
    first_use: dict[str, str] = {}
    errors: list[InputFileError] = []
    for i, row in enumerate(rows if isinstance(rows, list) else ()):
        if not isinstance(row, dict):
            continue
        where, row_id = f"$.rows[{i}]", _row_id(data, ("rows", i))
        if row_id is not None and row_id in first_use:
            got = f"{render(row_id)}, a duplicate (already the id of {first_use[row_id]})"
            errors.append(
                BenchmarkFormatError(
                    name, where, "id", expected="a unique id", got=got, row_id=row_id
                )
            )
        if row_id is not None:
            first_use.setdefault(row_id, where)
        present = row.get("factsPresent")
        if n_facts is not None and _is_int(present) and present > n_facts:
            errors.append(
                BenchmarkFormatError(
                    name,
                    where,
                    "factsPresent",
                    expected=f"at most {n_facts}, the number of facts",
                    got=render(present),
                    row_id=row_id,
                )
            )
    return errors


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- building the result -----------------------------------------------------------------
def _benchmark(name: str, sha256: str, data: dict[str, Any]) -> Benchmark:
    checklist = data["protocol"]["factChecklist"]
    return Benchmark(
        path=name,
        sha256=sha256,
        title=data.get("title"),
        reference=data["referenceAnswer"],
        facts=tuple(Fact(fact["fact"], tuple(fact["requiredTerms"])) for fact in checklist),
        rows=tuple(_row(row) for row in data["rows"]),
        summary=dict(data.get("summary", {})),
        limitations=tuple(data.get("limitations", ())),
        version_history=tuple(data.get("versionHistory", ())),
        raw=data,
    )


def _row(row: dict[str, Any]) -> Row:
    return Row(
        id=row["id"],
        attempt=row["attempt"],
        condition=row.get("condition"),
        expected={key: row[key] for key in LABELS if key in row},
        extra={key: value for key, value in row.items() if key not in _ROW_FIELDS},
    )


# --- locations ---------------------------------------------------------------------------
def _row_id(data: Any, parts: JsonPath) -> str | None:
    """The id of the row a path lies in, when the row has a non-empty string id."""
    if len(parts) < 2 or parts[0] != "rows" or not isinstance(parts[1], int):
        return None
    rows = data.get("rows") if isinstance(data, dict) else None
    row = rows[parts[1]] if isinstance(rows, list) else None
    row_id = row.get("id") if isinstance(row, dict) else None
    return row_id if isinstance(row_id, str) and row_id else None
