"""recallscore probe from the command line: the gaming audit's files, the same bytes for the
same seed, and bad input as exit 2 with one line naming what is wrong."""

from __future__ import annotations

import json

import pandas as pd

from recallscore_nb.cli.main import main

CITIES = ["Paris", "Lyon", "Nice", "Oslo", "Rome", "Bern", "Kyiv", "Riga", "Baku", "Lima",
          "Quito", "Accra", "Hanoi", "1983"]


def items_file(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps({"item": f"q{i}", "referenceAnswer": [c],
                                        "question": f"which place is number {i}"}) + "\n"
                            for i, c in enumerate(CITIES)), encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def test_probe_writes_the_set_and_its_shares(capsys, tmp_path):
    code, out, err = run(capsys, "probe", items_file(tmp_path), "--out-dir", tmp_path / "out",
                         "--rules", "literal,contains", "--families", "list,refusal")
    assert (code, err) == (0, "")
    assert "14 items, 28 gaming answers (seed 0)" in out
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["gaming_answers.csv", "gaming_examples.csv", "gaming_probe.json",
                       "gaming_shares.csv"]
    shares = pd.read_csv(tmp_path / "out" / "gaming_shares.csv")
    got = shares.set_index(["rule", "family"])["accepted"].to_dict()
    assert got == {("literal_match", "list"): 0, ("literal_match", "refusal"): 0,
                   ("contains", "list"): 14, ("contains", "refusal"): 0}
    document = json.loads((tmp_path / "out" / "gaming_probe.json").read_text())
    assert (document["answers"], document["families"]) == (28, ["list", "refusal"])
    assert list(document["signatures"]) == ["literal_match", "contains"]
    assert [s.split("|")[1] for s in document["normalizer_signatures"]] == ["name:squad"]


def test_probe_same_seed_same_bytes(capsys, tmp_path):
    path = items_file(tmp_path)
    bytes_of = []
    for out_dir, seed in (("a", 3), ("b", 3), ("c", 4)):
        assert run(capsys, "probe", path, "--out-dir", tmp_path / out_dir, "--seed", seed,
                   "--rules", "contains")[0] == 0
        bytes_of.append((tmp_path / out_dir / "gaming_answers.csv").read_bytes())
    assert bytes_of[0] == bytes_of[1] != bytes_of[2]


def test_probe_unknown_names_exit_2_with_one_line(capsys, tmp_path):
    path = items_file(tmp_path)
    for option, value, said in (("--rules", "contain", "contain"),
                                ("--families", "lists", "unknown gaming family 'lists'"),
                                ("--rules", "literal,", "expected names separated by commas")):
        code, out, err = run(capsys, "probe", path, "--out-dir", tmp_path / "out", option, value)
        assert code == 2 and out == ""
        assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
        assert not (tmp_path / "out").exists()


def test_probe_bad_items_file_names_it(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"item": "q1", "referenceAnswer": 7}\n', encoding="utf-8")
    code, out, err = run(capsys, "probe", bad, "--out-dir", tmp_path / "out")
    assert code == 2 and "bad.jsonl" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
    missing = run(capsys, "probe", tmp_path / "none.jsonl", "--out-dir", tmp_path / "out")
    assert missing[0] == 2 and "none.jsonl" in missing[2]
