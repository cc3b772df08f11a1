"""``recallscore summarize``: a scored file in, each system's mean per rule with its interval out.

The edge around :mod:`recallscore_nb.stats`: :func:`read_scored` reads what ``recallscore
score`` wrote (CSV, JSONL or Parquet) and checks it where it stands (file, row, id, column);
:func:`summary_tables` builds the tables (pure); :func:`summarize_command` writes them as CSV,
Markdown or LaTeX by the extension of ``out``, or returns Markdown lines to print.

In a scored CSV every field is text: the rule columns are parsed here (``true``/``false`` in
any case; numbers), and an empty field is missing, which only the checklist columns may be
(an item without a checklist). Without an ``item`` column the file is one benchmark's
attempts, all on one item, so the intervals resample attempts.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.json as pa_json
import pyarrow.parquet as pq

from .engine import STRING
from .errors import InputFileError, UsageError
from .files import atomic_write
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
from .tables import csv_text, latex_text, markdown_text

__all__ = ["read_scored", "summary_tables", "summarize_command", "SCORED_FORMATS",
           "OUT_FORMATS", "PAIRED_COLUMNS"]

SCORED_FORMATS = (".csv", ".jsonl", ".parquet")
OUT_FORMATS = (".csv", ".md", ".tex")
BOOLEAN_COLUMNS = ("literal_match", "normalized_match", "squad_exact_match",
                   "checklist_full_match")
"""Scored columns holding true/false (and every ``fact_<name>`` column)."""
NULLABLE_COLUMNS = ("facts_present", "facts_total", "checklist_full_match")
"""Scored columns that are missing for an item without a checklist (and ``fact_<name>``)."""
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
        columns of :func:`recallscore_nb.scoring.score_items`).
    by : str
        The column naming each attempt's system; every row needs a value.
    rules : sequence of str, optional
        Names from :data:`recallscore_nb.stats.SUMMARY_RULES`; default all. Their columns
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
        Naming the file, and the row (0-based), id and column at fault: a missing column, a
        value that is not true/false or not a number in range, or a missing value where only
        the checklist columns may be missing.

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
    recallscore_nb.errors.InputFileError: ...s.csv: token_f1: missing column 'token_f1' (columns: ...)
    """
    name = str(path)
    suffix = Path(name).suffix.lower()
    if suffix not in SCORED_FORMATS:
        raise UsageError(f"{name}: a scored file must end in {', '.join(SCORED_FORMATS)} "
                         f"(got {suffix or 'no extension'!r})")
    if not os.path.isfile(name):
        raise InputFileError(name, message="no such file")
    frame = {".csv": _read_csv, ".jsonl": _read_jsonl, ".parquet": _read_parquet}[suffix](name)
    needed = [by, *(c for rule in resolve_rules(rules) for c in SUMMARY_RULES[rule])]
    for column in dict.fromkeys(needed):
        if column not in frame.columns:
            found = ", ".join(map(str, frame.columns)) or "none"
            raise InputFileError(name, "", column,
                                 message=f"missing column {column!r} (columns: {found})")
    return _typed(frame, name, by)


def _read_csv(name: str) -> pd.DataFrame:
    """Every field as text: no NA guessing, so an empty field is the empty string."""
    with open(name, "rb") as fh:
        data = fh.read()
    try:
        first = data.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(name, "line 1", message=f"not UTF-8 text (byte {exc.start})") from None
    header = next(csv.reader([first]), [])
    if not header:
        raise InputFileError(name, message="empty file: expected a header line")
    repeated = sorted({c for c in header if header.count(c) > 1})
    if repeated:
        raise InputFileError(name, "line 1", repeated[0],
                             message="column named twice in the header")
    options = dict(
        parse_options=pa_csv.ParseOptions(newlines_in_values=True),
        convert_options=pa_csv.ConvertOptions(
            column_types={column: pa.string() for column in header},
            strings_can_be_null=False, quoted_strings_can_be_null=False, null_values=[]),
    )
    try:
        table = pa_csv.read_csv(io.BytesIO(data), **options)
    except pa.ArrowInvalid as exc:
        raise InputFileError(name, message=f"not valid CSV ({exc})") from None
    return table.to_pandas(types_mapper=_TYPES.get)


def _read_jsonl(name: str) -> pd.DataFrame:
    if os.path.getsize(name) == 0:
        return pd.DataFrame()
    try:
        table = pa_json.read_json(name)
    except pa.ArrowInvalid as exc:
        raise InputFileError(name, message=f"not valid JSONL ({exc})") from None
    return table.to_pandas(types_mapper=_TYPES.get)


def _read_parquet(name: str) -> pd.DataFrame:
    try:
        table = pq.read_table(name)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputFileError(name, message=f"not a readable Parquet file ({exc})") from None
    return table.to_pandas(types_mapper=_TYPES.get)


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
    """(system table, saturation table, paired table or None); see :mod:`recallscore_nb.stats`.

    The paired table has one row per rule, columns :data:`PAIRED_COLUMNS` plus
    ``items_only_a, items_only_b, mcnemar_note``; its ``attrs["signatures"]`` lists the
    bootstrap signatures used (and McNemar's when a p-value was computed).
    """
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

    ``seed`` and ``resamples`` default to :data:`~recallscore_nb.stats.DEFAULT_SEED` and
    :data:`~recallscore_nb.stats.DEFAULT_RESAMPLES`.
    """
    seed = DEFAULT_SEED if seed is None else seed
    resamples = DEFAULT_RESAMPLES if resamples is None else resamples
    names = resolve_rules(rules or None)
    if out is not None and Path(str(out)).suffix.lower() not in OUT_FORMATS:
        raise UsageError(f"--out must end in {', '.join(OUT_FORMATS)} "
                         f"(got {Path(str(out)).suffix or 'no extension'!r})")
    path = str(scored_path)
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
    with open(path, "rb") as fh:
        sha256 = hashlib.sha256(fh.read()).hexdigest()
    footer = _footer(path, sha256, len(frame), table, verdicts)
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
    _write_text(out, write(table, footer))
    lines = [f"wrote {out} ({len(table)} rows)"]
    if pairs is not None:
        paired_out = out.with_name(f"{out.stem}.paired{out.suffix}")
        shown = pairs[PAIRED_COLUMNS] if out.suffix.lower() == ".csv" else _shown(pairs)
        _write_text(paired_out, write(shown, _paired_footer(pairs)))
        lines.append(f"wrote {paired_out} ({len(pairs)} rows)")
        return lines + list(dict.fromkeys(footer + _paired_footer(pairs)))
    return lines + footer


def _write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8", newline=""))
