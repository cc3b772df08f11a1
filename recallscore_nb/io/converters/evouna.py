"""Reading an EVOUNA file for ``recallscore convert evouna`` (the format and its choices:
:mod:`recallscore_nb.io.converters`): every record checked for shape and type
(:func:`check_record`) before anything is written, and golden answers split into their
alternatives (:func:`split_alternatives`)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd

from ...core.errors import SourceFormatError, UsageError
from .sources import (VERDICT_WORDS, Faults, field_got, read_source, source_text,
                              verdict_word)
from ..jsondocs import load_json, render

__all__ = ["EVOUNA_SYSTEMS", "read_evouna", "split_alternatives", "evouna_verdict"]

EVOUNA_SYSTEMS = ("fid", "gpt35", "chatgpt", "gpt4", "newbing")

_UNIT_AFTER = re.compile(r"(s|h|hr|min|sec|ms|d|day|wk|mo|yr|g|kg|lb|l|gal|m|km|mi|ft|mol)"
                         r"(?![A-Za-z])")
_CAPITALS_AFTER = re.compile(r"[A-Z]{1,3}(?![A-Za-z])")
_WORD_BEFORE = re.compile(r"(?:(\d[\d.,]*)[ \xa0])?(\d*)([^\s/]+)\Z")
_NUMBER_CHAIN = re.compile(r"(?<!\d)\d+(?:/\d+)+")


def _day_month(a: str, b: str) -> bool:
    day, month = int(a), int(b)
    return len(a) <= 2 and len(b) <= 2 and (
        (1 <= day <= 31 and 1 <= month <= 12) or (1 <= month <= 31 and 1 <= day <= 12))


def _numbers_whole(groups: list[str], left: int) -> bool:
    """Whether the "/" after ``groups[left]`` in a chain of numbers joins one answer: a
    season (1979/80), a fraction (1/2, 11/16: a denominator to 16) or a day and month (24/7,
    25/12) alone, or a date with its year (25/12/2019)."""
    a, b = groups[left], groups[left + 1]
    if len(a) == 4 and len(b) == 2 and int(b) == (int(a) + 1) % 100:
        return True
    if len(groups) == 2:
        return int(a) < int(b) <= 16 or _day_month(a, b)
    return len(groups) == 3 and _day_month(*groups[:2]) and len(groups[2]) in (2, 4)


def _whole_at(golden: str, at: int) -> bool:
    """Whether the "/" at ``at`` belongs to one answer: inside a season, a fraction or a date
    (:func:`_numbers_whole`); in a unit (54 Mbit/s, km/h: a unit of time, mass, volume or
    length after, a number or a short lowercase word before); or between capitals (AC/DC)."""
    for chain in _NUMBER_CHAIN.finditer(golden):
        if chain.start() < at < chain.end():
            groups = chain.group().split("/")
            return _numbers_whole(groups, chain.group()[:at - chain.start()].count("/"))
    before = _WORD_BEFORE.search(golden, 0, at)
    if before is None:
        return False
    number, glued, word = before.groups()
    if _UNIT_AFTER.match(golden, at + 1) and word.isalpha():
        return bool(number or glued) or (word.islower() and len(word) <= 3)
    return word.isupper() and word.isalpha() and len(word) <= 3 \
        and bool(_CAPITALS_AFTER.match(golden, at + 1))


def split_alternatives(golden: str) -> list[str]:
    """A golden answer's alternatives: split at "/", stripped, empty ones dropped, but never
    inside a fraction, a date, a season or a unit (:func:`_whole_at`).

    >>> split_alternatives("Olivia/MFSK / 54 Mbit/s/24/7 / 1/2 / AC/DC/the sixth/sixth")
    ['Olivia', 'MFSK', '54 Mbit/s', '24/7', '1/2', 'AC/DC', 'the sixth', 'sixth']
    >>> split_alternatives("2014/2016/1979/80/201/232")
    ['2014', '2016', '1979/80', '201', '232']
    """
    pieces, start = [], 0
    for at in (m.start() for m in re.finditer("/", golden)):
        if _whole_at(golden, at):
            continue
        pieces.append(golden[start:at])
        start = at + 1
    pieces.append(golden[start:])
    return list(dict.fromkeys(p.strip() for p in pieces if p.strip()))


def evouna_verdict(value) -> str | None:
    """A person's verdict in EVOUNA (:func:`~recallscore_nb.io.converters.sources.verdict_word`),
    where the string ``"nan"`` too means none (as TQ writes it); None when it is no verdict.

    >>> [evouna_verdict(v) for v in (True, None, "nan", "maybe", 2)]
    ['true', '', '', None, None]
    """
    if isinstance(value, str) and value.strip().lower() == "nan":
        return ""
    return verdict_word(value)


def _is_text_or_null(value) -> bool:
    return value is None or isinstance(value, str)


def check_record(record, index: int, name: str, faults: Faults) -> None:
    """Add to ``faults`` what is wrong with the record at ``$[index]``: an object with a
    string ``question``, a boolean ``improper``, a string or null ``golden_answer``, and for
    each system an ``answer_<s>`` (a string or null) and a verdict ``judge_<s>`` (on an
    improper question, where nothing is read from them, only when present)."""
    where = f"$[{index}]"
    if not isinstance(record, dict):
        faults.add(name, where, expected="an object", got=render(record))
        return
    checks = [("question", lambda v: isinstance(v, str), "a string", True),
              ("improper", lambda v: isinstance(v, bool), "true or false", True),
              ("golden_answer", _is_text_or_null, "a string or null", True)]
    proper = record.get("improper") is not True
    for system in EVOUNA_SYSTEMS:
        checks += [(f"answer_{system}", _is_text_or_null, "a string or null", proper),
                   (f"judge_{system}", lambda v: evouna_verdict(v) is not None,
                    f"true, false, null, \"nan\" or the words {VERDICT_WORDS}", proper)]
    for key, ok, expected, required in checks:
        if key in record and not ok(record[key]) or key not in record and required:
            faults.add(name, where, key, expected=expected, got=field_got(record, key))


def _records(name: str) -> list:
    """The JSON list of an EVOUNA file (plain or gzipped, whatever its name), each record
    checked (:func:`check_record`); every fault raised at once."""
    text = source_text(read_source(name, gzip_data=True), name)
    records = load_json(text.encode("utf-8"), name, SourceFormatError)
    if not isinstance(records, list):
        raise SourceFormatError(name, "$", expected="a JSON list of questions",
                                got=render(records))
    faults = Faults()
    for index, record in enumerate(records):
        check_record(record, index, name, faults)
    faults.raise_any()
    return records


def read_evouna(path: str | os.PathLike[str]
                ) -> tuple[list[dict], pd.DataFrame, list[dict], list[str]]:
    """(items, attempts, judgments, what was kept and left out as lines to print) of one
    EVOUNA file, checked whole before anything is returned. A file where no answer is judged
    (an empty list, only improper questions or none with a golden answer, or no true or false
    verdict on any answer kept) is refused (:class:`UsageError`): it would convert to an
    empty set."""
    name = os.fspath(path)
    records = _records(name)
    stem = Path(name).name.split(".")[0]
    items, rows, judgments, short = [], [], [], []
    improper = no_reference = no_answer = judged_empty = 0
    for index, record in enumerate(records):
        if record["improper"]:
            improper += 1
            continue
        gold = record["golden_answer"]
        alternatives = split_alternatives(gold) if isinstance(gold, str) else []
        if len(alternatives) > 1:
            short += [a for a in alternatives if len(a) <= 2]
        if not alternatives:
            no_reference += 1
            continue
        item = f"{stem}-{index + 1:04d}"
        items.append({"item": item, "question": record["question"],
                      "referenceAnswer": alternatives})
        for system in EVOUNA_SYSTEMS:
            answer = record[f"answer_{system}"]
            verdict = evouna_verdict(record[f"judge_{system}"])
            if answer is None:
                if not verdict:
                    no_answer += 1
                    continue
                answer, judged_empty = "", judged_empty + 1  # judged: an empty attempt
            rows.append((item, system, answer))
            judgments.append({"item": item, "judge": "human", "system": system,
                              "verdict": verdict})
    attempts = pd.DataFrame(rows, columns=["item", "system", "attempt"])
    empty = sum(j["verdict"] == "" for j in judgments)
    if empty == len(judgments):
        found = "an empty list" if not records else (
            f"{len(records)} questions: {improper} improper and {no_reference} without a "
            f"golden answer, left out; {empty} answers without a verdict, {no_answer} null "
            "answers nobody judged")
        raise UsageError(f"no judged answer in {name} ({found}): nothing to convert")
    return items, attempts, judgments, [
        f"kept {len(items)} items, {len(attempts)} attempts from {len(EVOUNA_SYSTEMS)} systems, "
        f"{len(judgments) - empty} verdicts by human ({empty} attempts without one)",
        f"left out: {improper} improper questions, {no_reference} without a golden answer, "
        f"{no_answer} null answers nobody judged; kept as empty attempts: {judged_empty} "
        "judged null answers",
        f"references of one or two characters a split produced: {len(short)}"
        + (f" ({', '.join(map(repr, short))})" if short else ""),
    ]
