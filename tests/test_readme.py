"""The README's shell examples, run verbatim from the repository root, as a reader would.

Every line of every ```bash block runs in one bash (so the README's own `. .venv/bin/activate`
holds for the lines after it), in the repository root, with relative paths as written; only
the set-up commands (`make …`) are left out, since the tests themselves run under them. What
the examples write is checked by value, then removed: the test refuses to start when a file
they would write already exists, so it never touches a reader's own files.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
WRITTEN = ("my_attempts.csv", "my_reports", "my_05.ipynb", "my_papermill_reports",
           "my_scores.csv", "my_report.json")
"""What the examples write in the repository root (all git-ignored or removed afterwards)."""


def shell_examples(text: str) -> list[str]:
    """The command lines of every ```bash block, set-up commands (``make``) left out.

    >>> shell_examples("x\\n```bash\\nmake test\\nrecallscore validate\\n```\\n")
    ['recallscore validate']
    """
    blocks = re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)
    lines = [line for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.strip() and not line.lstrip().startswith("make ")]


def _files(root: Path) -> set[Path]:
    skip = {".git", ".venv"}
    return {p for p in root.rglob("*") if not skip & set(p.relative_to(root).parts)}


@pytest.fixture
def clean_root():
    """The repository root, with whatever the examples add removed afterwards."""
    clash = [name for name in WRITTEN if (ROOT / name).exists()]
    if clash:
        pytest.fail(f"the README examples would overwrite {', '.join(clash)} in {ROOT}: "
                    "move them away and run again")
    before = _files(ROOT)
    try:
        yield ROOT
    finally:
        for path in sorted(_files(ROOT) - before, key=lambda p: len(p.parts), reverse=True):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def test_the_readme_lists_its_examples():
    lines = shell_examples(README.read_text(encoding="utf-8"))
    assert lines[0] == ". .venv/bin/activate"
    assert "recallscore run 05 -p attempts_path my_attempts.csv --output-dir my_reports" in lines
    assert any(line.startswith("papermill notebooks/05_reanalysis.ipynb") for line in lines)
    assert "recallscore explore 05" in lines


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "activate").is_file(),
                    reason="the README's commands run in the project's .venv")
def test_the_readme_examples_run_verbatim_from_the_repository_root(clean_root):
    script = "set -euo pipefail\n" + "\n".join(shell_examples(README.read_text(encoding="utf-8")))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "JPY_SESSION_NAME")}
    run = subprocess.run(["bash", "-c", script], cwd=clean_root, capture_output=True, text=True,
                         timeout=900, env=env)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr}"
    assert "valid benchmark: 12 rows, 4 facts" in run.stdout
    assert "OK: 12 of 12 rows with published labels agree" in run.stdout
    assert "matches a fresh scoring of its inputs" in run.stdout
    assert "Traceback" not in run.stderr

    # run and papermill, given the same relative paths, compute the same tables
    for name in ("systems", "intervals", "saturation", "controls"):
        by_run = clean_root / "my_reports" / "tables" / f"05_reanalysis__{name}.csv"
        by_papermill = clean_root / "my_papermill_reports" / "tables" / by_run.name
        assert by_run.read_bytes() == by_papermill.read_bytes(), name
    systems = pd.read_csv(clean_root / "my_reports" / "tables" / "05_reanalysis__systems.csv")
    assert sorted(systems["system"]) == ["sys-a", "sys-b", "sys-c", "sys-d", "sys-e"]
    assert not (clean_root / "reports" / "fragments").exists()

    scores = pd.read_csv(clean_root / "my_scores.csv", keep_default_na=False)
    literal = scores.groupby("system")["literal_match"].sum()  # copies of the reference, by hand
    assert len(scores) == 120 and literal.to_dict() == {
        "sys-a": 19, "sys-b": 1, "sys-c": 7, "sys-d": 0, "sys-e": 0}
    assert (clean_root / "scratch" / "05_reanalysis.ipynb").is_file()
    git = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                         cwd=clean_root, capture_output=True, text=True)
    if git.returncode == 0:  # outside a git checkout there is nothing to compare
        assert "scratch/" not in git.stdout  # explore's copy is git-ignored


def test_the_readme_does_not_need_an_activated_shell_for_its_first_commands():
    """The two set-up commands come first, and the README says how to reach the rest."""
    text = README.read_text(encoding="utf-8")
    assert text.index("make reports") < text.index("make test") < text.index(". .venv/bin/activate")
    assert "`.venv/bin/`" in text
