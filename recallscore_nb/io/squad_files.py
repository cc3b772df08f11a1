"""SQuAD's own files: an official dataset (``{"version", "data": [{"paragraphs": [{"qas":
[{"id", "answers": [{"text"}]}]}]}]}``) and a predictions file (a JSON object, question id ->
predicted answer), read and validated as the official evaluation scripts read them.

Only what the scripts read is required; every problem is collected and named by file, JSON
path and field. Question ids must be unique strings (the scripts key scores by id; the
official files never repeat one), and the dataset must hold at least one question (the scripts
divide by the count). :func:`recallscore_nb.analysis.squad_eval.evaluate_squad` scores them.

>>> data = {"version": "1.1", "data": [{"paragraphs": [{"qas": [
...     {"id": "q1", "answers": [{"text": "Eiffel"}]}]}]}]}
>>> parse_squad_dataset(data, "dev.json").qids
('q1',)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import InputFileError
from .files import read_input
from .jsondocs import JsonPath, json_path, load_json, render, split_path

__all__ = ["SquadDataset", "SquadPredictions", "NoAnswerProbabilities", "read_squad_dataset",
           "parse_squad_dataset", "read_predictions", "parse_predictions", "read_na_probs"]


@dataclass(frozen=True, eq=False)
class SquadDataset:
    """The questions of a SQuAD dataset file, flattened in file order.

    Attributes
    ----------
    path : str
        The file as the user named it.
    version : str or None
        The file's ``version`` (``None`` when it has none).
    qids : tuple of str
        Each question's ``id``, unique.
    answers : tuple of tuple of str
        Each question's gold answer texts (``answers[*].text``), possibly none.
    positions : tuple of (int, int, int)
        Each question's (article, paragraph, question) indices, to name its JSON path.
    """

    path: str
    version: str | None
    qids: tuple[str, ...]
    answers: tuple[tuple[str, ...], ...]
    positions: tuple[tuple[int, int, int], ...]

    def __len__(self) -> int:
        return len(self.qids)

    def location(self, i: int) -> str:
        """The JSON path of question ``i``: ``$.data[0].paragraphs[1].qas[2]``."""
        a, p, q = self.positions[i]
        return f"$.data[{a}].paragraphs[{p}].qas[{q}]"


@dataclass(frozen=True, eq=False)
class SquadPredictions(Mapping):
    """A predictions file: a read-only mapping of question id to predicted answer text."""

    path: str
    answers: Mapping[str, str]

    def __getitem__(self, qid: str) -> str:
        return self.answers[qid]

    def __iter__(self) -> Iterator[str]:
        return iter(self.answers)

    def __len__(self) -> int:
        return len(self.answers)


# --- reading and validating --------------------------------------------------------------
def read_squad_dataset(path: str | os.PathLike) -> SquadDataset:
    """Read and validate an official SQuAD dataset file (v1.1 or v2.0).

    Every problem is collected; the error raised is the first, carrying all of them in
    ``errors``, each naming the file, the JSON path and the field
    (``dev.json: $.data[0].paragraphs[1].qas[2]: answers: expected an array, got null``).
    Only what the official scripts read is required: ``data``, ``paragraphs``, ``qas``,
    ``id``, ``answers`` and ``answers[*].text``; ``version``, when present, must be a string.

    Raises
    ------
    InputFileError
        The file is missing, not a regular file, not UTF-8 JSON data (see
        :func:`recallscore_nb.io.jsondocs.load_json`: a repeated key, a number that is not
        finite, a lone surrogate, nesting too deep), or not a SQuAD dataset.
    """
    name = os.fspath(path)
    return parse_squad_dataset(load_json(read_input(name), name, InputFileError), name)


def parse_squad_dataset(data: Any, name: str = "<dataset>") -> SquadDataset:
    """Validate an already-parsed SQuAD dataset (see :func:`read_squad_dataset`)."""
    errors: list[InputFileError] = []

    def problem(parts: JsonPath, expected: str, value: Any = None, *, missing: bool = False):
        location, field = split_path(parts)
        if missing:
            error = InputFileError(name, location, field, message=f"missing (expected {expected})")
        else:
            error = InputFileError(name, location, field, expected=expected, got=render(value))
        errors.append(error)

    def array_at(holder: dict, parts: JsonPath, key: str, what: str) -> list:
        if key not in holder:
            problem((*parts, key), f"an array of {what}", missing=True)
            return []
        value = holder[key]
        if not isinstance(value, list):
            problem((*parts, key), f"an array of {what}", value)
            return []
        return value

    if not isinstance(data, dict):
        raise InputFileError(name, "$", expected="an object with a 'data' array", got=render(data))
    version = data.get("version")
    if "version" in data and not isinstance(version, str):
        problem(("version",), "a string", version)
        version = None
    qids: list[str] = []
    answers: list[tuple[str, ...]] = []
    positions: list[tuple[int, int, int]] = []
    first_seen: dict[str, int] = {}
    for a, article in enumerate(array_at(data, (), "data", "articles")):
        if not isinstance(article, dict):
            problem(("data", a), "an article object", article)
            continue
        for p, paragraph in enumerate(array_at(article, ("data", a), "paragraphs", "paragraphs")):
            at_p = ("data", a, "paragraphs", p)
            if not isinstance(paragraph, dict):
                problem(at_p, "a paragraph object", paragraph)
                continue
            for q, qa in enumerate(array_at(paragraph, at_p, "qas", "questions")):
                at_q = (*at_p, "qas", q)
                if not isinstance(qa, dict):
                    problem(at_q, "a question object", qa)
                    continue
                qid, texts = _question(qa, at_q, problem, array_at)
                if not isinstance(qid, str):
                    continue
                if qid in first_seen:
                    first = json_path(_question_parts(positions[first_seen[qid]]))
                    errors.append(InputFileError(
                        name, json_path(at_q), "id",
                        message=f"duplicate question id {qid!r}, first at {first} (the official "
                                f"scripts key scores by id)",
                    ))
                    continue
                first_seen[qid] = len(qids)
                qids.append(qid)
                answers.append(tuple(texts))
                positions.append((a, p, q))
    if errors:
        raise InputFileError.first_of(errors)
    if not qids:
        raise InputFileError(name, "$", "data", message="holds no question (the official scripts "
                                                        "divide by the number of questions)")
    return SquadDataset(name, version, tuple(qids), tuple(answers), tuple(positions))


def _question(qa: dict, at_q: JsonPath, problem, array_at) -> tuple[Any, list[str]]:
    """(the question's id as found, the texts of its well-formed answers); each fault goes to
    ``problem`` (:func:`parse_squad_dataset`'s collector), in the order of the fields."""
    qid = qa.get("id")
    if "id" not in qa:
        problem((*at_q, "id"), "a string", missing=True)
    elif not isinstance(qid, str):
        problem((*at_q, "id"), "a string", qid)
    texts = []
    for n, answer in enumerate(array_at(qa, at_q, "answers", "answer objects")):
        if not isinstance(answer, dict):
            problem((*at_q, "answers", n), "an answer object", answer)
        elif "text" not in answer:
            problem((*at_q, "answers", n, "text"), "a string", missing=True)
        elif not isinstance(answer["text"], str):
            problem((*at_q, "answers", n, "text"), "a string", answer["text"])
        else:
            texts.append(answer["text"])
    return qid, texts


def read_predictions(path: str | os.PathLike) -> SquadPredictions:
    """Read a predictions file: one JSON object mapping each question id to a string.

    A value that is not a string is an error (the scripts normalize it as text), and so is a
    repeated key (``json.load`` would keep the last one silently).

    Raises
    ------
    InputFileError
        The file is missing, not a regular file, not UTF-8 JSON data (as for
        :func:`read_squad_dataset`), or not such an object.
    """
    name = os.fspath(path)
    return parse_predictions(load_json(read_input(name), name, InputFileError), name)


def parse_predictions(data: Any, name: str = "<predictions>") -> SquadPredictions:
    """Validate already-parsed predictions (a dict; see :func:`read_predictions`)."""
    if not isinstance(data, dict):
        raise InputFileError(name, "$", expected="an object mapping question ids to answer strings",
                             got=render(data))
    errors = [InputFileError(name, *split_path((qid,)), expected="a string", got=render(value))
              for qid, value in data.items() if not isinstance(value, str)]
    if errors:
        raise InputFileError.first_of(errors)
    return SquadPredictions(name, dict(data))


@dataclass(frozen=True)
class NoAnswerProbabilities(Mapping):
    """A no-answer probability file (the v2.0 script's ``--na-prob-file``): a read-only
    mapping of question id to probability, in the file's order."""

    path: str
    probabilities: Mapping[str, float]

    def __getitem__(self, qid: str) -> float:
        return self.probabilities[qid]

    def __iter__(self) -> Iterator[str]:
        return iter(self.probabilities)

    def __len__(self) -> int:
        return len(self.probabilities)


def read_na_probs(path: str | os.PathLike) -> NoAnswerProbabilities:
    """Read a no-answer probability file: one JSON object mapping each question id to a
    number (the script compares it with the threshold; a boolean or a string is refused).

    Raises
    ------
    InputFileError
        Missing, not a regular file, not UTF-8 JSON data, or not such an object (every
        value that is not a number named).
    """
    name = os.fspath(path)
    data = load_json(read_input(name), name, InputFileError)
    if not isinstance(data, dict):
        raise InputFileError(name, "$", expected="an object mapping question ids to "
                             "no-answer probabilities", got=render(data))
    errors = [InputFileError(name, *split_path((qid,)), expected="a number", got=render(value))
              for qid, value in data.items()
              if isinstance(value, bool) or not isinstance(value, (int, float))]
    if errors:
        raise InputFileError.first_of(errors)
    return NoAnswerProbabilities(name, dict(data))


def _question_parts(position: tuple[int, int, int]) -> JsonPath:
    a, p, q = position
    return ("data", a, "paragraphs", p, "qas", q)
