"""``recallscore summarize``: a scored file in, each system's mean per rule with its interval out.

The edge around :mod:`recallscore_nb.analysis.stats`: :func:`read_scored` reads what ``recallscore
score`` wrote (CSV, JSONL or Parquet) and checks it where it stands (file, row, id, column);
:func:`summary_tables` builds the tables (pure); :func:`summarize_command` writes them as CSV,
Markdown or LaTeX by the extension of ``out``, or returns Markdown lines to print.

In a scored CSV every field is text: the rule columns are parsed here (``true``/``false`` in
any case; numbers), and an empty field is missing, which only the checklist columns may be
(an item without a checklist). Without an ``item`` column the file is one benchmark's
attempts, all on one item, so the intervals resample attempts. The files are read by the
strict readers of :mod:`recallscore_nb.io.attempts`, as attempts files are.

At most :data:`MAX_RESAMPLES` bootstrap resamples: every resample's mean is kept for the
percentile bounds, eight bytes per rule, and the table's bounds, shown to three decimals, no
longer move past a few hundred thousand.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.json as pa_json

from ..io.attempts import read_jsonl_records, read_parquet_table, read_strict_csv
from ..core.engine import STRING
from ..core.errors import InputFileError, UsageError
from ..io.files import read_input, refuse_output_among_inputs, sha256, write_file
from .stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    SUMMARY_RULES,
    mcnemar_signature,
    paired_comparison,
    resolve_rules,
    saturation,
    system_table,
)
from ..render.tables import csv_text, latex_text, markdown_text

__all__ = ["read_scored", "summary_tables", "summarize_command", "SCORED_FORMATS",
           "OUT_FORMATS", "PAIRED_COLUMNS", "MAX_RESAMPLES"]

SCORED_FORMATS = (".csv", ".jsonl", ".parquet")
OUT_FORMATS = (".csv", ".md", ".tex")
BOOLEAN_COLUMNS = ("literal_match", "normalized_match", "squad_exact_match",
                   "checklist_full_match")
"""Scored columns holding true/false (and every ``fact_<name>`` column)."""
NULLABLE_COLUMNS = ("facts_present", "facts_total", "checklist_full_match")
"""Scored columns that are missing for an item without a checklist (and ``fact_<name>``)."""
MAX_RESAMPLES = 1_000_000
"""The most bootstrap resamples summarize draws: each system keeps ``resamples`` means per rule
(8 bytes each; 6 rules and a sorted copy for the bounds: about 100 MB at this limit, 800 GB at
a billion), and the bounds' Monte Carlo error is then far below the three decimals shown."""
PAIRED_COLUMNS = ["rule", "a", "b", "items", "mean_a", "mean_b", "difference", "low", "high",
                  "share_le_zero", "unit", "a_only_correct", "b_only_correct", "mcnemar_p"]
"""The paired comparison's table: one row per rule."""
_TYPES = {pa.string(): STRING, pa.large_string(): STRING, pa.bool_(): pd.BooleanDtype(),
          pa.int64(): pd.Int64Dtype()}


# --- reading ------------------------------------------------------------------------------
def read_scored(path, *, by: str = "system", rules=None) -> pd.DataFrame:
    """Read a scored file and check the columns that ``by`` and ``rules`` need.

    Parameters
    ----------
    path : str or Path
        A CSV, JSONL or Parquet file written by ``recallscore score`` (or holding the
        columns of :func:`recallscore_nb.core.scoring.score_items`).
    by : str
        The column naming each attempt's system; every row needs a value.
    rules : sequence of str, optional
        Names from :data:`recallscore_nb.analysis.stats.SUMMARY_RULES`; default all. Their columns
        must be present.

    Returns
    -------
    DataFrame
        The file's columns, with the true/false columns as nullable booleans, ``token_f1``
        as floats, ``facts_present``/``facts_total`` as nullable integers, and ``by`` and
        ``item`` (when present) as strings.

    Raises
    ------
    InputFileError
        Naming the file, and the row (0-based), id and column at fault: a file that is not
        a scored file (no rule column: run ``recallscore score`` first), a missing column, a
        value that is not true/false or not a number in range, or a missing value where only
        the checklist columns may be missing. The file itself is read by the strict readers
        of :mod:`recallscore_nb.io.attempts` (a regular file; CSV all text, one header, no
        unterminated quote; strict JSON lines; Parquet without a repeated column), whose
        errors name the line.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "s.csv")
    >>> _ = open(p, "w").write("id,system,literal_match\\nr1,x,true\\nr2,x,False\\n")
    >>> read_scored(p, rules=["literal_match"])["literal_match"].tolist()
    [True, False]
    >>> read_scored(p, rules=["token_f1"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.InputFileError: ...s.csv: token_f1: missing column 'token_f1' (columns: ...)
    """
    name = str(path)
    suffix = Path(name).suffix.lower()
    if suffix not in SCORED_FORMATS:
        raise UsageError(f"{name}: a scored file must end in {', '.join(SCORED_FORMATS)} "
                         f"(got {suffix or 'no extension'!r})")
    frame = {".csv": _read_csv, ".jsonl": _read_jsonl, ".parquet": _read_parquet}[suffix](name)
    found = ", ".join(map(str, frame.columns)) or "none"
    rule_columns = dict.fromkeys(c for columns in SUMMARY_RULES.values() for c in columns)
    if not any(column in frame.columns for column in rule_columns):
        raise InputFileError(name, message=f"not a scored file (no rule column such as "
                                           f"{next(iter(rule_columns))!r}; columns: {found}): "
                                           f"run 'recallscore score' first")
    needed = [by, *(c for rule in resolve_rules(rules) for c in SUMMARY_RULES[rule])]
    for column in dict.fromkeys(needed):
        if column not in frame.columns:
            raise InputFileError(name, "", column,
                                 message=f"missing column {column!r} (columns: {found})")
    return _typed(frame, name, by)


def _read_csv(name: str) -> pd.DataFrame:
    """Every field as text: no NA guessing, so an empty field is the empty string."""
    return read_strict_csv(read_input(name, InputFileError), name, error=InputFileError)


def _read_jsonl(name: str) -> pd.DataFrame:
    """Arrow reads plain JSON lines, fast; anything it refuses (a repeated key, a lone
    surrogate, a column of mixed types) or might mishandle (``NaN`` or ``Infinity``, which it
    takes for numbers; nesting deep enough to overflow its parser's stack) is read by the strict
    line reader of :mod:`recallscore_nb.io.attempts`, which names the line at fault."""
    data = read_input(name, InputFileError)
    if not data.strip():
        raise InputFileError(name, message="empty file: no scored rows to summarize")
    if _arrow_can_read(data):
        try:
            table = pa_json.read_json(pa.BufferReader(data))
        except pa.ArrowInvalid:
            pass
        else:
            return table.to_pandas(types_mapper=_TYPES.get)
    return read_jsonl_records(data, name, error=InputFileError)


_ARROW_SAFE_DEPTH = 100
"""Lines with more opening brackets than this go to Python's parser: Arrow's recursive JSON
parser overflows its stack (a segmentation fault) somewhere past 10,000 levels."""
_NOT_OPENING = bytes(b for b in range(256) if b not in b"[{\n")
_NON_FINITE = re.compile(rb"[:\[,]\s*-?(?:NaN|Infinity)")


def _arrow_can_read(data: bytes) -> bool:
    """Whether Arrow may parse ``data``: no line opens more than :data:`_ARROW_SAFE_DEPTH`
    brackets, and no ``NaN`` or ``Infinity`` stands where a value would (either may be inside a
    string: such files only take the slower, strict path).

    >>> _arrow_can_read(b'{"a": [1]}\\n{"a": "NaN"}\\n'), _arrow_can_read(b'{"a": NaN}\\n')
    (True, False)
    """
    if (b"NaN" in data or b"Infinity" in data) and _NON_FINITE.search(data):
        return False
    openings = data.translate(None, _NOT_OPENING)
    return max(map(len, openings.split(b"\n"))) <= _ARROW_SAFE_DEPTH


def _read_parquet(name: str) -> pd.DataFrame:
    return read_parquet_table(name, error=InputFileError).to_pandas(types_mapper=_TYPES.get)


def _typed(frame: pd.DataFrame, name: str, by: str) -> pd.DataFrame:
    """Parse and check the known columns, vectorized; the first bad row raises."""
    frame = frame.copy()
    ids = frame["id"].astype(str).to_numpy() if "id" in frame.columns else None

    def fail(bad: np.ndarray, column: str, expected: str, raw: pd.Series) -> None:
        row = int(np.flatnonzero(bad)[0])
        value = raw.iloc[row]
        if pd.isna(value):
            got = "null"
        elif isinstance(value, str):
            got = repr(value) if value.strip() else "empty"
        else:
            got = str(value.item() if isinstance(value, np.generic) else value)
        raise InputFileError(name, f"row {row}", column, expected=expected, got=got,
                             row_id=None if ids is None else ids[row])

    for column in [by, "item"]:
        if column in frame.columns:
            raw = frame[column]
            _, missing = _text(raw)
            if missing.any():
                fail(missing, column, "a name", raw)
            frame[column] = raw.astype(str).astype(STRING)
    booleans = [c for c in frame.columns if c in BOOLEAN_COLUMNS or str(c).startswith("fact_")]
    for column in booleans:
        raw = frame[column]
        values, missing, bad = _parse_booleans(raw)
        if bad.any():
            fail(bad, column, "true or false", raw)
        nullable = column in NULLABLE_COLUMNS or str(column).startswith("fact_")
        if missing.any() and not nullable:
            fail(missing, column, "true or false", raw)
        out = pd.array(values, dtype="boolean")
        out[missing] = pd.NA
        frame[column] = out
    for column, expected in (("token_f1", "a number from 0 to 1"),
                             ("facts_present", "an integer >= 0"),
                             ("facts_total", "an integer >= 0")):
        if column not in frame.columns:
            continue
        raw = frame[column]
        values, missing, bad = _parse_numbers(raw)
        if column == "token_f1":
            bad |= ~missing & ~bad & ((values < 0) | (values > 1))
        else:
            bad |= ~missing & ~bad & ((values < 0) | (values != np.floor(values)))
        if bad.any():
            fail(bad, column, expected, raw)
        if missing.any() and column not in NULLABLE_COLUMNS:
            fail(missing, column, expected, raw)
        if column == "token_f1":
            frame[column] = values
        else:
            out = pd.array(np.where(missing, 0, values).astype(np.int64), dtype="Int64")
            out[missing] = pd.NA
            frame[column] = out
    if {"facts_present", "facts_total"} <= set(frame.columns):
        over = (frame["facts_present"] > frame["facts_total"]).fillna(False).to_numpy(bool)
        if over.any():
            fail(over, "facts_present", "at most facts_total", frame["facts_present"])
    return frame


def _text(raw: pd.Series):
    """(stripped text, missing) for a text column: missing is null or empty."""
    text = raw.astype("string").str.strip()
    missing = text.isna().to_numpy() | (text == "").fillna(False).to_numpy(bool)
    return text, missing


def _parse_booleans(raw: pd.Series):
    """(values, missing, bad) as numpy booleans: booleans, 0/1 numbers, or true/false text."""
    if pd.api.types.is_bool_dtype(raw.dtype):
        missing = raw.isna().to_numpy()
        return raw.fillna(False).to_numpy(bool), missing, np.zeros(len(raw), bool)
    if pd.api.types.is_numeric_dtype(raw.dtype):
        numbers = raw.astype("Float64")
        missing = numbers.isna().to_numpy()
        values = numbers.to_numpy(float, na_value=0.0)
        return values == 1, missing, ~missing & (values != 0) & (values != 1)
    text, missing = _text(raw)
    lower = text.str.lower()
    is_true = (lower == "true").fillna(False).to_numpy(bool)
    is_false = (lower == "false").fillna(False).to_numpy(bool)
    return is_true, missing, ~(missing | is_true | is_false)


def _parse_numbers(raw: pd.Series):
    """(values, missing, bad): floats (NaN where missing or bad), numbers or numeric text."""
    if pd.api.types.is_bool_dtype(raw.dtype):
        missing = raw.isna().to_numpy()
        return np.full(len(raw), np.nan), missing, ~missing
    if pd.api.types.is_numeric_dtype(raw.dtype):
        values = raw.astype("Float64").to_numpy(float, na_value=np.nan)
        missing = np.isnan(values)
        return values, missing, ~missing & ~np.isfinite(values)
    text, missing = _text(raw)
    values = pd.to_numeric(text.where(~missing), errors="coerce").astype("Float64").to_numpy(
        float, na_value=np.nan)
    return values, missing, ~missing & ~np.isfinite(values)


# --- the tables -----------------------------------------------------------------------------
def summary_tables(scored: pd.DataFrame, *, by: str = "system", rules=None, paired=None,
                   resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                   confidence: float = 0.95):
    """(system table, saturation table, paired table or None); see :mod:`recallscore_nb.analysis.stats`.

    The paired table has one row per rule, columns :data:`PAIRED_COLUMNS` plus
    ``items_only_a, items_only_b, mcnemar_note``; its ``attrs["signatures"]`` lists the
    bootstrap signatures used (and McNemar's when a p-value was computed).
    """
    _check_resamples(resamples)
    names = resolve_rules(rules)
    table = system_table(scored, by=by, rules=names, resamples=resamples, seed=seed,
                         confidence=confidence)
    verdicts = saturation(table, by=by)
    if paired is None:
        return table, verdicts, None
    a, b = paired
    rows = [paired_comparison(scored, a, b, by=by, rule=rule, resamples=resamples, seed=seed,
                              confidence=confidence) for rule in names]
    pairs = pd.DataFrame(rows)[PAIRED_COLUMNS + ["items_only_a", "items_only_b", "mcnemar_note"]]
    pairs = pairs.astype({"a_only_correct": "Int64", "b_only_correct": "Int64",
                          "mcnemar_p": float})
    signatures = list(dict.fromkeys(row["signature"] for row in rows))
    if pairs["mcnemar_p"].notna().any():
        signatures.append(mcnemar_signature())
    pairs.attrs["signatures"] = signatures
    return table, verdicts, pairs


def _saturation_line(verdicts: pd.DataFrame) -> str:
    hits = verdicts[verdicts["saturated"]]
    if hits.empty:
        return "saturated rules (two best >= 0.95, intervals overlap): none"
    named = ", ".join(f"{r.rule} ({r.best} {r.best_mean:.3f}, {r.second} {r.second_mean:.3f})"
                      for r in hits.itertuples())
    return f"saturated rules (two best >= 0.95, intervals overlap): {named}"


def _footer(path: str, sha256: str, rows: int, table: pd.DataFrame, verdicts) -> list[str]:
    lines = [f"scored: {path} ({rows} rows, sha256 {sha256[:12]})", table.attrs["signature"]]
    excluded = table.groupby("rule", sort=False)["excluded"].sum()
    lines += [f"{rule}: {int(n)} row(s) without a checklist left out" for rule, n in
              excluded.items() if n > 0]
    return lines + [_saturation_line(verdicts)]


def _paired_footer(pairs: pd.DataFrame) -> list[str]:
    first = pairs.iloc[0]
    lines = list(pairs.attrs["signatures"])
    lines.append(f"difference = {first['a']} - {first['b']} on the items both answered; "
                 f"share_le_zero: share of resampled differences <= 0")
    if (pairs["items_only_a"] > 0).any() or (pairs["items_only_b"] > 0).any():
        lines.append(f"items answered by one system only, left out: {first['a']} "
                     f"{int(pairs['items_only_a'].max())}, {first['b']} "
                     f"{int(pairs['items_only_b'].max())}")
    for note, group in pairs[pairs["mcnemar_note"] != ""].groupby("mcnemar_note", sort=False):
        lines.append(f"no McNemar test for {', '.join(group['rule'])}: {note}")
    return lines


def _shown(pairs: pd.DataFrame) -> pd.DataFrame:
    """The paired table for Markdown and LaTeX: p-values with three significant digits."""
    shown = pairs[PAIRED_COLUMNS].copy()
    shown["mcnemar_p"] = [("" if pd.isna(p) else format(p, ".3g")) for p in shown["mcnemar_p"]]
    for column in ("a_only_correct", "b_only_correct"):  # nullable counts: missing as empty
        shown[column] = [("" if pd.isna(n) else str(n)) for n in shown[column]]
    return shown


# --- the command ------------------------------------------------------------------------------
def summarize_command(scored_path, by: str = "system", rules=None, paired=None, out=None,
                      seed: int | None = None, resamples: int | None = None, *,
                      confidence: float = 0.95) -> list[str]:
    """Summarize a scored file; return the lines to print.

    Without ``out``: the per-system table (and, with ``paired=(A, B)``, the paired table) as
    Markdown, each followed by its notes (input file and hash, signatures, exclusions,
    saturation). With ``out``: the system table is written as CSV, Markdown or LaTeX by the
    extension of ``out`` (Markdown and LaTeX carry the notes; CSV has none, so that
    ``read_csv`` reads it back), the paired table beside it as ``<stem>.paired<ext>``; the
    lines say what was written and give the signatures.

    ``seed`` and ``resamples`` default to :data:`~recallscore_nb.analysis.stats.DEFAULT_SEED` and
    :data:`~recallscore_nb.analysis.stats.DEFAULT_RESAMPLES`.
    """
    seed = DEFAULT_SEED if seed is None else seed
    resamples = DEFAULT_RESAMPLES if resamples is None else resamples
    _check_resamples(resamples)
    names = resolve_rules(rules or None)
    if out is not None and Path(str(out)).suffix.lower() not in OUT_FORMATS:
        raise UsageError(f"--out must end in {', '.join(OUT_FORMATS)} "
                         f"(got {Path(str(out)).suffix or 'no extension'!r})")
    path = str(scored_path)
    if out is not None:
        refuse_output_among_inputs(out, {"scored": path})
        if paired is not None:
            refuse_output_among_inputs(_paired_path(Path(str(out))), {"scored": path})
    frame = read_scored(path, by=by, rules=names)
    if frame.empty:
        raise InputFileError(path, message="no scored rows to summarize")
    if paired is not None:
        paired = tuple(str(s) for s in paired)
        known = sorted(frame[by].unique())
        for system in paired:
            if system not in known:
                raise UsageError(f"--paired: no {by} {system!r} in {path} "
                                 f"({by}: {', '.join(known)})")
    table, verdicts, pairs = summary_tables(frame, by=by, rules=names, paired=paired,
                                            resamples=resamples, seed=seed,
                                            confidence=confidence)
    footer = _footer(path, sha256(read_input(path, InputFileError)), len(frame), table, verdicts)
    if out is None:
        lines = [f"{by} means per rule, {confidence:.0%} percentile bootstrap interval", ""]
        lines += markdown_text(table, footer).rstrip("\n").split("\n")
        if pairs is not None:
            lines += ["", f"paired comparison of {paired[0]} and {paired[1]}", ""]
            lines += markdown_text(_shown(pairs), _paired_footer(pairs)).rstrip("\n").split("\n")
        return lines
    out = Path(str(out))
    writers = {".csv": lambda f, notes: csv_text(f), ".md": markdown_text, ".tex": latex_text}
    write = writers[out.suffix.lower()]
    write_file(out, write(table, footer))
    lines = [f"wrote {out} ({len(table)} rows)"]
    if pairs is not None:
        paired_out = _paired_path(out)
        shown = pairs[PAIRED_COLUMNS] if out.suffix.lower() == ".csv" else _shown(pairs)
        write_file(paired_out, write(shown, _paired_footer(pairs)))
        lines.append(f"wrote {paired_out} ({len(pairs)} rows)")
        return lines + list(dict.fromkeys(footer + _paired_footer(pairs)))
    return lines + footer


def _paired_path(out: Path) -> Path:
    """Where the paired table goes beside ``out``: ``<stem>.paired<ext>``."""
    return out.with_name(f"{out.stem}.paired{out.suffix}")


def _check_resamples(resamples) -> None:
    """Refuse more than :data:`MAX_RESAMPLES` resamples before any is drawn.

    >>> _check_resamples(10**9)
    Traceback (most recent call last):
    ...
    recallscore_nb.core.errors.UsageError: 'resamples' must be at most 1,000,000 (got 1,000,000,000): each rule keeps every resample's mean in memory (8 GB per rule and system here), and the bounds stop moving long before the limit
    """
    if isinstance(resamples, int) and not isinstance(resamples, bool) \
            and resamples > MAX_RESAMPLES:
        raise UsageError(f"'resamples' must be at most {MAX_RESAMPLES:,} (got {resamples:,}): "
                         f"each rule keeps every resample's mean in memory "
                         f"({_size(8 * resamples)} per rule and system here), and the bounds "
                         f"stop moving long before the limit")


def _size(nbytes: int) -> str:
    """A byte count for a message: ``_size(8 * 10**9)`` is ``'8 GB'``."""
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes:,} bytes"
