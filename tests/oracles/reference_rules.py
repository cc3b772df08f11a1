"""The slow, per-row reference for the five scoring rules ("the official way").

This module is deliberately standalone (standard library only, no import of
``recallscore_nb``) so that parity tests and ``benchmarks/bench_scoring.py`` can compare the
vectorized package against an independent implementation.

The SQuAD rules follow the official evaluation scripts quirk for quirk:

* v1.1 (``evaluate-v1.1.py``): ``normalize_answer`` is lower -> delete ``string.punctuation``
  -> replace ``\\b(a|an|the)\\b`` by a space -> ``' '.join(text.split())``. Exact match is
  equality of the normalized strings, F1 is the bag-of-tokens F1 with ``0`` whenever no
  token is shared (so an empty prediction against an empty answer scores F1 0.0 but EM
  True). Both take the maximum over the ground truths; ``max`` of nothing raises
  ``ValueError``, as in the script.
* v2.0 (``evaluate-v2.0.py``): gold answers that normalize to nothing are dropped; when none
  are left the question is unanswerable and the only gold answer is ``''``. ``get_tokens``
  returns ``[]`` for a falsy string, and F1 is ``gold_toks == pred_toks`` when either side
  has no tokens.

The benchmark protocol's own rules (literal, normalized, checklist) use ``seed_normalize``:
lowercase, delete ``string.punctuation``, collapse whitespace as ``str.split()`` sees it.

Nothing is cached: ``score_row`` normalizes the attempt and every reference again for every
row, as the official scripts do. It is the baseline the package is measured against.
"""

from __future__ import annotations

import re
import string
from collections import Counter

__all__ = [
    "squad_normalize",
    "em_v11",
    "f1_v11",
    "em_v20",
    "f1_v20",
    "seed_normalize",
    "literal",
    "normalized",
    "checklist",
    "contains",
    "score_row",
]

SQUAD_MODES = ("v1.1", "v2.0")


# --- SQuAD normalization -----------------------------------------------------------------
def squad_normalize(s: str) -> str:
    """The official ``normalize_answer``, step by step in the official order."""
    text = s.lower()
    punctuation = set(string.punctuation)
    text = "".join(ch for ch in text if ch not in punctuation)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


# --- SQuAD v1.1 --------------------------------------------------------------------------
def _v11_exact_pair(prediction: str, ground_truth: str) -> bool:
    return squad_normalize(prediction) == squad_normalize(ground_truth)


def _v11_f1_pair(prediction: str, ground_truth: str) -> float:
    prediction_tokens = squad_normalize(prediction).split()
    ground_truth_tokens = squad_normalize(ground_truth).split()
    common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0.0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def em_v11(prediction: str, ground_truths: list[str]) -> bool:
    """v1.1 exact match: the best over the ground truths; no ground truth raises ValueError."""
    scores = [_v11_exact_pair(prediction, gt) for gt in ground_truths]
    return bool(max(scores))


def f1_v11(prediction: str, ground_truths: list[str]) -> float:
    """v1.1 token F1: the best over the ground truths; no ground truth raises ValueError."""
    scores = [_v11_f1_pair(prediction, gt) for gt in ground_truths]
    return float(max(scores))


# --- SQuAD v2.0 --------------------------------------------------------------------------
def _v20_gold_answers(ground_truths: list[str]) -> list[str]:
    gold = [g for g in ground_truths if squad_normalize(g)]
    if not gold:
        # An unanswerable question: the only correct answer is the empty string.
        gold = [""]
    return gold


def _v20_tokens(s: str) -> list[str]:
    if not s:
        return []
    return squad_normalize(s).split()


def _v20_exact_pair(gold: str, prediction: str) -> int:
    return int(squad_normalize(gold) == squad_normalize(prediction))


def _v20_f1_pair(gold: str, prediction: str) -> float:
    gold_toks = _v20_tokens(gold)
    pred_toks = _v20_tokens(prediction)
    common = Counter(gold_toks) & Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        # Either side is "no answer": 1 when both are, 0 otherwise.
        return float(gold_toks == pred_toks)
    if num_same == 0:
        return 0.0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


def em_v20(prediction: str, ground_truths: list[str]) -> bool:
    """v2.0 exact match over the gold answers left after dropping empty ones (else ``['']``)."""
    gold = _v20_gold_answers(ground_truths)
    return bool(max(_v20_exact_pair(g, prediction) for g in gold))


def f1_v20(prediction: str, ground_truths: list[str]) -> float:
    """v2.0 token F1 over the gold answers left after dropping empty ones (else ``['']``)."""
    gold = _v20_gold_answers(ground_truths)
    return float(max(_v20_f1_pair(g, prediction) for g in gold))


# --- the benchmark protocol's rules ------------------------------------------------------
_DELETE_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)


def seed_normalize(s: str) -> str:
    """Lowercase, delete ``string.punctuation``, trim and collapse whitespace (``str.split``)."""
    return " ".join(s.lower().translate(_DELETE_ASCII_PUNCTUATION).split())


def literal(attempt: str, reference: str) -> bool:
    """Character-for-character equality."""
    return attempt == reference


def normalized(attempt: str, reference: str) -> bool:
    """Equality after ``seed_normalize`` on both sides."""
    return seed_normalize(attempt) == seed_normalize(reference)


def _occurs(term_tokens: list[str], text_tokens: list[str]) -> bool:
    """Whether ``term_tokens`` appear as consecutive whole tokens of ``text_tokens``."""
    width = len(term_tokens)
    for start in range(len(text_tokens) - width + 1):
        if text_tokens[start : start + width] == term_tokens:
            return True
    return False


def checklist(attempt: str, facts) -> dict:
    """Which facts the attempt states: a fact is present when all its terms occur.

    ``facts`` is a sequence of ``(name, terms)``. Terms and attempt are seed-normalized; a
    term occurs when its tokens are consecutive whole tokens of the attempt ("west" is not
    in "northwest", "fern" is not in "ferns"). A term that normalizes to nothing is an
    error (ValueError): it cannot be matched meaningfully.
    """
    text_tokens = seed_normalize(attempt).split()
    flags: dict[str, bool] = {}
    facts_present = 0
    facts_total = 0
    for name, terms in facts:
        present = True
        for term in terms:
            term_tokens = seed_normalize(term).split()
            if not term_tokens:
                raise ValueError(f"fact {name!r}: term {term!r} normalizes to nothing")
            if not _occurs(term_tokens, text_tokens):
                present = False
        flags[f"fact_{name}"] = present
        facts_total += 1
        facts_present += int(present)
    result: dict = {
        "facts_present": facts_present,
        "facts_total": facts_total,
        "checklist_full_match": facts_present == facts_total,
    }
    result.update(flags)
    return result


def contains(attempt: str, references: list[str]) -> bool:
    """Whether some reference's SQuAD tokens occur as consecutive whole tokens of the
    attempt's SQuAD tokens; a reference that normalizes to nothing never matches."""
    text_tokens = squad_normalize(attempt).split()
    for reference in references:
        reference_tokens = squad_normalize(reference).split()
        if reference_tokens and _occurs(reference_tokens, text_tokens):
            return True
    return False


# --- one row, all five rules -------------------------------------------------------------
def score_row(attempt: str, references: list[str], facts, mode: str = "v1.1") -> dict:
    """Every rule for one attempt; ``references`` are alternative correct answers.

    literal/normalized: true when any alternative matches. squad_exact_match/token_f1: the
    SQuAD rules of ``mode`` ("v1.1" or "v2.0"), maximized over the alternatives. contains:
    any alternative inside the attempt (the mode plays no part).
    """
    if mode == "v1.1":
        exact = em_v11(attempt, references)
        f1 = f1_v11(attempt, references)
    elif mode == "v2.0":
        exact = em_v20(attempt, references)
        f1 = f1_v20(attempt, references)
    else:
        raise ValueError(f"unknown SQuAD mode {mode!r}; expected one of {SQUAD_MODES}")
    row = {
        "literal_match": any(literal(attempt, r) for r in references),
        "normalized_match": any(normalized(attempt, r) for r in references),
        "squad_exact_match": exact,
        "token_f1": f1,
        "contains": contains(attempt, references),
    }
    row.update(checklist(attempt, facts))
    return row
