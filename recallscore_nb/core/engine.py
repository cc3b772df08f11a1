"""The vectorized core the rules share: attempts normalized and tokenized once.

Pure computation on Arrow arrays and numpy; no file I/O. Each attempt is normalized once
(seed pipeline), split into tokens once, and its tokens mapped to integer ids in the small
vocabulary of the references and terms; every rule is then a numpy operation on those ids.
Rows of non-ASCII text get their SQuAD tokens from the exact Python steps. The public entry
points are :mod:`recallscore_nb.core.scoring` and the rule objects of
:mod:`recallscore_nb.core.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, compress, repeat
from operator import is_not

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .errors import UsageError
from .normalize import (
    SEED,
    SQUAD,
    collapse_whitespace,
    exact_rows,
    normalize_array,
    remove_articles,
)

SQUAD_MODES = ("v1.1", "v2.0")
STRING = pd.ArrowDtype(pa.string())
"""The dtype of every text column this package builds (Arrow-backed strings)."""

_ARTICLES = ("a", "an", "the")


def as_string_array(attempts, *, what: str = "attempts") -> pa.Array:
    """Attempts (Series, array, or sequence of str) as one Arrow string array without nulls."""
    if isinstance(attempts, str):
        raise TypeError(f"'{what}' must be a sequence of strings (got a single str)")
    if isinstance(attempts, pd.Series):
        arr = pa.array(attempts, from_pandas=True)
    elif isinstance(attempts, (pa.Array, pa.ChunkedArray)):
        arr = attempts
    else:
        arr = pa.array(list(attempts), type=pa.string())
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks else pa.array([], type=pa.string())
    if pa.types.is_null(arr.type) and len(arr) == 0:
        arr = pa.array([], type=pa.string())
    if pa.types.is_large_string(arr.type):
        arr = arr.cast(pa.string())
    if not pa.types.is_string(arr.type):
        raise TypeError(f"'{what}' must hold strings (got Arrow type {arr.type})")
    if arr.null_count:
        first = int(np.flatnonzero(pc.is_null(arr).to_numpy(zero_copy_only=False))[0])
        raise ValueError(f"'{what}' must not contain nulls (row {first} is null)")
    return arr


def row_ids(start: int, n: int) -> pa.Array:
    """Row numbers ``start`` … ``start + n - 1`` as text (default ids), made by Arrow.

    >>> row_ids(9, 2).to_pylist()
    ['9', '10']
    """
    return pc.cast(pa.array(np.arange(start, start + n, dtype=np.int64)), pa.string())


@dataclass(frozen=True)
class Tokens:
    """Tokens of many rows, flat: each token's id in a vocabulary (-1: not in it), its row,
    and its position in the row; plus each row's token count."""

    ids: np.ndarray
    rows: np.ndarray
    positions: np.ndarray
    counts: np.ndarray


def _split(normalized: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """Split single-space-separated normalized strings: (flat tokens, list offsets)."""
    lists = pc.split_pattern(pc.if_else(pc.equal(normalized, ""), None, normalized), " ")
    offsets = lists.offsets.to_numpy().astype(np.int64)
    offsets = offsets - offsets[0]
    return pc.list_flatten(lists), offsets


def _token_ids(flat: pa.Array, vocab: pa.Array) -> np.ndarray:
    if not len(vocab) or not len(flat):
        return np.full(len(flat), -1, dtype=np.int64)
    ids = pc.fill_null(pc.index_in(flat, value_set=vocab), -1)
    return ids.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)


def _layout(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row and in-row position of each token, and the count per row, from list offsets."""
    counts = np.diff(offsets)
    rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    positions = np.arange(offsets[-1], dtype=np.int64) - offsets[:-1][rows]
    return rows, positions, counts


class Attempts:
    """Attempts with their normalizations and token ids computed once, on demand.

    ``normalizer`` is the checklist's normalization (``seed``, the published protocol, unless
    an ablation asks for a variant); SQuAD tokens always follow the official scripts.
    """

    def __init__(self, attempts, normalizer=SEED) -> None:
        self.raw = as_string_array(attempts)
        self.normalizer = normalizer
        self._squad_tokens: dict[int, tuple[pa.Array, Tokens]] = {}

    def __len__(self) -> int:
        return len(self.raw)

    @cached_property
    def exact_rows(self) -> np.ndarray:
        """Rows whose SQuAD tokens need the exact Python steps (see ``normalize.exact_rows``)."""
        return exact_rows(self.raw, articles=True)

    @cached_property
    def seed(self) -> pa.Array:
        """The checklist normalization of every attempt (``seed`` by default)."""
        return normalize_array(self.raw, self.normalizer)

    @cached_property
    def _seed_split(self) -> tuple[pa.Array, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        flat, offsets = _split(self.seed)
        return flat, _layout(offsets)

    @cached_property
    def _seed_codes(self) -> tuple[pa.Array, np.ndarray]:
        """The distinct seed tokens and each flat token's index among them: a vocabulary
        lookup then hashes the distinct tokens only, for every vocabulary asked."""
        flat, _ = self._seed_split
        if not len(flat):
            return pa.array([], type=pa.string()), np.zeros(0, dtype=np.int64)
        encoded = pc.dictionary_encode(flat)
        return encoded.dictionary, encoded.indices.to_numpy(zero_copy_only=False).astype(
            np.int64, copy=False)

    def _seed_ids(self, vocab: pa.Array) -> np.ndarray:
        """Each flat seed token's id in ``vocab`` (-1: not in it)."""
        distinct, codes = self._seed_codes
        return _token_ids(distinct, vocab)[codes] if len(codes) else codes

    def seed_tokens(self, vocab: pa.Array) -> Tokens:
        """Seed-normalized tokens with their ids in ``vocab``."""
        _, layout = self._seed_split
        return Tokens(self._seed_ids(vocab), *layout)

    def squad_tokens(self, vocab: pa.Array) -> Tokens:
        """SQuAD-normalized tokens with their ids in ``vocab`` (which holds no article).

        On ASCII rows these are the seed tokens less a/an/the; other rows are normalized
        with the exact steps (articles regex on the seed text, whitespace collapsed).
        """
        if self.normalizer != SEED:
            raise ValueError("SQuAD tokens are derived from the seed normalization")
        cached = self._squad_tokens.get(id(vocab))
        if cached is not None and cached[0] is vocab:
            return cached[1]
        flat, (rows, _, _) = self._seed_split
        distinct, codes = self._seed_codes
        article = pc.is_in(distinct, value_set=pa.array(_ARTICLES)).to_numpy(
            zero_copy_only=False)
        keep = ~article[codes] if len(codes) else np.ones(0, dtype=bool)
        exact = self.exact_rows
        if len(exact):
            exact_row = np.zeros(len(self), dtype=bool)
            exact_row[exact] = True
            keep &= ~exact_row[rows]
        ids, rows = self._seed_ids(vocab)[keep], rows[keep]
        if len(exact):
            seeds = self.seed.take(pa.array(exact)).to_pylist()
            squad = pa.array([collapse_whitespace(remove_articles(s)) for s in seeds])
            x_flat, x_offsets = _split(squad)
            x_rows = exact[np.repeat(np.arange(len(exact)), np.diff(x_offsets))]
            ids = np.concatenate([ids, _token_ids(x_flat, vocab)])
            rows = np.concatenate([rows, x_rows])
            order = np.argsort(rows, kind="stable")
            ids, rows = ids[order], rows[order]
        counts = np.bincount(rows, minlength=len(self))
        offsets = np.zeros(len(self) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        positions = np.arange(len(ids), dtype=np.int64) - offsets[:-1][rows]
        tokens = Tokens(ids, rows, positions, counts)
        self._squad_tokens[id(vocab)] = (vocab, tokens)
        return tokens


@dataclass(frozen=True, eq=False)
class References:
    """References aligned with attempts: distinct strings and, per slot, each row's choice.

    ``values`` holds the distinct reference strings; ``slots`` is a list of int arrays, one
    per alternative position, giving each row's reference index (-1: no alternative there).
    """

    values: tuple[str, ...]
    slots: tuple[np.ndarray, ...]
    _squad: dict[str, References] = field(default_factory=dict, repr=False)
    _memo: dict = field(default_factory=dict, repr=False)
    """What depends on ``values`` only (normalizations, bags), shared by :meth:`with_slots`."""

    def with_slots(self, slots) -> References:
        """The same reference strings chosen by other rows: what was computed from the
        strings alone is shared, not computed again."""
        return References(self.values, tuple(slots), {}, self._memo)

    @classmethod
    def build(cls, references, n: int) -> References:
        if isinstance(references, str):
            return cls((references,), (np.zeros(n, dtype=np.int64),))
        refs = references.tolist() if isinstance(references, pd.Series) else list(references)
        if len(refs) != n:
            raise ValueError(
                f"'references' must be one string or a sequence aligned with the attempts "
                f"(got {len(refs)} references for {n} attempts)"
            )
        if all(isinstance(r, str) for r in refs):
            encoded = pc.dictionary_encode(pa.array(refs, type=pa.string()))
            indices = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
            return cls(tuple(encoded.dictionary.to_pylist()), (indices,))
        lists = []
        for i, r in enumerate(refs):
            alternatives = [r] if isinstance(r, str) else r
            if not isinstance(alternatives, (list, tuple)) or not all(
                isinstance(a, str) for a in alternatives
            ):
                raise TypeError(
                    f"'references' item {i} must be a string or a list of strings "
                    f"(got {type(r).__name__})"
                )
            lists.append(list(alternatives))
        return cls._from_lists(pa.array(lists, type=pa.list_(pa.string())))

    @classmethod
    def _from_lists(cls, arr: pa.ListArray) -> References:
        encoded = pc.dictionary_encode(pc.list_flatten(arr))
        ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        offsets = arr.offsets.to_numpy().astype(np.int64)
        rows, positions, counts = _layout(offsets - offsets[0])
        slots = [np.full(len(arr), -1, dtype=np.int64)]  # at least one slot, even if all empty
        for j in range(int(counts.max()) if len(counts) else 0):
            slot = slots[j] if j < len(slots) else np.full(len(arr), -1, dtype=np.int64)
            slot[rows[positions == j]] = ids[positions == j]
            slots[j:j + 1] = [slot]
        return cls(tuple(encoded.dictionary.to_pylist()), tuple(slots))

    def for_squad(self, mode: str) -> References:
        """The references the official SQuAD script of ``mode`` compares against."""
        if mode not in self._squad:
            self._squad[mode] = self._for_squad(mode)
        return self._squad[mode]

    def _for_squad(self, mode: str) -> References:
        if mode == "v1.1":
            missing = np.flatnonzero(self.slots[0] < 0)
            if len(missing):
                raise ValueError(f"squad mode v1.1: every attempt needs at least one reference "
                                 f"(attempt {missing[0]} has none)")
            return self
        # v2.0: gold answers that normalize to empty are dropped; none left: unanswerable ('').
        answerable = np.append(self.squad_lengths > 0, False)
        blank = len(self.values)
        matrix = np.stack([np.where(answerable[s], s, -1) for s in self.slots], axis=1)
        matrix = np.take_along_axis(matrix, np.argsort(matrix < 0, axis=1, kind="stable"), 1)
        matrix[:, 0] = np.where(matrix[:, 0] < 0, blank, matrix[:, 0])
        slots = [matrix[:, j].copy() for j in range(matrix.shape[1]) if (matrix[:, j] >= 0).any()]
        return References(self.values + ("",), tuple(slots), {}, self._memo.setdefault("v2.0", {}))

    def _memoized(self, key: str, make):
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def _seed_array(self) -> pa.Array:
        return self._memoized("seed_array", lambda: normalize_array(
            pa.array(self.values, type=pa.string()), SEED))

    @property
    def seed(self) -> tuple[str, ...]:
        """The seed normalization of each reference string."""
        return self._memoized("seed", lambda: tuple(self._seed_array().to_pylist()))

    @property
    def squad_bags(self) -> ReferenceBags:
        """The SQuAD tokens of each reference string (:class:`ReferenceBags`); the SQuAD
        normalization starts from the seed's (:func:`normalize_array`'s ``seed``)."""
        return self._memoized("squad_bags", lambda: ReferenceBags.build(normalize_array(
            pa.array(self.values, type=pa.string()), SQUAD, seed=self._seed_array())))

    @property
    def squad_lengths(self) -> np.ndarray:
        """The number of SQuAD tokens of each reference string."""
        return self.squad_bags.lengths


class KeyLookup:
    """Positions of int64 keys in a sorted array of distinct keys (-1: absent): a binary
    search while the keys fit in the processor's caches, a hash table (pandas' ``Index``)
    above :data:`HASHED_KEYS` keys, where it is several times quicker (100,000 items' bags:
    1.5 million keys).

    >>> KeyLookup(np.array([3, 7, 9])).locate(np.array([7, 8, 3])).tolist()
    [1, -1, 0]
    """

    HASHED_KEYS = 65_536

    def __init__(self, keys: np.ndarray) -> None:
        self.keys = keys
        self._index = pd.Index(keys) if len(keys) > self.HASHED_KEYS else None

    def locate(self, wanted: np.ndarray) -> np.ndarray:
        if not len(self.keys):
            return np.full(len(wanted), -1, dtype=np.int64)
        if self._index is not None:
            return self._index.get_indexer(wanted).astype(np.int64, copy=False)
        pos = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        return np.where(self.keys[pos] == wanted, pos, -1)


@dataclass(frozen=True)
class ReferenceBags:
    """The references' tokens over one shared vocabulary, as sequences and as bags.

    ``sequences`` is a (references × longest) matrix of token ids (-1 past the end);
    ``counts`` a (references × width) matrix whose column ``j`` counts a reference's ``j``-th
    distinct token, narrow however many references there are; ``keys`` (sorted
    ``reference * len(vocab) + token id``) and ``columns`` map a token to its column.
    """

    vocab: pa.Array
    lengths: np.ndarray
    sequences: np.ndarray
    counts: np.ndarray
    keys: np.ndarray
    columns: np.ndarray

    @classmethod
    def build(cls, normalized_refs) -> ReferenceBags:
        """The bags of normalized references (strings of tokens separated by one space, as
        the normalizations leave them: a sequence of str or an Arrow string array), built
        with array operations whatever their number.

        >>> bags = ReferenceBags.build(["a b a", "", "b"])
        >>> bags.vocab.to_pylist(), bags.lengths.tolist(), bags.counts.tolist()
        (['a', 'b'], [3, 0, 1], [[2, 1], [0, 0], [1, 0]])
        """
        refs = normalized_refs if isinstance(normalized_refs, pa.Array) else pa.array(
            list(normalized_refs), type=pa.string())
        flat, offsets = _split(refs)
        rows, positions, lengths = _layout(offsets)
        encoded = pc.dictionary_encode(flat) if len(flat) else None
        vocab = encoded.dictionary if encoded is not None else pa.array([], type=pa.string())
        ids = (encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
               if encoded is not None else np.zeros(0, dtype=np.int64))
        sequences = np.full((len(refs), int(lengths.max(initial=0))), -1, dtype=np.int64)
        sequences[rows, positions] = ids
        size = max(len(vocab), 1)
        # each reference's distinct tokens and their counts, sorted within its row: the keys
        # come out in the order np.unique gives them, without sorting all the tokens as one
        # array (100,000 references: 29 ms against 65 ms)
        ordered = np.sort(sequences, axis=1)
        present = ordered >= 0
        run_start = present.copy()
        run_start[:, 1:] &= ordered[:, 1:] != ordered[:, :-1]
        tokens, starts = ordered[present], np.flatnonzero(run_start[present])
        owner = rows[starts]  # rows holds each token's reference, in the same row order
        keys = owner * size + tokens[starts]
        counts = np.diff(np.append(starts, len(tokens)))
        first = np.searchsorted(owner, np.arange(len(refs)))
        columns = np.arange(len(keys), dtype=np.int64) - first[owner]
        width = int(columns.max(initial=-1)) + 1
        matrix = np.zeros((len(refs), width), dtype=np.int64)
        matrix[owner, columns] = counts
        return cls(vocab=vocab.cast(pa.string()), lengths=lengths.astype(np.int64),
                   sequences=sequences, counts=matrix, keys=keys.astype(np.int64),
                   columns=columns)

    @cached_property
    def key_lookup(self) -> KeyLookup:
        """Where each (reference, token) key is in :attr:`keys`."""
        return KeyLookup(self.keys)

    def common_counts(self, slot: np.ndarray, tokens: Tokens) -> np.ndarray:
        """Per row: the size of the bag intersection of its tokens and its reference's."""
        n, width = len(slot), self.counts.shape[1]
        if not width or not len(tokens.ids):
            return np.zeros(n, dtype=np.int64)
        ref_of_row = np.maximum(slot, 0)
        wanted = ref_of_row[tokens.rows] * max(len(self.vocab), 1) + tokens.ids
        pos = self.key_lookup.locate(wanted)
        found = (tokens.ids >= 0) & (pos >= 0)
        cells = tokens.rows[found] * width + self.columns[pos[found]]
        bags = np.bincount(cells, minlength=n * width).reshape(n, width)
        return np.minimum(bags, self.counts[ref_of_row]).sum(axis=1)

    def sequence_equal(self, slot: np.ndarray, tokens: Tokens) -> np.ndarray:
        """Per row: are its tokens exactly its reference's tokens, in order?"""
        ref_of_row = np.maximum(slot, 0)
        same_length = tokens.counts == self.lengths[ref_of_row]
        ref_len = self.lengths[ref_of_row][tokens.rows]
        inside = tokens.positions < ref_len
        expected = np.full(len(tokens.ids), -2, dtype=np.int64)
        expected[inside] = self.sequences[ref_of_row[tokens.rows[inside]], tokens.positions[inside]]
        matches = np.bincount(tokens.rows[tokens.ids == expected], minlength=len(slot))
        return same_length & (matches == tokens.counts) & (slot >= 0)


# --- rules on prepared inputs -----------------------------------------------------------
def equal_any(values: pa.Array, ref_values: Sequence[str], refs: References) -> np.ndarray:
    """Per row: does ``values`` equal any of the row's references (given as ``ref_values``)?"""
    if not ref_values:
        return np.zeros(len(values), dtype=bool)
    if len(ref_values) == 1:
        eq = pc.equal(values, pa.scalar(ref_values[0], type=pa.string()))
        return eq.to_numpy(zero_copy_only=False).astype(bool) & (refs.slots[0] >= 0)
    # the strings as one Arrow array, made once per strings (references shared by chunks)
    table = refs._memoized(f"array:{id(ref_values)}", lambda: pa.array(ref_values,
                                                                       type=pa.string()))
    out = np.zeros(len(values), dtype=bool)
    for slot in refs.slots:
        valid = slot >= 0
        eq = pc.equal(values, table.take(pa.array(np.where(valid, slot, 0))))
        out |= eq.to_numpy(zero_copy_only=False).astype(bool) & valid
    return out


def squad_exact_match(attempts: Attempts, refs: References, mode: str) -> np.ndarray:
    """Exact match of the SQuAD scripts of ``mode``, any of each row's references."""
    refs = refs.for_squad(mode)
    bags = refs.squad_bags
    tokens = attempts.squad_tokens(bags.vocab)
    out = np.zeros(len(attempts), dtype=bool)
    for slot in refs.slots:
        out |= bags.sequence_equal(slot, tokens)
    return out


def token_f1(attempts: Attempts, refs: References, mode: str) -> np.ndarray:
    """Token F1 of the SQuAD scripts of ``mode``, max over each row's references."""
    refs = refs.for_squad(mode)
    bags = refs.squad_bags
    tokens = attempts.squad_tokens(bags.vocab)
    best = np.zeros(len(attempts), dtype=np.float64)
    for slot in refs.slots:
        common = bags.common_counts(slot, tokens)
        f1 = _f1_from_counts(common, tokens.counts, bags.lengths[np.maximum(slot, 0)], mode)
        f1[slot < 0] = 0.0
        np.maximum(best, f1, out=best)
    return best


def _f1_from_counts(common, pred_len, gold_len, mode: str) -> np.ndarray:
    """F1 in the scripts' operation order, so floats agree to the last bit."""
    f1 = np.zeros(len(common), dtype=np.float64)
    hit = common > 0
    precision = common[hit] / pred_len[hit]
    recall = common[hit] / gold_len[hit]
    f1[hit] = (2 * precision * recall) / (precision + recall)
    if mode == "v2.0":
        either_empty = (pred_len == 0) | (gold_len == 0)
        f1[either_empty] = ((pred_len == 0) & (gold_len == 0))[either_empty]
    return f1


def checklist_matrix(attempts: Attempts, facts) -> np.ndarray:
    """A (rows × facts) boolean matrix: is each fact present (all its terms as whole tokens)?"""
    terms = sorted({t for f in facts for t in f.normalized_terms})
    term_tokens = [t.split() for t in terms]
    vocab_index = {tok: i for i, tok in enumerate(dict.fromkeys(x for t in term_tokens for x in t))}
    tokens = attempts.seed_tokens(pa.array(list(vocab_index), type=pa.string()))
    found = {t: _phrase_rows(tokens, [vocab_index[x] for x in toks], len(attempts))
             for t, toks in zip(terms, term_tokens)}
    matrix = np.ones((len(attempts), len(facts)), dtype=bool)
    for j, fact in enumerate(facts):
        for term in fact.normalized_terms:
            matrix[:, j] &= found[term]
    return matrix


def phrase_starts(tokens: Tokens, phrase: list[int]) -> np.ndarray:
    """Flat indices where the token ids ``phrase`` start, consecutively within one row."""
    k, m = len(phrase), len(tokens.ids)
    if k == 0 or k > m:
        return np.zeros(0, dtype=np.int64)
    start = tokens.ids[: m - k + 1] == phrase[0]
    for i in range(1, k):
        start &= tokens.ids[i : m - k + 1 + i] == phrase[i]
    at = np.flatnonzero(start)
    return at[tokens.rows[at] == tokens.rows[at + k - 1]]


def _phrase_rows(tokens: Tokens, phrase: list[int], n: int) -> np.ndarray:
    """Rows in which the token ids ``phrase`` occur consecutively."""
    present = np.zeros(n, dtype=bool)
    present[tokens.rows[phrase_starts(tokens, phrase)]] = True
    return present


# --- many items, each with its own references and checklist ---------------------------------
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
        rows, positions, counts = _layout(offsets - offsets[0])
        encoded = pc.dictionary_encode(flat)
        table = np.full((len(lists), max(int(counts.max(initial=0)), 1)), -1, dtype=np.int64)
        table[rows, positions] = encoded.indices.to_numpy(zero_copy_only=False)
        values = tuple(encoded.dictionary.to_pylist())
        return cls(References(values, (table[:, 0],)), table)

    def for_rows(self, row_item: np.ndarray) -> References:
        """The references of rows whose items are ``row_item``."""
        return self.references.with_slots(self.table[row_item, j]
                                          for j in range(self.table.shape[1]))


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
        """:attr:`fact_names` as an Arrow array, made once (100,000 items' 300,000 names:
        8.5 ms, which every chunk would otherwise spend again)."""
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
    flat, offsets = _split(lists.terms)
    rows, positions, lengths = _layout(offsets)
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
    items), then the following tokens of multi-token terms are checked in place.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(lists.term_fact):
        return empty, empty
    vocab, term_ids, term_len, order, sorted_key = lists.term_table
    size, longest = len(vocab), term_ids.shape[1]
    tokens = attempts.seed_tokens(vocab)
    at = np.flatnonzero(tokens.ids >= 0)
    key = row_item[tokens.rows[at]] * size + tokens.ids[at]
    lookup, starts, runs = lists.term_starts
    found = lookup.locate(key)
    lo = np.where(found >= 0, starts[found], 0)
    n_match = np.where(found >= 0, runs[found], 0)
    start = np.repeat(at, n_match)
    first = np.repeat(lo - np.cumsum(n_match) + n_match, n_match) + np.arange(n_match.sum())
    term = order[first]
    ok = np.ones(len(term), dtype=bool)
    for i in range(1, longest):
        longer = term_len[term] > i
        follow = start + i
        inside = longer & (follow < len(tokens.ids))
        follow_c = np.where(inside, follow, 0)
        same = inside & (tokens.rows[follow_c] == tokens.rows[start]) & (
            tokens.ids[follow_c] == term_ids[term, i])
        ok &= ~longer | same
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
