"""Reading the EfficientQA human ratings for ``recallscore convert efficientqa`` (the format
and its choices: :mod:`recallscore_nb.io.converters`): every line checked for shape and type
(:func:`check_efficientqa_record`), and every prediction for a contradiction between lists,
before anything is written.

The source (Min et al., PMLR 133, 2021) rates the predictions of the competition's top
systems that exact match rejected, in three lists per question. People's "possibly correct"
is neither a yes nor a no, so it is not folded into either: the conversion writes it as three
judges over the same attempts, so that each reading can be reported.

>>> [EFFICIENTQA_READINGS[j]["poss_correct_predictions"] for j in EFFICIENTQA_JUDGES]
['', 'false', 'true']
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ...core.errors import UsageError
from .sources import Faults, field_got, read_jsonl

__all__ = ["EFFICIENTQA_JUDGES", "EFFICIENTQA_LISTS", "EFFICIENTQA_READINGS",
           "EFFICIENTQA_SYSTEM", "read_efficientqa", "check_efficientqa_record"]

EFFICIENTQA_LISTS = ("def_correct_predictions", "poss_correct_predictions",
                     "def_incorrect_predictions")
"""The rated lists of a question, in the order their predictions become attempts."""
EFFICIENTQA_JUDGES = ("human", "human-strict", "human-lenient")
"""``human``: the definite ratings only (a possibly correct answer has no verdict);
``human-strict``: possibly correct is wrong; ``human-lenient``: possibly correct is right."""
EFFICIENTQA_READINGS = {
    "human": dict(zip(EFFICIENTQA_LISTS, ("true", "", "false"))),
    "human-strict": dict(zip(EFFICIENTQA_LISTS, ("true", "false", "false"))),
    "human-lenient": dict(zip(EFFICIENTQA_LISTS, ("true", "true", "false"))),
}
"""Each judge's verdict on a prediction of each list (empty: no verdict)."""
EFFICIENTQA_SYSTEM = "efficientqa-top"
"""The one system every attempt is given: the lists pool the top systems and name none."""
_CHECKED = ("answer",) + EFFICIENTQA_LISTS + ("answer_and_def_correct_predictions",)


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_efficientqa_record(record: dict, where: str, name: str, faults: Faults) -> bool:
    """Add to ``faults`` what is wrong with one line's object: a string ``question``; lists
    of strings ``answer`` (one not blank), the three rated lists (no blank prediction) and,
    when present, ``answer_and_def_correct_predictions`` (not read: it is the gold list and
    the definitely correct ones). Whether the record is sound."""
    before = len(faults.errors)
    if not isinstance(record.get("question"), str):
        faults.add(name, where, "question", expected="a string",
                   got=field_got(record, "question"))
    for key in _CHECKED:
        if key not in record and key == _CHECKED[-1]:
            continue
        value = record.get(key)
        if not _strings(value):
            faults.add(name, where, key, expected="a list of strings",
                       got=field_got(record, key))
        elif key == "answer" and not any(v.strip() for v in value):
            faults.add(name, where, key, expected="at least one gold answer that is not blank",
                       got=field_got(record, key))
        elif key in EFFICIENTQA_LISTS:
            for index, text in enumerate(value):
                if not text.strip():
                    faults.add(name, f"{where}, $.{key}[{index}]", expected="a prediction "
                               "that is not blank", got=field_got(record, key))
    return len(faults.errors) == before


def _rated(record: dict, where: str, name: str, faults: Faults) -> list[tuple[str, str]]:
    """(prediction, list) of one question, each prediction once: a repeat in one list (its
    text stripped, as judgments compare) is one attempt; one text in two lists is a fault."""
    found: dict[str, str] = {}
    rated = []
    for key in EFFICIENTQA_LISTS:
        for text in record[key]:
            seen = found.get(text.strip())
            if seen is None:
                found[text.strip()] = key
                rated.append((text, key))
            elif seen != key:
                faults.add(name, where, key, message=f"{text.strip()!r} is rated both in "
                           f"{seen} and in {key}")
    return rated


def read_efficientqa(path: str | os.PathLike[str]
                     ) -> tuple[list[dict], pd.DataFrame, list[dict], list[str]]:
    """(items, attempts, judgments, what was kept as lines to print) of the EfficientQA
    ratings file (JSON lines, plain or ``.gz``), checked whole before anything is returned.
    Items are ``efficientqa-0001``, … by line, with the gold list (stripped, the blank ones
    dropped); each rated prediction is one attempt of :data:`EFFICIENTQA_SYSTEM`, keyed in
    the judgments by its text, with a verdict of each judge of :data:`EFFICIENTQA_JUDGES`.
    A file with no rated prediction is refused (:class:`UsageError`)."""
    name = os.fspath(path)
    faults = Faults()
    items, rows, judgments = [], [], []
    counts = dict.fromkeys(EFFICIENTQA_LISTS, 0)
    unrated = 0
    for number, record in read_jsonl(Path(name), faults):
        where = f"line {number}"
        if not check_efficientqa_record(record, where, name, faults):
            continue
        item = f"efficientqa-{number:04d}"
        gold = list(dict.fromkeys(g.strip() for g in record["answer"] if g.strip()))
        items.append({"item": item, "question": record["question"], "referenceAnswer": gold})
        rated = _rated(record, where, name, faults)
        unrated += not rated
        for text, key in rated:
            counts[key] += 1
            rows.append((item, EFFICIENTQA_SYSTEM, text))
            judgments += [{"item": item, "judge": judge, "attempt": text,
                           "verdict": EFFICIENTQA_READINGS[judge][key]}
                          for judge in EFFICIENTQA_JUDGES]
    faults.raise_any()
    if not rows:
        raise UsageError(f"no rated prediction in {name} ({len(items)} questions): nothing to "
                         "convert")
    attempts = pd.DataFrame(rows, columns=["item", "system", "attempt"])
    return items, attempts, judgments, [
        f"kept {len(items)} items, {len(attempts)} attempts (one per rated prediction, system "
        f"{EFFICIENTQA_SYSTEM}): {', '.join(f'{counts[k]} {k}' for k in EFFICIENTQA_LISTS)}",
        f"judges: {', '.join(EFFICIENTQA_JUDGES)} (possibly correct: no verdict, false, true)",
        f"left out: nothing; {unrated} items have no rated prediction",
    ]
