"""What both benchmark shapes share: where the repository is, the shipped benchmark, the
generator of attempts, the per-row reference implementation and the report's formatting.

``bench_scoring.py`` (one reference for every row) and ``items_shape.py`` (many items, each
its own reference) import this module; neither imports the other's generator.
"""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCHMARK_JSON = REPO / "recallscore_nb" / "data" / "benchmarks" / "four_fact_recall.json"
SHOW_DIFFS = 5
sys.path.insert(0, str(REPO))  # run as a script from anywhere: the package and tests.oracles

from tests.oracles import reference_rules  # noqa: E402

__all__ = ["REPO", "BENCHMARK_JSON", "SHOW_DIFFS", "reference_rules", "make_attempts",
           "load_benchmark", "fmt_rate", "attempt_ids", "run_independent"]


# --- the attempts ------------------------------------------------------------------------
ARTICLES = ["a", "an", "the", "The", "A", "An", "THE"]
CONTEXTS = [
    "Please remember that ",
    "I think ",
    "Answer: ",
    "ok so ",
    "Hmm, ",
    "In short - ",
    "From memory: ",
    "(not sure) ",
    "The answer is ",
]
SPACES = ["  ", "\t", "\n", " \t ", "\r\n", "   ", " \n", "\x0b", "\x0c", "\x1f"]
NEAR_MISSES = {
    "west": ["northwest", "East", "west's", "wests"],
    "token": ["tokens", "token's", "tok en"],
    "copper": ["copper-colored", "Copper,", "coppery"],
    "drawer": ["drawers", "drawer-top"],
    "before": ["befor", "be-fore"],
    "museum": ["Museum's", "museums"],
    "opens": ["open", "opens!"],
}
NON_ASCII_WORDS = [
    "musée", "déjà", "ﬁnally", "铜", "抽屉", "博物馆", "Straße", "İstanbul", "\u212aelvin",
]  # fmt: skip


def _words(text: str) -> list[str]:
    return text.split(" ")


def _pos(rng: random.Random, seq) -> int:
    return rng.randrange(len(seq)) if seq else 0


def op_case(rng: random.Random, s: str) -> str:
    choice = rng.randrange(5)
    if choice == 0:
        return s.upper()
    if choice == 1:
        return s.lower()
    if choice == 2:
        return s.title()
    if choice == 3:
        return s.swapcase()
    words = _words(s)
    i = _pos(rng, words)
    words[i] = words[i].upper() if rng.random() < 0.5 else words[i].capitalize()
    return " ".join(words)


def op_punct_insert(rng: random.Random, s: str) -> str:
    ch = rng.choice(string.punctuation)
    if rng.random() < 0.5 or not s:  # after a word, as a writer would
        words = _words(s)
        i = _pos(rng, words)
        words[i] = words[i] + ch if words else ch
        return " ".join(words)
    i = rng.randrange(len(s) + 1)  # anywhere, even inside a word
    return s[:i] + ch + s[i:]


def op_punct_remove(rng: random.Random, s: str) -> str:
    marks = [i for i, ch in enumerate(s) if ch in string.punctuation]
    if not marks or rng.random() < 0.5:
        return s.translate(str.maketrans("", "", string.punctuation))
    i = rng.choice(marks)
    return s[:i] + s[i + 1 :]


def op_spacing(rng: random.Random, s: str) -> str:
    choice = rng.randrange(4)
    if choice == 0:
        return rng.choice(SPACES) + s
    if choice == 1:
        return s + rng.choice(SPACES)
    spaces = [i for i, ch in enumerate(s) if ch == " "]
    if not spaces:
        return " " + s
    i = rng.choice(spaces)
    return s[:i] + rng.choice(SPACES) + s[i + 1 :]


def op_word_drop(rng: random.Random, s: str) -> str:
    words = _words(s)
    if len(words) > 1:
        del words[_pos(rng, words)]
    return " ".join(words)


def op_word_dup(rng: random.Random, s: str) -> str:
    words = _words(s)
    i = _pos(rng, words)
    words.insert(i, words[i] if words else "token")
    return " ".join(words)


def op_word_swap(rng: random.Random, s: str) -> str:
    words = _words(s)
    if len(words) > 1:
        i = rng.randrange(len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words)


def op_article(rng: random.Random, s: str) -> str:
    words = _words(s)
    words.insert(rng.randrange(len(words) + 1), rng.choice(ARTICLES))
    return " ".join(words)


def op_context(rng: random.Random, s: str) -> str:
    return rng.choice(CONTEXTS) + s


def op_fragment(rng: random.Random, s: str) -> str:
    """A short slice of the attempt: few tokens, where F1's rounding shows."""
    words = s.split()
    if not words:
        return s
    i = rng.randrange(len(words))
    return " ".join(words[i : i + rng.randint(1, 4)])


def op_hyphenate(rng: random.Random, s: str) -> str:
    spaces = [i for i, ch in enumerate(s) if ch == " "]
    if not spaces:
        return s
    i = rng.choice(spaces)
    return s[:i] + rng.choice("-/_") + s[i + 1 :]


def op_near_miss(rng: random.Random, s: str) -> str:
    words = _words(s)
    hits = [i for i, w in enumerate(words) if w.lower().strip(string.punctuation) in NEAR_MISSES]
    if not hits:
        return s
    i = rng.choice(hits)
    words[i] = rng.choice(NEAR_MISSES[words[i].lower().strip(string.punctuation)])
    return " ".join(words)


def op_non_ascii(rng: random.Random, s: str) -> str:
    choice = rng.randrange(7)
    words = _words(s)
    i = _pos(rng, words)
    if choice == 0:  # typographic apostrophe
        words[i] = words[i] + rng.choice(["’s", "’"])
    elif choice == 1:  # en dash between words
        words.insert(i, "–")
    elif choice == 2:  # no-break space for a space
        return s.replace(" ", "\u00a0", rng.randint(1, 3))
    elif choice == 3:  # accented letter
        words[i] = words[i].replace("e", "é", 1) or "é"
    elif choice == 4:  # a word from elsewhere
        words.insert(i, rng.choice(NON_ASCII_WORDS))
    elif choice == 5:  # Chinese glued to a word (CJK letters are word characters)
        words[i] = words[i] + rng.choice(["铜", "在抽屉里", "。"])
    else:  # ligature
        words.insert(i, rng.choice(["ﬁ", "ﬁrst", "the’"]))
    return " ".join(words)


FILLERS = [
    "today", "maybe", "box", "coin", "small", "old", "left", "right", "top", "key", "it",
    "always", "then", "and", "or", "not", "in", "on", "of", "to", "is", "goes", "put",
    "copper", "token", "west", "drawer", "before", "museum", "opens", "after", "silver",
]  # fmt: skip


def op_filler(rng: random.Random, s: str) -> str:
    words = _words(s)
    words.insert(rng.randrange(len(words) + 1), rng.choice(FILLERS))
    return " ".join(words)


ASCII_OPS = [
    op_case,
    op_punct_insert,
    op_punct_remove,
    op_spacing,
    op_word_drop,
    op_word_dup,
    op_word_swap,
    op_article,
    op_context,
    op_fragment,
    op_hyphenate,
    op_near_miss,
    op_filler,
]
# Edge cases that always appear (only once each among the distinct attempts).
SPECIALS = ["", " ", "\t\n", "!!!", "the", "A", "The.", "an the a", "copper", "Copper."]
NON_ASCII_SHARE = 0.05


def perturb(rng: random.Random, seed_attempt: str, non_ascii: bool) -> str:
    s = seed_attempt
    for _ in range(rng.randint(1, 5)):
        s = rng.choice(ASCII_OPS)(rng, s)
    if non_ascii:
        for _ in range(rng.randint(1, 2)):
            s = op_non_ascii(rng, s)
    return s


def make_attempts(seeds: list[str], n_rows: int, seed: int) -> list[str]:
    """N attempts, half of them distinct, ~5% non-ASCII; deterministic in ``seed``.

    A pool of N/2 distinct attempts (the seeds, a few edge cases, then perturbations, of
    which 5% carry non-ASCII text) is completed to N rows by repeating pool members picked
    at random, then shuffled.
    """
    rng = random.Random(seed)
    target = max(1, n_rows // 2)
    want_non_ascii = round(target * NON_ASCII_SHARE)
    pool: dict[str, None] = {}
    for s in seeds + SPECIALS:
        if len(pool) < target - want_non_ascii:
            pool[s] = None
    for non_ascii, size in ((False, target - want_non_ascii), (True, target)):
        tries = 0
        while len(pool) < size and tries < 100 * target:
            tries += 1
            candidate = perturb(rng, rng.choice(seeds), non_ascii)
            if candidate.isascii() != non_ascii:
                pool.setdefault(candidate, None)
    distinct = list(pool)
    rows = distinct + [rng.choice(distinct) for _ in range(n_rows - len(distinct))]
    rng.shuffle(rows)
    return rows


def load_benchmark() -> tuple[str, list[tuple[str, list[str]]], list[str]]:
    with open(BENCHMARK_JSON, encoding="utf-8") as fh:
        bench = json.load(fh)
    reference = bench["referenceAnswer"]
    facts = [(f["fact"], list(f["requiredTerms"])) for f in bench["protocol"]["factChecklist"]]
    seeds = [row["attempt"] for row in bench["rows"]]
    return reference, facts, seeds


def fmt_rate(rows: int, seconds: float) -> str:
    return f"{rows / seconds:,.0f} rows/s" if seconds > 0 else "inf rows/s"


def attempt_ids(n: int) -> list[str]:
    """The ids the benchmarks give their attempts: ``A0000000``, ``A0000001``..."""
    return [f"A{i:07d}" for i in range(n)]


def run_independent(attempts, item_ids=None, items=None) -> float:
    """Seconds ``baseline_loop.py`` (the independent per-row loop, reading the file with the
    ``csv`` module and writing a JSON line per row) takes on these attempts, as a child
    process: ``attempts`` and ``item_ids`` written to a CSV file, ``items`` ((id, reference,
    [(fact, [terms])]) as ``items_shape.make_items`` gives them) to an items file."""
    import csv
    import subprocess
    import tempfile
    import time

    with tempfile.TemporaryDirectory(prefix="bench_independent_") as tmp:
        folder = Path(tmp)
        with open(folder / "attempts.csv", "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["id", "attempt"] if item_ids is None else ["id", "item", "attempt"])
            ids = attempt_ids(len(attempts))
            writer.writerows(zip(ids, attempts) if item_ids is None
                             else zip(ids, item_ids, attempts))
        scorer = []
        if items is not None:
            import items_shape

            items_shape.write_items_file(folder / "items.jsonl", items)
            scorer = ["--items", str(folder / "items.jsonl")]
        cmd = [sys.executable, str(Path(__file__).resolve().parent / "baseline_loop.py"),
               str(folder / "attempts.csv"), *scorer, "--out", str(folder / "scores.jsonl")]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - start
