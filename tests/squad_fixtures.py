"""A small SQuAD v1.1 dataset and predictions, shared by the SQuAD tests (reading, scoring,
the command): every answer normalization case the official script meets."""

from __future__ import annotations

import json


def qa(qid, *answers, **extra):
    return {"id": qid, "question": f"question {qid}?",
            "answers": [{"text": a, "answer_start": 0} for a in answers], **extra}


def dataset(version, paragraphs_per_article):
    return {
        "version": version,
        "data": [
            {"title": f"article {a}",
             "paragraphs": [{"context": "…", "qas": qas} for qas in paragraphs]}
            for a, paragraphs in enumerate(paragraphs_per_article)
        ],
    }


V11 = dataset("1.1", [
    [
        [qa("q1", "the Eiffel Tower", "Eiffel Tower", "the Eiffel Tower"),
         qa("q2", "1889")],
        [qa("q3", "Denver Broncos"), qa("q4", "Santa Clara"), qa("q5", "“Super Bowl L”")],
    ],
    [
        [qa("q6", "24–10"), qa("q7", "an apple a day")],
        [qa("q8", "Paris"),
         qa("q9", "Santa Clara", "Levi's Stadium",
             "Levi's Stadium in the San Francisco Bay Area at Santa Clara, California."),
         qa("q10", "Ça va"), qa("q11", "token token")],
    ],
])


V11_PREDICTIONS = {
    "q1": "Eiffel tower.", "q2": "In 1889", "q3": "", "q5": "Super Bowl L", "q6": "24-10",
    "q7": "Apple, day!", "q8": "!!!", "q9": "Levi's Stadium, Santa Clara", "q10": "ÇA VA",
    "q11": "token", "not-in-dataset": "ignored by both scripts",
}


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False),
                    encoding="utf-8")
    return str(path)
