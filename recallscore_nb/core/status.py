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

import re
import string
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from . import engine
from .errors import UsageError
from .facts import facts_of
from .normalize import SEED
from .tokens import Tokens, phrase_starts
from .numeric import (
    FoundNumber,
    NumberTerm,
    NumericPolicy,
    find_numbers,
    numbers_equal,
    parse_number_term,
)
from .schema import ItemsSchema, ScoringSchema, check_schema_facts, default_schema

__all__ = ["STATUSES", "fact_status", "status_columns", "status_signature", "item_fact_names",
           "item_status_columns", "item_fact_status"]

STATUSES = ("present", "missing", "contradicted", "negated", "conflicting")
"""The statuses a fact can have; ``status_<fact>`` columns hold these strings."""

PRESENT, MISSING, CONTRADICTED, NEGATED, CONFLICTING = range(5)
PENALIZED = (CONTRADICTED, NEGATED, CONFLICTING)

NO_SCHEMA_NOTE = ("no scoring schema: every fact weighs 1, with no equivalents, "
                  "contradictions, negation or penalty, so the status is present or missing")
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
    ids = engine.as_string_array(item_ids)
    if len(ids) != len(values):
        raise UsageError(f"{len(ids)} item ids for {len(values)} attempts")
    row_item = pd.Index(items.ids).get_indexer(pd.Index(ids.to_pylist(), dtype=object))
    if (row_item < 0).any():
        unknown = list(dict.fromkeys(np.asarray(ids.to_pylist(), dtype=object)[row_item < 0]))
        raise UsageError(f"{len(unknown)} unknown item id(s), e.g. "
                         f"{', '.join(map(repr, unknown[:5]))}")
    names = item_fact_names(items)
    column_of = {name: j for j, name in enumerate(names)}
    n = len(values)
    codes = np.full((n, len(names)), -1, dtype=np.int64)
    scores = np.full(n, np.nan, dtype=np.float64)
    bases = np.full((n, len(names)), None, dtype=object)
    order = np.argsort(row_item, kind="stable")
    present_items, starts = np.unique(row_item[order], return_index=True)
    bounds = np.append(starts, n)
    for k, i in enumerate(present_items.tolist()):
        item = items.items[i]
        if not item.facts:
            continue
        rows = order[bounds[k]:bounds[k + 1]]
        item_schema = None if schema is None else schema.for_item(item.id)
        no_schema = item_schema is None
        if no_schema:
            item_schema = default_schema(item.facts)
        encoded = pc.dictionary_encode(values.take(pa.array(rows)))
        expand = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        plan = _Plan.build(item.facts, item_schema, normalizer)
        item_codes, item_scores, item_bases = _distinct(
            encoded.dictionary, plan, item_schema, no_schema, normalizer, basis)
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
    n, n_facts = len(values), len(plan.lists)
    texts = values.to_pylist()
    if n == 0:
        return np.zeros((0, n_facts), dtype=np.int64), np.zeros(0), []
    prepared = engine.Attempts(values)
    vocab = list(dict.fromkeys(
        [t for term in plan.terms for t in term.tokens] + [t for _, c in plan.cues for t in c]
        + [CONTRAST]))
    vocab_id = {t: i for i, t in enumerate(vocab)}
    tokens = prepared.tokens(normalizer, pa.array(vocab, type=pa.string()))
    row_start = np.zeros(n, dtype=np.int64)
    np.cumsum(tokens.counts[:-1], out=row_start[1:])

    # negation: which tokens a cue's scope covers, and each cue occurrence for the basis
    clause = _clauses(values, tokens, vocab_id[CONTRAST])
    cue_rows, cue_starts, cue_ends, cue_ids, cue_flat = [], [], [], [], []
    for c, (_, cue_tokens) in enumerate(plan.cues):
        at = phrase_starts(tokens, [vocab_id[t] for t in cue_tokens])
        cue_rows.append(tokens.rows[at])
        cue_starts.append(tokens.positions[at])
        cue_ends.append(tokens.positions[at] + len(cue_tokens) - 1)
        cue_ids.append(np.full(len(at), c, dtype=np.int64))
        cue_flat.append(at + len(cue_tokens) - 1)
    cue = {name: np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
           for name, parts in (("rows", cue_rows), ("starts", cue_starts),
                               ("ends", cue_ends), ("ids", cue_ids), ("flat", cue_flat))}
    negated_token = _scopes(cue["flat"], tokens, clause, schema.negation_window)

    # first occurrence (token position) of every term, and its first one outside any scope;
    # numbers take the Python path
    first = np.full((len(plan.terms), n), -1, dtype=np.int64)
    free = np.full((len(plan.terms), n), -1, dtype=np.int64)
    for k, term in enumerate(plan.terms):
        if term.number is None:
            starts = phrase_starts(tokens, [vocab_id[t] for t in term.tokens])
            first[k] = _first_positions(tokens, starts, n)
            free[k] = _first_positions(tokens, starts[~negated_token[starts]], n)
    spans_of = _TokenSpans(texts)
    numbers = _numbers(texts, plan, schema.numeric, spans_of, first, free,
                       _Scope(negated_token, row_start, tokens.counts))

    codes = np.full((n, n_facts), MISSING, dtype=np.int64)
    chosen = np.full((n, n_facts), -1, dtype=np.int64)
    conflict = np.full((n, n_facts), -1, dtype=np.int64)
    earliest_of = np.full((n, n_facts), -1, dtype=np.int64)
    for j, lists in enumerate(plan.lists):
        accepted = np.full(n, -1, dtype=np.int64)      # the first list found outside scopes
        negated = np.full(n, -1, dtype=np.int64)       # the first found only inside one
        contradicted = np.full(n, -1, dtype=np.int64)  # the first contradiction outside
        negated_at = np.full(n, -1, dtype=np.int64)
        for li, lst in enumerate(lists):
            keys = list(lst.keys)
            outside = (free[keys] >= 0).all(axis=0)
            if lst.kind == "present":
                take = outside & (accepted < 0)
                accepted[take] = li
                found = (first[keys] >= 0).all(axis=0)
                later = found & ~outside & (negated < 0)
                negated[later] = li
                # the earliest occurrence of a term found only inside a scope: the cue's
                inside = np.where((first[keys] >= 0) & (free[keys] < 0), first[keys], _FAR)
                negated_at[later] = inside.min(axis=0)[later]
            else:
                take = outside & (contradicted < 0)
                contradicted[take] = li
        is_accepted, is_contradicted = accepted >= 0, contradicted >= 0
        is_negated = ~is_accepted & (negated >= 0)
        codes[is_accepted, j] = np.where(is_contradicted[is_accepted], CONFLICTING, PRESENT)
        codes[is_negated, j] = NEGATED
        only_contradicted = ~is_accepted & ~is_negated & is_contradicted
        codes[only_contradicted, j] = CONTRADICTED
        chosen[:, j] = np.where(is_accepted, accepted,
                                np.where(is_negated, negated, contradicted))
        conflict[:, j] = np.where(is_accepted & is_contradicted, contradicted, -1)
        earliest_of[is_negated, j] = negated_at[is_negated]

    weights = plan.weights
    present = (codes == PRESENT) @ weights
    penalized = np.isin(codes, PENALIZED) @ weights
    scores = np.maximum(0.0, (present - schema.false_positive_penalty * penalized) / weights.sum())

    if not basis:
        return codes, scores, []
    bases = _bases(texts, plan, schema, no_schema, codes, chosen, conflict, earliest_of,
                   first, free, numbers, spans_of, cue, clause, row_start)
    return codes, scores, bases


# --- clauses and the scope of each cue ---------------------------------------------------
# A clause ends at , ; : . ! or ? between two tokens (punctuation inside a token, as in
# "3.5", does not end one) and before the token "but". Tokens are found in the original text
# as :class:`_TokenSpans` finds them, with RE2 over every row at once.
CONTRAST = "but"
CLAUSE_ENDS = ",;:.!?"
_WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
               + "\u2028\u2029\u202f\u205f\u3000")  # what str.split() splits on


def _re2_class(chars: str) -> str:
    return "".join(f"\\x{{{ord(c):x}}}" for c in chars)


_RE2_TOKEN = (f"[^{_re2_class(_WHITESPACE + string.punctuation)}]"
              f"(?:[^{_re2_class(_WHITESPACE)}]*[^{_re2_class(_WHITESPACE + string.punctuation)}])?")
_RE2_KEEP = f"[^T{_re2_class(CLAUSE_ENDS)}]+"


def _clauses(values: pa.Array, tokens: Tokens, contrast: int) -> np.ndarray:
    """A clause number for each token (flat, as ``tokens``): equal within a clause of a row.

    Rows whose tokens the normalizer splits otherwise than the seed pipeline does (an
    ablation's variant that keeps punctuation, say) are one clause up to each "but".
    """
    marks = pc.replace_substring_regex(pc.replace_substring_regex(values, _RE2_TOKEN, "T"),
                                       _RE2_KEEP, "")
    marks = pa.concat_arrays([marks]) if isinstance(marks, pa.ChunkedArray) else marks
    width = np.int64 if pa.types.is_large_string(marks.type) else np.int32
    offsets = np.frombuffer(marks.buffers()[1], dtype=width)[
        marks.offset:marks.offset + len(marks) + 1].astype(np.int64)
    chars = np.frombuffer(marks.buffers()[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
    is_token = chars == ord("T")
    ends_before = np.cumsum(~is_token)[is_token]
    mark_rows = np.repeat(np.arange(len(values), dtype=np.int64), np.diff(offsets))[is_token]
    same = np.bincount(mark_rows, minlength=len(values)) == tokens.counts
    punct = np.zeros(len(tokens.ids), dtype=np.int64)
    punct[same[tokens.rows]] = ends_before[same[mark_rows]]
    starts = np.ones(len(tokens.ids), dtype=bool)
    starts[1:] = (punct[1:] != punct[:-1]) | (tokens.rows[1:] != tokens.rows[:-1])
    return np.cumsum(starts | (tokens.ids == contrast))


def _scopes(cue_ends: np.ndarray, tokens: Tokens, clause: np.ndarray,
            window: int) -> np.ndarray:
    """Whether each token (flat) lies in a cue's scope: after the cue's last token (flat
    indices ``cue_ends``), in its clause, at most ``window`` tokens on."""
    inside = np.zeros(len(tokens.ids), dtype=bool)
    for d in range(1, window + 1):
        at = cue_ends + d
        at = at[at < len(tokens.ids)]
        ok = clause[at] == clause[at - d]
        inside[at[ok]] = True
    return inside


@dataclass(frozen=True)
class _Scope:
    """Whether the token at (row, position) is in a cue's scope."""

    inside: np.ndarray
    row_start: np.ndarray
    counts: np.ndarray

    def __call__(self, row: int, position: int) -> bool:
        if position < 0 or position >= self.counts[row]:
            return False
        return bool(self.inside[self.row_start[row] + position])


def _isin(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


# --- the Python path: token spans, numbers, bases ----------------------------------------
# A seed token is a whitespace-delimited run with its ASCII punctuation deleted; its span runs
# from the run's first kept character to its last. Lowercasing never turns a character into
# whitespace or ASCII punctuation, so the original text can be read directly.
_PUNCT = re.escape(string.punctuation)
_TOKEN = re.compile(rf"[^\s{_PUNCT}](?:\S*[^\s{_PUNCT}])?")


class _TokenSpans:
    """Each distinct attempt's seed tokens as character spans of the original, on demand.

    The seed pipeline lowercases, deletes ASCII punctuation and splits on whitespace; a
    token's span runs from its first kept character to its last, so ``west-drawer`` (token
    ``westdrawer``) spans the whole original ``west-drawer``.
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._cache: dict[int, list[tuple[int, int]]] = {}

    def __getitem__(self, row: int) -> list[tuple[int, int]]:
        if row not in self._cache:
            self._cache[row] = _token_spans(self.texts[row])
        return self._cache[row]


def _token_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text)]


def _token_at(spans: list[tuple[int, int]], span: tuple[int, int]) -> int:
    """The first token overlapping a character span (numbers always keep a digit or letter)."""
    for i, (s, e) in enumerate(spans):
        if e > span[0] and s < span[1]:
            return i
    return -1


def _numbers(texts, plan: _Plan, policy, spans_of: _TokenSpans, first: np.ndarray,
             free: np.ndarray, scope: _Scope):
    """For numeric terms: per (term, row), the first matching number and the first outside
    any cue's scope (keys ``(k, row)`` and ``(k, row, "free")``); fills ``first``, ``free``."""
    numeric = [k for k, term in enumerate(plan.terms) if term.number is not None]
    matches: dict[tuple, FoundNumber] = {}
    if not numeric:
        return matches
    for row, text in enumerate(texts):
        found = find_numbers(text, policy)
        if not found:
            continue
        for k in numeric:
            for hit in found:
                if not numbers_equal(plan.terms[k].number, hit, policy):
                    continue
                position = _token_at(spans_of[row], hit.span)
                if (k, row) not in matches:
                    matches[(k, row)] = hit
                    first[k, row] = position
                if not scope(row, position):
                    matches[(k, row, "free")] = hit
                    free[k, row] = position
                    break
    return matches


def _bases(texts, plan, schema, no_schema, codes, chosen, conflict, earliest_of, first, free,
           numbers, spans_of, cue, clause, row_start) -> list[list[dict]]:
    note = NO_SCHEMA_NOTE if no_schema else None
    cue_order = np.argsort(cue["rows"], kind="stable")
    cue_bounds = np.searchsorted(cue["rows"][cue_order], np.arange(len(texts) + 1))
    # Python lists index far faster than numpy scalars in this loop.
    codes, chosen, conflict, earliest_of, first, free = (
        a.tolist() for a in (codes, chosen, conflict, earliest_of, first, free))
    term_info = [(term.number, len(term.tokens) - 1) for term in plan.terms]

    def located(lst, row, inside):
        """Each term's span and the numeric conversions: the first occurrence outside any
        scope, or (``inside``) the first occurrence at all."""
        spans = spans_of[row]
        positions = first if inside else free
        found, conversions = [], []
        for k in lst.keys:
            number, extra = term_info[k]
            if number is not None:
                hit = numbers[(k, row)] if inside else numbers[(k, row, "free")]
                found.append(list(hit.span))
                conversions += _number_notes(number, hit, schema.numeric)
            else:
                p = positions[k][row]
                found.append([spans[p][0], spans[p + extra][1]])
        return found, conversions

    out = []
    for row in range(len(texts)):
        cells = []
        row_codes, row_chosen, row_conflict = codes[row], chosen[row], conflict[row]
        for j, lists in enumerate(plan.lists):
            code, li = row_codes[j], row_chosen[j]
            if li < 0:
                cells.append({"status": STATUSES[code], "matched": None, "terms": [],
                              "spans": [], "cue": None, "conversions": [], "conflict": None,
                              "note": note})
                continue
            lst = lists[li]
            found, conversions = located(lst, row, code == NEGATED)
            cue_basis = None
            if code == NEGATED:
                cue_basis = _cue_basis(plan, cue, cue_order, cue_bounds, row,
                                       earliest_of[row][j], schema, spans_of[row], clause,
                                       row_start)
            against = None
            if code == CONFLICTING:
                other = lists[row_conflict[j]]
                against = {"matched": other.label, "terms": list(other.terms),
                           "spans": located(other, row, False)[0]}
            cells.append({"status": STATUSES[code], "matched": lst.label,
                          "terms": list(lst.terms), "spans": found, "cue": cue_basis,
                          "conversions": conversions, "conflict": against, "note": note})
        out.append(cells)
    return out


def _number_notes(term: NumberTerm, hit: FoundNumber, policy) -> list[str]:
    notes = [f"term {term.text!r}: {c}" for c in term.conversions]
    notes += [f"attempt {hit.text!r}: {c}" for c in hit.conversions]
    if term.exact != hit.exact:
        notes.append(f"within tolerance: {term.text!r} and {hit.text!r} differ by "
                     f"{abs(term.exact - hit.exact).normalize():f} "
                     f"(absTol {policy.abs_tol:g}, relTol {policy.rel_tol:g})")
    return notes


def _cue_basis(plan, cue, order, bounds, row, earliest, schema, spans, clause,
               row_start) -> dict | None:
    """The cue nearest before ``earliest`` whose scope covers it, as the basis records it."""
    picks = order[bounds[row]:bounds[row + 1]]
    ends = cue["ends"][picks]
    near = (earliest - ends >= 1) & (earliest - ends <= schema.negation_window)
    near &= clause[cue["flat"][picks]] == clause[row_start[row] + earliest]
    if not near.any():
        return None
    best = picks[near][np.argmax(ends[near])]
    start, end = int(cue["starts"][best]), int(cue["ends"][best])
    return {"token": plan.cues[int(cue["ids"][best])][0],
            "span": [spans[start][0], spans[end][1]]}
