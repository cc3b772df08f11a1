"""The README's and docs/' examples, run verbatim from the repository root, as a reader would.

Every line of every ```bash block of a page runs, in order, in one bash (``set -euo pipefail``)
in the repository root, with relative paths as written; only the set-up commands (``make …``)
are left out, since the tests themselves run under them. The README's first line,
``. .venv/bin/activate``, activates the environment for the lines after it; the pages of
``docs/`` say that they run in that environment, and their script starts with the same line.
What a page's examples write is checked by value, then removed: the test refuses to start when
a name the page uses in the repository root (:data:`WRITTEN`) already exists, so it never
touches a reader's own files, and fails when a page writes a name :data:`WRITTEN` does not list
or changes ``reports/`` or ``notebooks/``. Every ```pycon block runs as a doctest, a page's
blocks in one namespace, from the repository root. ```text, ```python and ```json blocks are
shown, never run.
"""

from __future__ import annotations

import contextlib
import doctest
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = ["README.md", *sorted(f"docs/{page.name}" for page in DOCS.glob("*.md"))]
ACTIVATE = ". .venv/bin/activate"
MAX_README_LINES = 150
GUIDES = ["CONTRIBUTING.md", "benchmarks/README.md"]
"""Pages beside docs/ that the README leads to (CONTRIBUTING.md's examples run in
tests/test_contributing.py)."""

WRITTEN = {
    "README.md": ("my_attempts.csv", "my_scores.csv", "my_reports"),
    "docs/command-line.md": (
        "my_benchmark_scores.jsonl", "my_reproduction", "my_draft.json", "my_systems.parquet",
        "my_summary.csv", "my_summary.paired.csv", "my_squad_dev.json",
        "my_squad_predictions.json", "my_relabelled.json", "my_missing_attempts.csv"),
    "docs/errors.md": ("my_unclosed.csv", "my_unclosed_scores.csv", "my_unclosed_report.json"),
    "docs/file-formats.md": ("my_benchmark.json", "my_items.jsonl", "my_item_attempts.csv",
                             "my_item_scores.csv"),
    "docs/human-judges.md": ("my_agreement", "my_human_agreement", "my_gaming"),
    "docs/reports.md": ("my_statuses.csv", "my_report.json", "my_edited_report.json"),
    "docs/rules.md": (),
    "docs/scale.md": ("my_dataset", "my_dask_scores.csv", "my_pandas_scores.csv"),
    "docs/workbook.md": ("my_attempts.csv", "my_run_reports", "my_05.ipynb",
                         "my_papermill_reports"),
}
"""The names in the repository root each page's examples write, or name as a file that must
not be there (a refused output, a missing input): none may exist before the page runs."""
IGNORED = {".stamps", "scratch"}
"""Git-ignored folders the workbook's commands write into: run's stamps, explore's copies."""


def blocks(text: str, language: str) -> list[str]:
    """The text of every fenced block of ``language``, in order.

    >>> blocks("x\\n```bash\\nls\\n```\\n```text\\nout\\n```\\n", "bash")
    ['ls\\n']
    """
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def shell_examples(text: str) -> list[str]:
    """The lines of every ```bash block, set-up commands (``make``) left out.

    >>> shell_examples("x\\n```bash\\nmake test\\nrecallscore validate\\n```\\n")
    ['recallscore validate']
    """
    lines = [line for block in blocks(text, "bash") for line in block.splitlines()]
    return [line for line in lines if not line.lstrip().startswith("make ")]


def page_text(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


def page_script(page: str) -> str:
    """What bash runs for ``page``: its examples, after activating the environment."""
    lines = shell_examples(page_text(page))
    first = [] if page == "README.md" else [ACTIVATE]
    return "\n".join(["set -euo pipefail", *first, *lines]) + "\n"


def _files(root: Path) -> set[Path]:
    skip = {".git", ".venv"}
    return {p for p in root.rglob("*") if not skip & set(p.relative_to(root).parts)}


def _digest(*folders: Path) -> str:
    """One hash of every file's path and bytes under ``folders``."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(ROOT).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


@contextlib.contextmanager
def clean_root(page: str):
    """The repository root, with whatever ``page``'s examples add removed afterwards."""
    clash = [name for name in WRITTEN[page] if (ROOT / name).exists()]
    if clash:
        pytest.fail(f"the examples of {page} would overwrite {', '.join(clash)} in {ROOT}: "
                    "move them away and run again")
    before, paper = _files(ROOT), _digest(ROOT / "reports", ROOT / "notebooks")
    try:
        yield ROOT
        added = {p.relative_to(ROOT).parts[0] for p in _files(ROOT) - before}
        assert added <= set(WRITTEN[page]) | IGNORED, f"{page} wrote {sorted(added)}"
        assert _digest(ROOT / "reports", ROOT / "notebooks") == paper, f"{page} changed the paper"
    finally:
        for path in sorted(_files(ROOT) - before, key=lambda p: len(p.parts), reverse=True):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def run_page(page: str, root: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "JPY_SESSION_NAME")}
    run = subprocess.run(["bash", "-c", page_script(page)], cwd=root, capture_output=True,
                         text=True, timeout=600, env=env)
    assert run.returncode == 0, f"{page}:\n{run.stdout}\n{run.stderr}"
    assert "Traceback" not in run.stderr
    return run


def read_csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False)


# --- what each page's examples write, checked by value ---------------------------------------
def check_readme(run, root: Path) -> None:
    from recallscore_nb.core.registry import signatures

    assert "valid benchmark: 12 rows, 4 facts" in run.stdout
    assert "OK: 12 of 12 rows with published labels agree" in run.stdout
    lines = run.stdout.splitlines()
    start = lines.index(signatures()[0])
    assert lines[start:start + len(signatures())] == signatures()
    scores = read_csv(root / "my_scores.csv")
    literal = scores.groupby("system")["literal_match"].sum()  # copies of the reference, by hand
    assert len(scores) == 120 and literal.to_dict() == {
        "sys-a": 19, "sys-b": 1, "sys-c": 7, "sys-d": 0, "sys-e": 0}
    assert "paired comparison of sys-a and sys-c" in run.stdout
    out = root / "my_reports"
    systems = read_csv(out / "tables" / "05_reanalysis__systems.csv")
    assert sorted(systems["system"]) == ["sys-a", "sys-b", "sys-c", "sys-d", "sys-e"]
    for name in ("figures/05_reanalysis__intervals.png", "figures/05_reanalysis__intervals.pdf",
                 "figures/05_reanalysis__intervals.svg", "paper/numbers.tex",
                 "notebooks/05_reanalysis.ipynb", "tables/05_reanalysis__intervals.md"):
        assert (out / name).is_file(), name
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"path": "my_attempts.csv", "sha256": hashlib.sha256(
        (root / "my_attempts.csv").read_bytes()).hexdigest()} in manifest["inputs"]
    assert not (root / "reports" / "fragments").exists()
    _check_explored(run, root)


def _check_explored(run, root: Path) -> None:
    """``recallscore explore 05`` made its copy (or kept the reader's) and said how to open it."""
    assert (root / "scratch" / "05_reanalysis.ipynb").is_file()
    assert "jupyter lab scratch/05_reanalysis.ipynb" in run.stdout
    git = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                         cwd=root, capture_output=True, text=True)
    if git.returncode == 0:  # outside a git checkout there is nothing to compare
        assert "scratch/" not in git.stdout  # explore's copy is git-ignored


def check_workbook(run, root: Path) -> None:
    assert "resamples: int (default 2000)" in run.stdout  # papermill --help-notebook
    # run and papermill, given the same relative paths, compute the same tables
    for name in ("systems", "scores", "intervals", "saturation", "controls", "stuffing"):
        by_run = root / "my_run_reports" / "tables" / f"05_reanalysis__{name}.csv"
        by_papermill = root / "my_papermill_reports" / "tables" / by_run.name
        assert by_run.read_bytes() == by_papermill.read_bytes(), name
    assert (root / "my_run_reports" / "notebooks" / "05_reanalysis.ipynb").is_file()
    assert json.loads((root / "my_05.ipynb").read_text())["cells"]
    assert not (root / "my_papermill_reports" / "notebooks").exists()  # run alone: no copy
    papermill = json.loads((root / "my_papermill_reports" / "manifest.json").read_text())
    assert list(papermill["notebooks"]) == ["05_reanalysis"]
    assert "refused: exit 2" in run.stdout and "give --output-dir" in run.stderr
    _check_explored(run, root)


def check_command_line(run, root: Path) -> None:
    records = [json.loads(line) for line in
               (root / "my_benchmark_scores.jsonl").read_text().splitlines()]
    assert len(records) == 12 and list(records[0])[:3] == ["id", "attempt", "condition"]
    assert records[0]["id"] == "R01" and records[0]["literal_match"] is True
    summary = read_csv(root / "my_reproduction" / "reproduce__summary.csv").set_index("field")
    assert summary.loc["checklistFullMatches"].tolist() == [8, 8]
    assert (root / "my_reproduction" / "reproduce__rows.csv").is_file()
    draft = json.loads((root / "my_draft.json").read_text())
    n = len(draft["rows"])
    assert draft["generatedBy"]["seed"] == 1 and f"OK: {n} of {n} rows" in run.stdout
    assert "reproduce disagrees" not in run.stderr
    table = read_csv(root / "my_summary.csv")
    assert sorted(set(table["rule"])) == ["partial_credit", "token_f1"] and len(table) == 10
    means = table.set_index(["system", "rule"])["mean"]
    assert means[("sys-b", "partial_credit")] == 1.0  # every sys-b attempt states every fact
    paired = read_csv(root / "my_summary.paired.csv")
    assert paired[["a", "b"]].drop_duplicates().values.tolist() == [["sys-a", "sys-b"]]
    assert '{"exact_match": 50.0, "f1": 50.0}' in run.stdout.splitlines()
    assert "R01 literalMatch false true" in run.stdout and "reproduce: exit 1" in run.stdout
    assert "my_missing_attempts.csv: no such file" in run.stderr
    assert "score: exit 2" in run.stdout


def check_rules(run, root: Path) -> None:
    from recallscore_nb.core.registry import signatures

    assert run.stdout.splitlines() == signatures("v1.1") + signatures("v2.0")


def check_reports(run, root: Path) -> None:
    statuses = read_csv(root / "my_statuses.csv")
    assert {"status_location", "weighted_score", "basis_location"} <= set(statuses.columns)
    assert statuses["status_material"].tolist().count("contradicted") == 1
    report = json.loads((root / "my_report.json").read_text())
    assert report["status"] == "ok" and report["totals"]["count"] == 12
    assert report["totals"]["mean_weighted_score"] == pytest.approx(statuses["weighted_score"].mean())
    assert "OK: my_report.json matches a fresh scoring of its inputs" in run.stdout
    assert "$.totals.count: stored 13, recomputed 12" in run.stdout
    assert "exit 1" in run.stdout.splitlines()
    assert "OK: docs/report-example.json matches a fresh scoring of its inputs" in run.stdout


def check_human_judges(run, root: Path) -> None:
    out = root / "my_agreement"
    assert sorted(p.name for p in out.iterdir()) == [
        "agreement.csv", "annotators.csv", "disagreements.csv", "panel.csv", "panel_pairs.csv",
        "ranking.csv", "systems.csv"]
    agreement = read_csv(out / "agreement.csv").set_index(["rule", "judge"])
    assert agreement.loc[("literal_match", "human"), "n"] == 24
    assert agreement.loc[("literal_match", "human"), "accuracy"] == 14 / 24
    annotators = read_csv(out / "annotators.csv")
    assert annotators["judges"].iloc[0] == "annotator1,annotator2,annotator3"
    categories = set(read_csv(out / "disagreements.csv")["category"])
    assert categories <= {"reference-inside-longer-answer", "number-or-date",
                          "no-token-overlap", "partial-overlap"}
    assert "24 of 24 attempts judged by human" in run.stdout
    manifest = json.loads((root / "my_human_agreement" / "manifest.json").read_text())
    signed = manifest["notebooks"]["08_human_agreement"]["signatures"]
    assert any(s.startswith("agree|protocol:direct|reference:annotator1|") for s in signed)
    assert (root / "my_human_agreement" / "figures" / "08_human_agreement__kappa.png").is_file()
    ranking = read_csv(root / "my_human_agreement" / "tables" / "08_human_agreement__ranking.csv")
    assert set(ranking["set"]) == {"example"}  # the set the page names, not the default three
    shares = read_csv(root / "my_gaming" / "gaming_shares.csv").set_index(["rule", "family"])
    assert shares.loc[("contains", "list"), ["n", "accepted"]].tolist() == [301, 301]
    assert shares.loc[("literal_match", "hedge"), "accepted"] == 0


def check_scale(run, root: Path) -> None:
    dask = (root / "my_dask_scores.csv").read_bytes()
    assert dask == (root / "my_pandas_scores.csv").read_bytes()
    scores = read_csv(root / "my_dask_scores.csv")
    assert len(scores) == 120 and scores["id"].iloc[0] == "a01"  # the file's own ids, in order


def check_file_formats(run, root: Path) -> None:
    assert "my_benchmark.json: valid benchmark: 2 rows, 2 facts" in run.stdout
    assert "unchecked (4): K1 normalizedMatch, K1 factsPresent" in run.stdout
    assert "OK: 2 of 2 rows with published labels agree; 4 published values checked" in run.stdout
    scores = pd.read_csv(root / "my_item_scores.csv", dtype=str, keep_default_na=False)
    scores = scores.set_index(["item", "system"])
    assert scores.loc[("capital", "a"), "contains"] == "true"  # "Paris", as whole tokens
    assert scores.loc[("capital", "a"), "squad_exact_match"] == "false"
    assert scores.loc[("capital", "a"), "facts_present"] == ""  # no checklist for this item
    assert scores.loc[("metal", "a"), "checklist_full_match"] == "true"
    assert scores.loc[("metal", "b"), "facts_missing"] == "metal"


def check_errors(run, root: Path) -> None:
    for line in blocks(page_text("docs/errors.md"), "text")[0].splitlines():
        target = run.stderr if line.startswith("recallscore: error:") else run.stdout
        assert line in target.splitlines(), line
    assert "report: exit 2" in run.stdout
    assert not (root / "my_unclosed_scores.csv").exists()
    assert (root / "my_unclosed.csv").read_text() == 'id,attempt\n1,"never closed\n2,fine\n'
    report = json.loads((root / "my_unclosed_report.json").read_text())
    assert report["status"] == "error" and "attempts" not in report
    assert report["errors"][0]["location"] == "line 2"


CHECKS = {
    "README.md": check_readme,
    "docs/command-line.md": check_command_line,
    "docs/errors.md": check_errors,
    "docs/file-formats.md": check_file_formats,
    "docs/human-judges.md": check_human_judges,
    "docs/reports.md": check_reports,
    "docs/rules.md": check_rules,
    "docs/scale.md": check_scale,
    "docs/workbook.md": check_workbook,
}


# --- the tests -------------------------------------------------------------------------------
def test_every_page_has_its_written_files_and_its_checks():
    assert set(WRITTEN) == set(CHECKS) == set(PAGES)


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "activate").is_file(),
                    reason="the examples run in the project's .venv")
@pytest.mark.parametrize("page", PAGES)
def test_the_examples_run_verbatim_from_the_repository_root(page):
    with clean_root(page) as root:
        run = run_page(page, root)
        CHECKS[page](run, root)


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(page_text(p), "pycon")])
def test_the_python_examples_give_what_they_show(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = "\n".join(blocks(page_text(page), "pycon"))
    test = doctest.DocTestParser().get_doctest(text, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    report: list[str] = []
    failed, attempted = runner.run(test, out=report.append)
    assert attempted and not failed, "".join(report)


def test_the_readme_is_short_and_starts_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_README_LINES
    assert blocks(text, "bash")[0].splitlines() == [
        "make reports   # set up .venv/ (first run only), run every notebook, write reports/",
        "make test      # set up .venv/ the same way and run every test"]
    assert text.index("make reports") < text.index("make test") < text.index(ACTIVATE)
    assert "`.venv/bin/`" in text  # how to reach the other commands without activating


def test_the_readme_lists_its_examples():
    lines = shell_examples(README.read_text(encoding="utf-8"))
    assert lines[0] == ACTIVATE
    assert "recallscore run 05 -p attempts_path my_attempts.csv --output-dir my_reports" in lines
    assert "recallscore explore 05" in lines
    workbook = shell_examples(page_text("docs/workbook.md"))
    assert any(line.startswith("papermill notebooks/05_reanalysis.ipynb") for line in workbook)


def test_every_docs_page_says_it_runs_in_the_environment():
    for page in PAGES[1:]:
        if blocks(page_text(page), "bash"):
            text = " ".join(page_text(page).split())
            assert f"(`{ACTIVATE}`, see the [README](../README.md))" in text, page


def test_the_readme_leads_to_every_page():
    text = README.read_text(encoding="utf-8")
    for page in PAGES[1:] + GUIDES:
        assert f"]({page})" in text, page


def _anchor(heading: str) -> str:
    """A heading's anchor, as GitHub makes it.

    >>> _anchor("## `score` and `report`")
    'score-and-report'
    """
    return re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower()).replace(" ", "-")


def test_every_link_leads_somewhere():
    for page in PAGES + GUIDES:
        text = page_text(page)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in target:
                continue
            path, _, anchor = target.partition("#")
            resolved = (ROOT / page).parent / path if path else ROOT / page
            assert resolved.exists(), f"{page}: {target}"
            if anchor:
                headings = re.findall(r"^#+ .*$", resolved.read_text(encoding="utf-8"), re.M)
                assert anchor in {_anchor(h) for h in headings}, f"{page}: {target}"


def test_the_rules_page_shows_what_signature_prints():
    from recallscore_nb.core.registry import signatures

    shown = blocks(page_text("docs/rules.md"), "text")[0].splitlines()
    assert shown == signatures()


def test_the_workbook_page_quotes_the_notebook_as_it_is():
    """The cells docs/workbook.md shows are notebook 05's own cells, word for word."""
    notebook = json.loads((ROOT / "notebooks" / "05_reanalysis.ipynb").read_text())
    cells = {"".join(cell["source"]).strip() for cell in notebook["cells"]}
    for shown in blocks(page_text("docs/workbook.md"), "python"):
        assert shown.strip() in cells, shown
