"""``recallscore squad``: the official SQuAD evaluation scripts' numbers, from their own files.

``recallscore squad DATASET.json PREDICTIONS.json --mode v1.1|v2.0`` reads an official SQuAD
dataset (``{"version", "data": [{"paragraphs": [{"qas": [{"id", "answers": [{"text"}]}]}]}]}``)
and a predictions file (a JSON object, question id -> predicted answer) and prints the JSON
that the official script of that version prints, with the same numbers to the last bit.

What each script does, and so what this module does:

* **v1.1** (``evaluate-v1.1.py``) prints ``json.dumps({"exact_match", "f1"})``. Every question
  of the dataset counts in the total; a question with no prediction scores 0 and the script
  writes ``Unanswered question <id> will receive score 0.`` on stderr. It adds the scores one
  question at a time (``f1 += ...``), so the sum here is ``np.cumsum`` (left to right), not
  ``np.sum`` (pairwise). It warns ``Evaluation expects v-1.1, but got dataset with v-<version>``
  on stderr when ``version`` is not ``"1.1"``. It takes the maximum over the gold answers, so
  it fails on a question that has a prediction and no gold answer (SQuAD 2.0 data): here that
  is an error naming the question's JSON path.
* **v2.0** (``evaluate-v2.0.py``, no ``--na-prob-file``) prints ``json.dumps(..., indent=2)``
  of ``exact``, ``f1``, ``total``, then ``HasAns_exact/f1/total`` when some question has gold
  answers and ``NoAns_exact/f1/total`` when some has none (``bool(answers)``; ``is_impossible``
  is not read). Gold answers that normalize to nothing are dropped and a question left with
  none is scored against ``""``. The script adds with the built-in ``sum`` over per-question
  scores that are ``int`` (0, and 0/1 against ``""``) or ``float``; the same values of the
  same types are summed here with the same ``sum``, so the result agrees on every Python
  (``sum`` of floats became compensated in Python 3.12). **A missing prediction:** the script
  prints ``Missing prediction for <id>`` and leaves the question out of ``exact_scores``, but
  then computes the HasAns/NoAns split over *every* question of the dataset and stops with a
  ``KeyError``, printing no scores at all. Here, as the script means to, a question without a
  prediction is left out: of the total and of its HasAns/NoAns split (the numbers the script
  prints when the unanswered questions are removed from the dataset), and ``Missing
  prediction for <id>`` goes to stderr.

**No-answer probabilities** (v2.0 only, the script's ``--na-prob-file`` and
``--na-prob-thresh``, default 1.0): a question whose probability is above the threshold
counts as answered "no answer" (1.0 when it has no gold answer, else 0.0) in every score
printed; and the script adds ``best_exact``, ``best_exact_thresh``, ``best_f1`` and
``best_f1_thresh``: the best score over every threshold, found by walking the questions in
order of probability (a stable sort, ties in the file's order) and adding up what answering
each would gain, left to right as the script does (``np.cumsum``); the threshold is the
probability where the running score first peaks (0.0 when answering nothing is best). The
probability file must give one for every question scored (the script fails with a
``KeyError`` otherwise; here it is an error naming the file and the id). The script's
``--out-image-dir`` (precision-recall plots) is not reproduced.

Both scripts ignore predictions for ids the dataset does not have, and so does this module.
Question ids must be unique strings (the scripts key scores by id; the official files never
repeat one), and the dataset must hold at least one question (the scripts divide by the count).

>>> data = {"version": "1.1", "data": [{"paragraphs": [{"qas": [
...     {"id": "q1", "answers": [{"text": "the Eiffel Tower"}, {"text": "Eiffel"}]},
...     {"id": "q2", "answers": [{"text": "1889"}]}]}]}]}
>>> from recallscore_nb.io.squad_files import parse_squad_dataset
>>> dataset = parse_squad_dataset(data, "dev.json")
>>> result, messages = evaluate_squad(dataset, {"q1": "Eiffel tower!"}, mode="v1.1")
>>> result
{'exact_match': 50.0, 'f1': 50.0}
>>> messages
['Unanswered question q2 will receive score 0.']
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.engine import SQUAD_MODES
from ..core.errors import InputFileError, UsageError
from ..core.normalize import SQUAD, normalize_array
from ..core.scoring import squad_exact_match, token_f1
from ..io.squad_files import SquadDataset

__all__ = ["evaluate_squad", "format_result", "check_mode"]


def evaluate_squad(
    dataset: SquadDataset, predictions: Mapping[str, str], *, mode: str = "v1.1",
    na_probs: Mapping[str, float] | None = None, na_prob_thresh: float = 1.0,
) -> tuple[dict[str, float | int], list[str]]:
    """The scores the official SQuAD script of ``mode`` prints, and what it writes on stderr.

    Parameters
    ----------
    dataset : SquadDataset
        What :func:`recallscore_nb.io.squad_files.read_squad_dataset` returns.
    predictions : Mapping of str to str
        Question id -> predicted answer (:func:`recallscore_nb.io.squad_files.read_predictions`,
        or a plain dict).
    mode : {"v1.1", "v2.0"}
        Which official script to reproduce.
    na_probs : Mapping of str to float, optional
        v2.0 only: each question's no-answer probability (``--na-prob-file``); adds the
        ``best_*`` keys.
    na_prob_thresh : float
        v2.0 only: above it, a question counts as answered "no answer" (``--na-prob-thresh``,
        default 1.0; without ``na_probs`` every probability is 0).

    Returns
    -------
    result : dict
        The script's output, in its key order: v1.1 ``exact_match, f1``; v2.0 ``exact, f1,
        total`` then ``HasAns_*`` and ``NoAns_*`` when those questions exist (×100 means),
        then with ``na_probs`` ``best_exact, best_exact_thresh, best_f1, best_f1_thresh``.
    messages : list of str
        The lines the script writes besides its JSON: v1.1's version warning and
        ``Unanswered question <id> will receive score 0.``; v2.0's ``Missing prediction
        for <id>``.

    Raises
    ------
    InputFileError
        v1.1: a question with a prediction has no gold answer (the script fails on it).
    UsageError
        ``mode`` is not ``"v1.1"`` or ``"v2.0"``.

    Examples
    --------
    >>> data = {"data": [{"paragraphs": [{"qas": [
    ...     {"id": "q1", "answers": [{"text": "Denver Broncos"}]},
    ...     {"id": "q2", "answers": []}]}]}]}
    >>> from recallscore_nb.io.squad_files import parse_squad_dataset
    >>> result, _ = evaluate_squad(parse_squad_dataset(data), {"q1": "Broncos", "q2": ""},
    ...                            mode="v2.0")
    >>> [(key, round(value, 4)) for key, value in result.items()]  # doctest: +NORMALIZE_WHITESPACE
    [('exact', 50.0), ('f1', 83.3333), ('total', 2), ('HasAns_exact', 0.0),
     ('HasAns_f1', 66.6667), ('HasAns_total', 1), ('NoAns_exact', 100.0), ('NoAns_f1', 100.0),
     ('NoAns_total', 1)]
    """
    check_mode(mode)
    if mode == "v1.1" and (na_probs is not None or na_prob_thresh != 1.0):
        raise UsageError("no-answer probabilities (--na-prob-file, --na-prob-thresh) are "
                         "options of the v2.0 script: use --mode v2.0")
    answered = np.fromiter((qid in predictions for qid in dataset.qids), dtype=bool,
                           count=len(dataset))
    rows = np.flatnonzero(answered)
    _check_scorable(dataset, predictions, answered, mode)
    attempts = [predictions[dataset.qids[i]] for i in rows]
    references = [list(dataset.answers[i]) for i in rows]
    exact = squad_exact_match(attempts, references, mode=mode).to_numpy()
    f1 = token_f1(attempts, references, mode=mode).to_numpy()
    if mode == "v1.1":
        return _v11_result(dataset, answered, exact, f1)
    missing = [f"Missing prediction for {dataset.qids[i]}" for i in np.flatnonzero(~answered)]
    qids = [dataset.qids[i] for i in rows]
    # without a probability file the script takes every probability as 0.0
    probs = (np.zeros(len(qids)).astype(object) if na_probs is None
             else _probabilities(na_probs, qids))
    result = _v20_result(dataset, answered, exact, f1, probs, na_prob_thresh)
    if na_probs is not None:
        result.update(_best_keys(dataset, predictions, rows, exact, f1, probs, na_probs))
    return result, missing


def _best_keys(dataset: SquadDataset, predictions: Mapping[str, str], rows: np.ndarray,
               exact: np.ndarray, f1: np.ndarray, probs: np.ndarray,
               na_probs: Mapping[str, float]) -> list[tuple[str, float]]:
    """The v2.0 script's ``best_*`` keys over the answered questions ``rows``: the best
    exact match and F1 over every no-answer threshold, and those thresholds."""
    qids = [dataset.qids[i] for i in rows]
    has_answer = np.fromiter((bool(dataset.answers[i]) for i in rows), dtype=bool,
                             count=len(rows))
    blank = np.fromiter((not predictions[q] for q in qids), dtype=bool, count=len(rows))
    order = _probability_order(na_probs, qids)
    best_exact, exact_thresh = _best_threshold(exact.astype(np.int64), has_answer, blank,
                                               probs, order)
    best_f1, f1_thresh = _best_threshold(f1, has_answer, blank, probs, order)
    return [("best_exact", best_exact), ("best_exact_thresh", exact_thresh),
            ("best_f1", best_f1), ("best_f1_thresh", f1_thresh)]


def _probabilities(na_probs: Mapping[str, float], qids: list[str]) -> np.ndarray:
    """Each scored question's no-answer probability, as read (an int stays an int)."""
    absent = [q for q in qids if q not in na_probs]
    if absent:
        name = getattr(na_probs, "path", "<na-probs>")
        raise InputFileError(name, "$", absent[0], message=(
            f"no no-answer probability for question {absent[0]!r} ({len(absent)} scored "
            "question(s) have none; the official script fails on the first)"))
    return np.array([na_probs[q] for q in qids], dtype=object)


def _probability_order(na_probs: Mapping[str, float], qids: list[str]) -> np.ndarray:
    """The scored questions (indices into ``qids``) as the script walks them: every id of the
    probability file sorted stably by probability (ties in file order), unscored ones
    skipped."""
    position = {q: i for i, q in enumerate(qids)}
    keys = list(na_probs)
    values = np.array([float(na_probs[k]) for k in keys], dtype=np.float64)
    walk = np.argsort(values, kind="stable")
    at = np.array([position.get(keys[k], -1) for k in walk.tolist()], dtype=np.int64)
    return at[at >= 0]


def _best_threshold(raw: np.ndarray, has_answer: np.ndarray, blank: np.ndarray,
                    probs: np.ndarray, order: np.ndarray) -> tuple[float, float | int]:
    """``find_best_thresh`` of the v2.0 script: the best ×100 score over every threshold and
    the probability it is reached at."""
    no_answer = int(np.count_nonzero(~has_answer))
    gain = np.where(has_answer, raw, np.where(blank, 0, -1)).astype(np.float64)[order]
    running = np.cumsum(np.concatenate([[float(no_answer)], gain]))[1:]
    best, thresh = no_answer, 0.0
    if len(running) and running.max() > no_answer:
        peak = int(np.argmax(running))  # the first time the running score is highest
        best, thresh = float(running[peak]), probs[order[peak]]
    return 100.0 * best / len(raw), thresh


def check_mode(mode: str) -> None:
    """Refuse a SQuAD mode other than the official scripts' (``v1.1``, ``v2.0``)."""
    if mode not in SQUAD_MODES:
        raise UsageError(f"'mode' must be one of {', '.join(SQUAD_MODES)} (got {mode!r})")


def _check_scorable(dataset: SquadDataset, predictions, answered: np.ndarray, mode: str) -> None:
    """Raise where the official script would fail instead of printing scores."""
    if mode == "v1.1":
        no_gold = np.fromiter((not a for a in dataset.answers), dtype=bool, count=len(dataset))
        errors = [
            InputFileError(
                dataset.path, dataset.location(i), "answers",
                message=f"empty for question {dataset.qids[i]!r}, which has a prediction: the "
                        f"official v1.1 script takes the best score over the gold answers and "
                        f"fails when there is none (SQuAD 2.0 data: use --mode v2.0)",
            )
            for i in np.flatnonzero(no_gold & answered)
        ]
    else:  # v2.0: a question without a prediction is left out (see evaluate_squad)
        errors = []
    if errors:
        raise InputFileError.first_of(errors)


def _v11_result(dataset: SquadDataset, answered: np.ndarray, exact: np.ndarray, f1: np.ndarray):
    messages = []
    if dataset.version != "1.1":
        got = "no version" if dataset.version is None else f"v-{dataset.version}"
        messages.append(f"Evaluation expects v-1.1, but got dataset with {got}")
    messages += [f"Unanswered question {dataset.qids[i]} will receive score 0."
                 for i in np.flatnonzero(~answered)]
    total = len(dataset)
    exact_sum = int(np.count_nonzero(exact))
    # The script adds one question at a time; cumsum adds left to right as it does (np.sum
    # adds pairwise and can differ in the last bit). Unanswered questions add nothing.
    f1_sum = float(np.cumsum(f1)[-1]) if len(f1) else 0
    return {"exact_match": 100.0 * exact_sum / total, "f1": 100.0 * f1_sum / total}, messages


def _v20_result(dataset: SquadDataset, answered: np.ndarray, exact: np.ndarray,
                f1: np.ndarray, probs: np.ndarray | None = None,
                na_prob_thresh: float = 1.0) -> dict:
    has_answer = np.fromiter((bool(a) for a in dataset.answers), dtype=bool, count=len(dataset))
    # Questions scored against "" (no gold answer that normalizes to something).
    flat = [text for texts in dataset.answers for text in texts]
    owner = np.repeat(np.arange(len(dataset)), [len(texts) for texts in dataset.answers])
    kept = pc.not_equal(normalize_array(pa.array(flat, type=pa.string()), SQUAD), "")
    kept = kept.to_numpy(zero_copy_only=False).astype(bool)
    against_blank = np.bincount(owner[kept], minlength=len(dataset)) == 0
    # Only the questions with a prediction are scored and counted.
    has_answer, against_blank = has_answer[answered], against_blank[answered]
    # The script's per-question F1 is an int for 0 and for every score against "", a float
    # otherwise; sum() treats the two differently from Python 3.12 on, so keep the types.
    f1_scores = np.array(f1.tolist(), dtype=object)
    as_int = (f1 == 0) | against_blank
    f1_scores[as_int] = f1[as_int].astype(np.int64).tolist()
    exact_scores = exact.astype(np.int64)
    if probs is not None:
        # apply_no_ans_threshold: above the threshold, the question is answered "no answer"
        # and scores float(not has_answer) in both measures
        no_answer = np.array([p > na_prob_thresh for p in probs.tolist()], dtype=bool)
        exact_scores = exact_scores.astype(object)
        as_float = (~has_answer[no_answer]).astype(np.float64).tolist()
        exact_scores[no_answer] = as_float
        f1_scores[no_answer] = as_float

    def split(mask: np.ndarray) -> list[tuple[str, float | int]]:
        total = int(np.count_nonzero(mask))
        return [
            ("exact", 100.0 * sum(exact_scores[mask].tolist()) / total),
            ("f1", 100.0 * sum(f1_scores[mask].tolist()) / total),
            ("total", total),
        ]

    result = dict(split(np.ones(len(exact_scores), dtype=bool)))
    for prefix, mask in (("HasAns", has_answer), ("NoAns", ~has_answer)):
        if mask.any():
            result.update((f"{prefix}_{key}", value) for key, value in split(mask))
    return result


def format_result(result: Mapping[str, float | int], *, mode: str) -> str:
    """The result as the script prints it: v1.1 ``json.dumps(r)``, v2.0 with ``indent=2``."""
    return json.dumps(dict(result)) if mode == "v1.1" else json.dumps(dict(result), indent=2)
