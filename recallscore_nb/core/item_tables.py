"""Many items, each with its own references and checklist, as flat tables built once for
all the chunks a file is scored in; the checklist of each row against its own item, and the
names of the facts each row misses, vectorized across items.

>>> refs = ItemReferences.build([("Paris", "Lutetia"), ("Rome",)])
>>> refs.for_rows(np.array([1, 0, 0])).slots[0].tolist()
[2, 0, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress, repeat
from operator import is_not

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .engine import STRING, Attempts, KeyLookup, References
from .errors import UsageError
from .normalize import SEED, normalize_array
from .tokens import phrases_at, spans, split_tokens, token_layout

def item_references(item_alternatives, row_item: np.ndarray) -> References:
    """References per row from per-item alternatives: row ``r`` takes item ``row_item[r]``'s."""
    return ItemReferences.build(item_alternatives).for_rows(row_item)


@dataclass(frozen=True, eq=False)
class ItemReferences:
    """Each item's alternative references, as indices into one table of distinct strings
    (``table``: items × most alternatives, -1 past an item's last), built once for all
    the chunks a file is scored in."""

    references: References
    table: np.ndarray
    lists: pa.ListArray
    """Each item's alternatives as one Arrow list, for rows that bring references of their
    own (:meth:`for_rows`)."""

    @classmethod
    def build(cls, item_alternatives) -> ItemReferences:
        """
        >>> refs = ItemReferences.build([("Paris", "Lutetia"), ("Rome",), ("Paris",)])
        >>> refs.references.values, refs.table.tolist()
        (('Paris', 'Lutetia', 'Rome'), [[0, 1], [2, -1], [0, -1]])
        """
        # tuples and lists alike, with no Python object made per item
        lists = pa.array(list(item_alternatives), type=pa.list_(pa.string()))
        flat = pc.list_flatten(lists)
        offsets = lists.offsets.to_numpy().astype(np.int64)
        rows, positions, counts = token_layout(offsets - offsets[0])
        encoded = pc.dictionary_encode(flat)
        table = np.full((len(lists), max(int(counts.max(initial=0)), 1)), -1, dtype=np.int64)
        table[rows, positions] = encoded.indices.to_numpy(zero_copy_only=False)
        values = tuple(encoded.dictionary.to_pylist())
        return cls(References(values, (table[:, 0],)), table, lists)

    def for_rows(self, row_item: np.ndarray, own: pa.ListArray | None = None) -> References:
        """The references of rows whose items are ``row_item``; ``own``, when given, holds a
        row's own references (null: its item's), which replace its item's.

        >>> refs = ItemReferences.build([("Paris", "Lutetia"), ("Rome",)])
        >>> own = pa.array([None, ["Roma"]], type=pa.list_(pa.string()))
        >>> chosen = refs.for_rows(np.array([0, 1]), own)
        >>> [[chosen.values[s[r]] for s in chosen.slots if s[r] >= 0] for r in (0, 1)]
        [['Paris', 'Lutetia'], ['Roma']]
        """
        if own is None or own.null_count == len(own):
            return self.references.with_slots(self.table[row_item, j]
                                              for j in range(self.table.shape[1]))
        mine = self.lists.take(pa.array(row_item, type=pa.int64()))
        return References.from_lists(pc.if_else(pc.is_null(own), mine, own))


@dataclass(frozen=True)
class ItemChecklists:
    """The checklists of many items, flat: each fact's item, each distinct term's fact and
    normalized text (``terms``, an Arrow string array). Items without a checklist have no
    facts.

    >>> from recallscore_nb.core.facts import Fact
    >>> lists = ItemChecklists.build([(Fact("a", ("West", "west!", "drawer")),), None])
    >>> lists.terms.to_pylist(), lists.fact_terms.tolist(), lists.item_has_checklist.tolist()
    (['west', 'drawer'], [2], [True, False])
    """

    fact_item: np.ndarray
    fact_names: tuple[str, ...]
    fact_terms: np.ndarray
    item_fact_start: np.ndarray
    item_fact_count: np.ndarray
    item_has_checklist: np.ndarray
    term_fact: np.ndarray
    terms: pa.Array

    @cached_property
    def name_array(self) -> pa.Array:
        """:attr:`fact_names` as an Arrow array, made once rather than for every chunk."""
        return pa.array(self.fact_names, type=pa.string())

    @cached_property
    def term_table(self):
        """What :func:`item_checklist` looks terms up in, built once (see :func:`_term_table`)."""
        return _term_table(self)

    @cached_property
    def term_starts(self) -> tuple[KeyLookup, np.ndarray, np.ndarray]:
        """The distinct (item, first token) keys of the sorted terms (a :class:`KeyLookup`),
        where each one's run of terms starts, and how long it is."""
        sorted_key = self.term_table[4]
        if not len(sorted_key):
            empty = np.zeros(0, dtype=np.int64)
            return KeyLookup(empty), empty, empty
        starts = np.flatnonzero(np.concatenate(([True], sorted_key[1:] != sorted_key[:-1])))
        runs = np.diff(np.append(starts, len(sorted_key)))
        return KeyLookup(sorted_key[starts]), starts, runs

    @classmethod
    def build(cls, item_facts) -> ItemChecklists:
        """The items' facts (each a sequence of :class:`~recallscore_nb.core.facts.Fact`, or
        None: no checklist), flattened once; the terms normalized as one Arrow array, and a
        term repeated within a fact kept once."""
        # flattened by C-level maps and plain comprehensions (the quickest way to read an
        # attribute of many objects), without a Python statement per item or per fact
        item_facts = list(item_facts)
        has = np.fromiter(map(is_not, item_facts, repeat(None)), bool, len(item_facts))
        counts = np.zeros(len(item_facts), dtype=np.int64)
        counts[has] = np.fromiter(map(len, compress(item_facts, has)), np.int64, int(has.sum()))
        facts = list(chain.from_iterable(compress(item_facts, has)))
        given_terms = pa.array([fact.terms for fact in facts], type=pa.list_(pa.string()))
        raw_fact = np.repeat(np.arange(len(facts), dtype=np.int64),
                             np.diff(given_terms.offsets.to_numpy()))
        # each distinct term normalized once; codes number the distinct normalized terms
        raw = pc.dictionary_encode(pc.list_flatten(given_terms))
        distinct = pc.dictionary_encode(normalize_array(raw.dictionary, SEED))
        codes = distinct.indices.to_numpy(zero_copy_only=False).astype(np.int64)[
            raw.indices.to_numpy(zero_copy_only=False)]
        # each (fact, term) once, in the order first given
        keep = np.flatnonzero(~pd.Series(raw_fact * (len(distinct.dictionary) + 1) + codes)
                              .duplicated().to_numpy())
        term_fact = raw_fact[keep]
        return cls(
            np.repeat(np.arange(len(item_facts), dtype=np.int64), counts),
            tuple([fact.name for fact in facts]),
            np.bincount(term_fact, minlength=len(facts)).astype(np.int64),
            np.cumsum(counts) - counts, counts, has,
            term_fact, distinct.dictionary.take(pa.array(codes[keep], type=pa.int64())),
        )


def _term_table(lists: ItemChecklists):
    """The terms' tokens as ids in one vocabulary, and the terms sorted by (item, first
    token id): (vocab, term ids matrix, term lengths, sort order, sorted keys)."""
    flat, offsets = split_tokens(lists.terms)
    rows, positions, lengths = token_layout(offsets)
    encoded = pc.dictionary_encode(flat)
    vocab = encoded.dictionary.cast(pa.string())
    term_ids = np.full((len(lists.terms), max(int(lengths.max(initial=0)), 1)), -1,
                       dtype=np.int64)
    term_ids[rows, positions] = encoded.indices.to_numpy(zero_copy_only=False)
    term_key = lists.fact_item[lists.term_fact] * len(vocab) + term_ids[:, 0]
    order = np.argsort(term_key, kind="stable")
    return vocab, term_ids, lengths.astype(np.int64), order, term_key[order]


def item_checklist(attempts: Attempts, row_item: np.ndarray, lists: ItemChecklists):
    """Which facts of its own item each row holds, vectorized across items.

    Returns ``(rows, facts)``: the (row, fact index) pairs whose fact is present. Each token
    is joined to the terms of its row's item that start with it (one sorted key table for all
    items), then each candidate is checked by the whole-token matcher.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(lists.term_fact):
        return empty, empty
    vocab, term_ids, term_len, order, sorted_key = lists.term_table
    size = len(vocab)
    tokens = attempts.tokens(SEED, vocab)
    at = np.flatnonzero(tokens.ids >= 0)
    key = row_item[tokens.rows[at]] * size + tokens.ids[at]
    lookup, starts, runs = lists.term_starts
    found = lookup.locate(key)
    lo = np.where(found >= 0, starts[found], 0)
    n_match = np.where(found >= 0, runs[found], 0)
    start = np.repeat(at, n_match)
    first = spans(lo, n_match)
    term = order[first]
    ok = phrases_at(tokens, start, term, term_ids, term_len)
    pairs = _distinct(tokens.rows[start[ok]] * len(term_ids) + term[ok])  # each (row, term) once
    row_fact = _distinct_counts((pairs // len(term_ids)) * len(lists.fact_names)
                                + lists.term_fact[pairs % len(term_ids)])
    row_fact, count = row_fact
    fact = row_fact % len(lists.fact_names)
    present = count == lists.fact_terms[fact]
    return (row_fact // len(lists.fact_names))[present], fact[present]


def _distinct(keys: np.ndarray) -> np.ndarray:
    """Sorted distinct values (a sort and a neighbour test: quicker than hashing here)."""
    keys = np.sort(keys)
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys


def _distinct_counts(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keys = np.sort(keys)
    if not len(keys):
        return keys, keys
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.diff(np.append(starts, len(keys)))


def missing_fact_names(rows: np.ndarray, facts: np.ndarray, row_item: np.ndarray,
                       lists: ItemChecklists, n: int) -> pd.api.extensions.ExtensionArray:
    """Per row, the names of its item's absent facts joined by ";", from the (row, fact) pairs
    :func:`item_checklist` found present: each distinct (item, present facts) pattern's text
    built once, all of them with Arrow (no Python step per pattern or per row).

    >>> from recallscore_nb.core.facts import Fact
    >>> lists = ItemChecklists.build([(Fact("a", ("x",)), Fact("b", ("y",)))])
    >>> missing_fact_names(np.array([0]), np.array([1]), np.array([0, 0]), lists, 2).tolist()
    ['a', 'a;b']
    """
    if n == 0:
        return pd.array([], dtype=STRING)
    local = facts - lists.item_fact_start[lists.fact_item[facts]]
    if lists.item_fact_count.max(initial=0) > 63:
        raise UsageError("an item has more than 63 facts; the checklist supports at most 63")
    mask = np.zeros(n, dtype=np.uint64)
    if len(rows):  # (row, fact) pairs come sorted by row, each once
        starts = np.flatnonzero(np.concatenate(([True], rows[1:] != rows[:-1])))
        bits = np.left_shift(np.uint64(1), local.astype(np.uint64))
        mask[rows[starts]] = np.bitwise_or.reduceat(bits, starts)
    mask_codes, masks = pd.factorize(mask)
    codes, uniques = pd.factorize(row_item.astype(np.int64) * len(masks) + mask_codes)
    item = uniques // len(masks)
    bits = np.asarray(masks, dtype=np.uint64)[uniques % len(masks)]
    count = lists.item_fact_count[item]
    pattern = np.repeat(np.arange(len(uniques)), count)
    k = np.arange(len(pattern)) - np.repeat(np.cumsum(count) - count, count)
    absent = (np.right_shift(bits[pattern], k.astype(np.uint64)) & np.uint64(1)) == 0
    fact = (lists.item_fact_start[item][pattern] + k)[absent]
    per = np.bincount(pattern[absent], minlength=len(uniques))
    offsets = np.concatenate(([0], np.cumsum(per))).astype(np.int32)
    names = lists.name_array.take(pa.array(fact, type=pa.int64()))
    texts = pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), names), ";")
    return pd.array(texts.take(pa.array(codes, type=pa.int64())), dtype=STRING)
