"""A partitioned attempts dataset for tests: three Parquet files of generated attempts
against 20 generated items (the Dask engine's and the datasets reader's tests)."""

from __future__ import annotations

import random

import pandas as pd

from recallscore_nb.core.facts import Fact
from recallscore_nb.core.items import Item, Items
from recallscore_nb.io.attempts import read_attempts

ROWS_PER_FILE = 2_000
FILE_NAMES = ("part-b.parquet", "part-a.parquet", "part-c.parquet")  # written out of order
WORDS = "amber north harbor tower bridge garden morning evening library station".split()



def make_items() -> Items:
    """20 items: 15 with one reference and a checklist, 5 with two references and none."""
    out = []
    for i in range(20):
        a, b, c = WORDS[i % 10], WORDS[(i + 3) % 10], WORDS[(i + 7) % 10]
        reference = f"The {a} {b} opens at {c} {i}."
        if i < 15:
            facts = (Fact("first", (a,)), Fact("pair", (b, c)), Fact("own", (str(i),)))
            out.append(Item(f"item{i:02d}", (reference,), facts))
        else:
            out.append(Item(f"item{i:02d}", (reference, f"{c} {i}"), None))
    return Items("generated", "", tuple(out))


def perturb(rng: random.Random, text: str) -> str:
    """Case, punctuation, dropped or foreign words, non-ASCII, empty: every rule's paths."""
    words = text.split()
    choice = rng.randrange(8)
    if choice == 0:
        return text
    if choice == 1:
        return text.upper()
    if choice == 2:
        return " ".join(w for w in words if rng.random() > 0.3)
    if choice == 3:
        return f"  {text.lower().rstrip('.')}!! "
    if choice == 4:
        return text.replace("at", "at the café –")
    if choice == 5:
        return ""
    if choice == 6:
        return " ".join(rng.sample(words, len(words)))
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))


def write_dataset(tmp_path, *, items_column=True, ids=False, seed=0):
    """Three Parquet files of 2,000 rows each (written in a non-sorted order); returns the
    pattern and the files in sorted order."""
    rng = random.Random(seed)
    items = make_items()
    folder = tmp_path / "attempts"
    folder.mkdir()
    for k, name in enumerate(FILE_NAMES):
        picks = [rng.choice(items.items) for _ in range(ROWS_PER_FILE)]
        columns = {}
        if ids:
            columns["id"] = [f"{name[5]}-{i}" for i in range(ROWS_PER_FILE)]
        if items_column:
            columns["item"] = [item.id for item in picks]
        columns["attempt"] = [perturb(rng, item.references[0]) for item in picks]
        columns["system"] = [rng.choice(["base", "tuned"]) for _ in range(ROWS_PER_FILE)]
        columns["seed"] = [k * 10 + rng.randrange(3) for _ in range(ROWS_PER_FILE)]
        pd.DataFrame(columns).to_parquet(folder / name, index=False)
    return str(folder / "*.parquet"), sorted(folder.glob("*.parquet"))


def concatenated(files, *, keep_ids: bool) -> pd.DataFrame:
    """What the pandas engine scores: every file read as one attempts file, in order; without
    the files' own ids, score_items numbers the rows globally."""
    frames = [read_attempts(str(path)) for path in files]
    frame = pd.concat(frames, ignore_index=True)
    return frame if keep_ids else frame.drop(columns="id")
