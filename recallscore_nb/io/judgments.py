"""Judgments files: people's (or models') verdicts on attempts, read and matched to them.

A judgments file (CSV, JSONL or Parquet) holds one verdict a row: ``item``, ``judge``,
``verdict``, and either ``system`` (a verdict on that system's attempt at the item) or
``attempt`` (a verdict on that answer text for the item, whichever system gave it, as
OpenQA-eval keys its files); a file may have both columns, each row filling one (an empty
``attempt`` is then no text). A verdict is true/false, yes/no or 1/0 in any
case (JSON and Parquet: also a boolean or the number 0 or 1); an empty verdict (or null, or
none given) is no judgment: counted, never guessed.

**How text keys compare.** An ``attempt`` key matches the attempts at its item whose text
equals it once both have lost their leading and trailing whitespace (``str.strip``); case
and everything else count. That is how OpenQA-eval compares: it strips each prediction and
looks its text up. A text verdict that no listed system gave is kept (and counted): the
``judged-references`` protocol uses every answer a judge assessed, whoever gave it.

Refused, naming the file, where the row is (the line its record starts on, in a CSV or JSON
lines file; a Parquet table's row, counted from 1), its item where it has one, and the field:
a missing column, both key columns or neither, an empty item or judge, an unknown item or
system (the rows naming unknown systems counted, a system the attempts spell in another
case suggested), a verdict that is not one, a ``system`` verdict whose system has no attempt
at the item, and two different verdicts of one judge on one attempt, whether both rows key it
the same way or one by its system and the other by its answer text (the same verdict keyed
both ways is one judgment).
"""

from __future__ import annotations

import csv
import difflib
import io
import os
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core.engine import STRING
from ..core.errors import JudgmentsFormatError, UsageError
from ..core.items import Items
from .strict_readers import file_format, read_jsonl_records, read_parquet_table, read_strict_csv
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
    out = pd.Series(text.map(VERDICTS).to_numpy(dtype=object), dtype="boolean")
    return out, np.flatnonzero(~known & ~empty)


def _verdict_text(value) -> str:
    """A verdict of a column of mixed JSON values as text: a boolean, a whole number, text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _read_frame(path: str) -> tuple[pd.DataFrame, bytes]:
    """The judgments table, and the file's bytes (a CSV or JSONL file is read once: the
    table, the lines of its rows and its hash all come from them; Parquet is read by
    pyarrow, then its bytes for the hash)."""
    suffix = file_format(path, what="a judgments file")
    if suffix == ".parquet":
        table = read_parquet_table(path, error=JudgmentsFormatError)
        frame = table.to_pandas(types_mapper={pa.string(): STRING, pa.large_string(): STRING}.get)
        return frame, read_input(path, JudgmentsFormatError)
    data = read_input(path, JudgmentsFormatError)
    read = read_strict_csv if suffix == ".csv" else read_jsonl_records
    return read(data, path, error=JudgmentsFormatError), data


def _where(frame: pd.DataFrame, name: str, data: bytes) -> np.ndarray:
    """Each row's location as a person finds it: the ``line N`` of the file where its record
    starts (CSV, the header being line 1; JSON lines), or a Parquet table's ``row N``
    counted from 1."""
    lines = frame.attrs.get("lines")
    if lines is None and name.lower().endswith(".csv"):
        lines = _csv_lines(data)
    if lines is not None:
        return np.array([f"line {int(n)}" for n in lines], dtype=object)
    return np.array([f"row {i + 1}" for i in range(len(frame))], dtype=object)


def _csv_lines(data: bytes) -> list[int]:
    """The line each data record of a CSV file starts on (a quoted field may span lines)."""
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))
    starts, line = [], 1
    for _ in reader:
        starts.append(line)
        line = reader.line_num + 1
    return starts[1:]


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
    frame, data = _read_frame(name)
    have, keys = _checked_columns(name, frame, attempts)
    where = _where(frame, name, data)

    def fail(row: int, field: str, message: str, row_id=None):
        place = where[row] if row_id is None else f"{where[row]} (item {row_id})"
        raise JudgmentsFormatError(name, place, field, message=message)

    item, judge, item_code, verdict = _read_fields(frame, items, fail)
    system, text, by_system, by_text = _what_is_judged(frame, have, keys, item, fail)
    row_key, att_keys = _key_space(attempts, items, item, item_code, system, text, by_system,
                                   fail)
    given = verdict.notna().to_numpy(dtype=bool)
    found_rows, found_source, matches = _matches(row_key, att_keys, by_system, by_text, given)
    found = np.concatenate(found_rows).astype(np.int64)  # each match: its attempt, its row
    source = np.concatenate(found_source)
    verdicts = verdict.to_numpy(dtype=bool, na_value=False)
    unit_codes, judges = _one_verdict_each(row_key, given, found, source, judge, verdicts,
                                           by_system, item, where, fail)
    no_attempt = np.flatnonzero(by_system & (matches == 0))
    if len(no_attempt):
        row = int(no_attempt[0])
        fail(row, "system", f"matches no attempt: system {system.iloc[row]!r} has no attempt "
                            f"at item {item.iloc[row]!r}", row_id=item.iloc[row])
    on_attempts = pd.DataFrame({
        "attempt": found,
        "judge": judge.to_numpy(dtype=object)[source],
        "verdict": verdicts[source],
    }).drop_duplicates(["attempt", "judge"]).sort_values(["attempt", "judge"], kind="stable")
    judge_list = tuple(str(j) for j in judges)
    unmatched_rows = given & by_text & (matches == 0)
    unmatched = {j: int((unmatched_rows & (judge.to_numpy(dtype=object) == j)).sum())
                 for j in judge_list}
    rows = pd.DataFrame({
        "where": where,
        "item": item.to_numpy(dtype=object),
        "judge": judge.to_numpy(dtype=object),
        "system": system.where(by_system, None).to_numpy(dtype=object),
        "text": text.where(by_text, None).to_numpy(dtype=object),
        "verdict": verdict,
        "unit": unit_codes.astype(np.int64),
    })
    keyed_by = "system" if by_system.all() else "attempt" if by_text.all() else "mixed"
    return Judgments(name, sha256(data), keyed_by, rows,
                     on_attempts.reset_index(drop=True), judge_list, unmatched)


def _checked_columns(name: str, frame: pd.DataFrame, attempts: pd.DataFrame):
    """(the judgments file's column names, those of ``system`` and ``attempt`` it has),
    once the attempts and the file are known to have the columns a match needs."""
    for column in ("item", "system", "attempt"):
        if column not in attempts.columns:
            raise UsageError(f"the attempts need an {column!r} column to be judged")
    have = set(map(str, frame.columns))
    for column in ("item", "judge", "verdict"):
        if column not in have:
            raise JudgmentsFormatError(name, "", column, message="missing column (a judgments "
                                       "file has item, judge, verdict, and system or attempt)")
    keys = [c for c in ("system", "attempt") if c in have]
    if not keys:
        raise JudgmentsFormatError(
            name, "", "system", message="missing column: a judgments file has system (a "
                                        "verdict on a system's attempt) or attempt (a verdict "
                                        "on an answer text), or both, one a row")
    return have, keys


def _read_fields(frame: pd.DataFrame, items: Items, fail):
    """(item, judge, the item's code among ``items``, verdict) of every row: items and judges
    named, items known, verdicts readable (``fail`` raises naming the row otherwise)."""
    item = _text_column(frame, "item")
    judge = _text_column(frame, "judge")
    for column, values in (("item", item), ("judge", judge)):
        blank = np.flatnonzero(values.isna().to_numpy() | (values.fillna("") == "").to_numpy())
        if len(blank):
            fail(int(blank[0]), column, "expected a non-empty string, got nothing")
    item_code = pd.Index(items.ids).get_indexer(item.astype(object))
    if (item_code < 0).any():
        row = int(np.flatnonzero(item_code < 0)[0])
        fail(row, "item", f"unknown item {item.iloc[row]!r} (not in {items.path})")
    verdict, bad = parse_verdicts(frame["verdict"].reset_index(drop=True))
    if len(bad):
        row = int(bad[0])
        fail(row, "verdict", f"expected true/false, yes/no or 1/0 (any case) or nothing, got "
                             f"{frame['verdict'].iloc[row]!r}", row_id=item.iloc[row])
    return item, judge, item_code, verdict


def _what_is_judged(frame: pd.DataFrame, have: set, keys: list, item: pd.Series, fail):
    """(system, answer text, whether each row judges a system's attempt, whether an answer
    text): one of the two a row, never both."""
    n = len(frame)
    empty_text = pd.Series(pd.NA, index=range(n), dtype=STRING)
    system = _text_column(frame, "system") if "system" in have else empty_text
    text = _text_column(frame, "attempt").str.strip() if "attempt" in have else empty_text
    # An empty system is no system. An answer text may be the empty answer, except in a file
    # with both columns, where an empty text is no text.
    by_system = (system.notna() & (system.fillna("") != "")).to_numpy(dtype=bool)
    text_given = text.notna().to_numpy(dtype=bool).copy()
    if "system" in have:
        text_given &= (text.fillna("") != "").to_numpy(dtype=bool)
    neither = np.flatnonzero(~by_system & ~text_given)
    if len(neither):
        row = int(neither[0])
        fail(row, keys[0], "expected a system or an answer text, got nothing",
             row_id=item.iloc[row])
    both = np.flatnonzero(by_system & text_given)
    by_text = text_given & ~by_system
    if len(both):
        row = int(both[0])
        fail(row, "attempt", "a row judges a system's attempt or an answer text, not both "
                             f"(got system {system.iloc[row]!r})", row_id=item.iloc[row])
    return system, text, by_system, by_text


def _key_space(attempts: pd.DataFrame, items: Items, item: pd.Series, item_code: np.ndarray,
               system: pd.Series, text: pd.Series, by_system: np.ndarray, fail):
    """(each row's key, each attempt's keys as a system's attempt and as an answer text) in
    one key space: per item, the attempts' systems first, then every text. A system the
    attempts do not have is refused."""
    att = attempts.reset_index(drop=True)
    att_item = pd.Index(items.ids).get_indexer(att["item"].astype(str).astype(object))
    att_system = att["system"].astype(str).astype(object)
    systems = pd.Index(pd.unique(att_system))
    system_code = systems.get_indexer(system.astype(object))
    unknown = np.flatnonzero(by_system & (system_code < 0))
    if len(unknown):
        row = int(unknown[0])
        fail(row, "system", _unknown_systems(system.iloc[unknown], systems),
             row_id=item.iloc[row])
    att_text = pd.Series(att["attempt"].astype(object), dtype=STRING).str.strip()
    vocab = pd.Index(pd.unique(pd.concat([att_text, text.dropna()]).astype(object)))
    # one key space: systems first, then texts, per item
    width = len(systems) + len(vocab)
    row_key = item_code.astype(np.int64) * width + np.where(
        by_system, system_code, len(systems) + vocab.get_indexer(text.fillna("").astype(object)))
    att_keys = [att_item.astype(np.int64) * width + systems.get_indexer(att_system),
                att_item.astype(np.int64) * width + len(systems) + vocab.get_indexer(
                    att_text.astype(object))]
    return row_key, att_keys


def _unknown_systems(named: pd.Series, systems: pd.Index) -> str:
    """What is said of verdicts naming systems the attempts do not have: the first, a name
    it may have meant (same letters but for case, or close), and how many rows and names."""
    first = str(named.iloc[0])
    known = [str(s) for s in systems]
    same_case = [s for s in known if s.lower() == first.lower()]
    close = same_case or difflib.get_close_matches(first, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    names = list(dict.fromkeys(map(str, named)))
    more = "" if len(named) == 1 else (
        f" ({len(named)} rows name {len(names)} such system(s): "
        f"{', '.join(map(repr, names[:5]))}{', ...' if len(names) > 5 else ''})")
    return f"unknown system {first!r} (not in the attempts{hint}){more}"


def _one_verdict_each(row_key: np.ndarray, given: np.ndarray, found: np.ndarray,
                      source: np.ndarray, judge: pd.Series, verdicts: np.ndarray,
                      by_system: np.ndarray, item: pd.Series, where: list, fail):
    """(each row's code of the thing it judges, the judges' codes' names), refusing two
    different verdicts of one judge on one thing: one key twice (a system's attempt, an answer
    text), or one attempt keyed by its system and by its answer text (``found`` and
    ``source``: each attempt a verdict found, and that verdict's row, from :func:`_matches`)."""
    unit_codes, _ = pd.factorize(row_key)
    judge_codes, judges = pd.factorize(judge.astype(object))
    given = np.flatnonzero(given)
    # what each verdict judges: its key, and every attempt it found (coded after the keys)
    row = np.concatenate([given, source]).astype(np.int64)
    thing = np.concatenate([unit_codes[given], len(row_key) + found])
    seen = pd.DataFrame({"pair": thing * len(judges) + judge_codes[row], "row": row,
                         "v": verdicts[row]}
                        ).sort_values("row", kind="stable")
    first = seen.groupby("pair", sort=False)[["row", "v"]].transform("first")
    clash = np.flatnonzero((seen["v"] != first["v"]).to_numpy())
    if len(clash):
        at, before = int(seen["row"].iloc[clash[0]]), int(first["row"].iloc[clash[0]])
        if by_system[at] == by_system[before]:
            kind = "system" if by_system[at] else "answer"
            what = f"{kind} a different verdict ({where[before]})"
        else:
            def how(r: int) -> str:
                return "its system" if by_system[r] else "its answer text"

            what = (f"attempt a different verdict ({where[before]}, keyed by {how(before)}; "
                    f"this row keys it by {how(at)})")
        fail(at, "verdict", f"judge {judge.iloc[at]!r} already gave this {what}",
             row_id=item.iloc[at])
    return unit_codes, judges


def _matches(row_key: np.ndarray, att_keys: list, by_system: np.ndarray, by_text: np.ndarray,
             given: np.ndarray):
    """Each verdict matched to its attempts (a text may be several systems' attempt): the
    attempts' rows and the verdicts' rows found, as lists of arrays, and how many attempts
    each row matches."""
    found_rows, found_source = [], []
    matches = np.zeros(len(row_key), dtype=np.int64)
    for rows_of_kind, att_key in ((by_system, att_keys[0]), (by_text, att_keys[1])):
        order = np.argsort(att_key, kind="stable")
        sorted_key = att_key[order]
        lo = np.searchsorted(sorted_key, row_key, side="left")
        hi = np.searchsorted(sorted_key, row_key, side="right")
        count = np.where(rows_of_kind, hi - lo, 0)
        matches += count
        keep = given & (count > 0)
        c = count[keep]
        offset = np.arange(c.sum()) - np.repeat(np.cumsum(c) - c, c)
        found_rows.append(order[np.repeat(lo[keep], c) + offset])
        found_source.append(np.repeat(np.flatnonzero(keep), c))
    return found_rows, found_source, matches
