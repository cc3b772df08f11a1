"""Normalization: each step alone, the seed and squad pipelines, and the vectorized runner.

Every expected string can be worked out by hand from the step's definition; the comments
show the working where it is not obvious. ``normalize_array`` is held to the Python pipeline
row by row (its fast path over Arrow bytes must never change a result).
"""

from __future__ import annotations

import string

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from recallscore_nb.core.normalize import (
    NORMALIZERS,
    SEED,
    SQUAD,
    Kernel,
    Normalizer,
    collapse_whitespace,
    delete_ascii_punctuation,
    delete_unicode_punctuation,
    lowercase,
    nfkc,
    normalize_array,
    remove_articles,
    replace_rows,
)

HYPOTHESIS = settings(max_examples=200, deadline=None)

# Text that exercises the fast path and its boundaries: ASCII letters, articles, every kind
# of whitespace str.split() knows, ASCII and non-ASCII punctuation, control characters.
PIECES = [
    "the", "The", "THE", "a", "A", "an", "An", "theater", "another", "west", "drawer",
    "token", "x", "Z9", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f",
    "\u00a0", "\u2003", "\u3000", "\x85", ".", ",", "-", "_", "'", "!", "~", "\\",
    "–", "’", "“", "é", "İ", "ﬁ", "ß", "東京", "\x00", "\x01", "\x1b", "\x7f",
    "\u200b",
]
biased_text = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
ascii_text = st.text(alphabet=string.ascii_letters + string.punctuation + " \t\n", max_size=30)
any_text = st.one_of(st.text(max_size=30), biased_text, ascii_text)


# --- each step alone ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ABC def", "abc def"),
        ("ÉCU Token", "écu token"),
        ("ΣΑΣ", "σας"),  # str.lower knows the final sigma
        ("İ", "i\u0307"),  # dotted capital I lowercases to two characters
        ("ẞ", "ß"),
        ("ß", "ß"),  # lowercase already (casefold would give "ss"; lower does not)
        ("東京", "東京"),
        ("", ""),
    ],
)
def test_lowercase(text, expected):
    assert lowercase(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("west-drawer", "westdrawer"),  # deleted, never replaced by a space
        ("a.b,c;d", "abcd"),
        ("x_y", "xy"),  # "_" is in string.punctuation
        (string.punctuation, ""),  # all 32 ASCII punctuation characters
        ("don't", "dont"),
        ("don’t", "don’t"),  # U+2019 is not ASCII: kept
        ("west–drawer", "west–drawer"),  # U+2013 en dash: kept
        ("«a» “b” 。", "«a» “b” 。"),  # non-ASCII punctuation: kept
        ("  a  ", "  a  "),  # whitespace untouched
        ("", ""),
    ],
)
def test_delete_ascii_punctuation(text, expected):
    assert delete_ascii_punctuation(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("west–drawer’s “end”", "westdrawers end"),
        ("a-b", "ab"),  # "-" is Pd, punctuation
        ("«c» 。", "c "),  # Pi, Pf and the CJK full stop
        ("$+<", "$+<"),  # symbols (Sc, Sm) are not punctuation
        ("", ""),
    ],
)
def test_delete_unicode_punctuation(text, expected):
    assert delete_unicode_punctuation(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the token and a drawer", "  token and   drawer"),  # each article becomes a space
        ("an apple", "  apple"),
        ("The", "The"),  # the regex is case-sensitive; the pipeline lowercases first
        ("theater another anthem", "theater another anthem"),  # \b: whole words only
        ("a a", "   "),
        ("the-end", " -end"),  # "-" is not a word character
        ("the\x00x", " \x00x"),  # nor is NUL
        ("the’s", " ’s"),  # nor U+2019
        ("thé", "thé"),  # "é" is a word character: no boundary after "th"
        ("éthe", "éthe"),
        ("a_b", "a_b"),  # "_" is a word character
        ("a1", "a1"),
        ("", ""),
    ],
)
def test_remove_articles(text, expected):
    assert remove_articles(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  a\t\u00a0 b\n", "a b"),
        ("a\x0bb\x0cc\rd", "a b c d"),
        ("a\x1cb\x1dc\x1ed\x1fe", "a b c d e"),  # str.split() sees \x1c-\x1f as whitespace
        ("a\x85b", "a b"),  # NEL
        ("a\u2003b\u3000c", "a b c"),  # em space, ideographic space
        ("a\u200bb", "a\u200bb"),  # zero-width space is not whitespace
        ("a\x00b", "a\x00b"),  # NUL is not whitespace
        ("   ", ""),
        ("", ""),
    ],
)
def test_collapse_whitespace(text, expected):
    assert collapse_whitespace(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ﬁve ２", "five 2"),
        ("Ａ", "A"),
        ("e\u0301", "é"),  # composed
        ("\u00a0", " "),
    ],
)
def test_nfkc(text, expected):
    assert nfkc(text) == expected


# --- the pipelines -----------------------------------------------------------------------
def test_registry():
    assert list(NORMALIZERS) == ["seed", "squad", "answer", "answer+numbers", "answer+stems"]
    assert (NORMALIZERS["seed"], NORMALIZERS["squad"]) == (SEED, SQUAD)
    assert (SEED.name, "articles" in SEED.steps) == ("seed", False)
    assert (SQUAD.name, "articles" in SQUAD.steps) == ("squad", True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  The West-Drawer,\tOPENS. ", "the westdrawer opens"),
        ("the a an", "the a an"),  # seed keeps articles
        ("Café – ÉTÉ", "café – été"),  # the en dash stays, as a token of its own
        ("Don’t!", "don’t"),
        ("Don't!", "dont"),
        ("İstanbul", "i\u0307stanbul"),
        ("ﬁne", "ﬁne"),  # no NFKC
        ("東京\u3000タワー。", "東京 タワー。"),  # the ideographic full stop stays
        ("ПРИВЕТ,\u00a0МИР", "привет мир"),
        ("the\x00x", "the\x00x"),
        ("...", ""),
        ("", ""),
    ],
)
def test_seed_pipeline(text, expected):
    assert SEED(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is: a token!", "answer is token"),
        ("a-the token", "athe token"),  # punctuation goes first: "athe" is no article
        ("A–B", "–b"),  # the en dash is a non-word character, so "a" is a whole word
        ("the’s", "’s"),
        ("An İ", "i\u0307"),
        ("thé café", "thé café"),
        ("Ａ ｔｈｅ", "ａ ｔｈｅ"),  # fullwidth letters are not the ASCII articles
        ("ΤΗΕ", "τηε"),
        ("the\x00x", "\x00x"),  # NUL is not a word character: "the" is removed
        ("the", ""),
        ("", ""),
    ],
)
def test_squad_pipeline(text, expected):
    assert SQUAD(text) == expected


def test_with_steps_makes_a_named_variant():
    nocase = SEED.with_steps("seed-nocase", lowercase=False)
    assert nocase.name == "seed-nocase"
    assert nocase("A,  B") == "A B"
    assert SEED("A,  B") == "a b"  # the original is unchanged


@HYPOTHESIS
@given(any_text)
def test_pipelines_are_idempotent(text):
    assert SEED(SEED(text)) == SEED(text)
    assert SQUAD(SQUAD(text)) == SQUAD(text)


@HYPOTHESIS
@given(any_text)
def test_squad_is_seed_without_articles(text):
    # The squad pipeline applied to seed text gives the squad result of the original.
    assert SQUAD(SEED(text)) == SQUAD(text)


# --- the vectorized runner ---------------------------------------------------------------
TRICKY = [
    "",
    " ",
    "   ",
    "\t",
    "\x0b",
    "\x1c",
    "\u00a0",
    " a ",
    "a  b",
    "A\tB\nC\rD\x0bE\x0cF",
    "x\x1cy\x1fz",
    "the\x00x",
    "a\x00",
    "\x00the",
    "the\x01 an\x1b a\x7f",
    "é",
    "É the",
    "İ",
    "İİ a",
    "ﬁ",
    "東京 the タワー",
    "mixed: The ÉTÉ, a\u00a0b",
    "...",
    "-a-",
    "The West-Drawer,\tOPENS. ",
    "the a an",
    "theater another",
    "A. B. C.",
    "a–b",
    "\u2003a\u3000",
    "x" * 1000,
]


def python_rows(values, normalizer):
    return [normalizer(v) for v in values]


@pytest.mark.parametrize("normalizer", [SEED, SQUAD], ids=["seed", "squad"])
def test_normalize_array_on_tricky_rows(normalizer):
    got = normalize_array(pa.array(TRICKY), normalizer).to_pylist()
    assert got == python_rows(TRICKY, normalizer)


@pytest.mark.parametrize("normalizer", [SEED, SQUAD], ids=["seed", "squad"])
@pytest.mark.parametrize("text", TRICKY)
def test_normalize_array_on_one_tricky_row(normalizer, text):
    # Alone, and between ASCII neighbours (runs must never cross a row boundary).
    assert normalize_array(pa.array([text]), normalizer).to_pylist() == [normalizer(text)]
    rows = [" A ", text, " b  ", text]
    assert normalize_array(pa.array(rows), normalizer).to_pylist() == python_rows(rows, normalizer)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], []),
        ([""], [""]),
        (["", ""], ["", ""]),
        (["A  b!", "Ça, VA"], ["a b", "ça va"]),
    ],
)
def test_normalize_array_small_cases(values, expected):
    assert normalize_array(pa.array(values, type=pa.string())).to_pylist() == expected


@pytest.mark.parametrize("normalizer", [SEED, SQUAD], ids=["seed", "squad"])
@pytest.mark.parametrize(("offset", "length"), [(0, 0), (1, 0), (3, 5), (7, 10), (16, 15)])
def test_normalize_array_on_sliced_arrays(normalizer, offset, length):
    sliced = pa.array(TRICKY).slice(offset, length)
    assert sliced.offset == offset
    expected = python_rows(TRICKY[offset : offset + length], normalizer)
    assert normalize_array(sliced, normalizer).to_pylist() == expected


@pytest.mark.parametrize("normalizer", [SEED, SQUAD], ids=["seed", "squad"])
def test_normalize_array_on_chunked_and_large_string_arrays(normalizer):
    expected = python_rows(TRICKY, normalizer)
    chunked = pa.chunked_array([TRICKY[:10], TRICKY[10:11], TRICKY[11:]])
    assert normalize_array(chunked, normalizer).to_pylist() == expected
    large = pa.array(TRICKY, type=pa.large_string())
    assert normalize_array(large, normalizer).to_pylist() == expected
    assert normalize_array(large.slice(5), normalizer).to_pylist() == expected[5:]


def test_normalize_array_output_type():
    assert normalize_array(pa.array(["A"], type=pa.large_string())).type == pa.string()
    assert normalize_array(pa.array([], type=pa.string()), SQUAD).type == pa.string()


def test_normalize_array_rejects_nulls():
    with pytest.raises(ValueError, match="nulls"):
        normalize_array(pa.array(["a", None]))


def test_normalize_array_with_precomputed_seed():
    values = pa.array(TRICKY)
    seed = normalize_array(values, SEED)
    assert normalize_array(values, SQUAD, base=seed).to_pylist() == python_rows(TRICKY, SQUAD)


@pytest.mark.parametrize(
    "normalizer",
    [
        SEED.with_steps("seed-nfkc", nfkc=True),
        SEED.with_steps("seed-unicode", unicode_punctuation=True),
        SEED.with_steps("seed-nocase", lowercase=False),
        Normalizer("raw", ()),
    ],
    ids=lambda n: n.name,
)
def test_normalize_array_on_variants(normalizer):
    assert normalize_array(pa.array(TRICKY), normalizer).to_pylist() == python_rows(
        TRICKY, normalizer
    )


@HYPOTHESIS
@given(st.lists(any_text, max_size=30))
def test_normalize_array_equals_python_pipeline(values):
    arr = pa.array(values, type=pa.string())
    assert normalize_array(arr, SEED).to_pylist() == python_rows(values, SEED)
    assert normalize_array(arr, SQUAD).to_pylist() == python_rows(values, SQUAD)


@HYPOTHESIS
@given(st.lists(any_text, max_size=30), st.data())
def test_normalize_array_on_hypothesis_slices(values, data):
    start = data.draw(st.integers(0, len(values)))
    length = data.draw(st.integers(0, len(values) - start))
    sliced = pa.array(values, type=pa.string()).slice(start, length)
    part = values[start : start + length]
    assert normalize_array(sliced, SEED).to_pylist() == python_rows(part, SEED)
    assert normalize_array(sliced, SQUAD).to_pylist() == python_rows(part, SQUAD)


def test_a_kernel_of_tokens_leaves_the_empty_token_empty():
    """A row of no token is joined empty, without the map: a map that makes something of
    the empty token would tell the two paths apart, so it is refused."""
    with pytest.raises(ValueError, match="empty token"):
        Kernel.of_tokens(SEED.steps, lambda token: token or "x")


def test_replace_rows_puts_the_new_rows_in_order_and_keeps_the_others():
    base = pa.array(["a", "b", "c", "d"], type=pa.large_string())
    out = replace_rows(base, np.array([3, 1]), pa.array(["D", "B"]))
    assert out.type == pa.string() and out.to_pylist() == ["a", "B", "c", "D"]
    assert replace_rows(base, np.array([], dtype=np.int64), pa.array([], type=pa.string())
                        ).to_pylist() == ["a", "b", "c", "d"]
