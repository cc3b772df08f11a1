"""``recallscore squad``: the official scripts' numbers, messages and output format.

Each case is compared with ``squad_official_port`` (the scripts ported question by question)
with ``==`` on the floats: a paper may say its numbers *equal* the official script's.

The small datasets below hold, question by question (v1.1 F1 worked by hand):

====  ===============================  =============================  ======  =====
id    gold answers                     prediction                     EM      F1
====  ===============================  =============================  ======  =====
q1    the Eiffel Tower / Eiffel Tower  "Eiffel tower."                1       1
q2    1889                             "In 1889"                      0       2/3
q3    Denver Broncos                   "" (empty)                     0       0
q4    Santa Clara                      (missing)                      0       0
q5    “Super Bowl L”                   "Super Bowl L"                 0       1/3
q6    24–10 (en dash)                  "24-10"                        0       0
q7    an apple a day                   "Apple, day!"                  1       1
q8    Paris                            "!!!"                          0       0
q9    three alternatives               "Levi's Stadium, Santa Clara"  0       2/3
q10   Ça va                            "ÇA VA"                        1       1
q11   token token                      "token"                        0       2/3
====  ===============================  =============================  ======  =====

q5: curly quotes are not ``string.punctuation``, so the gold tokens are ``“super bowl l”``
and only ``bowl`` is shared (1/3 and 1/3). q6: the en dash stays, the hyphen goes, so
``24–10`` never meets ``2410``. q9: the prediction's tokens are ``levis stadium santa clara``;
against ``Santa Clara`` or ``Levi's Stadium`` p=2/4, r=1, F1=2/3; against the long answer (11
tokens once ``the`` is gone) p=1, r=4/11, F1=8/15; the best is 2/3.
"""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from recallscore_nb.analysis.squad_eval import evaluate_squad
from recallscore_nb.cli.handlers import squad_command
from recallscore_nb.core.errors import InputFileError, UsageError
from recallscore_nb.io.squad_files import parse_squad_dataset
from tests.oracles import squad_official_port as official
from tests.squad_fixtures import V11, V11_PREDICTIONS, dataset as _dataset, qa as _qa, write as _write


V11_EM = [1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]


V11_F1 = [1, 2 / 3, 0, 0, 1 / 3, 0, 1, 0, 2 / 3, 1, 2 / 3]


# v2.0: answerable questions, impossible ones (no answers), and answers that normalize to ""
# (has an answer for the HasAns split, but scored against "").
V20 = _dataset("v2.0", [
    [
        [_qa("a1", "the Eiffel Tower", "Eiffel Tower"), _qa("a2", "1889"),
         _qa("n1", is_impossible=True, plausible_answers=[{"text": "1887", "answer_start": 0}]),
         _qa("n2", is_impossible=True)],
        [_qa("e1", "The", "!!"), _qa("e2", "a"), _qa("m1", "a", "Paris", "an"),
         _qa("a3", "“Super Bowl L”", "Super Bowl L")],
    ],
    [
        [_qa("n3", is_impossible=True), _qa("a4", "Denver Broncos"),
         _qa("a5", "token token", "the token"), _qa("n4", is_impossible=True)],
    ],
])


V20_PREDICTIONS = {
    "a1": "Eiffel", "a2": "1889.", "n1": "", "n2": "1887", "e1": "", "e2": "the Paris",
    "m1": "", "a3": "bowl L”", "n3": "The", "a4": "", "a5": "token, token the",
    "n4": "no answer", "extra": "not in the dataset",
}


def _official(dataset, predictions, mode):
    """(stdout text, stderr lines) of the ported script; raises where the script fails."""
    if mode == "v1.1":
        return official.run_v11(dataset, predictions)
    return official.run_v20(dataset, predictions), []


# --- parity with the official scripts ----------------------------------------------------
@pytest.mark.parametrize("mode, dataset, predictions",
                         [("v1.1", V11, V11_PREDICTIONS), ("v2.0", V20, V20_PREDICTIONS)])
def test_squad_command_prints_what_the_official_script_prints(tmp_path, mode, dataset, predictions):
    stdout, stderr = _official(dataset, predictions, mode)
    json_text, messages = squad_command(_write(tmp_path, "dev.json", dataset),
                                        _write(tmp_path, "pred.json", predictions), mode)
    assert json_text + "\n" == stdout  # same keys, order, floats and layout
    assert messages == stderr


def test_v11_table_by_hand_matches_the_script():
    for qa, em, f1 in zip((qa for a in V11["data"] for p in a["paragraphs"] for qa in p["qas"]),
                          V11_EM, V11_F1):
        prediction = V11_PREDICTIONS.get(qa["id"])
        if prediction is None:
            continue
        truths = [answer["text"] for answer in qa["answers"]]
        assert official._v11_best(official._v11_exact, prediction, truths) == em, qa["id"]
        assert official._v11_best(official._v11_f1, prediction, truths) == f1, qa["id"]


def test_v11_numbers_by_hand():
    result, messages = evaluate_squad(parse_squad_dataset(V11), V11_PREDICTIONS, mode="v1.1")
    assert list(result) == ["exact_match", "f1"]
    assert result["exact_match"] == 100.0 * sum(V11_EM) / 11 == 100.0 * 3 / 11
    assert result["f1"] == pytest.approx(100.0 * sum(V11_F1) / 11, rel=1e-15)
    assert messages == ["Unanswered question q4 will receive score 0."]


def test_v20_numbers_by_hand():
    """HasAns: a1 ``eiffel`` vs ``eiffel tower`` 2/3; a2 exact; e1 (golds ``The``, ``!!``
    normalize to nothing, so it is scored against "") "" exact; e2 "the Paris" vs "" 0; m1 ""
    vs ``Paris`` (``a`` and ``an`` dropped) 0; a3 ``bowl l”`` vs ``“super bowl l”`` p=1,
    r=2/3, F1 4/5; a4 "" 0; a5 ``token token`` exact. NoAns: n1 "" and n3 "The" right, n2
    and n4 wrong."""
    result, messages = evaluate_squad(parse_squad_dataset(V20), V20_PREDICTIONS, mode="v2.0")
    assert messages == []
    assert list(result) == ["exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total",
                            "NoAns_exact", "NoAns_f1", "NoAns_total"]
    assert (result["total"], result["HasAns_total"], result["NoAns_total"]) == (12, 8, 4)
    assert result["exact"] == 100.0 * 5 / 12
    assert result["HasAns_exact"] == 100.0 * 3 / 8
    assert result["HasAns_f1"] == pytest.approx(100.0 * (2 / 3 + 1 + 1 + 4 / 5 + 1) / 8)
    assert result["NoAns_exact"] == result["NoAns_f1"] == 100.0 * 2 / 4
    assert result["f1"] == pytest.approx(100.0 * (2 / 3 + 1 + 1 + 4 / 5 + 1 + 2) / 12)


def test_v11_version_warning_comes_first():
    dataset = copy.deepcopy(V11)
    dataset["version"] = "v2.0"
    _, stderr = official.run_v11(dataset, V11_PREDICTIONS)
    _, messages = evaluate_squad(parse_squad_dataset(dataset), V11_PREDICTIONS, mode="v1.1")
    assert messages == stderr
    assert messages[0] == "Evaluation expects v-1.1, but got dataset with v-v2.0"


def test_v11_every_question_unanswered():
    stdout, stderr = official.run_v11(V11, {})
    result, messages = evaluate_squad(parse_squad_dataset(V11), {}, mode="v1.1")
    assert json.dumps(result) + "\n" == stdout == '{"exact_match": 0.0, "f1": 0.0}\n'
    assert messages == stderr and len(messages) == 11


def _random_case(seed: int, n: int):
    """A seeded dataset in both formats with articles, punctuation, non-ASCII text, answers
    that normalize to nothing, impossible questions, repeated tokens and empty predictions."""
    rng = random.Random(seed)
    words = ["the", "a", "an", "tower", "Tower", "bowl", "L", "1889", "ça", "Ça", "“quote”",
             "x-ray", "x–ray", "token", "token", "Denver", "!!", "?", "é", "don't", "U.S."]
    phrase = lambda k: " ".join(rng.choice(words) for _ in range(k))  # noqa: E731
    qas11, qas20, preds11, preds20 = [], [], {}, {}
    for i in range(n):
        golds = [phrase(rng.randint(1, 5)) for _ in range(rng.randint(1, 3))]
        qas11.append(_qa(f"q{i}", *golds))
        impossible = rng.random() < 0.3
        qas20.append(_qa(f"q{i}", *([] if impossible else golds), is_impossible=impossible))
        prediction = rng.choice(["", phrase(rng.randint(1, 6)), golds[0], golds[-1] + "."])
        preds20[f"q{i}"] = prediction
        if rng.random() < 0.9:
            preds11[f"q{i}"] = prediction
    chunks = lambda qas: [[qas[j:j + 7] for j in range(k, k + 21, 7)]  # noqa: E731
                          for k in range(0, len(qas), 21)]
    return (_dataset("1.1", chunks(qas11)), preds11), (_dataset("v2.0", chunks(qas20)), preds20)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_datasets_agree_to_the_last_bit(seed):
    (d11, p11), (d20, p20) = _random_case(seed, 630)
    for mode, dataset, predictions in (("v1.1", d11, p11), ("v2.0", d20, p20)):
        stdout, stderr = _official(dataset, predictions, mode)
        result, messages = evaluate_squad(parse_squad_dataset(dataset), predictions, mode=mode)
        assert (json.dumps(result, indent=None if mode == "v1.1" else 2) + "\n", messages) == (
            stdout, stderr)


def test_the_random_data_tells_summation_orders_apart():
    """The parity above would catch a pairwise sum (``np.sum``): on this data it differs."""
    (d11, p11), _ = _random_case(0, 630)
    result, _ = official.evaluate_v11(d11["data"], p11)
    questions = [qa for art in d11["data"] for par in art["paragraphs"] for qa in par["qas"]]
    best = official._v11_best
    scores = [best(official._v11_f1, p11[qa["id"]], [a["text"] for a in qa["answers"]])
              for qa in questions if qa["id"] in p11]
    assert 100.0 * float(np.sum(np.array(scores, dtype=float))) / 630 != result["f1"]


def test_v20_sums_ints_and_floats_as_the_script_does(monkeypatch):
    """v2.0 F1 scores keep the script's types (int 0, int 0/1 against "", float otherwise)."""
    import builtins

    seen = []
    real_sum = builtins.sum

    def spy(values, *args):
        values = list(values)
        seen.append([type(v) for v in values])
        return real_sum(values, *args)

    stdout: list[str] = []
    monkeypatch.setattr(builtins, "sum", spy)
    official.evaluate_v20(V20["data"], V20_PREDICTIONS, stdout)
    # The two sums over all 12 questions: exact (ints), then F1 (the per-answer sums are shorter).
    exact_types, expected_types = [t for t in seen if len(t) == 12]
    assert exact_types == [int] * 12
    seen.clear()
    evaluate_squad(parse_squad_dataset(V20), V20_PREDICTIONS, mode="v2.0")
    monkeypatch.undo()
    assert expected_types == [float, float, int, int, int, int, int, float, int, int, float, int]
    assert expected_types in seen


@pytest.mark.parametrize("keep, keys", [
    ("n", ["exact", "f1", "total", "NoAns_exact", "NoAns_f1", "NoAns_total"]),
    ("a", ["exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total"]),
])
def test_v20_split_only_for_questions_that_exist(keep, keys):
    data = copy.deepcopy(V20)
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            paragraph["qas"] = [qa for qa in paragraph["qas"] if qa["id"].startswith(keep)]
    stdout = official.run_v20(data, V20_PREDICTIONS)
    result, _ = evaluate_squad(parse_squad_dataset(data), V20_PREDICTIONS, mode="v2.0")
    assert json.dumps(result, indent=2) + "\n" == stdout
    assert list(result) == keys


# --- how each version treats a missing prediction ----------------------------------------
def test_v20_leaves_a_missing_prediction_out_of_the_total(tmp_path):
    predictions = {k: v for k, v in V20_PREDICTIONS.items() if k not in ("a2", "n4")}
    stdout: list[str] = []
    with pytest.raises(KeyError):  # the script computes its HasAns/NoAns split and stops
        official.evaluate_v20(V20["data"], predictions, stdout)
    assert stdout == ["Missing prediction for a2", "Missing prediction for n4"]
    # What it prints once the unanswered questions are taken out of the dataset:
    answered = copy.deepcopy(V20)
    for article in answered["data"]:
        for paragraph in article["paragraphs"]:
            paragraph["qas"] = [q for q in paragraph["qas"] if q["id"] in predictions]
    expected = official.evaluate_v20(answered["data"], predictions, [])
    text, messages = squad_command(_write(tmp_path, "dev.json", V20),
                                   _write(tmp_path, "pred.json", predictions), "v2.0")
    assert json.loads(text) == dict(expected)
    assert text == json.dumps(expected, indent=2)
    assert messages == ["Missing prediction for a2", "Missing prediction for n4"]


def test_v11_prediction_without_gold_answer_is_an_error():
    with pytest.raises(ValueError):  # max() of no score, in the script
        official.run_v11({"version": "1.1", "data": V20["data"]}, V20_PREDICTIONS)
    with pytest.raises(InputFileError) as caught:
        evaluate_squad(parse_squad_dataset(V20, "dev-v2.0.json"), V20_PREDICTIONS, mode="v1.1")
    err = caught.value
    assert [(e.location, e.field) for e in err.errors] == [
        ("$.data[0].paragraphs[0].qas[2]", "answers"),
        ("$.data[0].paragraphs[0].qas[3]", "answers"),
        ("$.data[1].paragraphs[0].qas[0]", "answers"),
        ("$.data[1].paragraphs[0].qas[3]", "answers"),
    ]
    assert str(err).startswith("dev-v2.0.json: $.data[0].paragraphs[0].qas[2]: answers: empty")
    assert "--mode v2.0" in str(err)


def test_v11_unanswered_impossible_question_scores_zero():
    predictions = {k: v for k, v in V20_PREDICTIONS.items() if not k.startswith("n")}
    stdout, stderr = official.run_v11(V20, predictions)
    result, messages = evaluate_squad(parse_squad_dataset(V20), predictions, mode="v1.1")
    assert json.dumps(result) + "\n" == stdout
    assert messages == stderr
    assert messages == ["Evaluation expects v-1.1, but got dataset with v-v2.0"] + [
        f"Unanswered question n{i} will receive score 0." for i in range(1, 5)]


def test_unknown_mode_is_a_usage_error():
    with pytest.raises(UsageError, match="'mode' must be one of v1.1, v2.0"):
        squad_command("dev.json", "pred.json", "v3")
    with pytest.raises(UsageError):
        evaluate_squad(parse_squad_dataset(V11), {}, mode="2.0")


# --- issue 12: the v2.0 script's no-answer probabilities, by hand --------------------------
NA_DATA = _dataset("v2.0", [[[_qa("a", "Paris"), _qa("b", "Rome"), _qa("c"), _qa("d")]]])
NA_PREDS = {"a": "Paris", "b": "Milan", "c": "", "d": "Oslo"}


def test_no_answer_probabilities_by_hand():
    """a right (1), b wrong (0), c rightly blank, d wrongly answered. Walking by probability
    d 0.1, a 0.2, b 0.6, c 0.9 from 'answer nothing' (2 no-answer questions right): d -1 → 1,
    a +1 → 2, b +0 → 2, c +0 → 2; never above 2, so best 2/4 at threshold 0.0."""
    probs = {"c": 0.9, "b": 0.6, "a": 0.2, "d": 0.1}
    result, _ = evaluate_squad(parse_squad_dataset(NA_DATA), NA_PREDS, mode="v2.0",
                               na_probs=probs)
    assert list(result)[-4:] == ["best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh"]
    assert (result["exact"], result["best_exact"], result["best_exact_thresh"]) == (50.0, 50.0, 0.0)
    # threshold 0.5: b and c count as "no answer": b (has an answer) 0.0, c 1.0
    result, _ = evaluate_squad(parse_squad_dataset(NA_DATA), NA_PREDS, mode="v2.0",
                               na_probs=probs, na_prob_thresh=0.5)
    assert result["exact"] == 100.0 * 2 / 4 and result["NoAns_exact"] == 50.0
    # d sure to be unanswerable: answering nothing there first gains 1 at d's probability
    result, _ = evaluate_squad(parse_squad_dataset(NA_DATA), NA_PREDS, mode="v2.0",
                               na_probs={"a": 0.1, "b": 0.6, "c": 0.9, "d": 0.95})
    assert (result["best_exact"], result["best_exact_thresh"]) == (75.0, 0.1)


def test_no_answer_probabilities_are_refused_where_the_script_would_fail():
    dataset = parse_squad_dataset(NA_DATA)
    with pytest.raises(UsageError, match="options of the v2.0 script"):
        evaluate_squad(dataset, NA_PREDS, mode="v1.1", na_probs={"a": 0.5})
    with pytest.raises(InputFileError, match="no no-answer probability for question 'b'"):
        evaluate_squad(dataset, NA_PREDS, mode="v2.0", na_probs={"a": 0.5})


def test_a_threshold_without_a_file_takes_every_probability_as_zero():
    dataset = parse_squad_dataset(NA_DATA)
    result, _ = evaluate_squad(dataset, NA_PREDS, mode="v2.0", na_prob_thresh=-1)
    assert result["exact"] == 50.0 and result["HasAns_exact"] == 0.0  # all "no answer"
    assert "best_exact" not in result
