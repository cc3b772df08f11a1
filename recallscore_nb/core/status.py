"""Fact status under a scoring schema: present, missing, contradicted, negated or
conflicting, with the basis of each status and a weighted score.

Pure computation, no file I/O. A term occurs *inside a scope* when a negation cue ends 1 to
``window`` tokens before it in the same clause: a clause ends at ``, ; : . ! ?`` between two
tokens or before the word "but" (English heuristics). For each fact of the checklist, a term
list (its required terms, or one of its ``equivalents`` or ``contradictions`` lists) is
*found* when each of its terms occurs, *found outside* when each occurs outside every scope:

- **present**: an accepted list (required or equivalent) is found outside, and no
  contradiction list is;
- **conflicting**: an accepted list and a contradiction list are both found outside (a hedge
  such as "the west or the east drawer"): not present, penalized as a contradiction;
- **negated**: no accepted list is found outside, but one is found (some term of it occurs
  only inside a scope);
- **contradicted**: none of those, and a contradiction list is found outside (a negated
  contradiction, "not the east drawer", is no contradiction);
- **missing**: otherwise.

The first list in order (required, equivalents, contradictions) decides the basis.
Terms and cues match as the checklist's terms do: whole consecutive tokens of the seed
normalization; the terms of one list may occur anywhere, in any order. A multi-token cue
counts from its last token. A term that reads as a number (see :mod:`recallscore_nb.core.numeric`)
is compared as a number with the numbers found in the original attempt instead.

``weighted_score`` is ``(Σ weight present − falsePositivePenalty × Σ weight contradicted,
negated or conflicting) / Σ weight``, floored at 0. With no schema (``schema=None``) every fact weighs 1
and there are no equivalents, contradictions, cues or penalty: every status is present or
missing, the score is the share of facts present, and each basis says so in ``note``.

Each ``basis_<fact>`` cell is a dict (rows with the same attempt share one; treat it as
read-only)::

    {"status": "negated", "matched": "required",        # or "equivalent[0]",
                                                        # "contradiction[1]", None
     "terms": ["west", "drawer"],                       # the matched list, as written
     "spans": [[24, 28], [29, 35]],                     # each term's first occurrence,
                                                        # in the original attempt
     "cue": {"token": "not", "span": [16, 19]},         # or None
     "conversions": ["thousands separators: 1,000 = 1000"],
     "conflict": None,                                  # when conflicting: {"matched":
                                                        # "contradiction[0]", "terms", "spans"}
     "note": None}                                      # the no-schema policy, when used

What is vectorized: token ids (the engine's seed tokens), clauses (RE2 over every attempt),
every term's and cue's first occurrence per attempt, list matching, negation scopes, statuses
and scores, all numpy
over the distinct attempts. Numbers, character spans and basis dicts are built in a Python
loop over distinct attempts (numbers only when some term is a number).

>>> from recallscore_nb import load_benchmark
>>> from recallscore_nb.io.scoring_schemas import load_scoring_schema
>>> bench = load_benchmark()
>>> table = fact_status(["The copper token is not in the west drawer, but before the museum opens.",
...                      "The copper or silver token: west drawer, not east, before the museum opens."],
...                     bench, load_scoring_schema())
>>> table.filter(like="status_").values.tolist(), table["weighted_score"].tolist()
([['present', 'present', 'negated', 'present'], ['conflicting', 'present', 'present', 'present']], [0.5, 0.75])
>>> table["basis_location"].iloc[0]["cue"]
{'token': 'not', 'span': [20, 23]}
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from . import engine
from .errors import UsageError
from .facts import facts_of
from .negation import CONTRAST, Scope, clauses, scopes
from .normalize import SEED
from .numeric import NumberTerm, NumericPolicy, parse_number_term
from .status_basis import (CONFLICTING, CONTRADICTED, MISSING, NEGATED, PENALIZED, PRESENT,
                           STATUSES, TokenSpans, bases_of, numbers_found)
from .tokens import Tokens, phrase_starts
from .schema import ItemsSchema, ScoringSchema, check_schema_facts, default_schema

__all__ = ["STATUSES", "fact_status", "status_columns", "status_signature", "item_fact_names",
           "item_status_columns", "item_fact_status"]

_FAR = np.iinfo(np.int64).max // 4


def status_signature(schema: ScoringSchema | None = None) -> str:
    """The signature of the statuses and scores: the schema's, or the no-schema reading's.

    >>> status_signature()  # doctest: +ELLIPSIS
    'schema|sha256:none|fp:0|neg:none|conflict:penalized|num:abs0,rel0,pct-no|version:...'
    """
    return schema.signature() if schema is not None else _NO_SCHEMA.signature()


_NO_SCHEMA = ScoringSchema(None, None, "", 0.0, (), 0, {}, NumericPolicy())


def status_columns(benchmark) -> list[str]:
    """The columns :func:`fact_status` returns, in order.

    >>> from recallscore_nb import load_benchmark
    >>> status_columns(load_benchmark())  # doctest: +NORMALIZE_WHITESPACE
    ['status_material', 'status_object', 'status_location', 'status_timing',
     'weighted_score', 'basis_material', 'basis_object', 'basis_location', 'basis_timing']
    """
    names = [f.name for f in facts_of(benchmark)]
    return ([f"status_{n}" for n in names] + ["weighted_score"]
            + [f"basis_{n}" for n in names])


def fact_status(attempts, benchmark, schema: ScoringSchema | None = None, *,
                normalizer=SEED, basis: bool = True) -> pd.DataFrame:
    """Each fact's status, its basis, and the weighted score of each attempt.

    Parameters
    ----------
    attempts : Series, array or sequence of str
        The attempts; the result is aligned with them (a Series keeps its index).
    benchmark : Benchmark
        Whose checklist gives the facts and their required terms (or facts in any form
        :func:`recallscore_nb.core.facts.as_facts` takes).
    schema : ScoringSchema, optional
        What :func:`recallscore_nb.io.scoring_schemas.load_scoring_schema` returns; None scores
        with no schema (present or missing only, every weight 1).
    normalizer : Normalizer, keyword-only
        The normalization terms, cues and attempts are matched under: the published ``seed``
        pipeline unless an ablation asks for a variant (numbers are found as always).
    basis : bool, keyword-only
        False skips the basis dicts (their columns hold None): statuses and scores only.

    Returns
    -------
    DataFrame
        ``status_<fact>`` (strings, checklist order), ``weighted_score`` (float), then
        ``basis_<fact>`` (dicts), as :func:`status_columns` lists them.

    Examples
    --------
    >>> from recallscore_nb import load_benchmark
    >>> table = fact_status(["Copper token, west drawer."], load_benchmark())
    >>> table.filter(like="status_").iloc[0].tolist(), float(table["weighted_score"].iloc[0])
    (['present', 'present', 'present', 'missing'], 0.75)
    """
    facts = facts_of(benchmark)
    no_schema = schema is None
    schema = default_schema(facts) if no_schema else schema
    check_schema_facts(schema, facts)
    index = attempts.index if isinstance(attempts, (pd.Series, pd.DataFrame)) else None
    values = engine.as_string_array(attempts)
    index = pd.RangeIndex(len(values)) if index is None else index
    encoded = pc.dictionary_encode(values)
    expand = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    plan = _Plan.build(facts, schema, normalizer)
    codes, scores, bases = _distinct(encoded.dictionary, plan, schema, no_schema, normalizer,
                                     basis)
    columns: dict[str, object] = {}
    for j, f in enumerate(facts):
        labels = np.array(STATUSES, dtype=object)[codes[:, j]][expand]
        columns[f"status_{f.name}"] = pd.array(labels.tolist(), dtype=engine.STRING)
    columns["weighted_score"] = scores[expand].astype(np.float64)
    for j, f in enumerate(facts):
        cells = np.empty(len(codes), dtype=object)
        if basis:
            cells[:] = [row[j] for row in bases]
        columns[f"basis_{f.name}"] = cells[expand]
    return pd.DataFrame(columns, index=index)


# --- many items, each with its own facts -------------------------------------------------
def item_fact_names(items) -> list[str]:
    """Every fact name of an items file's checklists, in order of first appearance."""
    return list(dict.fromkeys(f.name for item in items.items for f in item.facts or ()))


def item_status_columns(items) -> list[str]:
    """The columns :func:`item_fact_status` returns, in order: over the union of the items'
    facts."""
    names = item_fact_names(items)
    return ([f"status_{n}" for n in names] + ["weighted_score"]
            + [f"basis_{n}" for n in names])


def item_fact_status(attempts, item_ids, items, schema: ItemsSchema | None = None, *,
                     normalizer=SEED, basis: bool = True) -> pd.DataFrame:
    """Each attempt's fact statuses and weighted score against its own item.

    A pure function of a chunk of attempts, their item ids, the items and the schema: a
    streaming scorer calls it once per chunk and gets the rows of that chunk, as one call
    on the whole file would give them. Each item's distinct attempts are scored at once
    (:func:`fact_status`'s vectorized path, a loop over the chunk's items, never over its
    attempts), with the item's schema (:meth:`ItemsSchema.for_item`; ``schema=None``: no
    schema at all).

    Parameters
    ----------
    attempts : Series or sequence of str
    item_ids : Series or sequence of str
        Aligned with ``attempts``; each an id of ``items``.
    items : Items
    schema : ItemsSchema, optional

    Returns
    -------
    DataFrame
        :func:`item_status_columns`, rows in input order (a Series keeps its index): a
        fact the row's item does not have is ``<NA>`` (its basis None), and an item with no
        checklist has no weighted score (NaN).

    Examples
    --------
    >>> from recallscore_nb.core.items import Item, Items
    >>> from recallscore_nb.core.facts import Fact
    >>> items = Items("demo", "", (Item("q1", ("west drawer",), (Fact("place", ("west",)),)),
    ...                            Item("q2", ("dawn",), (Fact("time", ("dawn",)),))))
    >>> table = item_fact_status(["not west", "at dawn"], ["q1", "q2"], items, basis=False)
    >>> table[["status_place", "status_time", "weighted_score"]].values.tolist()
    [['present', <NA>, 1.0], [<NA>, 'present', 1.0]]
    """
    index = attempts.index if isinstance(attempts, (pd.Series, pd.DataFrame)) else None
    values = engine.as_string_array(attempts)
    index = pd.RangeIndex(len(values)) if index is None else index
    row_item = _row_items(engine.as_string_array(item_ids), items, len(values))
    names = item_fact_names(items)
    column_of = {name: j for j, name in enumerate(names)}
    n = len(values)
    codes = np.full((n, len(names)), -1, dtype=np.int64)
    scores = np.full(n, np.nan, dtype=np.float64)
    bases = np.full((n, len(names)), None, dtype=object)
    for item, rows in _rows_by_item(row_item, items):
        item_schema = None if schema is None else schema.for_item(item.id)
        used = default_schema(item.facts) if item_schema is None else item_schema
        encoded = pc.dictionary_encode(values.take(pa.array(rows)))
        expand = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        item_codes, item_scores, item_bases = _distinct(
            encoded.dictionary, _Plan.build(item.facts, used, normalizer), used,
            item_schema is None, normalizer, basis)
        columns = [column_of[f.name] for f in item.facts]
        codes[np.ix_(rows, columns)] = item_codes[expand]
        scores[rows] = item_scores[expand]
        if basis:
            cells = np.empty((len(item_bases), len(columns)), dtype=object)
            for r, row in enumerate(item_bases):
                cells[r, :] = row
            bases[np.ix_(rows, columns)] = cells[expand]
    labels = np.array(STATUSES + (None,), dtype=object)
    out: dict[str, object] = {}
    for j, name in enumerate(names):
        out[f"status_{name}"] = pd.array(labels[codes[:, j]].tolist(), dtype=engine.STRING)
    out["weighted_score"] = scores
    for j, name in enumerate(names):
        out[f"basis_{name}"] = bases[:, j]
    return pd.DataFrame(out, index=index)


def _row_items(ids: pa.Array, items, n: int) -> np.ndarray:
    """Each row's item number; a count that differs from the attempts', or an unknown id,
    is refused."""
    if len(ids) != n:
        raise UsageError(f"{len(ids)} item ids for {n} attempts")
    row_item = pd.Index(items.ids).get_indexer(pd.Index(ids.to_pylist(), dtype=object))
    if (row_item < 0).any():
        unknown = list(dict.fromkeys(np.asarray(ids.to_pylist(), dtype=object)[row_item < 0]))
        raise UsageError(f"{len(unknown)} unknown item id(s), e.g. "
                         f"{', '.join(map(repr, unknown[:5]))}")
    return row_item


def _rows_by_item(row_item: np.ndarray, items):
    """(item, its rows) for each item with a checklist that some row names, in item order."""
    order = np.argsort(row_item, kind="stable")
    present_items, starts = np.unique(row_item[order], return_index=True)
    bounds = np.append(starts, len(row_item))
    for k, i in enumerate(present_items.tolist()):
        if items.items[i].facts:
            yield items.items[i], order[bounds[k]:bounds[k + 1]]


# --- the plan: every term and cue, normalized or parsed once -----------------------------
@dataclass(frozen=True)
class _Term:
    text: str                      # as written
    tokens: tuple[str, ...]        # seed tokens (text terms)
    number: NumberTerm | None      # the number it spells, if any


@dataclass(frozen=True)
class _List:
    label: str                     # "required", "equivalent[0]", "contradiction[1]"
    terms: tuple[str, ...]         # as written
    keys: tuple[int, ...]          # indices into _Plan.terms
    kind: str                      # "present" or "contradiction"


@dataclass(frozen=True)
class _Plan:
    terms: tuple[_Term, ...]
    cues: tuple[tuple[str, tuple[str, ...]], ...]  # (as written, seed tokens)
    lists: tuple[tuple[_List, ...], ...]           # per fact
    weights: np.ndarray

    @classmethod
    def build(cls, facts, schema: ScoringSchema, normalizer=SEED) -> _Plan:
        terms: list[_Term] = []
        seen: dict[str, int] = {}

        def key(text: str) -> int:
            if text not in seen:
                number = parse_number_term(text, schema.numeric)
                tokens = () if number else tuple(normalizer(text).split())
                if not number and not tokens:
                    raise UsageError(f"the term {text!r} keeps no text after normalization")
                seen[text] = len(terms)
                terms.append(_Term(text, tokens, number))
            return seen[text]

        lists = []
        for f in facts:
            rule = schema.facts.get(f.name)
            alternatives = [("required", f.terms, "present")]
            if rule is not None:
                alternatives += [(f"equivalent[{i}]", t, "present")
                                 for i, t in enumerate(rule.equivalents)]
                alternatives += [(f"contradiction[{i}]", t, "contradiction")
                                 for i, t in enumerate(rule.contradictions)]
            lists.append(tuple(_List(label, tuple(t), tuple(key(x) for x in t), kind)
                               for label, t, kind in alternatives))
        cues = tuple((c, tuple(normalizer(c).split())) for c in schema.negation_cues
                     if normalizer(c))
        weights = np.array([schema.facts[f.name].weight if f.name in schema.facts else 1.0
                            for f in facts], dtype=np.float64)
        if (weights <= 0).any():
            raise UsageError("every fact weight must be > 0")
        return cls(tuple(terms), cues, tuple(lists), weights)


# --- occurrences, vectorized over the distinct attempts ----------------------------------
def _first_positions(tokens: Tokens, starts: np.ndarray, n: int) -> np.ndarray:
    """Per row, the token position of the first start (-1 where none)."""
    first = np.full(n, -1, dtype=np.int64)
    rows, where = np.unique(tokens.rows[starts], return_index=True)
    first[rows] = tokens.positions[starts[where]]
    return first


def _distinct(values: pa.Array, plan: _Plan, schema: ScoringSchema, no_schema: bool,
              normalizer=SEED, basis: bool = True):
    """Each distinct attempt's status codes (rows × facts), weighted score and bases."""
    n, n_facts = len(values), len(plan.lists)
    texts = values.to_pylist()
    if n == 0:
        return np.zeros((0, n_facts), dtype=np.int64), np.zeros(0), []
    vocab = list(dict.fromkeys(
        [t for term in plan.terms for t in term.tokens] + [t for _, c in plan.cues for t in c]
        + [CONTRAST]))
    vocab_id = {t: i for i, t in enumerate(vocab)}
    tokens = engine.Attempts(values).tokens(normalizer, pa.array(vocab, type=pa.string()))
    row_start = tokens.firsts
    # negation: which tokens a cue's scope covers, and each cue occurrence for the basis
    clause = clauses(values, tokens, vocab_id[CONTRAST])
    cue = _cue_occurrences(tokens, plan, vocab_id)
    negated_token = scopes(cue["flat"], tokens, clause, schema.negation_window)
    first, free = _term_positions(tokens, plan, vocab_id, negated_token, n)
    spans_of = TokenSpans(texts)
    numbers = numbers_found(texts, plan, schema.numeric, spans_of, first, free,
                            Scope(negated_token, row_start, tokens.counts))
    codes, chosen, conflict, earliest_of = _decide(plan, first, free, n)
    scores = _scores(codes, plan.weights, schema.false_positive_penalty)
    if not basis:
        return codes, scores, []
    bases = bases_of(texts, plan, schema, no_schema, codes, chosen, conflict, earliest_of,
                     first, free, numbers, spans_of, cue, clause, row_start)
    return codes, scores, bases


def _cue_occurrences(tokens: Tokens, plan: _Plan, vocab_id: dict) -> dict[str, np.ndarray]:
    """Every cue occurrence, flat: its row, first and last position, cue index, and the flat
    index of its last token (a multi-token cue counts from there)."""
    parts: dict[str, list] = {"rows": [], "starts": [], "ends": [], "ids": [], "flat": []}
    for c, (_, cue_tokens) in enumerate(plan.cues):
        at = phrase_starts(tokens, [vocab_id[t] for t in cue_tokens])
        parts["rows"].append(tokens.rows[at])
        parts["starts"].append(tokens.positions[at])
        parts["ends"].append(tokens.positions[at] + len(cue_tokens) - 1)
        parts["ids"].append(np.full(len(at), c, dtype=np.int64))
        parts["flat"].append(at + len(cue_tokens) - 1)
    return {name: np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
            for name, found in parts.items()}


def _term_positions(tokens: Tokens, plan: _Plan, vocab_id: dict, negated_token: np.ndarray,
                    n: int) -> tuple[np.ndarray, np.ndarray]:
    """(terms × rows) token positions of every text term's first occurrence, and of its first
    outside any cue's scope (-1: none); numeric terms are left to the Python path."""
    first = np.full((len(plan.terms), n), -1, dtype=np.int64)
    free = np.full((len(plan.terms), n), -1, dtype=np.int64)
    for k, term in enumerate(plan.terms):
        if term.number is None:
            starts = phrase_starts(tokens, [vocab_id[t] for t in term.tokens])
            first[k] = _first_positions(tokens, starts, n)
            free[k] = _first_positions(tokens, starts[~negated_token[starts]], n)
    return first, free


def _decide(plan: _Plan, first: np.ndarray, free: np.ndarray, n: int):
    """(rows × facts) status codes, the list each status rests on, the contradiction beside a
    conflicting fact, and the earliest negated occurrence of a negated fact."""
    shape = (n, len(plan.lists))
    codes = np.full(shape, MISSING, dtype=np.int64)
    chosen, conflict, earliest_of = (np.full(shape, -1, dtype=np.int64) for _ in range(3))
    for j, lists in enumerate(plan.lists):
        accepted, negated, contradicted, negated_at = _first_lists(lists, first, free, n)
        is_accepted, is_contradicted = accepted >= 0, contradicted >= 0
        is_negated = ~is_accepted & (negated >= 0)
        codes[is_accepted, j] = np.where(is_contradicted[is_accepted], CONFLICTING, PRESENT)
        codes[is_negated, j] = NEGATED
        codes[~is_accepted & ~is_negated & is_contradicted, j] = CONTRADICTED
        chosen[:, j] = np.where(is_accepted, accepted,
                                np.where(is_negated, negated, contradicted))
        conflict[:, j] = np.where(is_accepted & is_contradicted, contradicted, -1)
        earliest_of[is_negated, j] = negated_at[is_negated]
    return codes, chosen, conflict, earliest_of


def _first_lists(lists, first: np.ndarray, free: np.ndarray, n: int):
    """For one fact, per row: the first accepted list found outside scopes, the first found
    only inside one (and where its earliest such term is), the first contradiction outside."""
    accepted, negated, contradicted, negated_at = (np.full(n, -1, dtype=np.int64)
                                                   for _ in range(4))
    for li, lst in enumerate(lists):
        keys = list(lst.keys)
        outside = (free[keys] >= 0).all(axis=0)
        if lst.kind != "present":
            contradicted[outside & (contradicted < 0)] = li
            continue
        accepted[outside & (accepted < 0)] = li
        later = (first[keys] >= 0).all(axis=0) & ~outside & (negated < 0)
        negated[later] = li
        # the earliest occurrence of a term found only inside a scope: the cue's
        inside = np.where((first[keys] >= 0) & (free[keys] < 0), first[keys], _FAR)
        negated_at[later] = inside.min(axis=0)[later]
    return accepted, negated, contradicted, negated_at


def _scores(codes: np.ndarray, weights: np.ndarray, penalty: float) -> np.ndarray:
    """The weighted score: present weight less the penalized weight, over all, floored at 0."""
    # the facts added one at a time in the schema's order, each row on its own: a matrix
    # product would add them in an order of the BLAS kernel's (its last bits differ by CPU)
    present, penalized, total = np.zeros(len(codes)), np.zeros(len(codes)), 0.0
    for j, weight in enumerate(weights.tolist()):
        present += np.where(codes[:, j] == PRESENT, weight, 0.0)
        penalized += np.where(np.isin(codes[:, j], PENALIZED), weight, 0.0)
        total += weight
    return np.maximum(0.0, (present - penalty * penalized) / total)
