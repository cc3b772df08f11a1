"""The converter registry: a new data set is one record and its reader (CONTRIBUTING.md,
"Add a converter"), listed by the command, run end to end, its files loadable."""

from __future__ import annotations

import pandas as pd
import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.io import converters
from recallscore_nb.io.attempts import read_attempts
from recallscore_nb.io.converters import CONVERTERS, Converter, convert, register_converter
from recallscore_nb.io.items import load_items
from recallscore_nb.io.judgments import load_judgments


def read_lines(path) -> tuple[list[dict], pd.DataFrame, list[dict], list[str]]:
    """A made-up set: ``question<TAB>reference<TAB>answer<TAB>verdict`` per line."""
    items, attempts, judgments = [], [], []
    with open(path, encoding="utf-8") as source:
        for n, line in enumerate(source, 1):
            question, reference, answer, verdict = line.rstrip("\n").split("\t")
            item = f"made-{n:04d}"
            items.append({"item": item, "question": question, "referenceAnswer": [reference]})
            attempts.append({"item": item, "system": "made", "attempt": answer})
            judgments.append({"item": item, "judge": "human", "attempt": answer,
                              "verdict": verdict})
    return items, pd.DataFrame(attempts), judgments, [f"{len(items)} items"]


@pytest.fixture
def made_up(monkeypatch, tmp_path):
    monkeypatch.setattr(converters, "CONVERTERS", dict(CONVERTERS))
    register_converter(Converter("made-up", "a TSV file of four columns", read_lines,
                                 "attempt"))
    source = tmp_path / "made.tsv"
    source.write_text("Capital of Peru?\tLima\tIt is Lima.\ttrue\n"
                      "Capital of Ecuador?\tQuito\tBogotá\tfalse\n", encoding="utf-8")
    return source


def test_a_registered_converter_runs_from_the_command_line(made_up, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["convert", "made-up", str(made_up), "--out-dir", str(out)]) == 0
    assert capsys.readouterr().out.startswith("2 items\nwrote ")
    items = load_items(out / "items.jsonl")
    attempts = read_attempts(out / "attempts.parquet")
    assert attempts["attempt"].tolist() == ["It is Lima.", "Bogotá"]
    judgments = load_judgments(out / "judgments.csv", items, attempts)
    assert judgments.on_attempts["verdict"].tolist() == [True, False]


def test_the_command_lists_the_registered_converters(made_up, capsys):
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    assert "openqa-eval, evouna, efficientqa, made-up" in capsys.readouterr().out


def test_a_name_registered_twice_or_an_unknown_kind_is_refused(made_up, tmp_path):
    with pytest.raises(ValueError, match="registered already"):
        register_converter(Converter("made-up", "x", read_lines, "attempt"))
    with pytest.raises(ValueError, match="key must be"):
        register_converter(Converter("other", "x", read_lines, "id"))
    with pytest.raises(Exception, match="unknown data set 'nope'.*made-up"):
        convert("nope", made_up, tmp_path / "o")


def test_a_folder_converter_refuses_a_file(made_up, tmp_path):
    with pytest.raises(Exception, match="not a folder; give the OpenQA-eval checkout"):
        convert("openqa-eval", made_up, tmp_path / "o")
