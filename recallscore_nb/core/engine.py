"""The vectorized core the rules share: attempts and references normalized and tokenized once
per normalizer.

Pure computation on Arrow arrays and numpy; no file I/O. :class:`Attempts` normalizes its
attempts once per normalizer a rule names (:mod:`recallscore_nb.core.normalize`), splits them
into tokens once, and maps the tokens to integer ids in the small vocabulary of the references
and terms; :class:`References` does the same for the references, once per distinct string.
Every rule is then a numpy operation on those ids, whole-token matching through the one
matcher of :mod:`recallscore_nb.core.tokens`. The public entry points are
:mod:`recallscore_nb.core.scoring` and the rule objects of :mod:`recallscore_nb.core.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .normalize import KERNELS, SEED, SQUAD, Normalizer, normalize_array
from .tokens import (Tokens, phrase_rows, phrases_at, split_tokens, token_ids, token_layout)

SQUAD_MODES = ("v1.1", "v2.0")
STRING = pd.ArrowDtype(pa.string())
"""The dtype of every text column this package builds (Arrow-backed strings)."""


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


def _steps_normalizer(steps: tuple[str, ...]) -> Normalizer:
    """A normalizer of these steps (the name plays no part in what it computes)."""
    return Normalizer("+".join(steps), steps)


class Attempts:
    """Attempts with, per normalizer asked for, their normalized text and tokens computed once
    (normalizers with the same steps share them).

    >>> attempts = Attempts(["The West drawer.", "a drawer"])
    >>> attempts.normalized(SEED).to_pylist()
    ['the west drawer', 'a drawer']
    >>> attempts.tokens(SQUAD, pa.array(["drawer"])).ids.tolist()
    [-1, 0, 0]
    """

    def __init__(self, attempts) -> None:
        self.raw = as_string_array(attempts)
        self._normalized: dict[tuple[str, ...], pa.Array] = {}
        self._split: dict[tuple[str, ...], tuple] = {}
        self._codes: dict[tuple[str, ...], tuple[pa.Array, np.ndarray]] = {}
        self._inexact: dict[tuple[str, ...], np.ndarray] = {}
        self._mapped: dict[tuple[str, ...], pa.Array] = {}
        self._tokens: dict[tuple, tuple[pa.Array, Tokens]] = {}

    def __len__(self) -> int:
        return len(self.raw)

    def normalized(self, normalizer: Normalizer) -> pa.Array:
        """Every attempt under ``normalizer``."""
        steps = normalizer.steps
        if steps not in self._normalized:
            kernel = KERNELS.get(steps)
            base = None
            if kernel is not None and kernel.token_map is not None:
                self._normalized[steps] = self._joined(steps)
                return self._normalized[steps]
            if kernel is not None and kernel.base is not None:
                base = self.normalized(_steps_normalizer(kernel.base))
            self._normalized[steps] = normalize_array(self.raw, normalizer, base=base)
        return self._normalized[steps]

    def _joined(self, steps: tuple[str, ...]) -> pa.Array:
        """A kernel of tokens' text, joined from the root's tokens as mapped once each
        (:meth:`_distinct_mapped`): what ``normalize_array`` gives, without mapping again."""
        root = self._root(steps)
        _, (_, _, counts) = self._layout(root)
        codes = self._distinct(root)[1]
        offsets = np.zeros(len(counts) + 1, dtype=np.int32)
        np.cumsum(counts, out=offsets[1:])
        words = self._distinct_mapped(steps).take(pa.array(codes, type=pa.int64()))
        text = pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), words), " ")
        return text.cast(pa.string())  # a row of no token: empty, as the map leaves ""

    def _layout(self, steps: tuple[str, ...]):
        """(flat tokens, (rows, positions, counts)) under ``steps``."""
        if steps not in self._split:
            flat, offsets = split_tokens(self.normalized(_steps_normalizer(steps)))
            self._split[steps] = flat, token_layout(offsets)
        return self._split[steps]

    def _distinct(self, steps: tuple[str, ...]) -> tuple[pa.Array, np.ndarray]:
        """The distinct tokens under ``steps`` and each flat token's index among them: a
        vocabulary lookup then hashes the distinct tokens only, for every vocabulary asked."""
        if steps not in self._codes:
            flat, _ = self._layout(steps)
            if not len(flat):
                self._codes[steps] = pa.array([], type=pa.string()), np.zeros(0, dtype=np.int64)
            else:
                encoded = pc.dictionary_encode(flat)
                self._codes[steps] = encoded.dictionary, encoded.indices.to_numpy(
                    zero_copy_only=False).astype(np.int64, copy=False)
        return self._codes[steps]

    def _ids(self, steps: tuple[str, ...], vocab: pa.Array) -> np.ndarray:
        distinct, codes = self._distinct(steps)
        return token_ids(distinct, vocab)[codes] if len(codes) else codes

    def tokens(self, normalizer: Normalizer, vocab: pa.Array) -> Tokens:
        """The attempts' tokens under ``normalizer``, with their ids in ``vocab`` (each pair
        computed once: the rules and steps that share a vocabulary share them). A
        normalizer whose kernel drops tokens of its base's (squad: the articles of seed's)
        takes them from the base's tokens, the rows the kernel cannot do from the exact steps.
        """
        cached = self._tokens.get((normalizer.steps, id(vocab)))
        if cached is not None and cached[0] is vocab:
            return cached[1]
        tokens = self._tokens_in(normalizer, vocab)
        self._tokens[(normalizer.steps, id(vocab))] = vocab, tokens
        return tokens

    def _tokens_in(self, normalizer: Normalizer, vocab: pa.Array) -> Tokens:
        kernel = KERNELS.get(normalizer.steps)
        if kernel is not None and kernel.drops:
            return self._derived_tokens(normalizer.steps, kernel, vocab)
        if kernel is not None and kernel.token_map is not None:
            root = self._root(normalizer.steps)
            _, layout = self._layout(root)
            codes = self._distinct(root)[1]
            ids = token_ids(self._distinct_mapped(normalizer.steps), vocab)[codes] \
                if len(codes) else codes
            return Tokens(ids, *layout)
        _, layout = self._layout(normalizer.steps)
        return Tokens(self._ids(normalizer.steps, vocab), *layout)

    def _root(self, steps: tuple[str, ...]) -> tuple[str, ...]:
        """The steps whose tokens a kernel of tokens maps one to one (through its bases)."""
        kernel = KERNELS.get(steps)
        return self._root(kernel.base) if kernel is not None and kernel.token_map else steps

    def _distinct_mapped(self, steps: tuple[str, ...]) -> pa.Array:
        """The root's distinct tokens, each through the token maps down to ``steps``."""
        kernel = KERNELS.get(steps)
        if kernel is None or kernel.token_map is None:
            return self._distinct(steps)[0]
        if steps not in self._mapped:
            base = self._distinct_mapped(kernel.base).to_pylist()
            self._mapped[steps] = pa.array([kernel.token_map(t) for t in base],
                                           type=pa.string())
        return self._mapped[steps]

    def _derived_tokens(self, steps, kernel, vocab: pa.Array) -> Tokens:
        flat, (rows, _, _) = self._layout(kernel.base)
        distinct, codes = self._distinct(kernel.base)
        dropped = pc.is_in(distinct, value_set=pa.array(kernel.drops)).to_numpy(
            zero_copy_only=False)
        keep = ~dropped[codes] if len(codes) else np.ones(0, dtype=bool)
        if steps not in self._inexact:
            self._inexact[steps] = kernel.inexact(self.raw)
        exact = self._inexact[steps]
        if len(exact):
            exact_row = np.zeros(len(self), dtype=bool)
            exact_row[exact] = True
            keep &= ~exact_row[rows]
        ids, rows = self._ids(kernel.base, vocab)[keep], rows[keep]
        if len(exact):
            texts = self.normalized(_steps_normalizer(kernel.base)).take(pa.array(exact))
            rest = _steps_normalizer(kernel.rest)
            x_flat, x_offsets = split_tokens(pa.array([rest(t) for t in texts.to_pylist()],
                                                      type=pa.string()))
            x_rows = exact[np.repeat(np.arange(len(exact)), np.diff(x_offsets))]
            ids = np.concatenate([ids, token_ids(x_flat, vocab)])
            rows = np.concatenate([rows, x_rows])
            order = np.argsort(rows, kind="stable")
            ids, rows = ids[order], rows[order]
        counts = np.bincount(rows, minlength=len(self))
        offsets = np.zeros(len(self) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        positions = np.arange(len(ids), dtype=np.int64) - offsets[:-1][rows]
        return Tokens(ids, rows, positions, counts)


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
        return cls.from_lists(pa.array(lists, type=pa.list_(pa.string())))

    @classmethod
    def from_lists(cls, arr: pa.ListArray) -> References:
        """References from an Arrow list array: each row's alternatives, the strings stored once
        (dictionary-encoded), one slot per alternative position."""
        encoded = pc.dictionary_encode(pc.list_flatten(arr))
        ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        offsets = arr.offsets.to_numpy().astype(np.int64)
        rows, positions, counts = token_layout(offsets - offsets[0])
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

    def memoized(self, key, make):
        """The value kept under ``key`` for these references, made by ``make()`` the first
        time it is asked for: what the rules derive from the reference strings (their
        normalized forms, token bags, the ``equivalent`` rule's reference forms) is made once
        per set of references, however many attempts are scored against it."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def _array(self, steps: tuple[str, ...]) -> pa.Array:
        """The reference strings under ``steps``, as an Arrow array."""
        def make():
            kernel = KERNELS.get(steps)
            base = self._array(kernel.base) if kernel is not None and kernel.base else None
            return normalize_array(pa.array(self.values, type=pa.string()),
                                   _steps_normalizer(steps), base=base)
        return self.memoized(("array", steps), make)

    def normalized(self, normalizer: Normalizer) -> tuple[str, ...]:
        """Each reference string under ``normalizer``."""
        return self.memoized(("text", normalizer.steps),
                              lambda: tuple(self._array(normalizer.steps).to_pylist()))

    def bags(self, normalizer: Normalizer) -> ReferenceBags:
        """The tokens of each reference string under ``normalizer`` (:class:`ReferenceBags`)."""
        return self.memoized(("bags", normalizer.steps),
                              lambda: ReferenceBags.build(self._array(normalizer.steps)))

    @property
    def seed(self) -> tuple[str, ...]:
        """The seed normalization of each reference string."""
        return self.normalized(SEED)

    @property
    def squad_bags(self) -> ReferenceBags:
        """The SQuAD tokens of each reference string (what the SQuAD modes choose by)."""
        return self.bags(SQUAD)

    @property
    def squad_lengths(self) -> np.ndarray:
        """The number of SQuAD tokens of each reference string."""
        return self.squad_bags.lengths


class KeyLookup:
    """Positions of int64 keys in a sorted array of distinct keys (-1: absent): a binary
    search while the keys fit in the processor's caches, a hash table (pandas' ``Index``)
    above :data:`HASHED_KEYS` keys, where it is several times quicker.

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
        flat, offsets = split_tokens(refs)
        rows, positions, lengths = token_layout(offsets)
        encoded = pc.dictionary_encode(flat) if len(flat) else None
        vocab = encoded.dictionary if encoded is not None else pa.array([], type=pa.string())
        ids = (encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
               if encoded is not None else np.zeros(0, dtype=np.int64))
        sequences = np.full((len(refs), int(lengths.max(initial=0))), -1, dtype=np.int64)
        sequences[rows, positions] = ids
        size = max(len(vocab), 1)
        # each reference's distinct tokens and their counts, sorted within its row: the keys
        # come out in the order np.unique gives them, without sorting all the tokens as one
        # array (the quicker, benchmarks/README.md)
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
        """Per row: are its tokens exactly its reference's tokens, in order? Only the rows
        as long as their reference are read (few, where answers are sentences)."""
        ref_of_row = np.maximum(slot, 0)
        same_length = (tokens.counts == self.lengths[ref_of_row]) & (slot >= 0)
        flat = tokens.of_rows(np.flatnonzero(same_length))
        expected = self.sequences[ref_of_row[tokens.rows[flat]], tokens.positions[flat]]
        differs = tokens.rows[flat[tokens.ids[flat] != expected]]
        same_length[differs] = False
        return same_length


# --- the rules' computations on prepared inputs ------------------------------------------
def equal_any(values: pa.Array, ref_values: Sequence[str], refs: References) -> np.ndarray:
    """Per row: does ``values`` equal any of the row's references (given as ``ref_values``)?"""
    if not ref_values:
        return np.zeros(len(values), dtype=bool)
    if len(ref_values) == 1:
        eq = pc.equal(values, pa.scalar(ref_values[0], type=pa.string()))
        return eq.to_numpy(zero_copy_only=False).astype(bool) & (refs.slots[0] >= 0)
    # the strings as one Arrow array, made once per strings (references shared by chunks)
    table = refs.memoized(f"array:{id(ref_values)}", lambda: pa.array(ref_values,
                                                                       type=pa.string()))
    out = np.zeros(len(values), dtype=bool)
    for slot in refs.slots:
        valid = slot >= 0
        eq = pc.equal(values, table.take(pa.array(np.where(valid, slot, 0))))
        out |= eq.to_numpy(zero_copy_only=False).astype(bool) & valid
    return out


def sequence_match(attempts: Attempts, refs: References, normalizer: Normalizer) -> np.ndarray:
    """Per row: are its tokens under ``normalizer`` exactly those of one of its references?"""
    bags = refs.bags(normalizer)
    tokens = attempts.tokens(normalizer, bags.vocab)
    out = np.zeros(len(attempts), dtype=bool)
    for slot in refs.slots:
        out |= bags.sequence_equal(slot, tokens)
    return out


def squad_exact_match(attempts: Attempts, refs: References, mode: str) -> np.ndarray:
    """Exact match of the SQuAD scripts of ``mode``, any of each row's references."""
    return sequence_match(attempts, refs.for_squad(mode), SQUAD)


def token_f1(attempts: Attempts, refs: References, mode: str,
             normalizer: Normalizer = SQUAD) -> np.ndarray:
    """Token F1 of the SQuAD scripts of ``mode``, max over each row's references (the ones
    the script of ``mode`` keeps), tokens counted under ``normalizer``."""
    refs = refs.for_squad(mode)
    bags = refs.bags(normalizer)
    tokens = attempts.tokens(normalizer, bags.vocab)
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


def contains_any(attempts: Attempts, refs: References, normalizer: Normalizer) -> np.ndarray:
    """Per row: does one of its references occur in it as whole consecutive tokens, both under
    ``normalizer``? A reference of no token never does."""
    out = np.zeros(len(attempts), dtype=bool)
    out[reference_starts(attempts, refs, normalizer)[0]] = True
    return out


def reference_starts(attempts: Attempts, refs: References, normalizer: Normalizer,
                     rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every place a row's reference occurs in it as whole consecutive tokens, both under
    ``normalizer``: (rows, flat token indices where it starts), by reference slot. ``rows``:
    look in these rows only (all by default)."""
    bags = refs.bags(normalizer)
    tokens = attempts.tokens(normalizer, bags.vocab)
    found_rows, starts = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    if not len(tokens.ids) or not bags.sequences.shape[1]:
        return found_rows[0], starts[0]
    wanted = np.ones(len(attempts), dtype=bool) if rows is None else np.isin(
        np.arange(len(attempts)), rows)
    for slot in refs.slots:
        looked = np.flatnonzero(wanted & (slot >= 0) & (tokens.counts > 0))
        flat = tokens.of_rows(looked)
        ref = slot[tokens.rows[flat]]
        # candidate starts: the row's reference's first token
        at = flat[tokens.ids[flat] == bags.sequences[ref, 0]]
        at = at[phrases_at(tokens, at, slot[tokens.rows[at]], bags.sequences, bags.lengths)]
        found_rows.append(tokens.rows[at])
        starts.append(at)
    return np.concatenate(found_rows), np.concatenate(starts)


def checklist_matrix(attempts: Attempts, facts, normalizer: Normalizer = SEED) -> np.ndarray:
    """A (rows × facts) boolean matrix: is each fact present (all its terms, normalized by
    ``normalizer``, as whole tokens)? A term the normalizer erases is never present."""
    terms = sorted({normalizer(t) for f in facts for t in f.terms})
    term_tokens = {t: t.split(" ") if t else [] for t in terms}
    vocab_index = {tok: i for i, tok in enumerate(dict.fromkeys(
        x for t in terms for x in term_tokens[t]))}
    tokens = attempts.tokens(normalizer, pa.array(list(vocab_index), type=pa.string()))
    found = {t: phrase_rows(tokens, [vocab_index[x] for x in term_tokens[t]], len(attempts))
             for t in terms}
    matrix = np.ones((len(attempts), len(facts)), dtype=bool)
    for j, fact in enumerate(facts):
        for term in fact.terms:
            matrix[:, j] &= found[normalizer(term)]
    return matrix
