"""``recallscore squad`` on the real SQuAD dev sets and leaderboard predictions in
``../shared/squad-real/``: the numbers the official scripts printed, keys in their order,
with and without ``--na-prob-file`` / ``--na-prob-thresh``, and ``--out-file``."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from recallscore_nb.cli.main import main
from recallscore_nb.workbook.paths import REPO_ROOT

REAL = REPO_ROOT.parent / "shared" / "squad-real"
pytestmark = pytest.mark.skipif(not (REAL / "expected-official-outputs.json").is_file(),
                                reason=f"the real SQuAD files are not at {REAL}")


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    """The folder's files, decompressed, in a folder of the test's own."""
    folder = tmp_path_factory.mktemp("squad-real")
    for gz in [*REAL.glob("*.json.gz"), *(REAL / "preds").glob("*.json.gz")]:
        with gzip.open(gz, "rb") as src, open(folder / gz.name.removesuffix(".gz"), "wb") as dst:
            shutil.copyfileobj(src, dst)
    shutil.copytree(REAL / "na-prob", folder / "na-prob")
    return folder


def _runs(name: str) -> list[dict]:
    if not (REAL / name).is_file():
        return []
    return json.loads((REAL / name).read_text(encoding="utf-8"))["runs"]


def _id(run: dict) -> str:
    thresh = run.get("na_prob_thresh")
    return run["predictions"] + ("" if thresh is None else f"@{thresh}")


def _squad(capsys, real, run, *extra) -> tuple[int, str]:
    argv = ["squad", str(real / run["dataset"]), str(real / run["predictions"]),
            "--mode", run["mode"], *extra]
    if run.get("na_prob_file"):
        argv += ["--na-prob-file", str(real / run["na_prob_file"])]
    if run.get("na_prob_thresh") is not None:
        argv += ["--na-prob-thresh", str(run["na_prob_thresh"])]
    code = main(argv)
    return code, capsys.readouterr().out


@pytest.mark.parametrize("run", _runs("expected-official-outputs.json"), ids=_id)
def test_the_official_numbers_keys_in_order(capsys, real, run):
    code, out = _squad(capsys, real, run)
    assert code == 0
    assert list(json.loads(out).items()) == list(run["official_stdout_parsed"].items())


@pytest.mark.parametrize("run", _runs("na-prob/expected-official-outputs.json"), ids=_id)
def test_no_answer_probabilities_and_the_best_thresholds(capsys, real, run):
    code, out = _squad(capsys, real, run)
    assert code == 0
    assert list(json.loads(out).items()) == list(run["official_stdout_parsed"].items())


def test_out_file_writes_what_the_script_writes_and_prints_nothing(capsys, real, tmp_path):
    run = _runs("na-prob/expected-official-outputs.json")[0]
    out_file = tmp_path / "eval.json"
    code, out = _squad(capsys, real, run, "--out-file", str(out_file))
    assert (code, out) == (0, "")
    text = out_file.read_text(encoding="utf-8")
    assert text == json.dumps(run["official_stdout_parsed"])  # json.dump(out_eval, f)
