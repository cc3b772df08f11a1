"""A port of the official SQuAD evaluation scripts, question by question, as they run.

Standard library only and no import of ``recallscore_nb``: it is the independent side of the
parity tests in ``test_squad_command.py``. Each function mirrors a step of the scripts,
including what is easy to lose in a rewrite:

* the *types* of the per-question scores (v1.1 F1 is ``int`` 0 or a ``float``; v2.0 exact
  is an ``int``, v2.0 F1 an ``int`` for 0 and for both-empty, a ``float`` otherwise), since
  v2.0 adds them with the built-in ``sum``, which treats ints and floats apart on Python 3.12+;
* the way each adds: v1.1 with ``+=`` one question at a time, v2.0 with ``sum`` over dicts
  in insertion order (so a repeated id would keep its first place and its last score);
* what each writes besides the JSON: v1.1 on stderr (version warning, unanswered questions),
  v2.0 ``Missing prediction for <id>`` on *stdout*;
* how each fails: v1.1 ``max`` over no gold answer (ValueError), v2.0 ``KeyError`` in the
  HasAns/NoAns split when a prediction is missing, both ``ZeroDivisionError`` on no question.

Only the default path of the v2.0 script is ported (no ``--na-prob-file``: every
no-answer probability is 0.0 and the threshold 1.0, so the threshold changes nothing, but the
step is kept because it is where the script looks the predicted ids up).
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter, OrderedDict

__all__ = ["normalize_answer", "run_v11", "run_v20", "evaluate_v11", "evaluate_v20"]

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLE = re.compile(r"\b(a|an|the)\b", re.UNICODE)


def normalize_answer(text: str) -> str:
    """Lowercase, drop ASCII punctuation, articles become spaces, collapse whitespace."""
    lowered = text.lower()
    without_punctuation = "".join(c for c in lowered if c not in _PUNCTUATION)
    without_articles = _ARTICLE.sub(" ", without_punctuation)
    return " ".join(without_articles.split())


# --- evaluate-v1.1.py --------------------------------------------------------------------
def _v11_f1(prediction: str, ground_truth: str):
    pred = normalize_answer(prediction).split()
    gold = normalize_answer(ground_truth).split()
    same = sum((Counter(pred) & Counter(gold)).values())
    if same == 0:
        return 0  # an int, as in the script
    precision = 1.0 * same / len(pred)
    recall = 1.0 * same / len(gold)
    return (2 * precision * recall) / (precision + recall)


def _v11_exact(prediction: str, ground_truth: str) -> bool:
    return normalize_answer(prediction) == normalize_answer(ground_truth)


def _v11_best(metric, prediction: str, ground_truths: list[str]):
    return max([metric(prediction, truth) for truth in ground_truths])


def evaluate_v11(articles: list, predictions: dict) -> tuple[dict, list[str]]:
    """The script's ``evaluate``: (its result dict, the lines it writes on stderr)."""
    stderr: list[str] = []
    exact_match = 0
    f1 = 0
    total = 0
    for article in articles:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                total += 1
                if qa["id"] not in predictions:
                    stderr.append("Unanswered question " + qa["id"] + " will receive score 0.")
                    continue
                truths = [answer["text"] for answer in qa["answers"]]
                prediction = predictions[qa["id"]]
                exact_match += _v11_best(_v11_exact, prediction, truths)
                f1 += _v11_best(_v11_f1, prediction, truths)
    exact_match = 100.0 * exact_match / total
    f1 = 100.0 * f1 / total
    return {"exact_match": exact_match, "f1": f1}, stderr


def run_v11(dataset_json: dict, predictions: dict) -> tuple[str, list[str]]:
    """The script's ``__main__``: (what it prints on stdout, the lines on stderr)."""
    stderr: list[str] = []
    if dataset_json["version"] != "1.1":
        stderr.append("Evaluation expects v-1.1, but got dataset with v-" + dataset_json["version"])
    result, more = evaluate_v11(dataset_json["data"], predictions)
    return json.dumps(result) + "\n", stderr + more


# --- evaluate-v2.0.py (no --na-prob-file) ------------------------------------------------
def _v20_has_answer(articles: list) -> dict:
    return {qa["id"]: bool(qa["answers"])
            for article in articles for p in article["paragraphs"] for qa in p["qas"]}


def _v20_tokens(text: str) -> list[str]:
    if not text:
        return []
    return normalize_answer(text).split()


def _v20_exact(gold: str, prediction: str) -> int:
    return int(normalize_answer(gold) == normalize_answer(prediction))


def _v20_f1(gold: str, prediction: str):
    gold_tokens = _v20_tokens(gold)
    pred_tokens = _v20_tokens(prediction)
    same = sum((Counter(gold_tokens) & Counter(pred_tokens)).values())
    if not gold_tokens or not pred_tokens:
        return int(gold_tokens == pred_tokens)  # no-answer on either side: 1 only if both
    if same == 0:
        return 0
    precision = 1.0 * same / len(pred_tokens)
    recall = 1.0 * same / len(gold_tokens)
    return (2 * precision * recall) / (precision + recall)


def _v20_raw_scores(articles: list, predictions: dict, stdout: list[str]) -> tuple[dict, dict]:
    exact: dict = {}
    f1: dict = {}
    for article in articles:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                qid = qa["id"]
                golds = [a["text"] for a in qa["answers"] if normalize_answer(a["text"])]
                if not golds:
                    golds = [""]  # unanswerable: the empty string is the only right answer
                if qid not in predictions:
                    stdout.append("Missing prediction for %s" % qid)
                    continue
                prediction = predictions[qid]
                exact[qid] = max(_v20_exact(g, prediction) for g in golds)
                f1[qid] = max(_v20_f1(g, prediction) for g in golds)
    return exact, f1


def _v20_threshold(scores: dict, na_probs: dict, has_answer: dict, threshold: float) -> dict:
    out = {}
    for qid, score in scores.items():
        out[qid] = float(not has_answer[qid]) if na_probs[qid] > threshold else score
    return out


def _v20_eval_dict(exact: dict, f1: dict, qids: list | None = None) -> OrderedDict:
    if not qids:
        total = len(exact)
        return OrderedDict([("exact", 100.0 * sum(exact.values()) / total),
                            ("f1", 100.0 * sum(f1.values()) / total),
                            ("total", total)])
    total = len(qids)
    return OrderedDict([("exact", 100.0 * sum(exact[q] for q in qids) / total),
                        ("f1", 100.0 * sum(f1[q] for q in qids) / total),
                        ("total", total)])


def evaluate_v20(articles: list, predictions: dict, stdout: list[str]) -> OrderedDict:
    """The script's ``main`` up to ``out_eval``; messages go to ``stdout`` as it prints them."""
    na_probs = {qid: 0.0 for qid in predictions}
    has_answer = _v20_has_answer(articles)
    has_answer_ids = [q for q, v in has_answer.items() if v]
    no_answer_ids = [q for q, v in has_answer.items() if not v]
    exact_raw, f1_raw = _v20_raw_scores(articles, predictions, stdout)
    exact = _v20_threshold(exact_raw, na_probs, has_answer, 1.0)
    f1 = _v20_threshold(f1_raw, na_probs, has_answer, 1.0)
    out = _v20_eval_dict(exact, f1)
    for prefix, ids in (("HasAns", has_answer_ids), ("NoAns", no_answer_ids)):
        if ids:
            for key, value in _v20_eval_dict(exact, f1, qids=ids).items():
                out["%s_%s" % (prefix, key)] = value
    return out


def run_v20(dataset_json: dict, predictions: dict) -> str:
    """What the script prints on stdout (it writes nothing on stderr unless it fails)."""
    stdout: list[str] = []
    out = evaluate_v20(dataset_json["data"], predictions, stdout)
    return "".join(line + "\n" for line in stdout) + json.dumps(out, indent=2) + "\n"
