"""Reading an OpenQA-eval checkout for ``recallscore convert openqa-eval`` (the format and
its choices: :mod:`recallscore_nb.io.converters`): every model output and every NQ301 TSV
read and checked (:mod:`recallscore_nb.io.converters.sources`) before anything is written."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pandas as pd

from ...core.errors import UsageError
from .sources import VERDICT_WORDS, Faults, field_got, read_jsonl, read_tsv, verdict_word

__all__ = ["OPENQA_JUDGES", "read_openqa_eval"]

OPENQA_JUDGES = ("human", "annotator1", "annotator2", "annotator3", "bem", "gpt-4",
                 "instructgpt")
_HUMAN = {"human": "Acceptable?", "annotator1": "annotator1", "annotator2": "annotator2",
          "annotator3": "annotator3"}
_LABELLED = (("bem", "NQ301_BEM.tsv"), ("gpt-4", "NQ301_gpt-4.tsv"))
_TEXT = ("Question", "Model answer", "Acceptable?")
_DAVINCI = "NQ301_text-davinci-003.tsv"

Output = list[tuple[int, str, list[str], str]]  # (line, question, non-blank golds, prediction)


def read_openqa_eval(folder: str | os.PathLike[str]
                     ) -> tuple[list[dict], pd.DataFrame, list[dict], list[str]]:
    """(items, attempts, judgments, what was kept as lines to print) of an OpenQA-eval
    checkout. Every fault of the model outputs is raised at once, then every fault of the
    judged TSVs (whose questions are read against the outputs', so only once those are
    sound; see :class:`Faults`)."""
    root = Path(folder)
    outputs = [p for p in sorted((root / "data" / "model_outputs").glob("*.jsonl"))
               if p.name.startswith(("NQ_", "NQ301_"))]
    full = [p for p in outputs if p.name.startswith("NQ_")]
    if not full:
        raise UsageError(f"{folder}: no data/model_outputs/NQ_*.jsonl here (is it an "
                         "OpenQA-eval checkout?)")
    faults = Faults()
    sources = {path: _model_output(path, faults) for path in outputs}
    faults.raise_any()
    question_item, items = _openqa_items(sources[full[0]])
    attempts = _openqa_attempts(sources, question_item, {i["item"]: i["referenceAnswer"]
                                                         for i in items}, faults)
    judgments = _openqa_judgments(root / "data", question_item, faults)
    faults.raise_any()
    return items, attempts, judgments, _summary(items, attempts, judgments)


def _summary(items: list[dict], attempts: pd.DataFrame, judgments: list[dict]) -> list[str]:
    empty = sum(1 for j in judgments if not j["verdict"])
    counts = Counter(j["judge"] for j in judgments)
    own = attempts["references"].notna()
    by_system = attempts[own]["system"].value_counts().items()
    return [
        f"kept {len(items)} items, {len(attempts)} attempts from "
        f"{attempts['system'].nunique()} systems, {len(judgments)} verdict rows "
        f"({', '.join(f'{j} {counts.get(j, 0)}' for j in OPENQA_JUDGES)})",
        f"{int(own.sum())} attempts carry their own file's gold answers (references), "
        f"where it differs from the items': "
        f"{', '.join(f'{s} {n}' for s, n in by_system) or 'none'}",
        f"left out: nothing; {empty} verdict rows are empty (no judgment: annotator3 judged "
        f"only where annotators 1 and 2 disagreed)",
    ]


def _prediction(value) -> str | None:
    """A prediction, stripped: the string, or a list's first element; None if neither."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = value[0]
    return value.strip() if isinstance(value, str) else None


def _model_output(path: Path, faults: Faults) -> Output:
    """Each record of one model output, checked: ``question`` a string, ``answer`` a list of
    strings, one of them not blank, ``prediction`` a string or a non-empty list of them."""
    kept = []
    for number, record in read_jsonl(path, faults):
        where = f"line {number}"
        question, answer = record.get("question"), record.get("answer")
        prediction = _prediction(record.get("prediction"))
        ok = True
        if not isinstance(question, str):
            faults.add(path, where, "question", expected="a string",
                       got=field_got(record, "question"))
            ok = False
        if not (isinstance(answer, list) and all(isinstance(a, str) for a in answer)
                and any(a.strip() for a in answer)):
            faults.add(path, where, "answer", expected="a list of strings, one not blank",
                       got=field_got(record, "answer"))
            ok = False
        if prediction is None:
            faults.add(path, where, "prediction", expected="a string or a list of strings",
                       got=field_got(record, "prediction"))
            ok = False
        if ok:
            kept.append((number, question, [a for a in answer if a.strip()], prediction))
    return kept


def _openqa_items(first: Output) -> tuple[dict[str, str], list[dict]]:
    """(question -> item id, the items): one item per distinct question of the first NQ
    output, numbered in order, its non-blank gold answers as references."""
    question_item = {}
    items = []
    for _, question, answer, _ in first:
        if question in question_item:
            continue
        item = f"nq-{len(items) + 1:04d}"
        question_item[question] = item
        items.append({"item": item, "question": question, "referenceAnswer": answer})
    return question_item, items


def _openqa_attempts(sources: dict[Path, Output], question_item: dict[str, str],
                     references: dict[str, list[str]], faults: Faults) -> pd.DataFrame:
    """Every NQ and NQ301 model output's predictions: ``item, system, attempt, references``,
    the last the file's own gold answers (JSON) where they differ from the item's, else null."""
    rows = []
    for path, output in sources.items():
        system = path.stem.split("_", 1)[1]
        for number, question, gold, prediction in output:
            item = question_item.get(question)
            if item is None:
                faults.add(path, f"line {number}", "question",
                           message="a question no NQ_*.jsonl file asks")
                continue
            own = json.dumps(gold, ensure_ascii=False) if gold != references[item] else None
            rows.append((item, system, prediction, own))
    return pd.DataFrame(rows, columns=["item", "system", "attempt", "references"])


def _openqa_judgments(data: Path, question_item: dict[str, str],
                      faults: Faults) -> list[dict]:
    """The verdict rows: the human label and each annotator's, BEM's,
    GPT-4's and InstructGPT's, on NQ301's answers (a row whose tab was lost is split after
    its question). ``NQ301_human.tsv`` is read verbatim: it is written without CSV quoting
    (its quotes are never doubled), so an answer that starts with a quoted title keeps its
    quotes, as the model outputs spell it. One answer to one question judged twice by one
    judge with opposite verdicts is a fault naming both lines (as the judgments reader would
    refuse the converted file); the same verdict twice, or a verdict and an empty cell, is
    written as it stands, both rows (the real files repeat a few answers so)."""
    judgments = []
    first: dict[tuple[str, str, str], tuple[int, str, str]] = {}  # the first verdict given

    def add(path: Path, line: int, question: str, answer: str, judge: str, label: str,
            column: str) -> None:
        item, verdict = question_item.get(question), verdict_word(label)
        if item is None:
            faults.add(path, f"line {line}", "Question",
                       message=f"a question no NQ_*.jsonl file asks: {question!r}")
        elif verdict is None:
            faults.add(path, f"line {line}", column, expected=VERDICT_WORDS, got=repr(label))
        else:
            if verdict:
                _one_verdict(first, path, line, question, answer, judge, label, column,
                             faults)
            judgments.append({"item": item, "judge": judge, "attempt": answer,
                              "verdict": verdict})

    path = data / "NQ301_human.tsv"
    at, rows = read_tsv(path, _TEXT + tuple(_HUMAN.values())[1:], faults, verbatim=True)
    for line, row in rows:
        for judge, column in _HUMAN.items():
            add(path, line, row[at["Question"]], row[at["Model answer"]], judge,
                row[at[column]], column)
    for judge, name in _LABELLED:
        at, rows = read_tsv(data / name, _TEXT, faults)
        for line, row in rows:
            add(data / name, line, row[at["Question"]], row[at["Model answer"]], judge,
                row[at["Acceptable?"]], "Acceptable?")
    at, rows = read_tsv(data / _DAVINCI, _TEXT, faults, lost_tab=True)
    by_length = sorted(question_item, key=len, reverse=True)
    for line, row in rows:
        if len(row) == len(at):  # well formed: id, Question, Model answer, Acceptable?, …
            question, answer, label = (row[at[c]] for c in _TEXT)
        else:  # the tab between question and answer was lost: split after the question
            glued = row[at["Question"]]
            question = next((q for q in by_length if glued.startswith(q)), None)
            if question is None:
                faults.add(data / _DAVINCI, f"line {line}", "Question",
                           message="starts with no known question")
                continue
            answer, label = glued[len(question):], row[at["Acceptable?"] - 1]
        add(data / _DAVINCI, line, question, answer, "instructgpt", label, "Acceptable?")
    return judgments


def _one_verdict(first: dict[tuple[str, str, str], tuple[int, str, str]], path: Path,
                 line: int, question: str, answer: str, judge: str, label: str, column: str,
                 faults: Faults) -> None:
    """Note the verdict ``label`` of ``judge`` at ``path``'s ``line``, or add a fault when
    the judge gave this answer (stripped, as the judgments reader matches it) to this
    question the opposite verdict on an earlier line, naming both lines."""
    key = (judge, question, answer.strip())
    seen = first.setdefault(key, (line, label, verdict_word(label)))
    if seen[2] != verdict_word(label):
        where = os.fspath(path)
        faults.add(path, f"line {line}", column, message=(
            f"the answer {answer!r} to {question!r} is judged {seen[1].strip()!r} at "
            f"{where}:{seen[0]} and {label.strip()!r} at {where}:{line}: one answer, two "
            "opposite verdicts (correct or remove one of the rows)"))
