"""Normalization: named steps, the normalizers built from them, and a vectorized runner.

"Normalization is the scorer": every step that changes a score is a named function in
:data:`STEPS`, every normalizer a named sequence of steps in :data:`NORMALIZERS`, and each
rule names the normalizer it uses in its signature (``norm:seed``). The published protocol of
the shipped benchmark is ``seed``: lowercase (``str.lower``), delete the characters of
``string.punctuation`` (ASCII only, deleted, never replaced by a space), trim, and collapse
whitespace as ``str.split()`` sees it. ``squad`` removes the articles a/an/the before the
whitespace, as the official SQuAD scripts do. Other steps (Unicode punctuation, NFKC) exist as
named options; a new step is a function registered with :func:`register_step`, a new
normalizer a :class:`Normalizer` registered with :func:`register_normalizer`.

>>> SEED("  The West-Drawer,\\tOPENS. ")
'the westdrawer opens'
>>> SQUAD("The answer is: a token!")
'answer is token'
>>> SQUAD.signature()  # doctest: +ELLIPSIS
'normalizer|name:squad|steps:lowercase,punctuation,articles,whitespace|version:...'
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._version import __version__
from .errors import UsageError

__all__ = [
    "Step",
    "STEPS",
    "register_step",
    "Normalizer",
    "NORMALIZERS",
    "register_normalizer",
    "normalizer_named",
    "SEED",
    "SQUAD",
    "lowercase",
    "delete_ascii_punctuation",
    "delete_unicode_punctuation",
    "remove_articles",
    "collapse_whitespace",
    "nfkc",
    "normalize_array",
    "string_buffers",
    "from_buffers",
    "collapse_spaces",
    "replace_rows",
    "KERNELS",
    "Kernel",
]

_ASCII_PUNCT_TABLE = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)


# --- the registry of steps -----------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """A named normalization step: a function from one string to one string, and what it
    does in a few words (shown beside the normalizers' signatures)."""

    name: str
    apply: Callable[[str], str]
    description: str


STEPS: dict[str, Step] = {}
"""Every step by name, in the order a normalizer switched on by name applies them
(:meth:`Normalizer.with_steps`)."""


def register_step(name: str, description: str):
    """Register the decorated function as the step ``name`` (a name used once only).

    >>> @register_step("demo_upper", "uppercase, for this example")
    ... def demo_upper(text):
    ...     return text.upper()
    >>> Normalizer("demo", ("demo_upper",))("a b")
    'A B'
    >>> del STEPS["demo_upper"]
    """
    def register(function: Callable[[str], str]) -> Callable[[str], str]:
        if name in STEPS:
            raise UsageError(f"a normalization step named {name!r} is already registered")
        STEPS[name] = Step(name, function, description)
        return function
    return register


# --- the steps, each on one string -------------------------------------------------------
def nfkc(text: str) -> str:
    """Unicode NFKC compatibility normalization — an option.

    >>> nfkc("ﬁve ２")
    'five 2'
    """
    return unicodedata.normalize("NFKC", text)


def lowercase(text: str) -> str:
    """Lowercase with ``str.lower`` (full Unicode case mapping).

    >>> lowercase("ÉCU Token")
    'écu token'
    """
    return text.lower()


def delete_ascii_punctuation(text: str) -> str:
    """Delete every character of ``string.punctuation``; other characters stay.

    >>> delete_ascii_punctuation("west-drawer’s “end”.")
    'westdrawer’s “end”'
    """
    return text.translate(_ASCII_PUNCT_TABLE)


def delete_unicode_punctuation(text: str) -> str:
    """Delete every character whose Unicode category is punctuation (P*) — an option.

    >>> delete_unicode_punctuation("west–drawer’s “end”")
    'westdrawers end'
    """
    return "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))


def remove_articles(text: str) -> str:
    """Replace the words a/an/the by a space, with the SQuAD scripts' regex ``\\b(a|an|the)\\b``.

    >>> remove_articles("the token and a drawer")
    '  token and   drawer'
    """
    return _ARTICLES.sub(" ", text)


def collapse_whitespace(text: str) -> str:
    """Trim and collapse whitespace runs (as ``str.split()`` sees them) to one space.

    >>> collapse_whitespace("  a\\t\\u00a0 b\\n")
    'a b'
    """
    return " ".join(text.split())


for _name, _step, _description in (
        ("nfkc", nfkc, "Unicode NFKC compatibility normalization"),
        ("lowercase", lowercase, "lowercase (str.lower, full Unicode case mapping)"),
        ("punctuation", delete_ascii_punctuation,
         "delete the 32 characters of string.punctuation (ASCII)"),
        ("unicode_punctuation", delete_unicode_punctuation,
         "delete every character of a Unicode P* category"),
        ("articles", remove_articles, "replace the words a, an, the by a space (SQuAD's regex)"),
        ("whitespace", collapse_whitespace,
         "trim, and collapse whitespace runs (str.split) to one space")):
    register_step(_name, _description)(_step)
del _name, _step, _description


# --- normalizers: named sequences of steps ------------------------------------------------
@dataclass(frozen=True)
class Normalizer:
    """A named sequence of registered steps (:data:`STEPS`), applied in order. ``name`` is
    what rules' signatures record; a variant gets a name of its own.

    >>> Normalizer("custom", ("lowercase", "whitespace"))("Hi,  There")
    'hi, there'
    """

    name: str
    steps: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        unknown = [s for s in self.steps if s not in STEPS]
        if unknown:
            raise UsageError(f"normalizer {self.name!r}: unknown step {unknown[0]!r} "
                             f"(steps: {', '.join(STEPS)})")

    def __call__(self, text: str) -> str:
        for step in self.steps:
            text = STEPS[step].apply(text)
        return text

    def signature(self) -> str:
        """``normalizer|name:<name>|steps:<step>,<step>…|version:X``: cite it beside the
        rules that use it."""
        return (f"normalizer|name:{self.name}|steps:{','.join(self.steps) or 'none'}"
                f"|version:{__version__}")

    def with_steps(self, name: str, **switches: bool) -> Normalizer:
        """A variant under a new name, with steps switched on or off by name; the steps keep
        the order of :data:`STEPS`.

        >>> SEED.with_steps("seed-nocase", lowercase=False)("A  B")
        'A B'
        >>> SEED.with_steps("seed+nfkc", nfkc=True).steps
        ('nfkc', 'lowercase', 'punctuation', 'whitespace')
        """
        unknown = [s for s in switches if s not in STEPS]
        if unknown:
            raise UsageError(f"unknown step {unknown[0]!r} (steps: {', '.join(STEPS)})")
        on = {s for s in self.steps if switches.get(s, True)}
        on |= {s for s, wanted in switches.items() if wanted}
        return Normalizer(name, tuple(s for s in STEPS if s in on))


NORMALIZERS: dict[str, Normalizer] = {}
"""Every registered normalizer by name: the ones rules may name."""


def register_normalizer(normalizer: Normalizer) -> Normalizer:
    """Register ``normalizer`` under its name (used once only); return it."""
    if normalizer.name in NORMALIZERS:
        raise UsageError(f"a normalizer named {normalizer.name!r} is already registered")
    NORMALIZERS[normalizer.name] = normalizer
    return normalizer


def normalizer_named(name: str | Normalizer) -> Normalizer:
    """The registered normalizer ``name`` (a :class:`Normalizer` is returned as it is); an
    unknown name lists the registered ones.

    >>> normalizer_named("squad") is SQUAD
    True
    """
    if isinstance(name, Normalizer):
        return name
    if name not in NORMALIZERS:
        raise UsageError(f"unknown normalizer {name!r} (normalizers: {', '.join(NORMALIZERS)})")
    return NORMALIZERS[name]


SEED = register_normalizer(Normalizer("seed", ("lowercase", "punctuation", "whitespace")))
SQUAD = register_normalizer(Normalizer("squad", ("lowercase", "punctuation", "articles",
                                                 "whitespace")))


# --- the vectorized runner ---------------------------------------------------------------
# The fast path works on ASCII bytes: punctuation is deleted, letters lowercased, and the
# bytes str.split() treats as whitespace (\t \n \v \f \r \x1c-\x1f and space) folded to a
# space. Rows it cannot do exactly (see exact_rows) take the Python steps.
_PUNCT_BYTE = np.zeros(256, dtype=bool)
_PUNCT_BYTE[np.frombuffer(string.punctuation.encode(), dtype=np.uint8)] = True
# Lowercase ASCII letters and map every ASCII whitespace byte to a space, in one lookup.
_FOLD_BYTE = np.arange(256, dtype=np.uint8)
_FOLD_BYTE[0x41:0x5B] += 0x20
_FOLD_BYTE[[0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F]] = 0x20
_SPACE = 0x20


def string_buffers(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Offsets (int64, starting at 0) and value bytes of a string array without nulls."""
    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(arr.buffers()[1], dtype=width)
    offsets = offsets[arr.offset : arr.offset + len(arr) + 1].astype(np.int64)
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
    return offsets - offsets[0], data


def _rows_of(positions: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The row each byte position belongs to."""
    return np.searchsorted(offsets, positions, side="right") - 1


def _delete(offsets: np.ndarray, data: np.ndarray, drop: np.ndarray):
    """Delete the bytes ``drop`` marks; offsets shrink by the deletions before them."""
    removed = np.bincount(_rows_of(np.flatnonzero(drop), offsets), minlength=len(offsets) - 1)
    shrink = np.zeros(len(offsets), dtype=np.int64)
    np.cumsum(removed, out=shrink[1:])
    return offsets - shrink, data[~drop]


def _seed_ascii(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    """The seed pipeline on ASCII bytes (exact for fast-path rows; other rows are garbage)."""
    offsets, data = _delete(offsets, data, _PUNCT_BYTE[data])
    return collapse_spaces(offsets, _FOLD_BYTE[data])


def collapse_spaces(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    """The strings of :func:`string_buffers` ``(offsets, data)`` with each run of spaces
    (0x20) as one space and none at either end; every other byte as it is.

    >>> collapse_spaces(*string_buffers(pa.array(["  a   b ", "c", "   "]))).to_pylist()
    ['a b', 'c', '']
    """
    # Collapse each run of spaces to its last space (never across a row boundary) ...
    space = data == _SPACE
    doubled = np.zeros(len(data), dtype=bool)
    np.logical_and(space[:-1], space[1:], out=doubled[:-1])
    last = offsets[1:][offsets[1:] > offsets[:-1]] - 1
    doubled[last] = False
    offsets, data = _delete(offsets, data, doubled)
    # ... then trim the single space that may remain at either end.
    return pc.ascii_trim(from_buffers(offsets, data), " ")


def exact_rows(values: pa.Array, *, articles: bool) -> np.ndarray:
    """Rows the vectorized path cannot normalize exactly: non-ASCII text, and, when articles
    are removed, ASCII control characters other than whitespace (they change what the
    articles regex's ``\\b`` sees, but not what ``str.split()`` does)."""
    ascii_only = pc.string_is_ascii(values).to_numpy(zero_copy_only=False)
    if not articles:
        return np.flatnonzero(~ascii_only)
    suspect = np.flatnonzero(~pc.ascii_is_printable(values).to_numpy(zero_copy_only=False))
    if len(suspect):
        subset = values.take(pa.array(suspect))
        odd = pc.or_(pc.invert(pc.string_is_ascii(subset)),
                     pc.match_substring_regex(subset, r"[\x00-\x08\x0e-\x1b\x7f]"))
        suspect = suspect[odd.to_numpy(zero_copy_only=False)]
    return suspect


def from_buffers(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    """The string array of ``offsets`` (from 0) and value bytes ``data``."""
    large = offsets[-1] >= 2**31
    return pa.Array.from_buffers(
        pa.large_string() if large else pa.string(),
        len(offsets) - 1,
        [None, pa.py_buffer(offsets.astype(np.int64 if large else np.int32)),
         pa.py_buffer(np.ascontiguousarray(data))],
    )


def _drop_article_tokens(seed: pa.Array) -> pa.Array:
    """On seed-normalized ASCII text, the articles regex is dropping the tokens a/an/the."""
    lists = pc.split_pattern(seed, " ")
    flat = pc.list_flatten(lists)
    keep = pc.invert(pc.is_in(flat, value_set=pa.array(["a", "an", "the"])))
    counts = np.bincount(
        pc.list_parent_indices(lists).to_numpy()[keep.to_numpy(zero_copy_only=False)],
        minlength=len(seed),
    )
    offsets = np.zeros(len(seed) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    kept = pa.ListArray.from_arrays(pa.array(offsets), pc.filter(flat, keep))
    return pc.binary_join(kept, " ")


@dataclass(frozen=True)
class Kernel:
    """A vectorized implementation of one sequence of steps: ``run(values)`` is exact on every
    row but those ``inexact(values)`` returns, which take the Python steps. ``base``: the steps
    whose output ``from_base`` can start from instead; ``drops``: on that output (split on
    spaces), the kernel amounts to dropping these tokens, and ``rest`` are the steps that make
    its output from the base's on any row (so the engine derives tokens without a new pass).
    """

    run: Callable[[pa.Array], pa.Array] | None
    inexact: Callable[[pa.Array], np.ndarray]
    base: tuple[str, ...] | None = None
    from_base: Callable[[pa.Array], pa.Array] | None = None
    drops: tuple[str, ...] = ()
    rest: tuple[str, ...] = ()
    token_map: Callable[[str], str] | None = None
    """A kernel of tokens: its steps map each token of ``base``'s output to one token."""

    @classmethod
    def of_tokens(cls, base: tuple[str, ...], token_map: Callable[[str], str]) -> Kernel:
        """The kernel of steps that map each token of ``base``'s output (one token to one):
        the distinct tokens are mapped once, in Python.

        >>> k = Kernel.of_tokens(SEED.steps, str.upper)
        >>> k.from_base(pa.array(["a b", "", "b"])).to_pylist()
        ['A B', '', 'B']
        """
        if token_map(""):
            raise ValueError("a kernel of tokens must map the empty token to itself")
        return cls(None, _no_rows, base=base, from_base=lambda arr: map_tokens(arr, token_map),
                   token_map=token_map)


def _no_rows(values: pa.Array) -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


def map_tokens(normalized: pa.Array, token_map: Callable[[str], str]) -> pa.Array:
    """Each space-separated token of ``normalized`` through ``token_map``, each distinct
    token once."""
    lists = pc.split_pattern(normalized, " ")
    encoded = pc.dictionary_encode(pc.list_flatten(lists))
    mapped = pa.array([token_map(t) for t in encoded.dictionary.to_pylist()], type=pa.string())
    flat = mapped.take(encoded.indices)
    offsets = lists.offsets.cast(pa.int32())
    return pc.binary_join(pa.ListArray.from_arrays(offsets, flat), " ")


def _seed_kernel(values: pa.Array) -> pa.Array:
    return _seed_ascii(*string_buffers(values))


KERNELS: dict[tuple[str, ...], Kernel] = {
    SEED.steps: Kernel(_seed_kernel, lambda values: exact_rows(values, articles=False)),
    SQUAD.steps: Kernel(lambda values: _drop_article_tokens(_seed_kernel(values)),
                        lambda values: exact_rows(values, articles=True), base=SEED.steps,
                        from_base=_drop_article_tokens, drops=("a", "an", "the"),
                        rest=("articles", "whitespace")),
}
"""The vectorized implementations by step sequence; any other sequence takes the Python
steps once per distinct value (a new step needs no kernel to be exact)."""


def normalize_array(values: pa.Array | pa.ChunkedArray, normalizer: Normalizer = SEED, *,
                    base: pa.Array | None = None) -> pa.Array:
    """Apply ``normalizer`` to every string of ``values``; equal, row by row, to ``normalizer(s)``.

    A step sequence with a kernel (:data:`KERNELS`) takes a vectorized path over the Arrow
    value bytes, the rows it cannot do exactly the Python steps; any other is normalized once
    per distinct value with the Python steps. ``base``, the values already normalized by the
    kernel's ``base`` steps (the seed normalization, for squad), saves a pass.

    >>> normalize_array(pa.array(["A  b!", "Ça, VA"])).to_pylist()
    ['a b', 'ça va']
    """
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if values.null_count:
        raise ValueError("normalize_array: values must not contain nulls")
    if not pa.types.is_string(values.type) and not pa.types.is_large_string(values.type):
        values = values.cast(pa.string())
    if len(values) == 0:
        return pa.array([], type=pa.string())
    kernel = KERNELS.get(normalizer.steps)
    if kernel is None:
        return _normalize_exact(values, normalizer)
    if kernel.run is None and base is None:  # a kernel of tokens starts from its base's
        base = normalize_array(values, Normalizer("+".join(kernel.base), kernel.base))
    if base is not None and kernel.from_base is not None:
        out = kernel.from_base(base)
    else:
        out = kernel.run(values)
    rows = kernel.inexact(values)
    if len(rows):
        exact = _normalize_exact(values.take(pa.array(rows)), normalizer)
        out = replace_rows(out, rows, exact)
    return out.cast(pa.string())


def _normalize_exact(values: pa.Array, normalizer: Normalizer) -> pa.Array:
    """Python normalization, once per distinct value."""
    encoded = pc.dictionary_encode(values)
    step = _seed_text if normalizer.steps == SEED.steps else normalizer
    distinct = [step(s) for s in encoded.dictionary.to_pylist()]
    return pa.array(distinct, type=pa.string()).take(encoded.indices)


def _seed_text(text: str) -> str:
    """The seed pipeline in one expression (the exact path's hot loop)."""
    return " ".join(text.lower().translate(_ASCII_PUNCT_TABLE).split())


def replace_rows(base: pa.Array, rows: np.ndarray, new: pa.Array) -> pa.Array:
    """``base`` with the rows ``rows`` replaced by ``new``, in order, as strings: how a kernel
    takes the rows it cannot do exactly from the Python steps.

    >>> replace_rows(pa.array(["a", "b", "c"]), np.array([2, 0]), pa.array(["C", "A"])).to_pylist()
    ['A', 'b', 'C']
    """
    index = np.arange(len(base), dtype=np.int64)
    index[rows] = len(base) + np.arange(len(rows))
    return pa.concat_arrays([base.cast(pa.string()), new.cast(pa.string())]).take(pa.array(index))
