"""recallscore agree and convert from the command line: what they write and print, and bad
input as exit 2 with one line naming file, row and field."""

from __future__ import annotations

import pandas as pd
import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.io.data import JUDGED_EXAMPLE as EXAMPLE


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def agree(capsys, tmp_path, *extra, judgments=EXAMPLE / "judgments.csv"):
    return run(capsys, "agree", EXAMPLE / "items.jsonl", "--attempts", EXAMPLE / "attempts.csv",
               "--judgments", judgments, "--out-dir", tmp_path / "out", "--resamples", 50,
               *extra)


def test_agree_writes_every_table(capsys, tmp_path):
    code, out, err = agree(capsys, tmp_path, "--annotators", "annotator1,annotator2,annotator3")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == ("agree|protocol:direct|reference:human|f1-threshold:0.5|"
                                   "version:0.1.0")
    assert "24 of 24 attempts judged by human" in out
    from recallscore_nb.core.registry import signatures

    assert out.splitlines()[2:2 + len(signatures())] == signatures()  # rules', normalizers'
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["agreement.csv", "annotators.csv", "disagreements.csv", "panel.csv",
                       "panel_pairs.csv", "ranking.csv", "systems.csv"]
    panel = pd.read_csv(tmp_path / "out" / "panel.csv")
    assert panel["rater"].tolist()[:3] == ["annotator1", "annotator2", "annotator3"]
    assert "kappa_majority_of_others" in panel.columns
    systems = pd.read_csv(tmp_path / "out" / "systems.csv")
    assert systems.columns.tolist() == ["system", "measure", "n", "mean", "low", "high"]
    agreement = pd.read_csv(tmp_path / "out" / "agreement.csv")
    assert agreement.columns.tolist()[:7] == ["rule", "judge", "n", "accuracy", "kappa",
                                              "precision", "recall"]
    assert "kappa_low" in agreement.columns and "recall_high" in agreement.columns


def test_agree_is_seeded(capsys, tmp_path):
    agree(capsys, tmp_path / "a", "--seed", 5)
    agree(capsys, tmp_path / "b", "--seed", 5)
    assert (tmp_path / "a/out/systems.csv").read_bytes() == (
        tmp_path / "b/out/systems.csv").read_bytes()


def test_agree_bad_judgment_is_exit_2_naming_row_and_field(capsys, tmp_path):
    bad = tmp_path / "j.csv"
    bad.write_text("item,system,judge,verdict\nhamlet,span,human,yes\nnope,span,human,no\n")
    code, out, err = agree(capsys, tmp_path, judgments=bad)
    assert code == 2 and out == ""
    assert err.strip().endswith(f"{bad}: line 3: item: unknown item 'nope' (not in "
                                f"{EXAMPLE / 'items.jsonl'})")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(("extra", "message"), [
    (("--reference-judge", "bem"), "unknown reference judge 'bem'"),
    (("--annotators", "annotator1,zed"), "unknown annotator 'zed'"),
])
def test_agree_bad_options_exit_2(capsys, tmp_path, extra, message):
    code, _, err = agree(capsys, tmp_path, *extra)
    assert code == 2 and message in err and "Traceback" not in err


def test_agree_unknown_protocol_is_a_usage_error(capsys, tmp_path):
    with pytest.raises(SystemExit) as info:
        agree(capsys, tmp_path, "--protocol", "nope")
    assert info.value.code == 2 and "invalid choice: 'nope'" in capsys.readouterr().err


def test_convert_refuses_what_is_not_its_data(capsys, tmp_path):
    code, _, err = run(capsys, "convert", "openqa-eval", EXAMPLE / "items.jsonl", "--out-dir",
                       tmp_path)
    assert code == 2 and "not a folder" in err
    code, _, err = run(capsys, "convert", "evouna", tmp_path / "missing.json.gz", "--out-dir",
                       tmp_path)
    assert code == 2 and "missing.json.gz" in err and "Traceback" not in err
