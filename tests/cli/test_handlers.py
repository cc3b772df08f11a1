"""The commands' handlers, end to end: what each writes and prints, and what it refuses."""

from __future__ import annotations

import json


def write_items(tmp_path, lines, name="items.jsonl"):
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                            for line in lines), encoding="utf-8")
    return path


KITE = {"item": "kite", "referenceAnswer": "A red kite nests by the river.",
        "factChecklist": [{"fact": "bird", "requiredTerms": ["red kite"]},
                          {"fact": "place", "requiredTerms": ["river"]}]}


CAPITAL = {"item": "capital", "referenceAnswer": ["Paris", "Lutetia"]}


def test_cli_scores_an_items_file_and_names_unknown_items(tmp_path, monkeypatch, capsys):
    from recallscore_nb.cli.main import main

    monkeypatch.chdir(tmp_path)
    write_items(tmp_path, [KITE, CAPITAL])
    (tmp_path / "a.csv").write_text("item,attempt,system\nkite,A red kite by the river,s1\n"
                                    "capital,Paris,s2\n", encoding="utf-8")
    assert main(["score", "items.jsonl", "--attempts", "a.csv", "--out", "o.csv"]) == 0
    lines = (tmp_path / "o.csv").read_text().splitlines()
    assert lines[0] == ("id,item,attempt,system,literal_match,normalized_match,squad_exact_match,"
                        "token_f1,facts_present,facts_total,checklist_full_match,facts_missing")
    assert lines[2] == "1,capital,Paris,s2,true,true,true,1.0,,,,"
    assert lines[1].endswith(",2,2,true,")
    (tmp_path / "b.csv").write_text("item,attempt\nnope,x\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["score", "items.jsonl", "--attempts", "b.csv"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("recallscore: error: b.csv: item: 1 unknown item id(s) in the attempts, e.g. 'nope'")
    assert main(["score", "items.jsonl"]) == 2
