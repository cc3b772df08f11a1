"""The commands' handlers, end to end: what each writes and prints, and what it refuses."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from recallscore_nb.analysis.reproduce import reproduce
from recallscore_nb.cli.handlers import render_reproduction
from recallscore_nb.cli.main import main
from recallscore_nb.io.benchmarks import load_benchmark
from tests.conftest import CAPITAL, KITE, with_rows, write_benchmark, write_items
from tests.oracles import squad_official_port as official
from tests.squad_fixtures import V11, V11_PREDICTIONS, write as _write


def test_cli_scores_an_items_file_and_names_unknown_items(tmp_path, monkeypatch, capsys):
    from recallscore_nb.cli.main import main

    monkeypatch.chdir(tmp_path)
    write_items(tmp_path, [KITE, CAPITAL])
    (tmp_path / "a.csv").write_text("item,attempt,system\nkite,A red kite by the river,s1\n"
                                    "capital,Paris,s2\n", encoding="utf-8")
    assert main(["score", "items.jsonl", "--attempts", "a.csv", "--out", "o.csv"]) == 0
    lines = (tmp_path / "o.csv").read_text().splitlines()
    assert lines[0] == ("id,item,attempt,system,literal_match,normalized_match,squad_exact_match,"
                        "token_f1,contains,facts_present,facts_total,checklist_full_match,"
                        "facts_missing,equivalent,equivalent_step")
    assert lines[2] == "1,capital,Paris,s2,true,true,true,1.0,true,,,,,true,exact"
    # 3 of the reference's 4 content words (red kite nest river): the overlap step
    assert lines[1].endswith(",2,2,true,,true,overlap")
    (tmp_path / "b.csv").write_text("item,attempt\nnope,x\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["score", "items.jsonl", "--attempts", "b.csv"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("recallscore: error: b.csv: item: 1 unknown item id(s) in the attempts, e.g. 'nope'")
    assert main(["score", "items.jsonl"]) == 2


def test_cli_scores_a_gzipped_items_file_as_the_judged_sets_are_shipped(tmp_path, capsys):
    """``items.jsonl.gz`` is an items file, not a benchmark (it was read as one: exit 2,
    "not valid JSON")."""
    import pandas as pd

    from recallscore_nb.io.human_sets import SHIPPED_SETS

    shipped = SHIPPED_SETS["openqa-nq301"]
    out = tmp_path / "s.parquet"
    assert main(["score", str(shipped / "items.jsonl.gz"), "--attempts",
                 str(shipped / "attempts.parquet"), "--out", str(out), "--quiet"]) == 0
    scored = pd.read_parquet(out, columns=["contains"])
    assert (len(scored), int(scored["contains"].sum())) == (3612, 1851)


# --- the command line (once cli.py wires the command) ------------------------------------
def test_cli_squad(tmp_path):
    from recallscore_nb.cli import main as cli

    commands = next(a for a in cli.build_parser()._actions if a.dest == "command")
    if "squad" not in commands.choices:
        pytest.skip("cli.py does not wire 'recallscore squad' yet")
    dataset = _write(tmp_path, "dev.json", V11)
    predictions = _write(tmp_path, "pred.json", V11_PREDICTIONS)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(["squad", dataset, predictions, "--mode", "v1.1"])
    stdout, stderr = official.run_v11(V11, V11_PREDICTIONS)
    assert (code, out.getvalue(), err.getvalue()) == (0, stdout, "".join(f"{s}\n" for s in stderr))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(["squad", dataset, _write(tmp_path, "bad.json", '{"q1": 1}')])
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue() == (
        f"recallscore: error: {tmp_path}/bad.json: $: q1: expected a string, got 1\n")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["reproduce", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def reproduce_data(tmp_path, data) -> object:
    return reproduce(load_benchmark(write_benchmark(tmp_path, data=data)))


def test_out_dir_tables_byte_exact(bench_path, tmp_path, capsys):
    code, _, _ = run(capsys, bench_path, "--out-dir", tmp_path / "out")
    assert code == 0
    assert (tmp_path / "out" / "reproduce__rows.csv").read_text(encoding="utf-8") == (
        "id,condition,literalMatch_published,literalMatch_recomputed,"
        "normalizedMatch_published,normalizedMatch_recomputed,"
        "factsPresent_published,factsPresent_recomputed,"
        "checklistFullMatch_published,checklistFullMatch_recomputed,agrees\n"
        "K1,copied,true,true,true,true,3,3,true,true,true\n"
        "K2,shouted,false,false,true,true,3,3,true,true,true\n"
        "K3,reordered,false,false,false,false,3,3,true,true,true\n"
        "K4,term split,false,false,false,false,2,2,false,false,true\n"
        "K5,two facts changed,false,false,false,false,1,1,false,false,true\n"
    )
    assert (tmp_path / "out" / "reproduce__summary.csv").read_text(encoding="utf-8") == (
        "field,published,recomputed\n"
        "variantCount,5,5\n"
        "completeFactFixtures,3,3\n"
        "oneFactChangedOrMissingFixtures,2,2\n"
        "literalFullMatches,1,1\n"
        "normalizedFullMatches,2,2\n"
        "checklistFullMatches,3,3\n"
    )
    assert not any(p.name.endswith(".tmp") for p in (tmp_path / "out").iterdir())


def test_render_lists_every_difference(tmp_path):
    def edit(rows):
        rows[0].update(literalMatch=False)
        rows[4].update(factsPresent=2)
    lines = render_reproduction(reproduce_data(tmp_path, with_rows(edit)))
    at = lines.index("ROW FIELD published recomputed")
    assert lines[at + 1: at + 3] == ["K1 literalMatch false true", "K5 factsPresent 2 1"]
