"""Small sources for ``recallscore convert`` to break, one fault at a time: a two-question
OpenQA-eval checkout written as the real one is (TSVs without a final newline, the
InstructGPT file with its tab lost), an EVOUNA list, and a cut-down copy of the real
OpenQA-eval checkout (one model output and the four TSVs: fast to convert)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.human_judgments import OPENQA_EVAL

HEADERS = {
    "NQ301_human.tsv": "id\tQuestion\tModel answer\tAcceptable?\tannotator1\tannotator2\t"
                       "annotator3",
    "NQ301_BEM.tsv": "id\tQuestion\tGold answers\tModel answer\tAcceptable?\t"
                     "BEM probs per gold answer",
    "NQ301_gpt-4.tsv": "id\tQuestion\tModel answer\tAcceptable?\tgpt-4",
    "NQ301_text-davinci-003.tsv": "id\tQuestion\tModel answer\tAcceptable?\ttext-davinci-003",
}
ROWS = {
    "NQ301_human.tsv": ["1\tq one\tA one\tYes\tYes\tNo\tYes", "2\tq two\tb\tNo\tNo\tNo\t"],
    "NQ301_BEM.tsv": ['1\tq one\t"a1 | x"\tA one\tYes\t"[[0.9, 0.1]]"',
                      '2\tq two\t"a2"\tb\tNo\t"[[0.2, 0.8]]"'],
    "NQ301_gpt-4.tsv": ["1\tq one\tA one\tYes\tYes, it is.", "2\tq two\tb\t\t"],
    "NQ301_text-davinci-003.tsv": ["1\tq oneA one\tYes\tYes, the candidate is correct.",
                                   "2\tq twob\tNo\tNo."],
}
RECORDS = [{"question": "q one", "answer": ["a1", "x"], "prediction": "A one "},
           {"question": "q two", "answer": ["a2"], "prediction": ["b", "c"]}]


def jsonl(records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def openqa_checkout(root: Path, *, tsv: dict[str, str] | None = None,
                    outputs: dict[str, str | bytes] | None = None) -> Path:
    """A small OpenQA-eval checkout in ``root``; ``tsv`` replaces a TSV's text, ``outputs``
    a model output's (``NQ_A.jsonl`` and ``NQ301_B.jsonl`` by default)."""
    data = root / "data"
    (data / "model_outputs").mkdir(parents=True)
    texts = {name: "\n".join([HEADERS[name], *ROWS[name]]) for name in HEADERS}
    texts.update(tsv or {})
    for name, text in texts.items():
        (data / name).write_text(text, encoding="utf-8")
    files = {"NQ_A.jsonl": jsonl(RECORDS), "NQ301_B.jsonl": jsonl(RECORDS[1:])}
    files.update(outputs or {})
    for name, content in files.items():
        path = data / "model_outputs" / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return root


def real_checkout(root: Path) -> Path:
    """The real OpenQA-eval checkout cut down to ``NQ_DPR.jsonl`` and the four TSVs,
    writable, in ``root``."""
    (root / "data" / "model_outputs").mkdir(parents=True)
    shutil.copyfile(OPENQA_EVAL / "data" / "model_outputs" / "NQ_DPR.jsonl",
                    root / "data" / "model_outputs" / "NQ_DPR.jsonl")
    for name in HEADERS:
        shutil.copyfile(OPENQA_EVAL / "data" / name, root / "data" / name)
    return root


EVOUNA_RECORD = {"question": "q?", "golden_answer": "Paris/Lutetia", "improper": False,
                 **{f"answer_{s}": "Paris" for s in ("fid", "gpt35", "chatgpt", "gpt4",
                                                     "newbing")},
                 **{f"judge_{s}": True for s in ("fid", "gpt35", "chatgpt", "gpt4",
                                                 "newbing")}}
