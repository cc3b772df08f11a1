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
    dataset: SquadDataset, predictions: Mapping[str, str], *, mode: str = "v1.1"
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

    Returns
    -------
    result : dict
        The script's output, in its key order: v1.1 ``exact_match, f1``; v2.0 ``exact, f1,
        total`` then ``HasAns_*`` and ``NoAns_*`` when those questions exist (×100 means).
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
    return _v20_result(dataset, answered, exact, f1), missing


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
                f1: np.ndarray) -> dict:
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

    def split(mask: np.ndarray) -> list[tuple[str, float | int]]:
        total = int(np.count_nonzero(mask))
        return [
            ("exact", 100.0 * int(exact_scores[mask].sum()) / total),
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
