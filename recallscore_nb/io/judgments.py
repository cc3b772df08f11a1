"""Judgments files: people's (or models') verdicts on attempts, read and matched to them.

A judgments file (CSV, JSONL or Parquet) holds one verdict a row: ``item``, ``judge``,
``verdict``, and either ``system`` (a verdict on that system's attempt at the item) or
``attempt`` (a verdict on that answer text for the item, whichever system gave it, as
OpenQA-eval keys its files). A verdict is true/false, yes/no or 1/0 in any case (Parquet:
also a boolean or an integer 0/1); an empty verdict (or null) is no judgment: counted,
never guessed.

**How text keys compare.** An ``attempt`` key matches the attempts at its item whose text
equals it once both have lost their leading and trailing whitespace (``str.strip``); case
and everything else count. That is how OpenQA-eval compares: it strips each prediction and
looks its text up. A text verdict that no listed system gave is kept (and counted): the
``judged-references`` protocol uses every answer a judge assessed, whoever gave it.

Refused, naming file, row (or line), row id where there is one, and field: a missing
column, both key columns or neither, an empty item or judge, an unknown item or system, a
verdict that is not one, a ``system`` verdict whose system has no attempt at the item, and
two different verdicts of one judge on one attempt.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core.engine import STRING
from ..core.errors import JudgmentsFormatError, UsageError
from ..core.items import Items
from .attempts import file_format, read_jsonl_records, read_parquet_table, read_strict_csv
from .files import read_input, sha256

__all__ = ["Judgments", "load_judgments", "parse_verdicts", "VERDICTS"]

VERDICTS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
"""Verdict spellings (compared lowercased and stripped); the empty string is no judgment."""


@dataclass(frozen=True, eq=False)
class Judgments:
    """A judgments file matched to its attempts.

    ``rows``: one row per verdict row of the file: ``where`` (its row or line), ``item``,
    ``judge``, ``system`` or ``text`` (the key; the other is NA), ``verdict`` (boolean, NA:
    no judgment), and ``unit`` (one code per distinct judged thing: an item's system, or an
    item's answer text). ``on_attempts``: ``attempt`` (the attempts frame's row), ``judge``,
    ``verdict`` for every verdict that found its attempt. ``judges``: in order of first
    appearance. ``unmatched``: per judge, the text verdicts no attempt gave.
    """

    path: str
    sha256: str
    keyed_by: str
    rows: pd.DataFrame
    on_attempts: pd.DataFrame
    judges: tuple[str, ...]
    unmatched: dict[str, int]

    def empty(self) -> dict[str, int]:
        """Per judge, how many rows hold no verdict."""
        missing = self.rows[self.rows["verdict"].isna()]
        return {j: int((missing["judge"] == j).sum()) for j in self.judges}

    def verdict_counts(self) -> dict[str, int]:
        """Per judge, how many rows hold a verdict."""
        given = self.rows[self.rows["verdict"].notna()]
        return {j: int((given["judge"] == j).sum()) for j in self.judges}


def parse_verdicts(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """Verdicts as a nullable boolean Series, and the positions of values that are none.

    >>> got, bad = parse_verdicts(pd.Series(["Yes", " no", "", "TRUE", "1", "maybe", None]))
    >>> got.tolist(), bad.tolist()  # doctest: +NORMALIZE_WHITESPACE
    ([True, False, <NA>, True, True, <NA>, <NA>], [5])
    """
    values = values.reset_index(drop=True)
    if pd.api.types.is_bool_dtype(values.dtype):
        return values.astype("boolean"), np.zeros(0, dtype=np.int64)
    if pd.api.types.is_numeric_dtype(values.dtype):  # 1/0 as numbers (NaN: no verdict)
        numbers = values.astype("Float64")
        valid = numbers.isin([0, 1]).to_numpy(dtype=bool, na_value=False)
        out = (numbers == 1).astype("boolean").where(valid, pd.NA)
        return out, np.flatnonzero(numbers.notna().to_numpy() & ~valid)
    missing = values.isna().to_numpy()
    text = values.map(_verdict_text, na_action="ignore").astype(object).where(~missing, "")
    text = pd.Series(text, dtype=STRING).str.strip().str.lower()
    known = text.isin(list(VERDICTS)).to_numpy(dtype=bool, na_value=False)
    empty = (text == "").to_numpy(dtype=bool, na_value=False)
    out = pd.Series([VERDICTS[t] if k else None for t, k in zip(text.tolist(), known)],
                    dtype="boolean")
    return out, np.flatnonzero(~known & ~empty)


def _verdict_text(value) -> str:
    """A verdict of a column of mixed JSON values as text: a boolean, a whole number, text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _read_frame(path: str) -> pd.DataFrame:
    suffix = file_format(path, what="a judgments file")
    if suffix == ".csv":
        frame = read_strict_csv(read_input(path, JudgmentsFormatError), path,
                                error=JudgmentsFormatError)
    elif suffix == ".jsonl":
        frame = read_jsonl_records(read_input(path, JudgmentsFormatError), path,
                                   error=JudgmentsFormatError)
    else:
        table = read_parquet_table(path, error=JudgmentsFormatError)
        frame = table.to_pandas(types_mapper={pa.string(): STRING, pa.large_string(): STRING}.get)
    return frame


def _where(frame: pd.DataFrame) -> np.ndarray:
    """Each row's location: ``row N`` (from 0, as attempts files) or a JSONL ``line N``."""
    lines = frame.attrs.get("lines")
    if lines is not None:
        return np.array([f"line {int(n)}" for n in lines], dtype=object)
    return np.array([f"row {i}" for i in range(len(frame))], dtype=object)


def _text_column(frame: pd.DataFrame, column: str) -> pd.Series:
    """A column as text (a JSON number as written, e.g. an item id 7 as "7"); null stays NA."""
    values = frame[column].reset_index(drop=True)
    missing = values.isna().to_numpy()
    return pd.Series(values.astype(str).astype(object).where(~missing, None), dtype=STRING)


def load_judgments(path: str | os.PathLike[str], items: Items,
                   attempts: pd.DataFrame) -> Judgments:
    """Read a judgments file and match each verdict to the attempts it judges.

    ``attempts`` has ``item``, ``system`` and ``attempt`` columns (as
    :func:`recallscore_nb.io.attempts.read_attempts` returns them); ``items`` gives the
    known item ids. See the module's docstring for what is refused and how texts compare.

    >>> import tempfile, pathlib
    >>> from recallscore_nb.core.items import Item, Items
    >>> items = Items("i.jsonl", "", (Item("q1", ("Paris",), None),))
    >>> attempts = pd.DataFrame({"item": ["q1", "q1"], "system": ["a", "b"],
    ...                          "attempt": ["Paris", "It is Paris. "]})
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "j.csv"
    >>> _ = p.write_text("item,judge,attempt,verdict\\nq1,h,It is Paris.,yes\\nq1,h,Lyon,no\\n")
    >>> j = load_judgments(p, items, attempts)
    >>> j.on_attempts.values.tolist(), j.unmatched
    ([[1, 'h', True]], {'h': 1})
    """
    name = os.fspath(path)
    frame = _read_frame(name)
    for column in ("item", "system", "attempt"):
        if column not in attempts.columns:
            raise UsageError(f"the attempts need an {column!r} column to be judged")
    have = set(map(str, frame.columns))
    for column in ("item", "judge", "verdict"):
        if column not in have:
            raise JudgmentsFormatError(name, "", column, message="missing column (a judgments "
                                       "file has item, judge, verdict, and system or attempt)")
    keys = [c for c in ("system", "attempt") if c in have]
    if len(keys) != 1:
        raise JudgmentsFormatError(
            name, "", "system" if not keys else "attempt",
            message="a judgments file has exactly one of the columns system (a verdict on a "
                    "system's attempt) and attempt (a verdict on an answer text)"
                    + (f" (got both)" if keys else " (got neither)"))
    key = keys[0]
    where = _where(frame)

    def fail(row: int, field: str, message: str, row_id=None):
        raise JudgmentsFormatError(name, where[row], field, message=message, row_id=row_id)

    item = _text_column(frame, "item")
    judge = _text_column(frame, "judge")
    for column, values in (("item", item), ("judge", judge)):
        blank = np.flatnonzero(values.isna().to_numpy() | (values.fillna("") == "").to_numpy())
        if len(blank):
            fail(int(blank[0]), column, "expected a non-empty string, got nothing")
    known_items = pd.Index(items.ids)
    item_code = known_items.get_indexer(item.astype(object))
    if (item_code < 0).any():
        row = int(np.flatnonzero(item_code < 0)[0])
        fail(row, "item", f"unknown item {item.iloc[row]!r} (not in {items.path})")
    verdict, bad = parse_verdicts(frame["verdict"].reset_index(drop=True))
    if len(bad):
        row = int(bad[0])
        fail(row, "verdict", f"expected true/false, yes/no or 1/0 (any case) or nothing, got "
                             f"{frame['verdict'].iloc[row]!r}", row_id=item.iloc[row])

    att = attempts.reset_index(drop=True)
    att_item = pd.Index(items.ids).get_indexer(att["item"].astype(str).astype(object))
    if key == "system":
        system = _text_column(frame, "system")
        blank = np.flatnonzero(system.isna().to_numpy() | (system.fillna("") == "").to_numpy())
        if len(blank):
            fail(int(blank[0]), "system", "expected a non-empty string, got nothing",
                 row_id=item.iloc[int(blank[0])])
        systems = pd.Index(pd.unique(att["system"].astype(str).astype(object)))
        system_code = systems.get_indexer(system.astype(object))
        if (system_code < 0).any():
            row = int(np.flatnonzero(system_code < 0)[0])
            fail(row, "system", f"unknown system {system.iloc[row]!r} (not in the attempts)",
                 row_id=item.iloc[row])
        att_key = att_item.astype(np.int64) * len(systems) + systems.get_indexer(
            att["system"].astype(str).astype(object))
        row_key = item_code.astype(np.int64) * len(systems) + system_code
        text = pd.Series(pd.NA, index=range(len(frame)), dtype=STRING)
    else:
        text = _text_column(frame, "attempt").str.strip()
        blank = np.flatnonzero(text.isna().to_numpy())
        if len(blank):
            fail(int(blank[0]), "attempt", "expected a string, got nothing",
                 row_id=item.iloc[int(blank[0])])
        att_text = pd.Series(att["attempt"].astype(object), dtype=STRING).str.strip()
        vocab = pd.Index(pd.unique(pd.concat([att_text, text]).astype(object)))
        att_key = att_item.astype(np.int64) * len(vocab) + vocab.get_indexer(
            att_text.astype(object))
        row_key = item_code.astype(np.int64) * len(vocab) + vocab.get_indexer(text.astype(object))
        system = pd.Series(pd.NA, index=range(len(frame)), dtype=STRING)

    # Two different verdicts of one judge on one thing judged.
    unit_codes, _ = pd.factorize(row_key)
    judge_codes, judges = pd.factorize(judge.astype(object))
    given = verdict.notna().to_numpy(dtype=bool)
    pair = unit_codes.astype(np.int64) * len(judges) + judge_codes
    seen = pd.DataFrame({"pair": pair[given], "v": verdict[given].astype(bool),
                         "row": np.flatnonzero(given)})
    first = seen.groupby("pair", sort=False)["v"].transform("first")
    clash = seen["row"][seen["v"] != first].to_numpy()
    if len(clash):
        row = int(clash[0])
        before = int(seen["row"][(seen["pair"] == pair[row])].iloc[0])
        fail(row, "verdict", f"judge {judge.iloc[row]!r} already gave this "
                             f"{'system' if key == 'system' else 'answer'} a different verdict "
                             f"({where[before]})", row_id=item.iloc[row])

    # Match each verdict to its attempts (a text may be several systems' attempt).
    att_order = np.argsort(att_key, kind="stable")
    sorted_key = att_key[att_order]
    lo = np.searchsorted(sorted_key, row_key, side="left")
    hi = np.searchsorted(sorted_key, row_key, side="right")
    matches = hi - lo
    if key == "system" and (matches == 0).any():
        row = int(np.flatnonzero(matches == 0)[0])
        fail(row, "system", f"matches no attempt: system {system.iloc[row]!r} has no attempt "
                            f"at item {item.iloc[row]!r}", row_id=item.iloc[row])
    keep = given & (matches > 0)
    count = matches[keep]
    source = np.repeat(np.flatnonzero(keep), count)
    offset = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    attempt_rows = att_order[np.repeat(lo[keep], count) + offset]
    on_attempts = pd.DataFrame({
        "attempt": attempt_rows.astype(np.int64),
        "judge": judge.iloc[source].to_numpy(dtype=object),
        "verdict": verdict[source].astype(bool),
    }).drop_duplicates(["attempt", "judge"]).sort_values(["attempt", "judge"], kind="stable")
    unmatched_rows = given & (matches == 0)
    judge_list = tuple(str(j) for j in judges)
    unmatched = {j: int((unmatched_rows & (judge.to_numpy(dtype=object) == j)).sum())
                 for j in judge_list}
    rows = pd.DataFrame({
        "where": where,
        "item": item.to_numpy(dtype=object),
        "judge": judge.to_numpy(dtype=object),
        "system": system.to_numpy(dtype=object),
        "text": text.to_numpy(dtype=object),
        "verdict": verdict,
        "unit": unit_codes.astype(np.int64),
    })
    return Judgments(name, sha256(read_input(name, JudgmentsFormatError)), key, rows,
                     on_attempts.reset_index(drop=True), judge_list, unmatched)
