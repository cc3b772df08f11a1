"""Scoring schemas: one defensible reading of a benchmark's facts, loaded and validated.

A scoring schema is a JSON file beside a benchmark. It says how much each fact weighs,
which other term lists count as the fact (``equivalents``) or as a wrong value
(``contradictions``), which cue tokens negate a fact, how heavily a wrong or negated fact
is penalized, and how numbers compare. :func:`recallscore_nb.core.status.fact_status` applies it.

The file is checked in stages and every problem is reported, each a
:class:`SchemaFormatError` naming the file, the JSON path, the field, what was expected and
what was found:

1. the bytes: a regular file of UTF-8 JSON data holding an object (no repeated key, every
   number finite, every string Unicode: see :mod:`recallscore_nb.io.jsondocs`); problems here
   stop the validation;
2. the JSON Schema ``data/schemas/scoring.schema.json`` (draft 2020-12): unknown fields,
   weights that are not positive, a missing or blank ``disagreementNote`` are refused there;
3. what depends on the benchmark or on normalization: every fact named is a fact of the
   benchmark's checklist, every term and cue keeps some text under the seed normalization,
   no base unit is itself converted, and the weights of the benchmark's facts add up to a
   finite number (else every weighted score would be NaN). Stages 2 and 3 run together.

**Items files.** A schema for an items file has ``items`` in place of ``facts``: item id to
``{"facts": {…}}`` and, optionally, that item's own ``falsePositivePenalty``, ``negation``
or ``numeric`` (the top level's otherwise). Given an :class:`~recallscore_nb.core.items.Items`,
:func:`load_scoring_schema` returns an :class:`~recallscore_nb.core.schema.ItemsSchema`; an
item it does not name is scored with its required terms alone under the top level's
settings. Stage 3 then refuses an item id the file does not have, a fact its item's checklist
does not have, a ``facts`` schema given with an items file and an ``items`` schema given with
a benchmark, each saying why.

Fields left out take these values: ``falsePositivePenalty`` 0.5; ``negation`` the cues
not/no/never/without with a window of 12 tokens, each reaching to the end of its clause (an empty ``cues`` list turns negation off);
``numeric`` zero tolerances, percentages kept as percentages, no units. A fact the schema
leaves out weighs 1, with no equivalents or contradictions.

>>> schema = load_scoring_schema()
>>> schema.signature()  # doctest: +ELLIPSIS
'schema|sha256:...|fp:0.5|neg:not,no,never,without/12/clause|conflict:penalized|num:abs0,rel0,pct-no|version:...'
>>> [(rule.name, rule.weight) for rule in schema.facts.values()]
[('material', 1.0), ('object', 1.0), ('location', 2.0), ('timing', 2.0)]
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any

from ..core.errors import InputFileError, SchemaFormatError
from ..core.facts import Fact, facts_of
from ..core.items import Items
from ..core.normalize import SEED
from ..core.numeric import NumericPolicy
from ..core.schema import (
    DEFAULT_FALSE_POSITIVE_PENALTY,
    DEFAULT_NEGATION_CUES,
    DEFAULT_NEGATION_WINDOW,
    FactRule,
    ItemsSchema,
    ScoringSchema,
)
from .data import DEFAULT_SCHEMA_PATH
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

__all__ = ["load_scoring_schema"]


def load_scoring_schema(
    path: str | os.PathLike[str] | None = None, benchmark=None
) -> ScoringSchema | ItemsSchema:
    """Read and validate a scoring schema against the JSON Schema and a benchmark (or an
    items file).

    Parameters
    ----------
    path : str or path-like, optional
        The file to read; :data:`DEFAULT_SCHEMA_PATH` when omitted.
    benchmark : Benchmark or Items, optional
        The benchmark whose facts the schema scores, or the items file whose items' facts it
        scores; the shipped benchmark when omitted.

    Returns
    -------
    ScoringSchema or ItemsSchema
        For a benchmark, one :class:`FactRule` per checklist fact, in checklist order; for an
        items file, the shared settings and each named item's schema.

    Raises
    ------
    SchemaFormatError
        The first problem found; ``errors`` holds every one.

    Examples
    --------
    >>> schema = load_scoring_schema()
    >>> schema.facts["location"].contradictions[0]
    ('east', 'drawer')
    """
    name = os.fspath(DEFAULT_SCHEMA_PATH if path is None else path)
    if benchmark is None:
        from .benchmarks import load_benchmark

        benchmark = load_benchmark()
    try:
        content = read_document(name, SchemaFormatError)
        data = parse_object(name, content, SchemaFormatError)
    except InputFileError as err:
        raise InputFileError.first_of(err.errors) from None
    if isinstance(benchmark, Items):
        later = _items_problems(data, benchmark)
    else:
        later = _benchmark_problems(data, facts_of(benchmark))
    problems = _schema_problems(data) + later
    if problems:
        problems.sort(key=lambda p: [(isinstance(part, str), part) for part in p[0]])
        raise InputFileError.first_of([_error(name, *p) for p in problems])
    if isinstance(benchmark, Items):
        return _build_items(name, sha256(content), data, benchmark)
    return _build(name, sha256(content), data, facts_of(benchmark))


# --- errors ------------------------------------------------------------------------------
def _error(name: str, parts: JsonPath, expected: str, got: str) -> SchemaFormatError:
    location, field_name = split_path(parts)
    return SchemaFormatError(name, location, field_name, expected=expected, got=got)


# --- stage 2: the JSON Schema ------------------------------------------------------------
def _schema_problems(data: dict[str, Any]) -> list[tuple[JsonPath, str, str]]:
    return schema_problems(validator("scoring.schema.json"), data)


# --- stage 3: the benchmark and the normalization ----------------------------------------
Problem = tuple[JsonPath, str, str]  # (where, expected, got)


def _benchmark_problems(data: dict[str, Any], facts: tuple[Fact, ...]) -> list[Problem]:
    problems = _settings_problems(data, ())
    if "items" in data:
        problems.append((("items",), "no 'items': a schema for an items file cannot score a "
                         "single-reference benchmark (give its items' facts as 'facts')",
                         "an items schema"))
    return problems + _facts_problems(data.get("facts"), facts, ("facts",),
                                      "the benchmark's checklist")


def _facts_problems(rules: Any, facts: tuple[Fact, ...], where: JsonPath,
                    whose: str) -> list[Problem]:
    problems: list[Problem] = []
    names = [f.name for f in facts]
    if isinstance(rules, dict):
        problems += _weight_problems(rules, names, where)
        for fact_name, rule in rules.items():
            if fact_name not in names:
                known = f" ({', '.join(names)})" if names else " (it has none)"
                problems.append(((*where, fact_name), f"a fact of {whose}{known}",
                                 render(fact_name)))
            if isinstance(rule, dict):
                for key in ("equivalents", "contradictions"):
                    problems += _term_problems(rule.get(key), (*where, fact_name, key),
                                               nested=True)
    return problems


def _settings_problems(data: dict[str, Any], where: JsonPath) -> list[Problem]:
    """The negation cues and the units of the top level, or of an item."""
    problems: list[Problem] = []
    negation = data.get("negation")
    if isinstance(negation, dict):
        problems += _term_problems(negation.get("cues"), (*where, "negation", "cues"),
                                   nested=False)
    numeric = data.get("numeric")
    units = numeric.get("units") if isinstance(numeric, dict) else None
    if isinstance(units, dict):
        problems += [((*where, *at), expected, got) for at, expected, got in _unit_problems(units)]
    return problems


def _items_problems(data: dict[str, Any], items: Items) -> list[Problem]:
    """Stage 3 for an items file: every item named is one of the file's, every fact one of
    that item's checklist."""
    problems = _settings_problems(data, ())
    if "facts" in data:
        problems.append((("facts",), "'items' in place of 'facts': a single-reference schema "
                         f"cannot score an items file ({items.path}); name each item's facts "
                         'under "items": {"<item id>": {"facts": {…}}}', "a single-reference schema"))
    rules = data.get("items")
    if not isinstance(rules, dict):
        return problems
    by_id = {item.id: item for item in items.items}
    for item_id, rule in rules.items():
        item = by_id.get(item_id)
        if item is None:
            shown = ", ".join(list(by_id)[:5]) + (", …" if len(by_id) > 5 else "")
            problems.append((("items", item_id), f"an item of {items.path} ({shown})",
                             render(item_id)))
            continue
        if isinstance(rule, dict):
            problems += _settings_problems(rule, ("items", item_id))
            problems += _facts_problems(rule.get("facts"), item.facts or (),
                                        ("items", item_id, "facts"),
                                        f"item {item_id}'s checklist")
    return problems


def _weight_problems(rules: dict[str, Any], names: list[str],
                     where: JsonPath = ("facts",)) -> list[Problem]:
    """The weights of the checklist's facts (1 when not given) must add up to a finite sum."""
    weights = []
    for fact_name in names:
        rule = rules.get(fact_name, {})
        weight = rule.get("weight", 1.0) if isinstance(rule, dict) else 1.0
        if not isinstance(weight, (int, float)) or isinstance(weight, bool):
            return []  # the JSON Schema names it
        weights.append(float(weight))
    if math.isfinite(sum(weights)):
        return []
    return [(where, "weights that add up to a finite number",
             f"weights adding up to more than {sys.float_info.max:.4g}")]


def _term_problems(value: Any, parts: JsonPath, *, nested: bool) -> list[Problem]:
    if not isinstance(value, list):
        return []
    lists = enumerate(value) if nested else [(None, value)]
    problems = []
    for i, terms in lists:
        if not isinstance(terms, list):
            continue
        for j, term in enumerate(terms):
            if isinstance(term, str) and term and not SEED(term):
                where = (*parts, i, j) if nested else (*parts, j)
                problems.append((where, "a term that keeps some text after normalization",
                                 render(term)))
    return problems


def _unit_problems(units: dict[str, Any]) -> list[Problem]:
    problems = []
    lowered: dict[str, str] = {}
    for unit, spec in units.items():
        folded = unit.lower()
        if folded in lowered:
            expected = "a unit unique ignoring case"
            got = f"{render(unit)}, already named as {render(lowered[folded])}"
            problems.append((("numeric", "units", unit), expected, got))
        lowered.setdefault(folded, unit)
    for unit, spec in units.items():
        if not (isinstance(spec, list) and spec and isinstance(spec[0], str)):
            continue
        base = spec[0].lower()
        target = units.get(base) or next((s for u, s in units.items() if u.lower() == base), None)
        if target is not None and isinstance(target, list) and target and \
                isinstance(target[0], str) and target[0].lower() != base:
            problems.append((("numeric", "units", unit, 0),
                             "a base unit that is not itself converted",
                             render(spec[0])))
    return problems


# --- building the result -----------------------------------------------------------------
def _build(name: str, sha256: str, data: dict[str, Any], facts: tuple[Fact, ...],
           shared: dict[str, Any] | None = None) -> ScoringSchema:
    """The schema of ``facts``: ``data``'s settings, else ``shared``'s, else the defaults."""
    shared = shared or {}
    rules = data.get("facts", {})
    negation = data.get("negation", shared.get("negation", {}))
    numeric = data.get("numeric", shared.get("numeric", {}))
    penalty = data.get("falsePositivePenalty", shared.get("falsePositivePenalty"))
    data = {**data, "disagreementNote": shared.get("disagreementNote",
                                                   data.get("disagreementNote")),
            "falsePositivePenalty": (DEFAULT_FALSE_POSITIVE_PENALTY if penalty is None
                                     else penalty)}
    return ScoringSchema(
        path=name,
        sha256=sha256,
        disagreement_note=data["disagreementNote"],
        false_positive_penalty=float(
            data.get("falsePositivePenalty", DEFAULT_FALSE_POSITIVE_PENALTY)),
        negation_cues=tuple(negation.get("cues", DEFAULT_NEGATION_CUES)),
        negation_window=int(negation.get("window", DEFAULT_NEGATION_WINDOW)),
        facts={f.name: _rule(f.name, rules.get(f.name, {})) for f in facts},
        numeric=NumericPolicy(
            abs_tol=float(numeric.get("absTol", 0.0)),
            rel_tol=float(numeric.get("relTol", 0.0)),
            percent_as_fraction=bool(numeric.get("percentAsFraction", False)),
            units={unit.lower(): (base.lower(), float(factor))
                   for unit, (base, factor) in numeric.get("units", {}).items()},
        ),
    )


def _build_items(name: str, sha256: str, data: dict[str, Any], items: Items) -> ItemsSchema:
    by_id = {item.id: item for item in items.items}
    return ItemsSchema(
        shared=_build(name, sha256, {k: v for k, v in data.items() if k != "items"}, ()),
        items={item_id: _build(name, sha256, rule, by_id[item_id].facts or (), shared=data)
               for item_id, rule in data.get("items", {}).items()})


def _rule(fact_name: str, rule: dict[str, Any]) -> FactRule:
    return FactRule(
        name=fact_name,
        weight=float(rule.get("weight", 1.0)),
        equivalents=tuple(tuple(terms) for terms in rule.get("equivalents", ())),
        contradictions=tuple(tuple(terms) for terms in rule.get("contradictions", ())),
    )
