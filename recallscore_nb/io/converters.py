"""Converters for the two public sets of human judgments of free-text answers, so that a user
who cloned one starts in one command (``recallscore convert openqa-eval|evouna``).

Each writes three files into an output folder, atomically: ``items.jsonl`` (one item a line:
``item``, ``question``, ``referenceAnswer`` as a list of alternatives), ``attempts.parquet``
(``item``, ``system``, ``attempt``) and ``judgments.csv`` (``item``, ``judge``, the key,
``verdict``: ``true``, ``false`` or empty for no verdict); and returns what it kept and left
out, one line each, for the command to print. The data sets themselves never enter this
repository.

- **OpenQA-eval** (Kamalloo et al., ACL 2023; MIT): a folder holding
  ``data/model_outputs/*.jsonl`` and ``data/NQ301_*.tsv``. Items are the questions of the
  ``NQ_*.jsonl`` files (``nq-0001``, … in their order); each system is named after its file
  without ``NQ_``/``NQ301_`` and ``.jsonl``; a list prediction counts by its first element,
  and every prediction is stripped (as the authors' code does). Judgments are keyed by the
  answer text (column ``attempt``), by the judges ``human`` (the final label),
  ``annotator1``–``annotator3``, ``bem``, ``gpt-4`` and ``instructgpt``. The files do not
  share one gold list (``NQ_EviGen.jsonl`` repairs answers the others spell with mojibake):
  the items take the first ``NQ_*.jsonl`` file's, and an attempt whose own file lists other
  gold answers for its question carries them (column ``references``, a JSON list), so that
  each system is scored against its own file, as its authors did. The malformed
  ``NQ301_text-davinci-003.tsv`` (the tab between question and answer lost) is read by
  splitting the glued field after the longest known question it starts with.
- **EVOUNA** (Wang et al., NeurIPS 2023; Apache-2.0): one JSON list, plain or gzipped.
  Items are ``<stem>-0001``, … (``NQ-0001``); alternatives are the golden answer split at
  "/" (:func:`split_alternatives`: never inside a unit, a fraction or a date), stripped, the
  empty ones dropped; the references of one or two characters a split produced are listed.
  Improper questions are kept out (counted), as is a question with no golden answer left; a
  null answer that a person judged is an empty attempt (counted), one nobody judged is no
  attempt (counted). Judgments are keyed by system (column ``system``), by the judge
  ``human``; a null or ``"nan"`` verdict is written empty.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..core.errors import InputFileError, UsageError
from .files import atomic_write, read_input, write_file

__all__ = ["convert_openqa_eval", "convert_evouna", "split_alternatives", "OPENQA_JUDGES",
           "EVOUNA_SYSTEMS"]

OPENQA_JUDGES = ("human", "annotator1", "annotator2", "annotator3", "bem", "gpt-4",
                 "instructgpt")
EVOUNA_SYSTEMS = ("fid", "gpt35", "chatgpt", "gpt4", "newbing")


def _verdict(value) -> str:
    """``true``, ``false`` or empty (no verdict) from a label such as Yes/No or a boolean."""
    if value is True or value is False:
        return "true" if value else "false"
    text = "" if value is None else str(value).strip().lower()
    return {"yes": "true", "no": "false", "true": "true", "false": "false"}.get(text, "")


def _write(out_dir: str | os.PathLike[str], items: list[dict], attempts: pd.DataFrame,
           judgments: list[dict], key: str) -> None:
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out_dir}: not a folder; give a folder to write into")
    out.mkdir(parents=True, exist_ok=True)
    write_file(out / "items.jsonl", "".join(json.dumps(i, ensure_ascii=False) + "\n"
                                            for i in items))
    table = pa.Table.from_pandas(attempts.reset_index(drop=True), preserve_index=False)
    atomic_write(out / "attempts.parquet", lambda tmp: pq.write_table(table, tmp))
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["item", "judge", key, "verdict"])
    writer.writerows([j["item"], j["judge"], j[key], j["verdict"]] for j in judgments)
    write_file(out / "judgments.csv", text.getvalue())


# --- OpenQA-eval ----------------------------------------------------------------------------
def _jsonl(path: Path) -> list[dict]:
    data = read_input(path, InputFileError).decode("utf-8")
    out = []
    for number, line in enumerate(data.splitlines(), start=1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputFileError(str(path), f"line {number}", message=f"not JSON ({exc.msg})")
    return out


def _tsv(path: Path) -> list[list[str]]:
    text = read_input(path, InputFileError).decode("utf-8")
    return list(csv.reader(io.StringIO(text), delimiter="\t"))


def _prediction(record: dict, path: Path, number: int) -> str:
    value = record.get("prediction")
    if isinstance(value, list) and value and isinstance(value[0], str):
        value = value[0]
    if not isinstance(value, str):
        raise InputFileError(str(path), f"line {number}", "prediction",
                             expected="a string or a list of strings", got=json.dumps(value))
    return value.strip()


def convert_openqa_eval(folder: str | os.PathLike[str],
                        out_dir: str | os.PathLike[str]) -> list[str]:
    """Convert an OpenQA-eval checkout (see the module docstring); return what was kept."""
    root = Path(folder)
    outputs = sorted((root / "data" / "model_outputs").glob("*.jsonl"))
    full = [p for p in outputs if p.name.startswith("NQ_")]
    if not full:
        raise UsageError(f"{folder}: no data/model_outputs/NQ_*.jsonl here (is it an "
                         "OpenQA-eval checkout?)")
    question_item, items = _openqa_items(_jsonl(full[0]))
    attempts = _openqa_attempts(outputs, question_item, {i["item"]: i["referenceAnswer"]
                                                          for i in items})
    judgments, counts = _openqa_judgments(root / "data", question_item)
    _write(out_dir, items, attempts, judgments, "attempt")
    empty = sum(1 for j in judgments if not j["verdict"])
    own = attempts["references"].notna()
    return [
        f"kept {len(items)} items, {len(attempts)} attempts from "
        f"{attempts['system'].nunique()} systems, {len(judgments)} verdict rows "
        f"({', '.join(f'{j} {counts.get(j, 0)}' for j in OPENQA_JUDGES)})",
        f"{int(own.sum())} attempts carry their own file's gold answers (references), "
        f"where it differs from the items': "
        f"{', '.join(f'{s} {n}' for s, n in attempts[own]['system'].value_counts().items()) or 'none'}",
        f"left out: nothing; {empty} verdict rows are empty (no judgment: annotator3 judged "
        f"only where annotators 1 and 2 disagreed)",
    ]


def _openqa_items(first: list[dict]) -> tuple[dict[str, str], list[dict]]:
    """(question -> item id, the items): one item per distinct question of the first NQ
    output, numbered in order, its non-blank gold answers as references."""
    question_item = {}
    items = []
    for record in first:
        q = record["question"]
        if q in question_item:
            continue
        item = f"nq-{len(items) + 1:04d}"
        question_item[q] = item
        items.append({"item": item, "question": q,
                      "referenceAnswer": [a for a in record["answer"] if a.strip()]})
    return question_item, items


def _openqa_attempts(outputs: list[Path], question_item: dict[str, str],
                     references: dict[str, list[str]]) -> pd.DataFrame:
    """Every NQ and NQ301 model output's predictions: ``item, system, attempt, references``,
    the last the file's own gold answers (JSON) where they differ from the item's, else null."""
    rows = []
    for path in outputs:
        if not (path.name.startswith("NQ_") or path.name.startswith("NQ301_")):
            continue
        system = path.stem.split("_", 1)[1]
        for number, record in enumerate(_jsonl(path), start=1):
            item = question_item.get(record.get("question"))
            if item is None:
                raise InputFileError(str(path), f"line {number}", "question",
                                     message="a question no NQ_*.jsonl file asks")
            gold = [a for a in record.get("answer", ()) if isinstance(a, str) and a.strip()]
            own = json.dumps(gold, ensure_ascii=False) if gold != references[item] else None
            rows.append((item, system, _prediction(record, path, number), own))
    return pd.DataFrame(rows, columns=["item", "system", "attempt", "references"])


def _openqa_judgments(data: Path, question_item: dict[str, str]) -> tuple[list[dict], dict]:
    """(verdict rows, their count per judge): the human label and each annotator's, BEM's,
    GPT-4's and InstructGPT's, on NQ301's answers (a row whose tab was lost is split after
    its question)."""
    judgments = []
    counts = {}

    def add(path: Path, row_number: int, question: str, answer: str, judge: str, label) -> None:
        item = question_item.get(question)
        if item is None:
            raise InputFileError(str(path), f"row {row_number}", "Question",
                                 message=f"a question no NQ_*.jsonl file asks: {question!r}")
        judgments.append({"item": item, "judge": judge, "attempt": answer,
                          "verdict": _verdict(label)})
        counts[judge] = counts.get(judge, 0) + 1

    human = _tsv(data / "NQ301_human.tsv")
    header = human[0]
    at = {name: header.index(name) for name in ("Question", "Model answer", "Acceptable?",
                                                "annotator1", "annotator2", "annotator3")}
    for number, row in enumerate(human[1:], start=1):
        question, answer = row[at["Question"]], row[at["Model answer"]]
        add(data / "NQ301_human.tsv", number, question, answer, "human", row[at["Acceptable?"]])
        for judge in ("annotator1", "annotator2", "annotator3"):
            add(data / "NQ301_human.tsv", number, question, answer, judge, row[at[judge]])
    for judge, name in (("bem", "NQ301_BEM.tsv"), ("gpt-4", "NQ301_gpt-4.tsv")):
        table = _tsv(data / name)
        q, a, v = (table[0].index(c) for c in ("Question", "Model answer", "Acceptable?"))
        for number, row in enumerate(table[1:], start=1):
            add(data / name, number, row[q], row[a], judge, row[v])
    name = "NQ301_text-davinci-003.tsv"
    by_length = sorted(question_item, key=len, reverse=True)
    for number, row in enumerate(_tsv(data / name)[1:], start=1):
        if len(row) >= 5:  # well formed: id, Question, Model answer, Acceptable?, response
            question, answer, label = row[1], row[2], row[3]
        else:  # the tab between question and answer was lost: split after the question
            glued = row[1]
            question = next((q for q in by_length if glued.startswith(q)), None)
            if question is None:
                raise InputFileError(str(data / name), f"row {number}", "Question",
                                     message="starts with no known question")
            answer, label = glued[len(question):], row[2]
        add(data / name, number, question, answer, "instructgpt", label)
    return judgments, counts


# --- EVOUNA ---------------------------------------------------------------------------------
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



def convert_evouna(path: str | os.PathLike[str], out_dir: str | os.PathLike[str]) -> list[str]:
    """Convert one EVOUNA file (see the module docstring); return what was kept."""
    name = os.fspath(path)
    raw = read_input(name, InputFileError)
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise InputFileError(name, message=f"not a readable gzip file ({exc})") from None
    try:
        records = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(name, message=f"not JSON ({exc})") from None
    if not isinstance(records, list):
        raise InputFileError(name, "$", expected="a JSON list of questions",
                             got=type(records).__name__)
    stem = Path(name).name.split(".")[0]
    items, rows, judgments, short = [], [], [], []
    improper = no_reference = no_answer = judged_empty = empty = 0
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            raise InputFileError(name, f"$[{index}]", expected="an object",
                                 got=type(record).__name__)
        if record.get("improper") is True:
            improper += 1
            continue
        gold = record.get("golden_answer")
        alternatives = split_alternatives(gold) if isinstance(gold, str) else []
        if len(alternatives) > 1:
            short += [a for a in alternatives if len(a) <= 2]
        if not alternatives:
            no_reference += 1
            continue
        item = f"{stem}-{index + 1:04d}"
        items.append({"item": item, "question": record.get("question"),
                      "referenceAnswer": alternatives})
        for system in EVOUNA_SYSTEMS:
            answer = record.get(f"answer_{system}")
            verdict = _verdict(record.get(f"judge_{system}"))
            if not isinstance(answer, str):
                if not verdict:
                    no_answer += 1
                    continue
                answer, judged_empty = "", judged_empty + 1  # judged: an empty attempt
            rows.append((item, system, answer))
            empty += verdict == ""
            judgments.append({"item": item, "judge": "human", "system": system,
                              "verdict": verdict})
    attempts = pd.DataFrame(rows, columns=["item", "system", "attempt"])
    _write(out_dir, items, attempts, judgments, "system")
    return [
        f"kept {len(items)} items, {len(attempts)} attempts from {len(EVOUNA_SYSTEMS)} systems, "
        f"{len(judgments) - empty} verdicts by human ({empty} attempts without one)",
        f"left out: {improper} improper questions, {no_reference} without a golden answer, "
        f"{no_answer} null answers nobody judged; kept as empty attempts: {judged_empty} "
        "judged null answers",
        f"references of one or two characters a split produced: {len(short)}"
        + (f" ({', '.join(map(repr, short))})" if short else ""),
    ]
